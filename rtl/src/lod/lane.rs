//! One lane's floating-point LOD datapath: derivatives → squared axis lengths → log2 (steps 1–3 of
//! the algorithm in docs/units/lod.md §3, stated bit for bit in `texpix_tb::lod`).
//!
//! # Ports
//! Inputs (valid together, sampled on a rising edge that advances the lane: `adv_next` high a clock
//! before): the lane's derivatives
//! `dsdx`, `dsdy`, `dtdx`, `dtdy` (f32), `wf`/`hf` the texture size as f32, `maxabs` (ρ² = max instead of
//! sum), `lfix`/`lnan` (the lane's LOD or shader bias already in λ·2^17, passed along).
//! Outputs (registered): `lx`/`ly` = log2(ρx²)/log2(ρy²) with 16 fraction bits (= λ·2^17), their
//! `*_zero`/`*_inf`/`*_nan` flags (a negative ρ² cannot occur; were it to, it would count as NaN),
//! and `lfix`/`lnan` delayed.
//!
//! # Timing
//! Four operations in a row, all advancing together (the unit's stall, `adv_next` registered a
//! clock ahead into fifteen [`EnableCopy`] registers, one per group of registers): an optional
//! input cut (after the unit's derivative subtracters), the scaling `m = |d|·size` (four f32
//! multipliers), the squares and their sums (four multipliers, two adders or two unsigned
//! compares), the logs (two [`FpLog2P`]). [`LaneStages::at`] gives each its register stages for a
//! pipeline depth; the multipliers and adders are [`FpMulP`]/[`FpAddP`], whose registers sit
//! between their seven and six pieces ([`crate::common::fp::pipe::MUL_CUTS`],
//! [`crate::common::fp::pipe::FP_CUTS`]), and the logs [`FpLog2P`] (six
//! pieces, [`crate::common::fp::pipe::LOG2_CUTS`]). Depth 0: one stage each for
//! the scaling, the squares-and-sums and the logs (latency 3); depth 1 adds a cut between the
//! squares and the sums (cut A), depth 2 the input cut (cut B), and depths 3…[`LodLane::MAX_DEPTH`]
//! deepen the scaling, squaring, summing and log cores in turn, up to six stages for each f32
//! core and five for the logs, and add a register between the max-abs select and the logs; the
//! last three depths of those give the multipliers their seventh stage and the logs their sixth (a
//! cut between the leading-zero count and the normalising shift of each); depths 26…29 give the
//! multipliers transport registers in front of and behind their DSP products, depths 30 and
//! 31 give the logs theirs, on the two sides of the interpolation product, and depth 32 one in
//! front of the logs' ROM. The input cut holds
//! a private copy of the size operand per scaling multiplier ([`Retime::kept`]): with one
//! register shared by two multipliers, synthesis merged their operand classification, and the
//! placer left one of them a net across the die behind it (the whole unit's worst path at 90.8 MHz
//! on the ECP5-85F, docs/fpga.md). Latency
//! 3 + depth, initiation interval 1, the same results at every depth. The side signals (`maxabs`,
//! `lfix`, `lnan`) go through delay lines of the matching length.
//!
//! # Rounding
//! Every f32 operation rounds to nearest even with denormals kept ([`crate::common::fp`]); the
//! max-abs option compares the non-negative squares as unsigned bit patterns (a NaN wins).

use crate::common::fp::{FpAddP, FpLog2P, FpMulP, Retime};
use crate::common::EnableCopy;
use rust_hdl::prelude::*;

/// Register stages of each operation of the lane at one pipeline depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneStages {
    /// Input cut (0 or 1).
    pub input: usize,
    /// Scaling multipliers (1…9).
    pub scale: usize,
    /// Squaring multipliers (0…9; 0: the squares and the sums share the sums' stages).
    pub square: usize,
    /// Adders (1…6).
    pub sum: usize,
    /// Logs (1…8).
    pub log: usize,
    /// A register between the max-abs select (after the adders) and the logs (0 or 1).
    pub select: usize,
}

impl LaneStages {
    /// The stages at pipeline depth `depth` (0…[`LodLane::MAX_DEPTH`]): depth 0 is (0, 1, 0, 1, 1, 0);
    /// then one stage more per depth, to the squares (cut A), the input (cut B), and then round
    /// robin to the scaling, squaring, summing and log cores and the select register until the
    /// adders have six stages, the select one, the multipliers seven and the logs six (depth
    /// [`LodLane::CORE_DEPTH`]); the next four depths alternate between the squaring and the
    /// scaling multipliers, whose eighth and ninth stages are transport registers on the two
    /// sides of their DSP products ([`crate::common::fp::pipe::MUL_CUTS`]), the next two
    /// give the logs theirs, on the two sides of the interpolation product, and the last one in
    /// front of the logs' ROM ([`crate::common::fp::pipe::LOG2_CUTS`]).
    pub fn at(depth: usize) -> Self {
        assert!(
            depth <= LodLane::MAX_DEPTH,
            "LOD lane: pipeline depth {depth} (0…{})",
            LodLane::MAX_DEPTH
        );
        let mut s = LaneStages {
            input: 0,
            scale: 1,
            square: 0,
            sum: 1,
            log: 1,
            select: 0,
        };
        let mut turn = 0;
        for k in 0..depth.min(LodLane::CORE_DEPTH) {
            match k {
                0 => s.square += 1,
                1 => s.input += 1,
                _ => loop {
                    let (stage, cap) = match turn % 5 {
                        0 => (&mut s.scale, 7),
                        1 => (&mut s.square, 7),
                        2 => (&mut s.sum, 6),
                        3 => (&mut s.log, 6),
                        _ => (&mut s.select, 1),
                    };
                    turn += 1;
                    if *stage < cap {
                        *stage += 1;
                        break;
                    }
                },
            }
        }
        for k in LodLane::CORE_DEPTH..depth {
            match k - LodLane::CORE_DEPTH {
                0 | 2 => s.square += 1,
                1 | 3 => s.scale += 1,
                _ => s.log += 1,
            }
        }
        s
    }

    /// Lane latency: the sum of the stages.
    pub fn latency(&self) -> usize {
        self.input + self.scale + self.square + self.sum + self.log + self.select
    }
}

/// An operation of `n` stages as (core stages, stages after the core): none is the combinational
/// core alone, one is the combinational core and a register after it (so that its simulation settles in one pass, and
/// a select can sit between them); more stages go inside the core.
fn core_and_after(n: usize) -> (usize, usize) {
    if n == 1 {
        (0, 1)
    } else {
        (n, 0)
    }
}

crate::settled_block! {
/// The per-lane pipeline. See the module documentation.
#[derive(Clone, Debug)]
pub struct LodLane {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance in the next clock (the unit's stall, decided a clock ahead): registered into the
    /// lane's enable copies `e_*`, one per group of registers placed together.
    pub adv_next: Signal<In, Bit>,
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
    /// `lfix`, delayed by the lane's latency.
    pub lfix_q: Signal<Out, Bits<32>>,
    /// `lnan`, delayed by the lane's latency.
    pub lnan_q: Signal<Out, Bit>,
    // Input cut: the lane's inputs, between the unit's derivative subtracters and the scaling.
    /// Enable copies: the input cut and the max-abs delay line; each scaling multiplier; each
    /// squaring multiplier; the x and the y sum, select and log; each half of the `lfix`/`lnan`
    /// delay lines, which span the lane (on the ECP5-85F one copy for the input cut and both
    /// lines had a 9.6 ns route to the far end of `lfix`'s line).
    e_in: EnableCopy,
    e_scale: [EnableCopy; 4],
    e_square: [EnableCopy; 4],
    e_x: EnableCopy,
    e_y: EnableCopy,
    e_side: [EnableCopy; 2],
    cut_d: [Retime<Bits<32>>; 4],
    /// The size operand of each scaling multiplier (w, w, h, h): a private, kept copy per
    /// multiplier, so that synthesis does not merge the two multipliers' operand classification
    /// into one cloud between them.
    cut_size: [Retime<Bits<32>>; 4],
    // Scaling: m_ux, m_uy, m_vx, m_vy.
    abs: [Signal<Local, Bits<32>>; 4],
    scale: [FpMulP; 4],
    scale_q: [Retime<Bits<32>>; 4],
    // Squares, and the registers after them when they take a stage of their own.
    square: [FpMulP; 4],
    square_q: [Retime<Bits<32>>; 4],
    // Sums, and (beside the adders, as deep as their cores) the larger squares for max-abs.
    sum_x: FpAddP,
    sum_y: FpAddP,
    max_x: Retime<Bits<32>>,
    max_y: Retime<Bits<32>>,
    rho_x: Signal<Local, Bits<32>>,
    rho_y: Signal<Local, Bits<32>>,
    rho_x_q: Retime<Bits<32>>,
    rho_y_q: Retime<Bits<32>>,
    // Logs.
    log_x: FpLog2P,
    log_y: FpLog2P,
    log_x_q: Retime<Bits<32>>,
    log_y_q: Retime<Bits<32>>,
    /// x zero, inf, nan; y zero, inf, nan.
    flags_q: [Retime<Bit>; 6],
    // Side signals: max-abs to the select after the adders' cores, the operand to the outputs
    // (in two halves, the first `latency / 2` stages long).
    maxabs_d: Retime<Bit>,
    lfix_d: [Retime<Bits<32>>; 2],
    lnan_d: [Retime<Bit>; 2],
}
}

impl Default for LodLane {
    fn default() -> Self {
        Self::new(0)
    }
}

impl LodLane {
    /// The deepest pipeline depth [`LodLane::new`] builds: [`LodLane::CORE_DEPTH`], the four
    /// transport registers of the multipliers and the three of the logs.
    pub const MAX_DEPTH: usize = LodLane::CORE_DEPTH + 7;

    /// The depth at which every operation has all its pieces cut ([`LaneStages::at`]).
    pub const CORE_DEPTH: usize = 25;

    /// The lane at pipeline depth `depth` (0…[`LodLane::MAX_DEPTH`], stages by
    /// [`LaneStages::at`]): latency 3 + `depth`.
    pub fn new(depth: usize) -> Self {
        use std::array::from_fn;
        let st = LaneStages::at(depth);
        let (scale_core, scale_after) = core_and_after(st.scale);
        let (square_core, square_after) = core_and_after(st.square);
        let (sum_core, sum_after) = core_and_after(st.sum);
        let (log_core, log_after) = core_and_after(st.log);
        let to_select = st.input + st.scale + st.square + sum_core;
        Self {
            settle: crate::common::settle::SettleState::new(true),
            clock: Default::default(),
            adv_next: Default::default(),
            e_in: Default::default(),
            e_scale: Default::default(),
            e_square: Default::default(),
            e_x: Default::default(),
            e_y: Default::default(),
            e_side: Default::default(),
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
            cut_d: from_fn(|_| Retime::new(st.input)),
            cut_size: from_fn(|_| Retime::kept(st.input)),
            abs: Default::default(),
            scale: from_fn(|_| FpMulP::new(scale_core)),
            scale_q: from_fn(|_| Retime::new(scale_after)),
            square: from_fn(|_| FpMulP::new(square_core)),
            square_q: from_fn(|_| Retime::new(square_after)),
            sum_x: FpAddP::new(sum_core),
            sum_y: FpAddP::new(sum_core),
            max_x: Retime::new(sum_core),
            max_y: Retime::new(sum_core),
            rho_x: Default::default(),
            rho_y: Default::default(),
            rho_x_q: Retime::new(sum_after + st.select),
            rho_y_q: Retime::new(sum_after + st.select),
            log_x: FpLog2P::new(log_core),
            log_y: FpLog2P::new(log_core),
            log_x_q: Retime::new(log_after),
            log_y_q: Retime::new(log_after),
            flags_q: from_fn(|_| Retime::new(log_after)),
            maxabs_d: Retime::new(to_select),
            lfix_d: [
                Retime::new(st.latency() / 2),
                Retime::new(st.latency() - st.latency() / 2),
            ],
            lnan_d: [
                Retime::new(st.latency() / 2),
                Retime::new(st.latency() - st.latency() / 2),
            ],
        }
    }
}

impl Logic for LodLane {
    #[hdl_gen]
    fn update(&mut self) {
        self.e_in.clock.next = self.clock.val();
        self.e_in.d.next = self.adv_next.val();
        self.e_x.clock.next = self.clock.val();
        self.e_x.d.next = self.adv_next.val();
        self.e_y.clock.next = self.clock.val();
        self.e_y.d.next = self.adv_next.val();
        for i in 0..4 {
            self.e_scale[i].clock.next = self.clock.val();
            self.e_scale[i].d.next = self.adv_next.val();
            self.e_square[i].clock.next = self.clock.val();
            self.e_square[i].d.next = self.adv_next.val();
        }

        // Input cut.
        for i in 0..4 {
            self.cut_d[i].clock.next = self.clock.val();
            self.cut_d[i].en.next = self.e_in.q.val();
        }
        self.cut_d[0].d.next = self.dsdx.val();
        self.cut_d[1].d.next = self.dsdy.val();
        self.cut_d[2].d.next = self.dtdx.val();
        self.cut_d[3].d.next = self.dtdy.val();
        for i in 0..4 {
            self.cut_size[i].clock.next = self.clock.val();
            self.cut_size[i].en.next = self.e_scale[i].q.val();
        }
        self.cut_size[0].d.next = self.wf.val();
        self.cut_size[1].d.next = self.wf.val();
        self.cut_size[2].d.next = self.hf.val();
        self.cut_size[3].d.next = self.hf.val();

        // Scaling: m = |d|·size. Order: 0 = m_ux (dsdx·w), 1 = m_uy (dsdy·w), 2 = m_vx (dtdx·h),
        // 3 = m_vy (dtdy·h).
        for i in 0..4 {
            self.abs[i].next = self.cut_d[i].q.val() & bits::<32>(0x7FFF_FFFF);
            self.scale[i].clock.next = self.clock.val();
            self.scale[i].en.next = self.e_scale[i].q.val();
            self.scale[i].a.next = self.abs[i].val();
            self.scale[i].b.next = self.cut_size[i].q.val();
            self.scale_q[i].clock.next = self.clock.val();
            self.scale_q[i].en.next = self.e_scale[i].q.val();
            self.scale_q[i].d.next = self.scale[i].y.val();
        }

        // Squares.
        for i in 0..4 {
            self.square[i].clock.next = self.clock.val();
            self.square[i].en.next = self.e_square[i].q.val();
            self.square[i].a.next = self.scale_q[i].q.val();
            self.square[i].b.next = self.scale_q[i].q.val();
            self.square_q[i].clock.next = self.clock.val();
            self.square_q[i].en.next = self.e_square[i].q.val();
            self.square_q[i].d.next = self.square[i].y.val();
        }

        // ρx² = m_ux² + m_vx², ρy² = m_uy² + m_vy², or the larger square.
        self.sum_x.clock.next = self.clock.val();
        self.sum_x.en.next = self.e_x.q.val();
        self.sum_x.a.next = self.square_q[0].q.val();
        self.sum_x.b.next = self.square_q[2].q.val();
        self.sum_x.sub.next = false;
        self.sum_y.clock.next = self.clock.val();
        self.sum_y.en.next = self.e_y.q.val();
        self.sum_y.a.next = self.square_q[1].q.val();
        self.sum_y.b.next = self.square_q[3].q.val();
        self.sum_y.sub.next = false;
        self.max_x.clock.next = self.clock.val();
        self.max_x.en.next = self.e_x.q.val();
        self.max_x.d.next = self.square_q[0].q.val();
        if self.square_q[2].q.val() > self.square_q[0].q.val() {
            self.max_x.d.next = self.square_q[2].q.val();
        }
        self.max_y.clock.next = self.clock.val();
        self.max_y.en.next = self.e_y.q.val();
        self.max_y.d.next = self.square_q[1].q.val();
        if self.square_q[3].q.val() > self.square_q[1].q.val() {
            self.max_y.d.next = self.square_q[3].q.val();
        }
        self.maxabs_d.clock.next = self.clock.val();
        self.maxabs_d.en.next = self.e_in.q.val();
        self.maxabs_d.d.next = self.maxabs.val();
        self.rho_x.next = self.sum_x.y.val();
        self.rho_y.next = self.sum_y.y.val();
        if self.maxabs_d.q.val() {
            self.rho_x.next = self.max_x.q.val();
            self.rho_y.next = self.max_y.q.val();
        }
        self.rho_x_q.clock.next = self.clock.val();
        self.rho_x_q.en.next = self.e_x.q.val();
        self.rho_x_q.d.next = self.rho_x.val();
        self.rho_y_q.clock.next = self.clock.val();
        self.rho_y_q.en.next = self.e_y.q.val();
        self.rho_y_q.d.next = self.rho_y.val();

        // Logs.
        self.log_x.clock.next = self.clock.val();
        self.log_x.en.next = self.e_x.q.val();
        self.log_x.a.next = self.rho_x_q.q.val();
        self.log_y.clock.next = self.clock.val();
        self.log_y.en.next = self.e_y.q.val();
        self.log_y.a.next = self.rho_y_q.q.val();
        self.log_x_q.clock.next = self.clock.val();
        self.log_x_q.en.next = self.e_x.q.val();
        self.log_x_q.d.next = self.log_x.y.val();
        self.log_y_q.clock.next = self.clock.val();
        self.log_y_q.en.next = self.e_y.q.val();
        self.log_y_q.d.next = self.log_y.y.val();
        for i in 0..3 {
            self.flags_q[i].clock.next = self.clock.val();
            self.flags_q[i].en.next = self.e_x.q.val();
            self.flags_q[3 + i].clock.next = self.clock.val();
            self.flags_q[3 + i].en.next = self.e_y.q.val();
        }
        self.flags_q[0].d.next = self.log_x.zero.val();
        self.flags_q[1].d.next = self.log_x.inf.val();
        self.flags_q[2].d.next = self.log_x.nan.val() | self.log_x.neg.val();
        self.flags_q[3].d.next = self.log_y.zero.val();
        self.flags_q[4].d.next = self.log_y.inf.val();
        self.flags_q[5].d.next = self.log_y.nan.val() | self.log_y.neg.val();
        for h in 0..2 {
            self.e_side[h].clock.next = self.clock.val();
            self.e_side[h].d.next = self.adv_next.val();
            self.lfix_d[h].clock.next = self.clock.val();
            self.lfix_d[h].en.next = self.e_side[h].q.val();
            self.lnan_d[h].clock.next = self.clock.val();
            self.lnan_d[h].en.next = self.e_side[h].q.val();
        }
        self.lfix_d[0].d.next = self.lfix.val();
        self.lnan_d[0].d.next = self.lnan.val();
        self.lfix_d[1].d.next = self.lfix_d[0].q.val();
        self.lnan_d[1].d.next = self.lnan_d[0].q.val();

        // Outputs.
        self.lx.next = self.log_x_q.q.val();
        self.ly.next = self.log_y_q.q.val();
        self.x_zero.next = self.flags_q[0].q.val();
        self.x_inf.next = self.flags_q[1].q.val();
        self.x_nan.next = self.flags_q[2].q.val();
        self.y_zero.next = self.flags_q[3].q.val();
        self.y_inf.next = self.flags_q[4].q.val();
        self.y_nan.next = self.flags_q[5].q.val();
        self.lfix_q.next = self.lfix_d[1].q.val();
        self.lnan_q.next = self.lnan_d[1].q.val();
    }
}
