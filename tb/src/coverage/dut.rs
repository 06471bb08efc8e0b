//! The coverage unit's RTL behind the transaction interface: vectors in, results out, in order.
//! One driver for both coverage blocks ([`CoverageUnit`], [`CoverageSerial`]: [`CoveragePorts`]).
//!
//! A vector with more than [`OPS`] PIXLD ops is issued as several RTL transactions of the same quad,
//! [`OPS`] ops each (the hardware has [`OPS`] op slots); their results are joined back into one result,
//! with `cycle_in` of the first and `cycle_out` of the last. Every RTL transaction carries a 16-bit tag
//! (its sequence number) that the unit returns; the driver checks it to catch a lost, duplicated or
//! reordered transaction.
//!
//! The driver also checks what only the ports show ([`join`]): every transaction of a vector must
//! return the same `out_covmask` (they carry the same quad), and each op slot's `out_err` and
//! `out_pd_wr` must be what the slot's mode and Pd request require, with Rd 0 on a rejected slot
//! ([`check_slots`]). The remaining fields (Rd, Pd where written) go into the result, which the
//! scoreboard compares with the golden model.

use crate::coverage::{lane_positions, CoverageResult, CoverageTxn, OpMode, OpResult, PixldOp};
use crate::unit::RtlRun;
use rust_hdl::prelude::Block;
use texpix_rtl::coverage::{CoverageSerial, CoverageUnit, OPS};
use texpix_sim::{run_stream, Sim, StreamBinding, StreamConfig, Transfer};

/// One RTL transaction: the unit's input ports.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CovIn {
    pub tag: u16,
    pub log2n: u8,
    pub prog: bool,
    pub pos: Vec<u8>,
    pub vx: [u32; 3],
    pub vy: [u32; 3],
    pub quad: [u32; 2],
    pub smask: u16,
    pub ssaa: bool,
    pub sid: [u8; 4],
    pub op_mode: [u8; OPS],
    pub op_index: [u32; OPS],
    pub op_pd: [bool; OPS],
    pub op_tgsi: [bool; OPS],
}

/// The unit's output ports for one transaction.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CovOut {
    pub tag: u16,
    pub covmask: [u16; 4],
    pub rd: [u32; 16],
    pub pd: [bool; 16],
    pub pd_wr: [bool; OPS],
    pub err: [bool; OPS],
}

fn mask(v: i32, bits: u32) -> u32 {
    (v as u32) & ((1u32 << bits) - 1)
}

/// The RTL transactions of a vector (one per [`OPS`] ops, at least one). `first_tag` numbers them.
pub fn encode(t: &CoverageTxn, first_tag: u16) -> Vec<CovIn> {
    let log2n = t.samples.trailing_zeros() as u8;
    let mut pos = vec![0u8; 64];
    if t.positions.is_some() {
        for lane in 0..4 {
            for (s, p) in lane_positions(t, lane).iter().enumerate() {
                pos[16 * lane + s] = ((mask(p[1], 4) << 4) | mask(p[0], 4)) as u8;
            }
        }
    }
    let base = CovIn {
        tag: first_tag,
        log2n,
        prog: t.positions.is_some(),
        pos,
        vx: [
            mask(t.tri[0][0], 25),
            mask(t.tri[1][0], 25),
            mask(t.tri[2][0], 25),
        ],
        vy: [
            mask(t.tri[0][1], 25),
            mask(t.tri[1][1], 25),
            mask(t.tri[2][1], 25),
        ],
        quad: [mask(t.quad[0], 17), mask(t.quad[1], 17)],
        smask: t.sample_mask as u16,
        ssaa: t.ssaa,
        sid: t.sample_id.map(|s| s as u8),
        ..Default::default()
    };
    let chunks: Vec<_> = if t.ops.is_empty() {
        vec![&t.ops[..]]
    } else {
        t.ops.chunks(OPS).collect()
    };
    chunks
        .into_iter()
        .enumerate()
        .map(|(k, ops)| {
            let mut c = base.clone();
            c.tag = first_tag.wrapping_add(k as u16);
            for (o, op) in ops.iter().enumerate() {
                c.op_mode[o] = op.mode.encoding() as u8;
                c.op_index[o] = op.index;
                c.op_pd[o] = op.pd;
                c.op_tgsi[o] = op.tgsi;
            }
            c
        })
        .collect()
}

/// Number of RTL transactions a vector needs.
pub fn transactions(t: &CoverageTxn) -> usize {
    t.ops.len().div_ceil(OPS).max(1)
}

/// Checks the op slots of one RTL transaction's outputs against what its inputs require
/// (docs/units/coverage.md §5, §10): `out_err[o]` is high exactly for a rejected mode (6, 7,
/// 11…15), and a rejected slot reads Rd 0 on every lane; `out_pd_wr[o]` is high exactly when Pd was
/// requested of COVERED (2) or MY_INDEX (5). The slots from `used` on carry no op of the vector: the
/// encoder leaves them MSCOUNT (index 0, no Pd), so they must read Rd = n on every lane.
pub fn check_slots(x: &CovIn, out: &CovOut, used: usize) -> Result<(), String> {
    let n = if x.log2n <= 4 { 1u32 << x.log2n } else { 0 };
    for o in 0..OPS {
        let mode = x.op_mode[o];
        let rd: [u32; 4] = std::array::from_fn(|lane| out.rd[OPS * lane + o]);
        let rejected = matches!(mode, 6 | 7 | 11..=15);
        if out.err[o] != rejected {
            return Err(format!(
                "op slot {o} (mode {mode}): out_err is {} where the mode requires {}",
                u8::from(out.err[o]),
                u8::from(rejected)
            ));
        }
        let pd_wr = x.op_pd[o] && matches!(mode, 2 | 5);
        if out.pd_wr[o] != pd_wr {
            return Err(format!(
                "op slot {o} (mode {mode}, Pd requested: {}): out_pd_wr is {} where {} is required",
                x.op_pd[o],
                u8::from(out.pd_wr[o]),
                u8::from(pd_wr)
            ));
        }
        if rejected && rd != [0; 4] {
            return Err(format!(
                "op slot {o} (mode {mode}, rejected): Rd reads {rd:x?} where 0 is required"
            ));
        }
        if o >= used && (mode != OpMode::MsCount.encoding() as u8 || rd != [n; 4]) {
            return Err(format!(
                "unused op slot {o} (mode {mode}): Rd reads {rd:?} where MSCOUNT's n = {n} is required"
            ));
        }
    }
    Ok(())
}

/// Joins the RTL transactions of vector `t` (`outs`, in order, answering `ins` from [`encode`]) into
/// its result, checking each transaction: its op slots ([`check_slots`]) and its covmask, which must
/// equal the first transaction's (all carry the same quad). An error names the transaction (index
/// within the vector).
pub fn join(
    t: &CoverageTxn,
    ins: &[CovIn],
    outs: &[&CovOut],
) -> Result<CoverageResult, (usize, String)> {
    assert_eq!(ins.len(), outs.len(), "one output per RTL transaction");
    let mut pixld = Vec::with_capacity(t.ops.len());
    for (c, (x, out)) in ins.iter().zip(outs).enumerate() {
        if out.covmask != outs[0].covmask {
            return Err((
                c,
                format!(
                    "covmask {:04x?} differs from the vector's first transaction's {:04x?} (same quad)",
                    out.covmask, outs[0].covmask
                ),
            ));
        }
        let ops = &t.ops[(c * OPS).min(t.ops.len())..((c + 1) * OPS).min(t.ops.len())];
        check_slots(x, out, ops.len()).map_err(|e| (c, e))?;
        pixld.extend(decode_ops(out, ops));
    }
    Ok(CoverageResult {
        covmask: outs[0].covmask.map(u32::from),
        pixld,
    })
}

/// The op results of one RTL transaction: `ops` are the (up to [`OPS`]) ops it carried. A rejected
/// slot's error text names the op's encoding; [`check_slots`] has checked that the RTL rejected
/// exactly the slots whose mode requires it.
pub fn decode_ops(out: &CovOut, ops: &[PixldOp]) -> Vec<OpResult> {
    ops.iter()
        .enumerate()
        .map(|(o, op)| {
            if out.err[o] {
                let enc = op.mode.encoding();
                OpResult {
                    rd: None,
                    pd: None,
                    error: Some(format!("invalid PIXLD mode encoding {enc}")),
                }
            } else {
                OpResult {
                    rd: Some(std::array::from_fn(|lane| out.rd[OPS * lane + o])),
                    pd: out.pd_wr[o].then(|| std::array::from_fn(|lane| out.pd[OPS * lane + o])),
                    error: None,
                }
            }
        })
        .collect()
}

/// A coverage RTL block with the coverage unit's ports: [`CoverageUnit`] and [`CoverageSerial`]
/// (same port names and types), so that one driver serves both.
pub trait CoveragePorts: Block + Default {
    /// Sets `in_valid` and the input ports (`None`: valid low, ports unchanged).
    fn drive(&mut self, x: Option<&CovIn>);
    /// Reads the output ports.
    fn read(&self) -> CovOut;
    /// Reads `in_ready`.
    fn in_ready(&self) -> bool;
    /// Reads `out_valid`.
    fn out_valid(&self) -> bool;
    /// Sets `out_ready`.
    fn set_out_ready(&mut self, ready: bool);
}

macro_rules! coverage_ports {
    ($block:ty) => {
        impl CoveragePorts for $block {
            fn drive(&mut self, x: Option<&CovIn>) {
                let u = self;
                u.in_valid.next = x.is_some();
                let Some(x) = x else { return };
                u.in_tag.next = (x.tag as u64).into();
                u.in_log2n.next = (x.log2n as u64).into();
                u.in_prog.next = x.prog;
                for (i, p) in x.pos.iter().enumerate() {
                    u.in_pos[i].next = (*p as u64).into();
                }
                for i in 0..3 {
                    u.in_vx[i].next = (x.vx[i] as u64).into();
                    u.in_vy[i].next = (x.vy[i] as u64).into();
                }
                u.in_quad_x.next = (x.quad[0] as u64).into();
                u.in_quad_y.next = (x.quad[1] as u64).into();
                u.in_smask.next = (x.smask as u64).into();
                u.in_ssaa.next = x.ssaa;
                for i in 0..4 {
                    u.in_sid[i].next = (x.sid[i] as u64).into();
                }
                for o in 0..OPS {
                    u.in_op_mode[o].next = (x.op_mode[o] as u64).into();
                    u.in_op_index[o].next = (x.op_index[o] as u64).into();
                    u.in_op_pd[o].next = x.op_pd[o];
                    u.in_op_tgsi[o].next = x.op_tgsi[o];
                }
            }
            fn read(&self) -> CovOut {
                let u = self;
                CovOut {
                    tag: u.out_tag.val().to_u32() as u16,
                    covmask: std::array::from_fn(|i| u.out_covmask[i].val().to_u32() as u16),
                    rd: std::array::from_fn(|i| u.out_rd[i].val().to_u32()),
                    pd: std::array::from_fn(|i| u.out_pd[i].val()),
                    pd_wr: std::array::from_fn(|i| u.out_pd_wr[i].val()),
                    err: std::array::from_fn(|i| u.out_err[i].val()),
                }
            }
            fn in_ready(&self) -> bool {
                self.in_ready.val()
            }
            fn out_valid(&self) -> bool {
                self.out_valid.val()
            }
            fn set_out_ready(&mut self, ready: bool) {
                self.out_ready.next = ready;
            }
        }
    };
}

coverage_ports!(CoverageUnit);
coverage_ports!(CoverageSerial);

/// The stream binding of a coverage block's ports.
pub fn binding<B: CoveragePorts>() -> StreamBinding<B, CovIn, CovOut> {
    StreamBinding {
        drive: B::drive,
        in_ready: B::in_ready,
        out_valid: B::out_valid,
        read: B::read,
        set_out_ready: B::set_out_ready,
    }
}

/// Runs vectors through the RTL in `sim` and returns their results in order, with the stream
/// statistics. Errors: a simulation error, or a tag out of sequence (lost/duplicated/reordered).
pub fn run<B: CoveragePorts>(
    sim: &mut Sim<B>,
    vectors: &[CoverageTxn],
    cfg: &StreamConfig,
) -> RtlRun<CoverageResult> {
    let mut ins = Vec::new();
    for t in vectors {
        let tag = ins.len() as u16;
        ins.extend(encode(t, tag));
    }
    let (outs, stats) = run_stream(sim, &ins, &binding::<B>(), cfg).map_err(|e| e.to_string())?;
    if outs.len() != ins.len() {
        return Err(format!(
            "coverage RTL returned {} transactions for {} issued",
            outs.len(),
            ins.len()
        ));
    }
    let mut results = Vec::with_capacity(vectors.len());
    let mut k = 0;
    for (v, t) in vectors.iter().enumerate() {
        let n = transactions(t);
        for (c, chunk) in outs[k..k + n].iter().enumerate() {
            let want = ins[k + c].tag;
            if chunk.out.tag != want {
                return Err(format!(
                    "vector {v}: RTL returned tag {} where {want} was due (lost, duplicated or reordered transaction) at cycle {}",
                    chunk.out.tag, chunk.cycle_out
                ));
            }
        }
        let chunk_outs: Vec<&CovOut> = outs[k..k + n].iter().map(|x| &x.out).collect();
        let out = join(t, &ins[k..k + n], &chunk_outs).map_err(|(c, e)| {
            format!(
                "vector {v}, RTL transaction {c} of {n} (tag {}) at cycle {}: {e}",
                ins[k + c].tag,
                outs[k + c].cycle_out
            )
        })?;
        results.push(Transfer {
            out,
            cycle_in: outs[k].cycle_in,
            cycle_out: outs[k + n - 1].cycle_out,
        });
        k += n;
    }
    Ok((results, stats))
}
