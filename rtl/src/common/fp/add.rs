//! IEEE-754 binary32 adder/subtracter.
//!
//! Ports: `a: Bits<32>`, `b: Bits<32>` (f32 bit patterns), `sub: Bit` (negate `b`: `y = a - b`)
//! → `y: Bits<32>` = `a + (sub ? -b : b)`. Combinational core, latency 0 (see [`super::FpAddP`] for
//! the pipelined version).
//!
//! - Rounding: round to nearest, ties to even; overflow rounds to ±Inf.
//! - Denormals: full support, inputs and outputs (no flush to zero); underflowing sums are exact.
//! - Zeros: `x + (−x) = +0`, `(−0) + (−0) = −0`, `(+0) + (−0) = +0` (round-to-nearest rules).
//! - Infinities: `Inf + Inf = Inf`, `Inf − Inf = NaN`, `Inf + finite = Inf`.
//! - NaN: any NaN result is the canonical quiet NaN `0x7FC00000`; payloads are not propagated and
//!   signalling NaNs are treated as quiet ones.
//!
//! Datapath (single path, 27-bit significand window with guard, round and sticky bits), six
//! combinational pieces in a row, each a block of its own so that [`super::FpAddP`] can put a
//! register between any two of them:
//! 1. [`FpAddOrder`]: classes; order the operands by magnitude (`|L| ≥ |S|`, the result takes the
//!    sign of `L`); the exponent difference.
//! 2. [`FpAddAlign`]: align `S` right by the exponent difference; the bits shifted out are ORed
//!    into the sticky bit (a mask of the low bits, beside the shifter). No clamp in front of the
//!    shifter and the mask: they take the difference's five low bits straight from their input
//!    (from 27 on the 27-bit window is shifted out by itself) and its three high bits clear the
//!    shift result and fill the mask.
//! 3. [`FpAddSum`]: add or subtract the 27-bit values (28-bit result); beside the adder, a marker
//!    bit that limits the normalising shift so that the exponent does not drop below the
//!    denormal exponent (the result is then denormal, exactly as IEEE requires).
//! 4. [`FpAddLead`]: the normalising shift, the leading-zero count ([`Lzc`]) of the sum with the
//!    marker ORed in: the limit costs no compare after the count.
//! 5. [`FpAddNorm`]: on a carry shift right by one (sticky kept), otherwise left by that count;
//!    the result exponent.
//! 6. [`FpAddRound`]: `{E − 1 + hidden bit, fraction}` plus the round increment is one 32-bit
//!    increment, so that a rounding carry moves into the exponent (denormal → normal,
//!    normal → Inf) by itself; then the special cases.
//!
//! Between the pieces: `ml`, `ms`, `dexp` (1 → 2); `xl`, `al` (2 → 3); `sum` (3 → 4, 5); `mark`
//! (3 → 4); `sh` (4 → 5); `nrm`, `eexp` (5 → 6); the control word `ctl` = {el[7:0], eff_sub[8],
//! sl[9], sa[10], sb[11], a_inf[12], b_inf[13], is_nan[14]} from piece 1 to piece 5, and its flags
//! `ctl[14:8]` on to piece 6.

use super::lzc::Lzc;
use super::pack::PackRound;
use rust_hdl::prelude::*;

crate::settled_block! {
/// Piece 1 of [`FpAdd`]: classes, ordering by magnitude, exponent difference.
///
/// Ports: `a`, `b`, `sub` → `ml` (the larger 24-bit significand), `ms` (the smaller one),
/// `dexp` (exponent of `L` minus exponent of `S`), `ctl`. Combinational.
#[derive(Clone, Debug, Default)]
pub struct FpAddOrder {
    /// First operand.
    pub a: Signal<In, Bits<32>>,
    /// Second operand.
    pub b: Signal<In, Bits<32>>,
    /// Subtract (`b` negated).
    pub sub: Signal<In, Bit>,
    /// Larger significand (hidden bit at 23).
    pub ml: Signal<Out, Bits<32>>,
    /// Smaller significand.
    pub ms: Signal<Out, Bits<32>>,
    /// Exponent difference.
    pub dexp: Signal<Out, Bits<8>>,
    /// Exponent, signs and classes.
    pub ctl: Signal<Out, Bits<15>>,
    sa: Signal<Local, Bit>,
    sb: Signal<Local, Bit>,
    ea: Signal<Local, Bits<8>>,
    eb: Signal<Local, Bits<8>>,
    fa: Signal<Local, Bits<32>>,
    fb: Signal<Local, Bits<32>>,
    a_nan: Signal<Local, Bit>,
    b_nan: Signal<Local, Bit>,
    a_inf: Signal<Local, Bit>,
    b_inf: Signal<Local, Bit>,
    is_nan: Signal<Local, Bit>,
    ma: Signal<Local, Bits<32>>,
    mb: Signal<Local, Bits<32>>,
    xa: Signal<Local, Bits<8>>,
    xb: Signal<Local, Bits<8>>,
    amag: Signal<Local, Bits<32>>,
    bmag: Signal<Local, Bits<32>>,
    swap: Signal<Local, Bit>,
    sl: Signal<Local, Bit>,
    el: Signal<Local, Bits<8>>,
    dab: Signal<Local, Bits<8>>,
    dba: Signal<Local, Bits<8>>,
    eff_sub: Signal<Local, Bit>,
    c: Signal<Local, Bits<16>>,
}
}

impl Logic for FpAddOrder {
    #[hdl_gen]
    fn update(&mut self) {
        // Fields and classes.
        self.sa.next = self.a.val().get_bit(31);
        self.sb.next = self.b.val().get_bit(31) ^ self.sub.val();
        self.ea.next = self.a.val().get_bits::<8>(23);
        self.eb.next = self.b.val().get_bits::<8>(23);
        self.fa.next = self.a.val() & bits::<32>(0x007f_ffff);
        self.fb.next = self.b.val() & bits::<32>(0x007f_ffff);
        self.a_nan.next = (self.ea.val() == 0xff) & self.fa.val().any();
        self.b_nan.next = (self.eb.val() == 0xff) & self.fb.val().any();
        self.a_inf.next = (self.ea.val() == 0xff) & !self.fa.val().any();
        self.b_inf.next = (self.eb.val() == 0xff) & !self.fb.val().any();
        self.eff_sub.next = self.sa.val() ^ self.sb.val();
        self.is_nan.next = self.a_nan.val()
            | self.b_nan.val()
            | (self.a_inf.val() & self.b_inf.val() & self.eff_sub.val());
        // Significands with the hidden bit; denormals use exponent 1.
        self.ma.next = self.fa.val();
        self.xa.next = self.ea.val();
        if self.ea.val().any() {
            self.ma.next = self.fa.val() | bits::<32>(0x0080_0000);
        } else {
            self.xa.next = bits::<8>(1);
        }
        self.mb.next = self.fb.val();
        self.xb.next = self.eb.val();
        if self.eb.val().any() {
            self.mb.next = self.fb.val() | bits::<32>(0x0080_0000);
        } else {
            self.xb.next = bits::<8>(1);
        }
        // Order by magnitude: |L| >= |S|.
        self.amag.next = self.a.val() & bits::<32>(0x7fff_ffff);
        self.bmag.next = self.b.val() & bits::<32>(0x7fff_ffff);
        self.swap.next = self.bmag.val() > self.amag.val();
        if self.swap.val() {
            self.sl.next = self.sb.val();
            self.el.next = self.xb.val();
            self.ml.next = self.mb.val();
            self.ms.next = self.ma.val();
        } else {
            self.sl.next = self.sa.val();
            self.el.next = self.xa.val();
            self.ml.next = self.ma.val();
            self.ms.next = self.mb.val();
        }
        // Both differences beside the compare, so that `swap` only selects one.
        self.dab.next = self.xa.val() - self.xb.val();
        self.dba.next = self.xb.val() - self.xa.val();
        self.dexp.next = self.dab.val();
        if self.swap.val() {
            self.dexp.next = self.dba.val();
        }
        self.c.next = bit_cast::<16, 8>(self.el.val());
        if self.eff_sub.val() {
            self.c.next = self.c.val() | bits::<16>(1 << 8);
        }
        if self.sl.val() {
            self.c.next = self.c.val() | bits::<16>(1 << 9);
        }
        if self.sa.val() {
            self.c.next = self.c.val() | bits::<16>(1 << 10);
        }
        if self.sb.val() {
            self.c.next = self.c.val() | bits::<16>(1 << 11);
        }
        if self.a_inf.val() {
            self.c.next = self.c.val() | bits::<16>(1 << 12);
        }
        if self.b_inf.val() {
            self.c.next = self.c.val() | bits::<16>(1 << 13);
        }
        if self.is_nan.val() {
            self.c.next = self.c.val() | bits::<16>(1 << 14);
        }
        self.ctl.next = self.c.val().get_bits::<15>(0);
    }
}

crate::settled_block! {
/// Piece 2 of [`FpAdd`]: alignment.
///
/// Ports: `ml`, `ms`, `dexp` → `xl` (the larger significand in the 27-bit window), `al` (the
/// smaller one shifted right by `dexp`, sticky in bit 0). The sticky bit is the OR of the bits
/// below the shift amount (a mask beside the shifter, not a shift back). Combinational.
#[derive(Clone, Debug, Default)]
pub struct FpAddAlign {
    /// Larger significand.
    pub ml: Signal<In, Bits<32>>,
    /// Smaller significand.
    pub ms: Signal<In, Bits<32>>,
    /// Exponent difference.
    pub dexp: Signal<In, Bits<8>>,
    /// Larger significand, 27-bit window.
    pub xl: Signal<Out, Bits<32>>,
    /// Smaller significand, aligned.
    pub al: Signal<Out, Bits<32>>,
    far: Signal<Local, Bit>,
    dsh: Signal<Local, Bits<5>>,
    xs: Signal<Local, Bits<32>>,
    keep: Signal<Local, Bits<32>>,
    lowmask: Signal<Local, Bits<32>>,
    lost: Signal<Local, Bits<32>>,
    alv: Signal<Local, Bits<32>>,
}
}

impl Logic for FpAddAlign {
    #[hdl_gen]
    fn update(&mut self) {
        // 24-bit significands with three extra bits (guard, round, sticky). A difference of 32 or
        // more (`far`) shifts everything out; 27 to 31 do so by themselves.
        self.far.next = self.dexp.val().get_bits::<3>(5).any();
        self.dsh.next = self.dexp.val().get_bits::<5>(0);
        self.xl.next = self.ml.val() << 3;
        self.xs.next = self.ms.val() << 3;
        self.keep.next = bits::<32>(0xffff_ffff_u64) << self.dsh.val();
        self.lowmask.next = !self.keep.val();
        self.alv.next = self.xs.val() >> self.dsh.val();
        if self.far.val() {
            self.lowmask.next = bits::<32>(0xffff_ffff_u64);
            self.alv.next = bits::<32>(0);
        }
        self.lost.next = self.xs.val() & self.lowmask.val();
        if self.lost.val().any() {
            self.alv.next = self.alv.val() | bits::<32>(1);
        }
        self.al.next = self.alv.val();
    }
}

crate::settled_block! {
/// Piece 3 of [`FpAdd`]: the significand sum, and the limit of the normalising shift.
///
/// Ports: `xl`, `al`, `eff_sub`, `el` (the exponent of `L`) → `sum` = `xl ± al` (28 bits;
/// `|L| ≥ |S|`, so a difference is never negative; bit 27 is the carry), `mark` (a one at bit
/// `27 − el` when `el ≤ 27`, else zero: the leading-zero count of `sum | mark` is the count of
/// `sum` limited to `el − 1`, so that the exponent stays ≥ 1). Combinational.
#[derive(Clone, Debug, Default)]
pub struct FpAddSum {
    /// Larger significand.
    pub xl: Signal<In, Bits<32>>,
    /// Smaller significand, aligned.
    pub al: Signal<In, Bits<32>>,
    /// Subtract.
    pub eff_sub: Signal<In, Bit>,
    /// Exponent of the larger operand.
    pub el: Signal<In, Bits<8>>,
    /// Sum.
    pub sum: Signal<Out, Bits<32>>,
    /// Shift-limit marker.
    pub mark: Signal<Out, Bits<27>>,
    lim: Signal<Local, Bits<8>>,
}
}

impl Logic for FpAddSum {
    #[hdl_gen]
    fn update(&mut self) {
        if self.eff_sub.val() {
            self.sum.next = self.xl.val() - self.al.val();
        } else {
            self.sum.next = self.xl.val() + self.al.val();
        }
        // el >= 1 always (a denormal's exponent is taken as 1).
        self.lim.next = self.el.val() - bits::<8>(1);
        self.mark.next = bits::<27>(0);
        if self.el.val() <= 27 {
            self.mark.next = bits::<27>(1 << 26) >> self.lim.val();
        }
    }
}

crate::settled_block! {
/// Piece 4 of [`FpAdd`]: the normalising shift.
///
/// Ports: `sum` (`sum[26:0]`), `mark` → `sh` = the leading zeros of `sum | mark` (the leading
/// zeros of the 27-bit sum, at most `el − 1`). Combinational: one 27-bit leading-zero count.
#[derive(Clone, Debug, Default)]
pub struct FpAddLead {
    /// Sum without its carry bit.
    pub sum: Signal<In, Bits<27>>,
    /// Shift-limit marker.
    pub mark: Signal<In, Bits<27>>,
    /// Left shift.
    pub sh: Signal<Out, Bits<8>>,
    lzc: Lzc<27>,
}
}

impl Logic for FpAddLead {
    #[hdl_gen]
    fn update(&mut self) {
        self.lzc.a.next = self.sum.val() | self.mark.val();
        self.sh.next = bit_cast::<8, 7>(self.lzc.count.val());
    }
}

crate::settled_block! {
/// Piece 5 of [`FpAdd`]: normalisation and the result exponent.
///
/// Ports: `sum`, `sh`, `el` → `nrm`: after a carry `sum >> 1` with the sticky bit kept, else
/// `sum << sh` (hidden bit at 26 unless denormal); `eexp`, the exponent field before the hidden
/// bit is added: `el` after a carry, else `el − 1 − sh`. Combinational.
#[derive(Clone, Debug, Default)]
pub struct FpAddNorm {
    /// Sum.
    pub sum: Signal<In, Bits<32>>,
    /// Left shift.
    pub sh: Signal<In, Bits<8>>,
    /// Exponent of the larger operand.
    pub el: Signal<In, Bits<8>>,
    /// Normalised sum.
    pub nrm: Signal<Out, Bits<32>>,
    /// Result exponent before rounding, less the hidden bit.
    pub eexp: Signal<Out, Bits<8>>,
    right: Signal<Local, Bits<32>>,
}
}

impl Logic for FpAddNorm {
    #[hdl_gen]
    fn update(&mut self) {
        self.right.next = self.sum.val() >> 1;
        if self.sum.val().get_bit(0) {
            self.right.next = self.right.val() | bits::<32>(1);
        }
        if self.sum.val().get_bit(27) {
            self.nrm.next = self.right.val();
            self.eexp.next = self.el.val();
        } else {
            self.nrm.next = self.sum.val() << self.sh.val();
            self.eexp.next = self.el.val() - bits::<8>(1) - self.sh.val();
        }
    }
}

crate::settled_block! {
/// Piece 6 of [`FpAdd`]: rounding and result selection.
///
/// Ports: `nrm`, `eexp`, `flags` (`ctl[14:8]`) → `y`. The sum is zero exactly when `nrm` is (the left shift never
/// drops a one). Combinational.
#[derive(Clone, Debug, Default)]
pub struct FpAddRound {
    /// Normalised sum.
    pub nrm: Signal<In, Bits<32>>,
    /// Result exponent before rounding, less the hidden bit.
    pub eexp: Signal<In, Bits<8>>,
    /// Signs and classes: `ctl[14:8]`.
    pub flags: Signal<In, Bits<7>>,
    /// Sum.
    pub y: Signal<Out, Bits<32>>,
    eff_sub: Signal<Local, Bit>,
    sl: Signal<Local, Bit>,
    sa: Signal<Local, Bit>,
    sb: Signal<Local, Bit>,
    a_inf: Signal<Local, Bit>,
    b_inf: Signal<Local, Bit>,
    is_nan: Signal<Local, Bit>,
    pack: PackRound,
    rnd: Signal<Local, Bit>,
    mag: Signal<Local, Bits<32>>,
    sgn: Signal<Local, Bit>,
    res: Signal<Local, Bits<32>>,
}
}

impl Logic for FpAddRound {
    #[hdl_gen]
    fn update(&mut self) {
        self.eff_sub.next = self.flags.val().get_bit(0);
        self.sl.next = self.flags.val().get_bit(1);
        self.sa.next = self.flags.val().get_bit(2);
        self.sb.next = self.flags.val().get_bit(3);
        self.a_inf.next = self.flags.val().get_bit(4);
        self.b_inf.next = self.flags.val().get_bit(5);
        self.is_nan.next = self.flags.val().get_bit(6);
        // Round: {E - 1 + hidden, fraction} + increment, saturated to Inf; the hidden bit adds
        // the 1 back into the exponent (or leaves a denormal's exponent field at 0).
        self.rnd.next = self.nrm.val().get_bit(2)
            & (self.nrm.val().get_bit(1) | self.nrm.val().get_bit(0) | self.nrm.val().get_bit(3));
        self.pack.e1.next = self.eexp.val();
        self.pack.sig.next = self.nrm.val().get_bits::<24>(3);
        self.pack.inc.next = self.rnd.val();
        self.mag.next = self.pack.mag.val();
        self.sgn.next = self.sl.val();
        if !self.nrm.val().any() {
            // Exact zero: -0 only for (-0) + (-0).
            self.mag.next = bits::<32>(0);
            self.sgn.next = self.sa.val() & !self.eff_sub.val();
        }
        if self.a_inf.val() | self.b_inf.val() {
            self.mag.next = bits::<32>(0x7f80_0000);
            self.sgn.next = self.sb.val();
            if self.a_inf.val() {
                self.sgn.next = self.sa.val();
            }
        }
        self.res.next = self.mag.val();
        if self.sgn.val() {
            self.res.next = self.mag.val() | bits::<32>(0x8000_0000_u64);
        }
        if self.is_nan.val() {
            self.res.next = bits::<32>(0x7fc0_0000);
        }
        self.y.next = self.res.val();
    }
}

crate::settled_block! {
/// f32 adder: the six pieces wired directly. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct FpAdd {
    /// First operand.
    pub a: Signal<In, Bits<32>>,
    /// Second operand.
    pub b: Signal<In, Bits<32>>,
    /// Subtract (`b` negated).
    pub sub: Signal<In, Bit>,
    /// Sum.
    pub y: Signal<Out, Bits<32>>,
    order: FpAddOrder,
    align: FpAddAlign,
    add: FpAddSum,
    lead: FpAddLead,
    norm: FpAddNorm,
    round: FpAddRound,
}
}

impl Logic for FpAdd {
    #[hdl_gen]
    fn update(&mut self) {
        self.order.a.next = self.a.val();
        self.order.b.next = self.b.val();
        self.order.sub.next = self.sub.val();
        self.align.ml.next = self.order.ml.val();
        self.align.ms.next = self.order.ms.val();
        self.align.dexp.next = self.order.dexp.val();
        self.add.xl.next = self.align.xl.val();
        self.add.al.next = self.align.al.val();
        self.add.eff_sub.next = self.order.ctl.val().get_bit(8);
        self.add.el.next = self.order.ctl.val().get_bits::<8>(0);
        self.lead.sum.next = self.add.sum.val().get_bits::<27>(0);
        self.lead.mark.next = self.add.mark.val();
        self.norm.sum.next = self.add.sum.val();
        self.norm.sh.next = self.lead.sh.val();
        self.norm.el.next = self.order.ctl.val().get_bits::<8>(0);
        self.round.nrm.next = self.norm.nrm.val();
        self.round.eexp.next = self.norm.eexp.val();
        self.round.flags.next = self.order.ctl.val().get_bits::<7>(8);
        self.y.next = self.round.y.val();
    }
}
