//! IEEE-754 binary32 → signed 32-bit fixed point with `F` fraction bits.
//!
//! Ports: `a: Bits<32>` (f32 bit pattern) → `y: Bits<32>` (two's complement, value `y / 2^F`),
//! `nan: Bit`, `sat: Bit`. `F` is a const generic, `0 ≤ F ≤ 24`. Combinational core, latency 0,
//! built of three pieces in a row: [`FpFixClass`] (fields, classes, shift amounts, the sticky
//! mask), [`FpFixShift`] (the shifts, guard and sticky bits) and [`FpFixRound`] (rounding
//! increment and two's complement in one add, saturation); [`super::FpToFixedP`] puts its
//! registers between them.
//!
//! - Rounding: `a · 2^F` is rounded to the nearest integer, ties to even (`0.5 → 0`, `1.5 → 2`,
//!   `−2.5 → −2` for `F = 0`).
//! - Saturation: results above `i32::MAX` give `i32::MAX`, below `i32::MIN` give `i32::MIN`, with
//!   `sat = 1`; ±Inf saturate the same way. `sat` means "the rounded value was out of range":
//!   an exact `−2^31` (e.g. `−2147483648.0` with `F = 0`) is representable and gives `sat = 0`.
//! - NaN (quiet or signalling): `y = 0`, `nan = 1`, `sat = 0`.
//! - Denormals: converted exactly like normals (they round to 0 for every `F ≤ 24`, or to
//!   `−0 → 0`); ±0 → 0.
//!
//! Datapath: with significand `M` (24 bits) and effective exponent `E`, `a · 2^F = M · 2^(E + F − 150)`.
//! For `E + F ≥ 150` the result is `M << (E + F − 150)` (exact; a shift of 8 or more overflows). For
//! `E + F < 150` `M` is shifted right by `k = 150 − E − F` (shifts above 31 clamped — they round
//! to 0 anyway): `M >> (k − 1)` gives the guard bit and the quotient, the bits below them (the
//! sticky bit) are `M` under the mask `2^(k−1) − 1`, and the increment is guard ∧ (sticky ∨ lsb).
//! A negative result −(q + inc) is `!q + !inc`, so rounding and negation share one adder.

use rust_hdl::prelude::*;

/// Piece 1: fields and shift amounts. `a` → `m` (the 24-bit significand, hidden bit set for
/// normals), `left` (E + F ≥ 150: shift left), `lsh` (E + F − 150, low 3 bits: the left shift when
/// not `over`), `rm1` (k − 1 = 149 − E − F, 30 for k > 31), `mask` (2^rm1 − 1), `flags` (bit 0
/// sign, 1 `over` = E + F ≥ 158, 2 inf, 3 nan, 4 the value is exactly −2^31). Denormals take
/// E = 1.
#[derive(Clone, Debug, LogicBlock)]
pub struct FpFixClass<const F: usize> {
    /// f32 bits.
    pub a: Signal<In, Bits<32>>,
    /// Significand.
    pub m: Signal<Out, Bits<32>>,
    /// Shift left.
    pub left: Signal<Out, Bit>,
    /// Left shift.
    pub lsh: Signal<Out, Bits<3>>,
    /// Right shift less one.
    pub rm1: Signal<Out, Bits<5>>,
    /// The bits below the guard bit.
    pub mask: Signal<Out, Bits<32>>,
    /// {min_exact, nan, inf, over, sign}.
    pub flags: Signal<Out, Bits<5>>,
    /// 150 − F: the least exponent of the left shifts.
    left_min: Constant<Bits<8>>,
    /// 158 − F: the least exponent that overflows.
    over_min: Constant<Bits<8>>,
    /// 119 − F: below it the right shift is clamped.
    far: Constant<Bits<8>>,
    /// 149 − F.
    rbase: Constant<Bits<8>>,
    e: Signal<Local, Bits<8>>,
    fr: Signal<Local, Bits<32>>,
    ee: Signal<Local, Bits<8>>,
    dl: Signal<Local, Bits<8>>,
    dr: Signal<Local, Bits<8>>,
    ones: Signal<Local, Bits<32>>,
    over: Signal<Local, Bit>,
    inf: Signal<Local, Bit>,
    nan: Signal<Local, Bit>,
    exact: Signal<Local, Bit>,
}

impl<const F: usize> Default for FpFixClass<F> {
    fn default() -> Self {
        assert!(F <= 24, "FpToFixed supports 0 ≤ F ≤ 24 fraction bits");
        let k = |v: usize| Constant::new((v as u64).into());
        Self {
            a: Default::default(),
            m: Default::default(),
            left: Default::default(),
            lsh: Default::default(),
            rm1: Default::default(),
            mask: Default::default(),
            flags: Default::default(),
            left_min: k(150 - F),
            over_min: k(158 - F),
            far: k(119 - F),
            rbase: k(149 - F),
            e: Default::default(),
            fr: Default::default(),
            ee: Default::default(),
            dl: Default::default(),
            dr: Default::default(),
            ones: Default::default(),
            over: Default::default(),
            inf: Default::default(),
            nan: Default::default(),
            exact: Default::default(),
        }
    }
}

impl<const F: usize> Logic for FpFixClass<F> {
    #[hdl_gen]
    fn update(&mut self) {
        self.e.next = self.a.val().get_bits::<8>(23);
        self.fr.next = self.a.val() & bits::<32>(0x007f_ffff);
        self.nan.next = (self.e.val() == bits::<8>(0xff)) & self.fr.val().any();
        self.inf.next = (self.e.val() == bits::<8>(0xff)) & !self.fr.val().any();
        self.m.next = self.fr.val();
        self.ee.next = bits::<8>(1);
        if self.e.val().any() {
            self.m.next = self.fr.val() | bits::<32>(0x0080_0000);
            self.ee.next = self.e.val();
        }
        self.left.next = self.ee.val() >= self.left_min.val();
        self.over.next = self.ee.val() >= self.over_min.val();
        self.dl.next = self.ee.val() - self.left_min.val();
        self.lsh.next = bit_cast::<3, 8>(self.dl.val());
        self.dr.next = self.rbase.val() - self.ee.val();
        self.rm1.next = bit_cast::<5, 8>(self.dr.val());
        if self.ee.val() < self.far.val() {
            self.rm1.next = bits::<5>(30);
        }
        self.ones.next = bits::<32>(0xffff_ffff_u64) << bit_cast::<32, 5>(self.rm1.val());
        self.mask.next = !self.ones.val();
        self.exact.next = self.a.val().get_bit(31)
            & (self.ee.val() == self.over_min.val())
            & !self.fr.val().any();
        self.flags.next = bit_cast::<5, 1>(self.a.val().get_bit(31).into())
            | (bit_cast::<5, 1>(self.over.val().into()) << 1)
            | (bit_cast::<5, 1>(self.inf.val().into()) << 2)
            | (bit_cast::<5, 1>(self.nan.val().into()) << 3)
            | (bit_cast::<5, 1>(self.exact.val().into()) << 4);
    }
}

crate::settled_block! {
/// Piece 2: the shifts. `m`, `left`, `lsh`, `rm1`, `mask` → `v` (`m << lsh` when `left`, else
/// the quotient `m >> (rm1 + 1)`) and `inc` (the round-to-nearest-even increment of a right
/// shift: guard ∧ (sticky ∨ lsb); 0 for a left shift).
#[derive(Clone, Debug, Default)]
pub struct FpFixShift {
    /// Significand.
    pub m: Signal<In, Bits<32>>,
    /// Shift left.
    pub left: Signal<In, Bit>,
    /// Left shift.
    pub lsh: Signal<In, Bits<3>>,
    /// Right shift less one.
    pub rm1: Signal<In, Bits<5>>,
    /// The bits below the guard bit.
    pub mask: Signal<In, Bits<32>>,
    /// Shifted magnitude.
    pub v: Signal<Out, Bits<32>>,
    /// Rounding increment.
    pub inc: Signal<Out, Bit>,
    sh: Signal<Local, Bits<32>>,
    q: Signal<Local, Bits<32>>,
    sticky: Signal<Local, Bit>,
}
}

impl Logic for FpFixShift {
    #[hdl_gen]
    fn update(&mut self) {
        self.sh.next = self.m.val() >> bit_cast::<32, 5>(self.rm1.val());
        self.q.next = self.sh.val() >> 1;
        self.sticky.next = (self.m.val() & self.mask.val()).any();
        self.v.next = self.q.val();
        self.inc.next = self.sh.val().get_bit(0) & (self.sticky.val() | self.q.val().get_bit(0));
        if self.left.val() {
            self.v.next = self.m.val() << bit_cast::<32, 3>(self.lsh.val());
            self.inc.next = false;
        }
    }
}

crate::settled_block! {
/// Piece 3: sign, rounding and saturation. `v`, `inc`, `flags` (piece 1's) → `y` = ±(v + inc)
/// (negative: `!v + !inc`), saturated to `i32::MAX`/`i32::MIN` when `over` or inf (`sat` unless the
/// value is exactly −2^31), 0 for NaN; `nan`, `sat`.
#[derive(Clone, Debug, Default)]
pub struct FpFixRound {
    /// Shifted magnitude.
    pub v: Signal<In, Bits<32>>,
    /// Rounding increment.
    pub inc: Signal<In, Bit>,
    /// {min_exact, nan, inf, over, sign}.
    pub flags: Signal<In, Bits<5>>,
    /// Fixed-point result.
    pub y: Signal<Out, Bits<32>>,
    /// NaN input.
    pub nan: Signal<Out, Bit>,
    /// Saturated.
    pub sat: Signal<Out, Bit>,
    sign: Signal<Local, Bit>,
    big: Signal<Local, Bit>,
    vx: Signal<Local, Bits<32>>,
    sum: Signal<Local, Bits<32>>,
}
}

impl Logic for FpFixRound {
    #[hdl_gen]
    fn update(&mut self) {
        self.sign.next = self.flags.val().get_bit(0);
        self.big.next = self.flags.val().get_bit(1) | self.flags.val().get_bit(2);
        self.vx.next = self.v.val();
        if self.sign.val() {
            self.vx.next = !self.v.val();
        }
        self.sum.next =
            self.vx.val() + bit_cast::<32, 1>((self.inc.val() ^ self.sign.val()).into());
        self.y.next = self.sum.val();
        self.sat.next = self.big.val() & !self.flags.val().get_bit(4);
        if self.big.val() {
            self.y.next = bits::<32>(0x7fff_ffff);
            if self.sign.val() {
                self.y.next = bits::<32>(0x8000_0000_u64);
            }
        }
        self.nan.next = self.flags.val().get_bit(3);
        if self.flags.val().get_bit(3) {
            self.y.next = bits::<32>(0);
            self.sat.next = false;
        }
    }
}

/// f32 → fixed-point converter: the three pieces in a row. See the module documentation.
#[derive(Clone, Debug, LogicBlock, Default)]
pub struct FpToFixed<const F: usize> {
    /// f32 bits.
    pub a: Signal<In, Bits<32>>,
    /// Fixed-point result (two's complement, `F` fraction bits).
    pub y: Signal<Out, Bits<32>>,
    /// The input was NaN (`y = 0`).
    pub nan: Signal<Out, Bit>,
    /// The result saturated.
    pub sat: Signal<Out, Bit>,
    classify: FpFixClass<F>,
    shift: FpFixShift,
    round: FpFixRound,
}

impl<const F: usize> Logic for FpToFixed<F> {
    #[hdl_gen]
    fn update(&mut self) {
        self.classify.a.next = self.a.val();
        self.shift.m.next = self.classify.m.val();
        self.shift.left.next = self.classify.left.val();
        self.shift.lsh.next = self.classify.lsh.val();
        self.shift.rm1.next = self.classify.rm1.val();
        self.shift.mask.next = self.classify.mask.val();
        self.round.v.next = self.shift.v.val();
        self.round.inc.next = self.shift.inc.val();
        self.round.flags.next = self.classify.flags.val();
        self.y.next = self.round.y.val();
        self.nan.next = self.round.nan.val();
        self.sat.next = self.round.sat.val();
    }
}
