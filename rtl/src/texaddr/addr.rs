//! Stage 1 of the texture address pipeline, the per-lane part: coordinates, wraps, tap addresses
//! and weights of the quad's four lanes at both levels (see `docs/units/texaddr.md`).
//!
//! # Ports
//! Inputs: per lane from [`super::TxdDecode`] `s`, `t` (f32 bits), `arr` (array index), `lc` (.LC
//! clamp), `offu`, `offv` (texel offsets), `lambda`, and its `trilin`; the quad's state from
//! [`super::DescStage`]: `qok`, `linear`, `unnorm`, `wrap_s`, `wrap_t`, `h2d`, `lin2d`,
//! `bpp_log2`, `lmax`, and the two levels' `w0`/`h0`/`start0`/`pitch0`/`slice0` and
//! `w1`/`h1`/`start1`/`pitch1`/`slice1`; `clock` and `adv_next` (the unit's advance of the
//! next clock, registered in the stage's enable copies).
//! Outputs, all registered, per slot s = 8·lane + 4·level + k (k: (i0,j0), (i1,j0), (i0,j1),
//! (i1,j1)): `i[s]`, `j[s]` (wrapped texels; j = 0 in 1D), `addr[s]` (byte address, 0 for a border
//! tap), `tile[s]` (the 64 KiB residency tile within the level), `border[s]`, `req[s]` (a real,
//! non-border tap of a sampling quad); per lane `layer` (clamped to `lmax`), `w`
//! (`{wu[7:0], wv[15:8], wu1[23:16], wv1[31:24]}`, the weights the filter uses, else 0), `lc_q`
//! (0 unless `qok`) and `lambda_q`.
//!
//! # Timing
//! 16 [`Axis`] (each with up to [`Axis::MAX_CUTS`] registers, [`AddrStage::new`] and
//! [`Axis::new`]; the stage's other inputs wait beside them), then 8 [`TapAddr`] (the cuts beyond
//! the axes', up to [`TapAddr::MAX_CUTS`]; the texels, borders, requests, layers, weights and the
//! side signals wait beside them) into one register stage; every register advances with the unit:
//! latency 1 + `cuts`. What the tap blocks share (layer, level start, pitch, layer size, texel
//! size, the quad's flags) waits in one delay line each, whose last register is kept once per
//! tap block, beside it; with `early` the quad's state comes a clock ahead and each axis keeps
//! its own register of the wrap mode, linear and unnormalized flags. No register then drives
//! more than one axis or tap block (the whole unit's worst routes on the ECP5 were such fan-outs:
//! docs/fpga.md).
//!
//! # What it computes
//! Axis 4·lane + 2·level + (0 u, 1 v) scales s (t) by the level's width (height), applies the
//! offset and the wrap; the [`TapAddr`] of 2·lane + level turns the texel pairs into addresses.
//! Slots past the footprint (k odd without `linear`, k ≥ 2 without `lin2d`, level 1 without
//! `trilin`) make no request.

use super::{Axis, TapAddr};
use crate::common::fp::Retime;
use crate::common::EnableCopy;
use rust_hdl::prelude::*;

crate::settled_block! {
/// The quad's address datapath. See the module documentation.
#[derive(Clone, Debug)]
pub struct AddrStage {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance of the next clock (the unit's stall when low), into the enable copies.
    pub adv_next: Signal<In, Bit>,
    /// s per lane (f32 bits).
    pub s: [Signal<In, Bits<32>>; 4],
    /// t per lane (f32 bits).
    pub t: [Signal<In, Bits<32>>; 4],
    /// Array index per lane.
    pub arr: [Signal<In, Bits<16>>; 4],
    /// .LC clamp per lane.
    pub lc: [Signal<In, Bits<12>>; 4],
    /// u texel offset per lane.
    pub offu: [Signal<In, Bits<4>>; 4],
    /// v texel offset per lane.
    pub offv: [Signal<In, Bits<4>>; 4],
    /// λ·256 per lane.
    pub lambda: [Signal<In, Bits<32>>; 4],
    /// Trilinear.
    pub trilin: Signal<In, Bit>,
    /// The quad samples.
    pub qok: Signal<In, Bit>,
    /// Bilinear filter.
    pub linear: Signal<In, Bit>,
    /// Unnormalized coordinates.
    pub unnorm: Signal<In, Bit>,
    /// Wrap mode of s.
    pub wrap_s: Signal<In, Bits<3>>,
    /// Wrap mode of t.
    pub wrap_t: Signal<In, Bits<3>>,
    /// 2D texture.
    pub h2d: Signal<In, Bit>,
    /// Bilinear in 2D.
    pub lin2d: Signal<In, Bit>,
    /// log2 bytes per texel.
    pub bpp_log2: Signal<In, Bits<3>>,
    /// Last array layer.
    pub lmax: Signal<In, Bits<16>>,
    /// Width of l0.
    pub w0: Signal<In, Bits<16>>,
    /// Height of l0.
    pub h0: Signal<In, Bits<16>>,
    /// Width of l1.
    pub w1: Signal<In, Bits<16>>,
    /// Height of l1.
    pub h1: Signal<In, Bits<16>>,
    /// First texel of l0.
    pub start0: Signal<In, Bits<48>>,
    /// First texel of l1.
    pub start1: Signal<In, Bits<48>>,
    /// Row pitch of l0.
    pub pitch0: Signal<In, Bits<20>>,
    /// Row pitch of l1.
    pub pitch1: Signal<In, Bits<20>>,
    /// Layer size of l0.
    pub slice0: Signal<In, Bits<36>>,
    /// Layer size of l1.
    pub slice1: Signal<In, Bits<36>>,
    /// Texel i per slot.
    pub i: [Signal<Out, Bits<32>>; 32],
    /// Texel j per slot.
    pub j: [Signal<Out, Bits<32>>; 32],
    /// Byte address per slot.
    pub addr: [Signal<Out, Bits<48>>; 32],
    /// Residency tile per slot.
    pub tile: [Signal<Out, Bits<32>>; 32],
    /// Border per slot.
    pub border: [Signal<Out, Bit>; 32],
    /// Memory request per slot.
    pub req: [Signal<Out, Bit>; 32],
    /// Clamped layer per lane.
    pub layer: [Signal<Out, Bits<16>>; 4],
    /// Weights per lane.
    pub w: [Signal<Out, Bits<32>>; 4],
    /// .LC clamp per lane (registered).
    pub lc_q: [Signal<Out, Bits<12>>; 4],
    /// λ·256 per lane (registered).
    pub lambda_q: [Signal<Out, Bits<32>>; 4],
    /// Axis `4·lane + 2·level + (0 u, 1 v)`.
    ax: [Axis; 16],
    /// Taps of `2·lane + level`.
    tp: [TapAddr; 8],
    lay: [Signal<Local, Bits<16>>; 4],
    /// u texel and border of `4·lane + 2·level + (0 first, 1 second)`.
    iu: [Signal<Local, Bits<32>>; 16],
    bu: [Signal<Local, Bit>; 16],
    /// v texel and border of `4·lane + 2·level + (0 first, 1 second)` (0 and false in 1D).
    ju: [Signal<Local, Bits<32>>; 16],
    jb: [Signal<Local, Bit>; 16],
    /// The quad's wrap mode, linear and unnormalized flags (bits 2:0, 3, 4), one copy per axis
    /// ([`AddrStage::new`]'s `early`).
    cp_ax: [Retime<Bits<5>>; 16],
    /// What the copies of the u and v axes take.
    q_u: Signal<Local, Bits<5>>,
    q_v: Signal<Local, Bits<5>>,
    ta: [Signal<Local, Bits<48>>; 32],
    tt: [Signal<Local, Bits<32>>; 32],
    bord: [Signal<Local, Bit>; 32],
    /// The borders beside the tap-address registers, for the address select.
    dl_bord: [Retime<Bit>; 32],
    taddr: [Signal<Local, Bits<48>>; 32],
    valid: [Signal<Local, Bit>; 32],
    wts: [Signal<Local, Bits<32>>; 4],
    lcm: [Signal<Local, Bits<12>>; 4],
    /// Beside the axes' registers ([`Axis::stages`]): what the taps, slots and weights use; the
    /// lines that reach the tap blocks end in one kept copy of their last register per tap block
    /// (`tc_*`, see [`split_last`]).
    dl_lay: [Retime<Bits<16>>; 4],
    dl_lc: [Retime<Bits<12>>; 4],
    dl_lambda: [Retime<Bits<32>>; 4],
    dl_start: [Retime<Bits<48>>; 2],
    dl_pitch: [Retime<Bits<20>>; 2],
    dl_slice: [Retime<Bits<36>>; 2],
    dl_bpp: Retime<Bits<3>>,
    dl_flags: Retime<Bits<5>>,
    tc_lay: [Retime<Bits<16>>; 8],
    tc_start: [Retime<Bits<48>>; 8],
    tc_pitch: [Retime<Bits<20>>; 8],
    tc_slice: [Retime<Bits<36>>; 8],
    tc_bpp: [Retime<Bits<3>>; 8],
    tc_flags: [Retime<Bits<5>>; 8],
    /// {qok, linear, lin2d, h2d, trilin} (bits 0…4), into the flags' line.
    fl: Signal<Local, Bits<5>>,
    /// Slot enables of tap block t by second u texel, second v texel (index 2·t + 1; 2·t is
    /// 1), and level (index t: 1 at level 0, trilinear at level 1).
    en_u: [Signal<Local, Bit>; 16],
    en_v: [Signal<Local, Bit>; 16],
    en_l: [Signal<Local, Bit>; 8],
    /// The delayed flags of each tap block (of 2·lane + level).
    qok_d: [Signal<Local, Bit>; 8],
    linear_d: [Signal<Local, Bit>; 8],
    lin2d_d: [Signal<Local, Bit>; 8],
    h2d_d: [Signal<Local, Bit>; 8],
    trilin_d: [Signal<Local, Bit>; 8],
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
    /// Enable copies: one per axis, one per tap-address block (with its four slots' registers),
    /// one per lane (its layer, clamp, λ and weights), one for the quad's delay lines.
    e_ax: [EnableCopy; 16],
    e_tp: [EnableCopy; 8],
    e_lane: [EnableCopy; 4],
    e_q: EnableCopy,
}
}

impl Default for AddrStage {
    fn default() -> Self {
        Self::new(0, false)
    }
}

impl AddrStage {
    /// Most registers [`AddrStage::new`] places: every axis's, then the tap addresses'.
    pub const MAX_CUTS: usize = Axis::MAX_CUTS + TapAddr::MAX_CUTS;

    /// The stage with `cuts` (0…[`AddrStage::MAX_CUTS`]) registers: the first
    /// [`Axis::MAX_CUTS`] in every axis ([`Axis::new`]), the rest in every [`TapAddr`]. Latency
    /// 1 + `cuts`. With `early` the quad's state (`qok`, `linear`, `unnorm`, `wrap_s`, `wrap_t`,
    /// `h2d`, `lin2d`, `trilin`) is taken one clock before the lanes' inputs and registered in
    /// a kept copy per axis (wrap mode, linear, unnormalized) and per tap block (the flags), so
    /// that no one register drives all sixteen axes or all eight tap blocks.
    pub fn new(cuts: usize, early: bool) -> Self {
        use std::array::from_fn;
        assert!(
            cuts <= Self::MAX_CUTS,
            "AddrStage: {cuts} cuts (0…{})",
            Self::MAX_CUTS
        );
        let (axis, taps) = (
            cuts.min(Axis::MAX_CUTS),
            cuts.saturating_sub(Axis::MAX_CUTS),
        );
        let early = usize::from(early);
        let (line, copy) = split_last(axis);
        let (fl_line, fl_copy) = split_last(early + axis);
        Self {
            settle: crate::common::settle::SettleState::new(true),
            clock: Default::default(),
            adv_next: Default::default(),
            s: Default::default(),
            t: Default::default(),
            arr: Default::default(),
            lc: Default::default(),
            offu: Default::default(),
            offv: Default::default(),
            lambda: Default::default(),
            trilin: Default::default(),
            qok: Default::default(),
            linear: Default::default(),
            unnorm: Default::default(),
            wrap_s: Default::default(),
            wrap_t: Default::default(),
            h2d: Default::default(),
            lin2d: Default::default(),
            bpp_log2: Default::default(),
            lmax: Default::default(),
            w0: Default::default(),
            h0: Default::default(),
            w1: Default::default(),
            h1: Default::default(),
            start0: Default::default(),
            start1: Default::default(),
            pitch0: Default::default(),
            pitch1: Default::default(),
            slice0: Default::default(),
            slice1: Default::default(),
            i: Default::default(),
            j: Default::default(),
            addr: Default::default(),
            tile: Default::default(),
            border: Default::default(),
            req: Default::default(),
            layer: Default::default(),
            w: Default::default(),
            lc_q: Default::default(),
            lambda_q: Default::default(),
            ax: from_fn(|_| Axis::new(axis)),
            tp: from_fn(|_| TapAddr::new(taps)),
            lay: Default::default(),
            iu: Default::default(),
            bu: Default::default(),
            ju: Default::default(),
            jb: Default::default(),
            en_u: Default::default(),
            en_v: Default::default(),
            en_l: Default::default(),
            cp_ax: from_fn(|_| Retime::kept(early)),
            q_u: Default::default(),
            q_v: Default::default(),
            ta: Default::default(),
            tt: Default::default(),
            bord: Default::default(),
            dl_bord: from_fn(|_| Retime::new(taps)),
            taddr: Default::default(),
            valid: Default::default(),
            wts: Default::default(),
            lcm: Default::default(),
            dl_lay: from_fn(|_| Retime::new(line)),
            dl_lc: from_fn(|_| Retime::new(axis)),
            dl_lambda: from_fn(|_| Retime::new(axis)),
            dl_start: from_fn(|_| Retime::new(line)),
            dl_pitch: from_fn(|_| Retime::new(line)),
            dl_slice: from_fn(|_| Retime::new(line)),
            dl_bpp: Retime::new(line),
            dl_flags: Retime::new(fl_line),
            tc_lay: from_fn(|_| Retime::kept(copy)),
            tc_start: from_fn(|_| Retime::kept(copy)),
            tc_pitch: from_fn(|_| Retime::kept(copy)),
            tc_slice: from_fn(|_| Retime::kept(copy)),
            tc_bpp: from_fn(|_| Retime::kept(copy)),
            tc_flags: from_fn(|_| Retime::kept(fl_copy)),
            fl: Default::default(),
            qok_d: Default::default(),
            linear_d: Default::default(),
            lin2d_d: Default::default(),
            h2d_d: Default::default(),
            trilin_d: Default::default(),
            r2_i: from_fn(|_| Retime::new(1 + taps)),
            r2_j: from_fn(|_| Retime::new(1 + taps)),
            r2_addr: from_fn(|_| Retime::new(1)),
            r2_tile: from_fn(|_| Retime::new(1)),
            r2_border: from_fn(|_| Retime::new(1 + taps)),
            r2_req: from_fn(|_| Retime::new(1 + taps)),
            r2_layer: from_fn(|_| Retime::new(1 + taps)),
            r2_w: from_fn(|_| Retime::new(1 + taps)),
            r2_lc: from_fn(|_| Retime::new(1 + taps)),
            r2_lambda: from_fn(|_| Retime::new(1 + taps)),
            e_ax: Default::default(),
            e_tp: Default::default(),
            e_lane: Default::default(),
            e_q: Default::default(),
        }
    }
}

/// A delay of `stages` registers as a shared line and the one register behind it that each
/// consumer keeps a copy of: (line, copy) = (`stages` − 1, 1), or (0, 0) without registers.
fn split_last(stages: usize) -> (usize, usize) {
    (stages.saturating_sub(1), stages.min(1))
}

impl Logic for AddrStage {
    #[hdl_gen]
    fn update(&mut self) {
        for a in 0..16 {
            self.e_ax[a].clock.next = self.clock.val();
            self.e_ax[a].d.next = self.adv_next.val();
        }
        for t in 0..8 {
            self.e_tp[t].clock.next = self.clock.val();
            self.e_tp[t].d.next = self.adv_next.val();
        }
        for l in 0..4 {
            self.e_lane[l].clock.next = self.clock.val();
            self.e_lane[l].d.next = self.adv_next.val();
        }
        self.e_q.clock.next = self.clock.val();
        self.e_q.d.next = self.adv_next.val();
        // The axes, and beside their registers what the rest of the stage uses.
        self.q_u.next = bit_cast::<5, 3>(self.wrap_s.val());
        self.q_v.next = bit_cast::<5, 3>(self.wrap_t.val());
        if self.linear.val() {
            self.q_u.next = self.q_u.val() | bits::<5>(8);
            self.q_v.next = self.q_v.val() | bits::<5>(8);
        }
        if self.unnorm.val() {
            self.q_u.next = self.q_u.val() | bits::<5>(16);
            self.q_v.next = self.q_v.val() | bits::<5>(16);
        }
        for l in 0..4 {
            self.lay[l].next = self.arr[l].val();
            if self.arr[l].val() > self.lmax.val() {
                self.lay[l].next = self.lmax.val();
            }
            // Axes: u of both levels along s, v along t.
            self.ax[4 * l].s.next = self.s[l].val();
            self.ax[4 * l].n.next = self.w0.val();
            self.ax[4 * l + 1].s.next = self.t[l].val();
            self.ax[4 * l + 1].n.next = self.h0.val();
            self.ax[4 * l + 2].s.next = self.s[l].val();
            self.ax[4 * l + 2].n.next = self.w1.val();
            self.ax[4 * l + 3].s.next = self.t[l].val();
            self.ax[4 * l + 3].n.next = self.h1.val();
            for lv in 0..2 {
                self.cp_ax[4 * l + 2 * lv].d.next = self.q_u.val();
                self.ax[4 * l + 2 * lv].off.next = self.offu[l].val();
                self.cp_ax[4 * l + 2 * lv + 1].d.next = self.q_v.val();
                self.ax[4 * l + 2 * lv + 1].off.next = self.offv[l].val();
            }
            for a in 0..4 {
                self.cp_ax[4 * l + a].clock.next = self.clock.val();
                self.cp_ax[4 * l + a].en.next = self.e_ax[4 * l + a].q.val();
                self.ax[4 * l + a].clock.next = self.clock.val();
                self.ax[4 * l + a].en.next = self.e_ax[4 * l + a].q.val();
                self.ax[4 * l + a].mode.next = self.cp_ax[4 * l + a].q.val().get_bits::<3>(0);
                self.ax[4 * l + a].linear.next = self.cp_ax[4 * l + a].q.val().get_bit(3);
                self.ax[4 * l + a].unnorm.next = self.cp_ax[4 * l + a].q.val().get_bit(4);
            }
            self.dl_lay[l].clock.next = self.clock.val();
            self.dl_lay[l].en.next = self.e_lane[l].q.val();
            self.dl_lay[l].d.next = self.lay[l].val();
            self.dl_lc[l].clock.next = self.clock.val();
            self.dl_lc[l].en.next = self.e_lane[l].q.val();
            self.dl_lc[l].d.next = self.lc[l].val();
            self.dl_lambda[l].clock.next = self.clock.val();
            self.dl_lambda[l].en.next = self.e_lane[l].q.val();
            self.dl_lambda[l].d.next = self.lambda[l].val();
        }
        for lv in 0..2 {
            self.dl_start[lv].clock.next = self.clock.val();
            self.dl_start[lv].en.next = self.e_q.q.val();
            self.dl_pitch[lv].clock.next = self.clock.val();
            self.dl_pitch[lv].en.next = self.e_q.q.val();
            self.dl_slice[lv].clock.next = self.clock.val();
            self.dl_slice[lv].en.next = self.e_q.q.val();
        }
        self.dl_start[0].d.next = self.start0.val();
        self.dl_start[1].d.next = self.start1.val();
        self.dl_pitch[0].d.next = self.pitch0.val();
        self.dl_pitch[1].d.next = self.pitch1.val();
        self.dl_slice[0].d.next = self.slice0.val();
        self.dl_slice[1].d.next = self.slice1.val();
        self.dl_bpp.clock.next = self.clock.val();
        self.dl_bpp.en.next = self.e_q.q.val();
        self.dl_bpp.d.next = self.bpp_log2.val();
        self.fl.next = bits::<5>(0);
        if self.qok.val() {
            self.fl.next = self.fl.val() | bits::<5>(1);
        }
        if self.linear.val() {
            self.fl.next = self.fl.val() | bits::<5>(2);
        }
        if self.lin2d.val() {
            self.fl.next = self.fl.val() | bits::<5>(4);
        }
        if self.h2d.val() {
            self.fl.next = self.fl.val() | bits::<5>(8);
        }
        if self.trilin.val() {
            self.fl.next = self.fl.val() | bits::<5>(16);
        }
        self.dl_flags.clock.next = self.clock.val();
        self.dl_flags.en.next = self.e_q.q.val();
        self.dl_flags.d.next = self.fl.val();
        // The last register of each line, one copy per tap block.
        for t in 0..8 {
            self.tc_lay[t].clock.next = self.clock.val();
            self.tc_lay[t].en.next = self.e_tp[t].q.val();
            self.tc_lay[t].d.next = self.dl_lay[t / 2].q.val();
            self.tc_start[t].clock.next = self.clock.val();
            self.tc_start[t].en.next = self.e_tp[t].q.val();
            self.tc_start[t].d.next = self.dl_start[t % 2].q.val();
            self.tc_pitch[t].clock.next = self.clock.val();
            self.tc_pitch[t].en.next = self.e_tp[t].q.val();
            self.tc_pitch[t].d.next = self.dl_pitch[t % 2].q.val();
            self.tc_slice[t].clock.next = self.clock.val();
            self.tc_slice[t].en.next = self.e_tp[t].q.val();
            self.tc_slice[t].d.next = self.dl_slice[t % 2].q.val();
            self.tc_bpp[t].clock.next = self.clock.val();
            self.tc_bpp[t].en.next = self.e_tp[t].q.val();
            self.tc_bpp[t].d.next = self.dl_bpp.q.val();
            self.tc_flags[t].clock.next = self.clock.val();
            self.tc_flags[t].en.next = self.e_tp[t].q.val();
            self.tc_flags[t].d.next = self.dl_flags.q.val();
            self.qok_d[t].next = self.tc_flags[t].q.val().get_bit(0);
            self.linear_d[t].next = self.tc_flags[t].q.val().get_bit(1);
            self.lin2d_d[t].next = self.tc_flags[t].q.val().get_bit(2);
            self.h2d_d[t].next = self.tc_flags[t].q.val().get_bit(3);
            self.trilin_d[t].next = self.tc_flags[t].q.val().get_bit(4);
            self.en_u[2 * t].next = true;
            self.en_u[2 * t + 1].next = self.linear_d[t].val();
            self.en_v[2 * t].next = true;
            self.en_v[2 * t + 1].next = self.lin2d_d[t].val();
        }
        for l in 0..4 {
            self.en_l[2 * l].next = true;
            self.en_l[2 * l + 1].next = self.trilin_d[2 * l + 1].val();
        }

        // After the axes' registers: footprint, taps, slots, weights.
        for l in 0..4 {
            for lv in 0..2 {
                self.iu[4 * l + 2 * lv].next = self.ax[4 * l + 2 * lv].i0.val();
                self.iu[4 * l + 2 * lv + 1].next = self.ax[4 * l + 2 * lv].i1.val();
                self.bu[4 * l + 2 * lv].next = self.ax[4 * l + 2 * lv].b0.val();
                self.bu[4 * l + 2 * lv + 1].next = self.ax[4 * l + 2 * lv].b1.val();
                self.ju[4 * l + 2 * lv].next = self.ax[4 * l + 2 * lv + 1].i0.val();
                self.ju[4 * l + 2 * lv + 1].next = self.ax[4 * l + 2 * lv + 1].i1.val();
                self.jb[4 * l + 2 * lv].next = self.ax[4 * l + 2 * lv + 1].b0.val();
                self.jb[4 * l + 2 * lv + 1].next = self.ax[4 * l + 2 * lv + 1].b1.val();
                if !self.h2d_d[2 * l + lv].val() {
                    self.ju[4 * l + 2 * lv].next = bits::<32>(0);
                    self.ju[4 * l + 2 * lv + 1].next = bits::<32>(0);
                    self.jb[4 * l + 2 * lv].next = false;
                    self.jb[4 * l + 2 * lv + 1].next = false;
                }
                // Tap addresses of the lane at the level.
                self.tp[2 * l + lv].clock.next = self.clock.val();
                self.tp[2 * l + lv].en.next = self.e_tp[2 * l + lv].q.val();
                self.tp[2 * l + lv].i0.next = self.iu[4 * l + 2 * lv].val().get_bits::<16>(0);
                self.tp[2 * l + lv].i1.next = self.iu[4 * l + 2 * lv + 1].val().get_bits::<16>(0);
                self.tp[2 * l + lv].j0.next = self.ju[4 * l + 2 * lv].val().get_bits::<16>(0);
                self.tp[2 * l + lv].j1.next = self.ju[4 * l + 2 * lv + 1].val().get_bits::<16>(0);
                self.tp[2 * l + lv].layer.next = self.tc_lay[2 * l + lv].q.val();
                self.tp[2 * l + lv].bpp_log2.next = self.tc_bpp[2 * l + lv].q.val();
                self.tp[2 * l + lv].start.next = self.tc_start[2 * l + lv].q.val();
                self.tp[2 * l + lv].pitch.next = self.tc_pitch[2 * l + lv].q.val();
                self.tp[2 * l + lv].slice.next = self.tc_slice[2 * l + lv].q.val();
                self.ta[8 * l + 4 * lv].next = self.tp[2 * l + lv].addr0.val();
                self.ta[8 * l + 4 * lv + 1].next = self.tp[2 * l + lv].addr1.val();
                self.ta[8 * l + 4 * lv + 2].next = self.tp[2 * l + lv].addr2.val();
                self.ta[8 * l + 4 * lv + 3].next = self.tp[2 * l + lv].addr3.val();
                self.tt[8 * l + 4 * lv].next = self.tp[2 * l + lv].tile0.val();
                self.tt[8 * l + 4 * lv + 1].next = self.tp[2 * l + lv].tile1.val();
                self.tt[8 * l + 4 * lv + 2].next = self.tp[2 * l + lv].tile2.val();
                self.tt[8 * l + 4 * lv + 3].next = self.tp[2 * l + lv].tile3.val();
            }

            // Slots 8·lane + 4·level + 2·b + a: u texel a, v texel b.
            for lv in 0..2 {
                for b in 0..2 {
                    for a in 0..2 {
                        self.bord[8 * l + 4 * lv + 2 * b + a].next =
                            self.bu[4 * l + 2 * lv + a].val() | self.jb[4 * l + 2 * lv + b].val();
                        self.valid[8 * l + 4 * lv + 2 * b + a].next = self.qok_d[2 * l + lv].val()
                            & self.en_u[4 * l + 2 * lv + a].val()
                            & self.en_v[4 * l + 2 * lv + b].val()
                            & self.en_l[2 * l + lv].val();
                        self.dl_bord[8 * l + 4 * lv + 2 * b + a].clock.next = self.clock.val();
                        self.dl_bord[8 * l + 4 * lv + 2 * b + a].en.next =
                            self.e_tp[2 * l + lv].q.val();
                        self.dl_bord[8 * l + 4 * lv + 2 * b + a].d.next =
                            self.bord[8 * l + 4 * lv + 2 * b + a].val();
                        self.taddr[8 * l + 4 * lv + 2 * b + a].next =
                            self.ta[8 * l + 4 * lv + 2 * b + a].val();
                        if self.dl_bord[8 * l + 4 * lv + 2 * b + a].q.val() {
                            self.taddr[8 * l + 4 * lv + 2 * b + a].next = bits::<48>(0);
                        }
                        self.r2_i[8 * l + 4 * lv + 2 * b + a].d.next =
                            self.iu[4 * l + 2 * lv + a].val();
                        self.r2_j[8 * l + 4 * lv + 2 * b + a].d.next =
                            self.ju[4 * l + 2 * lv + b].val();
                    }
                }
            }

            // Weights and .LC clamp (with the flags of the lane's level-0 tap block).
            self.wts[l].next = self.ax[4 * l].w.val();
            if self.h2d_d[2 * l].val() {
                self.wts[l].next = self.wts[l].val() | (self.ax[4 * l + 1].w.val() << 8);
            }
            if self.trilin_d[2 * l].val() {
                self.wts[l].next = self.wts[l].val() | (self.ax[4 * l + 2].w.val() << 16);
                if self.h2d_d[2 * l].val() {
                    self.wts[l].next = self.wts[l].val() | (self.ax[4 * l + 3].w.val() << 24);
                }
            }
            self.lcm[l].next = self.dl_lc[l].q.val();
            if !self.qok_d[2 * l].val() {
                self.wts[l].next = bits::<32>(0);
                self.lcm[l].next = bits::<12>(0);
            }
        }

        // Stage 2 registers (slot 4·t + m with the enable copy of tap block t).
        for t in 0..8 {
            for m in 0..4 {
                self.r2_addr[4 * t + m].d.next = self.taddr[4 * t + m].val();
                self.r2_tile[4 * t + m].d.next = self.tt[4 * t + m].val();
                self.r2_border[4 * t + m].d.next = self.bord[4 * t + m].val();
                self.r2_req[4 * t + m].d.next =
                    self.valid[4 * t + m].val() & !self.bord[4 * t + m].val();
                self.r2_i[4 * t + m].clock.next = self.clock.val();
                self.r2_i[4 * t + m].en.next = self.e_tp[t].q.val();
                self.r2_j[4 * t + m].clock.next = self.clock.val();
                self.r2_j[4 * t + m].en.next = self.e_tp[t].q.val();
                self.r2_addr[4 * t + m].clock.next = self.clock.val();
                self.r2_addr[4 * t + m].en.next = self.e_tp[t].q.val();
                self.r2_tile[4 * t + m].clock.next = self.clock.val();
                self.r2_tile[4 * t + m].en.next = self.e_tp[t].q.val();
                self.r2_border[4 * t + m].clock.next = self.clock.val();
                self.r2_border[4 * t + m].en.next = self.e_tp[t].q.val();
                self.r2_req[4 * t + m].clock.next = self.clock.val();
                self.r2_req[4 * t + m].en.next = self.e_tp[t].q.val();
                self.i[4 * t + m].next = self.r2_i[4 * t + m].q.val();
                self.j[4 * t + m].next = self.r2_j[4 * t + m].q.val();
                self.addr[4 * t + m].next = self.r2_addr[4 * t + m].q.val();
                self.tile[4 * t + m].next = self.r2_tile[4 * t + m].q.val();
                self.border[4 * t + m].next = self.r2_border[4 * t + m].q.val();
                self.req[4 * t + m].next = self.r2_req[4 * t + m].q.val();
            }
        }
        for l in 0..4 {
            self.r2_layer[l].clock.next = self.clock.val();
            self.r2_layer[l].en.next = self.e_lane[l].q.val();
            self.r2_layer[l].d.next = self.tc_lay[2 * l].q.val();
            self.r2_w[l].clock.next = self.clock.val();
            self.r2_w[l].en.next = self.e_lane[l].q.val();
            self.r2_w[l].d.next = self.wts[l].val();
            self.r2_lc[l].clock.next = self.clock.val();
            self.r2_lc[l].en.next = self.e_lane[l].q.val();
            self.r2_lc[l].d.next = self.lcm[l].val();
            self.r2_lambda[l].clock.next = self.clock.val();
            self.r2_lambda[l].en.next = self.e_lane[l].q.val();
            self.r2_lambda[l].d.next = self.dl_lambda[l].q.val();
            self.layer[l].next = self.r2_layer[l].q.val();
            self.w[l].next = self.r2_w[l].q.val();
            self.lc_q[l].next = self.r2_lc[l].q.val();
            self.lambda_q[l].next = self.r2_lambda[l].q.val();
        }
    }
}
