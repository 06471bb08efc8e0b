//! The packing and rounding increment shared by the last pieces of [`super::FpAdd`] and
//! [`super::FpMul`].
//!
//! Ports: `e1: Bits<8>` (the result's exponent field less one), `sig: Bits<24>` (the rounded-down
//! significand, hidden bit at bit 23: 0 for a denormal), `inc: Bit` (round up) → `mag: Bits<32>`
//! = `{e1 + sig[23], sig[22:0]} + inc`, or `0x7F80_0000` (+Inf) when that is `≥ 0x7F80_0000`.
//! The hidden bit carries into the exponent field, so a denormal that rounds up to the smallest
//! normal and a significand that rounds up to the next binade come out right. Combinational,
//! latency 0, exact.
//!
//! Hardware: one 32-bit adder (`(e1 << 23) + sig` with `inc` as its carry-in), and the overflow
//! decided beside it from `e1`, the hidden bit and an all-ones fraction, so that no compare
//! follows the carry chain.

use rust_hdl::prelude::*;

crate::settled_block! {
/// Packing rounder. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct PackRound {
    /// Exponent field less one.
    pub e1: Signal<In, Bits<8>>,
    /// Significand with its hidden bit.
    pub sig: Signal<In, Bits<24>>,
    /// Round up.
    pub inc: Signal<In, Bit>,
    /// The rounded magnitude, saturated to +Inf.
    pub mag: Signal<Out, Bits<32>>,
    incw: Signal<Local, Bits<32>>,
    hid: Signal<Local, Bit>,
    ones: Signal<Local, Bit>,
    ovf: Signal<Local, Bit>,
}
}

impl Logic for PackRound {
    #[hdl_gen]
    fn update(&mut self) {
        self.incw.next = bits::<32>(0);
        if self.inc.val() {
            self.incw.next = bits::<32>(1);
        }
        // e1 + hidden ≥ 255, or = 254 with an all-ones fraction that rounds up.
        self.hid.next = self.sig.val().get_bit(23);
        self.ones.next = self.sig.val().get_bits::<23>(0) == bits::<23>(0x7f_ffff);
        self.ovf.next = (self.e1.val() == 255)
            | ((self.e1.val() == 254) & self.hid.val())
            | (((self.e1.val() == 254) & !self.hid.val()) & self.ones.val() & self.inc.val())
            | (((self.e1.val() == 253) & self.hid.val()) & self.ones.val() & self.inc.val());
        self.mag.next = (bit_cast::<32, 8>(self.e1.val()) << 23)
            + bit_cast::<32, 24>(self.sig.val())
            + self.incw.val();
        if self.ovf.val() {
            self.mag.next = bits::<32>(0x7f80_0000);
        }
    }
}
