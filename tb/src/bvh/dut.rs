//! The BVH intersector's RTL behind the transaction interface, with a memory model on its node port.
//!
//! Per cycle the driver offers the next ray (with seeded random idle cycles), the memory accepts a
//! request unless it stalls at random, answers each request in order after a random latency in
//! `min_latency..=max_latency` cycles (withholding `mem_resp_valid` at random too), and the sink
//! takes results unless it stalls. Each request is checked against the address and size the golden
//! model says the k-th fetching ray needs (a wrong, missing or extra request is an error) and is
//! answered from that ray's own memory image (its node written where its pointer points).
//! Results return with `cycle_in`/`cycle_out`; tags catch lost, duplicated or reordered rays.
//! After the last result the driver keeps clocking for a drain (the longest latency of the run plus
//! [`DRAIN_MARGIN`], at least the memory's longest latency plus that margin) with no ray offered,
//! the sink and the memory ready and no response pending: any `out_valid` or `mem_req_valid` then
//! is an error, and so is a memory response the unit never took.
//! A rejected instruction reads back as the golden model's error for the same instruction fields:
//! the hardware reports the rejection (`out_err`), the field named in the message is decoded here.

use crate::bvh::{self, check_instr, BvhResult, BvhTxn};
use crate::unit::RtlRun;
use texpix_rtl::bvh::BvhUnit;
use texpix_sim::{
    drain_cycles, IdleWatch, LatencyMemory, Sim, SplitMix64, StreamConfig, StreamStats, Transfer,
    DRAIN_MARGIN,
};

/// Memory timing.
#[derive(Clone, Debug)]
pub struct MemConfig {
    /// Fewest cycles from request to response.
    pub min_latency: u64,
    /// Most cycles from request to response.
    pub max_latency: u64,
    /// Probability (‰) that the memory refuses a request or withholds a response in a cycle.
    pub stall_permille: u32,
}

impl Default for MemConfig {
    fn default() -> Self {
        Self {
            min_latency: 4,
            max_latency: 12,
            stall_permille: 100,
        }
    }
}

/// What the memory saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemStats {
    pub requests: usize,
    pub max_outstanding: usize,
}

fn drive(u: &mut BvhUnit, x: Option<(u16, &BvhTxn)>) {
    u.in_valid.next = x.is_some();
    let Some((tag, t)) = x else {
        return;
    };
    let r = &t.ray;
    u.in_tag.next = (tag as u64).into();
    u.in_ptr_lo.next = (t.node_ptr & 0xFFFF_FFFF).into();
    u.in_ptr_hi.next = (t.node_ptr >> 32).into();
    u.in_bvh64.next = t.bvh64;
    u.in_a16.next = t.a16;
    u.in_extent.next = (r.extent as u64).into();
    let o = [&mut u.in_o_x, &mut u.in_o_y, &mut u.in_o_z];
    for (k, s) in o.into_iter().enumerate() {
        s.next = (r.origin[k] as u64).into();
    }
    let d: [u32; 3] = if t.a16 {
        std::array::from_fn(|k| (r.dir[k] & 0xFFFF) | (r.inv_dir[k] << 16))
    } else {
        r.dir
    };
    let dirs = [&mut u.in_d_x, &mut u.in_d_y, &mut u.in_d_z];
    for (k, s) in dirs.into_iter().enumerate() {
        s.next = (d[k] as u64).into();
    }
    let inv = [&mut u.in_i_x, &mut u.in_i_y, &mut u.in_i_z];
    for (k, s) in inv.into_iter().enumerate() {
        s.next = (if t.a16 { 0 } else { r.inv_dir[k] } as u64).into();
    }
    for (k, w) in t.desc.to_bits().iter().enumerate() {
        u.in_desc[k].next = (*w as u64).into();
    }
    let i = &t.instr;
    u.in_dmask.next = ((i.dmask & 0xF) as u64).into();
    u.in_d16.next = i.d16 != 0;
    u.in_r128.next = i.r128 != 0;
    u.in_unrm.next = i.unrm != 0;
    u.in_dim.next = ((i.dim & 7) as u64).into();
    u.in_lwe.next = i.lwe != 0;
    u.in_tfe.next = i.tfe != 0;
    u.in_ssamp.next = i.ssamp != 0;
}

/// Runs rays through the RTL with the default memory model (latency 4…12 cycles, stalling at half
/// the stream's output stall probability) and returns their results in order.
pub fn run(sim: &mut Sim<BvhUnit>, vectors: &[BvhTxn], cfg: &StreamConfig) -> RtlRun<BvhResult> {
    let mem = MemConfig {
        stall_permille: cfg.out_stall_permille / 2,
        ..MemConfig::default()
    };
    run_with_memory(sim, vectors, cfg, &mem).map(|(r, s, _)| (r, s))
}

/// [`run`] with the memory timing drawn from `cfg.seed` (what `texpix regress` runs): latency
/// at least 1…40 cycles and at most 0…40 more, memory stalls 0…40 %.
pub fn run_random_memory(
    sim: &mut Sim<BvhUnit>,
    vectors: &[BvhTxn],
    cfg: &StreamConfig,
) -> RtlRun<BvhResult> {
    let mem = random_memory(cfg.seed);
    run_with_memory(sim, vectors, cfg, &mem).map(|(r, s, _)| (r, s))
}

/// A memory timing drawn from `seed`: the latency range and the stall probability of
/// [`run_random_memory`].
pub fn random_memory(seed: u64) -> MemConfig {
    let mut rng = SplitMix64::new(seed ^ 0x7265_6772_6573_735f);
    let min_latency = 1 + rng.next_u64() % 40;
    MemConfig {
        min_latency,
        max_latency: min_latency + rng.next_u64() % 41,
        stall_permille: (rng.next_u64() % 5) as u32 * 100,
    }
}

/// Runs rays through the RTL with the memory model `mem` and returns their results in order, the
/// stream statistics and what the memory saw.
pub fn run_with_memory(
    sim: &mut Sim<BvhUnit>,
    vectors: &[BvhTxn],
    cfg: &StreamConfig,
    mem: &MemConfig,
) -> Result<(Vec<Transfer<BvhResult>>, StreamStats, MemStats), String> {
    let mut rng = SplitMix64::new(cfg.seed ^ 0x6D65_6D6F_7279);
    let fetching: Vec<usize> = (0..vectors.len())
        .filter(|&k| bvh::fetch(&vectors[k]).is_some())
        .collect();
    let mut stats = StreamStats::default();
    let mut mstats = MemStats::default();
    let mut outs: Vec<Transfer<BvhResult>> = Vec::with_capacity(vectors.len());
    let mut accepted_at: Vec<u64> = Vec::with_capacity(vectors.len());
    let mut queue =
        LatencyMemory::<[u32; 32]>::new(mem.min_latency, mem.max_latency, mem.stall_permille)?;
    let (mut next, mut offering) = (0usize, false);
    let mut watch = IdleWatch::new(cfg.max_idle_cycles + mem.max_latency);
    let start = sim.cycle();
    while outs.len() < vectors.len() {
        let cycle = sim.cycle();
        if !offering && next < vectors.len() {
            offering = !rng.permille(cfg.in_idle_permille);
        }
        drive(
            &mut sim.uut,
            offering.then(|| (next as u16, &vectors[next])),
        );
        let out_ready = !rng.permille(cfg.out_stall_permille);
        let (req_ready, resp_valid) = queue.draw(cycle, &mut rng);
        {
            let u = &mut sim.uut;
            u.out_ready.next = out_ready;
            u.mem_req_ready.next = req_ready;
            u.mem_resp_valid.next = resp_valid;
            let data = queue.front().copied().unwrap_or([0u32; 32]);
            for (k, w) in data.iter().enumerate() {
                u.mem_resp_data[k].next = (*w as u64).into();
            }
        }
        sim.settle().map_err(|e| e.to_string())?;
        let u = &sim.uut;
        let in_fire = offering && u.in_ready.val();
        if u.mem_req_valid.val() && req_ready {
            let k = mstats.requests;
            let addr = (u.mem_req_addr_hi.val().to_u64() << 32) | u.mem_req_addr_lo.val().to_u64();
            let Some(&v) = fetching.get(k) else {
                return Err(format!(
                    "cycle {cycle}: unexpected memory request {k} at {addr:#x}"
                ));
            };
            let f = bvh::fetch(&vectors[v]).ok_or("fetch vanished")?;
            let len = if u.mem_req_len128.val() { 128 } else { 64 };
            if f.addr != addr || f.bytes != len {
                return Err(format!(
                    "cycle {cycle}: request {k} (vector {v}) for {len} bytes at {addr:#x}, expected {} bytes at {:#x}",
                    f.bytes, f.addr
                ));
            }
            if v != next || !in_fire {
                return Err(format!(
                    "cycle {cycle}: request {k} issued without its ray being accepted"
                ));
            }
            let image = bvh::memory_of(&vectors[v]);
            let data = std::array::from_fn(|w| image.read_u32(addr.wrapping_add(4 * w as u64)));
            queue.request(cycle, &mut rng, data);
            mstats.requests += 1;
            mstats.max_outstanding = mstats.max_outstanding.max(queue.len());
        }
        let resp_fire = resp_valid && u.mem_resp_ready.val();
        let out_valid = u.out_valid.val();
        if offering && !in_fire {
            stats.in_stall_cycles += 1;
        }
        if out_valid && !out_ready {
            stats.out_stall_cycles += 1;
        }
        if out_valid && out_ready {
            let k = outs.len();
            if k >= accepted_at.len() {
                return Err(format!(
                    "cycle {cycle}: more results than accepted rays (duplicate)"
                ));
            }
            let tag = u.out_tag.val().to_u32() as usize;
            if tag != k % 65536 {
                return Err(format!(
                    "cycle {cycle}: result tag {tag} where {k} was due (lost or reordered)"
                ));
            }
            let out = if u.out_err.val() {
                match check_instr(&vectors[k].instr) {
                    Err(e) => Err(e),
                    Ok(()) => return Err(format!("vector {k}: RTL rejected a legal instruction")),
                }
            } else {
                Ok(std::array::from_fn(|j| u.out_d[j].val().to_u32()))
            };
            outs.push(Transfer {
                out,
                cycle_in: accepted_at[k],
                cycle_out: cycle,
            });
        }
        if resp_fire {
            queue.pop();
        }
        if in_fire {
            accepted_at.push(cycle);
            next += 1;
            offering = false;
        }
        watch
            .tick(
                in_fire || (out_valid && out_ready) || resp_fire,
                cycle,
                accepted_at.len(),
                outs.len(),
                vectors.len(),
            )
            .map_err(|e| e.to_string())?;
        sim.step().map_err(|e| e.to_string())?;
    }
    if mstats.requests != fetching.len() {
        return Err(format!(
            "{} memory requests for {} fetching rays",
            mstats.requests,
            fetching.len()
        ));
    }
    stats.cycles = sim.cycle() - start;
    stats.accepted = accepted_at.len();
    stats.emitted = outs.len();
    if !queue.is_empty() {
        return Err(format!(
            "{} memory responses never taken by the last result",
            queue.len()
        ));
    }
    let drain = drain_cycles(&outs).max(mem.max_latency + DRAIN_MARGIN);
    for _ in 0..drain {
        let cycle = sim.cycle();
        drive(&mut sim.uut, None);
        let u = &mut sim.uut;
        u.out_ready.next = true;
        u.mem_req_ready.next = true;
        u.mem_resp_valid.next = false;
        sim.settle().map_err(|e| e.to_string())?;
        let u = &sim.uut;
        if u.mem_req_valid.val() {
            let addr = (u.mem_req_addr_hi.val().to_u64() << 32) | u.mem_req_addr_lo.val().to_u64();
            return Err(format!(
                "cycle {cycle}: memory request at {addr:#x} in the drain after the last of the {} results (a stray request)",
                outs.len()
            ));
        }
        if u.out_valid.val() {
            return Err(format!(
                "cycle {cycle}: out_valid (tag {}) in the drain after the last of the {} results (a trailing, extra output)",
                u.out_tag.val().to_u32(),
                outs.len()
            ));
        }
        sim.step().map_err(|e| e.to_string())?;
    }
    Ok((outs, stats, mstats))
}
