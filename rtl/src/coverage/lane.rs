//! One pixel lane of the coverage unit: 16 samples × 3 edge tests, then the PIXLD queries.
//!
//! The per-lane edge values arrive pre-scaled (see [`super::unit`]): for edge `e` the lane centre's
//! edge function is `E = 16·q[e] + r` with `0 ≤ r < 16`, `rnz[e] = (r ≠ 0)`, and `q[e]` clamped to
//! ±2^30 (the clamp never changes a sign decision because `|T| < 2^29` below). A sample at offset
//! `(sx, sy)` (1/16 pixel, 4-bit two's complement) has `E_s = E + 16·T`, `T = dx·sy − dy·sx`, so
//! `E_s > 0 ⇔ q + T > 0 ∨ (q + T = 0 ∧ r ≠ 0)` and `E_s = 0 ⇔ q + T = 0 ∧ r = 0`:
//! every per-sample operation is 32-bit integer arithmetic. `q + T` is a sum of nine terms, `q`
//! and one shifted step per offset bit (`±dx·2^k` for the bits of `sy`, `∓dy·2^k` for those of
//! `sx`, the top bit with the opposite sign), added as a balanced tree four adders deep
//! ([`SampleTests`]).
//!
//! Ports are documented on the fields, plus `clock` and `adv_next` (the unit's advance, decided a
//! clock ahead: the lane registers it in [`EnableCopy`]s, one per group of registers, so that no
//! enable net reaches the whole lane).
//! Built with [`CoverageLane::new`]`(stages)`, 0…7: with 0 the lane is combinational (latency 0,
//! the unit registers its outputs); with 1, cut B registers the coverage mask and the query
//! operands between the edge tests and the queries (latency 1), so that the tests' adder tree and
//! the queries' selects are in different clocks; 2 and 3 add cuts T1 and T2 inside the tests'
//! adder tree ([`SampleTests`]), with the query operands delayed beside them; 4 adds cut Q,
//! which registers the centroid's code and the coverage mask, so that the centroid's select and
//! the op slots' selects and encoders are in different clocks; 5 adds cut L inside the centroid
//! ([`LaneCentroid`]), between the mask's lowest-set-bit carry chain and the position select; 6
//! adds cut Z in the tests, on each test's pass bit, and 7 cut D, kept copies of the tests'
//! inputs in front of their first adders ([`SampleTests`]).
//!
//! COVERED's bit is selected from the mask right behind cut B ([`OpCovered`]) and delayed beside
//! the later cuts, so that after the last cut an op slot is a select of registered words; with a
//! cut in the tests, the helper pixel's centroid reads the inputs one clock late (the first of the
//! delay lines that carry them to cut B), not the input registers that also feed the tests, and
//! with any cut it is split by its own cut L (it is a [`LaneCentroid`] on the sample mask).
//! The op slots' coverage-free part takes two more registers where the tests leave it time, so
//! neither adds latency: with a cut in the tests, cut S in front of each slot's sample check and
//! position select ([`OpSelect`] reads the op index and n registered, and the helper's delayed
//! positions), and with a register left behind the early decode ([`OpEarly`]), cut E between it
//! and the OFFSET / SAMPLE_POS encoders ([`OpEncode`]).

use super::query::{LaneCentroid, OpCovered, OpEarly, OpEncode, OpLate, OpSelect};
use super::samples::SampleTests;
use super::OPS;
use crate::common::fp::Retime;
use crate::common::EnableCopy;
use rust_hdl::prelude::*;

crate::settled_block! {
/// Coverage and PIXLD query logic for one pixel.
#[derive(Clone, Debug)]
pub struct CoverageLane {
    /// Clock (used with cuts only).
    pub clock: Signal<In, Clock>,
    /// The cuts advance in the next clock (the unit's stall decided a clock ahead), registered in
    /// enable copies: one per group of the lane's registers, and the sample tests' own.
    pub adv_next: Signal<In, Bit>,
    /// Lane-centre edge value `⌊E/16⌋`, clamped to ±2^30 (two's complement).
    pub q: [Signal<In, Bits<32>>; 3],
    /// `E mod 16 ≠ 0`.
    pub rnz: [Signal<In, Bit>; 3],
    /// Edge is top-left (owns samples exactly on it).
    pub tl: [Signal<In, Bit>; 3],
    /// Edge x step (two's complement, |dx| < 2^25), after the winding correction.
    pub dx: [Signal<In, Bits<32>>; 3],
    /// Edge y step.
    pub dy: [Signal<In, Bits<32>>; 3],
    /// Triangle area is non-zero.
    pub nz: Signal<In, Bit>,
    /// Samples in the raster mode: `(1 << n) − 1`.
    pub nmask: Signal<In, Bits<16>>,
    /// Raster sample count n.
    pub n32: Signal<In, Bits<32>>,
    /// Positions are the standard (fixed) pattern and n ≤ 8: OFFSET is supported.
    pub offset_ok: Signal<In, Bit>,
    /// Sample positions `{dy, dx}` (programmable or standard).
    pub pos: [Signal<In, Bits<8>>; 16],
    /// Sample mask.
    pub smask: Signal<In, Bits<16>>,
    /// Supersampling mode.
    pub ssaa: Signal<In, Bit>,
    /// This invocation's sample index (SSAA).
    pub sid: Signal<In, Bits<4>>,
    /// Op slot mode (PIXLD encodings 0–7, then SAMPLE_INFO 8, SAMPLE_POS_X 9, SAMPLE_POS_Y 10).
    pub op_mode: [Signal<In, Bits<4>>; OPS],
    /// Op slot sample index.
    pub op_index: [Signal<In, Bits<32>>; OPS],
    /// Op slot TGSI position convention.
    pub op_tgsi: [Signal<In, Bit>; OPS],
    /// Coverage & sample mask, bits 0…n−1.
    pub cov: Signal<Out, Bits<16>>,
    /// Rd per op slot.
    pub rd: [Signal<Out, Bits<32>>; OPS],
    /// Pd value per op slot.
    pub pd: [Signal<Out, Bit>; OPS],
    // The advance in registered copies: the delay lines from the inputs to cut B (and the
    // helper's inputs), cut B's query operands, the centroid and cut Q, each op slot's late
    // operands.
    e_in: EnableCopy,
    e_b: EnableCopy,
    e_cent: EnableCopy,
    e_op: [EnableCopy; OPS],
    /// The helper pixel's centroid: the centroid block on the sample mask (no coverage needed:
    /// beside the tests, one clock behind the inputs when the tests have a cut, so that it does
    /// not share the input registers' clock with the tests' and the op slots' fan-out), with its
    /// own cut L where its line to cut B has a register.
    h_cent: LaneCentroid,
    /// The sample mask within the raster samples, the helper centroid's mask.
    h_sub: Signal<Local, Bits<16>>,
    h_smask: Retime<Bits<16>>,
    h_nmask: Retime<Bits<16>>,
    h_pos: [Retime<Bits<8>>; 16],
    cent: LaneCentroid,
    // Each op slot's results that need no coverage, after cut B (`early`), and its select of
    // the coverage-dependent ones after the last cut (`late`).
    early: [OpEarly; OPS],
    // Cut E: the early decode's fields in front of the encoders (where the latency allows).
    x_kind: [Retime<Bits<2>>; OPS],
    x_enc: [Retime<Bits<2>>; OPS],
    x_code: [Retime<Bits<8>>; OPS],
    x_d: [Retime<Bits<4>>; OPS],
    x_tgsi: [Retime<Bit>; OPS],
    x_rd: [Retime<Bits<32>>; OPS],
    x_pd: [Retime<Bit>; OPS],
    encode: [OpEncode; OPS],
    cov_bit: [OpCovered; OPS],
    late: [OpLate; OPS],
    /// The 48 edge tests.
    tests: SampleTests,
    covl: Signal<Local, Bits<16>>,
    /// The sample mask beside the tests' cuts.
    t_smask: Retime<Bits<16>>,
    // Cut B: the coverage mask; the query operands delayed by every cut.
    b_covl: Retime<Bits<16>>,
    // Cut Q: the centroid's code and the coverage mask between the centroid and the op slots (the
    // mask also delayed by the centroid's cut L).
    q_code: Retime<Bits<8>>,
    q_covl: Retime<Bits<16>>,
    b_helper: Retime<Bits<8>>,
    b_nmask: Retime<Bits<16>>,
    b_n32: Retime<Bits<32>>,
    b_offset_ok: Retime<Bit>,
    b_ssaa: Retime<Bit>,
    b_sid: Retime<Bits<4>>,
    b_pos: [Retime<Bits<8>>; 16],
    b_op_mode: [Retime<Bits<4>>; OPS],
    // Each op slot's sample check and position select (no coverage needed: beside the tests),
    // with cut S in front of it when the tests have a cut: the op index and n registered, the
    // positions from the helper's delayed copy.
    s_index: [Retime<Bits<32>>; OPS],
    s_n32: Retime<Bits<32>>,
    sel0: OpSelect,
    sel1: OpSelect,
    sel2: OpSelect,
    sel3: OpSelect,
    b_ok: [Retime<Bit>; OPS],
    b_idx: [Retime<Bits<4>>; OPS],
    b_code: [Retime<Bits<8>>; OPS],
    b_op_tgsi: [Retime<Bit>; OPS],
    // The early results, from cut B to the op slots' late selects.
    e_kind: [Retime<Bits<2>>; OPS],
    e_rd: [Retime<Bits<32>>; OPS],
    e_pd: [Retime<Bit>; OPS],
    // The sample check and index beside the tests, for COVERED at cut B; its bit after cut B.
    c_ok: [Retime<Bit>; OPS],
    e_cov: [Retime<Bit>; OPS],
}
}

impl Default for CoverageLane {
    fn default() -> Self {
        Self::new(0)
    }
}

impl CoverageLane {
    /// The lane with `stages` (0…6) register stages: cut B, then cuts T1 and T2 in the tests,
    /// then cut Q between the centroid and the op slots, then cut L inside the centroid, then cut
    /// Z on the tests' pass bits, then cut D on the tests' inputs (latency `stages`).
    pub fn new(stages: usize) -> Self {
        use std::array::from_fn;
        assert!(
            stages <= 7,
            "coverage lane: 0…7 register stages, not {stages}"
        );
        let cut = stages.min(1);
        let query = usize::from(stages >= 4);
        let centroid = usize::from(stages >= 5);
        let tests = stages - cut - query - centroid;
        let h = tests.min(1);
        let x = (stages - cut - h).min(1);
        // Cut L inside the helper's centroid, where its line to cut B has a register.
        let hc = (cut + tests - h).min(1);
        Self {
            settle: crate::common::settle::SettleState::new(stages > 0),
            clock: Default::default(),
            adv_next: Default::default(),
            e_in: Default::default(),
            e_b: Default::default(),
            e_cent: Default::default(),
            e_op: Default::default(),
            q: Default::default(),
            rnz: Default::default(),
            tl: Default::default(),
            dx: Default::default(),
            dy: Default::default(),
            nz: Default::default(),
            nmask: Default::default(),
            n32: Default::default(),
            offset_ok: Default::default(),
            pos: Default::default(),
            smask: Default::default(),
            ssaa: Default::default(),
            sid: Default::default(),
            op_mode: Default::default(),
            op_index: Default::default(),
            op_tgsi: Default::default(),
            cov: Default::default(),
            rd: Default::default(),
            pd: Default::default(),
            h_cent: LaneCentroid::new(hc),
            h_sub: Default::default(),
            h_smask: Retime::new(h),
            h_nmask: Retime::new(h),
            h_pos: from_fn(|_| Retime::new(h)),
            cent: LaneCentroid::new(centroid),
            early: Default::default(),
            x_kind: from_fn(|_| Retime::new(x)),
            x_enc: from_fn(|_| Retime::new(x)),
            x_code: from_fn(|_| Retime::new(x)),
            x_d: from_fn(|_| Retime::new(x)),
            x_tgsi: from_fn(|_| Retime::new(x)),
            x_rd: from_fn(|_| Retime::new(x)),
            x_pd: from_fn(|_| Retime::new(x)),
            encode: Default::default(),
            cov_bit: Default::default(),
            late: Default::default(),
            tests: SampleTests::new(tests),
            covl: Default::default(),
            t_smask: Retime::new(tests - h),
            b_covl: Retime::new(cut),
            q_code: Retime::new(query),
            q_covl: Retime::new(query + centroid),
            b_helper: Retime::new(cut + tests - h - hc),
            b_nmask: Retime::new(cut + tests - h),
            b_n32: Retime::new(cut),
            b_offset_ok: Retime::new(cut + h),
            b_ssaa: Retime::new(cut + h),
            b_sid: Retime::new(cut + h),
            b_pos: from_fn(|_| Retime::new(cut + tests - h)),
            b_op_mode: from_fn(|_| Retime::new(cut + h)),
            s_index: from_fn(|_| Retime::new(h)),
            s_n32: Retime::new(h),
            sel0: Default::default(),
            sel1: Default::default(),
            sel2: Default::default(),
            sel3: Default::default(),
            b_ok: from_fn(|_| Retime::new(cut)),
            b_idx: from_fn(|_| Retime::new(cut + tests - h)),
            b_code: from_fn(|_| Retime::new(cut)),
            b_op_tgsi: from_fn(|_| Retime::new(cut + h)),
            e_kind: from_fn(|_| Retime::new(stages - cut - h - x)),
            e_rd: from_fn(|_| Retime::new(stages - cut - h - x)),
            e_pd: from_fn(|_| Retime::new(stages - cut - h - x)),
            c_ok: from_fn(|_| Retime::new(tests - h)),
            e_cov: from_fn(|_| Retime::new(stages - cut - tests)),
        }
    }
}

impl Logic for CoverageLane {
    #[hdl_gen]
    fn update(&mut self) {
        self.e_in.clock.next = self.clock.val();
        self.e_in.d.next = self.adv_next.val();
        self.e_b.clock.next = self.clock.val();
        self.e_b.d.next = self.adv_next.val();
        self.e_cent.clock.next = self.clock.val();
        self.e_cent.d.next = self.adv_next.val();
        for o in 0..OPS {
            self.e_op[o].clock.next = self.clock.val();
            self.e_op[o].d.next = self.adv_next.val();
        }
        // Per-sample edge tests (super::samples).
        self.tests.clock.next = self.clock.val();
        self.tests.adv_next.next = self.adv_next.val();
        for e in 0..3 {
            self.tests.q[e].next = self.q[e].val();
            self.tests.own[e].next = self.rnz[e].val() | self.tl[e].val();
            self.tests.dx[e].next = self.dx[e].val();
            self.tests.dy[e].next = self.dy[e].val();
        }
        self.tests.nz.next = self.nz.val();
        self.tests.nmask.next = self.nmask.val();
        for s in 0..16 {
            self.tests.pos[s].next = self.pos[s].val();
        }
        self.h_smask.clock.next = self.clock.val();
        self.h_smask.en.next = self.e_in.q.val();
        self.h_smask.d.next = self.smask.val();
        self.h_nmask.clock.next = self.clock.val();
        self.h_nmask.en.next = self.e_in.q.val();
        self.h_nmask.d.next = self.nmask.val();
        for s in 0..16 {
            self.h_pos[s].clock.next = self.clock.val();
            self.h_pos[s].en.next = self.e_in.q.val();
            self.h_pos[s].d.next = self.pos[s].val();
        }
        self.t_smask.clock.next = self.clock.val();
        self.t_smask.en.next = self.e_in.q.val();
        self.t_smask.d.next = self.h_smask.q.val();
        self.covl.next = self.tests.hit.val() & self.t_smask.q.val();
        // The helper pixel's centroid and the op slots' sample checks and selects.
        self.h_sub.next = self.h_smask.q.val() & self.h_nmask.q.val();
        self.h_cent.clock.next = self.clock.val();
        self.h_cent.en.next = self.e_in.q.val();
        self.h_cent.covl.next = self.h_sub.val();
        self.h_cent.nmask.next = self.h_nmask.q.val();
        self.h_cent.helper.next = 0.into();
        self.s_n32.clock.next = self.clock.val();
        self.s_n32.en.next = self.e_in.q.val();
        self.s_n32.d.next = self.n32.val();
        for o in 0..OPS {
            self.s_index[o].clock.next = self.clock.val();
            self.s_index[o].en.next = self.e_in.q.val();
            self.s_index[o].d.next = self.op_index[o].val();
        }
        for s in 0..16 {
            self.h_cent.pos[s].next = self.h_pos[s].q.val();
            self.sel0.pos[s].next = self.h_pos[s].q.val();
            self.sel1.pos[s].next = self.h_pos[s].q.val();
            self.sel2.pos[s].next = self.h_pos[s].q.val();
            self.sel3.pos[s].next = self.h_pos[s].q.val();
        }
        self.sel0.op_index.next = self.s_index[0].q.val();
        self.sel0.n32.next = self.s_n32.q.val();
        self.b_ok[0].d.next = self.sel0.ok.val();
        self.b_idx[0].d.next = self.sel0.idx.val();
        self.b_code[0].d.next = self.sel0.code.val();
        self.sel1.op_index.next = self.s_index[1].q.val();
        self.sel1.n32.next = self.s_n32.q.val();
        self.b_ok[1].d.next = self.sel1.ok.val();
        self.b_idx[1].d.next = self.sel1.idx.val();
        self.b_code[1].d.next = self.sel1.code.val();
        self.sel2.op_index.next = self.s_index[2].q.val();
        self.sel2.n32.next = self.s_n32.q.val();
        self.b_ok[2].d.next = self.sel2.ok.val();
        self.b_idx[2].d.next = self.sel2.idx.val();
        self.b_code[2].d.next = self.sel2.code.val();
        self.sel3.op_index.next = self.s_index[3].q.val();
        self.sel3.n32.next = self.s_n32.q.val();
        self.b_ok[3].d.next = self.sel3.ok.val();
        self.b_idx[3].d.next = self.sel3.idx.val();
        self.b_code[3].d.next = self.sel3.code.val();
        // Cut B.
        self.b_covl.clock.next = self.clock.val();
        self.b_covl.en.next = self.e_b.q.val();
        self.b_covl.d.next = self.covl.val();
        self.b_helper.clock.next = self.clock.val();
        self.b_helper.en.next = self.e_in.q.val();
        self.b_helper.d.next = self.h_cent.code.val();
        self.b_nmask.clock.next = self.clock.val();
        self.b_nmask.en.next = self.e_in.q.val();
        self.b_nmask.d.next = self.h_nmask.q.val();
        self.b_n32.clock.next = self.clock.val();
        self.b_n32.en.next = self.e_b.q.val();
        self.b_n32.d.next = self.s_n32.q.val();
        self.b_offset_ok.clock.next = self.clock.val();
        self.b_offset_ok.en.next = self.e_b.q.val();
        self.b_offset_ok.d.next = self.offset_ok.val();
        self.b_ssaa.clock.next = self.clock.val();
        self.b_ssaa.en.next = self.e_b.q.val();
        self.b_ssaa.d.next = self.ssaa.val();
        self.b_sid.clock.next = self.clock.val();
        self.b_sid.en.next = self.e_b.q.val();
        self.b_sid.d.next = self.sid.val();
        for s in 0..16 {
            self.b_pos[s].clock.next = self.clock.val();
            self.b_pos[s].en.next = self.e_in.q.val();
            self.b_pos[s].d.next = self.h_pos[s].q.val();
        }
        for o in 0..OPS {
            self.b_op_mode[o].clock.next = self.clock.val();
            self.b_op_mode[o].en.next = self.e_b.q.val();
            self.b_op_mode[o].d.next = self.op_mode[o].val();
            self.b_ok[o].clock.next = self.clock.val();
            self.b_ok[o].en.next = self.e_b.q.val();
            self.b_idx[o].clock.next = self.clock.val();
            self.b_idx[o].en.next = self.e_in.q.val();
            self.b_code[o].clock.next = self.clock.val();
            self.b_code[o].en.next = self.e_b.q.val();
            self.b_op_tgsi[o].clock.next = self.clock.val();
            self.b_op_tgsi[o].en.next = self.e_b.q.val();
            self.b_op_tgsi[o].d.next = self.op_tgsi[o].val();
        }
        self.q_covl.clock.next = self.clock.val();
        self.q_covl.en.next = self.e_cent.q.val();
        self.q_covl.d.next = self.b_covl.q.val();
        self.q_code.clock.next = self.clock.val();
        self.q_code.en.next = self.e_cent.q.val();
        self.q_code.d.next = self.cent.code.val();
        self.cov.next = self.q_covl.q.val();
        // Centroid and op slots (super::query).
        self.cent.clock.next = self.clock.val();
        self.cent.en.next = self.e_cent.q.val();
        self.cent.covl.next = self.b_covl.q.val();
        self.cent.helper.next = self.b_helper.q.val();
        self.cent.nmask.next = self.b_nmask.q.val();
        for s in 0..16 {
            self.cent.pos[s].next = self.b_pos[s].q.val();
        }
        for o in 0..OPS {
            self.e_kind[o].clock.next = self.clock.val();
            self.e_kind[o].en.next = self.e_op[o].q.val();
            self.e_rd[o].clock.next = self.clock.val();
            self.e_rd[o].en.next = self.e_op[o].q.val();
            self.e_pd[o].clock.next = self.clock.val();
            self.e_pd[o].en.next = self.e_op[o].q.val();
            self.c_ok[o].clock.next = self.clock.val();
            self.c_ok[o].en.next = self.e_in.q.val();
            self.c_ok[o].d.next = self.b_ok[o].q.val();
            self.e_cov[o].clock.next = self.clock.val();
            self.e_cov[o].en.next = self.e_op[o].q.val();
        }
        for o in 0..OPS {
            self.early[o].ok.next = self.b_ok[o].q.val();
            self.early[o].sel_code.next = self.b_code[o].q.val();
            self.early[o].n32.next = self.b_n32.q.val();
            self.early[o].offset_ok.next = self.b_offset_ok.q.val();
            self.early[o].ssaa.next = self.b_ssaa.q.val();
            self.early[o].sid.next = self.b_sid.q.val();
            self.early[o].op_mode.next = self.b_op_mode[o].q.val();
            self.early[o].op_tgsi.next = self.b_op_tgsi[o].q.val();
            self.x_kind[o].clock.next = self.clock.val();
            self.x_kind[o].en.next = self.e_op[o].q.val();
            self.x_kind[o].d.next = self.early[o].kind.val();
            self.x_enc[o].clock.next = self.clock.val();
            self.x_enc[o].en.next = self.e_op[o].q.val();
            self.x_enc[o].d.next = self.early[o].enc.val();
            self.x_code[o].clock.next = self.clock.val();
            self.x_code[o].en.next = self.e_op[o].q.val();
            self.x_code[o].d.next = self.early[o].code.val();
            self.x_d[o].clock.next = self.clock.val();
            self.x_d[o].en.next = self.e_op[o].q.val();
            self.x_d[o].d.next = self.early[o].d.val();
            self.x_tgsi[o].clock.next = self.clock.val();
            self.x_tgsi[o].en.next = self.e_op[o].q.val();
            self.x_tgsi[o].d.next = self.early[o].tgsi.val();
            self.x_rd[o].clock.next = self.clock.val();
            self.x_rd[o].en.next = self.e_op[o].q.val();
            self.x_rd[o].d.next = self.early[o].rd.val();
            self.x_pd[o].clock.next = self.clock.val();
            self.x_pd[o].en.next = self.e_op[o].q.val();
            self.x_pd[o].d.next = self.early[o].pd.val();
            self.encode[o].enc.next = self.x_enc[o].q.val();
            self.encode[o].code.next = self.x_code[o].q.val();
            self.encode[o].d.next = self.x_d[o].q.val();
            self.encode[o].tgsi.next = self.x_tgsi[o].q.val();
            self.encode[o].rd_plain.next = self.x_rd[o].q.val();
            self.e_kind[o].d.next = self.x_kind[o].q.val();
            self.e_rd[o].d.next = self.encode[o].rd.val();
            self.e_pd[o].d.next = self.x_pd[o].q.val();
            self.cov_bit[o].covl.next = self.b_covl.q.val();
            self.cov_bit[o].ok.next = self.c_ok[o].q.val();
            self.cov_bit[o].idx.next = self.b_idx[o].q.val();
            self.e_cov[o].d.next = self.cov_bit[o].covered.val();
            self.late[o].kind.next = self.e_kind[o].q.val();
            self.late[o].rd_early.next = self.e_rd[o].q.val();
            self.late[o].pd_early.next = self.e_pd[o].q.val();
            self.late[o].covered.next = self.e_cov[o].q.val();
            self.late[o].covl.next = self.q_covl.q.val();
            self.late[o].ccode.next = self.q_code.q.val();
            self.rd[o].next = self.late[o].rd.val();
            self.pd[o].next = self.late[o].pd.val();
        }
    }
}
