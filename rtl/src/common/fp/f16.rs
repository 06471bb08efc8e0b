//! IEEE-754 binary16 ↔ binary32 conversion: [`F16ToF32`] (exact) and [`F32ToF16`] (round to nearest even).
//!
//! [`F16ToF32`] ports: `a: Bits<16>` (f16 bit pattern) → `y: Bits<32>` (f32 bit pattern). Combinational core,
//! latency 0 (see [`super::F16ToF32P`]).
//!
//! Exact for every input (binary32 contains binary16), so no rounding happens:
//! - normals: exponent rebiased (`+112`), fraction shifted left by 13;
//! - denormals (`m · 2^-24`): normalised with a [`Lzc`] into f32 normals;
//! - ±0 → ±0, ±Inf → ±Inf;
//! - NaN: sign kept, exponent all ones, the 10-bit payload (quiet bit included) shifted left by
//!   13, so the quiet bit stays the quiet bit and signalling NaNs stay signalling. This is the one
//!   block that does not canonicalise NaNs: the conversion is exact by definition.

use super::lzc::Lzc;
use rust_hdl::prelude::*;

crate::settled_block! {
/// f16 → f32 converter. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct F16ToF32 {
    /// f16 bits.
    pub a: Signal<In, Bits<16>>,
    /// f32 bits.
    pub y: Signal<Out, Bits<32>>,
    lzc: Lzc<10>,
    e5: Signal<Local, Bits<32>>,
    m32: Signal<Local, Bits<32>>,
    dsh: Signal<Local, Bits<8>>,
    dfrac: Signal<Local, Bits<32>>,
    dexp: Signal<Local, Bits<32>>,
    mag: Signal<Local, Bits<32>>,
    res: Signal<Local, Bits<32>>,
}
}

impl Logic for F16ToF32 {
    #[hdl_gen]
    fn update(&mut self) {
        self.e5.next = bit_cast::<32, 5>(self.a.val().get_bits::<5>(10));
        self.m32.next = bit_cast::<32, 10>(self.a.val().get_bits::<10>(0));
        // Denormal: leading one at bit 9 - lz; value 2^(-15 - lz) · 1.f.
        self.lzc.a.next = self.a.val().get_bits::<10>(0);
        self.dsh.next = bit_cast::<8, 7>(self.lzc.count.val()) + bits::<8>(14);
        self.dfrac.next = (self.m32.val() << self.dsh.val()) & bits::<32>(0x007f_ffff);
        self.dexp.next = bits::<32>(112) - bit_cast::<32, 7>(self.lzc.count.val());
        if self.e5.val() == 0x1f {
            self.mag.next = bits::<32>(0x7f80_0000) | (self.m32.val() << 13);
        } else if self.e5.val().any() {
            self.mag.next = ((self.e5.val() + bits::<32>(112)) << 23) | (self.m32.val() << 13);
        } else if self.m32.val().any() {
            self.mag.next = (self.dexp.val() << 23) | self.dfrac.val();
        } else {
            self.mag.next = bits::<32>(0);
        }
        self.res.next = self.mag.val();
        if self.a.val().get_bit(15) {
            self.res.next = self.mag.val() | bits::<32>(0x8000_0000_u64);
        }
        self.y.next = self.res.val();
    }
}

crate::settled_block! {
/// f32 → f16 converter, round to nearest even.
///
/// Ports: `a: Bits<32>` (f32 bit pattern) → `y: Bits<16>` (f16 bit pattern). Combinational,
/// latency 0.
///
/// Rounding is IEEE-754 round to nearest, ties to even, as if the exponent range were unbounded:
/// - finite results from 2^-14 up: the 10 fraction bits are `a[22:13]`, rounded up when the
///   guard bit `a[12]` is set and either a lower bit or the result's last bit is set; a carry
///   out of the fraction increments the exponent, and out of the largest exponent gives ±Inf, so
///   |a| ≥ 65520 (65504 + half an ulp) becomes ±Inf;
/// - below 2^-14: f16 denormals `m · 2^-24`, the significand `1.f` shifted right by `126 − e`
///   with the same guard/sticky rule (a carry into 2^-14 gives the smallest normal); values of
///   at most 2^-25 (ties go to even, 0) and every f32 denormal give ±0;
/// - ±0 → ±0, ±Inf → ±Inf;
/// - NaN: sign kept, payload = the top 10 bits of the f32 fraction with the quiet bit (bit 9)
///   forced to 1, so every NaN result is quiet.
#[derive(Clone, Debug, Default)]
pub struct F32ToF16 {
    /// f32 bits.
    pub a: Signal<In, Bits<32>>,
    /// f16 bits.
    pub y: Signal<Out, Bits<16>>,
    e8: Signal<Local, Bits<8>>,
    frac: Signal<Local, Bits<32>>,
    /// Normal path: `(e − 112) << 10 | a[22:13]` before rounding.
    nexp: Signal<Local, Bits<16>>,
    ntrunc: Signal<Local, Bits<16>>,
    nup: Signal<Local, Bit>,
    nres: Signal<Local, Bits<16>>,
    /// Denormal path: significand, shift `126 − e`, quotient, guard word, sticky mask.
    sig: Signal<Local, Bits<32>>,
    dsh: Signal<Local, Bits<8>>,
    dsh1: Signal<Local, Bits<8>>,
    dq: Signal<Local, Bits<16>>,
    dg: Signal<Local, Bits<1>>,
    dmask: Signal<Local, Bits<32>>,
    dup: Signal<Local, Bit>,
    dres: Signal<Local, Bits<16>>,
    mag: Signal<Local, Bits<16>>,
    res: Signal<Local, Bits<16>>,
}
}

impl Logic for F32ToF16 {
    #[hdl_gen]
    fn update(&mut self) {
        self.e8.next = self.a.val().get_bits::<8>(23);
        self.frac.next = self.a.val() & bits::<32>(0x007f_ffff);
        // Normal f16 results (e ≥ 113).
        self.nexp.next = bit_cast::<16, 8>(self.e8.val()) - bits::<16>(112);
        self.ntrunc.next =
            (self.nexp.val() << 10) | bit_cast::<16, 10>(self.a.val().get_bits::<10>(13));
        self.nup.next = self.a.val().get_bit(12)
            & (self.a.val().get_bits::<12>(0).any() | self.a.val().get_bit(13));
        self.nres.next = self.ntrunc.val();
        if self.nup.val() {
            self.nres.next = self.ntrunc.val() + bits::<16>(1);
        }
        // Denormal f16 results (102 ≤ e ≤ 112: shift 14…24).
        self.sig.next = self.frac.val() | bits::<32>(0x0080_0000);
        self.dsh.next = bits::<8>(126) - self.e8.val();
        self.dsh1.next = self.dsh.val() - bits::<8>(1);
        self.dq.next = bit_cast::<16, 32>(self.sig.val() >> self.dsh.val());
        self.dg.next = bit_cast::<1, 32>(self.sig.val() >> self.dsh1.val());
        self.dmask.next = (bits::<32>(1) << self.dsh1.val()) - bits::<32>(1);
        self.dup.next = self.dg.val().any()
            & ((self.sig.val() & self.dmask.val()).any() | self.dq.val().get_bit(0));
        self.dres.next = self.dq.val();
        if self.dup.val() {
            self.dres.next = self.dq.val() + bits::<16>(1);
        }
        if self.e8.val() == 0xff {
            if self.frac.val().any() {
                self.mag.next =
                    bits::<16>(0x7e00) | bit_cast::<16, 10>(self.a.val().get_bits::<10>(13));
            } else {
                self.mag.next = bits::<16>(0x7c00);
            }
        } else if self.e8.val() >= 143 {
            self.mag.next = bits::<16>(0x7c00);
        } else if self.e8.val() >= 113 {
            self.mag.next = self.nres.val();
        } else if self.e8.val() >= 102 {
            self.mag.next = self.dres.val();
        } else {
            self.mag.next = bits::<16>(0);
        }
        self.res.next = self.mag.val();
        if self.a.val().get_bit(31) {
            self.res.next = self.mag.val() | bits::<16>(0x8000);
        }
        self.y.next = self.res.val();
    }
}
