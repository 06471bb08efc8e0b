//! Signed fixed point (24-bit two's complement, 8 fraction bits) to f32, exact.
//!
//! Ports: `a: Bits<24>` (the value a / 256, −2^23 < a < 2^23) → `y: Bits<32>` (IEEE-754 bits;
//! every such value is exact in f32; 0 gives +0). The texture unit's `lodq` returns its λ·256 values
//! through it. Combinational, latency 0: a negation, a 24-bit leading-zero count and one left
//! shift. a = −2^23 is outside the range (its magnitude does not fit) and gives a meaningless word.

use super::fp::Lzc;
use rust_hdl::prelude::*;

crate::settled_block! {
/// Exact (24-bit signed / 256) → f32 conversion.
#[derive(Clone, Debug, Default)]
pub struct Fix8ToF32 {
    /// Signed value ·256.
    pub a: Signal<In, Bits<24>>,
    /// Its f32 bit pattern.
    pub y: Signal<Out, Bits<32>>,
    lz: Lzc<24>,
    mag: Signal<Local, Bits<24>>,
    top: Signal<Local, Bits<32>>,
    e: Signal<Local, Bits<32>>,
    r: Signal<Local, Bits<32>>,
}
}

impl Logic for Fix8ToF32 {
    #[hdl_gen]
    fn update(&mut self) {
        self.mag.next = self.a.val();
        if self.a.val().get_bit(23) {
            self.mag.next = bits::<24>(0) - self.a.val();
        }
        self.lz.a.next = self.mag.val();
        // Leading one moved to bit 23; the 23 bits below it are the mantissa.
        self.top.next =
            bit_cast::<32, 24>(self.mag.val()) << bit_cast::<32, 7>(self.lz.count.val());
        // Exponent: the leading one at bit 23 − count weighs 2^(15 − count).
        self.e.next = bits::<32>(142) - bit_cast::<32, 7>(self.lz.count.val());
        self.r.next = (self.e.val() << 23) | (self.top.val() & bits::<32>(0x007F_FFFF));
        if self.a.val().get_bit(23) {
            self.r.next = self.r.val() | bits::<32>(0x8000_0000_u64);
        }
        if !self.a.val().any() {
            self.r.next = bits::<32>(0);
        }
        self.y.next = self.r.val();
    }
}
