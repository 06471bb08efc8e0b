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
//! Datapath: seven combinational pieces in a row, each a block of its own so that
//! [`super::FpMulP`] can put a register between any two of them:
//! 1. [`FpMulClass`]: classes; both 24-bit significands and their leading-zero counts
//!    ([`FpClassify`]); the exponent sum.
//! 2. [`FpMulAlign`]: the normalising left shifts (a denormal becomes `1.f` with an exponent
//!    below −126) and the biased result exponent.
//! 3. [`FpMulProduct`]: the 24 × 24 product as four partial products of the 18-bit low and 6-bit
//!    high halves ([`MulU`] leaves: one 18 × 18 multiplier each, the size of an FPGA DSP slice,
//!    but the 6 × 6 high part, which the Verilog builds from logic, [`super::mulu::LUT_MAX`]).
//! 4. [`FpMulSum`]: their sum, the exact 48-bit product in `[2^46, 2^48)`.
//! 5. [`FpMulNorm`]: a one-bit normalisation keeps the top 24 bits, a guard bit and a sticky bit;
//!    the result exponent; the right shift that takes a result below the normal range to its
//!    denormal position.
//! 6. [`FpMulDenorm`]: that shift, the bits shifted out collected in a sticky bit.
//! 7. [`FpMulRound`]: the same 32-bit `{E − 1 + hidden bit, fraction} + increment` rounding as
//!    [`super::FpAdd`], then the special cases.
//!
//! Between the pieces: `ma`, `mb`, `lza`, `lzb`, `esum` (1 → 2); `sa`, `sb` (2 → 3); the partial
//! products `ll`, `lh`, `hl`, `hh` (3 → 4); `p` (4 → 5); `w`, `k` (5 → 6); `ws`, `lost` (6 → 7);
//! `eob` (2 → 5); `e1`, `big` (5 → 7); the class bits `cls` = {zero[0], inf[1], nan[2], sign[3]}
//! (1 → 7).

use super::lzc::LZC_BITS;
use super::mulu::{MulU, MulUReg};
use super::pack::PackRound;
use super::unpack::FpClassify;
use rust_hdl::prelude::*;

crate::settled_block! {
/// Piece 1 of [`FpMul`]: classes, significands and their leading-zero counts, exponent sum.
///
/// Ports: `a`, `b` → `ma`, `mb` (24-bit significands with the hidden bit, not normalised), `lza`,
/// `lzb` (their leading zeros), `esum` (the sum of the biased exponents plus 129), `cls`.
/// Combinational.
#[derive(Clone, Debug, Default)]
pub struct FpMulClass {
    /// Multiplicand.
    pub a: Signal<In, Bits<32>>,
    /// Multiplier.
    pub b: Signal<In, Bits<32>>,
    /// Significand of `a`.
    pub ma: Signal<Out, Bits<24>>,
    /// Significand of `b`.
    pub mb: Signal<Out, Bits<24>>,
    /// Leading zeros of `ma`.
    pub lza: Signal<Out, Bits<LZC_BITS>>,
    /// Leading zeros of `mb`.
    pub lzb: Signal<Out, Bits<LZC_BITS>>,
    /// Exponent sum plus 129.
    pub esum: Signal<Out, Bits<16>>,
    /// Class bits.
    pub cls: Signal<Out, Bits<4>>,
    ua: FpClassify,
    ub: FpClassify,
    is_nan: Signal<Local, Bit>,
    c: Signal<Local, Bits<4>>,
}
}

impl Logic for FpMulClass {
    #[hdl_gen]
    fn update(&mut self) {
        self.ua.a.next = self.a.val();
        self.ub.a.next = self.b.val();
        self.is_nan.next = self.ua.nan.val()
            | self.ub.nan.val()
            | (self.ua.inf.val() & self.ub.zero.val())
            | (self.ua.zero.val() & self.ub.inf.val());
        self.ma.next = self.ua.m.val();
        self.mb.next = self.ub.m.val();
        self.lza.next = self.ua.lz.val();
        self.lzb.next = self.ub.lz.val();
        self.esum.next = bit_cast::<16, 8>(self.ua.exp.val())
            + bit_cast::<16, 8>(self.ub.exp.val())
            + bits::<16>(129);
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
        self.cls.next = self.c.val();
    }
}

crate::settled_block! {
/// Piece 3 of [`FpMul`]: the normalising shifts and the exponent they imply.
///
/// Ports: `ma`, `mb`, `lza`, `lzb`, `esum` → `sa` = `ma << lza`, `sb` = `mb << lzb` (bit 23 set
/// unless zero), `eob` = `esum − lza − lzb` (the result exponent plus 256, before the one-bit
/// normalisation). Combinational, exact.
#[derive(Clone, Debug, Default)]
pub struct FpMulAlign {
    /// Significand of `a`.
    pub ma: Signal<In, Bits<24>>,
    /// Significand of `b`.
    pub mb: Signal<In, Bits<24>>,
    /// Leading zeros of `ma`.
    pub lza: Signal<In, Bits<LZC_BITS>>,
    /// Leading zeros of `mb`.
    pub lzb: Signal<In, Bits<LZC_BITS>>,
    /// Exponent sum plus 129.
    pub esum: Signal<In, Bits<16>>,
    /// Normalised significand of `a`.
    pub sa: Signal<Out, Bits<24>>,
    /// Normalised significand of `b`.
    pub sb: Signal<Out, Bits<24>>,
    /// Biased exponent before normalisation.
    pub eob: Signal<Out, Bits<16>>,
}
}

impl Logic for FpMulAlign {
    #[hdl_gen]
    fn update(&mut self) {
        self.sa.next = self.ma.val() << self.lza.val();
        self.sb.next = self.mb.val() << self.lzb.val();
        self.eob.next = self.esum.val()
            - bit_cast::<16, LZC_BITS>(self.lza.val())
            - bit_cast::<16, LZC_BITS>(self.lzb.val());
    }
}

crate::settled_block! {
/// Piece 3 of [`FpMul`]: the four partial products.
///
/// Ports: `sa`, `sb` → `ll` = sa[17:0]·sb[17:0], `lh` = sa[17:0]·sb[23:18], `hl` =
/// sa[23:18]·sb[17:0], `hh` = sa[23:18]·sb[23:18]. Combinational, exact.
#[derive(Clone, Debug, Default)]
pub struct FpMulProduct {
    /// Significand of `a`.
    pub sa: Signal<In, Bits<24>>,
    /// Significand of `b`.
    pub sb: Signal<In, Bits<24>>,
    /// Low × low.
    pub ll: Signal<Out, Bits<36>>,
    /// Low × high.
    pub lh: Signal<Out, Bits<24>>,
    /// High × low.
    pub hl: Signal<Out, Bits<24>>,
    /// High × high.
    pub hh: Signal<Out, Bits<12>>,
    mll: MulU<18, 18, 36>,
    mlh: MulU<18, 6, 24>,
    mhl: MulU<6, 18, 24>,
    mhh: MulU<6, 6, 12>,
}
}

impl Logic for FpMulProduct {
    #[hdl_gen]
    fn update(&mut self) {
        self.mll.a.next = self.sa.val().get_bits::<18>(0);
        self.mll.b.next = self.sb.val().get_bits::<18>(0);
        self.mlh.a.next = self.sa.val().get_bits::<18>(0);
        self.mlh.b.next = self.sb.val().get_bits::<6>(18);
        self.mhl.a.next = self.sa.val().get_bits::<6>(18);
        self.mhl.b.next = self.sb.val().get_bits::<18>(0);
        self.mhh.a.next = self.sa.val().get_bits::<6>(18);
        self.mhh.b.next = self.sb.val().get_bits::<6>(18);
        self.ll.next = self.mll.p.val();
        self.lh.next = self.mlh.p.val();
        self.hl.next = self.mhl.p.val();
        self.hh.next = self.mhh.p.val();
    }
}

crate::settled_block! {
/// Piece 3 of [`super::FpMulP`]: [`FpMulProduct`]'s four partial products, each on a
/// [`MulUReg`] leaf, with or without the DSP slice's operand and product registers.
///
/// Ports: `clock`, `en`, `sa`, `sb` → `ll`, `lh`, `hl`, `hh` (as [`FpMulProduct`]). Latency 2
/// enabled clocks when registered ([`FpMulProductP::new`]`(true)`), else 0 (combinational,
/// `clock` and `en` unused). Exact.
#[derive(Clone, Debug)]
pub struct FpMulProductP {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance the registers.
    pub en: Signal<In, Bit>,
    /// Significand of `a`.
    pub sa: Signal<In, Bits<24>>,
    /// Significand of `b`.
    pub sb: Signal<In, Bits<24>>,
    /// Low × low.
    pub ll: Signal<Out, Bits<36>>,
    /// Low × high.
    pub lh: Signal<Out, Bits<24>>,
    /// High × low.
    pub hl: Signal<Out, Bits<24>>,
    /// High × high.
    pub hh: Signal<Out, Bits<12>>,
    mll: MulUReg<18, 18, 36>,
    mlh: MulUReg<18, 6, 24>,
    mhl: MulUReg<6, 18, 24>,
    mhh: MulUReg<6, 6, 12>,
}
}

impl FpMulProductP {
    /// The partial products with (`true`, latency 2) or without the DSP registers.
    pub fn new(registered: bool) -> Self {
        Self {
            settle: crate::common::settle::SettleState::new(registered),
            clock: Default::default(),
            en: Default::default(),
            sa: Default::default(),
            sb: Default::default(),
            ll: Default::default(),
            lh: Default::default(),
            hl: Default::default(),
            hh: Default::default(),
            mll: MulUReg::new(registered),
            mlh: MulUReg::new(registered),
            mhl: MulUReg::new(registered),
            mhh: MulUReg::new(registered),
        }
    }

    /// Register stages: 2 or 0.
    pub fn stages(&self) -> usize {
        self.mll.stages()
    }
}

impl Logic for FpMulProductP {
    #[hdl_gen]
    fn update(&mut self) {
        self.mll.clock.next = self.clock.val();
        self.mlh.clock.next = self.clock.val();
        self.mhl.clock.next = self.clock.val();
        self.mhh.clock.next = self.clock.val();
        self.mll.en.next = self.en.val();
        self.mlh.en.next = self.en.val();
        self.mhl.en.next = self.en.val();
        self.mhh.en.next = self.en.val();
        self.mll.a.next = self.sa.val().get_bits::<18>(0);
        self.mll.b.next = self.sb.val().get_bits::<18>(0);
        self.mlh.a.next = self.sa.val().get_bits::<18>(0);
        self.mlh.b.next = self.sb.val().get_bits::<6>(18);
        self.mhl.a.next = self.sa.val().get_bits::<6>(18);
        self.mhl.b.next = self.sb.val().get_bits::<18>(0);
        self.mhh.a.next = self.sa.val().get_bits::<6>(18);
        self.mhh.b.next = self.sb.val().get_bits::<6>(18);
        self.ll.next = self.mll.p.val();
        self.lh.next = self.mlh.p.val();
        self.hl.next = self.mhl.p.val();
        self.hh.next = self.mhh.p.val();
    }
}

crate::settled_block! {
/// Piece 4 of [`FpMul`]: the 48-bit product from its partial products.
///
/// Ports: `ll`, `lh`, `hl`, `hh` → `p` = {hh, ll} + ((lh + hl) << 18). Combinational, exact.
#[derive(Clone, Debug, Default)]
pub struct FpMulSum {
    /// Low × low.
    pub ll: Signal<In, Bits<36>>,
    /// Low × high.
    pub lh: Signal<In, Bits<24>>,
    /// High × low.
    pub hl: Signal<In, Bits<24>>,
    /// High × high.
    pub hh: Signal<In, Bits<12>>,
    /// Product.
    pub p: Signal<Out, Bits<48>>,
    mid: Signal<Local, Bits<48>>,
    outer: Signal<Local, Bits<48>>,
}
}

impl Logic for FpMulSum {
    #[hdl_gen]
    fn update(&mut self) {
        self.mid.next = bit_cast::<48, 24>(self.lh.val()) + bit_cast::<48, 24>(self.hl.val());
        self.outer.next =
            (bit_cast::<48, 12>(self.hh.val()) << 36) | bit_cast::<48, 36>(self.ll.val());
        self.p.next = self.outer.val() + (self.mid.val() << 18);
    }
}

crate::settled_block! {
/// Piece 5 of [`FpMul`]: one-bit normalisation, exponent, denormal shift amount.
///
/// Ports: `p`, `eob` → `w` = {24-bit significand, guard, sticky, 6 zero bits}, `k` (the right
/// shift to the denormal position, 0 for a normal result, at most 31), `e1` (the exponent field
/// less one of a normal result, 0 below the normal range), `big` (the exponent overflows).
/// Combinational.
#[derive(Clone, Debug, Default)]
pub struct FpMulNorm {
    /// Product.
    pub p: Signal<In, Bits<48>>,
    /// Biased exponent before normalisation.
    pub eob: Signal<In, Bits<16>>,
    /// Significand, guard and sticky bits.
    pub w: Signal<Out, Bits<32>>,
    /// Denormal right shift (five bits: the shifter behind it has five levels).
    pub k: Signal<Out, Bits<5>>,
    /// Exponent field less one.
    pub e1: Signal<Out, Bits<8>>,
    /// Exponent overflow.
    pub big: Signal<Out, Bit>,
    phi: Signal<Local, Bits<24>>,
    plo: Signal<Local, Bits<24>>,
    top: Signal<Local, Bit>,
    m: Signal<Local, Bits<32>>,
    grd: Signal<Local, Bit>,
    stlo: Signal<Local, Bits<24>>,
    kk0: Signal<Local, Bits<5>>,
    kk1: Signal<Local, Bits<5>>,
    sub0: Signal<Local, Bit>,
    sub1: Signal<Local, Bit>,
    e10: Signal<Local, Bits<8>>,
    e11: Signal<Local, Bits<8>>,
    big0: Signal<Local, Bit>,
    big1: Signal<Local, Bit>,
    kk: Signal<Local, Bits<5>>,
    sub: Signal<Local, Bit>,
    e1v: Signal<Local, Bits<8>>,
    wv: Signal<Local, Bits<32>>,
}
}

impl Logic for FpMulNorm {
    #[hdl_gen]
    fn update(&mut self) {
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
        // W = {m, guard, sticky, 6'b0}; below the normal range shift right by 1 - E (sticky kept).
        self.wv.next = self.m.val() << 8;
        if self.grd.val() {
            self.wv.next = self.wv.val() | bits::<32>(0x80);
        }
        if self.stlo.val().any() {
            self.wv.next = self.wv.val() | bits::<32>(0x40);
        }
        self.w.next = self.wv.val();
        // Result exponent E = xa - lza + xb - lzb - 127 + top, held as eo = eob + top = E + 256
        // (always > 0). Each use of eo is decided from eob for both values of top, and top (the
        // product's MSB, which also steers the significand) selects last: no carry chain
        // behind it. 1 - eo in 5 bits (it lies in 1..=31 where it is used) and eo - 1 in 8 bits (0..=253).
        self.kk0.next = bits::<5>(1) - self.eob.val().get_bits::<5>(0);
        if self.eob.val() < bits::<16>(226) {
            self.kk0.next = bits::<5>(31);
        }
        self.kk1.next = bits::<5>(0) - self.eob.val().get_bits::<5>(0);
        if self.eob.val() < bits::<16>(225) {
            self.kk1.next = bits::<5>(31);
        }
        self.sub0.next = self.eob.val() < bits::<16>(257);
        self.sub1.next = self.eob.val() < bits::<16>(256);
        self.e10.next = self.eob.val().get_bits::<8>(0) - bits::<8>(1);
        self.e11.next = self.eob.val().get_bits::<8>(0);
        self.big0.next = self.eob.val() >= bits::<16>(511);
        self.big1.next = self.eob.val() >= bits::<16>(510);
        if self.top.val() {
            self.kk.next = self.kk1.val();
            self.sub.next = self.sub1.val();
            self.e1v.next = self.e11.val();
            self.big.next = self.big1.val();
        } else {
            self.kk.next = self.kk0.val();
            self.sub.next = self.sub0.val();
            self.e1v.next = self.e10.val();
            self.big.next = self.big0.val();
        }
        if self.sub.val() {
            self.k.next = self.kk.val();
            self.e1.next = bits::<8>(0);
        } else {
            self.k.next = bits::<5>(0);
            self.e1.next = self.e1v.val();
        }
    }
}

crate::settled_block! {
/// Piece 6 of [`FpMul`]: the shift to the denormal position.
///
/// Ports: `w`, `k` → `ws` = `w >> k`, `lost` (a one was shifted out; the OR of the bits below
/// `k`, a mask beside the shifter). Combinational.
#[derive(Clone, Debug, Default)]
pub struct FpMulDenorm {
    /// Significand, guard and sticky bits.
    pub w: Signal<In, Bits<32>>,
    /// Right shift.
    pub k: Signal<In, Bits<5>>,
    /// Shifted.
    pub ws: Signal<Out, Bits<32>>,
    /// A one was shifted out.
    pub lost: Signal<Out, Bit>,
    keep: Signal<Local, Bits<32>>,
    lowmask: Signal<Local, Bits<32>>,
    gone: Signal<Local, Bits<32>>,
}
}

impl Logic for FpMulDenorm {
    #[hdl_gen]
    fn update(&mut self) {
        self.ws.next = self.w.val() >> self.k.val();
        self.keep.next = bits::<32>(0xffff_ffff_u64) << self.k.val();
        self.lowmask.next = !self.keep.val();
        self.gone.next = self.w.val() & self.lowmask.val();
        self.lost.next = self.gone.val().any();
    }
}

crate::settled_block! {
/// Piece 7 of [`FpMul`]: rounding and result selection.
///
/// Ports: `ws`, `lost`, `e1`, `big`, `cls` → `y`. Combinational.
#[derive(Clone, Debug, Default)]
pub struct FpMulRound {
    /// Significand, guard and sticky bits at their final position.
    pub ws: Signal<In, Bits<32>>,
    /// A one was shifted out.
    pub lost: Signal<In, Bit>,
    /// Exponent field less one.
    pub e1: Signal<In, Bits<8>>,
    /// Exponent overflow.
    pub big: Signal<In, Bit>,
    /// Class bits.
    pub cls: Signal<In, Bits<4>>,
    /// Product.
    pub y: Signal<Out, Bits<32>>,
    pack: PackRound,
    rnd: Signal<Local, Bit>,
    mag: Signal<Local, Bits<32>>,
    res: Signal<Local, Bits<32>>,
}
}

impl Logic for FpMulRound {
    #[hdl_gen]
    fn update(&mut self) {
        // Round: {E - 1 + hidden, fraction} + increment, saturated to Inf (e1 < 254 whenever
        // `big` is clear).
        self.rnd.next = self.ws.val().get_bit(7)
            & ((self.ws.val() & bits::<32>(0x7f)).any()
                | self.lost.val()
                | self.ws.val().get_bit(8));
        self.pack.e1.next = self.e1.val();
        self.pack.sig.next = self.ws.val().get_bits::<24>(8);
        self.pack.inc.next = self.rnd.val();
        self.mag.next = self.pack.mag.val();
        if self.big.val() {
            self.mag.next = bits::<32>(0x7f80_0000);
        }
        if self.cls.val().get_bit(0) {
            self.mag.next = bits::<32>(0);
        }
        if self.cls.val().get_bit(1) {
            self.mag.next = bits::<32>(0x7f80_0000);
        }
        self.res.next = self.mag.val();
        if self.cls.val().get_bit(3) {
            self.res.next = self.mag.val() | bits::<32>(0x8000_0000_u64);
        }
        if self.cls.val().get_bit(2) {
            self.res.next = bits::<32>(0x7fc0_0000);
        }
        self.y.next = self.res.val();
    }
}

crate::settled_block! {
/// f32 multiplier: the seven pieces wired directly. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct FpMul {
    /// Multiplicand.
    pub a: Signal<In, Bits<32>>,
    /// Multiplier.
    pub b: Signal<In, Bits<32>>,
    /// Product.
    pub y: Signal<Out, Bits<32>>,
    classify: FpMulClass,
    align: FpMulAlign,
    product: FpMulProduct,
    psum: FpMulSum,
    norm: FpMulNorm,
    denorm: FpMulDenorm,
    round: FpMulRound,
}
}

impl Logic for FpMul {
    #[hdl_gen]
    fn update(&mut self) {
        self.classify.a.next = self.a.val();
        self.classify.b.next = self.b.val();
        self.align.ma.next = self.classify.ma.val();
        self.align.mb.next = self.classify.mb.val();
        self.align.lza.next = self.classify.lza.val();
        self.align.lzb.next = self.classify.lzb.val();
        self.align.esum.next = self.classify.esum.val();
        self.product.sa.next = self.align.sa.val();
        self.product.sb.next = self.align.sb.val();
        self.psum.ll.next = self.product.ll.val();
        self.psum.lh.next = self.product.lh.val();
        self.psum.hl.next = self.product.hl.val();
        self.psum.hh.next = self.product.hh.val();
        self.norm.p.next = self.psum.p.val();
        self.norm.eob.next = self.align.eob.val();
        self.denorm.w.next = self.norm.w.val();
        self.denorm.k.next = self.norm.k.val();
        self.round.ws.next = self.denorm.ws.val();
        self.round.lost.next = self.denorm.lost.val();
        self.round.e1.next = self.norm.e1.val();
        self.round.big.next = self.norm.big.val();
        self.round.cls.next = self.classify.cls.val();
        self.y.next = self.round.y.val();
    }
}
