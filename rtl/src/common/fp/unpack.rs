//! One binary32 operand unpacked for the significand datapaths of [`super::FpMul`] and
//! [`super::FpDiv`].
//!
//! Ports: `a` (f32 bits) → the classes `nan`, `inf`, `zero`; `exp`, the biased exponent with a
//! denormal's taken as 1; `lz`, the leading zeros of the 24-bit significand (hidden bit included;
//! 0 for normals, 24 for zero); `sig`, that significand shifted left by `lz`, so bit 23 is set
//! for every non-zero finite value. A finite `a` is ±`sig`·2^(`exp` − `lz` − 150). The sign is
//! the caller's (`a[31]`). Combinational, latency 0: a field split, a 24-bit leading-zero count
//! and a shifter.

use super::lzc::{Lzc, LZC_BITS};
use rust_hdl::prelude::*;

crate::settled_block! {
/// f32 operand unpacker. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct FpUnpack {
    /// Operand.
    pub a: Signal<In, Bits<32>>,
    /// NaN.
    pub nan: Signal<Out, Bit>,
    /// ±Inf.
    pub inf: Signal<Out, Bit>,
    /// ±0.
    pub zero: Signal<Out, Bit>,
    /// Biased exponent, 1 for denormals.
    pub exp: Signal<Out, Bits<8>>,
    /// Leading zeros of the significand.
    pub lz: Signal<Out, Bits<LZC_BITS>>,
    /// Normalised significand.
    pub sig: Signal<Out, Bits<24>>,
    lzc: Lzc<24>,
    e: Signal<Local, Bits<8>>,
    f: Signal<Local, Bits<32>>,
    m: Signal<Local, Bits<24>>,
}
}

impl Logic for FpUnpack {
    #[hdl_gen]
    fn update(&mut self) {
        self.e.next = self.a.val().get_bits::<8>(23);
        self.f.next = self.a.val() & bits::<32>(0x007f_ffff);
        self.nan.next = (self.e.val() == 0xff) & self.f.val().any();
        self.inf.next = (self.e.val() == 0xff) & !self.f.val().any();
        self.zero.next = !self.e.val().any() & !self.f.val().any();
        // The hidden bit; a denormal has none and exponent 1.
        self.m.next = bit_cast::<24, 32>(self.f.val());
        self.exp.next = self.e.val();
        if self.e.val().any() {
            self.m.next = bit_cast::<24, 32>(self.f.val()) | bits::<24>(0x80_0000);
        } else {
            self.exp.next = bits::<8>(1);
        }
        self.lzc.a.next = self.m.val();
        self.lz.next = self.lzc.count.val();
        self.sig.next = self.m.val() << self.lzc.count.val();
    }
}
