//! The texture address unit's RTL behind the transaction interface: vectors in, results out, in
//! order, with a descriptor RAM and a residency map answering the unit's two read ports.
//!
//! Each vector is lowered to its TXD instruction ([`TexAddrTxn::lower`]) and driven onto the ports.
//! The descriptor responder answers `desc_rd` from that vector's header and sampler pools; the
//! residency responder answers `res_rd` from the residency map of the header the vector's handle
//! points at. When a port is not reading, the responder drives random words instead, so an RTL
//! that used an unrequested value would mismatch. Each descriptor fetch is checked against the
//! golden model: a quad that the decoder must reject fetches nothing, every other quad fetches once
//! with the pointers the golden decoder computes; exactly the sampling quads of sparse textures
//! read the residency map. A quad's read may last several cycles only while the pipeline stalls
//! (the port protocol: the request is held, and the answer follows it, until the stage advances);
//! reading it again after that is an error, and so is any read in the drain after the last result
//! ([`Phase::Drain`]). Tags catch lost, duplicated or reordered quads.

use crate::texaddr::{
    decode_fault, fault, Fault, HeaderFields, LaneResult, Op, Tap, TexAddrResult, TexAddrTxn, Txd,
};
use crate::unit::RtlRun;
use std::cell::RefCell;
use texpix_rtl::texaddr::TexAddrUnit;
use texpix_sim::{
    run_stream_with, Phase, Sim, SplitMix64, StreamBinding, StreamConfig, StreamStats, Transfer,
};

/// One RTL transaction: a vector lowered to its instruction, and its tag.
#[derive(Clone, Debug)]
pub struct TexAddrIn {
    pub tag: u16,
    pub txn: TexAddrTxn,
    pub txd: Txd,
}

/// The unit's output ports for one quad.
#[derive(Clone, Debug, PartialEq)]
pub struct TexAddrOut {
    pub tag: u16,
    pub result: TexAddrResult,
}

/// What the side ports saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortStats {
    /// Quads that fetched descriptors.
    pub desc_reads: usize,
    /// Quads that read the residency map.
    pub res_reads: usize,
}

fn drive(u: &mut TexAddrUnit, x: Option<&TexAddrIn>) {
    u.in_valid.next = x.is_some();
    let Some(TexAddrIn { tag, txn, txd }) = x else {
        return;
    };
    u.in_tag.next = (*tag as u64).into();
    for l in 0..4 {
        for k in 0..4 {
            u.in_ra[4 * l + k].next = (txd.ra[l][k] as u64).into();
        }
        u.in_lambda[l].next = (txn.lambda[l] as u32 as u64).into();
    }
    u.in_bindless.next = txd.bindless;
    u.in_lc.next = txd.lc;
    u.in_aoffi.next = txd.aoffi;
    u.in_param_a.next = ((txd.param_a & 7) as u64).into();
    u.in_ogl.next = txd.ogl;
    u.in_cbank.next = (txd.cbank_word(txd.ts_idx) as u64).into();
    u.in_hdr_max.next = ((txd.header_max & 0xF_FFFF) as u64).into();
    u.in_smp_max.next = ((txd.sampler_max & 0xF_FFFF) as u64).into();
    u.in_txq.next = txn.op == Op::Txq;
    u.in_level.next = ((txn.level & 15) as u64).into();
    let (l1, frac) = txn.mip.unwrap_or((0, 0));
    u.in_tri.next = txn.mip.is_some();
    u.in_level1.next = ((l1 & 15) as u64).into();
    u.in_frac.next = ((frac & 0xFF) as u64).into();
    let warn = (0..4).fold(0u64, |m, l| m | u64::from(txn.lod_warning[l]) << l);
    u.in_warn.next = warn.into();
}

fn read(u: &TexAddrUnit) -> TexAddrOut {
    let n = u.out_ntaps.val().to_u32() as usize;
    let tri = u.out_tri.val();
    let lanes = std::array::from_fn(|l| {
        let slot = |s: usize, level: u32| Tap {
            i: u.out_i[s].val().to_u32() as i32,
            j: u.out_j[s].val().to_u32() as i32,
            layer: u.out_layer[l].val().to_u32(),
            level,
            addr: u.out_addr[s].val().to_u64(),
            border: u.out_border[s].val(),
        };
        let mut taps = Vec::new();
        let mut req = 0u32;
        let levels: &[(usize, u32)] = if tri { &[(0, 0), (4, 1)] } else { &[(0, 0)] };
        for &(base, lv) in levels {
            let level = if lv == 0 {
                u.out_level0.val().to_u32()
            } else {
                u.out_level1.val().to_u32()
            };
            for q in 0..n {
                let s = 8 * l + base + q;
                if u.out_req[s].val() {
                    req |= 1 << taps.len();
                }
                taps.push(slot(s, level));
            }
        }
        // A slot outside the footprint must not request memory: its request shows as bit
        // 16 + slot, which the golden model never sets (at most 8 taps).
        for k in 0..8 {
            let inside = k % 4 < n && (k < 4 || tri);
            if !inside && u.out_req[8 * l + k].val() {
                req |= 1 << (16 + k);
            }
        }
        LaneResult {
            taps,
            wu: u.out_wu[l].val().to_u32(),
            wv: u.out_wv[l].val().to_u32(),
            wu1: u.out_wu1[l].val().to_u32(),
            wv1: u.out_wv1[l].val().to_u32(),
            req,
            fail: u.out_fail[l].val(),
            status: u.out_status[l].val().to_u32(),
            lod_clamp: u.out_lod_clamp[l].val().to_u32(),
        }
    });
    TexAddrOut {
        tag: u.out_tag.val().to_u32() as u16,
        result: TexAddrResult {
            lanes,
            fault: Fault::from_code(u.out_fault.val().to_u32()),
            frac: u.out_frac.val().to_u32(),
            size: std::array::from_fn(|k| u.out_size[k].val().to_u32()),
        },
    }
}

/// The stream binding of the unit's ports.
pub fn binding() -> StreamBinding<TexAddrUnit, TexAddrIn, TexAddrOut> {
    texpix_sim::stream_binding!(drive, read)
}

/// Resolves a 16-bit tag seen at a pipeline stage to a vector index: stages see quads in order, so
/// the index is the first one at or after the last index resolved there with that tag.
struct TagTracker {
    last: usize,
}

impl TagTracker {
    fn resolve(&mut self, tag: u16) -> usize {
        let idx = self.last + (tag.wrapping_sub(self.last as u16) as usize);
        self.last = idx;
        idx
    }
}

/// One side port's reads.
#[derive(Default)]
struct ReadLog {
    /// Quads that read so far.
    quads: usize,
    /// Index of the last quad that read + 1 (quads read in order).
    seen: usize,
    /// The last read: quad index and cycle.
    last: Option<(usize, u64)>,
}

impl ReadLog {
    /// Records a read of quad `k` in `cycle`; `stalled_before` says whether the pipeline stalled in
    /// `cycle − 1`. A quad reads once, or in consecutive cycles while its stage is stalled.
    fn read(
        &mut self,
        port: &str,
        k: usize,
        cycle: u64,
        stalled_before: bool,
    ) -> Result<(), String> {
        if k < self.seen {
            let held = stalled_before && self.last == Some((k, cycle.wrapping_sub(1)));
            if !held {
                let at = self.last.map_or(0, |(_, c)| c);
                return Err(format!(
                    "vector {k}: repeated {port} read (the quad already read it, last in cycle {at}, and its stage has advanced since)"
                ));
            }
        } else {
            self.quads += 1;
            self.seen = k + 1;
        }
        self.last = Some((k, cycle));
        Ok(())
    }
}

/// Side-port state of one run.
struct Responder<'a> {
    ins: &'a [TexAddrIn],
    rng: SplitMix64,
    desc: TagTracker,
    res: TagTracker,
    desc_log: ReadLog,
    res_log: ReadLog,
    /// This call's clock cycle (one call per cycle, from the run's first), and `in_ready` in the
    /// previous one.
    cycle: u64,
    ready_before: bool,
}

impl Responder<'_> {
    fn respond(&mut self, u: &mut TexAddrUnit, phase: Phase) -> Result<(), String> {
        // Called before this cycle's inputs are driven; `in_ready` is a register (the unit's
        // advance of this clock, decided a clock ahead). The pipeline stalled in the previous
        // cycle iff its `in_ready` was low then.
        let stalled_before = !self.ready_before;
        self.ready_before = u.in_ready.val();
        let cycle = self.cycle;
        self.cycle += 1;
        if phase == Phase::Drain && (u.desc_rd.val() || u.res_rd.val()) {
            let (port, tag) = if u.desc_rd.val() {
                ("descriptor", u.desc_tag.val().to_u32())
            } else {
                ("residency", u.res_tag.val().to_u32())
            };
            return Err(format!(
                "{port} read (tag {tag}) in the drain after the last result (no quad left to read)"
            ));
        }
        // Descriptor RAM.
        if u.desc_rd.val() {
            let k = self.desc.resolve(u.desc_tag.val().to_u32() as u16);
            let x = self
                .ins
                .get(k)
                .ok_or("descriptor read by an unknown quad")?;
            let (hp, sp) = x.txd.pointers();
            let (hi, si) = (u.desc_hdr_idx.val().to_u32(), u.desc_smp_idx.val().to_u32());
            if decode_fault(&x.txd) != Fault::None {
                return Err(format!(
                    "vector {k}: descriptor read although the decoder must reject it ({})",
                    decode_fault(&x.txd).name()
                ));
            }
            if (hi, si) != (hp, sp) {
                return Err(format!(
                    "vector {k}: descriptor read of header {hi}, sampler {si}; the golden decoder says header {hp}, sampler {sp}"
                ));
            }
            self.desc_log.read("descriptor", k, cycle, stalled_before)?;
            let h = x.txd.header(hi);
            for (w, s) in h.words.iter().zip(u.desc_hdr.iter_mut()) {
                s.next = (*w as u64).into();
            }
            u.desc_smp.next = u64::from(x.txd.sampler(si) & 0xFF).into();
        } else {
            for s in u.desc_hdr.iter_mut() {
                s.next = (self.rng.next_u64() & 0xFFFF_FFFF).into();
            }
            u.desc_smp.next = (self.rng.next_u64() & 0xFF).into();
        }
        // Residency map.
        if u.res_rd.val() {
            let k = self.res.resolve(u.res_tag.val().to_u32() as u16);
            let x = self.ins.get(k).ok_or("residency read by an unknown quad")?;
            let h = x.txd.header(x.txd.pointers().0);
            self.res_log.read("residency", k, cycle, stalled_before)?;
            let lv = [u.res_level0.val().to_u32(), u.res_level1.val().to_u32()];
            for s in 0..32 {
                let tile = u64::from(u.res_tile[s].val().to_u32());
                let level = lv[(s / 4) % 2];
                u.res_ok[s].next = !h.nonresident.contains(&(level, tile));
            }
        } else {
            let r = self.rng.next_u64();
            for (s, p) in u.res_ok.iter_mut().enumerate() {
                p.next = (r >> s) & 1 != 0;
            }
        }
        Ok(())
    }

    /// Quads that read each port (every one once).
    fn stats(&self) -> PortStats {
        PortStats {
            desc_reads: self.desc_log.quads,
            res_reads: self.res_log.quads,
        }
    }
}

/// Runs vectors through the RTL and returns their results in order, the stream statistics and
/// what the side ports saw.
pub fn run_with_stats(
    sim: &mut Sim<TexAddrUnit>,
    vectors: &[TexAddrTxn],
    cfg: &StreamConfig,
) -> Result<(Vec<Transfer<TexAddrResult>>, StreamStats, PortStats), String> {
    let ins: Vec<TexAddrIn> = vectors
        .iter()
        .enumerate()
        .map(|(k, t)| TexAddrIn {
            tag: k as u16,
            txn: t.clone(),
            txd: t.lower(),
        })
        .collect();
    let responder = RefCell::new(Responder {
        ins: &ins,
        rng: SplitMix64::new(cfg.seed ^ 0x0074_6578_6164_6472),
        desc: TagTracker { last: 0 },
        res: TagTracker { last: 0 },
        desc_log: ReadLog::default(),
        res_log: ReadLog::default(),
        cycle: sim.cycle(),
        ready_before: true,
    });
    let (outs, stats) = run_stream_with(sim, &ins, &binding(), cfg, &mut |u, phase| {
        responder.borrow_mut().respond(u, phase)
    })
    .map_err(|e| e.to_string())?;
    let ports = responder.into_inner().stats();
    let fetching = ins
        .iter()
        .filter(|x| decode_fault(&x.txd) == Fault::None)
        .count();
    if ports.desc_reads != fetching {
        return Err(format!(
            "{} descriptor fetches for {fetching} quads that pass the decoder",
            ports.desc_reads
        ));
    }
    let sparse = ins
        .iter()
        .filter(|x| {
            let h = x.txd.header(x.txd.pointers().0);
            x.txn.op == Op::Sample
                && fault(&x.txd) == Fault::None
                && HeaderFields::from_words(&h.words).sparse
        })
        .count();
    if ports.res_reads != sparse {
        return Err(format!(
            "{} residency reads for {sparse} sampling quads of sparse textures",
            ports.res_reads
        ));
    }
    let mut results = Vec::with_capacity(outs.len());
    for (k, o) in outs.into_iter().enumerate() {
        if o.out.tag != ins[k].tag {
            return Err(format!(
                "vector {k}: RTL returned tag {} where {} was due (lost, duplicated or reordered transaction) at cycle {}",
                o.out.tag, ins[k].tag, o.cycle_out
            ));
        }
        results.push(Transfer {
            out: o.out.result,
            cycle_in: o.cycle_in,
            cycle_out: o.cycle_out,
        });
    }
    Ok((results, stats, ports))
}

/// Runs vectors through the RTL and returns their results in order with the stream statistics.
pub fn run(
    sim: &mut Sim<TexAddrUnit>,
    vectors: &[TexAddrTxn],
    cfg: &StreamConfig,
) -> RtlRun<TexAddrResult> {
    run_with_stats(sim, vectors, cfg).map(|(r, s, _)| (r, s))
}
