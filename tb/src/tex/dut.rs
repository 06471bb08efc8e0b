//! The texture unit's RTL behind the transaction interface, with a memory model on its line port
//! and a residency map on its residency port.
//!
//! Per cycle the driver offers the next instruction (with seeded random idle cycles), the memory
//! accepts a request unless it stalls at random and answers each request in order after a random
//! latency in `min_latency..=max_latency` cycles (withholding the response at random too), and
//! the sink takes results unless it stalls. The unit works on one instruction at a time, so every
//! memory request belongs to the instruction accepted last and not yet returned; the requests of
//! an instruction form its result's `lines`, which the scoreboard compares with the golden model's
//! line list (a wrong, missing, extra or reordered request is a mismatch), and `out_lines` must
//! count them. A request with no instruction in flight, or in the drain after the last result, is
//! an error. Memory is answered from the instruction's own textures ([`super::memory_line`]).
//! The residency port is answered from the bound texture's non-resident tiles. The cache is
//! flushed (`in_flush`) exactly when the golden model flushes: whenever an instruction's textures
//! differ from the previous instruction's.

use super::{memory_line, CacheConfig, TexModel, TexResult, TexTxn, LINE_BYTES};
use crate::texaddr::Fault;
use crate::unit::RtlRun;
use texpix_rtl::tex::TexUnit;
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
            min_latency: 2,
            max_latency: 20,
            stall_permille: 100,
        }
    }
}

/// What the memory and the cache saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemStats {
    pub requests: usize,
    /// The unit's hit and miss counters at the end.
    pub hits: u64,
    pub misses: u64,
    /// Cycles with a texture-semaphore acquire outstanding.
    pub sem_busy_cycles: u64,
    /// `sem_wait` instructions offered while an acquire was outstanding, the cycles they waited
    /// for it (offered, not accepted, acquire outstanding) in total and at most.
    pub sem_blocked: u64,
    pub sem_wait_cycles: u64,
    pub sem_wait_max: u64,
}

/// Drives an instruction onto the input ports.
fn drive(u: &mut TexUnit, x: Option<(u16, &TexTxn, bool)>) {
    u.in_valid.next = x.is_some();
    let Some((tag, t, flush)) = x else {
        return;
    };
    let hdr = super::bound_texture(t).map_or([0; 5], |tex| tex.header());
    let s = &t.sampler;
    u.in_tag.next = u64::from(tag).into();
    u.in_op.next = (t.op as u64).into();
    u.in_flush.next = flush;
    for (k, w) in hdr.iter().enumerate() {
        u.in_hdr[k].next = u64::from(*w).into();
    }
    u.in_wrap.next = (s.wrap_s as u64 | (s.wrap_t as u64) << 3 | (s.wrap_r as u64) << 6).into();
    u.in_min_lin.next = s.min_filter == super::Filter::Linear;
    u.in_mag_lin.next = s.mag_filter == super::Filter::Linear;
    u.in_mip.next = (s.mip_filter as u64).into();
    u.in_unnorm.next = s.unnormalized;
    u.in_bias.next = u64::from(s.bias as u32 & 0xFFFF).into();
    u.in_min_lod.next = u64::from(s.min_lod & 0xFFF).into();
    u.in_max_lod.next = u64::from(s.max_lod & 0xFFF).into();
    u.in_compare.next = (s.compare as u64).into();
    u.in_aniso.next = u64::from(s.max_aniso & 31).into();
    for c in 0..4 {
        u.in_border[c].next = u64::from(s.border[c]).into();
    }
    for l in 0..4 {
        for k in 0..4 {
            u.in_coord[4 * l + k].next = u64::from(t.coords[l][k]).into();
            u.in_grad[4 * l + k].next = u64::from(t.grad[l][k]).into();
        }
        u.in_lbias[l].next = u64::from(t.bias[l]).into();
        u.in_lod[l].next = u64::from(t.lod[l]).into();
        u.in_ref[l].next = u64::from(t.reference[l]).into();
        let [du, dv, dw] = t.offset[l];
        u.in_off[l].next =
            u64::from((du as u32 & 15) | (dv as u32 & 15) << 4 | (dw as u32 & 15) << 8).into();
    }
    u.in_wmask.next = u64::from(t.wmask & 15).into();
    u.in_gcomp.next = u64::from(t.gather_comp & 3).into();
    u.in_unscaled.next = t.unscaled;
    u.in_sem_wait.next = t.sem_wait;
    u.in_sem_acquire.next = t.sem_acquire;
    let m = &t.mimg;
    u.in_dmask.next = u64::from(m.dmask & 15).into();
    u.in_d16.next = m.d16;
    u.in_tfe.next = m.tfe;
    u.in_lwe.next = m.lwe;
    u.in_a16.next = m.a16;
    u.in_g16.next = m.g16;
    u.in_mimg.next = m.address.is_some();
    u.in_moff.next = m.address.as_ref().is_some_and(|a| a.offset);
    let ports = [
        &mut u.in_vaddr0,
        &mut u.in_vaddr1,
        &mut u.in_vaddr2,
        &mut u.in_vaddr3,
    ];
    for (l, port) in ports.into_iter().enumerate() {
        for (k, p) in port.iter_mut().enumerate() {
            let w = m
                .address
                .as_ref()
                .and_then(|a| a.vaddr[l].get(k).copied())
                .unwrap_or(0);
            p.next = u64::from(w).into();
        }
    }
}

/// Answers the residency port from the instruction's bound texture.
fn residency(u: &mut TexUnit, t: Option<&TexTxn>) {
    let tex = t.and_then(super::bound_texture);
    let (l0, l1) = (u.res_level0.val().to_u32(), u.res_level1.val().to_u32());
    for s in 0..32 {
        let level = if s % 8 < 4 { l0 } else { l1 };
        let tile = u64::from(u.res_tile[s].val().to_u32());
        let ok = tex.is_none_or(|x| !x.nonresident.contains(&(level, tile)));
        u.res_ok[s].next = ok;
    }
}

/// Reads the result of `t` (without its lines, which the driver collects).
fn read(u: &TexUnit, t: &TexTxn) -> TexResult {
    let mut r = TexResult {
        rgba: std::array::from_fn(|l| {
            std::array::from_fn(|c| u.out_rgba[4 * l + c].val().to_u32())
        }),
        wmask: u.out_wmask.val().to_u32(),
        status: std::array::from_fn(|l| u.out_status[l].val().to_u32()),
        fault: Fault::from_code(u.out_fault.val().to_u32()),
        lambda: std::array::from_fn(|l| u.out_lambda[l].val().to_u32() as u16 as i16 as i32),
        lines: Vec::new(),
        kill: u.out_kill.val().to_u32(),
        vdata: None,
        d16: None,
    };
    if t.mimg.returns_vdata() {
        let n = u.out_vcount.val().to_u32() as usize;
        let v = std::array::from_fn(|l| {
            (0..n.min(5))
                .map(|k| u.out_vdata[5 * l + k].val().to_u32())
                .collect()
        });
        r.set_vdata(&t.mimg, v);
    }
    r
}

/// Runs instructions through the RTL with the cache on and the default memory model (stalling at
/// half the stream's output stall probability); results in order.
pub fn run(sim: &mut Sim<TexUnit>, vectors: &[TexTxn], cfg: &StreamConfig) -> RtlRun<TexResult> {
    let mem = MemConfig {
        stall_permille: cfg.out_stall_permille / 2,
        ..MemConfig::default()
    };
    run_with(sim, vectors, cfg, &mem, CacheConfig::default()).map(|(r, s, _)| (r, s))
}

/// [`run`] with the memory timing drawn from `cfg.seed` (what `texpix regress` runs): latency
/// at least 1…40 cycles and at most 0…120 more, memory stalls 0…40 %, the cache on.
pub fn run_random_memory(
    sim: &mut Sim<TexUnit>,
    vectors: &[TexTxn],
    cfg: &StreamConfig,
) -> RtlRun<TexResult> {
    let mem = random_memory(cfg.seed);
    run_with(sim, vectors, cfg, &mem, CacheConfig::default()).map(|(r, s, _)| (r, s))
}

/// A memory timing drawn from `seed`: the latency range and the stall probability of
/// [`run_random_memory`].
pub fn random_memory(seed: u64) -> MemConfig {
    let mut rng = SplitMix64::new(seed ^ 0x7265_6772_6573_735f);
    let min_latency = 1 + rng.next_u64() % 40;
    MemConfig {
        min_latency,
        max_latency: min_latency + rng.next_u64() % 121,
        stall_permille: (rng.next_u64() % 5) as u32 * 100,
    }
}

/// Runs instructions through the RTL with memory model `mem` and cache parameters `cache`.
pub fn run_with(
    sim: &mut Sim<TexUnit>,
    vectors: &[TexTxn],
    cfg: &StreamConfig,
    mem: &MemConfig,
    cache: CacheConfig,
) -> Result<(Vec<Transfer<TexResult>>, StreamStats, MemStats), String> {
    let mut queue =
        LatencyMemory::<[u8; 64]>::new(mem.min_latency, mem.max_latency, mem.stall_permille)?;
    let mut rng = SplitMix64::new(cfg.seed ^ 0x7465_7874_7572);
    // The flush bits: the golden model's rule, replayed.
    let mut model = TexModel::new(cache);
    let flushes: Vec<bool> = vectors
        .iter()
        .map(|t| {
            let f = model.needs_flush(t);
            model.step(t);
            f
        })
        .collect();
    let mut stats = StreamStats::default();
    let mut mstats = MemStats::default();
    // Cycles the offered instruction has waited for an outstanding acquire.
    let mut waited = 0u64;
    let mut outs: Vec<Transfer<TexResult>> = Vec::with_capacity(vectors.len());
    let mut accepted_at: Vec<u64> = Vec::with_capacity(vectors.len());
    // The lines requested for each instruction (by `mem_req_tag`).
    let mut lines: Vec<Vec<u64>> = vec![Vec::new(); vectors.len()];
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
            offering.then(|| (next as u16, &vectors[next], flushes[next])),
        );
        let out_ready = !rng.permille(cfg.out_stall_permille);
        let (req_ready, resp_valid) = queue.draw(cycle, &mut rng);
        // Several instructions are in flight; each memory request names its own by tag (the
        // fetch may run ahead of a result waiting for out_ready).
        let in_flight = (accepted_at.len() > outs.len()).then(|| &vectors[outs.len()]);
        let acquired = vectors[outs.len()..accepted_at.len()]
            .iter()
            .any(|t| t.sem_acquire);
        {
            let u = &mut sim.uut;
            u.out_ready.next = out_ready;
            u.mem_req_ready.next = req_ready;
            u.mem_resp_valid.next = resp_valid;
            let data = queue.front().copied().unwrap_or([0u8; 64]);
            for k in 0..8 {
                let w = u64::from_le_bytes(data[8 * k..8 * k + 8].try_into().unwrap_or_default());
                u.mem_resp_data[k].next = w.into();
            }
            u.cache_en.next = cache.enabled;
        }
        sim.settle().map_err(|e| e.to_string())?;
        if sim.uut.res_rd.val() {
            // The residency read names its instruction by tag (passes of a younger instruction
            // may be addressed while an older one fetches).
            let tag = sim.uut.res_tag.val().to_u32() as usize;
            let owner = (outs.len()..accepted_at.len())
                .find(|&k| k % 65536 == tag)
                .map(|k| &vectors[k]);
            if owner.is_none() {
                return Err(format!(
                    "cycle {cycle}: residency read with tag {tag}, which no instruction in flight has"
                ));
            }
            residency(&mut sim.uut, owner);
            sim.settle().map_err(|e| e.to_string())?;
        }
        let u = &sim.uut;
        let in_fire = offering && u.in_ready.val();
        // The texture semaphore: busy exactly while an acquiring instruction is in flight (from
        // its accept until its result has been taken), and no waiting instruction accepted then.
        if u.sem_busy.val() != acquired {
            return Err(format!(
                "cycle {cycle}: sem_busy = {} while an acquire is {}outstanding (in flight: {:?})",
                u.sem_busy.val(),
                if acquired { "" } else { "not " },
                (outs.len()..accepted_at.len())
                    .map(|k| (k, vectors[k].op, vectors[k].sem_acquire))
                    .collect::<Vec<_>>()
            ));
        }
        // An acquire waits for the outstanding one too (the unit never overlaps two acquires).
        let waits = offering && (vectors[next].sem_wait || vectors[next].sem_acquire);
        if in_fire && waits && acquired {
            return Err(format!(
                "cycle {cycle}: vector {next} (sem_wait or sem_acquire) accepted while an acquire is outstanding"
            ));
        }
        // An idle unit (nothing in flight, so no acquire outstanding) accepts what is offered; a waiting instruction is never held once the acquire is gone.
        if offering && in_flight.is_none() && !in_fire {
            return Err(format!(
                "cycle {cycle}: vector {next} offered to an idle unit and not accepted"
            ));
        }
        if offering && !in_fire && acquired && waits {
            waited += 1;
        }
        if in_fire {
            if waited > 0 {
                mstats.sem_blocked += 1;
                mstats.sem_wait_cycles += waited;
                mstats.sem_wait_max = mstats.sem_wait_max.max(waited);
            }
            waited = 0;
        }
        if acquired {
            mstats.sem_busy_cycles += 1;
        }
        if u.mem_req_valid.val() && req_ready {
            let line = u.mem_req_line.val().to_u64();
            let tag = u.mem_req_tag.val().to_u32() as usize;
            let Some(k) = (outs.len()..accepted_at.len()).find(|&k| k % 65536 == tag) else {
                return Err(format!(
                    "cycle {cycle}: memory request for line {line:#x} ({:#x}) with tag {tag}, which no instruction in flight has",
                    line * LINE_BYTES
                ));
            };
            queue.request(cycle, &mut rng, memory_line(&vectors[k].textures, line));
            lines[k].push(line);
            mstats.requests += 1;
        }
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
                    "cycle {cycle}: more results than accepted instructions (duplicate)"
                ));
            }
            let tag = u.out_tag.val().to_u32() as usize;
            if tag != k % 65536 {
                return Err(format!(
                    "cycle {cycle}: result tag {tag} where {k} was due (lost or reordered)"
                ));
            }
            let mut r = read(u, &vectors[k]);
            let counted = u.out_lines.val().to_u32() as usize;
            if counted != lines[k].len() {
                return Err(format!(
                    "cycle {cycle}: vector {k}: out_lines = {counted} but {} memory requests were seen",
                    lines[k].len()
                ));
            }
            r.lines = std::mem::take(&mut lines[k]);
            outs.push(Transfer {
                out: r,
                cycle_in: accepted_at[k],
                cycle_out: cycle,
            });
        }
        let resp_fire = resp_valid;
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
    stats.cycles = sim.cycle() - start;
    stats.accepted = accepted_at.len();
    stats.emitted = outs.len();
    mstats.hits = u64::from(sim.uut.cnt_hits.val().to_u32());
    mstats.misses = u64::from(sim.uut.cnt_misses.val().to_u32());
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
            return Err(format!(
                "cycle {cycle}: memory request for line {:#x} in the drain after the last of the {} results (a stray request)",
                u.mem_req_line.val().to_u64(),
                outs.len()
            ));
        }
        if u.res_rd.val() {
            return Err(format!(
                "cycle {cycle}: residency read in the drain after the last of the {} results",
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
