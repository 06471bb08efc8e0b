//! The texture address pipeline (described in `docs/units/texaddr.md`): TXD decode, descriptor
//! fetch, level layout, coordinate conversion, wraps, bilinear/trilinear footprints, linear-layout
//! byte addresses, sparse-texture residency and TXQ — one quad (16 bilinear taps, 32 trilinear) per
//! clock. The instruction is NVIDIA's SASS TXD; TXQ follows Gallium's TGSI, the unbound-descriptor
//! rule and the TFE/LWE status word AMD's RDNA ISA image instructions.
//!
//! # Ports
//! Input stream (`in_valid`/`in_ready`, transfer on a rising edge with both high): `in_tag`
//! (returned unchanged); the TXD register payload `in_ra[4·lane + k]` (Ra+k of each lane) and
//! immediates `in_bindless` (.B), `in_lc` (.LC), `in_aoffi` (.AOFFI), `in_param_a` (0…7, in the
//! order of the TXD instruction's paramA table), `in_ogl` (SetSamplerBinding.ViaHeaderBinding);
//! `in_cbank` (the constant-bank word at #tsPtrIdxU13, read by the issuing SM's constant cache;
//! ignored with .B); the pool limits `in_hdr_max`, `in_smp_max` (MaximumIndex); from the LOD unit
//! `in_level`, `in_tri` (trilinear) with `in_level1` and `in_frac`, `in_lambda[lane]` (λ·256) and
//! `in_warn` (LOD_WARNING, bit per lane); `in_txq` (a TXQ size query of `in_level` instead of a
//! sample).
//! Descriptor read port (a synchronous RAM/cache read, one cycle): while `desc_rd` is high the
//! unit's stage 1 holds `desc_tag` and wants header `desc_hdr_idx` on `desc_hdr[4]` and sampler
//! `desc_smp_idx` on `desc_smp` in the same cycle (the inputs are sampled at the next enabled edge;
//! they must follow the indices while the stage is stalled). `desc_rd` is low when the decoder
//! already rejected the quad (reserved paramA, pointer above MaximumIndex): nothing is fetched.
//! Residency port (the sparse-texture residency map, same protocol): while `res_rd` is high stage 2
//! holds `res_tag` with levels `res_level0`/`res_level1` and wants `res_ok[s]` = "tile
//! `res_tile[s]` of the slot's level is resident" for every slot s.
//! Output stream (`out_valid`/`out_ready`): `out_tag`, `out_fault` (`texpix_tb::texaddr::Fault`
//! codes), `out_ntaps` (taps per level: 1, 2, 4; 0 for a fault or TXQ), `out_tri`, `out_frac`,
//! `out_level0`/`out_level1`, `out_size[4]` (TXQ: width, height, layers, levels), per slot
//! s = 8·lane + 4·level + k (k: (i0,j0), (i1,j0), (i0,j1), (i1,j1)) `out_i[s]`, `out_j[s]`,
//! `out_addr[s]`, `out_border[s]`, `out_req[s]` (a memory request: a real, non-border tap of a lane
//! that did not fail), and per lane `out_layer`, `out_wu`/`out_wv` (level 0), `out_wu1`/`out_wv1`
//! (level 1), `out_fail` (TEXEL_FAIL), `out_status` (TFE word), `out_lod_clamp` (.LC).
//!
//! # Structure and timing
//! The unit holds the valid bits and the stall and wires four stage blocks, each ending in its
//! register stage: [`TxdDecode`] (decode, into stage 1), [`DescStage`] (stage 1 per quad:
//! descriptors, validation, level layout, TXQ) beside [`AddrStage`] (stage 1 per lane:
//! coordinates, wraps, tap addresses, weights), both into stage 2, and [`Residency`] (stage 2:
//! residency and status, into the output registers). Latency 3 clocks from the accepting edge to
//! the output transfer, initiation interval 1. Pipeline depth 1 ([`TexAddrUnit::new`]) adds cut A
//! inside stage 1, between the descriptor stage's level layout and the lanes' address datapath
//! (the descriptor stage's own registers are delayed by one clock to match): latency 4, II = 1,
//! the same results and the same port protocol (the descriptor read stays in stage 1, the
//! residency read in the stage before the output registers). Depths 2…4 also place the level
//! layout's cuts on its first-texel path ([`LevelLayout`]: between the volume products and the
//! address sums, then between the area and the volume products, then in the middle of the sums;
//! the layer sizes share the second); everything beside that path (the lanes' inputs, the
//! descriptor stage's other outputs and registers) is delayed by the same count. Depths 5…35
//! put 1…31 registers into every coordinate axis ([`Axis::new`], placed by
//! [`AXIS_PLAN`](super::coord::AXIS_PLAN): inside the remainder unit, in the fixed-point
//! conversion, before and after the wraps), and depths 36 and 37 cut every tap-address block
//! ([`TapAddr`](super::TapAddr): after its products, then before the start addition), with the
//! lane's other signals and the descriptor stage's registers delayed beside them. Depths 38…43
//! place the level layout's other cuts ([`LAYOUT_PLAN`](super::layout::LAYOUT_PLAN) entries 4…9:
//! the volumes' partial products on the DSP slices' registers, cuts T1 and T3 in the sums, the
//! area products on the DSP slices' registers, with cuts S and S2 in the level-size selects, two
//! registers of their delay line moved into the layout; then cut F, the level sizes registered in
//! front of the area products), depth 44 adds cut H, the descriptor stage's decoded header
//! and validation registered before its level layout, TXQ sizes and tap count, depth 45 the
//! level layout's cut R, the volumes' shifted partial products registered in front of their
//! rounding adds, and depth 46 the tap blocks' cut T0, their products' operands registered
//! ([`TexAddrUnit::cuts`]): latency 3 + depth at every depth.
//!
//! Back-pressure stalls every stage together, decided a clock ahead ([`SkidControl`]): behind the
//! output registers sits a skid register of one result (in [`Residency`]), which holds the result
//! the output refused while the pipeline advanced; the pipeline advances in exactly the clocks in
//! which the skid register is empty, so `in_ready` and every stage's enable are registers (one
//! [`EnableCopy`] per group of registers: per axis, tap-address block, lane, level of the level
//! layout, instead of one net from `out_ready` to every flip-flop), and `out_valid` is
//! `skid valid || output registers valid`, the skid's result first. A refused result costs one
//! clock of input (`in_ready` low in the clock after the output first refuses); with `out_ready`
//! high the unit takes a quad every clock. The side ports follow the stall: a quad's descriptor
//! or residency read lasts while its stage is stalled (`in_ready` low). `reset` (synchronous,
//! active high) empties the pipeline and the skid register.
//!
//! # Cost
//! Per quad and clock: 16 [`Axis`](super::Axis) (a 24×16 product, 24 17-bit compare-subtract
//! steps and two [`Wrap1`](super::Wrap1) each), 8 [`TapAddr`](super::TapAddr) (three products, six 48-bit adds), one
//! [`LevelLayout`](super::LevelLayout) (47 products, two 16-term trees of 48-bit adds).

use super::{AddrStage, DescStage, LevelLayout, Residency, TxdDecode};
use crate::common::fp::{Retime, ValidRetime};
use crate::common::{EnableCopy, SkidControl};
use rust_hdl::prelude::*;

crate::settled_block! {
/// The texture address unit. See the module documentation.
#[derive(Clone, Debug)]
pub struct TexAddrUnit {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// Input valid.
    pub in_valid: Signal<In, Bit>,
    /// A quad is accepted this cycle.
    pub in_ready: Signal<Out, Bit>,
    /// Transaction id.
    pub in_tag: Signal<In, Bits<16>>,
    /// Ra+k of each lane, `4·lane + k`.
    pub in_ra: [Signal<In, Bits<32>>; 16],
    /// .B.
    pub in_bindless: Signal<In, Bit>,
    /// .LC.
    pub in_lc: Signal<In, Bit>,
    /// .AOFFI.
    pub in_aoffi: Signal<In, Bit>,
    /// paramA code.
    pub in_param_a: Signal<In, Bits<3>>,
    /// OpenGL binding mode.
    pub in_ogl: Signal<In, Bit>,
    /// Constant-bank handle word.
    pub in_cbank: Signal<In, Bits<32>>,
    /// Header pool MaximumIndex.
    pub in_hdr_max: Signal<In, Bits<20>>,
    /// Sampler pool MaximumIndex.
    pub in_smp_max: Signal<In, Bits<20>>,
    /// TXQ instead of a sample.
    pub in_txq: Signal<In, Bit>,
    /// Level (level0).
    pub in_level: Signal<In, Bits<4>>,
    /// Trilinear.
    pub in_tri: Signal<In, Bit>,
    /// Second level.
    pub in_level1: Signal<In, Bits<4>>,
    /// Mip fraction.
    pub in_frac: Signal<In, Bits<8>>,
    /// λ·256 per lane.
    pub in_lambda: [Signal<In, Bits<32>>; 4],
    /// LOD warning, bit per lane.
    pub in_warn: Signal<In, Bits<4>>,
    /// Descriptor read.
    pub desc_rd: Signal<Out, Bit>,
    /// Tag of the quad reading descriptors.
    pub desc_tag: Signal<Out, Bits<16>>,
    /// Header index.
    pub desc_hdr_idx: Signal<Out, Bits<20>>,
    /// Sampler index.
    pub desc_smp_idx: Signal<Out, Bits<20>>,
    /// Header words.
    pub desc_hdr: [Signal<In, Bits<32>>; 4],
    /// Sampler word.
    pub desc_smp: Signal<In, Bits<8>>,
    /// Residency read.
    pub res_rd: Signal<Out, Bit>,
    /// Tag of the quad reading residency.
    pub res_tag: Signal<Out, Bits<16>>,
    /// Level of slots 8·lane + 0…3.
    pub res_level0: Signal<Out, Bits<4>>,
    /// Level of slots 8·lane + 4…7.
    pub res_level1: Signal<Out, Bits<4>>,
    /// Tile per slot.
    pub res_tile: [Signal<Out, Bits<32>>; 32],
    /// Resident per slot.
    pub res_ok: [Signal<In, Bit>; 32],
    /// Output valid.
    pub out_valid: Signal<Out, Bit>,
    /// Downstream accepts.
    pub out_ready: Signal<In, Bit>,
    /// Transaction id.
    pub out_tag: Signal<Out, Bits<16>>,
    /// Fault code.
    pub out_fault: Signal<Out, Bits<3>>,
    /// Taps per level.
    pub out_ntaps: Signal<Out, Bits<3>>,
    /// Trilinear.
    pub out_tri: Signal<Out, Bit>,
    /// Mip fraction.
    pub out_frac: Signal<Out, Bits<8>>,
    /// First level.
    pub out_level0: Signal<Out, Bits<4>>,
    /// Second level.
    pub out_level1: Signal<Out, Bits<4>>,
    /// TXQ sizes.
    pub out_size: [Signal<Out, Bits<32>>; 4],
    /// Texel i per slot.
    pub out_i: [Signal<Out, Bits<32>>; 32],
    /// Texel j per slot.
    pub out_j: [Signal<Out, Bits<32>>; 32],
    /// Byte address per slot.
    pub out_addr: [Signal<Out, Bits<48>>; 32],
    /// Border per slot.
    pub out_border: [Signal<Out, Bit>; 32],
    /// Memory request per slot.
    pub out_req: [Signal<Out, Bit>; 32],
    /// Layer per lane.
    pub out_layer: [Signal<Out, Bits<16>>; 4],
    /// Level-0 u weight per lane.
    pub out_wu: [Signal<Out, Bits<8>>; 4],
    /// Level-0 v weight per lane.
    pub out_wv: [Signal<Out, Bits<8>>; 4],
    /// Level-1 u weight per lane.
    pub out_wu1: [Signal<Out, Bits<8>>; 4],
    /// Level-1 v weight per lane.
    pub out_wv1: [Signal<Out, Bits<8>>; 4],
    /// TEXEL_FAIL per lane.
    pub out_fail: [Signal<Out, Bit>; 4],
    /// TFE status word per lane.
    pub out_status: [Signal<Out, Bits<32>>; 4],
    /// .LC clamp per lane.
    pub out_lod_clamp: [Signal<Out, Bits<12>>; 4],

    /// The advance of this clock (a register: `e_front`).
    adv: Signal<Local, Bit>,
    /// The stall, decided a clock ahead, and the skid register's valid bit (its data sit in
    /// [`Residency`]).
    skid: SkidControl,
    /// Registered copies of the advance for the unit's own registers: the valid bits and
    /// `in_ready`, the descriptor stage's delayed state, each lane's delayed inputs, the
    /// descriptor stage's delayed results. The stage blocks hold copies of their own.
    e_front: EnableCopy,
    e_cd: EnableCopy,
    e_cl: [EnableCopy; 4],
    e_cq: EnableCopy,
    v1: DFF<Bit>,
    v2: DFF<Bit>,
    v3: DFF<Bit>,
    // Cut A (pipeline depth 1): between the descriptor stage's level layout and the lanes'
    // address datapath, and the descriptor stage's registers delayed to match.
    vcut: ValidRetime,
    cd_qok: Retime<Bit>,
    cd_linear: Retime<Bit>,
    cd_unnorm: Retime<Bit>,
    cd_wrap_s: Retime<Bits<3>>,
    cd_wrap_t: Retime<Bits<3>>,
    cd_h2d: Retime<Bit>,
    cd_lin2d: Retime<Bit>,
    cd_bpp_log2: Retime<Bits<3>>,
    cd_lmax: Retime<Bits<16>>,
    cd_w0: Retime<Bits<16>>,
    cd_h0: Retime<Bits<16>>,
    cd_w1: Retime<Bits<16>>,
    cd_h1: Retime<Bits<16>>,
    cd_start0: Retime<Bits<48>>,
    cd_start1: Retime<Bits<48>>,
    cd_pitch0: Retime<Bits<20>>,
    cd_pitch1: Retime<Bits<20>>,
    cd_slice0: Retime<Bits<36>>,
    cd_slice1: Retime<Bits<36>>,
    cl_s: [Retime<Bits<32>>; 4],
    cl_t: [Retime<Bits<32>>; 4],
    cl_arr: [Retime<Bits<16>>; 4],
    cl_lc: [Retime<Bits<12>>; 4],
    cl_offu: [Retime<Bits<4>>; 4],
    cl_offv: [Retime<Bits<4>>; 4],
    cl_lambda: [Retime<Bits<32>>; 4],
    cl_trilin: Retime<Bit>,
    cq_tag_q: Retime<Bits<16>>,
    cq_fault_q: Retime<Bits<3>>,
    cq_ntaps_q: Retime<Bits<3>>,
    cq_trilin_q: Retime<Bit>,
    cq_frac_q: Retime<Bits<8>>,
    cq_txq_q: Retime<Bit>,
    cq_sparse_q: Retime<Bit>,
    cq_l0_q: Retime<Bits<4>>,
    cq_l1_q: Retime<Bits<4>>,
    cq_warn_q: Retime<Bits<4>>,
    cq_size: [Retime<Bits<32>>; 4],
    /// Stage 0: TXD decode, registered into stage 1.
    decode: TxdDecode,
    /// Stage 1, per quad: descriptors and level layout.
    descr: DescStage,
    /// Stage 1, per lane: coordinates, wraps, taps.
    addr: AddrStage,
    /// Stage 2: residency and status into the output registers.
    resid: Residency,
}
}

impl Default for TexAddrUnit {
    fn default() -> Self {
        Self::new(0)
    }
}

impl TexAddrUnit {
    /// Pipeline depths [`TexAddrUnit::new`] accepts.
    pub const DEPTHS: [usize; 4] = [0, 1, TexAddrUnit::MAX_DEPTH - 1, TexAddrUnit::MAX_DEPTH];

    /// Deepest pipeline: cut A, every level-layout cut, every register of the lanes' axes and
    /// of their tap-address blocks, and the descriptor stage's cut H.
    pub const MAX_DEPTH: usize = 1 + LevelLayout::MAX_CUTS + AddrStage::MAX_CUTS + 1;

    /// The tap blocks' cut T0 ([`super::TapAddr::new`]) comes last, at [`Self::MAX_DEPTH`].
    const T0_DEPTH: usize = Self::MAX_DEPTH;

    /// Latency in clocks at pipeline depth `depth`.
    pub fn latency(depth: usize) -> usize {
        3 + depth
    }

    /// Where `depth` puts its registers: (cut A, level-layout cuts, lane cuts, cut H). Cut A
    /// first, then the level layout's first three cuts, then the lanes' ([`AddrStage::new`]:
    /// every axis's, then every tap-address block's), then the level layout's next six, then
    /// the descriptor stage's cut H after its header decode ([`DescStage::new`]), then the
    /// level layout's cut R in front of the volumes' rounding adds, last the tap blocks' cut T0
    /// (the lanes' last cut, in front of the tap products).
    pub fn cuts(depth: usize) -> (usize, usize, usize, usize) {
        let t0 = usize::from(depth >= Self::T0_DEPTH);
        let depth = depth - t0;
        let cut_h = usize::from(depth >= Self::T0_DEPTH - 2);
        let rest = depth - cut_h;
        let cut_a = rest.min(1);
        let first = (rest - cut_a).min(Self::LAYOUT_FIRST);
        let lane = (rest - cut_a - first).min(AddrStage::MAX_CUTS - 1);
        (cut_a, rest - cut_a - lane, lane + t0, cut_h)
    }

    /// The level-layout cuts that come before the lanes' in the depth order (depths 2…4); the
    /// rest come after them (depths 38…43).
    const LAYOUT_FIRST: usize = 3;

    /// The unit with `depth` (0…[`TexAddrUnit::MAX_DEPTH`]) extra register stages: cut A in stage
    /// 1, from depth 2 the level layout's cuts, from depth 5 the lanes' (see the module
    /// documentation and [`TexAddrUnit::cuts`]).
    pub fn new(depth: usize) -> Self {
        use std::array::from_fn;
        assert!(
            depth <= Self::MAX_DEPTH,
            "texaddr: pipeline depth {depth} (0…{})",
            Self::MAX_DEPTH
        );
        let (cut_a, layout, lane, cut_h) = Self::cuts(depth);
        // What enters the lanes waits for the descriptor stage's cut H and level layout
        // (`into_lanes`); what passes beside them waits for the lanes too (`depth`). Every
        // output of the descriptor stage comes after its cut H; the layer sizes come out of the
        // level layout after its area products' registers, the level sizes and pitches after
        // its cut S.
        let into_lanes = cut_h + cut_a + layout;
        let beside = into_lanes - cut_h;
        let slice_delay = beside - LevelLayout::slice_stages_at(layout);
        let size_delay = beside - LevelLayout::size_stages_at(layout);
        // The quad's state that the lanes' axes and tap blocks use leaves its line a clock
        // early, into the address stage's per-axis and per-tap-block copies (`AddrStage::new`).
        let early = beside >= 1;
        let quad = beside - usize::from(early);
        Self {
            settle: crate::common::settle::SettleState::new(true),
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_tag: Default::default(),
            in_ra: from_fn(|_| Default::default()),
            in_bindless: Default::default(),
            in_lc: Default::default(),
            in_aoffi: Default::default(),
            in_param_a: Default::default(),
            in_ogl: Default::default(),
            in_cbank: Default::default(),
            in_hdr_max: Default::default(),
            in_smp_max: Default::default(),
            in_txq: Default::default(),
            in_level: Default::default(),
            in_tri: Default::default(),
            in_level1: Default::default(),
            in_frac: Default::default(),
            in_lambda: from_fn(|_| Default::default()),
            in_warn: Default::default(),
            desc_rd: Default::default(),
            desc_tag: Default::default(),
            desc_hdr_idx: Default::default(),
            desc_smp_idx: Default::default(),
            desc_hdr: from_fn(|_| Default::default()),
            desc_smp: Default::default(),
            res_rd: Default::default(),
            res_tag: Default::default(),
            res_level0: Default::default(),
            res_level1: Default::default(),
            res_tile: from_fn(|_| Default::default()),
            res_ok: from_fn(|_| Default::default()),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_tag: Default::default(),
            out_fault: Default::default(),
            out_ntaps: Default::default(),
            out_tri: Default::default(),
            out_frac: Default::default(),
            out_level0: Default::default(),
            out_level1: Default::default(),
            out_size: from_fn(|_| Default::default()),
            out_i: from_fn(|_| Default::default()),
            out_j: from_fn(|_| Default::default()),
            out_addr: from_fn(|_| Default::default()),
            out_border: from_fn(|_| Default::default()),
            out_req: from_fn(|_| Default::default()),
            out_layer: from_fn(|_| Default::default()),
            out_wu: from_fn(|_| Default::default()),
            out_wv: from_fn(|_| Default::default()),
            out_wu1: from_fn(|_| Default::default()),
            out_wv1: from_fn(|_| Default::default()),
            out_fail: from_fn(|_| Default::default()),
            out_status: from_fn(|_| Default::default()),
            out_lod_clamp: from_fn(|_| Default::default()),
            adv: Default::default(),
            skid: Default::default(),
            e_front: Default::default(),
            e_cd: Default::default(),
            e_cl: Default::default(),
            e_cq: Default::default(),
            v1: Default::default(),
            v2: Default::default(),
            v3: Default::default(),
            vcut: ValidRetime::new(depth),
            cd_qok: Retime::new(quad),
            cd_linear: Retime::new(quad),
            cd_unnorm: Retime::new(quad),
            cd_wrap_s: Retime::new(quad),
            cd_wrap_t: Retime::new(quad),
            cd_h2d: Retime::new(quad),
            cd_lin2d: Retime::new(quad),
            cd_bpp_log2: Retime::new(beside),
            cd_lmax: Retime::new(beside),
            cd_w0: Retime::new(size_delay),
            cd_h0: Retime::new(size_delay),
            cd_w1: Retime::new(size_delay),
            cd_h1: Retime::new(size_delay),
            cd_start0: Retime::new(cut_a),
            cd_start1: Retime::new(cut_a),
            cd_pitch0: Retime::new(size_delay),
            cd_pitch1: Retime::new(size_delay),
            cd_slice0: Retime::new(slice_delay),
            cd_slice1: Retime::new(slice_delay),
            cl_s: from_fn(|_| Retime::new(into_lanes)),
            cl_t: from_fn(|_| Retime::new(into_lanes)),
            cl_arr: from_fn(|_| Retime::new(into_lanes)),
            cl_lc: from_fn(|_| Retime::new(into_lanes)),
            cl_offu: from_fn(|_| Retime::new(into_lanes)),
            cl_offv: from_fn(|_| Retime::new(into_lanes)),
            cl_lambda: from_fn(|_| Retime::new(into_lanes)),
            cl_trilin: Retime::new(into_lanes - usize::from(early)),
            cq_tag_q: Retime::new(depth - cut_h),
            cq_fault_q: Retime::new(depth - cut_h),
            cq_ntaps_q: Retime::new(depth - cut_h),
            cq_trilin_q: Retime::new(depth - cut_h),
            cq_frac_q: Retime::new(depth - cut_h),
            cq_txq_q: Retime::new(depth - cut_h),
            cq_sparse_q: Retime::new(depth - cut_h),
            cq_l0_q: Retime::new(depth - cut_h),
            cq_l1_q: Retime::new(depth - cut_h),
            cq_warn_q: Retime::new(depth - cut_h),
            cq_size: from_fn(|_| Retime::new(depth - cut_h)),
            decode: Default::default(),
            descr: DescStage::new(cut_h, layout),
            addr: AddrStage::new(lane, early),
            resid: Default::default(),
        }
    }
}

impl Logic for TexAddrUnit {
    #[hdl_gen]
    fn update(&mut self) {
        // The advance, decided a clock ahead: the pipeline advances in a clock exactly when the
        // skid register is empty then, so every enable is a register (copied per group).
        self.skid.clock.next = self.clock.val();
        self.skid.reset.next = self.reset.val();
        self.skid.full.next = self.v3.q.val();
        self.skid.out_ready.next = self.out_ready.val();
        self.e_front.clock.next = self.clock.val();
        self.e_front.d.next = self.skid.adv_next.val();
        self.e_cd.clock.next = self.clock.val();
        self.e_cd.d.next = self.skid.adv_next.val();
        self.e_cq.clock.next = self.clock.val();
        self.e_cq.d.next = self.skid.adv_next.val();
        for l in 0..4 {
            self.e_cl[l].clock.next = self.clock.val();
            self.e_cl[l].d.next = self.skid.adv_next.val();
        }
        self.adv.next = self.e_front.q.val();
        self.in_ready.next = self.adv.val();
        dff_setup!(self, clock, v1, v2, v3);
        if self.adv.val() {
            self.v1.d.next = self.in_valid.val();
            self.v2.d.next = self.vcut.q.val();
            self.v3.d.next = self.v2.q.val();
        }
        if self.reset.val() {
            self.v1.d.next = false;
            self.v2.d.next = false;
            self.v3.d.next = false;
        }

        // Stage 0: TXD decode.
        self.decode.clock.next = self.clock.val();
        self.decode.adv_next.next = self.skid.adv_next.val();
        self.decode.in_tag.next = self.in_tag.val();
        for k in 0..16 {
            self.decode.in_ra[k].next = self.in_ra[k].val();
        }
        self.decode.in_bindless.next = self.in_bindless.val();
        self.decode.in_lc.next = self.in_lc.val();
        self.decode.in_aoffi.next = self.in_aoffi.val();
        self.decode.in_param_a.next = self.in_param_a.val();
        self.decode.in_ogl.next = self.in_ogl.val();
        self.decode.in_cbank.next = self.in_cbank.val();
        self.decode.in_hdr_max.next = self.in_hdr_max.val();
        self.decode.in_smp_max.next = self.in_smp_max.val();
        self.decode.in_txq.next = self.in_txq.val();
        self.decode.in_level.next = self.in_level.val();
        self.decode.in_tri.next = self.in_tri.val();
        self.decode.in_level1.next = self.in_level1.val();
        self.decode.in_frac.next = self.in_frac.val();
        for l in 0..4 {
            self.decode.in_lambda[l].next = self.in_lambda[l].val();
        }
        self.decode.in_warn.next = self.in_warn.val();

        // Stage 1: the descriptor read port and the per-quad descriptor stage.
        self.desc_rd.next = self.v1.q.val() & !self.decode.fault.val().any();
        self.desc_tag.next = self.decode.tag.val();
        self.desc_hdr_idx.next = self.decode.hidx.val();
        self.desc_smp_idx.next = self.decode.sidx.val();
        self.descr.clock.next = self.clock.val();
        self.descr.adv_next.next = self.skid.adv_next.val();
        self.descr.tag.next = self.decode.tag.val();
        self.descr.fault0.next = self.decode.fault.val();
        self.descr.p2d.next = self.decode.p2d.val();
        self.descr.txq.next = self.decode.txq.val();
        self.descr.trilin.next = self.decode.trilin.val();
        self.descr.level.next = self.decode.level.val();
        self.descr.level1.next = self.decode.level1.val();
        self.descr.frac.next = self.decode.frac.val();
        self.descr.warn.next = self.decode.warn.val();
        for k in 0..4 {
            self.descr.hdr[k].next = self.desc_hdr[k].val();
        }
        self.descr.smp.next = self.desc_smp.val();

        // Cut A (wires at depth 0).
        self.vcut.clock.next = self.clock.val();
        self.vcut.reset.next = self.reset.val();
        self.vcut.en.next = self.adv.val();
        self.vcut.d.next = self.v1.q.val();
        self.cd_qok.clock.next = self.clock.val();
        self.cd_qok.en.next = self.e_cd.q.val();
        self.cd_qok.d.next = self.descr.qok.val();
        self.cd_linear.clock.next = self.clock.val();
        self.cd_linear.en.next = self.e_cd.q.val();
        self.cd_linear.d.next = self.descr.linear.val();
        self.cd_unnorm.clock.next = self.clock.val();
        self.cd_unnorm.en.next = self.e_cd.q.val();
        self.cd_unnorm.d.next = self.descr.unnorm.val();
        self.cd_wrap_s.clock.next = self.clock.val();
        self.cd_wrap_s.en.next = self.e_cd.q.val();
        self.cd_wrap_s.d.next = self.descr.wrap_s.val();
        self.cd_wrap_t.clock.next = self.clock.val();
        self.cd_wrap_t.en.next = self.e_cd.q.val();
        self.cd_wrap_t.d.next = self.descr.wrap_t.val();
        self.cd_h2d.clock.next = self.clock.val();
        self.cd_h2d.en.next = self.e_cd.q.val();
        self.cd_h2d.d.next = self.descr.h2d.val();
        self.cd_lin2d.clock.next = self.clock.val();
        self.cd_lin2d.en.next = self.e_cd.q.val();
        self.cd_lin2d.d.next = self.descr.lin2d.val();
        self.cd_bpp_log2.clock.next = self.clock.val();
        self.cd_bpp_log2.en.next = self.e_cd.q.val();
        self.cd_bpp_log2.d.next = self.descr.bpp_log2.val();
        self.cd_lmax.clock.next = self.clock.val();
        self.cd_lmax.en.next = self.e_cd.q.val();
        self.cd_lmax.d.next = self.descr.lmax.val();
        self.cd_w0.clock.next = self.clock.val();
        self.cd_w0.en.next = self.e_cd.q.val();
        self.cd_w0.d.next = self.descr.w0.val();
        self.cd_h0.clock.next = self.clock.val();
        self.cd_h0.en.next = self.e_cd.q.val();
        self.cd_h0.d.next = self.descr.h0.val();
        self.cd_w1.clock.next = self.clock.val();
        self.cd_w1.en.next = self.e_cd.q.val();
        self.cd_w1.d.next = self.descr.w1.val();
        self.cd_h1.clock.next = self.clock.val();
        self.cd_h1.en.next = self.e_cd.q.val();
        self.cd_h1.d.next = self.descr.h1.val();
        self.cd_start0.clock.next = self.clock.val();
        self.cd_start0.en.next = self.e_cd.q.val();
        self.cd_start0.d.next = self.descr.start0.val();
        self.cd_start1.clock.next = self.clock.val();
        self.cd_start1.en.next = self.e_cd.q.val();
        self.cd_start1.d.next = self.descr.start1.val();
        self.cd_pitch0.clock.next = self.clock.val();
        self.cd_pitch0.en.next = self.e_cd.q.val();
        self.cd_pitch0.d.next = self.descr.pitch0.val();
        self.cd_pitch1.clock.next = self.clock.val();
        self.cd_pitch1.en.next = self.e_cd.q.val();
        self.cd_pitch1.d.next = self.descr.pitch1.val();
        self.cd_slice0.clock.next = self.clock.val();
        self.cd_slice0.en.next = self.e_cd.q.val();
        self.cd_slice0.d.next = self.descr.slice0.val();
        self.cd_slice1.clock.next = self.clock.val();
        self.cd_slice1.en.next = self.e_cd.q.val();
        self.cd_slice1.d.next = self.descr.slice1.val();
        self.cl_trilin.clock.next = self.clock.val();
        self.cl_trilin.en.next = self.e_cd.q.val();
        self.cl_trilin.d.next = self.decode.trilin.val();
        for l in 0..4 {
            self.cl_s[l].clock.next = self.clock.val();
            self.cl_s[l].en.next = self.e_cl[l].q.val();
            self.cl_s[l].d.next = self.decode.s[l].val();
            self.cl_t[l].clock.next = self.clock.val();
            self.cl_t[l].en.next = self.e_cl[l].q.val();
            self.cl_t[l].d.next = self.decode.t[l].val();
            self.cl_arr[l].clock.next = self.clock.val();
            self.cl_arr[l].en.next = self.e_cl[l].q.val();
            self.cl_arr[l].d.next = self.decode.arr[l].val();
            self.cl_lc[l].clock.next = self.clock.val();
            self.cl_lc[l].en.next = self.e_cl[l].q.val();
            self.cl_lc[l].d.next = self.decode.lc[l].val();
            self.cl_offu[l].clock.next = self.clock.val();
            self.cl_offu[l].en.next = self.e_cl[l].q.val();
            self.cl_offu[l].d.next = self.decode.offu[l].val();
            self.cl_offv[l].clock.next = self.clock.val();
            self.cl_offv[l].en.next = self.e_cl[l].q.val();
            self.cl_offv[l].d.next = self.decode.offv[l].val();
            self.cl_lambda[l].clock.next = self.clock.val();
            self.cl_lambda[l].en.next = self.e_cl[l].q.val();
            self.cl_lambda[l].d.next = self.decode.lambda[l].val();
        }
        self.cq_tag_q.clock.next = self.clock.val();
        self.cq_tag_q.en.next = self.e_cq.q.val();
        self.cq_tag_q.d.next = self.descr.tag_q.val();
        self.cq_fault_q.clock.next = self.clock.val();
        self.cq_fault_q.en.next = self.e_cq.q.val();
        self.cq_fault_q.d.next = self.descr.fault_q.val();
        self.cq_ntaps_q.clock.next = self.clock.val();
        self.cq_ntaps_q.en.next = self.e_cq.q.val();
        self.cq_ntaps_q.d.next = self.descr.ntaps_q.val();
        self.cq_trilin_q.clock.next = self.clock.val();
        self.cq_trilin_q.en.next = self.e_cq.q.val();
        self.cq_trilin_q.d.next = self.descr.trilin_q.val();
        self.cq_frac_q.clock.next = self.clock.val();
        self.cq_frac_q.en.next = self.e_cq.q.val();
        self.cq_frac_q.d.next = self.descr.frac_q.val();
        self.cq_txq_q.clock.next = self.clock.val();
        self.cq_txq_q.en.next = self.e_cq.q.val();
        self.cq_txq_q.d.next = self.descr.txq_q.val();
        self.cq_sparse_q.clock.next = self.clock.val();
        self.cq_sparse_q.en.next = self.e_cq.q.val();
        self.cq_sparse_q.d.next = self.descr.sparse_q.val();
        self.cq_l0_q.clock.next = self.clock.val();
        self.cq_l0_q.en.next = self.e_cq.q.val();
        self.cq_l0_q.d.next = self.descr.l0_q.val();
        self.cq_l1_q.clock.next = self.clock.val();
        self.cq_l1_q.en.next = self.e_cq.q.val();
        self.cq_l1_q.d.next = self.descr.l1_q.val();
        self.cq_warn_q.clock.next = self.clock.val();
        self.cq_warn_q.en.next = self.e_cq.q.val();
        self.cq_warn_q.d.next = self.descr.warn_q.val();
        for k in 0..4 {
            self.cq_size[k].clock.next = self.clock.val();
            self.cq_size[k].en.next = self.e_cq.q.val();
            self.cq_size[k].d.next = self.descr.size_q[k].val();
        }

        // Stage 1 (after cut A): the address datapath of the four lanes.
        self.addr.clock.next = self.clock.val();
        self.addr.adv_next.next = self.skid.adv_next.val();
        for l in 0..4 {
            self.addr.s[l].next = self.cl_s[l].q.val();
            self.addr.t[l].next = self.cl_t[l].q.val();
            self.addr.arr[l].next = self.cl_arr[l].q.val();
            self.addr.lc[l].next = self.cl_lc[l].q.val();
            self.addr.offu[l].next = self.cl_offu[l].q.val();
            self.addr.offv[l].next = self.cl_offv[l].q.val();
            self.addr.lambda[l].next = self.cl_lambda[l].q.val();
        }
        self.addr.trilin.next = self.cl_trilin.q.val();
        self.addr.qok.next = self.cd_qok.q.val();
        self.addr.linear.next = self.cd_linear.q.val();
        self.addr.unnorm.next = self.cd_unnorm.q.val();
        self.addr.wrap_s.next = self.cd_wrap_s.q.val();
        self.addr.wrap_t.next = self.cd_wrap_t.q.val();
        self.addr.h2d.next = self.cd_h2d.q.val();
        self.addr.lin2d.next = self.cd_lin2d.q.val();
        self.addr.bpp_log2.next = self.cd_bpp_log2.q.val();
        self.addr.lmax.next = self.cd_lmax.q.val();
        self.addr.w0.next = self.cd_w0.q.val();
        self.addr.h0.next = self.cd_h0.q.val();
        self.addr.w1.next = self.cd_w1.q.val();
        self.addr.h1.next = self.cd_h1.q.val();
        self.addr.start0.next = self.cd_start0.q.val();
        self.addr.start1.next = self.cd_start1.q.val();
        self.addr.pitch0.next = self.cd_pitch0.q.val();
        self.addr.pitch1.next = self.cd_pitch1.q.val();
        self.addr.slice0.next = self.cd_slice0.q.val();
        self.addr.slice1.next = self.cd_slice1.q.val();

        // Stage 2: the residency port and the residency/status stage.
        self.res_tag.next = self.cq_tag_q.q.val();
        self.res_level0.next = self.cq_l0_q.q.val();
        self.res_level1.next = self.cq_l1_q.q.val();
        self.res_rd.next = self.resid.rd.val();
        self.resid.clock.next = self.clock.val();
        self.resid.adv_next.next = self.skid.adv_next.val();
        self.resid.valid.next = self.v2.q.val();
        self.resid.tag.next = self.cq_tag_q.q.val();
        self.resid.fault.next = self.cq_fault_q.q.val();
        self.resid.ntaps.next = self.cq_ntaps_q.q.val();
        self.resid.trilin.next = self.cq_trilin_q.q.val();
        self.resid.txq.next = self.cq_txq_q.q.val();
        self.resid.sparse.next = self.cq_sparse_q.q.val();
        self.resid.frac.next = self.cq_frac_q.q.val();
        self.resid.l0.next = self.cq_l0_q.q.val();
        self.resid.l1.next = self.cq_l1_q.q.val();
        self.resid.warn.next = self.cq_warn_q.q.val();
        for k in 0..4 {
            self.resid.size[k].next = self.cq_size[k].q.val();
        }
        for s in 0..32 {
            self.res_tile[s].next = self.addr.tile[s].val();
            self.resid.i[s].next = self.addr.i[s].val();
            self.resid.j[s].next = self.addr.j[s].val();
            self.resid.addr[s].next = self.addr.addr[s].val();
            self.resid.border[s].next = self.addr.border[s].val();
            self.resid.req[s].next = self.addr.req[s].val();
            self.resid.ok[s].next = self.res_ok[s].val();
        }
        for l in 0..4 {
            self.resid.layer[l].next = self.addr.layer[l].val();
            self.resid.w[l].next = self.addr.w[l].val();
            self.resid.lc[l].next = self.addr.lc_q[l].val();
            self.resid.lambda[l].next = self.addr.lambda_q[l].val();
        }

        // Outputs.
        self.out_valid.next = self.skid.valid.val() | self.v3.q.val();
        self.out_tag.next = self.resid.out_tag.val();
        self.out_fault.next = self.resid.out_fault.val();
        self.out_ntaps.next = self.resid.out_ntaps.val();
        self.out_tri.next = self.resid.out_tri.val();
        self.out_frac.next = self.resid.out_frac.val();
        self.out_level0.next = self.resid.out_level0.val();
        self.out_level1.next = self.resid.out_level1.val();
        for k in 0..4 {
            self.out_size[k].next = self.resid.out_size[k].val();
        }
        for s in 0..32 {
            self.out_i[s].next = self.resid.out_i[s].val();
            self.out_j[s].next = self.resid.out_j[s].val();
            self.out_addr[s].next = self.resid.out_addr[s].val();
            self.out_border[s].next = self.resid.out_border[s].val();
            self.out_req[s].next = self.resid.out_req[s].val();
        }
        for l in 0..4 {
            self.out_layer[l].next = self.resid.out_layer[l].val();
            self.out_wu[l].next = self.resid.out_w[l].val().get_bits::<8>(0);
            self.out_wv[l].next = self.resid.out_w[l].val().get_bits::<8>(8);
            self.out_wu1[l].next = self.resid.out_w[l].val().get_bits::<8>(16);
            self.out_wv1[l].next = self.resid.out_w[l].val().get_bits::<8>(24);
            self.out_fail[l].next = self.resid.out_fail[l].val();
            self.out_status[l].next = self.resid.out_status[l].val();
            self.out_lod_clamp[l].next = self.resid.out_lc[l].val();
        }
    }
}
