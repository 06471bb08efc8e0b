//! Stage 1 of the texture address pipeline, the per-quad part: texture header and sampler
//! decode, validation, level clamp and level layout, TXQ sizes and tap count (see
//! `docs/units/texaddr.md`; the faults follow NVIDIA's SASS TXD and AMD's RDNA ISA image
//! instructions, TXQ Gallium's TGSI).
//!
//! # Ports
//! Inputs: from [`super::TxdDecode`] `fault0` (the decoder's fault code), `p2d`, `txq`, `trilin`,
//! `level`, `level1`, `frac`, `warn`, `tag`; the descriptor read port's `hdr[4]` (header words)
//! and `smp` (sampler word); `clock` and `adv_next` (the unit's advance of the next clock,
//! registered in the stage's enable copies).
//! Combinational outputs (the quad's state for [`super::AddrStage`], same cycle): `qok`
//! (no fault and not TXQ: the quad samples), `linear`, `unnorm`, `wrap_s`, `wrap_t`, `h2d` (a 2D
//! texture), `lin2d` (bilinear in 2D), `bpp_log2`, `lmax` (the last array layer, 0 without
//! layers), and from [`LevelLayout`] the sizes `w0`, `h0`, `w1`, `h1`, first-texel addresses
//! `start0`, `start1`, pitches `pitch0`, `pitch1` and layer sizes `slice0`, `slice1` of the two
//! clamped levels.
//! Registered outputs (stage-2 registers, advancing with the unit): `tag_q`, `fault_q`, `ntaps_q`
//! (taps per level 1, 2, 4; 0 unless `qok`), `trilin_q` (trilinear and `qok`), `frac_q` (0 unless
//! `trilin_q`), `txq_q`, `sparse_q`, `l0_q`, `l1_q` (the clamped levels), `warn_q`, `size_q[4]`
//! (TXQ: width, height, layers, level count; zeros when not a TXQ or after a fault).
//!
//! # Timing
//! [`DescStage::new`]'s `header_cut` (0 or 1) enabled clocks from the inputs to every output:
//! cut H registers the decoded header, sampler and validation's inputs (the header words' nonzero
//! bits, the bad-field and dimension tests; the fault code is decided after it), sizes, clamped
//! levels, the quad's flags before the level layout, TXQ sizes and tap count. From there
//! combinational to the combinational outputs, except `start0` and `start1`, the
//! long path, which come [`DescStage::new`]'s `layout_cuts` enabled clocks later (0: combinational),
//! `slice0` and `slice1`, which come [`LevelLayout::slice_stages_at`]`(layout_cuts)` clocks
//! later, and the two levels' sizes and pitches (`w0`, `h0`, `w1`, `h1`, `pitch0`, `pitch1`),
//! which come [`LevelLayout::size_stages_at`]`(layout_cuts)` (0…2, the layout's cuts S and S2)
//! clocks later; one register stage to the `_q` outputs: latency 1 + `header_cut`.
//!
//! # What it computes
//! Header: words `0` and `1[15:0]` the base address, `1[18:16]` log2 bytes per texel, `1[21:19]`
//! the dimension (0 1D, 1 2D, 4 1D array, 5 2D array), `1[22]` sparse, `1[27:24]` levels − 1,
//! `2[14:0]` width − 1, `2[30:16]` height − 1, `3[15:0]` layers − 1. Sampler: `[2:0]` wrap s,
//! `[5:3]` wrap t, `[6]` linear, `[7]` unnormalized. Faults in priority order: the decoder's,
//! 4 unbound (an all-zero header), 5 a bad field (bytes per texel above 16, a wrap code above 4),
//! 6 a dimension other than 1D/2D (arrays included) or a coordinate count that does not match it.

use super::{LevelLayout, LevelOnes};
use crate::common::fp::Retime;
use crate::common::EnableCopy;
use rust_hdl::prelude::*;

crate::settled_block! {
/// Descriptor stage. See the module documentation.
#[derive(Clone, Debug)]
pub struct DescStage {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance of the next clock (the unit's stall when low), into the enable copies.
    pub adv_next: Signal<In, Bit>,
    /// Transaction id.
    pub tag: Signal<In, Bits<16>>,
    /// Decoder fault code.
    pub fault0: Signal<In, Bits<3>>,
    /// paramA gives two coordinates.
    pub p2d: Signal<In, Bit>,
    /// TXQ.
    pub txq: Signal<In, Bit>,
    /// Trilinear.
    pub trilin: Signal<In, Bit>,
    /// Level (level0).
    pub level: Signal<In, Bits<4>>,
    /// Second level.
    pub level1: Signal<In, Bits<4>>,
    /// Mip fraction.
    pub frac: Signal<In, Bits<8>>,
    /// LOD warning, bit per lane.
    pub warn: Signal<In, Bits<4>>,
    /// Header words.
    pub hdr: [Signal<In, Bits<32>>; 4],
    /// Sampler word.
    pub smp: Signal<In, Bits<8>>,
    /// The quad samples (no fault, not TXQ).
    pub qok: Signal<Out, Bit>,
    /// Bilinear filter.
    pub linear: Signal<Out, Bit>,
    /// Unnormalized coordinates.
    pub unnorm: Signal<Out, Bit>,
    /// Wrap mode of s.
    pub wrap_s: Signal<Out, Bits<3>>,
    /// Wrap mode of t.
    pub wrap_t: Signal<Out, Bits<3>>,
    /// 2D texture.
    pub h2d: Signal<Out, Bit>,
    /// Bilinear in 2D.
    pub lin2d: Signal<Out, Bit>,
    /// log2 bytes per texel.
    pub bpp_log2: Signal<Out, Bits<3>>,
    /// Last array layer.
    pub lmax: Signal<Out, Bits<16>>,
    /// Width of l0.
    pub w0: Signal<Out, Bits<16>>,
    /// Height of l0.
    pub h0: Signal<Out, Bits<16>>,
    /// Width of l1.
    pub w1: Signal<Out, Bits<16>>,
    /// Height of l1.
    pub h1: Signal<Out, Bits<16>>,
    /// First texel of l0.
    pub start0: Signal<Out, Bits<48>>,
    /// First texel of l1.
    pub start1: Signal<Out, Bits<48>>,
    /// Row pitch of l0.
    pub pitch0: Signal<Out, Bits<20>>,
    /// Row pitch of l1.
    pub pitch1: Signal<Out, Bits<20>>,
    /// Layer size of l0.
    pub slice0: Signal<Out, Bits<36>>,
    /// Layer size of l1.
    pub slice1: Signal<Out, Bits<36>>,
    /// Transaction id (registered).
    pub tag_q: Signal<Out, Bits<16>>,
    /// Fault code (registered).
    pub fault_q: Signal<Out, Bits<3>>,
    /// Taps per level (registered).
    pub ntaps_q: Signal<Out, Bits<3>>,
    /// Trilinear (registered).
    pub trilin_q: Signal<Out, Bit>,
    /// Mip fraction (registered).
    pub frac_q: Signal<Out, Bits<8>>,
    /// TXQ (registered).
    pub txq_q: Signal<Out, Bit>,
    /// Sparse texture (registered).
    pub sparse_q: Signal<Out, Bit>,
    /// First level (registered).
    pub l0_q: Signal<Out, Bits<4>>,
    /// Second level (registered).
    pub l1_q: Signal<Out, Bits<4>>,
    /// LOD warning (registered).
    pub warn_q: Signal<Out, Bits<4>>,
    /// TXQ sizes (registered).
    pub size_q: [Signal<Out, Bits<32>>; 4],
    // Header decode and validation (before cut H).
    nz: Signal<Local, Bits<4>>,
    hdim: Signal<Local, Bits<3>>,
    lm1_d: Signal<Local, Bits<4>>,
    h1d: Signal<Local, Bit>,
    h2d_d: Signal<Local, Bit>,
    bad: Signal<Local, Bit>,
    mismatch: Signal<Local, Bit>,
    lmax_d: Signal<Local, Bits<16>>,
    layers_d: Signal<Local, Bits<17>>,
    width_d: Signal<Local, Bits<16>>,
    height_d: Signal<Local, Bits<16>>,
    l0_d: Signal<Local, Bits<4>>,
    l1_d: Signal<Local, Bits<4>>,
    lvl_ok: Signal<Local, Bit>,
    /// The validation's inputs, decided after cut H: {the header words' nonzero bits [3:0],
    /// bad[4], mismatch[5]}.
    chk0: Signal<Local, Bits<6>>,
    /// {fault0[2:0], txq[3], level ≤ lm1[4], the sampler word [12:5] (wrap_s[7:5], wrap_t[10:8],
    /// linear[11], unnorm[12]), h2d[13], bpp_log2[16:14], sparse[17], lm1[21:18], l0[25:22],
    /// l1[29:26], level[1:0] at [31:30] (its high bits act before cut H, `txq_pre`), trilin[32],
    /// frac[40:33], warn[44:41], lmax[60:45]}.
    ctl0: Signal<Local, Bits<61>>,
    /// {width[15:0], height[31:16], layers[48:32]}.
    geom0: Signal<Local, Bits<49>>,
    base0: Signal<Local, Bits<48>>,
    /// Cut H: the decoded header (0 or 1 register).
    rh_ctl: Retime<Bits<61>>,
    /// TXQ: {width[15:0], height[31:16]} shifted by 4·level[3:2], the first half of the TXQ
    /// level's sizes (the second, by level[1:0], comes after cut H).
    txq_pre: Signal<Local, Bits<32>>,
    rh_txq: Retime<Bits<32>>,
    /// The level sizes' clamps of width and height, decided before cut H and registered with
    /// the sizes: {width's [14:0], height's [29:15]}.
    ones: [LevelOnes; 2],
    rh_ones: Retime<Bits<30>>,
    rh_chk: Retime<Bits<6>>,
    rh_geom: Retime<Bits<49>>,
    rh_base: Retime<Bits<48>>,
    rh_tag: Retime<Bits<16>>,
    // After cut H.
    chk: Signal<Local, Bits<6>>,
    unbound: Signal<Local, Bit>,
    fault: Signal<Local, Bits<3>>,
    txq_h: Signal<Local, Bit>,
    txq_hit: Signal<Local, Bit>,
    sparse: Signal<Local, Bit>,
    lm1: Signal<Local, Bits<4>>,
    l0: Signal<Local, Bits<4>>,
    l1: Signal<Local, Bits<4>>,
    /// The TXQ level's low two bits: its high two shifted the sizes before cut H (`txq_pre`).
    level_h: Signal<Local, Bits<2>>,
    trilin_h: Signal<Local, Bit>,
    frac_h: Signal<Local, Bits<8>>,
    warn_h: Signal<Local, Bits<4>>,
    width: Signal<Local, Bits<16>>,
    height: Signal<Local, Bits<16>>,
    layers: Signal<Local, Bits<17>>,
    ntaps: Signal<Local, Bits<3>>,
    size: [Signal<Local, Bits<32>>; 4],
    txq_wd: Signal<Local, Bits<16>>,
    txq_ht: Signal<Local, Bits<16>>,
    ctl1: Signal<Local, Bits<32>>,
    layout: LevelLayout,
    /// {frac[7:0], l0[11:8], l1[15:12], tri[16], txq[17], warn[21:18], sparse[22], fault[25:23],
    /// ntaps[28:26]}.
    r2_ctl: Retime<Bits<29>>,
    r2_tag: Retime<Bits<16>>,
    r2_size: [Retime<Bits<32>>; 4],
    /// Enable copies: cut H, the stage-2 registers.
    e_hdr: EnableCopy,
    e_out: EnableCopy,
}
}

impl Default for DescStage {
    fn default() -> Self {
        Self::new(0, 0)
    }
}

impl DescStage {
    /// The stage with `header_cut` (0 or 1) registers after the header decode and validation
    /// (cut H: every output comes that many clocks later) and `layout_cuts` registers on the
    /// level layout's first-texel path ([`LevelLayout::new`]): `start0` and `start1` come that
    /// many clocks after the other combinational outputs.
    pub fn new(header_cut: usize, layout_cuts: usize) -> Self {
        assert!(header_cut <= 1, "DescStage: cut H has 0 or 1 register");
        use std::array::from_fn;
        Self {
            settle: crate::common::settle::SettleState::new(true),
            clock: Default::default(),
            adv_next: Default::default(),
            tag: Default::default(),
            fault0: Default::default(),
            p2d: Default::default(),
            txq: Default::default(),
            trilin: Default::default(),
            level: Default::default(),
            level1: Default::default(),
            frac: Default::default(),
            warn: Default::default(),
            hdr: Default::default(),
            smp: Default::default(),
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
            tag_q: Default::default(),
            fault_q: Default::default(),
            ntaps_q: Default::default(),
            trilin_q: Default::default(),
            frac_q: Default::default(),
            txq_q: Default::default(),
            sparse_q: Default::default(),
            l0_q: Default::default(),
            l1_q: Default::default(),
            warn_q: Default::default(),
            size_q: Default::default(),
            nz: Default::default(),
            hdim: Default::default(),
            lm1_d: Default::default(),
            h1d: Default::default(),
            h2d_d: Default::default(),
            bad: Default::default(),
            mismatch: Default::default(),
            lmax_d: Default::default(),
            layers_d: Default::default(),
            width_d: Default::default(),
            height_d: Default::default(),
            l0_d: Default::default(),
            l1_d: Default::default(),
            lvl_ok: Default::default(),
            chk0: Default::default(),
            ctl0: Default::default(),
            geom0: Default::default(),
            base0: Default::default(),
            rh_ctl: Retime::new(header_cut),
            txq_pre: Default::default(),
            rh_txq: Retime::new(header_cut),
            ones: Default::default(),
            rh_ones: Retime::new(header_cut),
            rh_chk: Retime::new(header_cut),
            rh_geom: Retime::new(header_cut),
            rh_base: Retime::new(header_cut),
            rh_tag: Retime::new(header_cut),
            chk: Default::default(),
            unbound: Default::default(),
            fault: Default::default(),
            txq_h: Default::default(),
            txq_hit: Default::default(),
            sparse: Default::default(),
            lm1: Default::default(),
            l0: Default::default(),
            l1: Default::default(),
            level_h: Default::default(),
            trilin_h: Default::default(),
            frac_h: Default::default(),
            warn_h: Default::default(),
            width: Default::default(),
            height: Default::default(),
            layers: Default::default(),
            ntaps: Default::default(),
            size: Default::default(),
            txq_wd: Default::default(),
            txq_ht: Default::default(),
            ctl1: Default::default(),
            layout: LevelLayout::new(layout_cuts),
            r2_ctl: Retime::new(1),
            r2_tag: Retime::new(1),
            r2_size: from_fn(|_| Retime::new(1)),
            e_hdr: Default::default(),
            e_out: Default::default(),
        }
    }
}

impl Logic for DescStage {
    #[hdl_gen]
    fn update(&mut self) {
        self.e_hdr.clock.next = self.clock.val();
        self.e_hdr.d.next = self.adv_next.val();
        self.e_out.clock.next = self.clock.val();
        self.e_out.d.next = self.adv_next.val();
        // Header decode and validation, into cut H.
        // The header words' nonzero bits (all four zero: unbound).
        self.nz.next = bits::<4>(0)
            .replace_bit(0, self.hdr[0].val().any())
            .replace_bit(1, self.hdr[1].val().any())
            .replace_bit(2, self.hdr[2].val().any())
            .replace_bit(3, self.hdr[3].val().any());
        self.hdim.next = self.hdr[1].val().get_bits::<3>(19);
        self.lm1_d.next = self.hdr[1].val().get_bits::<4>(24);
        self.h1d.next = (self.hdim.val() == bits::<3>(0)) | (self.hdim.val() == bits::<3>(4));
        self.h2d_d.next = (self.hdim.val() == bits::<3>(1)) | (self.hdim.val() == bits::<3>(5));
        self.bad.next = (self.hdr[1].val().get_bits::<3>(16) > bits::<3>(4))
            | (self.smp.val().get_bits::<3>(0) > bits::<3>(4))
            | (self.smp.val().get_bits::<3>(3) > bits::<3>(4));
        self.mismatch.next =
            !(self.h1d.val() | self.h2d_d.val()) | (self.h2d_d.val() != self.p2d.val());
        self.chk0.next = bit_cast::<6, 4>(self.nz.val())
            .replace_bit(4, self.bad.val())
            .replace_bit(5, self.mismatch.val());
        self.lmax_d.next = bits::<16>(0);
        self.layers_d.next = bits::<17>(1);
        if self.hdim.val().get_bit(2) {
            self.lmax_d.next = self.hdr[3].val().get_bits::<16>(0);
            self.layers_d.next = bit_cast::<17, 16>(self.lmax_d.val()) + bits::<17>(1);
        }
        self.l0_d.next = self.level.val();
        if self.level.val() > self.lm1_d.val() {
            self.l0_d.next = self.lm1_d.val();
        }
        self.l1_d.next = self.l0_d.val();
        if self.trilin.val() {
            self.l1_d.next = self.level1.val();
            if self.level1.val() > self.lm1_d.val() {
                self.l1_d.next = self.lm1_d.val();
            }
        }
        self.width_d.next = bit_cast::<16, 15>(self.hdr[2].val().get_bits::<15>(0)) + bits::<16>(1);
        self.height_d.next = bits::<16>(1);
        if self.h2d_d.val() {
            self.height_d.next =
                bit_cast::<16, 15>(self.hdr[2].val().get_bits::<15>(16)) + bits::<16>(1);
        }
        self.lvl_ok.next = self.level.val() <= self.lm1_d.val();
        self.ctl0.next = (bit_cast::<61, 3>(self.fault0.val())
            | (bit_cast::<61, 8>(self.smp.val()) << 5)
            | (bit_cast::<61, 3>(self.hdr[1].val().get_bits::<3>(16)) << 14)
            | (bit_cast::<61, 4>(self.lm1_d.val()) << 18)
            | (bit_cast::<61, 4>(self.l0_d.val()) << 22)
            | (bit_cast::<61, 4>(self.l1_d.val()) << 26)
            | (bit_cast::<61, 2>(self.level.val().get_bits::<2>(0)) << 30)
            | (bit_cast::<61, 8>(self.frac.val()) << 33)
            | (bit_cast::<61, 4>(self.warn.val()) << 41)
            | (bit_cast::<61, 16>(self.lmax_d.val()) << 45))
            .replace_bit(3, self.txq.val())
            .replace_bit(4, self.lvl_ok.val())
            .replace_bit(13, self.h2d_d.val())
            .replace_bit(17, self.hdr[1].val().get_bit(22))
            .replace_bit(32, self.trilin.val());
        self.geom0.next = bit_cast::<49, 16>(self.width_d.val())
            | (bit_cast::<49, 16>(self.height_d.val()) << 16)
            | (bit_cast::<49, 17>(self.layers_d.val()) << 32);
        self.base0.next = bit_cast::<48, 32>(self.hdr[0].val())
            | (bit_cast::<48, 16>(self.hdr[1].val().get_bits::<16>(0)) << 32);
        self.rh_ctl.clock.next = self.clock.val();
        self.rh_ctl.en.next = self.e_hdr.q.val();
        self.rh_ctl.d.next = self.ctl0.val();
        self.rh_chk.clock.next = self.clock.val();
        self.rh_chk.en.next = self.e_hdr.q.val();
        self.rh_chk.d.next = self.chk0.val();
        self.rh_geom.clock.next = self.clock.val();
        self.rh_geom.en.next = self.e_hdr.q.val();
        self.rh_geom.d.next = self.geom0.val();
        self.rh_base.clock.next = self.clock.val();
        self.rh_base.en.next = self.e_hdr.q.val();
        self.rh_base.d.next = self.base0.val();
        self.txq_pre.next =
            bit_cast::<32, 16>(self.width_d.val() >> (self.level.val() & bits::<4>(12)))
                | (bit_cast::<32, 16>(self.height_d.val() >> (self.level.val() & bits::<4>(12)))
                    << 16);
        self.rh_txq.clock.next = self.clock.val();
        self.rh_txq.en.next = self.e_hdr.q.val();
        self.rh_txq.d.next = self.txq_pre.val();
        self.ones[0].size.next = bit_cast::<17, 16>(self.width_d.val());
        self.ones[1].size.next = bit_cast::<17, 16>(self.height_d.val());
        self.rh_ones.clock.next = self.clock.val();
        self.rh_ones.en.next = self.e_hdr.q.val();
        self.rh_ones.d.next = bit_cast::<30, 15>(self.ones[0].ones.val())
            | (bit_cast::<30, 15>(self.ones[1].ones.val()) << 15);
        self.rh_tag.clock.next = self.clock.val();
        self.rh_tag.en.next = self.e_hdr.q.val();
        self.rh_tag.d.next = self.tag.val();

        // After cut H: the fault in priority order, and the quad's state.
        self.chk.next = self.rh_chk.q.val();
        self.unbound.next = !self.chk.val().get_bits::<4>(0).any();
        self.fault.next = self.rh_ctl.q.val().get_bits::<3>(0);
        if !self.rh_ctl.q.val().get_bits::<3>(0).any() {
            if self.chk.val().get_bit(5) {
                self.fault.next = bits::<3>(6);
            }
            if self.chk.val().get_bit(4) {
                self.fault.next = bits::<3>(5);
            }
            if self.unbound.val() {
                self.fault.next = bits::<3>(4);
            }
        }
        self.txq_h.next = self.rh_ctl.q.val().get_bit(3);
        self.txq_hit.next =
            self.txq_h.val() & !self.fault.val().any() & self.rh_ctl.q.val().get_bit(4);
        self.wrap_s.next = self.rh_ctl.q.val().get_bits::<3>(5);
        self.wrap_t.next = self.rh_ctl.q.val().get_bits::<3>(8);
        self.linear.next = self.rh_ctl.q.val().get_bit(11);
        self.unnorm.next = self.rh_ctl.q.val().get_bit(12);
        self.h2d.next = self.rh_ctl.q.val().get_bit(13);
        self.bpp_log2.next = self.rh_ctl.q.val().get_bits::<3>(14);
        self.sparse.next = self.rh_ctl.q.val().get_bit(17);
        self.lm1.next = self.rh_ctl.q.val().get_bits::<4>(18);
        self.l0.next = self.rh_ctl.q.val().get_bits::<4>(22);
        self.l1.next = self.rh_ctl.q.val().get_bits::<4>(26);
        self.level_h.next = self.rh_ctl.q.val().get_bits::<2>(30);
        self.trilin_h.next = self.rh_ctl.q.val().get_bit(32);
        self.frac_h.next = self.rh_ctl.q.val().get_bits::<8>(33);
        self.warn_h.next = self.rh_ctl.q.val().get_bits::<4>(41);
        self.lmax.next = self.rh_ctl.q.val().get_bits::<16>(45);
        self.width.next = self.rh_geom.q.val().get_bits::<16>(0);
        self.height.next = self.rh_geom.q.val().get_bits::<16>(16);
        self.layers.next = self.rh_geom.q.val().get_bits::<17>(32);
        self.qok.next = !self.fault.val().any() & !self.txq_h.val();

        // Level layout.
        self.layout.clock.next = self.clock.val();
        self.layout.adv_next.next = self.adv_next.val();
        self.layout.width.next = self.width.val();
        self.layout.height.next = self.height.val();
        self.layout.layers.next = self.layers.val();
        self.layout.halve.next = false;
        self.layout.ones_w.next = self.rh_ones.q.val().get_bits::<15>(0);
        self.layout.ones_h.next = self.rh_ones.q.val().get_bits::<15>(15);
        self.layout.ones_d.next = bits::<15>(0);
        self.layout.bpp_log2.next = self.bpp_log2.val();
        self.layout.base.next = self.rh_base.q.val();
        self.layout.l0.next = self.l0.val();
        self.layout.l1.next = self.l1.val();
        self.w0.next = self.layout.w0.val();
        self.h0.next = self.layout.h0.val();
        self.w1.next = self.layout.w1.val();
        self.h1.next = self.layout.h1.val();
        self.start0.next = self.layout.start0.val();
        self.start1.next = self.layout.start1.val();
        self.pitch0.next = self.layout.pitch0.val();
        self.pitch1.next = self.layout.pitch1.val();
        self.slice0.next = self.layout.slice0.val();
        self.slice1.next = self.layout.slice1.val();

        // TXQ: sizes of `level`, or zeros past the last level (the level count stays). The
        // sizes are shifts of their own, so that the level layout's cuts do not delay them: by
        // 4·level[3:2] in front of cut H, by level[1:0] after it.
        self.txq_wd.next = bits::<16>(1);
        if (self.rh_txq.q.val().get_bits::<16>(0) >> self.level_h.val()).any() {
            self.txq_wd.next = self.rh_txq.q.val().get_bits::<16>(0) >> self.level_h.val();
        }
        self.txq_ht.next = bits::<16>(1);
        if (self.rh_txq.q.val().get_bits::<16>(16) >> self.level_h.val()).any() {
            self.txq_ht.next = self.rh_txq.q.val().get_bits::<16>(16) >> self.level_h.val();
        }
        self.size[0].next = bits::<32>(0);
        self.size[1].next = bits::<32>(0);
        self.size[2].next = bits::<32>(0);
        if self.txq_hit.val() {
            self.size[0].next = bit_cast::<32, 16>(self.txq_wd.val());
            self.size[1].next = bit_cast::<32, 16>(self.txq_ht.val());
            self.size[2].next = bit_cast::<32, 17>(self.layers.val());
        }
        self.size[3].next = bits::<32>(0);
        if self.txq_h.val() & !self.fault.val().any() {
            self.size[3].next = bit_cast::<32, 4>(self.lm1.val()) + bits::<32>(1);
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

        // Stage 2 registers.
        self.ctl1.next = bit_cast::<32, 8>(self.frac_h.val())
            | (bit_cast::<32, 4>(self.l0.val()) << 8)
            | (bit_cast::<32, 4>(self.l1.val()) << 12)
            | (bit_cast::<32, 4>(self.warn_h.val()) << 18)
            | (bit_cast::<32, 3>(self.fault.val()) << 23)
            | (bit_cast::<32, 3>(self.ntaps.val()) << 26);
        if self.trilin_h.val() & self.qok.val() {
            self.ctl1.next = self.ctl1.val() | bits::<32>(1 << 16);
        } else {
            self.ctl1.next = self.ctl1.val() & bits::<32>(0xffff_ff00_u64);
        }
        if self.txq_h.val() {
            self.ctl1.next = self.ctl1.val() | bits::<32>(1 << 17);
        }
        if self.sparse.val() {
            self.ctl1.next = self.ctl1.val() | bits::<32>(1 << 22);
        }
        self.r2_ctl.clock.next = self.clock.val();
        self.r2_ctl.en.next = self.e_out.q.val();
        self.r2_ctl.d.next = self.ctl1.val().get_bits::<29>(0);
        self.r2_tag.clock.next = self.clock.val();
        self.r2_tag.en.next = self.e_out.q.val();
        self.r2_tag.d.next = self.rh_tag.q.val();
        for k in 0..4 {
            self.r2_size[k].clock.next = self.clock.val();
            self.r2_size[k].en.next = self.e_out.q.val();
            self.r2_size[k].d.next = self.size[k].val();
        }
        self.tag_q.next = self.r2_tag.q.val();
        self.frac_q.next = self.r2_ctl.q.val().get_bits::<8>(0);
        self.l0_q.next = self.r2_ctl.q.val().get_bits::<4>(8);
        self.l1_q.next = self.r2_ctl.q.val().get_bits::<4>(12);
        self.trilin_q.next = self.r2_ctl.q.val().get_bit(16);
        self.txq_q.next = self.r2_ctl.q.val().get_bit(17);
        self.warn_q.next = self.r2_ctl.q.val().get_bits::<4>(18);
        self.sparse_q.next = self.r2_ctl.q.val().get_bit(22);
        self.fault_q.next = self.r2_ctl.q.val().get_bits::<3>(23);
        self.ntaps_q.next = self.r2_ctl.q.val().get_bits::<3>(26);
        for k in 0..4 {
            self.size_q[k].next = self.r2_size[k].q.val();
        }
    }
}
