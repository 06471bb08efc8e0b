//! IEEE-754 binary32 adder/subtracter.
//!
//! Ports: `a: Bits<32>`, `b: Bits<32>` (f32 bit patterns), `sub: Bit` (negate `b`: `y = a - b`)
//! → `y: Bits<32>` = `a + (sub ? -b : b)`. Combinational core, latency 0 (see [`super::FpAddP`] for
//! the pipelined version).
//!
//! - Rounding: round to nearest, ties to even; overflow rounds to ±Inf.
//! - Denormals: full support, inputs and outputs (no flush to zero); underflowing sums are exact.
//! - Zeros: `x + (−x) = +0`, `(−0) + (−0) = −0`, `(+0) + (−0) = +0` (round-to-nearest rules).
//! - Infinities: `Inf + Inf = Inf`, `Inf − Inf = NaN`, `Inf + finite = Inf`.
//! - NaN: any NaN result is the canonical quiet NaN `0x7FC00000`; payloads are not propagated and
//!   signalling NaNs are treated as quiet ones.
//!
//! Datapath (single path, 27-bit significand window with guard, round and sticky bits):
//! 1. Order the operands by magnitude (`|L| ≥ |S|`); the result takes the sign of `L`.
//! 2. Align `S` right by the exponent difference; bits shifted out are ORed into the sticky bit.
//! 3. Add or subtract the 27-bit values (28-bit result).
//! 4. Normalise: on a carry shift right by one (sticky kept); otherwise shift left by the
//!    leading-zero count ([`Lzc`]), limited so that the exponent does not drop below the denormal
//!    exponent (the result is then denormal, exactly as IEEE requires).
//! 5. Round: `{E − 1, significand}` plus the round increment is one 32-bit add, so that a rounding
//!    carry moves into the exponent (denormal → normal, normal → Inf) by itself.
//!
//! The datapath is two blocks, [`FpAddFront`] (steps 1–2) and [`FpAddBack`] (steps 3–5), joined
//! by the aligned operands and a control word; [`FpAdd`] wires them directly, and
//! [`super::FpAddP`] puts its first register stage between them.

use super::lzc::Lzc;
use rust_hdl::prelude::*;

/// Steps 1–2 of [`FpAdd`]: classes, ordering and alignment.
///
/// Ports: `a`, `b`, `sub` → `xl` (the larger significand, 27-bit window), `al` (the smaller one
/// aligned, sticky in bit 0), `ctl` = {el[7:0], eff_sub[8], sl[9], sa[10], sb[11], a_inf[12],
/// b_inf[13], is_nan[14]}. Combinational.
#[derive(Clone, Debug, LogicBlock, Default)]
pub struct FpAddFront {
    /// First operand.
    pub a: Signal<In, Bits<32>>,
    /// Second operand.
    pub b: Signal<In, Bits<32>>,
    /// Subtract (`b` negated).
    pub sub: Signal<In, Bit>,
    /// Larger significand.
    pub xl: Signal<Out, Bits<32>>,
    /// Smaller significand, aligned.
    pub al: Signal<Out, Bits<32>>,
    /// Exponent, signs and classes.
    pub ctl: Signal<Out, Bits<15>>,
    sa: Signal<Local, Bit>,
    sb: Signal<Local, Bit>,
    ea: Signal<Local, Bits<8>>,
    eb: Signal<Local, Bits<8>>,
    fa: Signal<Local, Bits<32>>,
    fb: Signal<Local, Bits<32>>,
    a_nan: Signal<Local, Bit>,
    b_nan: Signal<Local, Bit>,
    a_inf: Signal<Local, Bit>,
    b_inf: Signal<Local, Bit>,
    is_nan: Signal<Local, Bit>,
    ma: Signal<Local, Bits<32>>,
    mb: Signal<Local, Bits<32>>,
    xa: Signal<Local, Bits<8>>,
    xb: Signal<Local, Bits<8>>,
    amag: Signal<Local, Bits<32>>,
    bmag: Signal<Local, Bits<32>>,
    swap: Signal<Local, Bit>,
    sl: Signal<Local, Bit>,
    el: Signal<Local, Bits<8>>,
    es: Signal<Local, Bits<8>>,
    ml: Signal<Local, Bits<32>>,
    ms: Signal<Local, Bits<32>>,
    eff_sub: Signal<Local, Bit>,
    dexp: Signal<Local, Bits<8>>,
    xlv: Signal<Local, Bits<32>>,
    xs: Signal<Local, Bits<32>>,
    alv: Signal<Local, Bits<32>>,
    back: Signal<Local, Bits<32>>,
    sticky: Signal<Local, Bit>,
    c: Signal<Local, Bits<16>>,
}

impl Logic for FpAddFront {
    #[hdl_gen]
    fn update(&mut self) {
        // Fields and classes.
        self.sa.next = self.a.val().get_bit(31);
        self.sb.next = self.b.val().get_bit(31) ^ self.sub.val();
        self.ea.next = self.a.val().get_bits::<8>(23);
        self.eb.next = self.b.val().get_bits::<8>(23);
        self.fa.next = self.a.val() & bits::<32>(0x007f_ffff);
        self.fb.next = self.b.val() & bits::<32>(0x007f_ffff);
        self.a_nan.next = (self.ea.val() == 0xff) & self.fa.val().any();
        self.b_nan.next = (self.eb.val() == 0xff) & self.fb.val().any();
        self.a_inf.next = (self.ea.val() == 0xff) & !self.fa.val().any();
        self.b_inf.next = (self.eb.val() == 0xff) & !self.fb.val().any();
        self.eff_sub.next = self.sa.val() ^ self.sb.val();
        self.is_nan.next = self.a_nan.val()
            | self.b_nan.val()
            | (self.a_inf.val() & self.b_inf.val() & self.eff_sub.val());
        // Significands with the hidden bit; denormals use exponent 1.
        self.ma.next = self.fa.val();
        self.xa.next = self.ea.val();
        if self.ea.val().any() {
            self.ma.next = self.fa.val() | bits::<32>(0x0080_0000);
        } else {
            self.xa.next = bits::<8>(1);
        }
        self.mb.next = self.fb.val();
        self.xb.next = self.eb.val();
        if self.eb.val().any() {
            self.mb.next = self.fb.val() | bits::<32>(0x0080_0000);
        } else {
            self.xb.next = bits::<8>(1);
        }
        // Order by magnitude: |L| >= |S|.
        self.amag.next = self.a.val() & bits::<32>(0x7fff_ffff);
        self.bmag.next = self.b.val() & bits::<32>(0x7fff_ffff);
        self.swap.next = self.bmag.val() > self.amag.val();
        if self.swap.val() {
            self.sl.next = self.sb.val();
            self.el.next = self.xb.val();
            self.es.next = self.xa.val();
            self.ml.next = self.mb.val();
            self.ms.next = self.ma.val();
        } else {
            self.sl.next = self.sa.val();
            self.el.next = self.xa.val();
            self.es.next = self.xb.val();
            self.ml.next = self.ma.val();
            self.ms.next = self.mb.val();
        }
        // Align S: 24-bit significands with three extra bits (guard, round, sticky).
        self.dexp.next = self.el.val() - self.es.val();
        self.xlv.next = self.ml.val() << 3;
        self.xs.next = self.ms.val() << 3;
        if self.dexp.val() > 26 {
            self.alv.next = bits::<32>(0);
            self.back.next = bits::<32>(0);
        } else {
            self.alv.next = self.xs.val() >> self.dexp.val();
            self.back.next = self.alv.val() << self.dexp.val();
        }
        self.sticky.next = self.back.val() != self.xs.val();
        if self.sticky.val() {
            self.alv.next = self.alv.val() | bits::<32>(1);
        }
        self.c.next = bit_cast::<16, 8>(self.el.val());
        if self.eff_sub.val() {
            self.c.next = self.c.val() | bits::<16>(1 << 8);
        }
        if self.sl.val() {
            self.c.next = self.c.val() | bits::<16>(1 << 9);
        }
        if self.sa.val() {
            self.c.next = self.c.val() | bits::<16>(1 << 10);
        }
        if self.sb.val() {
            self.c.next = self.c.val() | bits::<16>(1 << 11);
        }
        if self.a_inf.val() {
            self.c.next = self.c.val() | bits::<16>(1 << 12);
        }
        if self.b_inf.val() {
            self.c.next = self.c.val() | bits::<16>(1 << 13);
        }
        if self.is_nan.val() {
            self.c.next = self.c.val() | bits::<16>(1 << 14);
        }
        self.xl.next = self.xlv.val();
        self.al.next = self.alv.val();
        self.ctl.next = self.c.val().get_bits::<15>(0);
    }
}

/// Steps 3–5 of [`FpAdd`]: add, normalise, round, select.
///
/// Ports: `xl`, `al`, `ctl` (from [`FpAddFront`]) → `y`. Combinational.
#[derive(Clone, Debug, LogicBlock, Default)]
pub struct FpAddBack {
    /// Larger significand.
    pub xl: Signal<In, Bits<32>>,
    /// Smaller significand, aligned.
    pub al: Signal<In, Bits<32>>,
    /// Exponent, signs and classes.
    pub ctl: Signal<In, Bits<15>>,
    /// Sum.
    pub y: Signal<Out, Bits<32>>,
    lzc: Lzc<27>,
    el: Signal<Local, Bits<8>>,
    eff_sub: Signal<Local, Bit>,
    sl: Signal<Local, Bit>,
    sa: Signal<Local, Bit>,
    sb: Signal<Local, Bit>,
    a_inf: Signal<Local, Bit>,
    b_inf: Signal<Local, Bit>,
    is_nan: Signal<Local, Bit>,
    sum: Signal<Local, Bits<32>>,
    carry: Signal<Local, Bit>,
    lz: Signal<Local, Bits<8>>,
    lim: Signal<Local, Bits<8>>,
    sh: Signal<Local, Bits<8>>,
    nrm: Signal<Local, Bits<32>>,
    ediff: Signal<Local, Bits<8>>,
    eexp: Signal<Local, Bits<32>>,
    sig: Signal<Local, Bits<32>>,
    pk: Signal<Local, Bits<32>>,
    rnd: Signal<Local, Bit>,
    rounded: Signal<Local, Bits<32>>,
    mag: Signal<Local, Bits<32>>,
    sgn: Signal<Local, Bit>,
    res: Signal<Local, Bits<32>>,
}

impl Logic for FpAddBack {
    #[hdl_gen]
    fn update(&mut self) {
        self.el.next = self.ctl.val().get_bits::<8>(0);
        self.eff_sub.next = self.ctl.val().get_bit(8);
        self.sl.next = self.ctl.val().get_bit(9);
        self.sa.next = self.ctl.val().get_bit(10);
        self.sb.next = self.ctl.val().get_bit(11);
        self.a_inf.next = self.ctl.val().get_bit(12);
        self.b_inf.next = self.ctl.val().get_bit(13);
        self.is_nan.next = self.ctl.val().get_bit(14);
        // Add / subtract (|L| >= |S|, so the difference is never negative).
        if self.eff_sub.val() {
            self.sum.next = self.xl.val() - self.al.val();
        } else {
            self.sum.next = self.xl.val() + self.al.val();
        }
        self.carry.next = self.sum.val().get_bit(27);
        // Normalise.
        self.lzc.a.next = self.sum.val().get_bits::<27>(0);
        self.lz.next = bit_cast::<8, 7>(self.lzc.count.val());
        self.lim.next = self.el.val() - bits::<8>(1);
        self.sh.next = self.lz.val();
        if self.lz.val() > self.lim.val() {
            self.sh.next = self.lim.val();
        }
        self.ediff.next = self.lim.val() - self.sh.val();
        if self.carry.val() {
            self.nrm.next = self.sum.val() >> 1;
            if self.sum.val().get_bit(0) {
                self.nrm.next = self.nrm.val() | bits::<32>(1);
            }
            self.eexp.next = bit_cast::<32, 8>(self.el.val());
        } else {
            self.nrm.next = self.sum.val() << self.sh.val();
            self.eexp.next = bit_cast::<32, 8>(self.ediff.val());
        }
        // Round: {E - 1, 1.f} + increment; the hidden bit adds the 1 back into the exponent (or
        // leaves a denormal's exponent field at 0).
        self.sig.next = self.nrm.val() >> 3;
        self.pk.next = (self.eexp.val() << 23) + self.sig.val();
        self.rnd.next = self.nrm.val().get_bit(2)
            & (self.nrm.val().get_bit(1) | self.nrm.val().get_bit(0) | self.nrm.val().get_bit(3));
        self.rounded.next = self.pk.val();
        if self.rnd.val() {
            self.rounded.next = self.pk.val() + bits::<32>(1);
        }
        // Select the result.
        self.mag.next = self.rounded.val();
        if self.rounded.val() >= bits::<32>(0x7f80_0000) {
            self.mag.next = bits::<32>(0x7f80_0000);
        }
        self.sgn.next = self.sl.val();
        if !self.sum.val().any() {
            // Exact zero: -0 only for (-0) + (-0).
            self.mag.next = bits::<32>(0);
            self.sgn.next = self.sa.val() & !self.eff_sub.val();
        }
        if self.a_inf.val() | self.b_inf.val() {
            self.mag.next = bits::<32>(0x7f80_0000);
            self.sgn.next = self.sb.val();
            if self.a_inf.val() {
                self.sgn.next = self.sa.val();
            }
        }
        self.res.next = self.mag.val();
        if self.sgn.val() {
            self.res.next = self.mag.val() | bits::<32>(0x8000_0000_u64);
        }
        if self.is_nan.val() {
            self.res.next = bits::<32>(0x7fc0_0000);
        }
        self.y.next = self.res.val();
    }
}

/// f32 adder. See the module documentation.
#[derive(Clone, Debug, LogicBlock, Default)]
pub struct FpAdd {
    /// First operand.
    pub a: Signal<In, Bits<32>>,
    /// Second operand.
    pub b: Signal<In, Bits<32>>,
    /// Subtract (`b` negated).
    pub sub: Signal<In, Bit>,
    /// Sum.
    pub y: Signal<Out, Bits<32>>,
    first: FpAddFront,
    second: FpAddBack,
}

impl Logic for FpAdd {
    #[hdl_gen]
    fn update(&mut self) {
        self.first.a.next = self.a.val();
        self.first.b.next = self.b.val();
        self.first.sub.next = self.sub.val();
        self.second.xl.next = self.first.xl.val();
        self.second.al.next = self.first.al.val();
        self.second.ctl.next = self.first.ctl.val();
        self.y.next = self.second.y.val();
    }
}
