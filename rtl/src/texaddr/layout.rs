//! Mip-level layout of the linear texture layout (see `docs/units/texaddr.md`): level sizes,
//! first-texel addresses, pitches and slice sizes of the two levels a quad touches.
//!
//! Ports: `clock`, `en` (advance; used with cuts only), `width`, `height` (1…32768; height 1 for
//! 1D), `layers` (1…65536; 1 for non-array), `halve` (a 3D texture: `layers` is the depth, halved
//! per level as max(1, d >> 1); the texture unit's volume layout), `bpp_log2` (0…4), `base` (48-bit
//! byte address), `l0`, `l1` (levels, already clamped) → `d0` (layers of l0), `w0`, `h0`, `w1`,
//! `h1` (level sizes max(1, size >> l)), `pitch0`, `pitch1` (w_l·bpp), all combinational;
//! `slice0`, `slice1` (w_l·h_l·bpp), [`LevelLayout::slice_stages`] enabled clocks after the inputs
//! (they are selected from the level areas after cut P); and `start0`, `start1` (base +
//! Σ_{k<l} align256(w_k·h_k·bpp·layers_k), modulo 2^48), [`LevelLayout::stages`] enabled clocks
//! after the inputs.
//!
//! The first-texel addresses are the long path: 16 level areas (16×16 products), 15 level volumes
//! (36×17 products), then per output a masked sum of 16 terms (`base` and the volumes of the levels
//! below it, rounded up to 256 bytes) as a balanced tree four adders deep. Built with
//! [`LevelLayout::new`]`(cuts)`, `cuts` (0…[`LevelLayout::MAX_CUTS`]) registers go on that path, in
//! the order of [`LAYOUT_CUTS`]: between the volume products and the sums (cut V), between the area
//! and the volume products (cut P), between the tree's second and third levels (cut T). Exact:
//! every cut count gives the same values, `cuts` clocks later. The layer sizes share cut P: they
//! are the 16:1 select of the level areas, so without it a level area's product and that select
//! would run in series beside the first-texel path.
//!
//! Cost: all 16 levels' sizes are formed every clock (16 16×16 and 15 36×17 products and two
//! 16-term trees of 48-bit adds). A texture header cache holding the level offsets would remove
//! this; the model computes them so that any header works without a setup step.

use crate::common::fp::{MulU, Retime};
use rust_hdl::prelude::*;

/// Which cuts a cut count places, `[P, V, T]` in path order (area products | volume products |
/// tree levels 1–2 | tree levels 3–4).
pub const LAYOUT_CUTS: [[usize; 3]; 4] = [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 1, 1]];

crate::settled_block! {
/// Level layout. See the module documentation.
#[derive(Clone, Debug)]
pub struct LevelLayout {
    /// Clock (used with cuts only).
    pub clock: Signal<In, Clock>,
    /// Advance the cuts (the enclosing unit's stall when low).
    pub en: Signal<In, Bit>,
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
    area: [MulU<16, 16, 36>; 16],
    // Cut P: the level areas, the layer counts of the 15 levels whose volume is added, and what
    // the sums and the layer sizes need.
    cp_area: [Retime<Bits<36>>; 16],
    cp_dk: [Retime<Bits<17>>; 15],
    cp_bpp: Retime<Bits<3>>,
    cp_base: Retime<Bits<48>>,
    cp_l0: Retime<Bits<4>>,
    cp_l1: Retime<Bits<4>>,
    bytes: [Signal<Local, Bits<36>>; 15],
    vol: [MulU<36, 17, 48>; 15],
    // Cut V: the volumes.
    cv_vol: [Retime<Bits<48>>; 15],
    cv_base: Retime<Bits<48>>,
    cv_l0: Retime<Bits<4>>,
    cv_l1: Retime<Bits<4>>,
    // The two trees (x: start0, y: start1): terms, level-1 and level-2 sums.
    aligned: [Signal<Local, Bits<48>>; 15],
    xt: [Signal<Local, Bits<48>>; 16],
    yt: [Signal<Local, Bits<48>>; 16],
    x1: [Signal<Local, Bits<48>>; 8],
    y1: [Signal<Local, Bits<48>>; 8],
    x2: [Signal<Local, Bits<48>>; 4],
    y2: [Signal<Local, Bits<48>>; 4],
    // Cut T: the level-2 sums.
    ct_x: [Retime<Bits<48>>; 4],
    ct_y: [Retime<Bits<48>>; 4],
    x3: [Signal<Local, Bits<48>>; 2],
    y3: [Signal<Local, Bits<48>>; 2],
    a0: Signal<Local, Bits<36>>,
    sw0: Signal<Local, Bits<16>>,
    sh0: Signal<Local, Bits<16>>,
    sw1: Signal<Local, Bits<16>>,
    sh1: Signal<Local, Bits<16>>,
    a1: Signal<Local, Bits<36>>,
    /// The level numbers 0…15 as constants.
    kidx: [Constant<Bits<4>>; 16],
}
}

impl Default for LevelLayout {
    fn default() -> Self {
        Self::new(0)
    }
}

impl LevelLayout {
    /// Largest cut count [`LevelLayout::new`] accepts.
    pub const MAX_CUTS: usize = LAYOUT_CUTS.len() - 1;

    /// The layout with `cuts` (0…[`LevelLayout::MAX_CUTS`]) registers on the first-texel path, placed
    /// by [`LAYOUT_CUTS`].
    pub fn new(cuts: usize) -> Self {
        use std::array::from_fn;
        assert!(
            cuts <= Self::MAX_CUTS,
            "level layout: {cuts} cuts (0…{})",
            Self::MAX_CUTS
        );
        let [p, v, t] = LAYOUT_CUTS[cuts];
        Self {
            settle: crate::common::settle::SettleState::new(cuts > 0),
            clock: Default::default(),
            en: Default::default(),
            width: Default::default(),
            height: Default::default(),
            layers: Default::default(),
            halve: Default::default(),
            bpp_log2: Default::default(),
            base: Default::default(),
            l0: Default::default(),
            l1: Default::default(),
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
            area: Default::default(),
            cp_area: from_fn(|_| Retime::new(p)),
            cp_dk: from_fn(|_| Retime::new(p)),
            cp_bpp: Retime::new(p),
            cp_base: Retime::new(p),
            cp_l0: Retime::new(p),
            cp_l1: Retime::new(p),
            bytes: Default::default(),
            vol: Default::default(),
            cv_vol: from_fn(|_| Retime::new(v)),
            cv_base: Retime::new(v),
            cv_l0: Retime::new(v),
            cv_l1: Retime::new(v),
            aligned: Default::default(),
            xt: Default::default(),
            yt: Default::default(),
            x1: Default::default(),
            y1: Default::default(),
            x2: Default::default(),
            y2: Default::default(),
            ct_x: from_fn(|_| Retime::new(t)),
            ct_y: from_fn(|_| Retime::new(t)),
            x3: Default::default(),
            y3: Default::default(),
            a0: Default::default(),
            sw0: Default::default(),
            sh0: Default::default(),
            sw1: Default::default(),
            sh1: Default::default(),
            a1: Default::default(),
            kidx: from_fn(|k| Constant::new((k as u64).into())),
        }
    }

    /// Register stages on the first-texel path (`start0`, `start1`).
    pub fn stages(&self) -> usize {
        self.cp_bpp.stages() + self.cv_base.stages() + self.ct_x[0].stages()
    }

    /// Register stages before the layer sizes (`slice0`, `slice1`): cut P's, 0 or 1.
    pub fn slice_stages(&self) -> usize {
        Self::slice_stages_at(self.stages())
    }

    /// [`LevelLayout::slice_stages`] of the layout with `cuts` cuts.
    pub fn slice_stages_at(cuts: usize) -> usize {
        LAYOUT_CUTS[cuts][0]
    }
}

impl Logic for LevelLayout {
    #[hdl_gen]
    fn update(&mut self) {
        // Level sizes max(1, size >> k), each straight from level 0 (no chain through the levels).
        self.wk[0].next = self.width.val();
        self.hk[0].next = self.height.val();
        self.dk[0].next = self.layers.val();
        for k in 1..16 {
            self.wk[k].next = bits::<16>(1);
            if (self.width.val() >> self.kidx[k].val()).any() {
                self.wk[k].next = self.width.val() >> self.kidx[k].val();
            }
            self.hk[k].next = bits::<16>(1);
            if (self.height.val() >> self.kidx[k].val()).any() {
                self.hk[k].next = self.height.val() >> self.kidx[k].val();
            }
            self.dk[k].next = self.layers.val();
            if self.halve.val() {
                self.dk[k].next = bits::<17>(1);
                if (self.layers.val() >> self.kidx[k].val()).any() {
                    self.dk[k].next = self.layers.val() >> self.kidx[k].val();
                }
            }
        }
        for k in 0..16 {
            self.area[k].a.next = self.wk[k].val();
            self.area[k].b.next = self.hk[k].val();
        }
        // Cut P. The last level's volume is never added (no level follows it); its area is a
        // layer size.
        for k in 0..16 {
            self.cp_area[k].clock.next = self.clock.val();
            self.cp_area[k].en.next = self.en.val();
            self.cp_area[k].d.next = self.area[k].p.val();
        }
        for k in 0..15 {
            self.cp_dk[k].clock.next = self.clock.val();
            self.cp_dk[k].en.next = self.en.val();
            self.cp_dk[k].d.next = self.dk[k].val();
        }
        self.cp_bpp.clock.next = self.clock.val();
        self.cp_bpp.en.next = self.en.val();
        self.cp_bpp.d.next = self.bpp_log2.val();
        self.cp_base.clock.next = self.clock.val();
        self.cp_base.en.next = self.en.val();
        self.cp_base.d.next = self.base.val();
        self.cp_l0.clock.next = self.clock.val();
        self.cp_l0.en.next = self.en.val();
        self.cp_l0.d.next = self.l0.val();
        self.cp_l1.clock.next = self.clock.val();
        self.cp_l1.en.next = self.en.val();
        self.cp_l1.d.next = self.l1.val();
        // Level volumes, then cut V.
        for k in 0..15 {
            self.bytes[k].next = self.cp_area[k].q.val() << self.cp_bpp.q.val();
            self.vol[k].a.next = self.bytes[k].val();
            self.vol[k].b.next = self.cp_dk[k].q.val();
            self.cv_vol[k].clock.next = self.clock.val();
            self.cv_vol[k].en.next = self.en.val();
            self.cv_vol[k].d.next = self.vol[k].p.val();
        }
        self.cv_base.clock.next = self.clock.val();
        self.cv_base.en.next = self.en.val();
        self.cv_base.d.next = self.cp_base.q.val();
        self.cv_l0.clock.next = self.clock.val();
        self.cv_l0.en.next = self.en.val();
        self.cv_l0.d.next = self.cp_l0.q.val();
        self.cv_l1.clock.next = self.clock.val();
        self.cv_l1.en.next = self.en.val();
        self.cv_l1.d.next = self.cp_l1.q.val();
        // Terms: base, then each level's volume rounded up to 256 bytes if it lies below the
        // output's level; a balanced tree of adds (modulo 2^48) per output.
        self.xt[0].next = self.cv_base.q.val();
        self.yt[0].next = self.cv_base.q.val();
        for k in 0..15 {
            self.aligned[k].next =
                (self.cv_vol[k].q.val() + bits::<48>(255)) & bits::<48>(0xffff_ffff_ff00_u64);
            self.xt[k + 1].next = bits::<48>(0);
            if self.kidx[k].val() < self.cv_l0.q.val() {
                self.xt[k + 1].next = self.aligned[k].val();
            }
            self.yt[k + 1].next = bits::<48>(0);
            if self.kidx[k].val() < self.cv_l1.q.val() {
                self.yt[k + 1].next = self.aligned[k].val();
            }
        }
        for i in 0..8 {
            self.x1[i].next = self.xt[2 * i].val() + self.xt[2 * i + 1].val();
            self.y1[i].next = self.yt[2 * i].val() + self.yt[2 * i + 1].val();
        }
        for i in 0..4 {
            self.x2[i].next = self.x1[2 * i].val() + self.x1[2 * i + 1].val();
            self.y2[i].next = self.y1[2 * i].val() + self.y1[2 * i + 1].val();
            // Cut T.
            self.ct_x[i].clock.next = self.clock.val();
            self.ct_x[i].en.next = self.en.val();
            self.ct_x[i].d.next = self.x2[i].val();
            self.ct_y[i].clock.next = self.clock.val();
            self.ct_y[i].en.next = self.en.val();
            self.ct_y[i].d.next = self.y2[i].val();
        }
        for i in 0..2 {
            self.x3[i].next = self.ct_x[2 * i].q.val() + self.ct_x[2 * i + 1].q.val();
            self.y3[i].next = self.ct_y[2 * i].q.val() + self.ct_y[2 * i + 1].q.val();
        }
        self.start0.next = self.x3[0].val() + self.x3[1].val();
        self.start1.next = self.y3[0].val() + self.y3[1].val();
        // Sizes and pitches of the two levels (combinational), layer sizes after cut P.
        self.sw0.next = bits::<16>(1);
        self.sh0.next = bits::<16>(1);
        self.sw1.next = bits::<16>(1);
        self.sh1.next = bits::<16>(1);
        self.a0.next = bits::<36>(1);
        self.a1.next = bits::<36>(1);
        self.sd0.next = bits::<17>(1);
        for k in 0..16 {
            if self.l0.val() == self.kidx[k].val() {
                self.sw0.next = self.wk[k].val();
                self.sh0.next = self.hk[k].val();
                self.sd0.next = self.dk[k].val();
            }
            if self.l1.val() == self.kidx[k].val() {
                self.sw1.next = self.wk[k].val();
                self.sh1.next = self.hk[k].val();
            }
            if self.cp_l0.q.val() == self.kidx[k].val() {
                self.a0.next = self.cp_area[k].q.val();
            }
            if self.cp_l1.q.val() == self.kidx[k].val() {
                self.a1.next = self.cp_area[k].q.val();
            }
        }
        self.d0.next = self.sd0.val();
        self.w0.next = self.sw0.val();
        self.h0.next = self.sh0.val();
        self.w1.next = self.sw1.val();
        self.h1.next = self.sh1.val();
        self.pitch0.next = bit_cast::<20, 16>(self.sw0.val()) << self.bpp_log2.val();
        self.pitch1.next = bit_cast::<20, 16>(self.sw1.val()) << self.bpp_log2.val();
        self.slice0.next = self.a0.val() << self.cp_bpp.q.val();
        self.slice1.next = self.a1.val() << self.cp_bpp.q.val();
    }
}
