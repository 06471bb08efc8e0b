//! The sample-pattern coverage unit (docs/units/coverage.md): one 2×2 quad × 16 samples × 3 edges
//! per clock.
//!
//! # Ports
//! Input stream (`in_valid`/`in_ready`, transfer on a rising edge with both high): `in_tag` (16-bit
//! transaction id, returned unchanged), `in_log2n` (0…4: 1…16 samples), `in_prog` (use `in_pos` instead
//! of the standard table), `in_pos[16·lane + s]` (`{dy[3:0], dx[3:0]}`, 1/16 pixel), `in_vx/in_vy[3]`
//! (vertices, 16.8 fixed point, 25-bit two's complement: ±2^16 pixels), `in_quad_x/y` (pixel
//! coordinates of lane 0, 17-bit two's complement; lanes 1…3 are x+1, y+1, both), `in_smask`, `in_ssaa`,
//! `in_sid[lane]`, and [`OPS`] op slots `in_op_mode/index/pd/tgsi[o]`.
//! Output stream (`out_valid`/`out_ready`): `out_tag`, `out_covmask[lane]`, `out_rd[OPS·lane + o]`,
//! `out_pd[OPS·lane + o]`, `out_pd_wr[o]` (Pd is written: requested and the mode is COVERED or
//! MY_INDEX), `out_err[o]` (the decoder rejected the mode: nothing is written, Rd reads 0).
//!
//! # Timing
//! Three register stages (inputs → edge setup → coverage and queries): latency 3 clocks from the
//! accepting edge to `out_valid`; initiation interval 1. Pipeline depth 1 ([`CoverageUnit::new`])
//! adds cut A inside the edge setup, between the 27×27 products and the subtractions, negations
//! and lane offsets that follow them: latency 4. Depth 2 adds cut B inside each lane
//! ([`CoverageLane`]), between the per-sample edge tests (four adders deep) and the PIXLD queries
//! (centroid priority, sample selects, offset and position encoding): latency 5. Depths 3 and 4
//! add cuts T1 and T2 inside the lanes' sample tests ([`super::SampleTests`]: after the second
//! level of the adder tree, then after the third), latency 6 and 7; depth 5 cut Q between each
//! lane's centroid select and its op slots (the centroid's code and the coverage mask), latency
//! 8; depth 6 cut L inside each lane's centroid, between the coverage mask's lowest-set-bit
//! carry chain and the position select, latency 9; depth 7 cut Z on each sample test's pass bit,
//! between the tests' last adder and zero test and the AND of a sample's three tests, latency
//! 10; depth 8 cut D in front of the sample tests' first adders (kept copies of the edge steps
//! per group of four samples and of each sample's position), latency 11. II = 1 and the same results at every depth. Back-pressure stalls the whole pipeline, decided a clock ahead:
//! behind the output registers sits a skid register of one result, which takes the output
//! registers' result when the output refuses it while the pipeline advances; the pipeline (and
//! `in_ready`) advances in exactly the clocks in which the skid register is empty, so every enable
//! is a register ([`EnableCopy`]: one per stage, and in each lane one per group of registers and
//! one per sample test) instead of one net from `out_ready`, and
//! `out_valid` is `skid valid || output valid`, the skid's result first. Nothing is lost or
//! duplicated. `reset` (synchronous, active high) empties the pipeline and the skid register;
//! data registers are not reset.
//!
//! # Arithmetic
//! Stage 2 evaluates each edge function once per quad, exactly, at the centre of lane 0 with eight
//! 27×27 signed products (three edges × two, plus two for the winding), in 54-bit two's complement.
//! A negative winding negates the edge functions and steps instead of swapping vertices (the swapped
//! triangle's edges are the originals reversed, and `E_{b→a} = −E_{a→b}`). Lane offsets are shifts.
//! Each lane value is reduced to `⌊E/16⌋` clamped to ±2^30 and `E mod 16 ≠ 0`, so the 192 per-sample
//! tests in [`CoverageLane`] are 32-bit adds (see there). Exact: no rounding anywhere.

use super::lane::CoverageLane;
use super::pattern::StdPattern;
use super::OPS;
use crate::common::fp::{Retime, ValidRetime};
use crate::common::{EnableCopy, MulS, SkidControl};
use rust_hdl::prelude::*;

/// Width of the exact edge-function arithmetic.
pub const EDGE_BITS: usize = 54;
// Sign-bit tests inside `#[hdl_gen]` must be literals (the generator prints names verbatim).
const _: () = assert!(EDGE_BITS == 54);

crate::settled_block! {
/// The coverage unit. See the module documentation.
#[derive(Clone, Debug)]
pub struct CoverageUnit {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// Input transaction valid.
    pub in_valid: Signal<In, Bit>,
    /// The unit accepts a transaction this cycle.
    pub in_ready: Signal<Out, Bit>,
    /// Transaction id.
    pub in_tag: Signal<In, Bits<16>>,
    /// log2 of the raster sample count.
    pub in_log2n: Signal<In, Bits<3>>,
    /// Programmable sample positions.
    pub in_prog: Signal<In, Bit>,
    /// Programmable positions, `16·lane + sample`.
    pub in_pos: [Signal<In, Bits<8>>; 64],
    /// Vertex x, 16.8.
    pub in_vx: [Signal<In, Bits<25>>; 3],
    /// Vertex y, 16.8.
    pub in_vy: [Signal<In, Bits<25>>; 3],
    /// Quad x (pixels, lane 0).
    pub in_quad_x: Signal<In, Bits<17>>,
    /// Quad y (pixels, lane 0).
    pub in_quad_y: Signal<In, Bits<17>>,
    /// Sample mask.
    pub in_smask: Signal<In, Bits<16>>,
    /// Supersampling mode.
    pub in_ssaa: Signal<In, Bit>,
    /// Per-lane invocation sample index.
    pub in_sid: [Signal<In, Bits<4>>; 4],
    /// Op mode per slot.
    pub in_op_mode: [Signal<In, Bits<4>>; OPS],
    /// Op sample index per slot (PIXLD's `[#ImmU08]` or `[Ra+#ImmS08]` value).
    pub in_op_index: [Signal<In, Bits<32>>; OPS],
    /// Pd requested per slot.
    pub in_op_pd: [Signal<In, Bit>; OPS],
    /// TGSI position convention per slot.
    pub in_op_tgsi: [Signal<In, Bit>; OPS],
    /// Output valid.
    pub out_valid: Signal<Out, Bit>,
    /// Downstream accepts.
    pub out_ready: Signal<In, Bit>,
    /// Transaction id.
    pub out_tag: Signal<Out, Bits<16>>,
    /// Coverage & sample mask per lane.
    pub out_covmask: [Signal<Out, Bits<16>>; 4],
    /// Rd, `OPS·lane + slot`.
    pub out_rd: [Signal<Out, Bits<32>>; 16],
    /// Pd value, `OPS·lane + slot`.
    pub out_pd: [Signal<Out, Bit>; 16],
    /// Pd is written, per slot.
    pub out_pd_wr: [Signal<Out, Bit>; OPS],
    /// Mode rejected, per slot.
    pub out_err: [Signal<Out, Bit>; OPS],

    /// The stall, decided a clock ahead, and the skid register's valid bit.
    skid: SkidControl,
    /// Registered copies of the advance: `in_ready` and stage 1; cut A and stage 2; cut B and the
    /// output registers (each lane registers its own copies).
    e_s1: EnableCopy,
    e_s2: EnableCopy,
    e_s3: EnableCopy,
    std: StdPattern,
    lane0: CoverageLane,
    lane1: CoverageLane,
    lane2: CoverageLane,
    lane3: CoverageLane,
    // Stage 1: input registers.
    r1_valid: DFF<Bit>,
    r1_tag: DFF<Bits<16>>,
    r1_log2n: DFF<Bits<3>>,
    r1_prog: DFF<Bit>,
    r1_pos: [DFF<Bits<8>>; 64],
    r1_vx: [DFF<Bits<25>>; 3],
    r1_vy: [DFF<Bits<25>>; 3],
    r1_qx: DFF<Bits<17>>,
    r1_qy: DFF<Bits<17>>,
    r1_smask: DFF<Bits<16>>,
    r1_ssaa: DFF<Bit>,
    r1_sid: [DFF<Bits<4>>; 4],
    r1_op_mode: [DFF<Bits<4>>; OPS],
    r1_op_index: [DFF<Bits<32>>; OPS],
    r1_op_pd: [DFF<Bit>; OPS],
    r1_op_tgsi: [DFF<Bit>; OPS],
    // Stage 2 combinational: exact edge setup.
    vxw: [Signal<Local, Bits<EDGE_BITS>>; 3],
    vyw: [Signal<Local, Bits<EDGE_BITS>>; 3],
    pxw: Signal<Local, Bits<EDGE_BITS>>,
    pyw: Signal<Local, Bits<EDGE_BITS>>,
    dxw: [Signal<Local, Bits<EDGE_BITS>>; 3],
    dyw: [Signal<Local, Bits<EDGE_BITS>>; 3],
    relx: [Signal<Local, Bits<EDGE_BITS>>; 3],
    rely: [Signal<Local, Bits<EDGE_BITS>>; 3],
    ew: [Signal<Local, Bits<EDGE_BITS>>; 3],
    area: Signal<Local, Bits<EDGE_BITS>>,
    neg: Signal<Local, Bit>,
    ex256: Signal<Local, Bits<EDGE_BITS>>,
    ey256: Signal<Local, Bits<EDGE_BITS>>,
    el: [Signal<Local, Bits<EDGE_BITS>>; 12],
    v25: Signal<Local, Bits<25>>,
    w0: Signal<Local, Bits<EDGE_BITS>>,
    w1: Signal<Local, Bits<EDGE_BITS>>,
    w2: Signal<Local, Bits<EDGE_BITS>>,
    w3: Signal<Local, Bits<EDGE_BITS>>,
    mul_e1: [MulS<27, 27, EDGE_BITS>; 3],
    mul_e2: [MulS<27, 27, EDGE_BITS>; 3],
    mul_a1: MulS<27, 27, EDGE_BITS>,
    mul_a2: MulS<27, 27, EDGE_BITS>,
    // Cut A (depth ≥ 1): the edge products and differences, and what travels beside them.
    ca_valid: ValidRetime,
    ca_tag: Retime<Bits<16>>,
    ca_log2n: Retime<Bits<3>>,
    ca_prog: Retime<Bit>,
    ca_smask: Retime<Bits<16>>,
    ca_ssaa: Retime<Bit>,
    ca_pos: [Retime<Bits<8>>; 64],
    ca_sid: [Retime<Bits<4>>; 4],
    ca_op_mode: [Retime<Bits<4>>; OPS],
    ca_op_index: [Retime<Bits<32>>; OPS],
    ca_op_pd: [Retime<Bit>; OPS],
    ca_op_tgsi: [Retime<Bit>; OPS],
    ca_pe1: [Retime<Bits<EDGE_BITS>>; 3],
    ca_pe2: [Retime<Bits<EDGE_BITS>>; 3],
    ca_pa1: Retime<Bits<EDGE_BITS>>,
    ca_pa2: Retime<Bits<EDGE_BITS>>,
    ca_dx: [Retime<Bits<EDGE_BITS>>; 3],
    ca_dy: [Retime<Bits<EDGE_BITS>>; 3],
    sdx: [Signal<Local, Bits<EDGE_BITS>>; 3],
    sdy: [Signal<Local, Bits<EDGE_BITS>>; 3],
    // Stage 2 registers.
    r2_valid: DFF<Bit>,
    r2_tag: DFF<Bits<16>>,
    r2_log2n: DFF<Bits<3>>,
    r2_prog: DFF<Bit>,
    r2_pos: [DFF<Bits<8>>; 64],
    r2_smask: DFF<Bits<16>>,
    r2_ssaa: DFF<Bit>,
    r2_sid: [DFF<Bits<4>>; 4],
    r2_op_mode: [DFF<Bits<4>>; OPS],
    r2_op_index: [DFF<Bits<32>>; OPS],
    r2_op_pd: [DFF<Bit>; OPS],
    r2_op_tgsi: [DFF<Bit>; OPS],
    r2_dx: [DFF<Bits<32>>; 3],
    r2_dy: [DFF<Bits<32>>; 3],
    r2_tl: [DFF<Bit>; 3],
    r2_q: [DFF<Bits<32>>; 12],
    r2_rnz: [DFF<Bit>; 12],
    r2_nz: DFF<Bit>,
    // Stage 3 combinational helpers.
    nmask: Signal<Local, Bits<16>>,
    n32: Signal<Local, Bits<32>>,
    offset_ok: Signal<Local, Bit>,
    // Cuts B, T1, T2 (depths 2…4; the lanes hold their coverage masks and query operands): what
    // the output registers read beside the lanes.
    cb_valid: ValidRetime,
    cb_tag: Retime<Bits<16>>,
    cb_op_mode: [Retime<Bits<4>>; OPS],
    cb_op_pd: [Retime<Bit>; OPS],
    // Stage 3 registers (outputs).
    r3_valid: DFF<Bit>,
    r3_tag: DFF<Bits<16>>,
    r3_cov: [DFF<Bits<16>>; 4],
    r3_rd: [DFF<Bits<32>>; 16],
    r3_pd: [DFF<Bit>; 16],
    r3_pd_wr: [DFF<Bit>; OPS],
    r3_err: [DFF<Bit>; OPS],
    // The skid register: the output registers' result, taken when `skid.load`.
    s_tag: Retime<Bits<16>>,
    s_cov: [Retime<Bits<16>>; 4],
    s_rd: [Retime<Bits<32>>; 16],
    s_pd: [Retime<Bit>; 16],
    s_pd_wr: [Retime<Bit>; OPS],
    s_err: [Retime<Bit>; OPS],
}
}

impl Default for CoverageUnit {
    fn default() -> Self {
        Self::new(0)
    }
}

impl CoverageUnit {
    /// Pipeline depths [`CoverageUnit::new`] accepts.
    pub const DEPTHS: [usize; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

    /// Latency in clocks at pipeline depth `depth`.
    pub fn latency(depth: usize) -> usize {
        3 + depth
    }

    /// The unit with `depth` (0…8) extra register stages: from 1, cut A registers the edge
    /// products in the middle of stage 2; from 2, cut B also registers each lane's coverage mask
    /// between its edge tests and its queries; 3 and 4 add cuts T1 and T2 inside the tests' adder
    /// tree, 5 cut Q between each lane's centroid and its op slots, 6 cut L inside each lane's
    /// centroid, 7 cut Z on the sample tests' pass bits, 8 cut D on their inputs (see the module
    /// documentation).
    pub fn new(depth: usize) -> Self {
        use std::array::from_fn;
        assert!(depth <= 8, "coverage: pipeline depth {depth} (0…8)");
        let cut_a = depth.min(1);
        let lane_stages = depth - cut_a;
        Self {
            cb_valid: ValidRetime::new(lane_stages),
            cb_tag: Retime::new(lane_stages),
            cb_op_mode: from_fn(|_| Retime::new(lane_stages)),
            cb_op_pd: from_fn(|_| Retime::new(lane_stages)),
            settle: crate::common::settle::SettleState::new(true),
            skid: Default::default(),
            ca_valid: ValidRetime::new(cut_a),
            ca_tag: Retime::new(cut_a),
            ca_log2n: Retime::new(cut_a),
            ca_prog: Retime::new(cut_a),
            ca_smask: Retime::new(cut_a),
            ca_ssaa: Retime::new(cut_a),
            ca_pos: from_fn(|_| Retime::new(cut_a)),
            ca_sid: from_fn(|_| Retime::new(cut_a)),
            ca_op_mode: from_fn(|_| Retime::new(cut_a)),
            ca_op_index: from_fn(|_| Retime::new(cut_a)),
            ca_op_pd: from_fn(|_| Retime::new(cut_a)),
            ca_op_tgsi: from_fn(|_| Retime::new(cut_a)),
            ca_pe1: from_fn(|_| Retime::new(cut_a)),
            ca_pe2: from_fn(|_| Retime::new(cut_a)),
            ca_pa1: Retime::new(cut_a),
            ca_pa2: Retime::new(cut_a),
            ca_dx: from_fn(|_| Retime::new(cut_a)),
            ca_dy: from_fn(|_| Retime::new(cut_a)),
            sdx: Default::default(),
            sdy: Default::default(),
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_tag: Default::default(),
            in_log2n: Default::default(),
            in_prog: Default::default(),
            in_pos: from_fn(|_| Default::default()),
            in_vx: Default::default(),
            in_vy: Default::default(),
            in_quad_x: Default::default(),
            in_quad_y: Default::default(),
            in_smask: Default::default(),
            in_ssaa: Default::default(),
            in_sid: Default::default(),
            in_op_mode: Default::default(),
            in_op_index: Default::default(),
            in_op_pd: Default::default(),
            in_op_tgsi: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_tag: Default::default(),
            out_covmask: Default::default(),
            out_rd: Default::default(),
            out_pd: Default::default(),
            out_pd_wr: Default::default(),
            out_err: Default::default(),
            e_s1: Default::default(),
            e_s2: Default::default(),
            e_s3: Default::default(),
            std: Default::default(),
            lane0: CoverageLane::new(lane_stages),
            lane1: CoverageLane::new(lane_stages),
            lane2: CoverageLane::new(lane_stages),
            lane3: CoverageLane::new(lane_stages),
            r1_valid: Default::default(),
            r1_tag: Default::default(),
            r1_log2n: Default::default(),
            r1_prog: Default::default(),
            r1_pos: from_fn(|_| Default::default()),
            r1_vx: Default::default(),
            r1_vy: Default::default(),
            r1_qx: Default::default(),
            r1_qy: Default::default(),
            r1_smask: Default::default(),
            r1_ssaa: Default::default(),
            r1_sid: Default::default(),
            r1_op_mode: Default::default(),
            r1_op_index: Default::default(),
            r1_op_pd: Default::default(),
            r1_op_tgsi: Default::default(),
            vxw: Default::default(),
            vyw: Default::default(),
            pxw: Default::default(),
            pyw: Default::default(),
            dxw: Default::default(),
            dyw: Default::default(),
            relx: Default::default(),
            rely: Default::default(),
            ew: Default::default(),
            area: Default::default(),
            neg: Default::default(),
            ex256: Default::default(),
            ey256: Default::default(),
            el: Default::default(),
            v25: Default::default(),
            w0: Default::default(),
            w1: Default::default(),
            w2: Default::default(),
            w3: Default::default(),
            mul_e1: Default::default(),
            mul_e2: Default::default(),
            mul_a1: Default::default(),
            mul_a2: Default::default(),
            r2_valid: Default::default(),
            r2_tag: Default::default(),
            r2_log2n: Default::default(),
            r2_prog: Default::default(),
            r2_pos: from_fn(|_| Default::default()),
            r2_smask: Default::default(),
            r2_ssaa: Default::default(),
            r2_sid: Default::default(),
            r2_op_mode: Default::default(),
            r2_op_index: Default::default(),
            r2_op_pd: Default::default(),
            r2_op_tgsi: Default::default(),
            r2_dx: Default::default(),
            r2_dy: Default::default(),
            r2_tl: Default::default(),
            r2_q: Default::default(),
            r2_rnz: Default::default(),
            r2_nz: Default::default(),
            nmask: Default::default(),
            n32: Default::default(),
            offset_ok: Default::default(),
            r3_valid: Default::default(),
            r3_tag: Default::default(),
            r3_cov: Default::default(),
            r3_rd: Default::default(),
            r3_pd: Default::default(),
            r3_pd_wr: Default::default(),
            r3_err: Default::default(),
            s_tag: Retime::new(1),
            s_cov: from_fn(|_| Retime::new(1)),
            s_rd: from_fn(|_| Retime::new(1)),
            s_pd: from_fn(|_| Retime::new(1)),
            s_pd_wr: from_fn(|_| Retime::new(1)),
            s_err: from_fn(|_| Retime::new(1)),
        }
    }
}

impl Logic for CoverageUnit {
    #[hdl_gen]
    fn update(&mut self) {
        // ---------------- clocks and hold values ----------------
        dff_setup!(
            self, clock, r1_valid, r1_tag, r1_log2n, r1_prog, r1_qx, r1_qy, r1_smask, r1_ssaa
        );
        dff_setup!(self, clock, r2_valid, r2_tag, r2_log2n, r2_prog, r2_smask, r2_ssaa, r2_nz);
        dff_setup!(self, clock, r3_valid, r3_tag);

        // ---------------- advance, decided a clock ahead ----------------
        // The pipeline advances in a clock exactly when the skid register is empty then, so the
        // advance (and `in_ready`) is a register, copied per group of registers, not a function
        // of `out_ready`. A result that the output refuses while the pipeline advances moves into
        // the skid register, which then stalls the pipeline until the output takes it.
        self.skid.clock.next = self.clock.val();
        self.skid.reset.next = self.reset.val();
        self.skid.full.next = self.r3_valid.q.val();
        self.skid.out_ready.next = self.out_ready.val();
        self.e_s1.clock.next = self.clock.val();
        self.e_s1.d.next = self.skid.adv_next.val();
        self.e_s2.clock.next = self.clock.val();
        self.e_s2.d.next = self.skid.adv_next.val();
        self.e_s3.clock.next = self.clock.val();
        self.e_s3.d.next = self.skid.adv_next.val();
        self.in_ready.next = self.e_s1.q.val();
        for i in 0..64 {
            self.r1_pos[i].clock.next = self.clock.val();
            self.r1_pos[i].d.next = self.r1_pos[i].q.val();
            self.r2_pos[i].clock.next = self.clock.val();
            self.r2_pos[i].d.next = self.r2_pos[i].q.val();
        }
        for i in 0..3 {
            self.r1_vx[i].clock.next = self.clock.val();
            self.r1_vx[i].d.next = self.r1_vx[i].q.val();
            self.r1_vy[i].clock.next = self.clock.val();
            self.r1_vy[i].d.next = self.r1_vy[i].q.val();
            self.r2_dx[i].clock.next = self.clock.val();
            self.r2_dx[i].d.next = self.r2_dx[i].q.val();
            self.r2_dy[i].clock.next = self.clock.val();
            self.r2_dy[i].d.next = self.r2_dy[i].q.val();
            self.r2_tl[i].clock.next = self.clock.val();
            self.r2_tl[i].d.next = self.r2_tl[i].q.val();
        }
        for i in 0..4 {
            self.r1_sid[i].clock.next = self.clock.val();
            self.r1_sid[i].d.next = self.r1_sid[i].q.val();
            self.r2_sid[i].clock.next = self.clock.val();
            self.r2_sid[i].d.next = self.r2_sid[i].q.val();
            self.r3_cov[i].clock.next = self.clock.val();
            self.r3_cov[i].d.next = self.r3_cov[i].q.val();
        }
        for i in 0..OPS {
            self.r1_op_mode[i].clock.next = self.clock.val();
            self.r1_op_mode[i].d.next = self.r1_op_mode[i].q.val();
            self.r1_op_index[i].clock.next = self.clock.val();
            self.r1_op_index[i].d.next = self.r1_op_index[i].q.val();
            self.r1_op_pd[i].clock.next = self.clock.val();
            self.r1_op_pd[i].d.next = self.r1_op_pd[i].q.val();
            self.r1_op_tgsi[i].clock.next = self.clock.val();
            self.r1_op_tgsi[i].d.next = self.r1_op_tgsi[i].q.val();
            self.r2_op_mode[i].clock.next = self.clock.val();
            self.r2_op_mode[i].d.next = self.r2_op_mode[i].q.val();
            self.r2_op_index[i].clock.next = self.clock.val();
            self.r2_op_index[i].d.next = self.r2_op_index[i].q.val();
            self.r2_op_pd[i].clock.next = self.clock.val();
            self.r2_op_pd[i].d.next = self.r2_op_pd[i].q.val();
            self.r2_op_tgsi[i].clock.next = self.clock.val();
            self.r2_op_tgsi[i].d.next = self.r2_op_tgsi[i].q.val();
            self.r3_pd_wr[i].clock.next = self.clock.val();
            self.r3_pd_wr[i].d.next = self.r3_pd_wr[i].q.val();
            self.r3_err[i].clock.next = self.clock.val();
            self.r3_err[i].d.next = self.r3_err[i].q.val();
        }
        for i in 0..12 {
            self.r2_q[i].clock.next = self.clock.val();
            self.r2_q[i].d.next = self.r2_q[i].q.val();
            self.r2_rnz[i].clock.next = self.clock.val();
            self.r2_rnz[i].d.next = self.r2_rnz[i].q.val();
        }
        for i in 0..16 {
            self.r3_rd[i].clock.next = self.clock.val();
            self.r3_rd[i].d.next = self.r3_rd[i].q.val();
            self.r3_pd[i].clock.next = self.clock.val();
            self.r3_pd[i].d.next = self.r3_pd[i].q.val();
        }

        // ---------------- stage 1: input registers ----------------
        self.std.log2n.next = self.in_log2n.val();
        if self.e_s1.q.val() {
            self.r1_valid.d.next = self.in_valid.val();
            self.r1_tag.d.next = self.in_tag.val();
            self.r1_log2n.d.next = self.in_log2n.val();
            self.r1_prog.d.next = self.in_prog.val();
            self.r1_qx.d.next = self.in_quad_x.val();
            self.r1_qy.d.next = self.in_quad_y.val();
            self.r1_smask.d.next = self.in_smask.val();
            self.r1_ssaa.d.next = self.in_ssaa.val();
            for i in 0..64 {
                if self.in_prog.val() {
                    self.r1_pos[i].d.next = self.in_pos[i].val();
                } else {
                    self.r1_pos[i].d.next = self.std.pos[i % 16].val();
                }
            }
            for i in 0..3 {
                self.r1_vx[i].d.next = self.in_vx[i].val();
                self.r1_vy[i].d.next = self.in_vy[i].val();
            }
            for i in 0..4 {
                self.r1_sid[i].d.next = self.in_sid[i].val();
            }
            for i in 0..OPS {
                self.r1_op_mode[i].d.next = self.in_op_mode[i].val();
                self.r1_op_index[i].d.next = self.in_op_index[i].val();
                self.r1_op_pd[i].d.next = self.in_op_pd[i].val();
                self.r1_op_tgsi[i].d.next = self.in_op_tgsi[i].val();
            }
        }

        // ---------------- stage 2: exact edge setup ----------------
        for i in 0..3 {
            self.v25.next = self.r1_vx[i].q.val();
            self.vxw[i].next = bit_cast::<EDGE_BITS, 25>(self.v25.val());
            if self.r1_vx[i].q.val().get_bit(24) {
                self.vxw[i].next = self.vxw[i].val() | bits::<EDGE_BITS>(0x3f_ffff_fe00_0000_u64);
            }
            self.v25.next = self.r1_vy[i].q.val();
            self.vyw[i].next = bit_cast::<EDGE_BITS, 25>(self.v25.val());
            if self.r1_vy[i].q.val().get_bit(24) {
                self.vyw[i].next = self.vyw[i].val() | bits::<EDGE_BITS>(0x3f_ffff_fe00_0000_u64);
            }
        }
        // Reference point: centre of lane 0, 256·X + 128.
        self.pxw.next = bit_cast::<EDGE_BITS, 17>(self.r1_qx.q.val());
        if self.r1_qx.q.val().get_bit(16) {
            self.pxw.next = self.pxw.val() | bits::<EDGE_BITS>(0x3f_ffff_fffe_0000_u64);
        }
        self.pxw.next = (self.pxw.val() << 8) | bits::<EDGE_BITS>(128);
        self.pyw.next = bit_cast::<EDGE_BITS, 17>(self.r1_qy.q.val());
        if self.r1_qy.q.val().get_bit(16) {
            self.pyw.next = self.pyw.val() | bits::<EDGE_BITS>(0x3f_ffff_fffe_0000_u64);
        }
        self.pyw.next = (self.pyw.val() << 8) | bits::<EDGE_BITS>(128);
        // Edge e runs from vertex e to vertex (e+1) mod 3.
        for e in 0..3 {
            self.dxw[e].next = self.vxw[(e + 1) % 3].val() - self.vxw[e].val();
            self.dyw[e].next = self.vyw[(e + 1) % 3].val() - self.vyw[e].val();
            self.relx[e].next = self.pxw.val() - self.vxw[e].val();
            self.rely[e].next = self.pyw.val() - self.vyw[e].val();
            self.w0.next = self.dxw[e].val();
            self.mul_e1[e].a.next = bit_cast::<27, EDGE_BITS>(self.w0.val());
            self.w1.next = self.rely[e].val();
            self.mul_e1[e].b.next = bit_cast::<27, EDGE_BITS>(self.w1.val());
            self.w2.next = self.dyw[e].val();
            self.mul_e2[e].a.next = bit_cast::<27, EDGE_BITS>(self.w2.val());
            self.w3.next = self.relx[e].val();
            self.mul_e2[e].b.next = bit_cast::<27, EDGE_BITS>(self.w3.val());
        }
        // Twice the signed area: A = dy0·dx2 − dx0·dy2 (= E_{v0→v1}(v2)).
        self.mul_a1.a.next = bit_cast::<27, EDGE_BITS>(self.dyw[0].val());
        self.mul_a1.b.next = bit_cast::<27, EDGE_BITS>(self.dxw[2].val());
        self.mul_a2.a.next = bit_cast::<27, EDGE_BITS>(self.dxw[0].val());
        self.mul_a2.b.next = bit_cast::<27, EDGE_BITS>(self.dyw[2].val());

        // ---------------- cut A: products and differences (a wire at depth 0) ----------------
        self.ca_valid.clock.next = self.clock.val();
        self.ca_valid.reset.next = self.reset.val();
        self.ca_valid.en.next = self.e_s2.q.val();
        self.ca_valid.d.next = self.r1_valid.q.val();
        self.ca_tag.clock.next = self.clock.val();
        self.ca_tag.en.next = self.e_s2.q.val();
        self.ca_tag.d.next = self.r1_tag.q.val();
        self.ca_log2n.clock.next = self.clock.val();
        self.ca_log2n.en.next = self.e_s2.q.val();
        self.ca_log2n.d.next = self.r1_log2n.q.val();
        self.ca_prog.clock.next = self.clock.val();
        self.ca_prog.en.next = self.e_s2.q.val();
        self.ca_prog.d.next = self.r1_prog.q.val();
        self.ca_smask.clock.next = self.clock.val();
        self.ca_smask.en.next = self.e_s2.q.val();
        self.ca_smask.d.next = self.r1_smask.q.val();
        self.ca_ssaa.clock.next = self.clock.val();
        self.ca_ssaa.en.next = self.e_s2.q.val();
        self.ca_ssaa.d.next = self.r1_ssaa.q.val();
        self.ca_pa1.clock.next = self.clock.val();
        self.ca_pa1.en.next = self.e_s2.q.val();
        self.ca_pa1.d.next = self.mul_a1.p.val();
        self.ca_pa2.clock.next = self.clock.val();
        self.ca_pa2.en.next = self.e_s2.q.val();
        self.ca_pa2.d.next = self.mul_a2.p.val();
        for i in 0..64 {
            self.ca_pos[i].clock.next = self.clock.val();
            self.ca_pos[i].en.next = self.e_s2.q.val();
            self.ca_pos[i].d.next = self.r1_pos[i].q.val();
        }
        for i in 0..4 {
            self.ca_sid[i].clock.next = self.clock.val();
            self.ca_sid[i].en.next = self.e_s2.q.val();
            self.ca_sid[i].d.next = self.r1_sid[i].q.val();
        }
        for o in 0..OPS {
            self.ca_op_mode[o].clock.next = self.clock.val();
            self.ca_op_mode[o].en.next = self.e_s2.q.val();
            self.ca_op_mode[o].d.next = self.r1_op_mode[o].q.val();
            self.ca_op_index[o].clock.next = self.clock.val();
            self.ca_op_index[o].en.next = self.e_s2.q.val();
            self.ca_op_index[o].d.next = self.r1_op_index[o].q.val();
            self.ca_op_pd[o].clock.next = self.clock.val();
            self.ca_op_pd[o].en.next = self.e_s2.q.val();
            self.ca_op_pd[o].d.next = self.r1_op_pd[o].q.val();
            self.ca_op_tgsi[o].clock.next = self.clock.val();
            self.ca_op_tgsi[o].en.next = self.e_s2.q.val();
            self.ca_op_tgsi[o].d.next = self.r1_op_tgsi[o].q.val();
        }
        for e in 0..3 {
            self.ca_pe1[e].clock.next = self.clock.val();
            self.ca_pe1[e].en.next = self.e_s2.q.val();
            self.ca_pe1[e].d.next = self.mul_e1[e].p.val();
            self.ca_pe2[e].clock.next = self.clock.val();
            self.ca_pe2[e].en.next = self.e_s2.q.val();
            self.ca_pe2[e].d.next = self.mul_e2[e].p.val();
            self.ca_dx[e].clock.next = self.clock.val();
            self.ca_dx[e].en.next = self.e_s2.q.val();
            self.ca_dx[e].d.next = self.dxw[e].val();
            self.ca_dy[e].clock.next = self.clock.val();
            self.ca_dy[e].en.next = self.e_s2.q.val();
            self.ca_dy[e].d.next = self.dyw[e].val();
        }

        // ---------------- stage 2, after cut A: edge values, winding, lane offsets ----------------
        self.area.next = self.ca_pa1.q.val() - self.ca_pa2.q.val();
        self.neg.next = self.area.val().get_bit(53);
        for e in 0..3 {
            self.ew[e].next = self.ca_pe1[e].q.val() - self.ca_pe2[e].q.val();
            self.sdx[e].next = self.ca_dx[e].q.val();
            self.sdy[e].next = self.ca_dy[e].q.val();
            if self.neg.val() {
                self.ew[e].next = bits::<EDGE_BITS>(0) - self.ew[e].val();
                self.sdx[e].next = bits::<EDGE_BITS>(0) - self.sdx[e].val();
                self.sdy[e].next = bits::<EDGE_BITS>(0) - self.sdy[e].val();
            }
            // Lane centres: lane 1 at +256 in x, lane 2 at +256 in y, lane 3 both.
            self.ex256.next = self.sdx[e].val() << 8;
            self.ey256.next = self.sdy[e].val() << 8;
            self.el[e].next = self.ew[e].val();
            self.el[3 + e].next = self.ew[e].val() - self.ey256.val();
            self.el[6 + e].next = self.ew[e].val() + self.ex256.val();
            self.el[9 + e].next = self.ew[e].val() + self.ex256.val() - self.ey256.val();
        }
        if self.e_s2.q.val() {
            self.r2_valid.d.next = self.ca_valid.q.val();
            self.r2_tag.d.next = self.ca_tag.q.val();
            self.r2_log2n.d.next = self.ca_log2n.q.val();
            self.r2_prog.d.next = self.ca_prog.q.val();
            self.r2_smask.d.next = self.ca_smask.q.val();
            self.r2_ssaa.d.next = self.ca_ssaa.q.val();
            self.r2_nz.d.next = self.area.val().any();
            for i in 0..64 {
                self.r2_pos[i].d.next = self.ca_pos[i].q.val();
            }
            for i in 0..4 {
                self.r2_sid[i].d.next = self.ca_sid[i].q.val();
            }
            for i in 0..OPS {
                self.r2_op_mode[i].d.next = self.ca_op_mode[i].q.val();
                self.r2_op_index[i].d.next = self.ca_op_index[i].q.val();
                self.r2_op_pd[i].d.next = self.ca_op_pd[i].q.val();
                self.r2_op_tgsi[i].d.next = self.ca_op_tgsi[i].q.val();
            }
            for e in 0..3 {
                self.w0.next = self.sdx[e].val();
                self.r2_dx[e].d.next = bit_cast::<32, EDGE_BITS>(self.w0.val());
                self.w1.next = self.sdy[e].val();
                self.r2_dy[e].d.next = bit_cast::<32, EDGE_BITS>(self.w1.val());
                // Top-left: dy < 0, or dy = 0 and dx > 0.
                self.r2_tl[e].d.next = self.sdy[e].val().get_bit(53)
                    | (!self.sdy[e].val().any()
                        & !self.sdx[e].val().get_bit(53)
                        & self.sdx[e].val().any());
            }
            for i in 0..12 {
                // q = clamp(⌊E/16⌋, −2^30, 2^30); |E| ≤ 2^34 keeps the shifted value exact in 32 bits.
                self.w0.next = self.el[i].val() >> 4;
                self.r2_q[i].d.next = bit_cast::<32, EDGE_BITS>(self.w0.val());
                if !self.el[i].val().get_bit(53)
                    & (self.el[i].val() >= bits::<EDGE_BITS>(0x4_0000_0000_u64))
                {
                    self.r2_q[i].d.next = bits::<32>(0x4000_0000_u64);
                }
                if self.el[i].val().get_bit(53)
                    & (self.el[i].val() < bits::<EDGE_BITS>(0x3f_fffc_0000_0000_u64))
                {
                    self.r2_q[i].d.next = bits::<32>(0xc000_0000_u64);
                }
                self.r2_rnz[i].d.next = self.el[i].val().get_bits::<4>(0).any();
            }
        }

        // ---------------- stage 3: per-lane coverage and queries ----------------
        self.nmask.next = 0.into();
        self.n32.next = 0.into();
        match self.r2_log2n.q.val().index() {
            0 => {
                self.nmask.next = bits::<16>(0x1);
                self.n32.next = bits::<32>(1);
            }
            1 => {
                self.nmask.next = bits::<16>(0x3);
                self.n32.next = bits::<32>(2);
            }
            2 => {
                self.nmask.next = bits::<16>(0xf);
                self.n32.next = bits::<32>(4);
            }
            3 => {
                self.nmask.next = bits::<16>(0xff);
                self.n32.next = bits::<32>(8);
            }
            4 => {
                self.nmask.next = bits::<16>(0xffff);
                self.n32.next = bits::<32>(16);
            }
            _ => {}
        }
        self.offset_ok.next = !self.r2_prog.q.val() & (self.r2_log2n.q.val() < bits::<3>(4));
        self.lane0.clock.next = self.clock.val();
        self.lane1.clock.next = self.clock.val();
        self.lane2.clock.next = self.clock.val();
        self.lane3.clock.next = self.clock.val();
        self.lane0.adv_next.next = self.skid.adv_next.val();
        self.lane1.adv_next.next = self.skid.adv_next.val();
        self.lane2.adv_next.next = self.skid.adv_next.val();
        self.lane3.adv_next.next = self.skid.adv_next.val();
        self.cb_valid.clock.next = self.clock.val();
        self.cb_valid.reset.next = self.reset.val();
        self.cb_valid.en.next = self.e_s3.q.val();
        self.cb_valid.d.next = self.r2_valid.q.val();
        self.cb_tag.clock.next = self.clock.val();
        self.cb_tag.en.next = self.e_s3.q.val();
        self.cb_tag.d.next = self.r2_tag.q.val();
        for o in 0..OPS {
            self.cb_op_mode[o].clock.next = self.clock.val();
            self.cb_op_mode[o].en.next = self.e_s3.q.val();
            self.cb_op_mode[o].d.next = self.r2_op_mode[o].q.val();
            self.cb_op_pd[o].clock.next = self.clock.val();
            self.cb_op_pd[o].en.next = self.e_s3.q.val();
            self.cb_op_pd[o].d.next = self.r2_op_pd[o].q.val();
        }
        self.lane0.nz.next = self.r2_nz.q.val();
        self.lane1.nz.next = self.r2_nz.q.val();
        self.lane2.nz.next = self.r2_nz.q.val();
        self.lane3.nz.next = self.r2_nz.q.val();
        self.lane0.nmask.next = self.nmask.val();
        self.lane1.nmask.next = self.nmask.val();
        self.lane2.nmask.next = self.nmask.val();
        self.lane3.nmask.next = self.nmask.val();
        self.lane0.n32.next = self.n32.val();
        self.lane1.n32.next = self.n32.val();
        self.lane2.n32.next = self.n32.val();
        self.lane3.n32.next = self.n32.val();
        self.lane0.offset_ok.next = self.offset_ok.val();
        self.lane1.offset_ok.next = self.offset_ok.val();
        self.lane2.offset_ok.next = self.offset_ok.val();
        self.lane3.offset_ok.next = self.offset_ok.val();
        self.lane0.smask.next = self.r2_smask.q.val();
        self.lane1.smask.next = self.r2_smask.q.val();
        self.lane2.smask.next = self.r2_smask.q.val();
        self.lane3.smask.next = self.r2_smask.q.val();
        self.lane0.ssaa.next = self.r2_ssaa.q.val();
        self.lane1.ssaa.next = self.r2_ssaa.q.val();
        self.lane2.ssaa.next = self.r2_ssaa.q.val();
        self.lane3.ssaa.next = self.r2_ssaa.q.val();
        self.lane0.sid.next = self.r2_sid[0].q.val();
        self.lane1.sid.next = self.r2_sid[1].q.val();
        self.lane2.sid.next = self.r2_sid[2].q.val();
        self.lane3.sid.next = self.r2_sid[3].q.val();
        for e in 0..3 {
            self.lane0.dx[e].next = self.r2_dx[e].q.val();
            self.lane1.dx[e].next = self.r2_dx[e].q.val();
            self.lane2.dx[e].next = self.r2_dx[e].q.val();
            self.lane3.dx[e].next = self.r2_dx[e].q.val();
            self.lane0.dy[e].next = self.r2_dy[e].q.val();
            self.lane1.dy[e].next = self.r2_dy[e].q.val();
            self.lane2.dy[e].next = self.r2_dy[e].q.val();
            self.lane3.dy[e].next = self.r2_dy[e].q.val();
            self.lane0.tl[e].next = self.r2_tl[e].q.val();
            self.lane1.tl[e].next = self.r2_tl[e].q.val();
            self.lane2.tl[e].next = self.r2_tl[e].q.val();
            self.lane3.tl[e].next = self.r2_tl[e].q.val();
            self.lane0.q[e].next = self.r2_q[e].q.val();
            self.lane1.q[e].next = self.r2_q[3 + e].q.val();
            self.lane2.q[e].next = self.r2_q[6 + e].q.val();
            self.lane3.q[e].next = self.r2_q[9 + e].q.val();
            self.lane0.rnz[e].next = self.r2_rnz[e].q.val();
            self.lane1.rnz[e].next = self.r2_rnz[3 + e].q.val();
            self.lane2.rnz[e].next = self.r2_rnz[6 + e].q.val();
            self.lane3.rnz[e].next = self.r2_rnz[9 + e].q.val();
        }
        for s in 0..16 {
            self.lane0.pos[s].next = self.r2_pos[s].q.val();
            self.lane1.pos[s].next = self.r2_pos[16 + s].q.val();
            self.lane2.pos[s].next = self.r2_pos[32 + s].q.val();
            self.lane3.pos[s].next = self.r2_pos[48 + s].q.val();
        }
        for o in 0..OPS {
            self.lane0.op_mode[o].next = self.r2_op_mode[o].q.val();
            self.lane1.op_mode[o].next = self.r2_op_mode[o].q.val();
            self.lane2.op_mode[o].next = self.r2_op_mode[o].q.val();
            self.lane3.op_mode[o].next = self.r2_op_mode[o].q.val();
            self.lane0.op_index[o].next = self.r2_op_index[o].q.val();
            self.lane1.op_index[o].next = self.r2_op_index[o].q.val();
            self.lane2.op_index[o].next = self.r2_op_index[o].q.val();
            self.lane3.op_index[o].next = self.r2_op_index[o].q.val();
            self.lane0.op_tgsi[o].next = self.r2_op_tgsi[o].q.val();
            self.lane1.op_tgsi[o].next = self.r2_op_tgsi[o].q.val();
            self.lane2.op_tgsi[o].next = self.r2_op_tgsi[o].q.val();
            self.lane3.op_tgsi[o].next = self.r2_op_tgsi[o].q.val();
        }
        if self.e_s3.q.val() {
            self.r3_valid.d.next = self.cb_valid.q.val();
            self.r3_tag.d.next = self.cb_tag.q.val();
            self.r3_cov[0].d.next = self.lane0.cov.val();
            self.r3_cov[1].d.next = self.lane1.cov.val();
            self.r3_cov[2].d.next = self.lane2.cov.val();
            self.r3_cov[3].d.next = self.lane3.cov.val();
            for o in 0..OPS {
                self.r3_rd[o].d.next = self.lane0.rd[o].val();
                self.r3_rd[4 + o].d.next = self.lane1.rd[o].val();
                self.r3_rd[8 + o].d.next = self.lane2.rd[o].val();
                self.r3_rd[12 + o].d.next = self.lane3.rd[o].val();
                self.r3_pd[o].d.next = self.lane0.pd[o].val();
                self.r3_pd[4 + o].d.next = self.lane1.pd[o].val();
                self.r3_pd[8 + o].d.next = self.lane2.pd[o].val();
                self.r3_pd[12 + o].d.next = self.lane3.pd[o].val();
                // Pd is written only for COVERED (2) and MY_INDEX (5); 6, 7 and 11…15 are rejected.
                self.r3_pd_wr[o].d.next = self.cb_op_pd[o].q.val()
                    & ((self.cb_op_mode[o].q.val() == 2) | (self.cb_op_mode[o].q.val() == 5));
                self.r3_err[o].d.next = (self.cb_op_mode[o].q.val() == 6)
                    | (self.cb_op_mode[o].q.val() == 7)
                    | (self.cb_op_mode[o].q.val() > 10);
            }
        }
        if self.reset.val() {
            self.r1_valid.d.next = false;
            self.r2_valid.d.next = false;
            self.r3_valid.d.next = false;
        }

        // ---------------- skid register and outputs ----------------
        self.s_tag.clock.next = self.clock.val();
        self.s_tag.en.next = self.skid.load.val();
        self.s_tag.d.next = self.r3_tag.q.val();
        for i in 0..4 {
            self.s_cov[i].clock.next = self.clock.val();
            self.s_cov[i].en.next = self.skid.load.val();
            self.s_cov[i].d.next = self.r3_cov[i].q.val();
        }
        for i in 0..16 {
            self.s_rd[i].clock.next = self.clock.val();
            self.s_rd[i].en.next = self.skid.load.val();
            self.s_rd[i].d.next = self.r3_rd[i].q.val();
            self.s_pd[i].clock.next = self.clock.val();
            self.s_pd[i].en.next = self.skid.load.val();
            self.s_pd[i].d.next = self.r3_pd[i].q.val();
        }
        for o in 0..OPS {
            self.s_pd_wr[o].clock.next = self.clock.val();
            self.s_pd_wr[o].en.next = self.skid.load.val();
            self.s_pd_wr[o].d.next = self.r3_pd_wr[o].q.val();
            self.s_err[o].clock.next = self.clock.val();
            self.s_err[o].en.next = self.skid.load.val();
            self.s_err[o].d.next = self.r3_err[o].q.val();
        }
        // The skid register holds the older result.
        self.out_valid.next = self.skid.valid.val() | self.r3_valid.q.val();
        if self.skid.valid.val() {
            self.out_tag.next = self.s_tag.q.val();
            for i in 0..4 {
                self.out_covmask[i].next = self.s_cov[i].q.val();
            }
            for i in 0..16 {
                self.out_rd[i].next = self.s_rd[i].q.val();
                self.out_pd[i].next = self.s_pd[i].q.val();
            }
            for o in 0..OPS {
                self.out_pd_wr[o].next = self.s_pd_wr[o].q.val();
                self.out_err[o].next = self.s_err[o].q.val();
            }
        } else {
            self.out_tag.next = self.r3_tag.q.val();
            for i in 0..4 {
                self.out_covmask[i].next = self.r3_cov[i].q.val();
            }
            for i in 0..16 {
                self.out_rd[i].next = self.r3_rd[i].q.val();
                self.out_pd[i].next = self.r3_pd[i].q.val();
            }
            for o in 0..OPS {
                self.out_pd_wr[o].next = self.r3_pd_wr[o].q.val();
                self.out_err[o].next = self.r3_err[o].q.val();
            }
        }
    }
}
