//! The derivative/LOD calculator (docs/units/lod.md): one 2×2 quad per clock.
//!
//! # Ports
//! Input stream (`in_valid`/`in_ready`, transfer on a rising edge with both high): `in_tag`
//! (returned unchanged), `in_width`/`in_height` (1…32768), `in_levels` (1…16), `in_base` (0…15),
//! `in_sbias` (sampler bias·256, 16-bit two's complement, ±4096), `in_min_lod`, `in_max_lod`,
//! `in_lod_clamp` (.LC), `in_warn` (min_lod_warning) — all ·256, 12 bits used —, `in_mip`
//! (0 none, 1 nearest, 2 linear), `in_aniso` (1…16), `in_mode` (0 implicit, 1 grad, 2 lod, 3 bias,
//! 4 lz), `in_fine` (fine derivatives), `in_maxabs` (max-abs ρ), and sixteen f32 operands
//! `in_op[4·lane + k]`: implicit/bias (s, t, bias, –), grad (dsdx, dsdy, dtdx, dtdy), lod (lod, –, –, –).
//! Output stream (`out_valid`/`out_ready`): `out_tag`, and per lane `out_lambda` (λ·256),
//! `out_unclamped` (λ'·256 before the min/max clamps, 24-bit two's complement, `UNCLAMPED_NAN`
//! for a NaN lane),
//! `out_level0`, `out_level1`, `out_frac`, `out_magnify`, `out_lod_warning`, `out_probes`,
//! `out_major_y` (the probes' axis: 1 = y),
//! `out_status`.
//!
//! # Timing
//! Five register stages at depth 0: inputs (1); |d|·size (2), squared lengths (3) and logs (4) in
//! each [`LodLane`]; the fixed-point back end [`LodFinish`] feeds the output registers (5).
//! Latency 5 clocks from the accepting edge to the output transfer, initiation interval 1.
//! Pipeline depth 1…[`LodUnit::MAX_DEPTH`] ([`LodUnit::new`]) adds register stages: up to
//! [`LodLane::MAX_DEPTH`] inside the lanes ([`crate::lod::lane::LaneStages`]: a cut between the
//! squares and their sums, one between the derivative subtracters and the scaling multipliers,
//! then the lanes' f32 adders up to six stages, multipliers up to seven and logs up to six), the
//! next ones between the pieces of [`LodFinish`] (up to [`LodFinish::CUTS`]), the next ones
//! (up to [`LodUnit::FRONT_STAGES`], depth 35) in stage 1's derivative subtracters ([`FpAddP`])
//! and operand converters ([`FpToFixedP`]), with the sizes, explicit derivatives and mode bits in
//! delay lines beside them, and the last seven (depths 36…42) are transport registers in front of
//! and behind the lanes' multipliers, then the logs' interpolation products, and last in front
//! of the logs' ROM (for a large die, where a DSP slice can be far from the logic that feeds it,
//! and a wide fan-out far from its source): latency 5 + depth, II = 1, the
//! same results. Back-pressure stalls
//! every stage together, decided a clock ahead: behind the output registers sits a skid register
//! of one result, which takes the output registers' result when the output refuses it while the
//! pipeline advances; the pipeline advances in exactly the clocks in which the skid register is
//! empty, so `in_ready` and every stage's enable are registers (one copy per group of registers,
//! [`EnableCopy`], instead of one net from `out_ready` to every flip-flop) and `out_valid` is
//! `skid valid || stage-5 valid`, the skid's result first. A refused result therefore costs one
//! clock of input (`in_ready` low for a clock after the output first refuses); with `out_ready`
//! high the unit takes a quad every clock. `reset` (synchronous, active high) empties the
//! pipeline and the skid register.
//!
//! # Arithmetic
//! Stage 1's outputs feed eight f32 subtracters (the quad's coarse and fine differences of s and t;
//! each lane selects its derivatives), two exact u16→f32 conversions of the size, and per lane an
//! f32 → λ·2^17 conversion (round to nearest even, saturating) of the LOD or shader-bias operand.
//! Everything after the logs is 32-bit fixed point (see [`LodFinish`]).

use super::{LodFinish, LodLane};
use crate::common::fp::{FpAddP, FpToFixedP, Retime, ValidRetime};
use crate::common::{EnableCopy, SkidControl, U16ToF32};
use rust_hdl::prelude::*;

crate::settled_block! {
/// The LOD unit. See the module documentation.
#[derive(Clone, Debug)]
pub struct LodUnit {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// Input valid.
    pub in_valid: Signal<In, Bit>,
    /// The unit accepts a quad this cycle.
    pub in_ready: Signal<Out, Bit>,
    /// Transaction id.
    pub in_tag: Signal<In, Bits<16>>,
    /// Base width.
    pub in_width: Signal<In, Bits<16>>,
    /// Base height.
    pub in_height: Signal<In, Bits<16>>,
    /// Level count.
    pub in_levels: Signal<In, Bits<5>>,
    /// Base level.
    pub in_base: Signal<In, Bits<4>>,
    /// Sampler bias·256.
    pub in_sbias: Signal<In, Bits<16>>,
    /// Sampler min_lod·256.
    pub in_min_lod: Signal<In, Bits<12>>,
    /// Sampler max_lod·256.
    pub in_max_lod: Signal<In, Bits<12>>,
    /// Instruction .LC clamp·256.
    pub in_lod_clamp: Signal<In, Bits<12>>,
    /// min_lod_warning·256.
    pub in_warn: Signal<In, Bits<12>>,
    /// Mip filter.
    pub in_mip: Signal<In, Bits<2>>,
    /// Max anisotropy.
    pub in_aniso: Signal<In, Bits<5>>,
    /// LOD mode.
    pub in_mode: Signal<In, Bits<3>>,
    /// Fine derivatives.
    pub in_fine: Signal<In, Bit>,
    /// Max-abs ρ.
    pub in_maxabs: Signal<In, Bit>,
    /// Operands, `4·lane + k`.
    pub in_op: [Signal<In, Bits<32>>; 16],
    /// Output valid.
    pub out_valid: Signal<Out, Bit>,
    /// Downstream accepts.
    pub out_ready: Signal<In, Bit>,
    /// Transaction id.
    pub out_tag: Signal<Out, Bits<16>>,
    /// λ·256 per lane.
    pub out_lambda: [Signal<Out, Bits<16>>; 4],
    /// λ'·256 before the clamps per lane (24-bit two's complement; `UNCLAMPED_NAN` for NaN).
    pub out_unclamped: [Signal<Out, Bits<24>>; 4],
    /// First level per lane.
    pub out_level0: [Signal<Out, Bits<5>>; 4],
    /// Second level per lane.
    pub out_level1: [Signal<Out, Bits<5>>; 4],
    /// Mip fraction per lane.
    pub out_frac: [Signal<Out, Bits<8>>; 4],
    /// Magnification per lane.
    pub out_magnify: [Signal<Out, Bit>; 4],
    /// LOD warning per lane.
    pub out_lod_warning: [Signal<Out, Bit>; 4],
    /// Anisotropic probes per lane.
    pub out_probes: [Signal<Out, Bits<5>>; 4],
    /// Major axis per lane: 1 = y.
    pub out_major_y: [Signal<Out, Bit>; 4],
    /// TFE status word per lane.
    pub out_status: [Signal<Out, Bits<32>>; 4],

    /// The stall, decided a clock ahead, and the skid register's valid bit.
    skid: SkidControl,
    /// Registered copies of the advance, one per group of registers placed together: the input
    /// registers, valid bits and configuration delay lines; each operand; each derivative
    /// subtracter; each lane's LOD converter; each lane's back end and output registers.
    e_front: EnableCopy,
    e_op: [EnableCopy; 16],
    e_diff: [EnableCopy; 8],
    e_fix: [EnableCopy; 4],
    e_fin: [EnableCopy; 4],
    // The skid register: the output registers' result, taken when `skid.load`.
    s_tag: Retime<Bits<16>>,
    s_lambda: [Retime<Bits<16>>; 4],
    s_unclamped: [Retime<Bits<24>>; 4],
    s_level0: [Retime<Bits<5>>; 4],
    s_level1: [Retime<Bits<5>>; 4],
    s_frac: [Retime<Bits<8>>; 4],
    s_magnify: [Retime<Bit>; 4],
    s_warn: [Retime<Bit>; 4],
    s_probes: [Retime<Bits<5>>; 4],
    s_major: [Retime<Bit>; 4],
    s_status: [Retime<Bits<32>>; 4],
    // Valid bits (reset).
    v1: DFF<Bit>,
    v2: DFF<Bit>,
    v3: DFF<Bit>,
    /// The valid bits of the lanes' extra stages (pipeline depth).
    vcut: ValidRetime,
    v4: DFF<Bit>,
    v5: DFF<Bit>,
    // Stage 1.
    r1_tag: Retime<Bits<16>>,
    r1_width: Retime<Bits<16>>,
    r1_height: Retime<Bits<16>>,
    /// {base[18:15], mip[14:13], levels[12:8], aniso[7:3], mode[2:0]}.
    r1_cfg: Retime<Bits<19>>,
    /// {hi[31:16], lo[15:0]} with lo = max(min_lod, .LC).
    r1_clamp: Retime<Bits<32>>,
    /// {warn[31:16], sbias[15:0]}.
    r1_bias: Retime<Bits<32>>,
    r1_fine: Retime<Bit>,
    r1_maxabs: Retime<Bit>,
    r1_op: [Retime<Bits<32>>; 16],
    /// Lane `l`'s converter operand, selected by the mode in front of the input register (the
    /// explicit LOD `op[4l]` in mode 2, else the shader bias `op[4l + 2]`), so that no mode
    /// decode lies between a register and the converter.
    r1_lop: [Retime<Bits<32>>; 4],
    lo_in: Signal<Local, Bits<12>>,
    // Stage 1 combinational: derivatives, sizes, operand conversion.
    /// s: x row 0, x row 1, y column 0, y column 1; then the same for t.
    diff: [FpAddP; 8],
    wconv: U16ToF32,
    hconv: U16ToF32,
    fix: [FpToFixedP<17>; 4],
    implicit: Signal<Local, Bit>,
    // Beside the subtracters' and converters' front stages: the sizes, the explicit derivatives,
    // {fine, implicit} and max-abs.
    wf_q: Retime<Bits<32>>,
    hf_q: Retime<Bits<32>>,
    op_q: [Retime<Bits<32>>; 16],
    sel_q: Retime<Bits<2>>,
    maxabs_q: Retime<Bit>,
    lane: [LodLane; 4],
    // Configuration delayed to stage 4.
    c4_tag: Retime<Bits<16>>,
    c4_cfg: Retime<Bits<19>>,
    c4_clamp: Retime<Bits<32>>,
    c4_bias: Retime<Bits<32>>,
    fin: [LodFinish; 4],
    // Stage 5: outputs.
    r5_tag: Retime<Bits<16>>,
    r5_lambda: [Retime<Bits<16>>; 4],
    r5_unclamped: [Retime<Bits<24>>; 4],
    r5_level0: [Retime<Bits<5>>; 4],
    r5_level1: [Retime<Bits<5>>; 4],
    r5_frac: [Retime<Bits<8>>; 4],
    r5_magnify: [Retime<Bit>; 4],
    r5_warn: [Retime<Bit>; 4],
    r5_probes: [Retime<Bits<5>>; 4],
    r5_major: [Retime<Bit>; 4],
    r5_status: [Retime<Bits<32>>; 4],
}
}

impl Default for LodUnit {
    fn default() -> Self {
        Self::new(0)
    }
}

impl LodUnit {
    /// The pipeline depths the test bench builds and checks (every depth 0…[`LodUnit::MAX_DEPTH`]
    /// is accepted by [`LodUnit::new`]): the two single cuts and the deepest build.
    pub const DEPTHS: [usize; 4] = [0, 1, 2, LodUnit::MAX_DEPTH];

    /// The deepest pipeline: the lanes at [`LodLane::MAX_DEPTH`] (with the multipliers' transport
    /// registers), a register between every two of the back end's pieces ([`LodFinish::CUTS`]) and
    /// the front stages.
    pub const MAX_DEPTH: usize = LodLane::MAX_DEPTH + LodFinish::CUTS + LodUnit::FRONT_STAGES;

    /// Front stages at the deepest build: a register between every two of the derivative
    /// subtracters' six pieces and after the last ([`FpAddP`] at six stages), beside the operand
    /// converters ([`FpToFixedP`]: two cuts, then registers after them).
    pub const FRONT_STAGES: usize = 6;

    /// Latency in clocks at pipeline depth `depth`.
    pub fn latency(depth: usize) -> usize {
        5 + depth
    }

    /// The unit with `depth` (0…[`LodUnit::MAX_DEPTH`]) extra register stages: the first
    /// [`LodLane::CORE_DEPTH`] inside its lanes ([`LodLane::new`]), the next [`LodFinish::CUTS`]
    /// inside the back ends ([`LodFinish::new`]), the next [`LodUnit::FRONT_STAGES`] in front of
    /// the lanes, and the last seven (36…42) back in the lanes: the multipliers' and then the
    /// logs' transport registers.
    pub fn new(depth: usize) -> Self {
        use std::array::from_fn;
        assert!(
            depth <= LodUnit::MAX_DEPTH,
            "LOD: pipeline depth {depth} (0…{})",
            LodUnit::MAX_DEPTH
        );
        let core = depth.min(LodLane::CORE_DEPTH);
        let fin_stages = (depth - core).min(LodFinish::CUTS);
        let front = (depth - core - fin_stages).min(LodUnit::FRONT_STAGES);
        let lane_depth = depth - fin_stages - front;
        Self {
            settle: crate::common::settle::SettleState::new(true),
            skid: Default::default(),
            vcut: ValidRetime::new(depth),
            lane: from_fn(|_| LodLane::new(lane_depth)),
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_tag: Default::default(),
            in_width: Default::default(),
            in_height: Default::default(),
            in_levels: Default::default(),
            in_base: Default::default(),
            in_sbias: Default::default(),
            in_min_lod: Default::default(),
            in_max_lod: Default::default(),
            in_lod_clamp: Default::default(),
            in_warn: Default::default(),
            in_mip: Default::default(),
            in_aniso: Default::default(),
            in_mode: Default::default(),
            in_fine: Default::default(),
            in_maxabs: Default::default(),
            in_op: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_tag: Default::default(),
            out_lambda: Default::default(),
            out_unclamped: Default::default(),
            out_level0: Default::default(),
            out_level1: Default::default(),
            out_frac: Default::default(),
            out_magnify: Default::default(),
            out_lod_warning: Default::default(),
            out_probes: Default::default(),
            out_major_y: Default::default(),
            out_status: Default::default(),
            e_front: Default::default(),
            e_op: Default::default(),
            e_diff: Default::default(),
            e_fix: Default::default(),
            e_fin: Default::default(),
            s_tag: Retime::new(1),
            s_lambda: from_fn(|_| Retime::new(1)),
            s_unclamped: from_fn(|_| Retime::new(1)),
            s_level0: from_fn(|_| Retime::new(1)),
            s_level1: from_fn(|_| Retime::new(1)),
            s_frac: from_fn(|_| Retime::new(1)),
            s_magnify: from_fn(|_| Retime::new(1)),
            s_warn: from_fn(|_| Retime::new(1)),
            s_probes: from_fn(|_| Retime::new(1)),
            s_major: from_fn(|_| Retime::new(1)),
            s_status: from_fn(|_| Retime::new(1)),
            v1: Default::default(),
            v2: Default::default(),
            v3: Default::default(),
            v4: Default::default(),
            v5: Default::default(),
            r1_tag: Retime::new(1),
            r1_width: Retime::new(1),
            r1_height: Retime::new(1),
            r1_cfg: Retime::new(1),
            r1_clamp: Retime::new(1),
            r1_bias: Retime::new(1),
            r1_fine: Retime::new(1),
            r1_maxabs: Retime::new(1),
            r1_op: from_fn(|_| Retime::new(1)),
            r1_lop: from_fn(|_| Retime::new(1)),
            lo_in: Default::default(),
            diff: from_fn(|_| FpAddP::new(front)),
            wconv: Default::default(),
            hconv: Default::default(),
            fix: from_fn(|_| FpToFixedP::new(front)),
            implicit: Default::default(),
            wf_q: Retime::new(front),
            hf_q: Retime::new(front),
            op_q: from_fn(|_| Retime::new(front)),
            sel_q: Retime::new(front),
            maxabs_q: Retime::new(front),
            c4_tag: Retime::new(3 + depth),
            c4_cfg: Retime::new(3 + front + lane_depth),
            c4_clamp: Retime::new(3 + front + lane_depth),
            c4_bias: Retime::new(3 + front + lane_depth),
            fin: from_fn(|_| LodFinish::new(fin_stages)),
            r5_tag: Retime::new(1),
            r5_lambda: from_fn(|_| Retime::new(1)),
            r5_unclamped: from_fn(|_| Retime::new(1)),
            r5_level0: from_fn(|_| Retime::new(1)),
            r5_level1: from_fn(|_| Retime::new(1)),
            r5_frac: from_fn(|_| Retime::new(1)),
            r5_magnify: from_fn(|_| Retime::new(1)),
            r5_warn: from_fn(|_| Retime::new(1)),
            r5_probes: from_fn(|_| Retime::new(1)),
            r5_major: from_fn(|_| Retime::new(1)),
            r5_status: from_fn(|_| Retime::new(1)),
        }
    }
}

impl Logic for LodUnit {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, v1, v2, v3, v4, v5);

        // ---------------- advance, decided a clock ahead ----------------
        // The pipeline advances in a clock exactly when the skid register is empty then, so the
        // advance is a register (copied per group, `e_*`), not a function of `out_ready`. A result
        // that the output refuses while the pipeline advances moves into the skid register, which
        // then stalls the pipeline until the output takes it.
        self.skid.clock.next = self.clock.val();
        self.skid.reset.next = self.reset.val();
        self.skid.full.next = self.v5.q.val();
        self.skid.out_ready.next = self.out_ready.val();
        self.e_front.clock.next = self.clock.val();
        self.e_front.d.next = self.skid.adv_next.val();
        for i in 0..16 {
            self.e_op[i].clock.next = self.clock.val();
            self.e_op[i].d.next = self.skid.adv_next.val();
        }
        for i in 0..8 {
            self.e_diff[i].clock.next = self.clock.val();
            self.e_diff[i].d.next = self.skid.adv_next.val();
        }
        for l in 0..4 {
            self.e_fix[l].clock.next = self.clock.val();
            self.e_fix[l].d.next = self.skid.adv_next.val();
            self.e_fin[l].clock.next = self.clock.val();
            self.e_fin[l].d.next = self.skid.adv_next.val();
        }
        self.in_ready.next = self.e_front.q.val();

        // ---------------- valid bits ----------------
        self.vcut.clock.next = self.clock.val();
        self.vcut.reset.next = self.reset.val();
        self.vcut.en.next = self.e_front.q.val();
        self.vcut.d.next = self.v3.q.val();
        if self.e_front.q.val() {
            self.v1.d.next = self.in_valid.val();
            self.v2.d.next = self.v1.q.val();
            self.v3.d.next = self.v2.q.val();
            self.v4.d.next = self.vcut.q.val();
            self.v5.d.next = self.v4.q.val();
        }
        if self.reset.val() {
            self.v1.d.next = false;
            self.v2.d.next = false;
            self.v3.d.next = false;
            self.v4.d.next = false;
            self.v5.d.next = false;
        }

        // ---------------- stage 1: input registers ----------------
        self.r1_tag.clock.next = self.clock.val();
        self.r1_tag.en.next = self.e_front.q.val();
        self.r1_tag.d.next = self.in_tag.val();
        self.r1_width.clock.next = self.clock.val();
        self.r1_width.en.next = self.e_front.q.val();
        self.r1_width.d.next = self.in_width.val();
        self.r1_height.clock.next = self.clock.val();
        self.r1_height.en.next = self.e_front.q.val();
        self.r1_height.d.next = self.in_height.val();
        self.r1_cfg.clock.next = self.clock.val();
        self.r1_cfg.en.next = self.e_front.q.val();
        self.r1_cfg.d.next = bit_cast::<19, 3>(self.in_mode.val())
            | (bit_cast::<19, 5>(self.in_aniso.val()) << 3)
            | (bit_cast::<19, 5>(self.in_levels.val()) << 8)
            | (bit_cast::<19, 2>(self.in_mip.val()) << 13)
            | (bit_cast::<19, 4>(self.in_base.val()) << 15);
        self.lo_in.next = self.in_min_lod.val();
        if self.in_lod_clamp.val() > self.in_min_lod.val() {
            self.lo_in.next = self.in_lod_clamp.val();
        }
        self.r1_clamp.clock.next = self.clock.val();
        self.r1_clamp.en.next = self.e_front.q.val();
        self.r1_clamp.d.next = bit_cast::<32, 12>(self.lo_in.val())
            | (bit_cast::<32, 12>(self.in_max_lod.val()) << 16);
        self.r1_bias.clock.next = self.clock.val();
        self.r1_bias.en.next = self.e_front.q.val();
        self.r1_bias.d.next = bit_cast::<32, 16>(self.in_sbias.val())
            | (bit_cast::<32, 12>(self.in_warn.val()) << 16);
        self.r1_fine.clock.next = self.clock.val();
        self.r1_fine.en.next = self.e_front.q.val();
        self.r1_fine.d.next = self.in_fine.val();
        self.r1_maxabs.clock.next = self.clock.val();
        self.r1_maxabs.en.next = self.e_front.q.val();
        self.r1_maxabs.d.next = self.in_maxabs.val();
        for i in 0..16 {
            self.r1_op[i].clock.next = self.clock.val();
            self.r1_op[i].en.next = self.e_op[i].q.val();
            self.r1_op[i].d.next = self.in_op[i].val();
        }
        for l in 0..4 {
            self.r1_lop[l].clock.next = self.clock.val();
            self.r1_lop[l].en.next = self.e_fix[l].q.val();
            if self.in_mode.val() == bits::<3>(2) {
                self.r1_lop[l].d.next = self.in_op[4 * l].val();
            } else {
                self.r1_lop[l].d.next = self.in_op[4 * l + 2].val();
            }
        }

        // ---------------- stage 1 → lanes: derivatives and operands ----------------
        // s of lane l is op[4l], t is op[4l + 1].
        for c in 0..2 {
            self.diff[4 * c].a.next = self.r1_op[4 + c].q.val();
            self.diff[4 * c].b.next = self.r1_op[c].q.val();
            self.diff[4 * c + 1].a.next = self.r1_op[12 + c].q.val();
            self.diff[4 * c + 1].b.next = self.r1_op[8 + c].q.val();
            self.diff[4 * c + 2].a.next = self.r1_op[8 + c].q.val();
            self.diff[4 * c + 2].b.next = self.r1_op[c].q.val();
            self.diff[4 * c + 3].a.next = self.r1_op[12 + c].q.val();
            self.diff[4 * c + 3].b.next = self.r1_op[4 + c].q.val();
        }
        for i in 0..8 {
            self.diff[i].clock.next = self.clock.val();
            self.diff[i].en.next = self.e_diff[i].q.val();
            self.diff[i].sub.next = true;
        }
        self.wconv.a.next = self.r1_width.q.val();
        self.hconv.a.next = self.r1_height.q.val();
        self.wf_q.clock.next = self.clock.val();
        self.wf_q.en.next = self.e_front.q.val();
        self.wf_q.d.next = self.wconv.y.val();
        self.hf_q.clock.next = self.clock.val();
        self.hf_q.en.next = self.e_front.q.val();
        self.hf_q.d.next = self.hconv.y.val();
        for i in 0..16 {
            self.op_q[i].clock.next = self.clock.val();
            self.op_q[i].en.next = self.e_op[i].q.val();
            self.op_q[i].d.next = self.r1_op[i].q.val();
        }
        self.implicit.next = (self.r1_cfg.q.val().get_bits::<3>(0) == bits::<3>(0))
            | (self.r1_cfg.q.val().get_bits::<3>(0) == bits::<3>(3));
        self.sel_q.clock.next = self.clock.val();
        self.sel_q.en.next = self.e_front.q.val();
        self.sel_q.d.next = bit_cast::<2, 1>(self.implicit.val().into())
            | (bit_cast::<2, 1>(self.r1_fine.q.val().into()) << 1);
        self.maxabs_q.clock.next = self.clock.val();
        self.maxabs_q.en.next = self.e_front.q.val();
        self.maxabs_q.d.next = self.r1_maxabs.q.val();
        // Lanes 0, 1 use row 0 for ∂/∂x (row 1 for lanes 2, 3 when fine); lanes 0, 2 use column 0
        // for ∂/∂y (column 1 for lanes 1, 3 when fine).
        if self.sel_q.q.val().get_bit(0) {
            self.lane[0].dsdx.next = self.diff[0].y.val();
            self.lane[0].dsdy.next = self.diff[2].y.val();
            self.lane[0].dtdx.next = self.diff[4].y.val();
            self.lane[0].dtdy.next = self.diff[6].y.val();
            self.lane[1].dsdx.next = self.diff[0].y.val();
            self.lane[1].dtdx.next = self.diff[4].y.val();
            self.lane[2].dsdy.next = self.diff[2].y.val();
            self.lane[2].dtdy.next = self.diff[6].y.val();
            if self.sel_q.q.val().get_bit(1) {
                self.lane[1].dsdy.next = self.diff[3].y.val();
                self.lane[1].dtdy.next = self.diff[7].y.val();
                self.lane[2].dsdx.next = self.diff[1].y.val();
                self.lane[2].dtdx.next = self.diff[5].y.val();
                self.lane[3].dsdx.next = self.diff[1].y.val();
                self.lane[3].dsdy.next = self.diff[3].y.val();
                self.lane[3].dtdx.next = self.diff[5].y.val();
                self.lane[3].dtdy.next = self.diff[7].y.val();
            } else {
                self.lane[1].dsdy.next = self.diff[2].y.val();
                self.lane[1].dtdy.next = self.diff[6].y.val();
                self.lane[2].dsdx.next = self.diff[0].y.val();
                self.lane[2].dtdx.next = self.diff[4].y.val();
                self.lane[3].dsdx.next = self.diff[0].y.val();
                self.lane[3].dsdy.next = self.diff[2].y.val();
                self.lane[3].dtdx.next = self.diff[4].y.val();
                self.lane[3].dtdy.next = self.diff[6].y.val();
            }
        } else {
            for l in 0..4 {
                self.lane[l].dsdx.next = self.op_q[4 * l].q.val();
                self.lane[l].dsdy.next = self.op_q[4 * l + 1].q.val();
                self.lane[l].dtdx.next = self.op_q[4 * l + 2].q.val();
                self.lane[l].dtdy.next = self.op_q[4 * l + 3].q.val();
            }
        }
        for l in 0..4 {
            self.lane[l].clock.next = self.clock.val();
            self.lane[l].adv_next.next = self.skid.adv_next.val();
            self.lane[l].wf.next = self.wf_q.q.val();
            self.lane[l].hf.next = self.hf_q.q.val();
            self.lane[l].maxabs.next = self.maxabs_q.q.val();
            // The explicit LOD is operand 0, the shader bias operand 2.
            self.fix[l].clock.next = self.clock.val();
            self.fix[l].en.next = self.e_fix[l].q.val();
            self.fix[l].a.next = self.r1_lop[l].q.val();
            self.lane[l].lfix.next = self.fix[l].y.val();
            self.lane[l].lnan.next = self.fix[l].nan.val();
        }

        // ---------------- configuration to stage 4 ----------------
        self.c4_tag.clock.next = self.clock.val();
        self.c4_tag.en.next = self.e_front.q.val();
        self.c4_tag.d.next = self.r1_tag.q.val();
        self.c4_cfg.clock.next = self.clock.val();
        self.c4_cfg.en.next = self.e_front.q.val();
        self.c4_cfg.d.next = self.r1_cfg.q.val();
        self.c4_clamp.clock.next = self.clock.val();
        self.c4_clamp.en.next = self.e_front.q.val();
        self.c4_clamp.d.next = self.r1_clamp.q.val();
        self.c4_bias.clock.next = self.clock.val();
        self.c4_bias.en.next = self.e_front.q.val();
        self.c4_bias.d.next = self.r1_bias.q.val();

        // ---------------- stage 4 → 5: fixed-point back end ----------------
        for l in 0..4 {
            self.fin[l].clock.next = self.clock.val();
            self.fin[l].en.next = self.e_fin[l].q.val();
            self.fin[l].lx.next = self.lane[l].lx.val();
            self.fin[l].ly.next = self.lane[l].ly.val();
            self.fin[l].x_zero.next = self.lane[l].x_zero.val();
            self.fin[l].x_inf.next = self.lane[l].x_inf.val();
            self.fin[l].x_nan.next = self.lane[l].x_nan.val();
            self.fin[l].y_zero.next = self.lane[l].y_zero.val();
            self.fin[l].y_inf.next = self.lane[l].y_inf.val();
            self.fin[l].y_nan.next = self.lane[l].y_nan.val();
            self.fin[l].lfix.next = self.lane[l].lfix_q.val();
            self.fin[l].lnan.next = self.lane[l].lnan_q.val();
            self.fin[l].mode.next = self.c4_cfg.q.val().get_bits::<3>(0);
            self.fin[l].aniso.next = self.c4_cfg.q.val().get_bits::<5>(3);
            self.fin[l].levels.next = self.c4_cfg.q.val().get_bits::<5>(8);
            self.fin[l].mip.next = self.c4_cfg.q.val().get_bits::<2>(13);
            self.fin[l].base.next = self.c4_cfg.q.val().get_bits::<4>(15);
            self.fin[l].lo.next = self.c4_clamp.q.val().get_bits::<16>(0);
            self.fin[l].hi.next = self.c4_clamp.q.val().get_bits::<16>(16);
            self.fin[l].sbias.next = self.c4_bias.q.val().get_bits::<16>(0);
            self.fin[l].warn.next = self.c4_bias.q.val().get_bits::<16>(16);
            self.r5_lambda[l].clock.next = self.clock.val();
            self.r5_lambda[l].en.next = self.e_fin[l].q.val();
            self.r5_lambda[l].d.next = self.fin[l].lambda.val();
            self.r5_unclamped[l].clock.next = self.clock.val();
            self.r5_unclamped[l].en.next = self.e_fin[l].q.val();
            self.r5_unclamped[l].d.next = self.fin[l].unclamped.val();
            self.r5_level0[l].clock.next = self.clock.val();
            self.r5_level0[l].en.next = self.e_fin[l].q.val();
            self.r5_level0[l].d.next = self.fin[l].level0.val();
            self.r5_level1[l].clock.next = self.clock.val();
            self.r5_level1[l].en.next = self.e_fin[l].q.val();
            self.r5_level1[l].d.next = self.fin[l].level1.val();
            self.r5_frac[l].clock.next = self.clock.val();
            self.r5_frac[l].en.next = self.e_fin[l].q.val();
            self.r5_frac[l].d.next = self.fin[l].frac.val();
            self.r5_magnify[l].clock.next = self.clock.val();
            self.r5_magnify[l].en.next = self.e_fin[l].q.val();
            self.r5_magnify[l].d.next = self.fin[l].magnify.val();
            self.r5_warn[l].clock.next = self.clock.val();
            self.r5_warn[l].en.next = self.e_fin[l].q.val();
            self.r5_warn[l].d.next = self.fin[l].lod_warning.val();
            self.r5_probes[l].clock.next = self.clock.val();
            self.r5_probes[l].en.next = self.e_fin[l].q.val();
            self.r5_probes[l].d.next = self.fin[l].probes.val();
            self.r5_major[l].clock.next = self.clock.val();
            self.r5_major[l].en.next = self.e_fin[l].q.val();
            self.r5_major[l].d.next = self.fin[l].major_y.val();
            self.r5_status[l].clock.next = self.clock.val();
            self.r5_status[l].en.next = self.e_fin[l].q.val();
            self.r5_status[l].d.next = self.fin[l].status.val();
        }
        self.r5_tag.clock.next = self.clock.val();
        self.r5_tag.en.next = self.e_front.q.val();
        self.r5_tag.d.next = self.c4_tag.q.val();

        // ---------------- skid register and outputs ----------------
        self.s_tag.clock.next = self.clock.val();
        self.s_tag.en.next = self.skid.load.val();
        self.s_tag.d.next = self.r5_tag.q.val();
        for l in 0..4 {
            self.s_lambda[l].clock.next = self.clock.val();
            self.s_lambda[l].en.next = self.skid.load.val();
            self.s_lambda[l].d.next = self.r5_lambda[l].q.val();
            self.s_unclamped[l].clock.next = self.clock.val();
            self.s_unclamped[l].en.next = self.skid.load.val();
            self.s_unclamped[l].d.next = self.r5_unclamped[l].q.val();
            self.s_level0[l].clock.next = self.clock.val();
            self.s_level0[l].en.next = self.skid.load.val();
            self.s_level0[l].d.next = self.r5_level0[l].q.val();
            self.s_level1[l].clock.next = self.clock.val();
            self.s_level1[l].en.next = self.skid.load.val();
            self.s_level1[l].d.next = self.r5_level1[l].q.val();
            self.s_frac[l].clock.next = self.clock.val();
            self.s_frac[l].en.next = self.skid.load.val();
            self.s_frac[l].d.next = self.r5_frac[l].q.val();
            self.s_magnify[l].clock.next = self.clock.val();
            self.s_magnify[l].en.next = self.skid.load.val();
            self.s_magnify[l].d.next = self.r5_magnify[l].q.val();
            self.s_warn[l].clock.next = self.clock.val();
            self.s_warn[l].en.next = self.skid.load.val();
            self.s_warn[l].d.next = self.r5_warn[l].q.val();
            self.s_probes[l].clock.next = self.clock.val();
            self.s_probes[l].en.next = self.skid.load.val();
            self.s_probes[l].d.next = self.r5_probes[l].q.val();
            self.s_major[l].clock.next = self.clock.val();
            self.s_major[l].en.next = self.skid.load.val();
            self.s_major[l].d.next = self.r5_major[l].q.val();
            self.s_status[l].clock.next = self.clock.val();
            self.s_status[l].en.next = self.skid.load.val();
            self.s_status[l].d.next = self.r5_status[l].q.val();
        }
        // The skid register holds the older result.
        self.out_valid.next = self.skid.valid.val() | self.v5.q.val();
        if self.skid.valid.val() {
            self.out_tag.next = self.s_tag.q.val();
            for l in 0..4 {
                self.out_lambda[l].next = self.s_lambda[l].q.val();
                self.out_unclamped[l].next = self.s_unclamped[l].q.val();
                self.out_level0[l].next = self.s_level0[l].q.val();
                self.out_level1[l].next = self.s_level1[l].q.val();
                self.out_frac[l].next = self.s_frac[l].q.val();
                self.out_magnify[l].next = self.s_magnify[l].q.val();
                self.out_lod_warning[l].next = self.s_warn[l].q.val();
                self.out_probes[l].next = self.s_probes[l].q.val();
                self.out_major_y[l].next = self.s_major[l].q.val();
                self.out_status[l].next = self.s_status[l].q.val();
            }
        } else {
            self.out_tag.next = self.r5_tag.q.val();
            for l in 0..4 {
                self.out_lambda[l].next = self.r5_lambda[l].q.val();
                self.out_unclamped[l].next = self.r5_unclamped[l].q.val();
                self.out_level0[l].next = self.r5_level0[l].q.val();
                self.out_level1[l].next = self.r5_level1[l].q.val();
                self.out_frac[l].next = self.r5_frac[l].q.val();
                self.out_magnify[l].next = self.r5_magnify[l].q.val();
                self.out_lod_warning[l].next = self.r5_warn[l].q.val();
                self.out_probes[l].next = self.r5_probes[l].q.val();
                self.out_major_y[l].next = self.r5_major[l].q.val();
                self.out_status[l].next = self.r5_status[l].q.val();
            }
        }
    }
}
