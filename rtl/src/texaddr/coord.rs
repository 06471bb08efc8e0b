//! One texture-coordinate axis: f32 coordinate → fixed point → texel pair, weight and wrap (see
//! `docs/units/texaddr.md`; the algorithm is stated bit for bit in the golden model,
//! `texpix_tb::texaddr`, step 4).
//!
//! [`ScaledFloor`] computes c = ⌊256·n·s⌋ exactly (a 24 × 16 mantissa product, then a shift with a
//! sticky bit for the floor of negative values), either clamped to [−2^30, 2^30 − 1] (24.8 fixed
//! point) or, for the periodic wraps of normalized coordinates, reduced modulo 256·P·n by first
//! dropping the mantissa bits worth P or more (s mod P is exact in the mantissa), so any f32
//! wraps exactly. [`Axis`] adds the half-texel shift and the texel offset, splits integer and
//! 8-bit weight, takes i0 mod P·n with [`ModP`] (i1's remainder follows from it) and wraps both
//! texels with [`Wrap1`]. [`ScaledFloor`] is combinational; [`Axis`] has [`ModP`]'s registers
//! (latency [`Axis::stages`], 0 by default), and the texel, level size, mode and weight wait
//! beside them.

use super::{ModP, Wrap1};
use crate::common::fp::{MulU, Retime};
use rust_hdl::prelude::*;

crate::settled_block! {
/// c = ⌊256·n·s⌋ (clamped), or ⌊256·n·s⌋ mod 256·P·n when `periodic` (P = 2 with `period2`).
///
/// Ports: `s` (f32 bits; denormals read as ±0, NaN as 0, ±Inf saturate or, periodic, give 0),
/// `n` (1…65535), `periodic`, `period2` → `c` (two's complement).
#[derive(Clone, Debug, Default)]
pub struct ScaledFloor {
    /// Coordinate, f32 bits.
    pub s: Signal<In, Bits<32>>,
    /// Scale (texels per unit coordinate).
    pub n: Signal<In, Bits<16>>,
    /// Reduce modulo 256·P·n.
    pub periodic: Signal<In, Bit>,
    /// P = 2 (else 1).
    pub period2: Signal<In, Bit>,
    /// Result.
    pub c: Signal<Out, Bits<32>>,
    mul: MulU<24, 16, 40>,
    e: Signal<Local, Bits<16>>,
    fr: Signal<Local, Bits<24>>,
    m: Signal<Local, Bits<24>>,
    mask: Signal<Local, Bits<24>>,
    top: Signal<Local, Bits<16>>,
    kk: Signal<Local, Bits<16>>,
    neg: Signal<Local, Bit>,
    inf: Signal<Local, Bit>,
    nan: Signal<Local, Bit>,
    lsh: Signal<Local, Bits<16>>,
    rsh: Signal<Local, Bits<16>>,
    q: Signal<Local, Bits<40>>,
    back: Signal<Local, Bits<40>>,
    hi: Signal<Local, Bits<40>>,
    sticky: Signal<Local, Bit>,
    over: Signal<Local, Bit>,
    mag: Signal<Local, Bits<32>>,
    span: Signal<Local, Bits<32>>,
    res: Signal<Local, Bits<32>>,
}
}

impl Logic for ScaledFloor {
    #[hdl_gen]
    fn update(&mut self) {
        self.e.next = bit_cast::<16, 8>(self.s.val().get_bits::<8>(23));
        self.fr.next = bit_cast::<24, 23>(self.s.val().get_bits::<23>(0));
        self.nan.next = (self.e.val() == 0xff) & self.fr.val().any();
        self.inf.next = (self.e.val() == 0xff) & !self.fr.val().any();
        self.neg.next = self.s.val().get_bit(31) & !self.nan.val();
        // Significand; denormals flush, NaN and Inf carry no mantissa.
        self.m.next = self.fr.val() | bits::<24>(0x80_0000);
        if (self.e.val() == 0) | (self.e.val() == 0xff) {
            self.m.next = bits::<24>(0);
        }
        // Periodic: keep the mantissa bits worth less than P (bit b is worth 2^(e − 150 + b)).
        self.top.next = bits::<16>(150);
        if self.period2.val() {
            self.top.next = bits::<16>(151);
        }
        self.kk.next = self.top.val() - self.e.val();
        self.mask.next = bits::<24>(0xff_ffff);
        if self.kk.val() < bits::<16>(24) {
            self.mask.next = bits::<24>(0xff_ffff) >> (bits::<16>(24) - self.kk.val());
        }
        if self.e.val() >= self.top.val() {
            self.mask.next = bits::<24>(0);
        }
        if self.periodic.val() {
            self.m.next = self.m.val() & self.mask.val();
        }
        self.mul.a.next = self.m.val();
        self.mul.b.next = self.n.val();
        // value = p · 2^(e − 142)
        self.lsh.next = self.e.val() - bits::<16>(142);
        self.rsh.next = bits::<16>(142) - self.e.val();
        if self.lsh.val() > bits::<16>(40) {
            self.lsh.next = bits::<16>(40);
        }
        if self.rsh.val() > bits::<16>(40) {
            self.rsh.next = bits::<16>(40);
        }
        self.hi.next = bits::<40>(0);
        if self.e.val() >= bits::<16>(142) {
            self.q.next = self.mul.p.val() << self.lsh.val();
            self.back.next = self.mul.p.val();
            self.over.next = self.mul.p.val().any();
            if self.lsh.val() < bits::<16>(31) {
                self.hi.next = self.mul.p.val() >> (bits::<16>(30) - self.lsh.val());
                self.over.next = self.hi.val().any();
            }
        } else {
            self.q.next = self.mul.p.val() >> self.rsh.val();
            self.back.next = self.q.val() << self.rsh.val();
            self.hi.next = self.q.val() >> 30;
            self.over.next = self.hi.val().any();
        }
        self.sticky.next = self.back.val() != self.mul.p.val();
        if self.inf.val() {
            self.over.next = true;
        }
        self.mag.next = self.q.val().get_bits::<32>(0);
        if self.neg.val() & self.sticky.val() {
            self.mag.next = self.q.val().get_bits::<32>(0) + bits::<32>(1);
        }
        // Periodic: a negative s maps to 256·P·n − ⌈256·n·(|s| mod P)⌉.
        self.span.next = bit_cast::<32, 16>(self.n.val()) << 8;
        if self.period2.val() {
            self.span.next = bit_cast::<32, 16>(self.n.val()) << 9;
        }
        if self.periodic.val() {
            self.res.next = self.mag.val();
            if self.neg.val() & self.mag.val().any() {
                self.res.next = self.span.val() - self.mag.val();
            }
        } else if self.over.val() {
            self.res.next = bits::<32>(0x3fff_ffff);
            if self.neg.val() {
                self.res.next = bits::<32>(0xc000_0000_u64);
            }
        } else {
            self.res.next = self.mag.val();
            if self.neg.val() {
                self.res.next = bits::<32>(0) - self.mag.val();
            }
        }
        self.c.next = self.res.val();
    }
}

crate::settled_block! {
/// One axis of one lane at one level.
///
/// Ports: `s` (f32 bits), `n` (level size, 1…32768), `mode` (sampler wrap code 0…4), `linear`,
/// `unnorm` (unnormalized coordinates: scale 1, clamped to the 24.8 range before any wrap),
/// `off` (4-bit two's complement texel offset), `clock`, `en` (advance) → `i0`, `i1` (wrapped
/// texels, two's complement), `b0`, `b1` (border), `w` (weight α·256 of i1; 0 for nearest),
/// [`Axis::stages`] clocks after the inputs.
#[derive(Clone, Debug)]
pub struct Axis {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance.
    pub en: Signal<In, Bit>,
    /// Coordinate, f32 bits.
    pub s: Signal<In, Bits<32>>,
    /// Level size.
    pub n: Signal<In, Bits<16>>,
    /// Wrap mode code.
    pub mode: Signal<In, Bits<3>>,
    /// Linear filter.
    pub linear: Signal<In, Bit>,
    /// Unnormalized coordinates.
    pub unnorm: Signal<In, Bit>,
    /// Texel offset, 4-bit two's complement.
    pub off: Signal<In, Bits<4>>,
    /// First texel.
    pub i0: Signal<Out, Bits<32>>,
    /// Second texel.
    pub i1: Signal<Out, Bits<32>>,
    /// First texel is border.
    pub b0: Signal<Out, Bit>,
    /// Second texel is border.
    pub b1: Signal<Out, Bit>,
    /// Weight (0…255).
    pub w: Signal<Out, Bits<32>>,
    sf: ScaledFloor,
    modp: ModP,
    wr0: Wrap1,
    wr1: Wrap1,
    per: Signal<Local, Bit>,
    pn: Signal<Local, Bits<32>>,
    r1: Signal<Local, Bits<32>>,
    offx: Signal<Local, Bits<32>>,
    t: Signal<Local, Bits<32>>,
    i0l: Signal<Local, Bits<32>>,
    i1l: Signal<Local, Bits<32>>,
    scale: Signal<Local, Bits<16>>,
    wl: Signal<Local, Bits<8>>,
    /// Beside the remainder's registers: first texel, level size, mode, weight.
    d_i0: Retime<Bits<32>>,
    d_n: Retime<Bits<16>>,
    d_mode: Retime<Bits<3>>,
    d_w: Retime<Bits<8>>,
}
}

impl Default for Axis {
    fn default() -> Self {
        Self::new(0)
    }
}

impl Axis {
    /// The axis with `cuts` registers in its remainder unit ([`ModP::new`]): latency `cuts`.
    pub fn new(cuts: usize) -> Self {
        Self {
            settle: crate::common::settle::SettleState::new(true),
            clock: Default::default(),
            en: Default::default(),
            s: Default::default(),
            n: Default::default(),
            mode: Default::default(),
            linear: Default::default(),
            unnorm: Default::default(),
            off: Default::default(),
            i0: Default::default(),
            i1: Default::default(),
            b0: Default::default(),
            b1: Default::default(),
            w: Default::default(),
            sf: Default::default(),
            modp: ModP::new(cuts),
            wr0: Default::default(),
            wr1: Default::default(),
            per: Default::default(),
            pn: Default::default(),
            r1: Default::default(),
            offx: Default::default(),
            t: Default::default(),
            i0l: Default::default(),
            i1l: Default::default(),
            scale: Default::default(),
            wl: Default::default(),
            d_i0: Retime::new(cuts),
            d_n: Retime::new(cuts),
            d_mode: Retime::new(cuts),
            d_w: Retime::new(cuts),
        }
    }

    /// Register stages (the latency in enabled clocks).
    pub fn stages(&self) -> usize {
        self.modp.stages()
    }
}

impl Logic for Axis {
    #[hdl_gen]
    fn update(&mut self) {
        self.per.next = !self.unnorm.val() & (self.mode.val() < bits::<3>(2));
        self.scale.next = self.n.val();
        if self.unnorm.val() {
            self.scale.next = bits::<16>(1);
        }
        self.sf.s.next = self.s.val();
        self.sf.n.next = self.scale.val();
        self.sf.periodic.next = self.per.val();
        self.sf.period2.next = self.mode.val() == bits::<3>(1);
        self.offx.next = bit_cast::<32, 4>(self.off.val());
        if self.off.val().get_bit(3) {
            self.offx.next = bit_cast::<32, 4>(self.off.val()) | bits::<32>(0xffff_fff0_u64);
        }
        self.t.next = self.sf.c.val() + (self.offx.val() << 8);
        if self.linear.val() {
            self.t.next = self.sf.c.val() + (self.offx.val() << 8) - bits::<32>(128);
        }
        self.i0l.next = self.t.val() >> 8;
        if self.t.val().get_bit(31) {
            self.i0l.next = (self.t.val() >> 8) | bits::<32>(0xff00_0000_u64);
        }
        // Periodic modes: i0 mod P·n, and i1's remainder from it.
        self.pn.next = bit_cast::<32, 16>(self.n.val());
        if self.mode.val() == bits::<3>(1) {
            self.pn.next = bit_cast::<32, 16>(self.n.val()) << 1;
        }
        self.modp.clock.next = self.clock.val();
        self.modp.en.next = self.en.val();
        self.modp.i.next = self.i0l.val();
        self.modp.pn.next = self.pn.val();
        self.wl.next = bits::<8>(0);
        if self.linear.val() {
            self.wl.next = self.t.val().get_bits::<8>(0);
        }
        // The rest waits beside the remainder's registers.
        self.d_i0.clock.next = self.clock.val();
        self.d_i0.en.next = self.en.val();
        self.d_i0.d.next = self.i0l.val();
        self.d_n.clock.next = self.clock.val();
        self.d_n.en.next = self.en.val();
        self.d_n.d.next = self.n.val();
        self.d_mode.clock.next = self.clock.val();
        self.d_mode.en.next = self.en.val();
        self.d_mode.d.next = self.mode.val();
        self.d_w.clock.next = self.clock.val();
        self.d_w.en.next = self.en.val();
        self.d_w.d.next = self.wl.val();
        self.i1l.next = self.d_i0.q.val() + bits::<32>(1);
        self.r1.next = self.modp.r.val() + bits::<32>(1);
        if self.r1.val() == self.modp.pn_q.val() {
            self.r1.next = bits::<32>(0);
        }
        self.wr0.i.next = self.d_i0.q.val();
        self.wr0.r.next = self.modp.r.val();
        self.wr0.n.next = self.d_n.q.val();
        self.wr0.mode.next = self.d_mode.q.val();
        self.wr1.i.next = self.i1l.val();
        self.wr1.r.next = self.r1.val();
        self.wr1.n.next = self.d_n.q.val();
        self.wr1.mode.next = self.d_mode.q.val();
        self.i0.next = self.wr0.coord.val();
        self.i1.next = self.wr1.coord.val();
        self.b0.next = self.wr0.border.val();
        self.b1.next = self.wr1.border.val();
        self.w.next = bit_cast::<32, 8>(self.d_w.q.val());
    }
}
