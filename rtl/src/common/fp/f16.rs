//! IEEE-754 binary16 → binary32 conversion.
//!
//! Ports: `a: Bits<16>` (f16 bit pattern) → `y: Bits<32>` (f32 bit pattern). Combinational core,
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

/// f16 → f32 converter. See the module documentation.
#[derive(Clone, Debug, LogicBlock, Default)]
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
