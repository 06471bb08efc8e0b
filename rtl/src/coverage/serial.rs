//! The coverage unit, time-multiplexed (docs/units/coverage.md §8): the same ports and results as
//! [`CoverageUnit`], bit for bit, from one 27×27 multiplier and one op-slot query, small enough for
//! an iCE40UP5K.
//!
//! # Ports
//! Exactly those of [`CoverageUnit`] (see there for every field), with the same valid/ready streams.
//!
//! # Timing
//! One transaction at a time. The unit starts on an offered transaction (`in_valid`) when its
//! output register is free (or being taken), computes for [`SERIAL_CYCLES`] − 1 clocks with
//! `in_ready` low, and takes the transaction (`in_ready` high for one clock) on the clock that
//! completes its result; `out_valid` rises on the next clock. So the source must hold the inputs
//! stable while `in_valid` is high and `in_ready` low — the valid/ready (AXI-Stream) rule that the
//! stream drivers and [`crate::board::UartFramer`] follow — and the unit needs no input
//! registers (on the board, the framer's command register is the only copy). Latency 1 clock from
//! the accepting edge to `out_valid`; initiation interval [`SERIAL_CYCLES`] clocks when the sink
//! takes each result at once. `reset` (synchronous, active high) abandons a computation and
//! empties the output; data registers are not reset.
//!
//! # Arithmetic
//! Every edge function is evaluated exactly at every sample with the multiplier, two products per
//! edge and sample: `E = dx·(py − vy) − dy·(px − vx)` with `(px, py)` the sample (1/256 pixel,
//! 27 bits) and the difference in 54-bit two's complement, then the twice-signed area
//! `A = dy0·dx2 − dx0·dy2` first. A sample is covered when, for every edge, `E > 0` or `E = 0` on a
//! top-left edge, with `E`, `dx`, `dy` negated when `A < 0`, the area is non-zero, and the sample
//! is below n and in the sample mask — the same integer decisions as [`CoverageUnit`], which
//! evaluates `E` once per quad and adds the sample offsets in 32 bits (see
//! [`super::lane`]). Products: 2 (area) + 4 lanes × 16 samples × 3 edges × 2 = 386, one per clock,
//! in a three-stage pipeline (operands | product | accumulate and test). Then 16 clocks of PIXLD
//! queries, one (lane, op slot) per clock, through [`LaneCentroid`] (twice: the helper pixel's centroid and the lane's), [`OpSelect`]
//! and [`OpQuery`].

use super::pattern::StdPattern;
use super::query::{LaneCentroid, OpQuery, OpSelect};
use super::OPS;
use crate::common::MulS;
use rust_hdl::prelude::*;

/// Clocks per transaction: from the first clock it is offered to an idle unit to the clock it is
/// taken, inclusive (1 start, 386 products, 2 pipeline drain, 16 queries).
pub const SERIAL_CYCLES: u64 = 405;
const _: () = assert!(OPS == 4);

crate::settled_block! {
/// The serial coverage unit. See the module documentation.
#[derive(Clone, Debug)]
pub struct CoverageSerial {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// Input transaction valid (inputs held stable until `in_ready`).
    pub in_valid: Signal<In, Bit>,
    /// The unit takes the transaction this cycle (its result is complete).
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
    /// Op sample index per slot.
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

    std: StdPattern,
    mul: MulS<27, 27, 54>,
    h_cent: LaneCentroid,
    cent: LaneCentroid,
    sel: OpSelect,
    slot: OpQuery,
    // Sequencer: phase 0 idle, 1 products, 3 drain, 2 queries.
    ph: DFF<Bits<2>>,
    area: DFF<Bit>,
    half: DFF<Bit>,
    ce: DFF<Bits<2>>,
    cs: DFF<Bits<4>>,
    cl: DFF<Bits<2>>,
    co: DFF<Bits<2>>,
    // Operand formation (combinational).
    v25: Signal<Local, Bits<25>>,
    vx27: [Signal<Local, Bits<27>>; 3],
    vy27: [Signal<Local, Bits<27>>; 3],
    lpos: [Signal<Local, Bits<8>>; 16],
    psel: Signal<Local, Bits<8>>,
    qx27: Signal<Local, Bits<27>>,
    qy27: Signal<Local, Bits<27>>,
    ptx: Signal<Local, Bits<27>>,
    pty: Signal<Local, Bits<27>>,
    ex1: Signal<Local, Bits<27>>,
    ex0: Signal<Local, Bits<27>>,
    ey1: Signal<Local, Bits<27>>,
    ey0: Signal<Local, Bits<27>>,
    a1: Signal<Local, Bits<27>>,
    a0: Signal<Local, Bits<27>>,
    b1: Signal<Local, Bits<27>>,
    b0: Signal<Local, Bits<27>>,
    aop: Signal<Local, Bits<27>>,
    // Stage 1: operands.
    v1: DFF<Bit>,
    a_r: DFF<Bits<27>>,
    b_r: DFF<Bits<27>>,
    m1_area: DFF<Bit>,
    m1_half: DFF<Bit>,
    m1_e: DFF<Bits<2>>,
    m1_s: DFF<Bits<4>>,
    m1_an: DFF<Bit>,
    m1_az: DFF<Bit>,
    // Stage 2: product.
    v2: DFF<Bit>,
    p_r: DFF<Bits<54>>,
    m2_area: DFF<Bit>,
    m2_half: DFF<Bit>,
    m2_e: DFF<Bits<2>>,
    m2_s: DFF<Bits<4>>,
    m2_an: DFF<Bit>,
    m2_az: DFF<Bit>,
    // Stage 3: accumulate and test.
    acc: DFF<Bits<54>>,
    neg: DFF<Bit>,
    nz: DFF<Bit>,
    dxn: DFF<Bit>,
    dxz: DFF<Bit>,
    hit: DFF<Bit>,
    diff: Signal<Local, Bits<54>>,
    ezero: Signal<Local, Bit>,
    epos: Signal<Local, Bit>,
    tl: Signal<Local, Bit>,
    eok: Signal<Local, Bit>,
    hitv: Signal<Local, Bit>,
    sen: Signal<Local, Bit>,
    nmask: Signal<Local, Bits<16>>,
    n32: Signal<Local, Bits<32>>,
    covl: Signal<Local, Bits<16>>,
    // Results (the output registers; filled in order while out_valid is low).
    r_ov: DFF<Bit>,
    r_tag: DFF<Bits<16>>,
    r_cov: DFF<Bits<64>>,
    r_rd: [DFF<Bits<32>>; 16],
    r_pd: DFF<Bits<16>>,
    r_pd_wr: [DFF<Bit>; OPS],
    r_err: [DFF<Bit>; OPS],
    last: Signal<Local, Bit>,
}
}

impl Default for CoverageSerial {
    fn default() -> Self {
        use std::array::from_fn;
        Self {
            settle: crate::common::settle::SettleState::new(true),
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
            std: Default::default(),
            mul: Default::default(),
            h_cent: Default::default(),
            cent: Default::default(),
            sel: Default::default(),
            slot: Default::default(),
            ph: Default::default(),
            area: Default::default(),
            half: Default::default(),
            ce: Default::default(),
            cs: Default::default(),
            cl: Default::default(),
            co: Default::default(),
            v25: Default::default(),
            vx27: Default::default(),
            vy27: Default::default(),
            lpos: Default::default(),
            psel: Default::default(),
            qx27: Default::default(),
            qy27: Default::default(),
            ptx: Default::default(),
            pty: Default::default(),
            ex1: Default::default(),
            ex0: Default::default(),
            ey1: Default::default(),
            ey0: Default::default(),
            a1: Default::default(),
            a0: Default::default(),
            b1: Default::default(),
            b0: Default::default(),
            aop: Default::default(),
            v1: Default::default(),
            a_r: Default::default(),
            b_r: Default::default(),
            m1_area: Default::default(),
            m1_half: Default::default(),
            m1_e: Default::default(),
            m1_s: Default::default(),
            m1_an: Default::default(),
            m1_az: Default::default(),
            v2: Default::default(),
            p_r: Default::default(),
            m2_area: Default::default(),
            m2_half: Default::default(),
            m2_e: Default::default(),
            m2_s: Default::default(),
            m2_an: Default::default(),
            m2_az: Default::default(),
            acc: Default::default(),
            neg: Default::default(),
            nz: Default::default(),
            dxn: Default::default(),
            dxz: Default::default(),
            hit: Default::default(),
            diff: Default::default(),
            ezero: Default::default(),
            epos: Default::default(),
            tl: Default::default(),
            eok: Default::default(),
            hitv: Default::default(),
            sen: Default::default(),
            nmask: Default::default(),
            n32: Default::default(),
            covl: Default::default(),
            r_ov: Default::default(),
            r_tag: Default::default(),
            r_cov: Default::default(),
            r_rd: Default::default(),
            r_pd: Default::default(),
            r_pd_wr: Default::default(),
            r_err: Default::default(),
            last: Default::default(),
        }
    }
}

impl Logic for CoverageSerial {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ph, area, half, ce, cs, cl, co);
        dff_setup!(self, clock, v1, a_r, b_r, m1_area, m1_half, m1_e, m1_s, m1_an, m1_az);
        dff_setup!(self, clock, v2, p_r, m2_area, m2_half, m2_e, m2_s, m2_an, m2_az);
        dff_setup!(self, clock, acc, neg, nz, dxn, dxz, hit, r_ov, r_tag, r_cov, r_pd);
        for i in 0..16 {
            self.r_rd[i].clock.next = self.clock.val();
            self.r_rd[i].d.next = self.r_rd[i].q.val();
        }
        for o in 0..OPS {
            self.r_pd_wr[o].clock.next = self.clock.val();
            self.r_pd_wr[o].d.next = self.r_pd_wr[o].q.val();
            self.r_err[o].clock.next = self.clock.val();
            self.r_err[o].d.next = self.r_err[o].q.val();
        }

        // ---------------- raster mode ----------------
        self.nmask.next = 0.into();
        self.n32.next = 0.into();
        match self.in_log2n.val().index() {
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

        // ---------------- sample positions of lane cl ----------------
        self.std.log2n.next = self.in_log2n.val();
        match self.cl.q.val().index() {
            0 => {
                for s in 0..16 {
                    self.lpos[s].next = self.in_pos[s].val();
                }
            }
            1 => {
                for s in 0..16 {
                    self.lpos[s].next = self.in_pos[16 + s].val();
                }
            }
            2 => {
                for s in 0..16 {
                    self.lpos[s].next = self.in_pos[32 + s].val();
                }
            }
            _ => {
                for s in 0..16 {
                    self.lpos[s].next = self.in_pos[48 + s].val();
                }
            }
        }
        if !self.in_prog.val() {
            for s in 0..16 {
                self.lpos[s].next = self.std.pos[s].val();
            }
        }
        self.psel.next = 0.into();
        for s in 0..16 {
            if self.cs.q.val().index() == s {
                self.psel.next = self.lpos[s].val();
            }
        }

        // ---------------- stage 1: multiplier operands ----------------
        for i in 0..3 {
            self.v25.next = self.in_vx[i].val();
            self.vx27[i].next = bit_cast::<27, 25>(self.v25.val());
            if self.in_vx[i].val().get_bit(24) {
                self.vx27[i].next = self.vx27[i].val() | bits::<27>(0x600_0000);
            }
            self.v25.next = self.in_vy[i].val();
            self.vy27[i].next = bit_cast::<27, 25>(self.v25.val());
            if self.in_vy[i].val().get_bit(24) {
                self.vy27[i].next = self.vy27[i].val() | bits::<27>(0x600_0000);
            }
        }
        // Sample point in 1/256 pixel: 256·(quad + lane offset) + 128 + 16·offset, where
        // 128 + 16·d = 16·(d + 8) and d + 8 (mod 16) is d with its sign bit flipped.
        self.qx27.next = bit_cast::<27, 17>(self.in_quad_x.val());
        if self.in_quad_x.val().get_bit(16) {
            self.qx27.next = self.qx27.val() | bits::<27>(0x7fe_0000);
        }
        self.qy27.next = bit_cast::<27, 17>(self.in_quad_y.val());
        if self.in_quad_y.val().get_bit(16) {
            self.qy27.next = self.qy27.val() | bits::<27>(0x7fe_0000);
        }
        if self.cl.q.val().get_bit(0) {
            self.qx27.next = self.qx27.val() + bits::<27>(1);
        }
        if self.cl.q.val().get_bit(1) {
            self.qy27.next = self.qy27.val() + bits::<27>(1);
        }
        self.ptx.next =
            (self.qx27.val() << 8) | ((bit_cast::<27, 8>(self.psel.val()) & bits::<27>(0xf)) << 4);
        self.ptx.next = self.ptx.val() ^ bits::<27>(0x80);
        self.pty.next =
            (self.qy27.val() << 8) | (bit_cast::<27, 8>(self.psel.val()) & bits::<27>(0xf0));
        self.pty.next = self.pty.val() ^ bits::<27>(0x80);
        // Edge e runs from vertex e to vertex (e + 1) mod 3 (edge 0 for the area).
        self.ex1.next = self.vx27[1].val();
        self.ex0.next = self.vx27[0].val();
        self.ey1.next = self.vy27[1].val();
        self.ey0.next = self.vy27[0].val();
        if !self.area.q.val() & (self.ce.q.val() == 1) {
            self.ex1.next = self.vx27[2].val();
            self.ex0.next = self.vx27[1].val();
            self.ey1.next = self.vy27[2].val();
            self.ey0.next = self.vy27[1].val();
        }
        if !self.area.q.val() & (self.ce.q.val() == 2) {
            self.ex1.next = self.vx27[0].val();
            self.ex0.next = self.vx27[2].val();
            self.ey1.next = self.vy27[0].val();
            self.ey0.next = self.vy27[2].val();
        }
        // Area: dy0·dx2, then dx0·dy2. Edge: dx·(py − vy), then dy·(px − vx).
        if self.area.q.val() ^ self.half.q.val() {
            self.a1.next = self.ey1.val();
            self.a0.next = self.ey0.val();
        } else {
            self.a1.next = self.ex1.val();
            self.a0.next = self.ex0.val();
        }
        if self.area.q.val() {
            if self.half.q.val() {
                self.b1.next = self.vy27[0].val();
                self.b0.next = self.vy27[2].val();
            } else {
                self.b1.next = self.vx27[0].val();
                self.b0.next = self.vx27[2].val();
            }
        } else if self.half.q.val() {
            self.b1.next = self.ptx.val();
            self.b0.next = self.ex0.val();
        } else {
            self.b1.next = self.pty.val();
            self.b0.next = self.ey0.val();
        }
        self.aop.next = self.a1.val() - self.a0.val();
        self.a_r.d.next = self.aop.val();
        self.b_r.d.next = self.b1.val() - self.b0.val();
        self.v1.d.next = self.ph.q.val() == 1;
        self.m1_area.d.next = self.area.q.val();
        self.m1_half.d.next = self.half.q.val();
        self.m1_e.d.next = self.ce.q.val();
        self.m1_s.d.next = self.cs.q.val();
        self.m1_an.d.next = self.aop.val().get_bit(26);
        self.m1_az.d.next = !self.aop.val().any();

        // ---------------- stage 2: product ----------------
        self.mul.a.next = self.a_r.q.val();
        self.mul.b.next = self.b_r.q.val();
        self.p_r.d.next = self.mul.p.val();
        self.v2.d.next = self.v1.q.val();
        self.m2_area.d.next = self.m1_area.q.val();
        self.m2_half.d.next = self.m1_half.q.val();
        self.m2_e.d.next = self.m1_e.q.val();
        self.m2_s.d.next = self.m1_s.q.val();
        self.m2_an.d.next = self.m1_an.q.val();
        self.m2_az.d.next = self.m1_az.q.val();

        // ---------------- stage 3: accumulate, test, collect coverage ----------------
        self.diff.next = self.acc.q.val() - self.p_r.q.val();
        self.ezero.next = !self.diff.val().any();
        // After the winding correction (negate when the area is negative): E > 0, and top-left
        // (dy < 0, or dy = 0 and dx > 0); m2_an/m2_az are dy's sign and zero here, dxn/dxz dx's.
        if self.neg.q.val() {
            self.epos.next = self.diff.val().get_bit(53);
            self.tl.next = (!self.m2_an.q.val() & !self.m2_az.q.val())
                | (self.m2_az.q.val() & self.dxn.q.val());
        } else {
            self.epos.next = !self.diff.val().get_bit(53) & !self.ezero.val();
            self.tl.next =
                self.m2_an.q.val() | (self.m2_az.q.val() & !self.dxn.q.val() & !self.dxz.q.val());
        }
        self.eok.next = self.epos.val() | (self.ezero.val() & self.tl.val());
        self.hitv.next = self.eok.val() & (self.hit.q.val() | (self.m2_e.q.val() == 0));
        self.sen.next = false;
        for s in 0..16 {
            if self.m2_s.q.val().index() == s {
                self.sen.next = self.nmask.val().get_bit(s) & self.in_smask.val().get_bit(s);
            }
        }
        if self.v2.q.val() {
            if !self.m2_half.q.val() {
                self.acc.d.next = self.p_r.q.val();
                self.dxn.d.next = self.m2_an.q.val();
                self.dxz.d.next = self.m2_az.q.val();
            } else if self.m2_area.q.val() {
                self.neg.d.next = self.diff.val().get_bit(53);
                self.nz.d.next = !self.ezero.val();
            } else {
                self.hit.d.next = self.hitv.val();
                if self.m2_e.q.val() == 2 {
                    // Samples arrive in order (lane-major): bit 16·lane + s after 64 shifts.
                    self.r_cov.d.next = self.r_cov.q.val() >> 1;
                    if self.hitv.val() & self.nz.q.val() & self.sen.val() {
                        self.r_cov.d.next =
                            (self.r_cov.q.val() >> 1) | bits::<64>(0x8000_0000_0000_0000_u64);
                    }
                }
            }
        }

        // ---------------- queries: one (lane, op slot) per clock ----------------
        self.covl.next = 0.into();
        match self.cl.q.val().index() {
            0 => self.covl.next = self.r_cov.q.val().get_bits::<16>(0),
            1 => self.covl.next = self.r_cov.q.val().get_bits::<16>(16),
            2 => self.covl.next = self.r_cov.q.val().get_bits::<16>(32),
            _ => self.covl.next = self.r_cov.q.val().get_bits::<16>(48),
        }
        self.cent.covl.next = self.covl.val();
        // Both centroids combinational (no cut L): their clocks and enables are not used.
        self.cent.clock.next = self.clock.val();
        self.cent.en.next = false;
        self.h_cent.clock.next = self.clock.val();
        self.h_cent.en.next = false;
        self.h_cent.covl.next = self.in_smask.val() & self.nmask.val();
        self.h_cent.nmask.next = self.nmask.val();
        self.h_cent.helper.next = 0.into();
        self.cent.nmask.next = self.nmask.val();
        self.cent.helper.next = self.h_cent.code.val();
        for s in 0..16 {
            self.h_cent.pos[s].next = self.lpos[s].val();
            self.cent.pos[s].next = self.lpos[s].val();
            self.sel.pos[s].next = self.lpos[s].val();
        }
        self.slot.covl.next = self.covl.val();
        self.slot.n32.next = self.n32.val();
        self.sel.n32.next = self.n32.val();
        self.slot.offset_ok.next = !self.in_prog.val() & (self.in_log2n.val() < bits::<3>(4));
        self.slot.ssaa.next = self.in_ssaa.val();
        self.slot.ccode.next = self.cent.code.val();
        self.slot.ok.next = self.sel.ok.val();
        self.slot.idx.next = self.sel.idx.val();
        self.slot.sel_code.next = self.sel.code.val();
        match self.cl.q.val().index() {
            0 => self.slot.sid.next = self.in_sid[0].val(),
            1 => self.slot.sid.next = self.in_sid[1].val(),
            2 => self.slot.sid.next = self.in_sid[2].val(),
            _ => self.slot.sid.next = self.in_sid[3].val(),
        }
        match self.co.q.val().index() {
            0 => {
                self.slot.op_mode.next = self.in_op_mode[0].val();
                self.sel.op_index.next = self.in_op_index[0].val();
                self.slot.op_tgsi.next = self.in_op_tgsi[0].val();
            }
            1 => {
                self.slot.op_mode.next = self.in_op_mode[1].val();
                self.sel.op_index.next = self.in_op_index[1].val();
                self.slot.op_tgsi.next = self.in_op_tgsi[1].val();
            }
            2 => {
                self.slot.op_mode.next = self.in_op_mode[2].val();
                self.sel.op_index.next = self.in_op_index[2].val();
                self.slot.op_tgsi.next = self.in_op_tgsi[2].val();
            }
            _ => {
                self.slot.op_mode.next = self.in_op_mode[3].val();
                self.sel.op_index.next = self.in_op_index[3].val();
                self.slot.op_tgsi.next = self.in_op_tgsi[3].val();
            }
        }
        self.last.next = (self.ph.q.val() == 2) & (self.cl.q.val() == 3) & (self.co.q.val() == 3);
        if self.ph.q.val() == 2 {
            // Results arrive in order 4·lane + slot: index i after 16 shifts.
            for i in 0..15 {
                self.r_rd[i].d.next = self.r_rd[i + 1].q.val();
            }
            self.r_rd[15].d.next = self.slot.rd.val();
            self.r_pd.d.next = self.r_pd.q.val() >> 1;
            if self.slot.pd.val() {
                self.r_pd.d.next = (self.r_pd.q.val() >> 1) | bits::<16>(0x8000);
            }
        }

        // ---------------- sequencer ----------------
        if self.out_ready.val() {
            self.r_ov.d.next = false;
        }
        match self.ph.q.val().index() {
            0 => {
                if self.in_valid.val() & (!self.r_ov.q.val() | self.out_ready.val()) {
                    self.ph.d.next = bits::<2>(1);
                    self.area.d.next = true;
                    self.half.d.next = false;
                    self.ce.d.next = 0.into();
                    self.cs.d.next = 0.into();
                    self.cl.d.next = 0.into();
                }
            }
            1 => {
                self.half.d.next = !self.half.q.val();
                if self.half.q.val() {
                    self.area.d.next = false;
                    if !self.area.q.val() {
                        self.ce.d.next = self.ce.q.val() + 1;
                        if self.ce.q.val() == 2 {
                            self.ce.d.next = 0.into();
                            self.cs.d.next = self.cs.q.val() + 1;
                            if self.cs.q.val() == 15 {
                                self.cl.d.next = self.cl.q.val() + 1;
                                if self.cl.q.val() == 3 {
                                    self.ph.d.next = bits::<2>(3);
                                    self.co.d.next = 0.into();
                                }
                            }
                        }
                    }
                }
            }
            3 => {
                // Two clocks for the last products to leave the pipeline.
                self.co.d.next = self.co.q.val() + 1;
                if self.co.q.val() == 1 {
                    self.co.d.next = 0.into();
                    self.ph.d.next = bits::<2>(2);
                }
            }
            _ => {
                self.co.d.next = self.co.q.val() + 1;
                if self.co.q.val() == 3 {
                    self.cl.d.next = self.cl.q.val() + 1;
                }
                if self.last.val() {
                    self.ph.d.next = 0.into();
                    // A source that broke the rule and withdrew its offer gets no result.
                    self.r_ov.d.next = self.in_valid.val();
                    self.r_tag.d.next = self.in_tag.val();
                    for o in 0..OPS {
                        // Pd is written only for COVERED (2) and MY_INDEX (5); 6, 7, 11…15 are rejected.
                        self.r_pd_wr[o].d.next = self.in_op_pd[o].val()
                            & ((self.in_op_mode[o].val() == 2) | (self.in_op_mode[o].val() == 5));
                        self.r_err[o].d.next = (self.in_op_mode[o].val() == 6)
                            | (self.in_op_mode[o].val() == 7)
                            | (self.in_op_mode[o].val() > 10);
                    }
                }
            }
        }
        if self.reset.val() {
            self.ph.d.next = 0.into();
            self.v1.d.next = false;
            self.v2.d.next = false;
            self.r_ov.d.next = false;
        }

        // ---------------- outputs ----------------
        self.in_ready.next = self.last.val();
        self.out_valid.next = self.r_ov.q.val();
        self.out_tag.next = self.r_tag.q.val();
        self.out_covmask[0].next = self.r_cov.q.val().get_bits::<16>(0);
        self.out_covmask[1].next = self.r_cov.q.val().get_bits::<16>(16);
        self.out_covmask[2].next = self.r_cov.q.val().get_bits::<16>(32);
        self.out_covmask[3].next = self.r_cov.q.val().get_bits::<16>(48);
        for i in 0..16 {
            self.out_rd[i].next = self.r_rd[i].q.val();
            self.out_pd[i].next = self.r_pd.q.val().get_bit(i);
        }
        for o in 0..OPS {
            self.out_pd_wr[o].next = self.r_pd_wr[o].q.val();
            self.out_err[o].next = self.r_err[o].q.val();
        }
    }
}
