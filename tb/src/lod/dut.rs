//! The LOD unit's RTL behind the transaction interface: vectors in, results out, in order. Each RTL
//! transaction carries its sequence number as the tag; the driver checks it to catch a lost,
//! duplicated or reordered transaction.

use crate::lod::{LodLane, LodMode, LodResult, LodTxn};
use crate::unit::RtlRun;
use texpix_rtl::lod::{LodUnit, UNCLAMPED_NAN};
use texpix_sim::{run_stream, Sim, StreamBinding, StreamConfig, Transfer};

/// One RTL transaction: a vector and its tag.
#[derive(Clone, Debug)]
pub struct LodIn {
    pub tag: u16,
    pub txn: LodTxn,
}

/// The unit's output ports for one transaction.
#[derive(Clone, Debug, PartialEq)]
pub struct LodOut {
    pub tag: u16,
    pub lanes: LodResult,
}

/// The sixteen operand registers of a vector (`4·lane + k`).
pub fn operands(t: &LodTxn) -> [u32; 16] {
    std::array::from_fn(|i| {
        let (l, k) = (i / 4, i % 4);
        match (t.mode, k) {
            (LodMode::Grad, _) => t.grad[l][k],
            (LodMode::Lod, 0) => t.lod[l],
            (LodMode::Implicit | LodMode::Bias, 0 | 1) => t.coords[l][k],
            (LodMode::Bias, 2) => t.bias[l],
            _ => 0,
        }
    })
}

fn drive(u: &mut LodUnit, x: Option<&LodIn>) {
    u.in_valid.next = x.is_some();
    let Some(LodIn { tag, txn: t }) = x else {
        return;
    };
    let s = &t.sampler;
    u.in_tag.next = (*tag as u64).into();
    u.in_width.next = (t.tex.width as u64).into();
    u.in_height.next = (t.tex.height as u64).into();
    u.in_levels.next = (t.tex.levels as u64).into();
    u.in_base.next = (t.tex.base_level as u64).into();
    u.in_sbias.next = ((s.bias as u32 & 0xFFFF) as u64).into();
    u.in_min_lod.next = (s.min_lod as u64).into();
    u.in_max_lod.next = (s.max_lod as u64).into();
    u.in_lod_clamp.next = (t.lod_clamp as u64).into();
    u.in_warn.next = (t.min_lod_warning as u64).into();
    u.in_mip.next = (s.mip_filter as u64).into();
    u.in_aniso.next = (s.max_aniso as u64).into();
    u.in_mode.next = (t.mode as u64).into();
    u.in_fine.next = t.fine;
    u.in_maxabs.next = t.maxabs;
    for (i, op) in operands(t).iter().enumerate() {
        u.in_op[i].next = (*op as u64).into();
    }
}

fn read(u: &LodUnit) -> LodOut {
    LodOut {
        tag: u.out_tag.val().to_u32() as u16,
        lanes: std::array::from_fn(|l| LodLane {
            lambda: u.out_lambda[l].val().to_u32() as i32,
            unclamped: unclamped(u.out_unclamped[l].val().to_u32()),
            level0: u.out_level0[l].val().to_u32(),
            level1: u.out_level1[l].val().to_u32(),
            frac: u.out_frac[l].val().to_u32(),
            magnify: u.out_magnify[l].val(),
            lod_warning: u.out_lod_warning[l].val(),
            probes: u.out_probes[l].val().to_u32(),
            major_y: u.out_major_y[l].val(),
            status: u.out_status[l].val().to_u32(),
        }),
    }
}

/// The unclamped λ'·256 from its 24-bit port: sign-extended, `None` for the NaN code
/// [`UNCLAMPED_NAN`].
pub fn unclamped(port: u32) -> Option<i32> {
    (port != UNCLAMPED_NAN).then_some((port << 8) as i32 >> 8)
}

/// The stream binding of the LOD unit's ports.
pub fn binding() -> StreamBinding<LodUnit, LodIn, LodOut> {
    texpix_sim::stream_binding!(drive, read)
}

/// Runs vectors through the RTL and returns their results in order with the stream statistics.
pub fn run(sim: &mut Sim<LodUnit>, vectors: &[LodTxn], cfg: &StreamConfig) -> RtlRun<LodResult> {
    let ins: Vec<LodIn> = vectors
        .iter()
        .enumerate()
        .map(|(k, t)| LodIn {
            tag: k as u16,
            txn: t.clone(),
        })
        .collect();
    let (outs, stats) = run_stream(sim, &ins, &binding(), cfg).map_err(|e| e.to_string())?;
    let mut results = Vec::with_capacity(outs.len());
    for (k, o) in outs.into_iter().enumerate() {
        if o.out.tag != ins[k].tag {
            return Err(format!(
                "vector {k}: RTL returned tag {} where {} was due (lost, duplicated or reordered transaction) at cycle {}",
                o.out.tag, ins[k].tag, o.cycle_out
            ));
        }
        results.push(Transfer {
            out: o.out.lanes,
            cycle_in: o.cycle_in,
            cycle_out: o.cycle_out,
        });
    }
    Ok((results, stats))
}
