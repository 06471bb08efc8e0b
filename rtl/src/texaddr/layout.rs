//! Mip-level layout of the linear texture layout (see `docs/units/texaddr.md`): level sizes,
//! first-texel addresses, pitches and slice sizes of the two levels a quad touches.
//!
//! Ports: `width`, `height` (1…32768; height 1 for 1D), `layers` (1…65536; 1 for non-array),
//! `halve` (a 3D texture: `layers` is the depth, halved per level as max(1, d >> 1); the
//! texture unit's volume layout), `bpp_log2` (0…4), `base` (48-bit byte address), `l0`, `l1`
//! (levels, already clamped) → `d0` (layers of l0),
//! `w0`, `h0`, `w1`, `h1` (level sizes max(1, size >> l)), `start0`, `start1`
//! (base + Σ_{k<l} align256(w_k·h_k·bpp·layers_k), modulo 2^48), `pitch0`, `pitch1` (w_l·bpp),
//! `slice0`, `slice1` (w_l·h_l·bpp). Combinational.
//!
//! Cost: all 16 levels' sizes are formed every clock (16 16×16 and 15 36×17 products and a
//! 15-adder prefix chain of 48 bits). A texture header cache holding the level offsets would
//! remove this; the model computes them so that any header works without a setup step.

use crate::common::fp::MulU;
use rust_hdl::prelude::*;

crate::settled_block! {
/// Level layout. See the module documentation.
#[derive(Clone, Debug)]
pub struct LevelLayout {
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
    wk: [Signal<Local, Bits<16>>; 16],
    hk: [Signal<Local, Bits<16>>; 16],
    dk: [Signal<Local, Bits<17>>; 16],
    sd0: Signal<Local, Bits<17>>,
    area: [MulU<16, 16, 36>; 16],
    bytes: [Signal<Local, Bits<36>>; 15],
    vol: [MulU<36, 17, 48>; 15],
    start: [Signal<Local, Bits<48>>; 16],
    a0: Signal<Local, Bits<36>>,
    sw0: Signal<Local, Bits<16>>,
    sh0: Signal<Local, Bits<16>>,
    ss0: Signal<Local, Bits<48>>,
    sw1: Signal<Local, Bits<16>>,
    sh1: Signal<Local, Bits<16>>,
    ss1: Signal<Local, Bits<48>>,
    a1: Signal<Local, Bits<36>>,
    /// The level numbers 0…15 as constants.
    kidx: [Constant<Bits<4>>; 16],
}
}

impl Default for LevelLayout {
    fn default() -> Self {
        Self {
            settle: crate::common::settle::SettleState::new(false),
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
            bytes: Default::default(),
            vol: Default::default(),
            start: Default::default(),
            a0: Default::default(),
            sw0: Default::default(),
            sh0: Default::default(),
            ss0: Default::default(),
            sw1: Default::default(),
            sh1: Default::default(),
            ss1: Default::default(),
            a1: Default::default(),
            kidx: std::array::from_fn(|k| Constant::new((k as u64).into())),
        }
    }
}

impl Logic for LevelLayout {
    #[hdl_gen]
    fn update(&mut self) {
        self.wk[0].next = self.width.val();
        self.hk[0].next = self.height.val();
        self.dk[0].next = self.layers.val();
        for k in 0..15 {
            self.dk[k + 1].next = self.dk[k].val();
            if self.halve.val() {
                self.dk[k + 1].next = self.dk[k].val() >> 1;
                if self.dk[k].val() < bits::<17>(2) {
                    self.dk[k + 1].next = bits::<17>(1);
                }
            }
            self.wk[k + 1].next = self.wk[k].val() >> 1;
            if self.wk[k].val() < bits::<16>(2) {
                self.wk[k + 1].next = bits::<16>(1);
            }
            self.hk[k + 1].next = self.hk[k].val() >> 1;
            if self.hk[k].val() < bits::<16>(2) {
                self.hk[k + 1].next = bits::<16>(1);
            }
        }
        for k in 0..16 {
            self.area[k].a.next = self.wk[k].val();
            self.area[k].b.next = self.hk[k].val();
        }
        // The last level's volume is never added (no level follows it).
        for k in 0..15 {
            self.bytes[k].next = self.area[k].p.val() << self.bpp_log2.val();
            self.vol[k].a.next = self.bytes[k].val();
            self.vol[k].b.next = self.dk[k].val();
        }
        self.start[0].next = self.base.val();
        for k in 0..15 {
            self.start[k + 1].next = self.start[k].val()
                + ((self.vol[k].p.val() + bits::<48>(255)) & bits::<48>(0xffff_ffff_ff00_u64));
        }
        self.sw0.next = bits::<16>(1);
        self.sh0.next = bits::<16>(1);
        self.ss0.next = bits::<48>(0);
        self.sw1.next = bits::<16>(1);
        self.sh1.next = bits::<16>(1);
        self.ss1.next = bits::<48>(0);
        self.a0.next = bits::<36>(1);
        self.a1.next = bits::<36>(1);
        self.sd0.next = bits::<17>(1);
        for k in 0..16 {
            if self.l0.val() == self.kidx[k].val() {
                self.sw0.next = self.wk[k].val();
                self.sh0.next = self.hk[k].val();
                self.ss0.next = self.start[k].val();
                self.a0.next = self.area[k].p.val();
                self.sd0.next = self.dk[k].val();
            }
            if self.l1.val() == self.kidx[k].val() {
                self.sw1.next = self.wk[k].val();
                self.sh1.next = self.hk[k].val();
                self.ss1.next = self.start[k].val();
                self.a1.next = self.area[k].p.val();
            }
        }
        self.d0.next = self.sd0.val();
        self.w0.next = self.sw0.val();
        self.h0.next = self.sh0.val();
        self.start0.next = self.ss0.val();
        self.w1.next = self.sw1.val();
        self.h1.next = self.sh1.val();
        self.start1.next = self.ss1.val();
        self.pitch0.next = bit_cast::<20, 16>(self.sw0.val()) << self.bpp_log2.val();
        self.pitch1.next = bit_cast::<20, 16>(self.sw1.val()) << self.bpp_log2.val();
        self.slice0.next = self.a0.val() << self.bpp_log2.val();
        self.slice1.next = self.a1.val() << self.bpp_log2.val();
    }
}
