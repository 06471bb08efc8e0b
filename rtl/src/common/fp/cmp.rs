//! IEEE-754 binary32 comparator with minNum/maxNum.
//!
//! Ports: `a: Bits<32>`, `b: Bits<32>` → `lt`, `eq`, `gt`, `unordered: Bit`; `min`, `max: Bits<32>`.
//! Combinational core, latency 0 (see [`super::FpCmpP`]).
//!
//! - Relations (IEEE-754 quiet comparisons): `−0 == +0`; a NaN operand (quiet or signalling) makes
//!   the pair unordered: `unordered = 1` and `lt = eq = gt = 0`. Otherwise exactly one of `lt`,
//!   `eq`, `gt` is set. Denormals compare exactly (no flush).
//! - `min`/`max`: IEEE-754-2008 minNum/maxNum: a NaN operand is ignored (the other operand is
//!   returned bit for bit; signalling NaNs are ignored like quiet ones); both NaN ⇒ the canonical
//!   quiet NaN `0x7FC00000`. Zeros are ordered `−0 < +0` here: `min(+0, −0) = −0`,
//!   `max(+0, −0) = +0` (IEEE-754-2008 leaves the choice open; IEEE-754-2019 minimum/maximum
//!   specify this order). No rounding happens.
//!
//! Datapath: each operand is mapped to an unsigned key that orders all non-NaN values totally
//! (`key = sign ? !x : x | 0x8000_0000`, so `−0` sorts just below `+0`); one 32-bit magnitude
//! comparator pair on the keys serves both the relations (with `±0` equality patched in) and the
//! min/max selection.

use rust_hdl::prelude::*;

crate::settled_block! {
/// f32 comparator. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct FpCmp {
    /// First operand.
    pub a: Signal<In, Bits<32>>,
    /// Second operand.
    pub b: Signal<In, Bits<32>>,
    /// `a < b`.
    pub lt: Signal<Out, Bit>,
    /// `a == b`.
    pub eq: Signal<Out, Bit>,
    /// `a > b`.
    pub gt: Signal<Out, Bit>,
    /// `a` or `b` is NaN.
    pub unordered: Signal<Out, Bit>,
    /// minNum(a, b).
    pub min: Signal<Out, Bits<32>>,
    /// maxNum(a, b).
    pub max: Signal<Out, Bits<32>>,
    amag: Signal<Local, Bits<32>>,
    bmag: Signal<Local, Bits<32>>,
    a_nan: Signal<Local, Bit>,
    b_nan: Signal<Local, Bit>,
    unord: Signal<Local, Bit>,
    zeros: Signal<Local, Bit>,
    nota: Signal<Local, Bits<32>>,
    notb: Signal<Local, Bits<32>>,
    ka: Signal<Local, Bits<32>>,
    kb: Signal<Local, Bits<32>>,
    klt: Signal<Local, Bit>,
    kgt: Signal<Local, Bit>,
    mn: Signal<Local, Bits<32>>,
    mx: Signal<Local, Bits<32>>,
}
}

impl Logic for FpCmp {
    #[hdl_gen]
    fn update(&mut self) {
        self.amag.next = self.a.val() & bits::<32>(0x7fff_ffff);
        self.bmag.next = self.b.val() & bits::<32>(0x7fff_ffff);
        self.a_nan.next = self.amag.val() > bits::<32>(0x7f80_0000);
        self.b_nan.next = self.bmag.val() > bits::<32>(0x7f80_0000);
        self.unord.next = self.a_nan.val() | self.b_nan.val();
        self.zeros.next = !self.amag.val().any() & !self.bmag.val().any();
        // Total-order keys.
        self.nota.next = !self.a.val();
        self.notb.next = !self.b.val();
        self.ka.next = self.a.val() | bits::<32>(0x8000_0000_u64);
        if self.a.val().get_bit(31) {
            self.ka.next = self.nota.val();
        }
        self.kb.next = self.b.val() | bits::<32>(0x8000_0000_u64);
        if self.b.val().get_bit(31) {
            self.kb.next = self.notb.val();
        }
        self.klt.next = self.ka.val() < self.kb.val();
        self.kgt.next = self.ka.val() > self.kb.val();
        // minNum / maxNum.
        self.mn.next = self.b.val();
        self.mx.next = self.a.val();
        if self.klt.val() {
            self.mn.next = self.a.val();
            self.mx.next = self.b.val();
        }
        if self.a_nan.val() {
            self.mn.next = self.b.val();
            self.mx.next = self.b.val();
        }
        if self.b_nan.val() {
            self.mn.next = self.a.val();
            self.mx.next = self.a.val();
        }
        if self.a_nan.val() & self.b_nan.val() {
            self.mn.next = bits::<32>(0x7fc0_0000);
            self.mx.next = bits::<32>(0x7fc0_0000);
        }
        self.lt.next = !self.unord.val() & !self.zeros.val() & self.klt.val();
        self.gt.next = !self.unord.val() & !self.zeros.val() & self.kgt.val();
        self.eq.next = !self.unord.val() & (self.zeros.val() | !(self.klt.val() | self.kgt.val()));
        self.unordered.next = self.unord.val();
        self.min.next = self.mn.val();
        self.max.next = self.mx.val();
    }
}
