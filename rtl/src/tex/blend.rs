//! The filter's weighted sum of up to eight taps: a block-floating-point dot product with one
//! rounding (the golden model's `texel::blend`, bit for bit).
//!
//! # Ports
//! - `tap: [Bits<32>; 8]` — the taps, f32 bits (denormals already flushed by the converter; a
//!   denormal pattern would count as zero).
//! - `w: [Bits<25>; 8]` — integer weights W_k; a tap with W_k = 0 is ignored entirely.
//! - `s: Bits<5>` — the weight scale S: the result is Σ W_k · t_k / 2^S.
//! - `y: Bits<32>` — the result, f32 bits.
//!
//! Preconditions: S ≤ 24 and Σ W_k ≤ 2^24 (the unit sends Σ W_k = 2^S with S ∈ {0, 8, 16, 24});
//! they bound the accumulator below 2^51. Outside them the result is unspecified.
//!
//! Combinational, latency 0.
//!
//! # What it computes
//! 1. Specials among live taps (W_k ≠ 0): a NaN, or both +Inf and −Inf ⇒ the canonical NaN
//!    0x7FC00000; else an infinity ⇒ that infinity.
//! 2. E = the largest biased exponent among live taps with a non-zero significand M_k (24 bits,
//!    hidden bit included; zero for exponent 0).
//! 3. A_k = ⌊W_k · M_k · 2^G / 2^(E − e_k)⌋ with G = 3 guard bits (the exact 48-bit product,
//!    aligned by truncation), Acc = Σ ±A_k in 53-bit two's complement.
//! 4. y = Acc · 2^(E − 150 − G − S) rounded once to f32, to nearest even, with the sticky bit
//!    from every accumulator bit below the rounding point; denormal results are kept (rounding
//!    may carry into the smallest normal); a result beyond the largest finite value is ±Inf
//!    (which Σ W_k = 2^S rules out); Acc = 0 gives +0, a negative Acc that rounds to zero −0.
//!
//! # Rounding, in hardware terms
//! m = |Acc| (51 bits) goes to the shared [`RoundF32`] with lim = E + 36 − S (the value is
//! m · 2^(E − 153 − S)): one left shift to the leading one or the denormal boundary, round to
//! nearest even with a sticky bit, a magnitude at or above 0x7F800000 becomes infinity.
//!
//! # Cost
//! Eight 25 × 24 unsigned multipliers ([`MulU`] leaves: a plain `a * b` in the Verilog, for DSP
//! mapping), a 7-comparator 8-bit maximum chain, eight 51-bit right shifters (by E − e_k,
//! saturating to zero), eight 53-bit add/subtracts into the accumulator, a 53-bit negation, the
//! [`RoundF32`] back end (64-bit leading-zero count and left shifter, 32-bit adder) and the
//! special-value logic.

use crate::common::fp::{MulU, RoundF32};
use rust_hdl::prelude::*;

/// Guard bits below the aligned products' units (the golden model's `BLEND_GUARD`).
pub const BLEND_GUARD: u32 = 3;

crate::settled_block! {
/// The eight-tap blender. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct TapBlend {
    /// Taps, f32 bits.
    pub tap: [Signal<In, Bits<32>>; 8],
    /// Integer weights.
    pub w: [Signal<In, Bits<25>>; 8],
    /// Weight scale: Σ W = 2^s.
    pub s: Signal<In, Bits<5>>,
    /// Σ W_k · tap_k / 2^s, f32 bits.
    pub y: Signal<Out, Bits<32>>,
    mul: [MulU<25, 24, 48>; 8],
    round: RoundF32,
    /// Per tap: live (W ≠ 0), magnitude bits, biased exponent, counted exponent (0 if the tap
    /// is dead or zero), significand, alignment shift, aligned product.
    live: [Signal<Local, Bit>; 8],
    mag: [Signal<Local, Bits<32>>; 8],
    ex: [Signal<Local, Bits<8>>; 8],
    ec: [Signal<Local, Bits<8>>; 8],
    sig: [Signal<Local, Bits<24>>; 8],
    sh: [Signal<Local, Bits<8>>; 8],
    pw: [Signal<Local, Bits<53>>; 8],
    al: [Signal<Local, Bits<53>>; 8],
    /// Scalar temporaries reused by every iteration of the unrolled loops.
    t32: Signal<Local, Bits<32>>,
    p48: Signal<Local, Bits<48>>,
    nan: Signal<Local, Bit>,
    pinf: Signal<Local, Bit>,
    ninf: Signal<Local, Bit>,
    emax: Signal<Local, Bits<8>>,
    acc: Signal<Local, Bits<53>>,
    nacc: Signal<Local, Bits<53>>,
    neg: Signal<Local, Bit>,
    m: Signal<Local, Bits<53>>,
}
}

impl Logic for TapBlend {
    #[hdl_gen]
    fn update(&mut self) {
        self.nan.next = false;
        self.pinf.next = false;
        self.ninf.next = false;
        self.emax.next = bits::<8>(0);
        for k in 0..8 {
            self.live[k].next = self.w[k].val().any();
            self.mag[k].next = self.tap[k].val() & bits::<32>(0x7fff_ffff);
            self.ex[k].next = self.tap[k].val().get_bits::<8>(23);
            if self.live[k].val() & (self.mag[k].val() > bits::<32>(0x7f80_0000)) {
                self.nan.next = true;
            }
            if self.live[k].val() & (self.tap[k].val() == bits::<32>(0x7f80_0000)) {
                self.pinf.next = true;
            }
            if self.live[k].val() & (self.tap[k].val() == bits::<32>(0xff80_0000_u64)) {
                self.ninf.next = true;
            }
            // (`bit_cast` cannot take a loop-indexed operand in `#[hdl_gen]`: go through `t32`.)
            self.t32.next = (self.tap[k].val() & bits::<32>(0x7f_ffff)) | bits::<32>(0x80_0000);
            self.sig[k].next = bits::<24>(0);
            if self.ex[k].val().any() {
                self.sig[k].next = bit_cast::<24, 32>(self.t32.val());
            }
            self.ec[k].next = bits::<8>(0);
            if self.live[k].val() {
                self.ec[k].next = self.ex[k].val();
            }
            if self.ec[k].val() > self.emax.val() {
                self.emax.next = self.ec[k].val();
            }
            self.mul[k].a.next = self.w[k].val();
            self.mul[k].b.next = self.sig[k].val();
        }
        // Align (truncating) and accumulate with signs.
        self.acc.next = bits::<53>(0);
        for k in 0..8 {
            self.sh[k].next = self.emax.val() - self.ec[k].val();
            self.p48.next = self.mul[k].p.val();
            self.pw[k].next = bit_cast::<53, 48>(self.p48.val()) << 3;
            self.al[k].next = self.pw[k].val() >> self.sh[k].val();
            if self.tap[k].val().get_bit(31) {
                self.acc.next = self.acc.val() - self.al[k].val();
            } else {
                self.acc.next = self.acc.val() + self.al[k].val();
            }
        }
        // Sign and magnitude (|Acc| < 2^51).
        self.neg.next = self.acc.val().get_bit(52);
        self.nacc.next = bits::<53>(0) - self.acc.val();
        self.m.next = self.acc.val();
        if self.neg.val() {
            self.m.next = self.nacc.val();
        }
        // Acc · 2^(E − 150 − G − S) rounded: σ = E − 153 − S, so lim = 189 + σ = E + 36 − S.
        self.round.m.next = bit_cast::<64, 53>(self.m.val());
        self.round.lim.next =
            bit_cast::<16, 8>(self.emax.val()) + bits::<16>(36) - bit_cast::<16, 5>(self.s.val());
        self.round.neg.next = self.neg.val();
        self.round.nan.next = self.nan.val();
        self.round.pinf.next = self.pinf.val();
        self.round.ninf.next = self.ninf.val();
        self.y.next = self.round.y.val();
    }
}
