//! IEEE-754 binary32 multiplier.
//!
//! Ports: `a: Bits<32>`, `b: Bits<32>` (f32 bit patterns) → `y: Bits<32>` = `a · b`.
//! Combinational core, latency 0 (see [`super::FpMulP`] for the pipelined version).
//!
//! - Rounding: round to nearest, ties to even; overflow rounds to ±Inf; underflow rounds (once)
//!   to a denormal or ±0.
//! - Denormals: full support, inputs and outputs (no flush to zero).
//! - Zeros and infinities: the sign is always `sign(a) xor sign(b)`; `0 · Inf = NaN`.
//! - NaN: any NaN result is the canonical quiet NaN `0x7FC00000`; payloads are not propagated and
//!   signalling NaNs are treated as quiet ones.
//!
//! Datapath: both 24-bit significands are normalised first ([`super::FpUnpack`]: leading-zero
//! count and left shift, so a denormal becomes `1.f` with an exponent below −126); their 24 × 24 product comes from the
//! [`MulU`] leaf (one DSP-mapped multiplier) and lies in `[2^46, 2^48)`. The top 24 bits, a guard
//! bit and a sticky bit are kept (a one-bit normalisation). If the exponent is below the normal
//! range the 26-bit value is shifted right (sticky collected) to the denormal position before the
//! single rounding step, which is the same 32-bit `{E − 1, 1.f} + increment` add as in
//! [`super::FpAdd`].
//!
//! The datapath is two blocks, [`FpMulFront`] (classes, normalisation, the product) and
//! [`FpMulBack`] (one-bit normalisation, denormal shift, rounding, selection), joined by the
//! 48-bit product, the biased exponent and four class bits; [`FpMul`] wires them directly, and
//! [`super::FpMulP`] puts its first register stage between them.

use super::mulu::MulU;
use super::unpack::FpUnpack;
use rust_hdl::prelude::*;

/// Classes, significand normalisation and the 24 × 24 product of [`FpMul`].
///
/// Ports: `a`, `b` → `p` (the product of the normalised significands), `eob` (the result
/// exponent plus 256, before the one-bit normalisation), `cls` = {zero[0], inf[1], nan[2],
/// sign[3]}. Combinational.
#[derive(Clone, Debug, LogicBlock, Default)]
pub struct FpMulFront {
    /// Multiplicand.
    pub a: Signal<In, Bits<32>>,
    /// Multiplier.
    pub b: Signal<In, Bits<32>>,
    /// Significand product.
    pub p: Signal<Out, Bits<48>>,
    /// Biased exponent before normalisation.
    pub eob: Signal<Out, Bits<16>>,
    /// Class bits.
    pub cls: Signal<Out, Bits<4>>,
    ua: FpUnpack,
    ub: FpUnpack,
    mul: MulU<24, 24, 48>,
    is_nan: Signal<Local, Bit>,
    esum: Signal<Local, Bits<16>>,
    lzsum: Signal<Local, Bits<16>>,
    c: Signal<Local, Bits<4>>,
}

impl Logic for FpMulFront {
    #[hdl_gen]
    fn update(&mut self) {
        // Classes and normalised significands (a denormal's exponent goes below 1).
        self.ua.a.next = self.a.val();
        self.ub.a.next = self.b.val();
        self.is_nan.next = self.ua.nan.val()
            | self.ub.nan.val()
            | (self.ua.inf.val() & self.ub.zero.val())
            | (self.ua.zero.val() & self.ub.inf.val());
        // 24 x 24 product in [2^46, 2^48) (for non-zero operands).
        self.mul.a.next = self.ua.sig.val();
        self.mul.b.next = self.ub.sig.val();
        self.esum.next = bit_cast::<16, 8>(self.ua.exp.val())
            + bit_cast::<16, 8>(self.ub.exp.val())
            + bits::<16>(129);
        self.lzsum.next = bit_cast::<16, 7>(self.ua.lz.val()) + bit_cast::<16, 7>(self.ub.lz.val());
        self.c.next = bits::<4>(0);
        if self.ua.zero.val() | self.ub.zero.val() {
            self.c.next = self.c.val() | bits::<4>(1);
        }
        if self.ua.inf.val() | self.ub.inf.val() {
            self.c.next = self.c.val() | bits::<4>(2);
        }
        if self.is_nan.val() {
            self.c.next = self.c.val() | bits::<4>(4);
        }
        if self.a.val().get_bit(31) ^ self.b.val().get_bit(31) {
            self.c.next = self.c.val() | bits::<4>(8);
        }
        self.p.next = self.mul.p.val();
        self.eob.next = self.esum.val() - self.lzsum.val();
        self.cls.next = self.c.val();
    }
}

/// Normalisation, rounding and result selection of [`FpMul`].
///
/// Ports: `p`, `eob`, `cls` (from [`FpMulFront`]) → `y`. Combinational.
#[derive(Clone, Debug, LogicBlock, Default)]
pub struct FpMulBack {
    /// Significand product.
    pub p: Signal<In, Bits<48>>,
    /// Biased exponent before normalisation.
    pub eob: Signal<In, Bits<16>>,
    /// Class bits.
    pub cls: Signal<In, Bits<4>>,
    /// Product.
    pub y: Signal<Out, Bits<32>>,
    zero: Signal<Local, Bit>,
    inf: Signal<Local, Bit>,
    is_nan: Signal<Local, Bit>,
    sign: Signal<Local, Bit>,
    phi: Signal<Local, Bits<24>>,
    plo: Signal<Local, Bits<24>>,
    top: Signal<Local, Bit>,
    m: Signal<Local, Bits<32>>,
    grd: Signal<Local, Bit>,
    stlo: Signal<Local, Bits<24>>,
    eo: Signal<Local, Bits<16>>,
    k: Signal<Local, Bits<16>>,
    w: Signal<Local, Bits<32>>,
    ws: Signal<Local, Bits<32>>,
    back: Signal<Local, Bits<32>>,
    lost: Signal<Local, Bit>,
    e1: Signal<Local, Bits<16>>,
    sig: Signal<Local, Bits<32>>,
    pk: Signal<Local, Bits<32>>,
    rnd: Signal<Local, Bit>,
    rounded: Signal<Local, Bits<32>>,
    mag: Signal<Local, Bits<32>>,
    res: Signal<Local, Bits<32>>,
}

impl Logic for FpMulBack {
    #[hdl_gen]
    fn update(&mut self) {
        self.zero.next = self.cls.val().get_bit(0);
        self.inf.next = self.cls.val().get_bit(1);
        self.is_nan.next = self.cls.val().get_bit(2);
        self.sign.next = self.cls.val().get_bit(3);
        self.phi.next = self.p.val().get_bits::<24>(24);
        self.plo.next = self.p.val().get_bits::<24>(0);
        self.top.next = self.phi.val().get_bit(23);
        // 24-bit significand, guard bit, sticky bits.
        if self.top.val() {
            self.m.next = bit_cast::<32, 24>(self.phi.val());
            self.grd.next = self.plo.val().get_bit(23);
            self.stlo.next = self.plo.val() & bits::<24>(0x7f_ffff);
        } else {
            self.m.next = (bit_cast::<32, 24>(self.phi.val()) << 1)
                | (bit_cast::<32, 24>(self.plo.val()) >> 23);
            self.grd.next = self.plo.val().get_bit(22);
            self.stlo.next = self.plo.val() & bits::<24>(0x3f_ffff);
        }
        // Result exponent E = xa - lza + xb - lzb - 127 + top, held as eo = E + 256 (always > 0).
        self.eo.next = self.eob.val();
        if self.top.val() {
            self.eo.next = self.eob.val() + bits::<16>(1);
        }
        // W = {m, guard, sticky, 6'b0}; below the normal range shift right by 1 - E (sticky kept).
        self.w.next = self.m.val() << 8;
        if self.grd.val() {
            self.w.next = self.w.val() | bits::<32>(0x80);
        }
        if self.stlo.val().any() {
            self.w.next = self.w.val() | bits::<32>(0x40);
        }
        self.k.next = bits::<16>(257) - self.eo.val();
        if self.eo.val() < bits::<16>(226) {
            self.k.next = bits::<16>(31);
        }
        if self.eo.val() < bits::<16>(257) {
            self.ws.next = self.w.val() >> self.k.val();
            self.back.next = self.ws.val() << self.k.val();
            self.e1.next = bits::<16>(0);
        } else {
            self.ws.next = self.w.val();
            self.back.next = self.w.val();
            self.e1.next = self.eo.val() - bits::<16>(257);
        }
        self.lost.next = self.back.val() != self.w.val();
        // Round: {E - 1, 1.f} + increment.
        self.sig.next = self.ws.val() >> 8;
        self.pk.next = (bit_cast::<32, 16>(self.e1.val()) << 23) + self.sig.val();
        self.rnd.next = self.ws.val().get_bit(7)
            & ((self.ws.val() & bits::<32>(0x7f)).any()
                | self.lost.val()
                | self.ws.val().get_bit(8));
        self.rounded.next = self.pk.val();
        if self.rnd.val() {
            self.rounded.next = self.pk.val() + bits::<32>(1);
        }
        // Select the result.
        self.mag.next = self.rounded.val();
        if (self.rounded.val() >= bits::<32>(0x7f80_0000)) | (self.eo.val() >= bits::<16>(511)) {
            self.mag.next = bits::<32>(0x7f80_0000);
        }
        if self.zero.val() {
            self.mag.next = bits::<32>(0);
        }
        if self.inf.val() {
            self.mag.next = bits::<32>(0x7f80_0000);
        }
        self.res.next = self.mag.val();
        if self.sign.val() {
            self.res.next = self.mag.val() | bits::<32>(0x8000_0000_u64);
        }
        if self.is_nan.val() {
            self.res.next = bits::<32>(0x7fc0_0000);
        }
        self.y.next = self.res.val();
    }
}

/// f32 multiplier. See the module documentation.
#[derive(Clone, Debug, LogicBlock, Default)]
pub struct FpMul {
    /// Multiplicand.
    pub a: Signal<In, Bits<32>>,
    /// Multiplier.
    pub b: Signal<In, Bits<32>>,
    /// Product.
    pub y: Signal<Out, Bits<32>>,
    first: FpMulFront,
    second: FpMulBack,
}

impl Logic for FpMul {
    #[hdl_gen]
    fn update(&mut self) {
        self.first.a.next = self.a.val();
        self.first.b.next = self.b.val();
        self.second.p.next = self.first.p.val();
        self.second.eob.next = self.first.eob.val();
        self.second.cls.next = self.first.cls.val();
        self.y.next = self.second.y.val();
    }
}
