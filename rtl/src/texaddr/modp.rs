//! The remainder unit of the periodic wraps: r = i mod pn, by restoring division one dividend bit
//! per step, 24 steps with an optional register before each step and after the last
//! ([`ModP::new`]).
//!
//! [`ModP`] ports: `clock`, `en` (advance; every register holds while low), `i` (two's
//! complement, |i| < 2^23, which the 24.8 coordinate range guarantees), `pn` (1…65536) → `r`
//! = i mod pn in [0, pn), `r1` = (i + 1) mod pn. Latency [`ModP::stages`] clocks (0:
//! combinational), one result per enabled clock.
//!
//! The dividend |i| is taken 24 bits wide, most significant bit first: each step shifts the next
//! bit into the partial remainder (17 bits, since the remainder stays below pn ≤ 2^16) and
//! subtracts pn when it fits, so every step is one compare-subtract of at most 17 bits, k bits at
//! step k ([`ModStep`]; the old formulation,
//! pn·2^k against a 32-bit x, chained 23 full-width steps). A negative i divides !i = |i| − 1
//! (no negation in front): with q = !i mod pn, i mod pn = pn − 1 − q and (i + 1) mod pn =
//! (−!i) mod pn is pn − q (0 when q = 0); for i ≥ 0, (i + 1) mod pn is q + 1, or 0 when pn − q
//! = 1. So after the last step three 17-bit operations run side by side (q + 1, pn − q,
//! pn − 1 − q), then one compare and the selects.
//! Between steps the state travels as one 58-bit word ([`ModStep`]): partial remainder
//! `[15:0]`, the dividend bits not yet used `[39:16]` (next one at the top), pn `[56:40]`, the sign
//! `[57]`.

use crate::common::fp::Retime;
use rust_hdl::prelude::*;

/// Restoring steps of [`ModP`], one per dividend bit.
pub const MODP_STEPS: usize = 24;

/// Register positions of [`ModP`]: boundary 0 before step 0, boundary k between steps k − 1 and
/// k, boundary 24 after the last step.
pub const MODP_BOUNDARIES: usize = MODP_STEPS + 1;

// `ModP::update` indexes the last boundary by the literal 24.
const _: () = assert!(MODP_STEPS == 24);

crate::settled_block! {
/// One restoring step of [`ModP`] on its 58-bit state word: `s` → `q` (the next dividend bit
/// shifted into the partial remainder, pn subtracted where it fits). Combinational.
///
/// Step k ([`ModStep::new`]) sees a partial remainder below 2^(k − 1) (the dividend's top k
/// bits, reduced, and its top bit is 0 since |i| < 2^23), so `tt` is below 2^k and the step
/// works on `mask` = the low k bits (all 17 from step 17 on): pn fits only if its bits above the
/// mask are 0, and the compare, the subtraction and the select are k bits wide. The mask is a
/// constant, so synthesis trims the rest.
#[derive(Clone, Debug)]
pub struct ModStep {
    /// State in.
    pub s: Signal<In, Bits<58>>,
    /// State out.
    pub q: Signal<Out, Bits<58>>,
    mask: Constant<Bits<17>>,
    pn: Signal<Local, Bits<17>>,
    pm: Signal<Local, Bits<17>>,
    /// pn's bits above the mask (pn cannot fit where any is set).
    hi: Signal<Local, Bits<17>>,
    xs: Signal<Local, Bits<24>>,
    xn: Signal<Local, Bits<24>>,
    tt: Signal<Local, Bits<17>>,
    df: Signal<Local, Bits<16>>,
    nr: Signal<Local, Bits<16>>,
}
}

impl ModStep {
    /// Step `k` (0…[`MODP_STEPS`] − 1): `tt` is below 2^k (step 0 passes the state through).
    pub fn new(k: usize) -> Self {
        assert!(k < MODP_STEPS, "ModStep: step {k}");
        let width = k.min(17);
        Self {
            settle: Default::default(),
            s: Default::default(),
            q: Default::default(),
            mask: Constant::new(((1u64 << width) - 1).into()),
            pn: Default::default(),
            pm: Default::default(),
            hi: Default::default(),
            xs: Default::default(),
            xn: Default::default(),
            tt: Default::default(),
            df: Default::default(),
            nr: Default::default(),
        }
    }
}

impl Default for ModStep {
    fn default() -> Self {
        Self::new(MODP_STEPS - 1)
    }
}

impl Logic for ModStep {
    #[hdl_gen]
    fn update(&mut self) {
        self.pn.next = self.s.val().get_bits::<17>(40);
        self.pm.next = self.pn.val() & self.mask.val();
        self.xs.next = self.s.val().get_bits::<24>(16);
        self.xn.next = self.xs.val() << 1;
        self.tt.next = bit_cast::<17, 16>(self.s.val().get_bits::<16>(0)) << 1;
        if self.xs.val().get_bit(23) {
            self.tt.next = self.tt.val() | bits::<17>(1);
        }
        self.tt.next = self.tt.val() & self.mask.val();
        // Modulo 2^16 is enough: a difference that is used is below pn ≤ 2^16.
        self.df.next = self.tt.val().get_bits::<16>(0) - self.pm.val().get_bits::<16>(0);
        self.nr.next = self.tt.val().get_bits::<16>(0);
        self.hi.next = self.pn.val() & !self.mask.val();
        if !self.hi.val().any() & (self.tt.val() >= self.pm.val()) {
            self.nr.next = self.df.val().get_bits::<16>(0) & self.mask.val().get_bits::<16>(0);
        }
        self.q.next = (self.s.val() & bits::<58>(0x03ff_ff00_0000_0000_u64))
            | bit_cast::<58, 16>(self.nr.val())
            | (bit_cast::<58, 24>(self.xn.val()) << 16);
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
    pub i: Signal<In, Bits<24>>,
    /// Divisor (1…65536).
    pub pn: Signal<In, Bits<17>>,
    /// Remainder in [0, pn).
    pub r: Signal<Out, Bits<32>>,
    /// (i + 1) mod pn.
    pub r1: Signal<Out, Bits<32>>,
    x: Signal<Local, Bits<24>>,
    s0: Signal<Local, Bits<58>>,
    /// Step k: dividend bit 23 − k.
    step: [ModStep; MODP_STEPS],
    /// Boundary b (see [`MODP_BOUNDARIES`]): 0 or 1 register.
    cut: [Retime<Bits<58>>; MODP_BOUNDARIES],
    /// The state after the last step (its spent dividend field is not read).
    modp_out: Signal<Local, Bits<58>>,
    rem: Signal<Local, Bits<17>>,
    pnf: Signal<Local, Bits<17>>,
    up: Signal<Local, Bits<17>>,
    down: Signal<Local, Bits<17>>,
    below: Signal<Local, Bits<17>>,
    res: Signal<Local, Bits<17>>,
    res1: Signal<Local, Bits<17>>,
}
}

impl Default for ModP {
    fn default() -> Self {
        Self::new(&[])
    }
}

impl ModP {
    /// Registers at `at` (boundary numbers, each below [`MODP_BOUNDARIES`]): latency
    /// `at.len()`.
    pub fn new(at: &[usize]) -> Self {
        use std::array::from_fn;
        assert!(
            at.iter().all(|&b| b < MODP_BOUNDARIES),
            "ModP: boundaries {at:?}"
        );
        Self {
            settle: crate::common::settle::SettleState::new(true),
            clock: Default::default(),
            en: Default::default(),
            i: Default::default(),
            pn: Default::default(),
            r: Default::default(),
            r1: Default::default(),
            x: Default::default(),
            s0: Default::default(),
            step: from_fn(ModStep::new),
            cut: from_fn(|b| Retime::new(usize::from(at.contains(&b)))),
            modp_out: Default::default(),
            rem: Default::default(),
            pnf: Default::default(),
            up: Default::default(),
            down: Default::default(),
            below: Default::default(),
            res: Default::default(),
            res1: Default::default(),
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
        if self.i.val().get_bit(23) {
            self.x.next = !self.i.val();
        }
        self.s0.next =
            (bit_cast::<58, 24>(self.x.val()) << 16) | (bit_cast::<58, 17>(self.pn.val()) << 40);
        if self.i.val().get_bit(23) {
            self.s0.next = self.s0.val() | bits::<58>(0x0200_0000_0000_0000_u64);
        }
        for b in 0..MODP_BOUNDARIES {
            self.cut[b].clock.next = self.clock.val();
            self.cut[b].en.next = self.en.val();
        }
        self.cut[0].d.next = self.s0.val();
        for k in 0..MODP_STEPS {
            self.step[k].s.next = self.cut[k].q.val();
            self.cut[k + 1].d.next = self.step[k].q.val();
        }
        // rust-hdl's generator takes only literals and loop variables as indices: 24 is
        // MODP_STEPS (asserted below).
        self.modp_out.next = self.cut[24].q.val();
        self.rem.next = bit_cast::<17, 16>(self.modp_out.val().get_bits::<16>(0));
        self.pnf.next = self.modp_out.val().get_bits::<17>(40);
        self.up.next = self.rem.val() + bits::<17>(1);
        self.down.next = self.pnf.val() - self.rem.val();
        self.below.next = self.pnf.val() + !self.rem.val();
        if self.modp_out.val().get_bit(57) {
            self.res.next = self.below.val();
            self.res1.next = self.down.val();
            if !self.rem.val().any() {
                self.res1.next = bits::<17>(0);
            }
        } else {
            self.res.next = self.rem.val();
            self.res1.next = self.up.val();
            if self.down.val() == bits::<17>(1) {
                self.res1.next = bits::<17>(0);
            }
        }
        self.r.next = bit_cast::<32, 17>(self.res.val());
        self.r1.next = bit_cast::<32, 17>(self.res1.val());
    }
}
