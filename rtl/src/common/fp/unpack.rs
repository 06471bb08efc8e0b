//! One binary32 operand unpacked for the significand datapaths of [`super::FpMul`] and
//! [`super::FpDiv`], in two parts so that a pipeline can put a register between them.
//!
//! [`FpClassify`]: `a` (f32 bits) → the classes `nan`, `inf`, `zero`; `exp`, the biased exponent
//! with a denormal's taken as 1; `m`, the 24-bit significand (hidden bit included, 0 for
//! denormals and zero); `lz`, its leading zeros (0 for normals, 24 for zero). A field split and a
//! 24-bit leading-zero count.
//!
//! [`FpUnpack`]: the same and `sig` = `m << lz`, so bit 23 is set for every non-zero finite value
//! (a classification and the normalising shift behind it). A finite `a` is
//! ±`sig`·2^(`exp` − `lz` − 150). The sign is the caller's (`a[31]`).
//!
//! Both combinational, latency 0, exact.

use super::lzc::{Lzc, LZC_BITS};
use rust_hdl::prelude::*;

crate::settled_block! {
/// f32 operand fields, classes and leading-zero count. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct FpClassify {
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
    /// Significand with its hidden bit (not normalised).
    pub m: Signal<Out, Bits<24>>,
    /// Leading zeros of `m`.
    pub lz: Signal<Out, Bits<LZC_BITS>>,
    lzc: Lzc<24>,
    e: Signal<Local, Bits<8>>,
    f: Signal<Local, Bits<32>>,
    ml: Signal<Local, Bits<24>>,
}
}

impl Logic for FpClassify {
    #[hdl_gen]
    fn update(&mut self) {
        self.e.next = self.a.val().get_bits::<8>(23);
        self.f.next = self.a.val() & bits::<32>(0x007f_ffff);
        self.nan.next = (self.e.val() == 0xff) & self.f.val().any();
        self.inf.next = (self.e.val() == 0xff) & !self.f.val().any();
        self.zero.next = !self.e.val().any() & !self.f.val().any();
        // The hidden bit; a denormal has none and exponent 1.
        self.ml.next = bit_cast::<24, 32>(self.f.val());
        self.exp.next = self.e.val();
        if self.e.val().any() {
            self.ml.next = bit_cast::<24, 32>(self.f.val()) | bits::<24>(0x80_0000);
        } else {
            self.exp.next = bits::<8>(1);
        }
        self.m.next = self.ml.val();
        self.lzc.a.next = self.ml.val();
        self.lz.next = self.lzc.count.val();
    }
}

crate::settled_block! {
/// f32 operand unpacker: [`FpClassify`] and the normalising shift. See the module documentation.
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
    classify: FpClassify,
}
}

impl Logic for FpUnpack {
    #[hdl_gen]
    fn update(&mut self) {
        self.classify.a.next = self.a.val();
        self.nan.next = self.classify.nan.val();
        self.inf.next = self.classify.inf.val();
        self.zero.next = self.classify.zero.val();
        self.exp.next = self.classify.exp.val();
        self.lz.next = self.classify.lz.val();
        self.sig.next = self.classify.m.val() << self.classify.lz.val();
    }
}
