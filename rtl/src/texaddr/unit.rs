//! The texture address pipeline (SPEC §3): TXD decode, descriptor fetch, level layout, coordinate
//! conversion, wraps, bilinear/trilinear footprints, linear-layout byte addresses, sparse-texture
//! residency and TXQ — one quad (16 bilinear taps, 32 trilinear) per clock.
//!
//! # Ports
//! Input stream (`in_valid`/`in_ready`, transfer on a rising edge with both high): `in_tag`
//! (returned unchanged); the TXD register payload `in_ra[4·lane + k]` (Ra+k of each lane) and
//! immediates `in_bindless` (.B), `in_lc` (.LC), `in_aoffi` (.AOFFI), `in_param_a` (0…7, seed 000's
//! table order), `in_ogl` (SetSamplerBinding.ViaHeaderBinding); `in_cbank` (the constant-bank word
//! at #tsPtrIdxU13, read by the issuing SM's constant cache; ignored with .B); the pool limits
//! `in_hdr_max`, `in_smp_max` (MaximumIndex); from the LOD unit `in_level`, `in_tri` (trilinear)
//! with `in_level1` and `in_frac`, `in_lambda[lane]` (λ·256) and `in_warn` (LOD_WARNING, bit per
//! lane); `in_txq` (a TXQ size query of `in_level` instead of a sample).
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
//! # Timing
//! Three register stages: decode (1), the whole address datapath (2), residency and status into
//! the output registers (3). Latency 3 clocks from the accepting edge to the output transfer,
//! initiation interval 1. Back-pressure stalls every stage together (`in_ready = !out_valid ||
//! out_ready`); `reset` (synchronous, active high) empties the pipeline.
//!
//! # Cost
//! Per quad and clock: 16 [`Axis`] (a 24×16 product each and two [`Wrap1`]), 8 [`TapAddr`]
//! (three products, six 48-bit adds), one [`LevelLayout`] (32 products, a 48-bit prefix chain).

use super::{Axis, LevelLayout, TapAddr};
use crate::common::fp::Retime;
use rust_hdl::prelude::*;

/// The texture address unit. See the module documentation.
#[derive(Clone, Debug, LogicBlock)]
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

    adv: Signal<Local, Bit>,
    v1: DFF<Bit>,
    v2: DFF<Bit>,
    v3: DFF<Bit>,
    // ---- decode (stage 0, combinational from the ports) ----
    coords2: Signal<Local, Bit>,
    reserved: Signal<Local, Bit>,
    is_arr: Signal<Local, Bit>,
    has_word: Signal<Local, Bit>,
    handle: Signal<Local, Bits<32>>,
    hidx: Signal<Local, Bits<20>>,
    sidx: Signal<Local, Bits<20>>,
    fault0: Signal<Local, Bits<3>>,
    s_sel: [Signal<Local, Bits<32>>; 4],
    t_sel: [Signal<Local, Bits<32>>; 4],
    w_sel: [Signal<Local, Bits<32>>; 4],
    toff: [Signal<Local, Bits<32>>; 4],
    arr: [Signal<Local, Bits<16>>; 4],
    aux: [Signal<Local, Bits<32>>; 4],
    ctl0: Signal<Local, Bits<32>>,
    // ---- stage 1 registers ----
    /// {frac[7:0], level1[11:8], level[15:12], tri[16], txq[17], warn[21:18], coords2[22],
    /// fault0[25:23]}.
    r1_ctl: Retime<Bits<26>>,
    r1_tag: Retime<Bits<16>>,
    r1_hidx: Retime<Bits<20>>,
    r1_sidx: Retime<Bits<20>>,
    r1_s: [Retime<Bits<32>>; 4],
    r1_t: [Retime<Bits<32>>; 4],
    r1_arr: [Retime<Bits<16>>; 4],
    /// {lc[11:0], offu[15:12], offv[19:16]}.
    r1_aux: [Retime<Bits<20>>; 4],
    r1_lambda: [Retime<Bits<32>>; 4],
    // ---- stage 1 combinational: descriptors and the address datapath ----
    p2d: Signal<Local, Bit>,
    txq1: Signal<Local, Bit>,
    trilin1: Signal<Local, Bit>,
    level: Signal<Local, Bits<4>>,
    level1: Signal<Local, Bits<4>>,
    frac1: Signal<Local, Bits<8>>,
    f0: Signal<Local, Bits<3>>,
    unbound: Signal<Local, Bit>,
    bppl: Signal<Local, Bits<3>>,
    hdim: Signal<Local, Bits<3>>,
    sparse: Signal<Local, Bit>,
    lm1: Signal<Local, Bits<4>>,
    wrap_s: Signal<Local, Bits<3>>,
    wrap_t: Signal<Local, Bits<3>>,
    linear: Signal<Local, Bit>,
    unnorm: Signal<Local, Bit>,
    h1d: Signal<Local, Bit>,
    h2d: Signal<Local, Bit>,
    harr: Signal<Local, Bit>,
    bad: Signal<Local, Bit>,
    mismatch: Signal<Local, Bit>,
    fault: Signal<Local, Bits<3>>,
    qok: Signal<Local, Bit>,
    lmax: Signal<Local, Bits<16>>,
    layers: Signal<Local, Bits<17>>,
    height: Signal<Local, Bits<16>>,
    /// Level-0 address per slot (0 for a border tap).
    taddr: [Signal<Local, Bits<48>>; 32],
    lc: [Signal<Local, Bits<12>>; 4],
    l0: Signal<Local, Bits<4>>,
    l1: Signal<Local, Bits<4>>,
    ntaps: Signal<Local, Bits<3>>,
    lin2d: Signal<Local, Bit>,
    size: [Signal<Local, Bits<32>>; 4],
    layer: [Signal<Local, Bits<16>>; 4],
    bord: [Signal<Local, Bit>; 32],
    valid: [Signal<Local, Bit>; 32],
    ju: [Signal<Local, Bits<32>>; 16],
    jb: [Signal<Local, Bit>; 16],
    wts: [Signal<Local, Bits<32>>; 4],
    ctl1: Signal<Local, Bits<32>>,
    layout: LevelLayout,
    /// Axis `4·lane + 2·level + (0 u, 1 v)`.
    ax: [Axis; 16],
    /// Taps of `2·lane + level`.
    tp: [TapAddr; 8],
    // ---- stage 2 registers ----
    /// {frac[7:0], l0[11:8], l1[15:12], tri[16], txq[17], warn[21:18], sparse[22], fault[25:23],
    /// ntaps[28:26]}.
    r2_ctl: Retime<Bits<29>>,
    r2_tag: Retime<Bits<16>>,
    r2_size: [Retime<Bits<32>>; 4],
    r2_i: [Retime<Bits<32>>; 32],
    r2_j: [Retime<Bits<32>>; 32],
    r2_addr: [Retime<Bits<48>>; 32],
    r2_tile: [Retime<Bits<32>>; 32],
    r2_border: [Retime<Bit>; 32],
    r2_req: [Retime<Bit>; 32],
    r2_layer: [Retime<Bits<16>>; 4],
    /// {wu[7:0], wv[15:8], wu1[23:16], wv1[31:24]}.
    r2_w: [Retime<Bits<32>>; 4],
    r2_lc: [Retime<Bits<12>>; 4],
    r2_lambda: [Retime<Bits<32>>; 4],
    // ---- stage 2 combinational: residency, status ----
    qok2: Signal<Local, Bit>,
    sparse2: Signal<Local, Bit>,
    miss: [Signal<Local, Bit>; 32],
    fail: [Signal<Local, Bit>; 4],
    warn: [Signal<Local, Bit>; 4],
    status: [Signal<Local, Bits<32>>; 4],
    ntaps2: Signal<Local, Bits<3>>,
    warn4: Signal<Local, Bits<4>>,
    // ---- stage 3: output registers ----
    r3_tag: Retime<Bits<16>>,
    r3_fault: Retime<Bits<3>>,
    r3_ntaps: Retime<Bits<3>>,
    r3_tri: Retime<Bit>,
    r3_frac: Retime<Bits<8>>,
    r3_level0: Retime<Bits<4>>,
    r3_level1: Retime<Bits<4>>,
    r3_size: [Retime<Bits<32>>; 4],
    r3_i: [Retime<Bits<32>>; 32],
    r3_j: [Retime<Bits<32>>; 32],
    r3_addr: [Retime<Bits<48>>; 32],
    r3_border: [Retime<Bit>; 32],
    r3_req: [Retime<Bit>; 32],
    r3_layer: [Retime<Bits<16>>; 4],
    r3_w: [Retime<Bits<32>>; 4],
    r3_fail: [Retime<Bit>; 4],
    r3_status: [Retime<Bits<32>>; 4],
    r3_lc: [Retime<Bits<12>>; 4],
}

impl Default for TexAddrUnit {
    fn default() -> Self {
        use std::array::from_fn;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_tag: Default::default(),
            in_ra: Default::default(),
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
            in_lambda: Default::default(),
            in_warn: Default::default(),
            desc_rd: Default::default(),
            desc_tag: Default::default(),
            desc_hdr_idx: Default::default(),
            desc_smp_idx: Default::default(),
            desc_hdr: Default::default(),
            desc_smp: Default::default(),
            res_rd: Default::default(),
            res_tag: Default::default(),
            res_level0: Default::default(),
            res_level1: Default::default(),
            res_tile: Default::default(),
            res_ok: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_tag: Default::default(),
            out_fault: Default::default(),
            out_ntaps: Default::default(),
            out_tri: Default::default(),
            out_frac: Default::default(),
            out_level0: Default::default(),
            out_level1: Default::default(),
            out_size: Default::default(),
            out_i: Default::default(),
            out_j: Default::default(),
            out_addr: Default::default(),
            out_border: Default::default(),
            out_req: Default::default(),
            out_layer: Default::default(),
            out_wu: Default::default(),
            out_wv: Default::default(),
            out_wu1: Default::default(),
            out_wv1: Default::default(),
            out_fail: Default::default(),
            out_status: Default::default(),
            out_lod_clamp: Default::default(),
            adv: Default::default(),
            v1: Default::default(),
            v2: Default::default(),
            v3: Default::default(),
            coords2: Default::default(),
            reserved: Default::default(),
            is_arr: Default::default(),
            has_word: Default::default(),
            handle: Default::default(),
            hidx: Default::default(),
            sidx: Default::default(),
            fault0: Default::default(),
            s_sel: Default::default(),
            t_sel: Default::default(),
            w_sel: Default::default(),
            toff: Default::default(),
            arr: Default::default(),
            aux: Default::default(),
            ctl0: Default::default(),
            r1_ctl: Retime::new(1),
            r1_tag: Retime::new(1),
            r1_hidx: Retime::new(1),
            r1_sidx: Retime::new(1),
            r1_s: from_fn(|_| Retime::new(1)),
            r1_t: from_fn(|_| Retime::new(1)),
            r1_arr: from_fn(|_| Retime::new(1)),
            r1_aux: from_fn(|_| Retime::new(1)),
            r1_lambda: from_fn(|_| Retime::new(1)),
            p2d: Default::default(),
            txq1: Default::default(),
            trilin1: Default::default(),
            level: Default::default(),
            level1: Default::default(),
            frac1: Default::default(),
            f0: Default::default(),
            unbound: Default::default(),
            bppl: Default::default(),
            hdim: Default::default(),
            sparse: Default::default(),
            lm1: Default::default(),
            wrap_s: Default::default(),
            wrap_t: Default::default(),
            linear: Default::default(),
            unnorm: Default::default(),
            h1d: Default::default(),
            h2d: Default::default(),
            harr: Default::default(),
            bad: Default::default(),
            mismatch: Default::default(),
            fault: Default::default(),
            qok: Default::default(),
            lmax: Default::default(),
            layers: Default::default(),
            height: Default::default(),
            taddr: Default::default(),
            lc: Default::default(),
            l0: Default::default(),
            l1: Default::default(),
            ntaps: Default::default(),
            lin2d: Default::default(),
            size: Default::default(),
            layer: Default::default(),
            bord: Default::default(),
            valid: Default::default(),
            ju: Default::default(),
            jb: Default::default(),
            wts: Default::default(),
            ctl1: Default::default(),
            layout: Default::default(),
            ax: Default::default(),
            tp: Default::default(),
            r2_ctl: Retime::new(1),
            r2_tag: Retime::new(1),
            r2_size: from_fn(|_| Retime::new(1)),
            r2_i: from_fn(|_| Retime::new(1)),
            r2_j: from_fn(|_| Retime::new(1)),
            r2_addr: from_fn(|_| Retime::new(1)),
            r2_tile: from_fn(|_| Retime::new(1)),
            r2_border: from_fn(|_| Retime::new(1)),
            r2_req: from_fn(|_| Retime::new(1)),
            r2_layer: from_fn(|_| Retime::new(1)),
            r2_w: from_fn(|_| Retime::new(1)),
            r2_lc: from_fn(|_| Retime::new(1)),
            r2_lambda: from_fn(|_| Retime::new(1)),
            qok2: Default::default(),
            sparse2: Default::default(),
            miss: Default::default(),
            fail: Default::default(),
            warn: Default::default(),
            status: Default::default(),
            ntaps2: Default::default(),
            warn4: Default::default(),
            r3_tag: Retime::new(1),
            r3_fault: Retime::new(1),
            r3_ntaps: Retime::new(1),
            r3_tri: Retime::new(1),
            r3_frac: Retime::new(1),
            r3_level0: Retime::new(1),
            r3_level1: Retime::new(1),
            r3_size: from_fn(|_| Retime::new(1)),
            r3_i: from_fn(|_| Retime::new(1)),
            r3_j: from_fn(|_| Retime::new(1)),
            r3_addr: from_fn(|_| Retime::new(1)),
            r3_border: from_fn(|_| Retime::new(1)),
            r3_req: from_fn(|_| Retime::new(1)),
            r3_layer: from_fn(|_| Retime::new(1)),
            r3_w: from_fn(|_| Retime::new(1)),
            r3_fail: from_fn(|_| Retime::new(1)),
            r3_status: from_fn(|_| Retime::new(1)),
            r3_lc: from_fn(|_| Retime::new(1)),
        }
    }
}
impl Logic for TexAddrUnit {
    #[hdl_gen]
    fn update(&mut self) {
        self.adv.next = !self.v3.q.val() | self.out_ready.val();
        self.in_ready.next = self.adv.val();
        dff_setup!(self, clock, v1, v2, v3);
        if self.adv.val() {
            self.v1.d.next = self.in_valid.val();
            self.v2.d.next = self.v1.q.val();
            self.v3.d.next = self.v2.q.val();
        }
        if self.reset.val() {
            self.v1.d.next = false;
            self.v2.d.next = false;
            self.v3.d.next = false;
        }
        // ---------------- register clocks and enables ----------------
        self.r1_ctl.clock.next = self.clock.val();
        self.r1_ctl.en.next = self.adv.val();
        self.r1_tag.clock.next = self.clock.val();
        self.r1_tag.en.next = self.adv.val();
        self.r1_hidx.clock.next = self.clock.val();
        self.r1_hidx.en.next = self.adv.val();
        self.r1_sidx.clock.next = self.clock.val();
        self.r1_sidx.en.next = self.adv.val();
        for k in 0..4 {
            self.r1_s[k].clock.next = self.clock.val();
            self.r1_s[k].en.next = self.adv.val();
        }
        for k in 0..4 {
            self.r1_t[k].clock.next = self.clock.val();
            self.r1_t[k].en.next = self.adv.val();
        }
        for k in 0..4 {
            self.r1_arr[k].clock.next = self.clock.val();
            self.r1_arr[k].en.next = self.adv.val();
        }
        for k in 0..4 {
            self.r1_aux[k].clock.next = self.clock.val();
            self.r1_aux[k].en.next = self.adv.val();
        }
        for k in 0..4 {
            self.r1_lambda[k].clock.next = self.clock.val();
            self.r1_lambda[k].en.next = self.adv.val();
        }
        self.r2_ctl.clock.next = self.clock.val();
        self.r2_ctl.en.next = self.adv.val();
        self.r2_tag.clock.next = self.clock.val();
        self.r2_tag.en.next = self.adv.val();
        for k in 0..4 {
            self.r2_size[k].clock.next = self.clock.val();
            self.r2_size[k].en.next = self.adv.val();
        }
        for k in 0..32 {
            self.r2_i[k].clock.next = self.clock.val();
            self.r2_i[k].en.next = self.adv.val();
        }
        for k in 0..32 {
            self.r2_j[k].clock.next = self.clock.val();
            self.r2_j[k].en.next = self.adv.val();
        }
        for k in 0..32 {
            self.r2_addr[k].clock.next = self.clock.val();
            self.r2_addr[k].en.next = self.adv.val();
        }
        for k in 0..32 {
            self.r2_tile[k].clock.next = self.clock.val();
            self.r2_tile[k].en.next = self.adv.val();
        }
        for k in 0..32 {
            self.r2_border[k].clock.next = self.clock.val();
            self.r2_border[k].en.next = self.adv.val();
        }
        for k in 0..32 {
            self.r2_req[k].clock.next = self.clock.val();
            self.r2_req[k].en.next = self.adv.val();
        }
        for k in 0..4 {
            self.r2_layer[k].clock.next = self.clock.val();
            self.r2_layer[k].en.next = self.adv.val();
        }
        for k in 0..4 {
            self.r2_w[k].clock.next = self.clock.val();
            self.r2_w[k].en.next = self.adv.val();
        }
        for k in 0..4 {
            self.r2_lc[k].clock.next = self.clock.val();
            self.r2_lc[k].en.next = self.adv.val();
        }
        for k in 0..4 {
            self.r2_lambda[k].clock.next = self.clock.val();
            self.r2_lambda[k].en.next = self.adv.val();
        }
        self.r3_tag.clock.next = self.clock.val();
        self.r3_tag.en.next = self.adv.val();
        self.r3_fault.clock.next = self.clock.val();
        self.r3_fault.en.next = self.adv.val();
        self.r3_ntaps.clock.next = self.clock.val();
        self.r3_ntaps.en.next = self.adv.val();
        self.r3_tri.clock.next = self.clock.val();
        self.r3_tri.en.next = self.adv.val();
        self.r3_frac.clock.next = self.clock.val();
        self.r3_frac.en.next = self.adv.val();
        self.r3_level0.clock.next = self.clock.val();
        self.r3_level0.en.next = self.adv.val();
        self.r3_level1.clock.next = self.clock.val();
        self.r3_level1.en.next = self.adv.val();
        for k in 0..4 {
            self.r3_size[k].clock.next = self.clock.val();
            self.r3_size[k].en.next = self.adv.val();
        }
        for k in 0..32 {
            self.r3_i[k].clock.next = self.clock.val();
            self.r3_i[k].en.next = self.adv.val();
        }
        for k in 0..32 {
            self.r3_j[k].clock.next = self.clock.val();
            self.r3_j[k].en.next = self.adv.val();
        }
        for k in 0..32 {
            self.r3_addr[k].clock.next = self.clock.val();
            self.r3_addr[k].en.next = self.adv.val();
        }
        for k in 0..32 {
            self.r3_border[k].clock.next = self.clock.val();
            self.r3_border[k].en.next = self.adv.val();
        }
        for k in 0..32 {
            self.r3_req[k].clock.next = self.clock.val();
            self.r3_req[k].en.next = self.adv.val();
        }
        for k in 0..4 {
            self.r3_layer[k].clock.next = self.clock.val();
            self.r3_layer[k].en.next = self.adv.val();
        }
        for k in 0..4 {
            self.r3_w[k].clock.next = self.clock.val();
            self.r3_w[k].en.next = self.adv.val();
        }
        for k in 0..4 {
            self.r3_fail[k].clock.next = self.clock.val();
            self.r3_fail[k].en.next = self.adv.val();
        }
        for k in 0..4 {
            self.r3_status[k].clock.next = self.clock.val();
            self.r3_status[k].en.next = self.adv.val();
        }
        for k in 0..4 {
            self.r3_lc[k].clock.next = self.clock.val();
            self.r3_lc[k].en.next = self.adv.val();
        }

        // ---------------- stage 0: TXD decode (seed 000) ----------------
        self.coords2.next =
            (self.in_param_a.val() == bits::<3>(1)) | (self.in_param_a.val() == bits::<3>(5));
        self.reserved.next = !(self.coords2.val()
            | (self.in_param_a.val() == bits::<3>(0))
            | (self.in_param_a.val() == bits::<3>(4)));
        self.is_arr.next = self.in_param_a.val().get_bit(2);
        self.has_word.next = self.in_lc.val() | self.in_aoffi.val() | self.is_arr.val();
        self.handle.next = self.in_cbank.val();
        if self.in_bindless.val() {
            self.handle.next = self.in_ra[0].val();
        }
        self.hidx.next = self.handle.val().get_bits::<20>(0);
        self.sidx.next = bit_cast::<20, 12>(self.handle.val().get_bits::<12>(20));
        if self.in_ogl.val() {
            self.sidx.next = self.hidx.val();
        }
        self.fault0.next = bits::<3>(0);
        if self.sidx.val() > self.in_smp_max.val() {
            self.fault0.next = bits::<3>(3);
        }
        if self.hidx.val() > self.in_hdr_max.val() {
            self.fault0.next = bits::<3>(2);
        }
        if self.reserved.val() {
            self.fault0.next = bits::<3>(1);
        }
        // Ra+0…: [handle], s, [t], [word], compacted upwards.
        for l in 0..4 {
            self.s_sel[l].next = self.in_ra[4 * l].val();
            self.t_sel[l].next = self.in_ra[4 * l + 1].val();
            self.w_sel[l].next = self.in_ra[4 * l + 1].val();
            if self.coords2.val() {
                self.w_sel[l].next = self.in_ra[4 * l + 2].val();
            }
            if self.in_bindless.val() {
                self.s_sel[l].next = self.in_ra[4 * l + 1].val();
                self.t_sel[l].next = self.in_ra[4 * l + 2].val();
                self.w_sel[l].next = self.in_ra[4 * l + 2].val();
                if self.coords2.val() {
                    self.w_sel[l].next = self.in_ra[4 * l + 3].val();
                }
            }
            if !self.coords2.val() {
                self.t_sel[l].next = bits::<32>(0);
            }
            if !self.has_word.val() {
                self.w_sel[l].next = bits::<32>(0);
            }
            // {LodClamp[31:20] | toff[19:12] | array[11:0]} with .LC, else {toff[27:16] | array[15:0]};
            // aux = {lc[11:0], toff[19:12]}.
            self.toff[l].next = (self.w_sel[l].val() >> 4) & bits::<32>(0xff000);
            self.arr[l].next = self.w_sel[l].val().get_bits::<16>(0);
            self.aux[l].next = bits::<32>(0);
            if self.in_lc.val() {
                self.toff[l].next = self.w_sel[l].val() & bits::<32>(0xff000);
                self.arr[l].next = self.w_sel[l].val().get_bits::<16>(0) & bits::<16>(0xfff);
                self.aux[l].next = self.w_sel[l].val() >> 20;
            }
            if self.in_aoffi.val() {
                self.aux[l].next = self.aux[l].val() | self.toff[l].val();
            }
            if !self.is_arr.val() {
                self.arr[l].next = bits::<16>(0);
            }
        }
        self.ctl0.next = bit_cast::<32, 8>(self.in_frac.val())
            | (bit_cast::<32, 4>(self.in_level1.val()) << 8)
            | (bit_cast::<32, 4>(self.in_level.val()) << 12)
            | (bit_cast::<32, 4>(self.in_warn.val()) << 18)
            | (bit_cast::<32, 3>(self.fault0.val()) << 23);
        if self.in_tri.val() {
            self.ctl0.next = self.ctl0.val() | bits::<32>(1 << 16);
        }
        if self.in_txq.val() {
            self.ctl0.next = self.ctl0.val() | bits::<32>(1 << 17);
        }
        if self.coords2.val() {
            self.ctl0.next = self.ctl0.val() | bits::<32>(1 << 22);
        }

        // ---------------- stage 1 registers ----------------
        self.r1_ctl.d.next = self.ctl0.val().get_bits::<26>(0);
        self.r1_tag.d.next = self.in_tag.val();
        self.r1_hidx.d.next = self.hidx.val();
        self.r1_sidx.d.next = self.sidx.val();
        for l in 0..4 {
            self.r1_s[l].d.next = self.s_sel[l].val();
            self.r1_t[l].d.next = self.t_sel[l].val();
            self.r1_arr[l].d.next = self.arr[l].val();
            self.r1_aux[l].d.next = self.aux[l].val().get_bits::<20>(0);
            self.r1_lambda[l].d.next = self.in_lambda[l].val();
        }
        self.desc_rd.next = self.v1.q.val() & !self.r1_ctl.q.val().get_bits::<3>(23).any();
        self.desc_tag.next = self.r1_tag.q.val();
        self.desc_hdr_idx.next = self.r1_hidx.q.val();
        self.desc_smp_idx.next = self.r1_sidx.q.val();

        // ---------------- stage 1: descriptors ----------------
        self.frac1.next = self.r1_ctl.q.val().get_bits::<8>(0);
        self.level1.next = self.r1_ctl.q.val().get_bits::<4>(8);
        self.level.next = self.r1_ctl.q.val().get_bits::<4>(12);
        self.trilin1.next = self.r1_ctl.q.val().get_bit(16);
        self.txq1.next = self.r1_ctl.q.val().get_bit(17);
        self.p2d.next = self.r1_ctl.q.val().get_bit(22);
        self.f0.next = self.r1_ctl.q.val().get_bits::<3>(23);
        self.unbound.next = !(self.desc_hdr[0].val().any()
            | self.desc_hdr[1].val().any()
            | self.desc_hdr[2].val().any()
            | self.desc_hdr[3].val().any());
        self.bppl.next = self.desc_hdr[1].val().get_bits::<3>(16);
        self.hdim.next = self.desc_hdr[1].val().get_bits::<3>(19);
        self.sparse.next = self.desc_hdr[1].val().get_bit(22);
        self.lm1.next = self.desc_hdr[1].val().get_bits::<4>(24);
        self.wrap_s.next = self.desc_smp.val().get_bits::<3>(0);
        self.wrap_t.next = self.desc_smp.val().get_bits::<3>(3);
        self.linear.next = self.desc_smp.val().get_bit(6);
        self.unnorm.next = self.desc_smp.val().get_bit(7);
        self.h1d.next = (self.hdim.val() == bits::<3>(0)) | (self.hdim.val() == bits::<3>(4));
        self.h2d.next = (self.hdim.val() == bits::<3>(1)) | (self.hdim.val() == bits::<3>(5));
        self.harr.next = self.hdim.val().get_bit(2);
        self.bad.next = (self.bppl.val() > bits::<3>(4))
            | (self.wrap_s.val() > bits::<3>(4))
            | (self.wrap_t.val() > bits::<3>(4));
        self.mismatch.next =
            !(self.h1d.val() | self.h2d.val()) | (self.h2d.val() != self.p2d.val());
        self.fault.next = self.f0.val();
        if !self.f0.val().any() {
            if self.mismatch.val() {
                self.fault.next = bits::<3>(6);
            }
            if self.bad.val() {
                self.fault.next = bits::<3>(5);
            }
            if self.unbound.val() {
                self.fault.next = bits::<3>(4);
            }
        }
        self.qok.next = !self.fault.val().any() & !self.txq1.val();
        self.lmax.next = bits::<16>(0);
        self.layers.next = bits::<17>(1);
        if self.harr.val() {
            self.lmax.next = self.desc_hdr[3].val().get_bits::<16>(0);
            self.layers.next = bit_cast::<17, 16>(self.lmax.val()) + bits::<17>(1);
        }
        self.l0.next = self.level.val();
        if self.level.val() > self.lm1.val() {
            self.l0.next = self.lm1.val();
        }
        self.l1.next = self.l0.val();
        if self.trilin1.val() {
            self.l1.next = self.level1.val();
            if self.level1.val() > self.lm1.val() {
                self.l1.next = self.lm1.val();
            }
        }
        self.layout.width.next =
            bit_cast::<16, 15>(self.desc_hdr[2].val().get_bits::<15>(0)) + bits::<16>(1);
        self.height.next = bits::<16>(1);
        if self.h2d.val() {
            self.height.next =
                bit_cast::<16, 15>(self.desc_hdr[2].val().get_bits::<15>(16)) + bits::<16>(1);
        }
        self.layout.height.next = self.height.val();
        self.layout.layers.next = self.layers.val();
        self.layout.bpp_log2.next = self.bppl.val();
        self.layout.base.next = bit_cast::<48, 32>(self.desc_hdr[0].val())
            | (bit_cast::<48, 16>(self.desc_hdr[1].val().get_bits::<16>(0)) << 32);
        self.layout.l0.next = self.l0.val();
        self.layout.l1.next = self.l1.val();
        // TXQ: sizes of `level`, or zeros past the last level (the level count stays).
        self.size[0].next = bits::<32>(0);
        self.size[1].next = bits::<32>(0);
        self.size[2].next = bits::<32>(0);
        self.size[3].next = bit_cast::<32, 4>(self.lm1.val()) + bits::<32>(1);
        if self.level.val() <= self.lm1.val() {
            self.size[0].next = bit_cast::<32, 16>(self.layout.w0.val());
            self.size[1].next = bit_cast::<32, 16>(self.layout.h0.val());
            self.size[2].next = bit_cast::<32, 17>(self.layers.val());
        }
        if self.fault.val().any() | !self.txq1.val() {
            self.size[0].next = bits::<32>(0);
            self.size[1].next = bits::<32>(0);
            self.size[2].next = bits::<32>(0);
            self.size[3].next = bits::<32>(0);
        }
        self.ntaps.next = bits::<3>(1);
        if self.linear.val() {
            self.ntaps.next = bits::<3>(2);
            if self.h2d.val() {
                self.ntaps.next = bits::<3>(4);
            }
        }
        if !self.qok.val() {
            self.ntaps.next = bits::<3>(0);
        }
        self.lin2d.next = self.linear.val() & self.h2d.val();

        for l in 0..4 {
            self.layer[l].next = self.r1_arr[l].q.val();
            if self.r1_arr[l].q.val() > self.lmax.val() {
                self.layer[l].next = self.lmax.val();
            }
            self.ax[4 * l].s.next = self.r1_s[l].q.val();
            self.ax[4 * l].n.next = self.layout.w0.val();
            self.ax[4 * l].mode.next = self.wrap_s.val();
            self.ax[4 * l].linear.next = self.linear.val();
            self.ax[4 * l].unnorm.next = self.unnorm.val();
            self.ax[4 * l].off.next = self.r1_aux[l].q.val().get_bits::<4>(12);
            self.ax[4 * l + 1].s.next = self.r1_t[l].q.val();
            self.ax[4 * l + 1].n.next = self.layout.h0.val();
            self.ax[4 * l + 1].mode.next = self.wrap_t.val();
            self.ax[4 * l + 1].linear.next = self.linear.val();
            self.ax[4 * l + 1].unnorm.next = self.unnorm.val();
            self.ax[4 * l + 1].off.next = self.r1_aux[l].q.val().get_bits::<4>(16);
            self.ju[4 * l].next = self.ax[4 * l + 1].i0.val();
            self.ju[4 * l + 1].next = self.ax[4 * l + 1].i1.val();
            self.jb[4 * l].next = self.ax[4 * l + 1].b0.val();
            self.jb[4 * l + 1].next = self.ax[4 * l + 1].b1.val();
            if !self.h2d.val() {
                self.ju[4 * l].next = bits::<32>(0);
                self.ju[4 * l + 1].next = bits::<32>(0);
                self.jb[4 * l].next = false;
                self.jb[4 * l + 1].next = false;
            }
            self.tp[2 * l].i0.next = self.ax[4 * l].i0.val().get_bits::<16>(0);
            self.tp[2 * l].i1.next = self.ax[4 * l].i1.val().get_bits::<16>(0);
            self.tp[2 * l].j0.next = self.ju[4 * l].val().get_bits::<16>(0);
            self.tp[2 * l].j1.next = self.ju[4 * l + 1].val().get_bits::<16>(0);
            self.tp[2 * l].layer.next = self.layer[l].val();
            self.tp[2 * l].start.next = self.layout.start0.val();
            self.tp[2 * l].pitch.next = self.layout.pitch0.val();
            self.tp[2 * l].slice.next = self.layout.slice0.val();
            self.tp[2 * l].bpp_log2.next = self.bppl.val();
            self.bord[8 * l].next = self.ax[4 * l].b0.val() | self.jb[4 * l].val();
            self.valid[8 * l].next = self.qok.val();
            self.r2_i[8 * l].d.next = self.ax[4 * l].i0.val();
            self.r2_j[8 * l].d.next = self.ju[4 * l].val();
            self.taddr[8 * l].next = self.tp[2 * l].addr0.val();
            if self.bord[8 * l].val() {
                self.taddr[8 * l].next = bits::<48>(0);
            }
            self.r2_addr[8 * l].d.next = self.taddr[8 * l].val();
            self.r2_tile[8 * l].d.next = self.tp[2 * l].tile0.val();
            self.r2_border[8 * l].d.next = self.bord[8 * l].val();
            self.r2_req[8 * l].d.next = self.valid[8 * l].val() & !self.bord[8 * l].val();
            self.bord[8 * l + 1].next = self.ax[4 * l].b1.val() | self.jb[4 * l].val();
            self.valid[8 * l + 1].next = self.qok.val() & self.linear.val();
            self.r2_i[8 * l + 1].d.next = self.ax[4 * l].i1.val();
            self.r2_j[8 * l + 1].d.next = self.ju[4 * l].val();
            self.taddr[8 * l + 1].next = self.tp[2 * l].addr1.val();
            if self.bord[8 * l + 1].val() {
                self.taddr[8 * l + 1].next = bits::<48>(0);
            }
            self.r2_addr[8 * l + 1].d.next = self.taddr[8 * l + 1].val();
            self.r2_tile[8 * l + 1].d.next = self.tp[2 * l].tile1.val();
            self.r2_border[8 * l + 1].d.next = self.bord[8 * l + 1].val();
            self.r2_req[8 * l + 1].d.next =
                self.valid[8 * l + 1].val() & !self.bord[8 * l + 1].val();
            self.bord[8 * l + 2].next = self.ax[4 * l].b0.val() | self.jb[4 * l + 1].val();
            self.valid[8 * l + 2].next = self.qok.val() & self.lin2d.val();
            self.r2_i[8 * l + 2].d.next = self.ax[4 * l].i0.val();
            self.r2_j[8 * l + 2].d.next = self.ju[4 * l + 1].val();
            self.taddr[8 * l + 2].next = self.tp[2 * l].addr2.val();
            if self.bord[8 * l + 2].val() {
                self.taddr[8 * l + 2].next = bits::<48>(0);
            }
            self.r2_addr[8 * l + 2].d.next = self.taddr[8 * l + 2].val();
            self.r2_tile[8 * l + 2].d.next = self.tp[2 * l].tile2.val();
            self.r2_border[8 * l + 2].d.next = self.bord[8 * l + 2].val();
            self.r2_req[8 * l + 2].d.next =
                self.valid[8 * l + 2].val() & !self.bord[8 * l + 2].val();
            self.bord[8 * l + 3].next = self.ax[4 * l].b1.val() | self.jb[4 * l + 1].val();
            self.valid[8 * l + 3].next = self.qok.val() & self.lin2d.val();
            self.r2_i[8 * l + 3].d.next = self.ax[4 * l].i1.val();
            self.r2_j[8 * l + 3].d.next = self.ju[4 * l + 1].val();
            self.taddr[8 * l + 3].next = self.tp[2 * l].addr3.val();
            if self.bord[8 * l + 3].val() {
                self.taddr[8 * l + 3].next = bits::<48>(0);
            }
            self.r2_addr[8 * l + 3].d.next = self.taddr[8 * l + 3].val();
            self.r2_tile[8 * l + 3].d.next = self.tp[2 * l].tile3.val();
            self.r2_border[8 * l + 3].d.next = self.bord[8 * l + 3].val();
            self.r2_req[8 * l + 3].d.next =
                self.valid[8 * l + 3].val() & !self.bord[8 * l + 3].val();
            self.ax[4 * l + 2].s.next = self.r1_s[l].q.val();
            self.ax[4 * l + 2].n.next = self.layout.w1.val();
            self.ax[4 * l + 2].mode.next = self.wrap_s.val();
            self.ax[4 * l + 2].linear.next = self.linear.val();
            self.ax[4 * l + 2].unnorm.next = self.unnorm.val();
            self.ax[4 * l + 2].off.next = self.r1_aux[l].q.val().get_bits::<4>(12);
            self.ax[4 * l + 3].s.next = self.r1_t[l].q.val();
            self.ax[4 * l + 3].n.next = self.layout.h1.val();
            self.ax[4 * l + 3].mode.next = self.wrap_t.val();
            self.ax[4 * l + 3].linear.next = self.linear.val();
            self.ax[4 * l + 3].unnorm.next = self.unnorm.val();
            self.ax[4 * l + 3].off.next = self.r1_aux[l].q.val().get_bits::<4>(16);
            self.ju[4 * l + 2].next = self.ax[4 * l + 3].i0.val();
            self.ju[4 * l + 3].next = self.ax[4 * l + 3].i1.val();
            self.jb[4 * l + 2].next = self.ax[4 * l + 3].b0.val();
            self.jb[4 * l + 3].next = self.ax[4 * l + 3].b1.val();
            if !self.h2d.val() {
                self.ju[4 * l + 2].next = bits::<32>(0);
                self.ju[4 * l + 3].next = bits::<32>(0);
                self.jb[4 * l + 2].next = false;
                self.jb[4 * l + 3].next = false;
            }
            self.tp[2 * l + 1].i0.next = self.ax[4 * l + 2].i0.val().get_bits::<16>(0);
            self.tp[2 * l + 1].i1.next = self.ax[4 * l + 2].i1.val().get_bits::<16>(0);
            self.tp[2 * l + 1].j0.next = self.ju[4 * l + 2].val().get_bits::<16>(0);
            self.tp[2 * l + 1].j1.next = self.ju[4 * l + 3].val().get_bits::<16>(0);
            self.tp[2 * l + 1].layer.next = self.layer[l].val();
            self.tp[2 * l + 1].start.next = self.layout.start1.val();
            self.tp[2 * l + 1].pitch.next = self.layout.pitch1.val();
            self.tp[2 * l + 1].slice.next = self.layout.slice1.val();
            self.tp[2 * l + 1].bpp_log2.next = self.bppl.val();
            self.bord[8 * l + 4].next = self.ax[4 * l + 2].b0.val() | self.jb[4 * l + 2].val();
            self.valid[8 * l + 4].next = self.qok.val() & self.trilin1.val();
            self.r2_i[8 * l + 4].d.next = self.ax[4 * l + 2].i0.val();
            self.r2_j[8 * l + 4].d.next = self.ju[4 * l + 2].val();
            self.taddr[8 * l + 4].next = self.tp[2 * l + 1].addr0.val();
            if self.bord[8 * l + 4].val() {
                self.taddr[8 * l + 4].next = bits::<48>(0);
            }
            self.r2_addr[8 * l + 4].d.next = self.taddr[8 * l + 4].val();
            self.r2_tile[8 * l + 4].d.next = self.tp[2 * l + 1].tile0.val();
            self.r2_border[8 * l + 4].d.next = self.bord[8 * l + 4].val();
            self.r2_req[8 * l + 4].d.next =
                self.valid[8 * l + 4].val() & !self.bord[8 * l + 4].val();
            self.bord[8 * l + 5].next = self.ax[4 * l + 2].b1.val() | self.jb[4 * l + 2].val();
            self.valid[8 * l + 5].next = self.qok.val() & self.linear.val() & self.trilin1.val();
            self.r2_i[8 * l + 5].d.next = self.ax[4 * l + 2].i1.val();
            self.r2_j[8 * l + 5].d.next = self.ju[4 * l + 2].val();
            self.taddr[8 * l + 5].next = self.tp[2 * l + 1].addr1.val();
            if self.bord[8 * l + 5].val() {
                self.taddr[8 * l + 5].next = bits::<48>(0);
            }
            self.r2_addr[8 * l + 5].d.next = self.taddr[8 * l + 5].val();
            self.r2_tile[8 * l + 5].d.next = self.tp[2 * l + 1].tile1.val();
            self.r2_border[8 * l + 5].d.next = self.bord[8 * l + 5].val();
            self.r2_req[8 * l + 5].d.next =
                self.valid[8 * l + 5].val() & !self.bord[8 * l + 5].val();
            self.bord[8 * l + 6].next = self.ax[4 * l + 2].b0.val() | self.jb[4 * l + 3].val();
            self.valid[8 * l + 6].next = self.qok.val() & self.lin2d.val() & self.trilin1.val();
            self.r2_i[8 * l + 6].d.next = self.ax[4 * l + 2].i0.val();
            self.r2_j[8 * l + 6].d.next = self.ju[4 * l + 3].val();
            self.taddr[8 * l + 6].next = self.tp[2 * l + 1].addr2.val();
            if self.bord[8 * l + 6].val() {
                self.taddr[8 * l + 6].next = bits::<48>(0);
            }
            self.r2_addr[8 * l + 6].d.next = self.taddr[8 * l + 6].val();
            self.r2_tile[8 * l + 6].d.next = self.tp[2 * l + 1].tile2.val();
            self.r2_border[8 * l + 6].d.next = self.bord[8 * l + 6].val();
            self.r2_req[8 * l + 6].d.next =
                self.valid[8 * l + 6].val() & !self.bord[8 * l + 6].val();
            self.bord[8 * l + 7].next = self.ax[4 * l + 2].b1.val() | self.jb[4 * l + 3].val();
            self.valid[8 * l + 7].next = self.qok.val() & self.lin2d.val() & self.trilin1.val();
            self.r2_i[8 * l + 7].d.next = self.ax[4 * l + 2].i1.val();
            self.r2_j[8 * l + 7].d.next = self.ju[4 * l + 3].val();
            self.taddr[8 * l + 7].next = self.tp[2 * l + 1].addr3.val();
            if self.bord[8 * l + 7].val() {
                self.taddr[8 * l + 7].next = bits::<48>(0);
            }
            self.r2_addr[8 * l + 7].d.next = self.taddr[8 * l + 7].val();
            self.r2_tile[8 * l + 7].d.next = self.tp[2 * l + 1].tile3.val();
            self.r2_border[8 * l + 7].d.next = self.bord[8 * l + 7].val();
            self.r2_req[8 * l + 7].d.next =
                self.valid[8 * l + 7].val() & !self.bord[8 * l + 7].val();
            self.wts[l].next = self.ax[4 * l].w.val();
            if self.h2d.val() {
                self.wts[l].next = self.wts[l].val() | (self.ax[4 * l + 1].w.val() << 8);
            }
            if self.trilin1.val() {
                self.wts[l].next = self.wts[l].val() | (self.ax[4 * l + 2].w.val() << 16);
                if self.h2d.val() {
                    self.wts[l].next = self.wts[l].val() | (self.ax[4 * l + 3].w.val() << 24);
                }
            }
            if !self.qok.val() {
                self.wts[l].next = bits::<32>(0);
            }
            self.r2_w[l].d.next = self.wts[l].val();
            self.r2_layer[l].d.next = self.layer[l].val();
            self.lc[l].next = self.r1_aux[l].q.val().get_bits::<12>(0);
            if !self.qok.val() {
                self.lc[l].next = bits::<12>(0);
            }
            self.r2_lc[l].d.next = self.lc[l].val();
            self.r2_lambda[l].d.next = self.r1_lambda[l].q.val();
        }
        self.ctl1.next = bit_cast::<32, 8>(self.frac1.val())
            | (bit_cast::<32, 4>(self.l0.val()) << 8)
            | (bit_cast::<32, 4>(self.l1.val()) << 12)
            | (bit_cast::<32, 4>(self.r1_ctl.q.val().get_bits::<4>(18)) << 18)
            | (bit_cast::<32, 3>(self.fault.val()) << 23)
            | (bit_cast::<32, 3>(self.ntaps.val()) << 26);
        if self.trilin1.val() & self.qok.val() {
            self.ctl1.next = self.ctl1.val() | bits::<32>(1 << 16);
        } else {
            self.ctl1.next = self.ctl1.val() & bits::<32>(0xffff_ff00_u64);
        }
        if self.txq1.val() {
            self.ctl1.next = self.ctl1.val() | bits::<32>(1 << 17);
        }
        if self.sparse.val() {
            self.ctl1.next = self.ctl1.val() | bits::<32>(1 << 22);
        }
        self.r2_ctl.d.next = self.ctl1.val().get_bits::<29>(0);
        self.r2_tag.d.next = self.r1_tag.q.val();
        for k in 0..4 {
            self.r2_size[k].d.next = self.size[k].val();
        }

        // ---------------- stage 2: residency and status ----------------
        self.qok2.next =
            !self.r2_ctl.q.val().get_bits::<3>(23).any() & !self.r2_ctl.q.val().get_bit(17);
        self.sparse2.next = self.r2_ctl.q.val().get_bit(22);
        self.ntaps2.next = self.r2_ctl.q.val().get_bits::<3>(26);
        self.warn4.next = self.r2_ctl.q.val().get_bits::<4>(18);
        self.res_rd.next = self.v2.q.val() & self.sparse2.val() & self.qok2.val();
        self.res_tag.next = self.r2_tag.q.val();
        self.res_level0.next = self.r2_ctl.q.val().get_bits::<4>(8);
        self.res_level1.next = self.r2_ctl.q.val().get_bits::<4>(12);
        for s in 0..32 {
            self.res_tile[s].next = self.r2_tile[s].q.val();
            self.miss[s].next = self.r2_req[s].q.val() & !self.res_ok[s].val() & self.sparse2.val();
        }
        for l in 0..4 {
            self.fail[l].next = self.miss[8 * l].val()
                | self.miss[8 * l + 1].val()
                | self.miss[8 * l + 2].val()
                | self.miss[8 * l + 3].val()
                | self.miss[8 * l + 4].val()
                | self.miss[8 * l + 5].val()
                | self.miss[8 * l + 6].val()
                | self.miss[8 * l + 7].val();
            self.warn[l].next = self.warn4.val().get_bit(l) & !self.fail[l].val();
            self.status[l].next = (self.r2_lambda[l].q.val() << 8) & bits::<32>(0xffff_0000_u64);
            if self.warn[l].val() {
                self.status[l].next = self.status[l].val() | bits::<32>(2);
            }
            if self.fail[l].val() {
                self.status[l].next = self.status[l].val() | bits::<32>(1);
            }
            if !self.qok2.val() {
                self.status[l].next = bits::<32>(0);
            }
            for k in 0..8 {
                self.r3_req[8 * l + k].d.next =
                    self.r2_req[8 * l + k].q.val() & !self.fail[l].val();
            }
            self.r3_fail[l].d.next = self.fail[l].val();
            self.r3_status[l].d.next = self.status[l].val();
            self.r3_layer[l].d.next = self.r2_layer[l].q.val();
            self.r3_w[l].d.next = self.r2_w[l].q.val();
            self.r3_lc[l].d.next = self.r2_lc[l].q.val();
        }
        for s in 0..32 {
            self.r3_i[s].d.next = self.r2_i[s].q.val();
            self.r3_j[s].d.next = self.r2_j[s].q.val();
            self.r3_addr[s].d.next = self.r2_addr[s].q.val();
            self.r3_border[s].d.next = self.r2_border[s].q.val();
        }
        self.r3_tag.d.next = self.r2_tag.q.val();
        self.r3_fault.d.next = self.r2_ctl.q.val().get_bits::<3>(23);
        self.r3_ntaps.d.next = self.ntaps2.val();
        self.r3_tri.d.next = self.r2_ctl.q.val().get_bit(16);
        self.r3_frac.d.next = self.r2_ctl.q.val().get_bits::<8>(0);
        self.r3_level0.d.next = self.r2_ctl.q.val().get_bits::<4>(8);
        self.r3_level1.d.next = self.r2_ctl.q.val().get_bits::<4>(12);
        for k in 0..4 {
            self.r3_size[k].d.next = self.r2_size[k].q.val();
        }

        // ---------------- outputs ----------------
        self.out_valid.next = self.v3.q.val();
        self.out_tag.next = self.r3_tag.q.val();
        self.out_fault.next = self.r3_fault.q.val();
        self.out_ntaps.next = self.r3_ntaps.q.val();
        self.out_tri.next = self.r3_tri.q.val();
        self.out_frac.next = self.r3_frac.q.val();
        self.out_level0.next = self.r3_level0.q.val();
        self.out_level1.next = self.r3_level1.q.val();
        for k in 0..4 {
            self.out_size[k].next = self.r3_size[k].q.val();
        }
        for s in 0..32 {
            self.out_i[s].next = self.r3_i[s].q.val();
            self.out_j[s].next = self.r3_j[s].q.val();
            self.out_addr[s].next = self.r3_addr[s].q.val();
            self.out_border[s].next = self.r3_border[s].q.val();
            self.out_req[s].next = self.r3_req[s].q.val();
        }
        for l in 0..4 {
            self.out_layer[l].next = self.r3_layer[l].q.val();
            self.out_wu[l].next = self.r3_w[l].q.val().get_bits::<8>(0);
            self.out_wv[l].next = self.r3_w[l].q.val().get_bits::<8>(8);
            self.out_wu1[l].next = self.r3_w[l].q.val().get_bits::<8>(16);
            self.out_wv1[l].next = self.r3_w[l].q.val().get_bits::<8>(24);
            self.out_fail[l].next = self.r3_fail[l].q.val();
            self.out_status[l].next = self.r3_status[l].q.val();
            self.out_lod_clamp[l].next = self.r3_lc[l].q.val();
        }
    }
}
