//! The remainder unit of the periodic wraps: r = i mod pn, by restoring division one dividend bit
//! per step, in eight groups of three steps with an optional register before each group and after
//! the last.
//!
//! [`ModP`] ports: `clock`, `en` (advance; every register holds while low), `i` (two's
//! complement, |i| < 2^23, which the 24.8 coordinate range guarantees), `pn` (1…65536) → `r`
//! = i mod pn in [0, pn), `pn_q` (`pn`, delayed with `r`). Latency [`ModP::stages`] clocks (0:
//! combinational), one result per enabled clock.
//!
//! The dividend |i| is taken 24 bits wide, most significant bit first: each step shifts the next
//! bit into the partial remainder (17 bits, since the remainder stays below pn ≤ 2^16) and
//! subtracts pn when it fits, so every step is one 17-bit compare-subtract (the old formulation,
//! pn·2^k against a 32-bit x, chained 23 full-width steps). A negative i gives pn − r (r ≠ 0).
//! Between groups the state travels as one 64-bit word ([`ModSteps`]): partial remainder
//! `[15:0]`, the dividend bits not yet used `[39:16]` (next one at the top), pn `[56:40]`, the sign
//! `[57]`.

use crate::common::fp::Retime;
use rust_hdl::prelude::*;

/// Register positions of [`ModP`]: boundary 0 before group 0, boundary g between groups g − 1
/// and g, boundary 8 after the last group.
pub const MODP_BOUNDARIES: usize = 9;

crate::settled_block! {
/// One restoring step of [`ModP`] on its 64-bit state word: `s` → `q` (the next dividend bit
/// shifted into the partial remainder, pn subtracted where it fits). Combinational.
#[derive(Clone, Debug, Default)]
pub struct ModStep {
    /// State in.
    pub s: Signal<In, Bits<64>>,
    /// State out.
    pub q: Signal<Out, Bits<64>>,
    pn: Signal<Local, Bits<17>>,
    xs: Signal<Local, Bits<24>>,
    xn: Signal<Local, Bits<24>>,
    tt: Signal<Local, Bits<17>>,
    df: Signal<Local, Bits<17>>,
    nr: Signal<Local, Bits<16>>,
}
}

impl Logic for ModStep {
    #[hdl_gen]
    fn update(&mut self) {
        self.pn.next = self.s.val().get_bits::<17>(40);
        self.xs.next = self.s.val().get_bits::<24>(16);
        self.xn.next = self.xs.val() << 1;
        self.tt.next = bit_cast::<17, 16>(self.s.val().get_bits::<16>(0)) << 1;
        if self.xs.val().get_bit(23) {
            self.tt.next = self.tt.val() | bits::<17>(1);
        }
        self.df.next = self.tt.val() - self.pn.val();
        self.nr.next = self.tt.val().get_bits::<16>(0);
        if self.tt.val() >= self.pn.val() {
            self.nr.next = self.df.val().get_bits::<16>(0);
        }
        self.q.next = (self.s.val() & bits::<64>(0xffff_ff00_0000_0000_u64))
            | bit_cast::<64, 16>(self.nr.val())
            | (bit_cast::<64, 24>(self.xn.val()) << 16);
    }
}

crate::settled_block! {
/// Three [`ModStep`]s: one group of [`ModP`]. Combinational.
#[derive(Clone, Debug, Default)]
pub struct ModSteps {
    /// State in.
    pub s: Signal<In, Bits<64>>,
    /// State out, three dividend bits later.
    pub q: Signal<Out, Bits<64>>,
    step: [ModStep; 3],
}
}

impl Logic for ModSteps {
    #[hdl_gen]
    fn update(&mut self) {
        self.step[0].s.next = self.s.val();
        self.step[1].s.next = self.step[0].q.val();
        self.step[2].s.next = self.step[1].q.val();
        self.q.next = self.step[2].q.val();
    }
}

crate::settled_block! {
/// i mod pn. See the module documentation.
#[derive(Clone, Debug)]
pub struct ModP {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance.
    pub en: Signal<In, Bit>,
    /// Dividend (two's complement, |i| < 2^23).
    pub i: Signal<In, Bits<32>>,
    /// Divisor (1…65536).
    pub pn: Signal<In, Bits<32>>,
    /// Remainder in [0, pn).
    pub r: Signal<Out, Bits<32>>,
    /// The divisor of `r`.
    pub pn_q: Signal<Out, Bits<32>>,
    x: Signal<Local, Bits<32>>,
    s0: Signal<Local, Bits<64>>,
    /// Group g: dividend bits 23 − 3g … 21 − 3g.
    grp: [ModSteps; 8],
    /// Boundary b (see [`MODP_BOUNDARIES`]): 0 or 1 register.
    cut: [Retime<Bits<64>>; 9],
    fin: Signal<Local, Bits<64>>,
    rem: Signal<Local, Bits<32>>,
    pnf: Signal<Local, Bits<32>>,
    res: Signal<Local, Bits<32>>,
}
}

impl Default for ModP {
    fn default() -> Self {
        Self::new(0)
    }
}

impl ModP {
    /// Most registers [`ModP::new`] places: one per boundary.
    pub const MAX_CUTS: usize = MODP_BOUNDARIES;

    /// The boundaries registered by a `cuts`-register build (0…[`ModP::MAX_CUTS`]). One cut
    /// halves the groups (boundary 4). From two, boundary 0 (the path into it carries the
    /// coordinate datapath) comes first, from five also boundary 8 (before the sign fix and the
    /// wrap that follow); the rest spread evenly over boundaries 1…7.
    pub fn boundaries(cuts: usize) -> Vec<usize> {
        assert!(cuts <= Self::MAX_CUTS, "ModP: {cuts} cuts (0…{})", Self::MAX_CUTS);
        if cuts <= 1 {
            return if cuts == 1 { vec![4] } else { vec![] };
        }
        let tail = usize::from(cuts >= 5);
        let m = cuts - 1 - tail;
        let mut b = vec![0];
        b.extend((1..=m).map(|k| (8 * k + (m + 1) / 2) / (m + 1)));
        if tail == 1 {
            b.push(8);
        }
        b
    }

    /// `cuts` registers at [`ModP::boundaries`]`(cuts)`: latency `cuts`.
    pub fn new(cuts: usize) -> Self {
        use std::array::from_fn;
        let at = Self::boundaries(cuts);
        Self {
            settle: crate::common::settle::SettleState::new(true),
            clock: Default::default(),
            en: Default::default(),
            i: Default::default(),
            pn: Default::default(),
            r: Default::default(),
            pn_q: Default::default(),
            x: Default::default(),
            s0: Default::default(),
            grp: Default::default(),
            cut: from_fn(|b| Retime::new(usize::from(at.contains(&b)))),
            fin: Default::default(),
            rem: Default::default(),
            pnf: Default::default(),
            res: Default::default(),
        }
    }

    /// Register stages (the latency in enabled clocks).
    pub fn stages(&self) -> usize {
        self.cut.iter().map(Retime::stages).sum()
    }
}

impl Logic for ModP {
    #[hdl_gen]
    fn update(&mut self) {
        self.x.next = self.i.val();
        if self.i.val().get_bit(31) {
            self.x.next = bits::<32>(0) - self.i.val();
        }
        self.s0.next = (bit_cast::<64, 24>(self.x.val().get_bits::<24>(0)) << 16)
            | (bit_cast::<64, 17>(self.pn.val().get_bits::<17>(0)) << 40);
        if self.i.val().get_bit(31) {
            self.s0.next = self.s0.val() | bits::<64>(0x0200_0000_0000_0000_u64);
        }
        for b in 0..9 {
            self.cut[b].clock.next = self.clock.val();
            self.cut[b].en.next = self.en.val();
        }
        self.cut[0].d.next = self.s0.val();
        for g in 0..8 {
            self.grp[g].s.next = self.cut[g].q.val();
            self.cut[g + 1].d.next = self.grp[g].q.val();
        }
        self.fin.next = self.cut[8].q.val();
        self.rem.next = bit_cast::<32, 16>(self.fin.val().get_bits::<16>(0));
        self.pnf.next = bit_cast::<32, 17>(self.fin.val().get_bits::<17>(40));
        self.res.next = self.rem.val();
        if self.fin.val().get_bit(57) & self.rem.val().any() {
            self.res.next = self.pnf.val() - self.rem.val();
        }
        self.r.next = self.res.val();
        self.pn_q.next = self.pnf.val();
    }
}
