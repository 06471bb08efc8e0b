//! One lane's floating-point LOD datapath: derivatives → squared axis lengths → log2 (steps 1–3 of
//! the algorithm in docs/units/lod.md §3, stated bit for bit in `texpix_tb::lod`).
//!
//! # Ports
//! Inputs (valid together, sampled on a rising edge with `adv` high): the lane's derivatives
//! `dsdx`, `dsdy`, `dtdx`, `dtdy` (f32), `wf`/`hf` the texture size as f32, `maxabs` (ρ² = max instead of
//! sum), `lfix`/`lnan` (the lane's LOD or shader bias already in λ·2^17, passed along).
//! Outputs (registered): `lx`/`ly` = log2(ρx²)/log2(ρy²) with 16 fraction bits (= λ·2^17), their
//! `*_zero`/`*_inf`/`*_nan` flags (a negative ρ² cannot occur; were it to, it would count as NaN),
//! and `lfix`/`lnan` delayed.
//!
//! # Timing
//! Three register stages, all advancing with `adv` (the unit's global stall): stage 2 holds the
//! four scaled components `m = |d|·size` (four f32 multipliers), stage 3 the squared lengths (four
//! f32 multipliers, two f32 adders or two unsigned compares), stage 4 the logs (two [`FpLog2`]).
//! Latency 3 clocks, initiation interval 1. [`LodLane::new`] adds up to two more: cut A between
//! stage 3's multipliers and adders, cut B on the inputs (after the unit's derivative
//! subtracters, before stage 2's multipliers); latency 3 + depth, the same results.
//!
//! # Rounding
//! Every f32 operation rounds to nearest even with denormals kept ([`crate::common::fp`]); the
//! max-abs option compares the non-negative squares as unsigned bit patterns (a NaN wins).

use crate::common::fp::{FpAdd, FpLog2, FpMul, Retime};
use rust_hdl::prelude::*;

/// The per-lane pipeline. See the module documentation.
#[derive(Clone, Debug, LogicBlock)]
pub struct LodLane {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance (global stall when low).
    pub adv: Signal<In, Bit>,
    /// ∂s/∂x (f32).
    pub dsdx: Signal<In, Bits<32>>,
    /// ∂s/∂y (f32).
    pub dsdy: Signal<In, Bits<32>>,
    /// ∂t/∂x (f32).
    pub dtdx: Signal<In, Bits<32>>,
    /// ∂t/∂y (f32).
    pub dtdy: Signal<In, Bits<32>>,
    /// Width as f32.
    pub wf: Signal<In, Bits<32>>,
    /// Height as f32.
    pub hf: Signal<In, Bits<32>>,
    /// Max-abs ρ approximation.
    pub maxabs: Signal<In, Bit>,
    /// LOD / bias operand, λ·2^17.
    pub lfix: Signal<In, Bits<32>>,
    /// That operand was NaN.
    pub lnan: Signal<In, Bit>,
    /// log2(ρx²)·2^16.
    pub lx: Signal<Out, Bits<32>>,
    /// log2(ρy²)·2^16.
    pub ly: Signal<Out, Bits<32>>,
    /// ρx² = 0.
    pub x_zero: Signal<Out, Bit>,
    /// ρx² = +Inf.
    pub x_inf: Signal<Out, Bit>,
    /// ρx² is NaN.
    pub x_nan: Signal<Out, Bit>,
    /// ρy² = 0.
    pub y_zero: Signal<Out, Bit>,
    /// ρy² = +Inf.
    pub y_inf: Signal<Out, Bit>,
    /// ρy² is NaN.
    pub y_nan: Signal<Out, Bit>,
    /// `lfix`, delayed three stages.
    pub lfix_q: Signal<Out, Bits<32>>,
    /// `lnan`, delayed three stages.
    pub lnan_q: Signal<Out, Bit>,
    // Cut B (depth 2): the lane's inputs, between the unit's derivative subtracters and the
    // scaling multipliers.
    cb_d: [Retime<Bits<32>>; 4],
    cb_wf: Retime<Bits<32>>,
    cb_hf: Retime<Bits<32>>,
    cb_maxabs: Retime<Bit>,
    cb_lfix: Retime<Bits<32>>,
    cb_lnan: Retime<Bit>,
    // Stage 2: m_ux, m_uy, m_vx, m_vy.
    scale: [FpMul; 4],
    r2_m: [Retime<Bits<32>>; 4],
    r2_maxabs: Retime<Bit>,
    r2_lfix: Retime<Bits<32>>,
    r2_lnan: Retime<Bit>,
    // Stage 3: squared lengths.
    square: [FpMul; 4],
    // Cut A (depth ≥ 1): the squares, between the multipliers and the adders.
    ca_sq: [Retime<Bits<32>>; 4],
    ca_maxabs: Retime<Bit>,
    sum_x: FpAdd,
    sum_y: FpAdd,
    rho_x: Signal<Local, Bits<32>>,
    rho_y: Signal<Local, Bits<32>>,
    r3_rx: Retime<Bits<32>>,
    r3_ry: Retime<Bits<32>>,
    r3_lfix: Retime<Bits<32>>,
    r3_lnan: Retime<Bit>,
    // Stage 4: logs.
    log_x: FpLog2,
    log_y: FpLog2,
    r4_lx: Retime<Bits<32>>,
    r4_ly: Retime<Bits<32>>,
    /// x zero, inf, nan; y zero, inf, nan.
    r4_flags: [Retime<Bit>; 6],
    r4_lfix: Retime<Bits<32>>,
    r4_lnan: Retime<Bit>,
    abs: [Signal<Local, Bits<32>>; 4],
}

impl Default for LodLane {
    fn default() -> Self {
        Self::new(0)
    }
}

impl LodLane {
    /// The lane with `depth` (0…2) extra register stages: cut A (depth ≥ 1) registers the squares
    /// in stage 3, cut B (depth 2) the lane's inputs before the stage-2 multipliers. Latency
    /// 3 + `depth`.
    pub fn new(depth: usize) -> Self {
        use std::array::from_fn;
        assert!(depth <= 2, "LOD lane: pipeline depth {depth} (0…2)");
        let a = usize::from(depth >= 1);
        let b = usize::from(depth >= 2);
        Self {
            cb_d: from_fn(|_| Retime::new(b)),
            cb_wf: Retime::new(b),
            cb_hf: Retime::new(b),
            cb_maxabs: Retime::new(b),
            cb_lfix: Retime::new(b),
            cb_lnan: Retime::new(b),
            ca_sq: from_fn(|_| Retime::new(a)),
            ca_maxabs: Retime::new(a),
            clock: Default::default(),
            adv: Default::default(),
            dsdx: Default::default(),
            dsdy: Default::default(),
            dtdx: Default::default(),
            dtdy: Default::default(),
            wf: Default::default(),
            hf: Default::default(),
            maxabs: Default::default(),
            lfix: Default::default(),
            lnan: Default::default(),
            lx: Default::default(),
            ly: Default::default(),
            x_zero: Default::default(),
            x_inf: Default::default(),
            x_nan: Default::default(),
            y_zero: Default::default(),
            y_inf: Default::default(),
            y_nan: Default::default(),
            lfix_q: Default::default(),
            lnan_q: Default::default(),
            scale: Default::default(),
            r2_m: from_fn(|_| Retime::new(1)),
            r2_maxabs: Retime::new(1),
            r2_lfix: Retime::new(1),
            r2_lnan: Retime::new(1),
            square: Default::default(),
            sum_x: Default::default(),
            sum_y: Default::default(),
            rho_x: Default::default(),
            rho_y: Default::default(),
            r3_rx: Retime::new(1),
            r3_ry: Retime::new(1),
            r3_lfix: Retime::new(1 + a),
            r3_lnan: Retime::new(1 + a),
            log_x: Default::default(),
            log_y: Default::default(),
            r4_lx: Retime::new(1),
            r4_ly: Retime::new(1),
            r4_flags: from_fn(|_| Retime::new(1)),
            r4_lfix: Retime::new(1),
            r4_lnan: Retime::new(1),
            abs: Default::default(),
        }
    }
}

impl Logic for LodLane {
    #[hdl_gen]
    fn update(&mut self) {
        // Stage 2: m = |d|·size. Order: 0 = m_ux (dsdx·w), 1 = m_uy (dsdy·w), 2 = m_vx (dtdx·h),
        // 3 = m_vy (dtdy·h).
        for i in 0..4 {
            self.cb_d[i].clock.next = self.clock.val();
            self.cb_d[i].en.next = self.adv.val();
        }
        self.cb_d[0].d.next = self.dsdx.val();
        self.cb_d[1].d.next = self.dsdy.val();
        self.cb_d[2].d.next = self.dtdx.val();
        self.cb_d[3].d.next = self.dtdy.val();
        self.cb_wf.clock.next = self.clock.val();
        self.cb_wf.en.next = self.adv.val();
        self.cb_wf.d.next = self.wf.val();
        self.cb_hf.clock.next = self.clock.val();
        self.cb_hf.en.next = self.adv.val();
        self.cb_hf.d.next = self.hf.val();
        self.cb_maxabs.clock.next = self.clock.val();
        self.cb_maxabs.en.next = self.adv.val();
        self.cb_maxabs.d.next = self.maxabs.val();
        self.cb_lfix.clock.next = self.clock.val();
        self.cb_lfix.en.next = self.adv.val();
        self.cb_lfix.d.next = self.lfix.val();
        self.cb_lnan.clock.next = self.clock.val();
        self.cb_lnan.en.next = self.adv.val();
        self.cb_lnan.d.next = self.lnan.val();
        for i in 0..4 {
            self.abs[i].next = self.cb_d[i].q.val() & bits::<32>(0x7FFF_FFFF);
            self.scale[i].a.next = self.abs[i].val();
            self.r2_m[i].clock.next = self.clock.val();
            self.r2_m[i].en.next = self.adv.val();
            self.r2_m[i].d.next = self.scale[i].y.val();
        }
        self.scale[0].b.next = self.cb_wf.q.val();
        self.scale[1].b.next = self.cb_wf.q.val();
        self.scale[2].b.next = self.cb_hf.q.val();
        self.scale[3].b.next = self.cb_hf.q.val();
        self.r2_maxabs.clock.next = self.clock.val();
        self.r2_maxabs.en.next = self.adv.val();
        self.r2_maxabs.d.next = self.cb_maxabs.q.val();
        self.r2_lfix.clock.next = self.clock.val();
        self.r2_lfix.en.next = self.adv.val();
        self.r2_lfix.d.next = self.cb_lfix.q.val();
        self.r2_lnan.clock.next = self.clock.val();
        self.r2_lnan.en.next = self.adv.val();
        self.r2_lnan.d.next = self.cb_lnan.q.val();

        // Stage 3: ρx² = m_ux² + m_vx², ρy² = m_uy² + m_vy² (or the larger square).
        for i in 0..4 {
            self.square[i].a.next = self.r2_m[i].q.val();
            self.square[i].b.next = self.r2_m[i].q.val();
            self.ca_sq[i].clock.next = self.clock.val();
            self.ca_sq[i].en.next = self.adv.val();
            self.ca_sq[i].d.next = self.square[i].y.val();
        }
        self.ca_maxabs.clock.next = self.clock.val();
        self.ca_maxabs.en.next = self.adv.val();
        self.ca_maxabs.d.next = self.r2_maxabs.q.val();
        self.sum_x.a.next = self.ca_sq[0].q.val();
        self.sum_x.b.next = self.ca_sq[2].q.val();
        self.sum_x.sub.next = false;
        self.sum_y.a.next = self.ca_sq[1].q.val();
        self.sum_y.b.next = self.ca_sq[3].q.val();
        self.sum_y.sub.next = false;
        self.rho_x.next = self.sum_x.y.val();
        self.rho_y.next = self.sum_y.y.val();
        if self.ca_maxabs.q.val() {
            self.rho_x.next = self.ca_sq[0].q.val();
            if self.ca_sq[2].q.val() > self.ca_sq[0].q.val() {
                self.rho_x.next = self.ca_sq[2].q.val();
            }
            self.rho_y.next = self.ca_sq[1].q.val();
            if self.ca_sq[3].q.val() > self.ca_sq[1].q.val() {
                self.rho_y.next = self.ca_sq[3].q.val();
            }
        }
        self.r3_rx.clock.next = self.clock.val();
        self.r3_rx.en.next = self.adv.val();
        self.r3_rx.d.next = self.rho_x.val();
        self.r3_ry.clock.next = self.clock.val();
        self.r3_ry.en.next = self.adv.val();
        self.r3_ry.d.next = self.rho_y.val();
        self.r3_lfix.clock.next = self.clock.val();
        self.r3_lfix.en.next = self.adv.val();
        self.r3_lfix.d.next = self.r2_lfix.q.val();
        self.r3_lnan.clock.next = self.clock.val();
        self.r3_lnan.en.next = self.adv.val();
        self.r3_lnan.d.next = self.r2_lnan.q.val();

        // Stage 4: log2 of both squared lengths.
        self.log_x.a.next = self.r3_rx.q.val();
        self.log_y.a.next = self.r3_ry.q.val();
        self.r4_lx.clock.next = self.clock.val();
        self.r4_lx.en.next = self.adv.val();
        self.r4_lx.d.next = self.log_x.y.val();
        self.r4_ly.clock.next = self.clock.val();
        self.r4_ly.en.next = self.adv.val();
        self.r4_ly.d.next = self.log_y.y.val();
        for i in 0..6 {
            self.r4_flags[i].clock.next = self.clock.val();
            self.r4_flags[i].en.next = self.adv.val();
        }
        self.r4_flags[0].d.next = self.log_x.zero.val();
        self.r4_flags[1].d.next = self.log_x.inf.val();
        self.r4_flags[2].d.next = self.log_x.nan.val() | self.log_x.neg.val();
        self.r4_flags[3].d.next = self.log_y.zero.val();
        self.r4_flags[4].d.next = self.log_y.inf.val();
        self.r4_flags[5].d.next = self.log_y.nan.val() | self.log_y.neg.val();
        self.r4_lfix.clock.next = self.clock.val();
        self.r4_lfix.en.next = self.adv.val();
        self.r4_lfix.d.next = self.r3_lfix.q.val();
        self.r4_lnan.clock.next = self.clock.val();
        self.r4_lnan.en.next = self.adv.val();
        self.r4_lnan.d.next = self.r3_lnan.q.val();

        // Outputs.
        self.lx.next = self.r4_lx.q.val();
        self.ly.next = self.r4_ly.q.val();
        self.x_zero.next = self.r4_flags[0].q.val();
        self.x_inf.next = self.r4_flags[1].q.val();
        self.x_nan.next = self.r4_flags[2].q.val();
        self.y_zero.next = self.r4_flags[3].q.val();
        self.y_inf.next = self.r4_flags[4].q.val();
        self.y_nan.next = self.r4_flags[5].q.val();
        self.lfix_q.next = self.r4_lfix.q.val();
        self.lnan_q.next = self.r4_lnan.q.val();
    }
}
