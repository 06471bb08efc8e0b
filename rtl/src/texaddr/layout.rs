//! Mip-level layout of the linear texture layout (see `docs/units/texaddr.md`): level sizes,
//! first-texel addresses, pitches and slice sizes of the two levels a quad touches.
//!
//! Ports: `clock`, `adv_next` (the advance of the next clock, registered in the block's own
//! enable copies; used with cuts only), `width`, `height` (1…32768; height 1 for
//! 1D), `layers` (1…65536; 1 for non-array), `halve` (a 3D texture: `layers` is the depth, halved
//! per level as max(1, d >> 1); the texture unit's volume layout), `bpp_log2` (0…4), `base` (48-bit
//! byte address), `l0`, `l1` (levels, already clamped), `ones_w`, `ones_h`, `ones_d` (bit k − 1:
//! the level-k size max(1, size >> k) is the clamp's 1, [`LevelOnes`] of `width`, `height` and
//! `layers`, decided where the enclosing unit can register them with the sizes) → `d0` (layers of l0), `w0`, `h0`, `w1`,
//! `h1` (level sizes max(1, size >> l)), `pitch0`, `pitch1` (w_l·bpp),
//! [`LevelLayout::size_stages`] enabled clocks after the inputs (0: combinational; 2 with cuts S and S2);
//! `slice0`, `slice1` (w_l·h_l·bpp), [`LevelLayout::slice_stages`] enabled clocks after the
//! inputs; and `start0`, `start1` (base + Σ_{k<l} align256(w_k·h_k·bpp·layers_k), modulo 2^48),
//! [`LevelLayout::stages`] enabled clocks after the inputs.
//!
//! The first-texel addresses are the long path: 15 level areas (16×16 products), 15 level volumes
//! (36×17 products, each two 18×17 partial products and their sum, which also rounds the volume
//! up to 256 bytes: ⌊v / 256⌋ + (v mod 256 ≠ 0) is one add with a carry-in), then per output a
//! masked sum of 16 terms (`base` and the rounded volumes of the levels below it, chosen by a
//! mask made from the level at the input) as a balanced tree four adders deep. Built with
//! [`LevelLayout::new`]`(cuts)`, `cuts` (0…[`LevelLayout::MAX_CUTS`]) registers go on that path
//! as [`LAYOUT_PLAN`] places them: after the 16 levels' sizes (cut F, in front of the area
//! products), after the area products (cut P, or the DSP slice's operand and
//! product registers), after the volume's partial products (the same two DSP registers), after
//! their texel-size shifts (cut R, in front of the rounding add), after the rounded volumes
//! (cut V), and after the tree's first, second and third levels (cuts T1, T2, T3).
//! Exact: every cut count gives the same values, `cuts` clocks later.
//!
//! Beside that path, the two levels' sizes are 16:1 selects of the 16 levels' sizes, and the layer
//! sizes products of their own of the selected sizes (a 16:1 select of 36-bit areas behind the
//! DSP slices was a long path of its own), with the area products' registers. At the last cut
//! count, cut S registers the 16 levels' sizes (and the levels and texel size) in front of the
//! selects, so that they are one clock of their own: `w0` … `pitch1` come one clock after the
//! inputs, the layer sizes one clock after the area products'.
//!
//! Cost: all 16 levels' sizes are formed every clock (17 16×16 and 30 18×17 products and two
//! 16-term trees of 48-bit adds). A texture header cache holding the level offsets would remove
//! this; the model computes them so that any header works without a setup step.

use crate::common::fp::{MulUReg, Retime};
use crate::common::EnableCopy;
use rust_hdl::prelude::*;

/// Where a [`LevelLayout`] puts its registers: the register stages after each piece of the
/// first-texel path, in path order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayoutCuts {
    /// After the 16 levels' sizes, in front of the area products (cut F: kept copies of the
    /// sizes, apart from cut S's): 0 or 1.
    pub front: usize,
    /// Cuts S and S2, beside the first-texel path: after the 16 levels' sizes (S) and after the
    /// selects by the level's low two bits (S2), before the rest of the selects of the two
    /// levels' sizes, pitches, layer counts and layer sizes: 0, 1 (S) or 2 (both). They move
    /// registers of the enclosing unit's delay line into the layout, so they add no stage to
    /// the path.
    pub sizes: usize,
    /// After the area products: 0, 1 (cut P, a register behind the products) or 2 (the DSP
    /// slice's operand and product registers, [`MulUReg`]).
    pub area: usize,
    /// After the volume's partial products: 0 or 2 (the DSP slice's registers).
    pub parts: usize,
    /// After the volume's texel-size shifts, in front of its rounding add (cut R): 0 or 1.
    pub round: usize,
    /// After the rounded volumes (cut V): 0 or 1.
    pub vol: usize,
    /// After the first, second and third tree levels (cuts T1, T2, T3): 0 or 1 each.
    pub tree: [usize; 3],
}

impl LayoutCuts {
    /// Register stages on the first-texel path (cut S is beside it).
    pub const fn stages(&self) -> usize {
        self.front
            + self.area
            + self.parts
            + self.round
            + self.vol
            + self.tree[0]
            + self.tree[1]
            + self.tree[2]
    }
}

const fn cuts(
    sizes: usize,
    front: usize,
    area: usize,
    parts: usize,
    round: usize,
    vol: usize,
    tree: [usize; 3],
) -> LayoutCuts {
    LayoutCuts {
        sizes,
        front,
        area,
        parts,
        round,
        vol,
        tree,
    }
}

/// What each cut count places ([`LevelLayout::new`]`(c)` uses `LAYOUT_PLAN[c]`, which has `c`
/// stages): V; P and V; then T2; then the volume's partial products on the DSP slices' registers
/// (in place of V); V again; T1; T3; the area products on the DSP slices' registers (in place
/// of P), with cuts S and S2 beside them; cut F; last cut R.
pub const LAYOUT_PLAN: [LayoutCuts; 11] = [
    cuts(0, 0, 0, 0, 0, 0, [0, 0, 0]),
    cuts(0, 0, 0, 0, 0, 1, [0, 0, 0]),
    cuts(0, 0, 1, 0, 0, 1, [0, 0, 0]),
    cuts(0, 0, 1, 0, 0, 1, [0, 1, 0]),
    cuts(0, 0, 1, 2, 0, 0, [0, 1, 0]),
    cuts(0, 0, 1, 2, 0, 1, [0, 1, 0]),
    cuts(0, 0, 1, 2, 0, 1, [1, 1, 0]),
    cuts(0, 0, 1, 2, 0, 1, [1, 1, 1]),
    cuts(2, 0, 2, 2, 0, 1, [1, 1, 1]),
    cuts(2, 1, 2, 2, 0, 1, [1, 1, 1]),
    cuts(2, 1, 2, 2, 1, 1, [1, 1, 1]),
];

crate::settled_block! {
/// Level layout. See the module documentation.
#[derive(Clone, Debug)]
pub struct LevelLayout {
    /// Clock (used with cuts only).
    pub clock: Signal<In, Clock>,
    /// Advance of the next clock (the enclosing unit's stall when low), into the enable copies.
    pub adv_next: Signal<In, Bit>,
    /// Width of level 0.
    pub width: Signal<In, Bits<16>>,
    /// Height of level 0.
    pub height: Signal<In, Bits<16>>,
    /// Layer count (a 3D texture's depth with `halve`).
    pub layers: Signal<In, Bits<17>>,
    /// Halve the layers per level (3D).
    pub halve: Signal<In, Bit>,
    /// log2 bytes per texel.
    pub bpp_log2: Signal<In, Bits<3>>,
    /// Level 0 address.
    pub base: Signal<In, Bits<48>>,
    /// First level.
    pub l0: Signal<In, Bits<4>>,
    /// Second level.
    pub l1: Signal<In, Bits<4>>,
    /// [`LevelOnes`] of `width`: bit k − 1 set when width >> k is 0 (level k's width is 1).
    pub ones_w: Signal<In, Bits<15>>,
    /// [`LevelOnes`] of `height`.
    pub ones_h: Signal<In, Bits<15>>,
    /// [`LevelOnes`] of `layers` (used with `halve`).
    pub ones_d: Signal<In, Bits<15>>,
    /// Layers of l0.
    pub d0: Signal<Out, Bits<17>>,
    /// Width of l0.
    pub w0: Signal<Out, Bits<16>>,
    /// Height of l0.
    pub h0: Signal<Out, Bits<16>>,
    /// Width of l1.
    pub w1: Signal<Out, Bits<16>>,
    /// Height of l1.
    pub h1: Signal<Out, Bits<16>>,
    /// First texel of l0 (after the cuts).
    pub start0: Signal<Out, Bits<48>>,
    /// First texel of l1 (after the cuts).
    pub start1: Signal<Out, Bits<48>>,
    /// Row pitch of l0.
    pub pitch0: Signal<Out, Bits<20>>,
    /// Row pitch of l1.
    pub pitch1: Signal<Out, Bits<20>>,
    /// Layer size of l0 (after cut P).
    pub slice0: Signal<Out, Bits<36>>,
    /// Layer size of l1 (after cut P).
    pub slice1: Signal<Out, Bits<36>>,
    wk: [Signal<Local, Bits<16>>; 16],
    hk: [Signal<Local, Bits<16>>; 16],
    dk: [Signal<Local, Bits<17>>; 16],
    sd0: Signal<Local, Bits<17>>,
    // The levels below l0 and below l1 (bit k: k < l), which select the tree's terms.
    above: [Signal<Local, Bits<15>>; 2],
    below: [Signal<Local, Bits<15>>; 2],
    // Cut S: the level sizes, and the levels and texel size their selects need.
    cs_w: [Retime<Bits<16>>; 16],
    cs_h: [Retime<Bits<16>>; 16],
    cs_d: [Retime<Bits<17>>; 16],
    cs_l0: Retime<Bits<4>>,
    cs_l1: Retime<Bits<4>>,
    cs_bpp: Retime<Bits<3>>,
    // The quarter selects (by the level's low two bits) and cut S2 after them.
    w0q: [Signal<Local, Bits<16>>; 4],
    h0q: [Signal<Local, Bits<16>>; 4],
    d0q: [Signal<Local, Bits<17>>; 4],
    w1q: [Signal<Local, Bits<16>>; 4],
    h1q: [Signal<Local, Bits<16>>; 4],
    c2_w0: [Retime<Bits<16>>; 4],
    c2_h0: [Retime<Bits<16>>; 4],
    c2_d0: [Retime<Bits<17>>; 4],
    c2_w1: [Retime<Bits<16>>; 4],
    c2_h1: [Retime<Bits<16>>; 4],
    c2_l0: Retime<Bits<2>>,
    c2_l1: Retime<Bits<2>>,
    c2_bpp: Retime<Bits<3>>,
    // Cut F: the sizes the area products take.
    cf_w: [Retime<Bits<16>>; 15],
    cf_h: [Retime<Bits<16>>; 15],
    area: [MulUReg<16, 16, 36>; 15],
    // Cut P: the level areas and layer counts of the 15 levels whose volume is added, and what
    // the sums and the layer sizes need, delayed beside the area products' own registers. The
    // layer counts are kept copies, one per level: without `halve` they are all the same value,
    // and one merged register would reach all 30 partial products across the die.
    cp_area: [Retime<Bits<36>>; 15],
    cp_dk: [Retime<Bits<17>>; 15],
    cp_bpp: Retime<Bits<3>>,
    cp_base: Retime<Bits<48>>,
    cp_below: [Retime<Bits<15>>; 2],
    // The rounded volumes, and what passes beside their partial products' registers.
    vol: [RoundedVolume; 15],
    cq_base: Retime<Bits<48>>,
    cq_below: [Retime<Bits<15>>; 2],
    // Cut V: the rounded volumes (as byte counts).
    cv_vol: [Retime<Bits<48>>; 15],
    cv_base: Retime<Bits<48>>,
    cv_below: [Retime<Bits<15>>; 2],
    // The two trees (x: start0, y: start1): terms and the sums of each level, with cuts T1, T2
    // and T3 after the first three levels.
    xt: [Signal<Local, Bits<48>>; 16],
    yt: [Signal<Local, Bits<48>>; 16],
    x1: [Signal<Local, Bits<48>>; 8],
    y1: [Signal<Local, Bits<48>>; 8],
    c1_x: [Retime<Bits<48>>; 8],
    c1_y: [Retime<Bits<48>>; 8],
    x2: [Signal<Local, Bits<48>>; 4],
    y2: [Signal<Local, Bits<48>>; 4],
    c2_x: [Retime<Bits<48>>; 4],
    c2_y: [Retime<Bits<48>>; 4],
    x3: [Signal<Local, Bits<48>>; 2],
    y3: [Signal<Local, Bits<48>>; 2],
    c3_x: [Retime<Bits<48>>; 2],
    c3_y: [Retime<Bits<48>>; 2],
    sw0: Signal<Local, Bits<16>>,
    sh0: Signal<Local, Bits<16>>,
    sw1: Signal<Local, Bits<16>>,
    sh1: Signal<Local, Bits<16>>,
    // The layer sizes: the two levels' areas, their own products of the selected sizes, with
    // the area products' registers.
    slice_area: [MulUReg<16, 16, 36>; 2],
    cp_slice: [Retime<Bits<36>>; 2],
    sl_bpp: Retime<Bits<3>>,
    /// The level numbers 1…15 as constants.
    kidx: [Constant<Bits<4>>; 15],
    /// The quarters 1…3 as constants.
    qidx: [Constant<Bits<2>>; 3],
    /// Enable copies: one per level (its sizes, area and volume registers), one per pair of
    /// first-level tree sums (and the sums above them), one per quarter select, one for the rest.
    e_lvl: [EnableCopy; 16],
    e_sum: [EnableCopy; 8],
    e_sel: [EnableCopy; 4],
    e_misc: EnableCopy,
}
}

impl Default for LevelLayout {
    fn default() -> Self {
        Self::new(0)
    }
}

impl LevelLayout {
    /// Largest cut count [`LevelLayout::new`] accepts.
    pub const MAX_CUTS: usize = LAYOUT_PLAN.len() - 1;

    /// The layout with `cuts` (0…[`LevelLayout::MAX_CUTS`]) registers on the first-texel path, placed
    /// by [`LAYOUT_PLAN`].
    pub fn new(cuts: usize) -> Self {
        use std::array::from_fn;
        assert!(
            cuts <= Self::MAX_CUTS,
            "level layout: {cuts} cuts (0…{})",
            Self::MAX_CUTS
        );
        let plan = LAYOUT_PLAN[cuts];
        assert!(
            plan.sizes <= 2
                && plan.front <= 1
                && plan.area <= 2
                && plan.parts != 1
                && plan.parts <= 2
                && plan.round <= 1
                && (plan.round == 0 || plan.parts == 2)
                && plan.vol <= 1,
            "level layout: {plan:?}"
        );
        let area_dsp = plan.area == 2;
        let parts_dsp = plan.parts == 2;
        let [t1, t2, t3] = plan.tree;
        let (s1, s2) = (plan.sizes.min(1), plan.sizes - plan.sizes.min(1));
        Self {
            settle: crate::common::settle::SettleState::new(cuts > 0),
            clock: Default::default(),
            adv_next: Default::default(),
            width: Default::default(),
            height: Default::default(),
            layers: Default::default(),
            halve: Default::default(),
            bpp_log2: Default::default(),
            base: Default::default(),
            l0: Default::default(),
            l1: Default::default(),
            ones_w: Default::default(),
            ones_h: Default::default(),
            ones_d: Default::default(),
            d0: Default::default(),
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
            wk: Default::default(),
            hk: Default::default(),
            dk: Default::default(),
            sd0: Default::default(),
            above: Default::default(),
            below: Default::default(),
            cs_w: from_fn(|_| Retime::new(s1)),
            cs_h: from_fn(|_| Retime::new(s1)),
            cs_d: from_fn(|_| Retime::new(s1)),
            cs_l0: Retime::new(s1),
            cs_l1: Retime::new(s1),
            cs_bpp: Retime::new(s1),
            w0q: Default::default(),
            h0q: Default::default(),
            d0q: Default::default(),
            w1q: Default::default(),
            h1q: Default::default(),
            c2_w0: from_fn(|_| Retime::new(s2)),
            c2_h0: from_fn(|_| Retime::new(s2)),
            c2_d0: from_fn(|_| Retime::new(s2)),
            c2_w1: from_fn(|_| Retime::new(s2)),
            c2_h1: from_fn(|_| Retime::new(s2)),
            c2_l0: Retime::new(s2),
            c2_l1: Retime::new(s2),
            c2_bpp: Retime::new(s2),
            cf_w: from_fn(|_| Retime::kept(plan.front)),
            cf_h: from_fn(|_| Retime::kept(plan.front)),
            area: from_fn(|_| MulUReg::new(area_dsp)),
            cp_area: from_fn(|_| Retime::new(plan.area.min(1) - usize::from(area_dsp))),
            cp_dk: from_fn(|_| Retime::kept(plan.front + plan.area)),
            cp_bpp: Retime::new(plan.front + plan.area),
            cp_base: Retime::new(plan.front + plan.area),
            cp_below: from_fn(|_| Retime::new(plan.front + plan.area)),
            vol: from_fn(|_| RoundedVolume::new(parts_dsp, plan.round == 1)),
            cq_base: Retime::new(plan.parts + plan.round),
            cq_below: from_fn(|_| Retime::new(plan.parts + plan.round)),
            cv_vol: from_fn(|_| Retime::new(plan.vol)),
            cv_base: Retime::new(plan.vol),
            cv_below: from_fn(|_| Retime::new(plan.vol)),
            xt: Default::default(),
            yt: Default::default(),
            x1: Default::default(),
            y1: Default::default(),
            c1_x: from_fn(|_| Retime::new(t1)),
            c1_y: from_fn(|_| Retime::new(t1)),
            x2: Default::default(),
            y2: Default::default(),
            c2_x: from_fn(|_| Retime::new(t2)),
            c2_y: from_fn(|_| Retime::new(t2)),
            x3: Default::default(),
            y3: Default::default(),
            c3_x: from_fn(|_| Retime::new(t3)),
            c3_y: from_fn(|_| Retime::new(t3)),
            sw0: Default::default(),
            sh0: Default::default(),
            sw1: Default::default(),
            sh1: Default::default(),
            slice_area: from_fn(|_| MulUReg::new(area_dsp)),
            cp_slice: from_fn(|_| Retime::new(plan.area.min(1) - usize::from(area_dsp))),
            sl_bpp: Retime::new(plan.area),
            kidx: from_fn(|k| Constant::new((k as u64 + 1).into())),
            qidx: from_fn(|q| Constant::new((q as u64 + 1).into())),
            e_lvl: Default::default(),
            e_sum: Default::default(),
            e_sel: Default::default(),
            e_misc: Default::default(),
        }
    }

    /// Register stages on the first-texel path (`start0`, `start1`).
    pub fn stages(&self) -> usize {
        self.cp_bpp.stages()
            + self.cq_base.stages()
            + self.cv_base.stages()
            + self.c1_x[0].stages()
            + self.c2_x[0].stages()
            + self.c3_x[0].stages()
    }

    /// Register stages before the layer sizes (`slice0`, `slice1`): cuts S's and S2's and the
    /// area products', 0…4.
    pub fn slice_stages(&self) -> usize {
        self.size_stages() + self.sl_bpp.stages()
    }

    /// [`LevelLayout::slice_stages`] of the layout with `cuts` cuts.
    pub fn slice_stages_at(cuts: usize) -> usize {
        LAYOUT_PLAN[cuts].sizes + LAYOUT_PLAN[cuts].area
    }

    /// Register stages before the level sizes, pitches and layers (`w0`, `h0`, `w1`, `h1`,
    /// `pitch0`, `pitch1`, `d0`): cuts S's and S2's, 0…2.
    pub fn size_stages(&self) -> usize {
        self.cs_l0.stages() + self.c2_l0.stages()
    }

    /// [`LevelLayout::size_stages`] of the layout with `cuts` cuts.
    pub fn size_stages_at(cuts: usize) -> usize {
        LAYOUT_PLAN[cuts].sizes
    }
}

impl Logic for LevelLayout {
    #[hdl_gen]
    fn update(&mut self) {
        for k in 0..16 {
            self.e_lvl[k].clock.next = self.clock.val();
            self.e_lvl[k].d.next = self.adv_next.val();
        }
        for i in 0..8 {
            self.e_sum[i].clock.next = self.clock.val();
            self.e_sum[i].d.next = self.adv_next.val();
        }
        for q in 0..4 {
            self.e_sel[q].clock.next = self.clock.val();
            self.e_sel[q].d.next = self.adv_next.val();
        }
        self.e_misc.clock.next = self.clock.val();
        self.e_misc.d.next = self.adv_next.val();
        // Level sizes max(1, size >> k), each straight from level 0, the clamp's 1 decided by the
        // `ones_*` inputs (a test of size >> k against 0 here became one chain through the levels).
        self.wk[0].next = self.width.val();
        self.hk[0].next = self.height.val();
        self.dk[0].next = self.layers.val();
        for k in 1..16 {
            self.wk[k].next = self.width.val() >> self.kidx[k - 1].val();
            if self.ones_w.val().get_bit(k - 1) {
                self.wk[k].next = bits::<16>(1);
            }
            self.hk[k].next = self.height.val() >> self.kidx[k - 1].val();
            if self.ones_h.val().get_bit(k - 1) {
                self.hk[k].next = bits::<16>(1);
            }
            self.dk[k].next = self.layers.val();
            if self.halve.val() {
                self.dk[k].next = self.layers.val() >> self.kidx[k - 1].val();
                if self.ones_d.val().get_bit(k - 1) {
                    self.dk[k].next = bits::<17>(1);
                }
            }
        }
        // The terms each output's tree adds: bit k set for the levels k below it.
        self.above[0].next = bits::<15>(0x7fff) << self.l0.val();
        self.above[1].next = bits::<15>(0x7fff) << self.l1.val();
        self.below[0].next = !self.above[0].val();
        self.below[1].next = !self.above[1].val();
        // The masks wait beside the area and volume products.
        for i in 0..2 {
            self.cp_below[i].clock.next = self.clock.val();
            self.cp_below[i].en.next = self.e_misc.q.val();
            self.cp_below[i].d.next = self.below[i].val();
            self.cq_below[i].clock.next = self.clock.val();
            self.cq_below[i].en.next = self.e_misc.q.val();
            self.cq_below[i].d.next = self.cp_below[i].q.val();
            self.cv_below[i].clock.next = self.clock.val();
            self.cv_below[i].en.next = self.e_misc.q.val();
            self.cv_below[i].d.next = self.cq_below[i].q.val();
        }
        // Cut S: the level sizes and what their selects need.
        for k in 0..16 {
            self.cs_w[k].clock.next = self.clock.val();
            self.cs_w[k].en.next = self.e_lvl[k].q.val();
            self.cs_w[k].d.next = self.wk[k].val();
            self.cs_h[k].clock.next = self.clock.val();
            self.cs_h[k].en.next = self.e_lvl[k].q.val();
            self.cs_h[k].d.next = self.hk[k].val();
            self.cs_d[k].clock.next = self.clock.val();
            self.cs_d[k].en.next = self.e_lvl[k].q.val();
            self.cs_d[k].d.next = self.dk[k].val();
        }
        self.cs_l0.clock.next = self.clock.val();
        self.cs_l0.en.next = self.e_misc.q.val();
        self.cs_l0.d.next = self.l0.val();
        self.cs_l1.clock.next = self.clock.val();
        self.cs_l1.en.next = self.e_misc.q.val();
        self.cs_l1.d.next = self.l1.val();
        self.cs_bpp.clock.next = self.clock.val();
        self.cs_bpp.en.next = self.e_misc.q.val();
        self.cs_bpp.d.next = self.bpp_log2.val();
        for k in 0..15 {
            self.area[k].clock.next = self.clock.val();
            self.area[k].en.next = self.e_lvl[k].q.val();
            self.cf_w[k].clock.next = self.clock.val();
            self.cf_w[k].en.next = self.e_lvl[k].q.val();
            self.cf_w[k].d.next = self.wk[k].val();
            self.cf_h[k].clock.next = self.clock.val();
            self.cf_h[k].en.next = self.e_lvl[k].q.val();
            self.cf_h[k].d.next = self.hk[k].val();
            self.area[k].a.next = self.cf_w[k].q.val();
            self.area[k].b.next = self.cf_h[k].q.val();
        }
        // Cut P. The last level's volume is never added (no level follows it).
        for k in 0..15 {
            self.cp_area[k].clock.next = self.clock.val();
            self.cp_area[k].en.next = self.e_lvl[k].q.val();
            self.cp_area[k].d.next = self.area[k].p.val();
        }
        for k in 0..15 {
            self.cp_dk[k].clock.next = self.clock.val();
            self.cp_dk[k].en.next = self.e_lvl[k].q.val();
            self.cp_dk[k].d.next = self.dk[k].val();
        }
        self.cp_bpp.clock.next = self.clock.val();
        self.cp_bpp.en.next = self.e_misc.q.val();
        self.cp_bpp.d.next = self.bpp_log2.val();
        self.cp_base.clock.next = self.clock.val();
        self.cp_base.en.next = self.e_misc.q.val();
        self.cp_base.d.next = self.base.val();
        // Level volumes rounded up to 256 bytes, then cut V.
        for k in 0..15 {
            self.vol[k].clock.next = self.clock.val();
            self.vol[k].en.next = self.e_lvl[k].q.val();
            self.vol[k].area.next = self.cp_area[k].q.val();
            self.vol[k].layers.next = self.cp_dk[k].q.val();
            self.vol[k].bpp_log2.next = self.cp_bpp.q.val();
            self.cv_vol[k].clock.next = self.clock.val();
            self.cv_vol[k].en.next = self.e_lvl[k].q.val();
            self.cv_vol[k].d.next = self.vol[k].v.val();
        }
        self.cq_base.clock.next = self.clock.val();
        self.cq_base.en.next = self.e_misc.q.val();
        self.cq_base.d.next = self.cp_base.q.val();
        self.cv_base.clock.next = self.clock.val();
        self.cv_base.en.next = self.e_misc.q.val();
        self.cv_base.d.next = self.cq_base.q.val();
        // Terms: base, then each level's rounded volume if it lies below the output's level; a
        // balanced tree of adds (modulo 2^48) per output.
        self.xt[0].next = self.cv_base.q.val();
        self.yt[0].next = self.cv_base.q.val();
        for k in 0..15 {
            self.xt[k + 1].next = bits::<48>(0);
            if self.cv_below[0].q.val().get_bit(k) {
                self.xt[k + 1].next = self.cv_vol[k].q.val();
            }
            self.yt[k + 1].next = bits::<48>(0);
            if self.cv_below[1].q.val().get_bit(k) {
                self.yt[k + 1].next = self.cv_vol[k].q.val();
            }
        }
        for i in 0..8 {
            self.x1[i].next = self.xt[2 * i].val() + self.xt[2 * i + 1].val();
            self.y1[i].next = self.yt[2 * i].val() + self.yt[2 * i + 1].val();
            self.c1_x[i].clock.next = self.clock.val();
            self.c1_x[i].en.next = self.e_sum[i].q.val();
            self.c1_x[i].d.next = self.x1[i].val();
            self.c1_y[i].clock.next = self.clock.val();
            self.c1_y[i].en.next = self.e_sum[i].q.val();
            self.c1_y[i].d.next = self.y1[i].val();
        }
        for i in 0..4 {
            self.x2[i].next = self.c1_x[2 * i].q.val() + self.c1_x[2 * i + 1].q.val();
            self.y2[i].next = self.c1_y[2 * i].q.val() + self.c1_y[2 * i + 1].q.val();
            self.c2_x[i].clock.next = self.clock.val();
            self.c2_x[i].en.next = self.e_sum[2 * i].q.val();
            self.c2_x[i].d.next = self.x2[i].val();
            self.c2_y[i].clock.next = self.clock.val();
            self.c2_y[i].en.next = self.e_sum[2 * i].q.val();
            self.c2_y[i].d.next = self.y2[i].val();
        }
        for i in 0..2 {
            self.x3[i].next = self.c2_x[2 * i].q.val() + self.c2_x[2 * i + 1].q.val();
            self.y3[i].next = self.c2_y[2 * i].q.val() + self.c2_y[2 * i + 1].q.val();
            self.c3_x[i].clock.next = self.clock.val();
            self.c3_x[i].en.next = self.e_sum[4 * i].q.val();
            self.c3_x[i].d.next = self.x3[i].val();
            self.c3_y[i].clock.next = self.clock.val();
            self.c3_y[i].en.next = self.e_sum[4 * i].q.val();
            self.c3_y[i].d.next = self.y3[i].val();
        }
        self.start0.next = self.c3_x[0].q.val() + self.c3_x[1].q.val();
        self.start1.next = self.c3_y[0].q.val() + self.c3_y[1].q.val();
        // Sizes and pitches of the two levels (combinational), layer sizes after cut P.
        // Each quarter's level by the level's low two bits, cut S2, then the quarter.
        for q in 0..4 {
            self.w0q[q].next = self.cs_w[4 * q].q.val();
            self.h0q[q].next = self.cs_h[4 * q].q.val();
            self.d0q[q].next = self.cs_d[4 * q].q.val();
            self.w1q[q].next = self.cs_w[4 * q].q.val();
            self.h1q[q].next = self.cs_h[4 * q].q.val();
            for r in 1..4 {
                if self.cs_l0.q.val().get_bits::<2>(0) == self.qidx[r - 1].val() {
                    self.w0q[q].next = self.cs_w[4 * q + r].q.val();
                    self.h0q[q].next = self.cs_h[4 * q + r].q.val();
                    self.d0q[q].next = self.cs_d[4 * q + r].q.val();
                }
                if self.cs_l1.q.val().get_bits::<2>(0) == self.qidx[r - 1].val() {
                    self.w1q[q].next = self.cs_w[4 * q + r].q.val();
                    self.h1q[q].next = self.cs_h[4 * q + r].q.val();
                }
            }
            self.c2_w0[q].clock.next = self.clock.val();
            self.c2_w0[q].en.next = self.e_sel[q].q.val();
            self.c2_w0[q].d.next = self.w0q[q].val();
            self.c2_h0[q].clock.next = self.clock.val();
            self.c2_h0[q].en.next = self.e_sel[q].q.val();
            self.c2_h0[q].d.next = self.h0q[q].val();
            self.c2_d0[q].clock.next = self.clock.val();
            self.c2_d0[q].en.next = self.e_sel[q].q.val();
            self.c2_d0[q].d.next = self.d0q[q].val();
            self.c2_w1[q].clock.next = self.clock.val();
            self.c2_w1[q].en.next = self.e_sel[q].q.val();
            self.c2_w1[q].d.next = self.w1q[q].val();
            self.c2_h1[q].clock.next = self.clock.val();
            self.c2_h1[q].en.next = self.e_sel[q].q.val();
            self.c2_h1[q].d.next = self.h1q[q].val();
        }
        self.c2_l0.clock.next = self.clock.val();
        self.c2_l0.en.next = self.e_misc.q.val();
        self.c2_l0.d.next = self.cs_l0.q.val().get_bits::<2>(2);
        self.c2_l1.clock.next = self.clock.val();
        self.c2_l1.en.next = self.e_misc.q.val();
        self.c2_l1.d.next = self.cs_l1.q.val().get_bits::<2>(2);
        self.c2_bpp.clock.next = self.clock.val();
        self.c2_bpp.en.next = self.e_misc.q.val();
        self.c2_bpp.d.next = self.cs_bpp.q.val();
        self.sw0.next = self.c2_w0[0].q.val();
        self.sh0.next = self.c2_h0[0].q.val();
        self.sd0.next = self.c2_d0[0].q.val();
        self.sw1.next = self.c2_w1[0].q.val();
        self.sh1.next = self.c2_h1[0].q.val();
        for q in 1..4 {
            if self.c2_l0.q.val() == self.qidx[q - 1].val() {
                self.sw0.next = self.c2_w0[q].q.val();
                self.sh0.next = self.c2_h0[q].q.val();
                self.sd0.next = self.c2_d0[q].q.val();
            }
            if self.c2_l1.q.val() == self.qidx[q - 1].val() {
                self.sw1.next = self.c2_w1[q].q.val();
                self.sh1.next = self.c2_h1[q].q.val();
            }
        }
        self.d0.next = self.sd0.val();
        self.w0.next = self.sw0.val();
        self.h0.next = self.sh0.val();
        self.w1.next = self.sw1.val();
        self.h1.next = self.sh1.val();
        self.pitch0.next = bit_cast::<20, 16>(self.sw0.val()) << self.c2_bpp.q.val();
        self.pitch1.next = bit_cast::<20, 16>(self.sw1.val()) << self.c2_bpp.q.val();
        self.slice_area[0].a.next = self.sw0.val();
        self.slice_area[0].b.next = self.sh0.val();
        self.slice_area[1].a.next = self.sw1.val();
        self.slice_area[1].b.next = self.sh1.val();
        for i in 0..2 {
            self.slice_area[i].clock.next = self.clock.val();
            self.slice_area[i].en.next = self.e_misc.q.val();
            self.cp_slice[i].clock.next = self.clock.val();
            self.cp_slice[i].en.next = self.e_misc.q.val();
            self.cp_slice[i].d.next = self.slice_area[i].p.val();
        }
        self.sl_bpp.clock.next = self.clock.val();
        self.sl_bpp.en.next = self.e_misc.q.val();
        self.sl_bpp.d.next = self.c2_bpp.q.val();
        self.slice0.next = self.cp_slice[0].q.val() << self.sl_bpp.q.val();
        self.slice1.next = self.cp_slice[1].q.val() << self.sl_bpp.q.val();
    }
}

crate::settled_block! {
/// One level's volume rounded up to 256 bytes: align256((area · layers) << bpp_log2) modulo 2^48.
///
/// Ports: `clock`, `en`, `area` (a layer's texel count), `layers`, `bpp_log2` (0…4; 5…7, which
/// the descriptor stage rejects, give some other value) → `v`. Two
/// 18×17 partial products P = lo + 2^18·hi (the low and high 18 bits of `area` by `layers`, the
/// high one's low 30 bits: the rest lies above 2^48), each a [`MulUReg`] leaf, summed unshifted
/// to P mod 2^48 (the DSP outputs each feed one adder input, nothing else); then, with b =
/// `bpp_log2`, ⌊(P << b) / 256⌋ = P >> (8 − b), a 5:1 select of constant shifts, and the low
/// byte of P << b is not zero when lo's low 8 − b bits are not: an increment rounds up. So the
/// texel size's shift sits behind the products, not between the area products and these.
/// Latency 2 enabled clocks with the DSP slices' operand and product registers
/// ([`RoundedVolume::new`]`(true, _)`; `bpp_log2` waits beside them in a kept register of this
/// block's own), else 0 (`clock` and `en` unused), and one more with cut R
/// ([`RoundedVolume::new`]`(true, true)`: the sum P, the round-up bit and the texel size
/// registered in front of the shift and the increment). Exact.
#[derive(Clone, Debug)]
pub struct RoundedVolume {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance the registers.
    pub en: Signal<In, Bit>,
    /// Layer size in texels.
    pub area: Signal<In, Bits<36>>,
    /// Layer count.
    pub layers: Signal<In, Bits<17>>,
    /// log2 bytes per texel.
    pub bpp_log2: Signal<In, Bits<3>>,
    /// The volume in bytes rounded up to 256 (low byte zero).
    pub v: Signal<Out, Bits<48>>,
    lo: MulUReg<18, 17, 35>,
    hi: MulUReg<18, 17, 30>,
    bpp_q: Retime<Bits<3>>,
    bpp_r: Retime<Bits<3>>,
    cr_sum: Retime<Bits<48>>,
    cr_nz: Retime<Bit>,
    sum: Signal<Local, Bits<48>>,
    shifted: Signal<Local, Bits<48>>,
    low_mask: Signal<Local, Bits<8>>,
    nz: Signal<Local, Bit>,
    units: Signal<Local, Bits<40>>,
}
}

impl RoundedVolume {
    /// The volume with (`registered`, latency 2) or without the partial products' DSP
    /// registers, and with or without cut R (`round_cut`, one more clock; needs `registered`).
    pub fn new(registered: bool, round_cut: bool) -> Self {
        assert!(
            registered || !round_cut,
            "rounded volume: cut R without the DSP registers"
        );
        let r = usize::from(round_cut);
        Self {
            settle: crate::common::settle::SettleState::new(registered),
            clock: Default::default(),
            en: Default::default(),
            area: Default::default(),
            layers: Default::default(),
            bpp_log2: Default::default(),
            v: Default::default(),
            lo: MulUReg::new(registered),
            hi: MulUReg::new(registered),
            bpp_q: Retime::kept(if registered { 2 } else { 0 }),
            bpp_r: Retime::new(r),
            cr_sum: Retime::new(r),
            cr_nz: Retime::new(r),
            sum: Default::default(),
            shifted: Default::default(),
            low_mask: Default::default(),
            nz: Default::default(),
            units: Default::default(),
        }
    }
}

impl Logic for RoundedVolume {
    #[hdl_gen]
    fn update(&mut self) {
        self.lo.clock.next = self.clock.val();
        self.lo.en.next = self.en.val();
        self.lo.a.next = self.area.val().get_bits::<18>(0);
        self.lo.b.next = self.layers.val();
        self.hi.clock.next = self.clock.val();
        self.hi.en.next = self.en.val();
        self.hi.a.next = self.area.val().get_bits::<18>(18);
        self.hi.b.next = self.layers.val();
        self.bpp_q.clock.next = self.clock.val();
        self.bpp_q.en.next = self.en.val();
        self.bpp_q.d.next = self.bpp_log2.val();
        // P = lo + 2^18·hi modulo 2^48, then (cut R) the shift by the five texel sizes, a 5:1
        // select of constant shifts (a general shifter would have four levels). The low-byte
        // mask is a signal of its own: rust-hdl writes a constant inside an expression 32 bits
        // wide.
        self.sum.next =
            bit_cast::<48, 35>(self.lo.p.val()) + (bit_cast::<48, 30>(self.hi.p.val()) << 18);
        self.low_mask.next = bits::<8>(0xff) >> self.bpp_q.q.val();
        self.nz.next = (self.lo.p.val().get_bits::<8>(0) & self.low_mask.val()).any();
        self.cr_sum.clock.next = self.clock.val();
        self.cr_sum.en.next = self.en.val();
        self.cr_sum.d.next = self.sum.val();
        self.cr_nz.clock.next = self.clock.val();
        self.cr_nz.en.next = self.en.val();
        self.cr_nz.d.next = self.nz.val();
        self.bpp_r.clock.next = self.clock.val();
        self.bpp_r.en.next = self.en.val();
        self.bpp_r.d.next = self.bpp_q.q.val();
        self.shifted.next = self.cr_sum.q.val() >> 8;
        if self.bpp_r.q.val() == bits::<3>(1) {
            self.shifted.next = self.cr_sum.q.val() >> 7;
        }
        if self.bpp_r.q.val() == bits::<3>(2) {
            self.shifted.next = self.cr_sum.q.val() >> 6;
        }
        if self.bpp_r.q.val() == bits::<3>(3) {
            self.shifted.next = self.cr_sum.q.val() >> 5;
        }
        if self.bpp_r.q.val() == bits::<3>(4) {
            self.shifted.next = self.cr_sum.q.val() >> 4;
        }
        self.units.next =
            bit_cast::<40, 48>(self.shifted.val()) + bit_cast::<40, 1>(self.cr_nz.q.val().into());
        self.v.next = bit_cast::<48, 40>(self.units.val()) << 8;
    }
}

/// Which levels' sizes the clamp max(1, size >> k) holds at 1, for k = 1…15.
///
/// Ports: `size` (1…65536) → `ones` (bit k − 1 set when size >> k is 0). Combinational: 15 zero
/// tests of the size's top bits. An input of [`LevelLayout`], made apart from it so that the
/// enclosing unit can register the flags with the sizes (the texture-address unit's cut H): after
/// such a register each level size is one select.
#[derive(Clone, Debug, LogicBlock)]
pub struct LevelOnes {
    /// Level-0 size.
    pub size: Signal<In, Bits<17>>,
    /// Bit k − 1: size >> k is 0.
    pub ones: Signal<Out, Bits<15>>,
    kidx: [Constant<Bits<5>>; 15],
    acc: Signal<Local, Bits<15>>,
}

impl Default for LevelOnes {
    fn default() -> Self {
        Self {
            size: Default::default(),
            ones: Default::default(),
            kidx: std::array::from_fn(|k| Constant::new((k as u64 + 1).into())),
            acc: Default::default(),
        }
    }
}

impl Logic for LevelOnes {
    #[hdl_gen]
    fn update(&mut self) {
        self.acc.next = bits::<15>(0);
        for k in 0..15 {
            if !(self.size.val() >> self.kidx[k].val()).any() {
                self.acc.next = self.acc.val().replace_bit(k, true);
            }
        }
        self.ones.next = self.acc.val();
    }
}
