//! Rounding of a scaled magnitude to f32: the back end of every wide accumulator (the filter's
//! weighted sum, the anisotropic probe mean).
//!
//! # Ports
//! - `m: Bits<64>` — the magnitude, an unsigned integer; the value is m · 2^σ for a scale σ the
//!   caller fixes through `lim`.
//! - `lim: Bits<16>` — 189 + σ (must be ≥ 0): the left shift at which the kept significand's
//!   lowest bit has weight 2^−149, the denormal boundary.
//! - `neg: Bit` — the sign.
//! - `nan`, `pinf`, `ninf: Bit` — the accumulator met a NaN, +Inf, −Inf: they override the sum.
//! - `y: Bits<32>` — the canonical NaN if `nan` or both infinities; else ±Inf if one is flagged;
//!   else m · 2^σ rounded once to f32, to nearest even, with the sticky bit from every bit below
//!   the rounding point; denormal results are kept (rounding may carry into the smallest normal);
//!   a result beyond the largest finite value is ±Inf; m = 0 gives +0.
//!
//! # How
//! With L = the leading-zero count of m, m is shifted left by a = min(L, lim); the kept significand
//! is bits 63…40 of the shifted word, the round bit is bit 39 and the sticky bit the OR of bits
//! 38…0; ((lim − a) << 23) + significand + round-up is the result's magnitude (the hidden bit
//! carries into the exponent field; a denormal has lim − a = 0). Combinational, latency 0: a 64-bit
//! leading-zero count, a 64-bit left shifter and a 32-bit adder.

use super::Lzc;
use rust_hdl::prelude::*;

crate::settled_block! {
/// The rounding back end. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct RoundF32 {
    /// Magnitude.
    pub m: Signal<In, Bits<64>>,
    /// 189 + the scale's exponent.
    pub lim: Signal<In, Bits<16>>,
    /// Sign.
    pub neg: Signal<In, Bit>,
    /// A NaN was summed.
    pub nan: Signal<In, Bit>,
    /// +Inf was summed.
    pub pinf: Signal<In, Bit>,
    /// −Inf was summed.
    pub ninf: Signal<In, Bit>,
    /// The rounded f32.
    pub y: Signal<Out, Bits<32>>,
    lzc: Lzc<64>,
    lz: Signal<Local, Bits<16>>,
    amt: Signal<Local, Bits<16>>,
    x: Signal<Local, Bits<64>>,
    kept: Signal<Local, Bits<24>>,
    rup: Signal<Local, Bit>,
    ebase: Signal<Local, Bits<16>>,
    sum: Signal<Local, Bits<32>>,
    res: Signal<Local, Bits<32>>,
}
}

impl Logic for RoundF32 {
    #[hdl_gen]
    fn update(&mut self) {
        self.lzc.a.next = self.m.val();
        self.lz.next = bit_cast::<16, 7>(self.lzc.count.val());
        self.amt.next = self.lz.val();
        if self.lim.val() < self.lz.val() {
            self.amt.next = self.lim.val();
        }
        self.x.next = self.m.val() << self.amt.val();
        self.kept.next = self.x.val().get_bits::<24>(40);
        self.rup.next = self.x.val().get_bit(39)
            & (self.x.val().get_bits::<39>(0).any() | self.kept.val().get_bit(0));
        self.ebase.next = self.lim.val() - self.amt.val();
        self.sum.next =
            (bit_cast::<32, 16>(self.ebase.val()) << 23) + bit_cast::<32, 24>(self.kept.val());
        if self.rup.val() {
            self.sum.next = self.sum.val() + bits::<32>(1);
        }
        if self.sum.val() >= bits::<32>(0x7f80_0000) {
            self.sum.next = bits::<32>(0x7f80_0000);
        }
        self.res.next = self.sum.val();
        if self.neg.val() {
            self.res.next = self.sum.val() | bits::<32>(0x8000_0000_u64);
        }
        if !self.m.val().any() {
            self.res.next = bits::<32>(0);
        }
        if self.pinf.val() {
            self.res.next = bits::<32>(0x7f80_0000);
        }
        if self.ninf.val() {
            self.res.next = bits::<32>(0xff80_0000_u64);
        }
        if self.nan.val() | (self.pinf.val() & self.ninf.val()) {
            self.res.next = bits::<32>(0x7fc0_0000);
        }
        self.y.next = self.res.val();
    }
}
