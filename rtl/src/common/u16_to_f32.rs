//! Unsigned 16-bit integer to f32, exact.
//!
//! Ports: `a: Bits<16>` → `y: Bits<32>` (IEEE-754 bits; every 16-bit value is exact in f32, 0 gives
//! +0). Combinational, latency 0: a leading-zero count and one left shift.

use super::fp::Lzc;
use rust_hdl::prelude::*;

crate::settled_block! {
/// Exact u16 → f32 conversion.
#[derive(Clone, Debug, Default)]
pub struct U16ToF32 {
    /// Unsigned integer.
    pub a: Signal<In, Bits<16>>,
    /// Its f32 bit pattern.
    pub y: Signal<Out, Bits<32>>,
    lz: Lzc<16>,
    sh: Signal<Local, Bits<32>>,
    top: Signal<Local, Bits<32>>,
    e: Signal<Local, Bits<32>>,
    r: Signal<Local, Bits<32>>,
}
}

impl Logic for U16ToF32 {
    #[hdl_gen]
    fn update(&mut self) {
        self.lz.a.next = self.a.val();
        // Leading one moved to bit 31; the 23 bits below it are the mantissa.
        self.sh.next = bit_cast::<32, 7>(self.lz.count.val()) + bits::<32>(16);
        self.top.next = bit_cast::<32, 16>(self.a.val()) << self.sh.val();
        // Exponent 127 + 15 − count.
        self.e.next = bits::<32>(142) - bit_cast::<32, 7>(self.lz.count.val());
        self.r.next = (self.e.val() << 23) | ((self.top.val() >> 8) & bits::<32>(0x007F_FFFF));
        if !self.a.val().any() {
            self.r.next = bits::<32>(0);
        }
        self.y.next = self.r.val();
    }
}
