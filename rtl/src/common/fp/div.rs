//! IEEE-754 binary32 divider, pipelined: `y = a / b`, one division per clock.
//!
//! # Ports
//! - `clock`; `reset: Bit` — synchronous, active high: clears the valid pipeline (the data
//!   registers are not reset; they only matter under a valid bit).
//! - `in_valid: Bit`, `a: Bits<32>`, `b: Bits<32>` (f32 bit patterns) — a division is accepted on
//!   every rising edge with `in_valid` high. There is no ready, stall or enable: the pipeline
//!   always advances.
//! - `out_valid: Bit`, `y: Bits<32>` = `a / b` — `out_valid` is `in_valid` delayed by
//!   [`FP_DIV_LATENCY`] = 14 clocks, and `y` is the quotient of the operands accepted 14 rising
//!   edges earlier (`y` is meaningless while `out_valid` is low).
//!
//! # Timing
//! Latency [`FP_DIV_LATENCY`] = 14 clocks (rising edge that accepts the operands to the edge after
//! which `out_valid`/`y` show the result), initiation interval 1 (a new division every clock),
//! results in issue order. Registers: the front end's outputs (1), twelve two-bit division stages
//! (2…13), the output register `y` (14). The outputs come straight from flip-flops.
//!
//! Power-up and reset: every register powers up at zero — rust-hdl's `DFF` and [`Retime`] start at
//! their default value, and their Verilog has an `initial` block (honoured by simulators and FPGA
//! bitstreams) — so the valid pipeline comes up empty without a reset. For targets without
//! initial values (ASIC) or to flush the pipe, hold `reset` high for one clock: all 14 valid bits
//! are cleared on that edge (a division presented with `in_valid` during reset is dropped).
//!
//! # Result
//! Exactly the IEEE-754 quotient, which is what Rust's `f32` `/` computes, except for NaNs:
//! - Rounding: correctly rounded, round to nearest, ties to even (ties only occur for denormal
//!   results); rounded once, also for denormal results.
//! - Denormals: fully supported on inputs and outputs (no flush to zero).
//! - Overflow gives ±Inf; underflow gives a denormal or ±0 with the sign `sign(a) xor sign(b)`.
//! - `x / ±0` = ±Inf for finite non-zero `x`; `±0 / x` = ±0; `Inf / finite` = ±Inf;
//!   `finite / Inf` = ±0 (signs always `sign(a) xor sign(b)`).
//! - NaN: `0 / 0`, `Inf / Inf` and any NaN operand give the canonical NaN `0x7FC0_0000` (payloads
//!   and signalling NaNs are not propagated).
//!
//! # Algorithm
//! 1. Front ([`FpDivFront`], combinational, before register 1): classify the operands; normalise
//!    both 24-bit significands to `1.f` ([`super::FpUnpack`]: a leading-zero count and a left
//!    shift, so a denormal's exponent goes below −126); the quotient exponent is `e = ea − eb`, less one when
//!    the dividend's significand is the smaller, in which case the dividend is doubled so that the
//!    significand quotient `x / d` lies in `[1, 2)`. Its integer bit is 1, so the first remainder
//!    is `x − d` (< d).
//! 2. Twelve [`FpDivStep`]s, one per register stage: radix-2 restoring division, two quotient bits
//!    per stage (double the remainder, subtract the divisor if it fits, twice). The remainder stays
//!    below the divisor, so 25 bits hold it; 1 + 24 quotient bits result: `Q = ⌊x/d · 2^24⌋`.
//! 3. Back ([`FpDivBack`]): `m = (Q << 1) | sticky`, sticky = (final remainder ≠ 0), so that the
//!    exact quotient is `m · 2^(e − 25)` up to the sticky bit; [`RoundF32`] rounds it (with
//!    `lim = 164 + e`; when that is negative the quotient is below 2^−164, far under half the
//!    smallest denormal, and `lim = 0` yields ±0 as it must, `m` being non-zero). Zero,
//!    infinite and NaN results come down the pipe as a 2-bit class and are selected here; the
//!    zero class is handled outside [`RoundF32`], which returns +0 for `m = 0`.
//!
//! Every datapath piece is at most 32 bits wide except [`RoundF32`]'s 64-bit magnitude port.

use super::retime::Retime;
use super::round::RoundF32;
use super::unpack::FpUnpack;
use rust_hdl::prelude::*;

/// Clocks from the edge that accepts a division to the edge after which its result is on `y`.
pub const FP_DIV_LATENCY: usize = 14;

/// Register stages of two quotient bits each (the latency is this plus 2).
pub const FP_DIV_STEPS: usize = 12;

// The literals in `FpDiv::update` (array bounds 13/12, valid bit 13) follow these.
const _: () = assert!(FP_DIV_LATENCY == FP_DIV_STEPS + 2 && FP_DIV_STEPS == 12);

crate::settled_block! {
/// The front end: classes, normalisation, exponent, first remainder.
///
/// Ports: `a`, `b` → `r` (first remainder `x − d`, < `d`), `d` (the divisor's significand
/// normalised to `[2^23, 2^24)`), `meta` = {`class[12:11]` (0 finite, 1 zero, 2 infinite, 3 NaN),
/// `sign[10]`, `ex[9:0]` = e + 300}, where `e` is the unbiased exponent of the quotient
/// (`−277 ≤ e ≤ 276`). Combinational.
#[derive(Clone, Debug, Default)]
pub struct FpDivFront {
    /// Dividend.
    pub a: Signal<In, Bits<32>>,
    /// Divisor.
    pub b: Signal<In, Bits<32>>,
    /// First partial remainder.
    pub r: Signal<Out, Bits<25>>,
    /// Normalised divisor significand.
    pub d: Signal<Out, Bits<24>>,
    /// Class, sign and exponent.
    pub meta: Signal<Out, Bits<16>>,
    ua: FpUnpack,
    ub: FpUnpack,
    na: Signal<Local, Bits<24>>,
    nb: Signal<Local, Bits<24>>,
    lt: Signal<Local, Bit>,
    x: Signal<Local, Bits<25>>,
    ex: Signal<Local, Bits<16>>,
    cls: Signal<Local, Bits<16>>,
    mt: Signal<Local, Bits<16>>,
}
}

impl Logic for FpDivFront {
    #[hdl_gen]
    fn update(&mut self) {
        // Classes and normalised significands (a denormal's exponent goes below 1).
        self.ua.a.next = self.a.val();
        self.ub.a.next = self.b.val();
        self.na.next = self.ua.sig.val();
        self.nb.next = self.ub.sig.val();
        // Pre-shift the dividend so that x / d lies in [1, 2); its integer quotient bit is 1.
        self.lt.next = self.na.val() < self.nb.val();
        self.x.next = bit_cast::<25, 24>(self.na.val());
        if self.lt.val() {
            self.x.next = bit_cast::<25, 24>(self.na.val()) << 1;
        }
        self.r.next = self.x.val() - bit_cast::<25, 24>(self.nb.val());
        self.d.next = self.nb.val();
        // e + 300 = (xa − lza) − (xb − lzb) − lt + 300, never negative (≥ 22).
        self.ex.next = bit_cast::<16, 8>(self.ua.exp.val())
            + bit_cast::<16, 7>(self.ub.lz.val())
            + bits::<16>(300)
            - bit_cast::<16, 8>(self.ub.exp.val())
            - bit_cast::<16, 7>(self.ua.lz.val());
        if self.lt.val() {
            self.ex.next = self.ex.val() - bits::<16>(1);
        }
        // Class, by priority: NaN, infinite, zero, finite.
        self.cls.next = bits::<16>(0);
        if (self.ua.zero.val() & !self.ub.zero.val()) | (self.ub.inf.val() & !self.ua.inf.val()) {
            self.cls.next = bits::<16>(0x0800);
        }
        if (self.ua.inf.val() & !self.ub.inf.val()) | (self.ub.zero.val() & !self.ua.zero.val()) {
            self.cls.next = bits::<16>(0x1000);
        }
        if self.ua.nan.val()
            | self.ub.nan.val()
            | (self.ua.zero.val() & self.ub.zero.val())
            | (self.ua.inf.val() & self.ub.inf.val())
        {
            self.cls.next = bits::<16>(0x1800);
        }
        self.mt.next = self.cls.val() | (self.ex.val() & bits::<16>(0x03ff));
        if self.a.val().get_bit(31) ^ self.b.val().get_bit(31) {
            self.mt.next = self.mt.val() | bits::<16>(0x0400);
        }
        self.meta.next = self.mt.val();
    }
}

crate::settled_block! {
/// Two steps of radix-2 restoring division.
///
/// Ports: `r` (partial remainder, `r < d`), `d` (divisor, `[2^23, 2^24)`), `q` (quotient bits so
/// far) → `r_out` (the remainder after two more bits, `< d`), `q_out` = `(q << 2) | two bits`.
/// Each step doubles the remainder and subtracts the divisor when it fits (quotient bit 1).
/// Combinational.
#[derive(Clone, Debug, Default)]
pub struct FpDivStep {
    /// Partial remainder.
    pub r: Signal<In, Bits<25>>,
    /// Divisor.
    pub d: Signal<In, Bits<24>>,
    /// Quotient bits so far.
    pub q: Signal<In, Bits<25>>,
    /// Partial remainder after two steps.
    pub r_out: Signal<Out, Bits<25>>,
    /// Quotient with two more bits.
    pub q_out: Signal<Out, Bits<25>>,
    dd: Signal<Local, Bits<25>>,
    t1: Signal<Local, Bits<25>>,
    r1: Signal<Local, Bits<25>>,
    t2: Signal<Local, Bits<25>>,
    r2: Signal<Local, Bits<25>>,
    qb: Signal<Local, Bits<25>>,
}
}

impl Logic for FpDivStep {
    #[hdl_gen]
    fn update(&mut self) {
        self.dd.next = bit_cast::<25, 24>(self.d.val());
        self.qb.next = self.q.val() << 2;
        // r < d < 2^24, so 2r fits 25 bits.
        self.t1.next = self.r.val() << 1;
        self.r1.next = self.t1.val();
        if self.t1.val() >= self.dd.val() {
            self.r1.next = self.t1.val() - self.dd.val();
            self.qb.next = self.qb.val() | bits::<25>(2);
        }
        self.t2.next = self.r1.val() << 1;
        self.r2.next = self.t2.val();
        if self.t2.val() >= self.dd.val() {
            self.r2.next = self.t2.val() - self.dd.val();
            self.qb.next = self.qb.val() | bits::<25>(1);
        }
        self.r_out.next = self.r2.val();
        self.q_out.next = self.qb.val();
    }
}

crate::settled_block! {
/// The back end: sticky bit, rounding ([`RoundF32`]) and result selection.
///
/// Ports: `r` (final remainder), `q` (the 25 quotient bits), `meta` (from [`FpDivFront`]) → `y`.
/// Combinational.
#[derive(Clone, Debug, Default)]
pub struct FpDivBack {
    /// Final remainder.
    pub r: Signal<In, Bits<25>>,
    /// Quotient bits.
    pub q: Signal<In, Bits<25>>,
    /// Class, sign and exponent.
    pub meta: Signal<In, Bits<16>>,
    /// Quotient.
    pub y: Signal<Out, Bits<32>>,
    round: RoundF32,
    m: Signal<Local, Bits<32>>,
    ex: Signal<Local, Bits<16>>,
    lim: Signal<Local, Bits<16>>,
    cls: Signal<Local, Bits<2>>,
    sign: Signal<Local, Bit>,
    res: Signal<Local, Bits<32>>,
}
}

impl Logic for FpDivBack {
    #[hdl_gen]
    fn update(&mut self) {
        // m = (Q << 1) | sticky: the quotient is m · 2^(e − 25) with the sticky bit for the rest.
        self.m.next = bit_cast::<32, 25>(self.q.val()) << 1;
        if self.r.val().any() {
            self.m.next = self.m.val() | bits::<32>(1);
        }
        self.cls.next = self.meta.val().get_bits::<2>(11);
        self.sign.next = self.meta.val().get_bit(10);
        // lim = 189 + (e − 25) = (e + 300) − 136, or 0 (a signed zero) below that.
        self.ex.next = self.meta.val() & bits::<16>(0x03ff);
        self.lim.next = bits::<16>(0);
        if self.ex.val() >= bits::<16>(136) {
            self.lim.next = self.ex.val() - bits::<16>(136);
        }
        self.round.m.next = bit_cast::<64, 32>(self.m.val());
        self.round.lim.next = self.lim.val();
        self.round.neg.next = self.sign.val();
        self.round.nan.next = self.cls.val() == 3;
        self.round.pinf.next = (self.cls.val() == 2) & !self.sign.val();
        self.round.ninf.next = (self.cls.val() == 2) & self.sign.val();
        // RoundF32 gives +0 for m = 0: the zero class (with its sign) is selected here.
        self.res.next = self.round.y.val();
        if self.cls.val() == 1 {
            self.res.next = bits::<32>(0);
            if self.sign.val() {
                self.res.next = bits::<32>(0x8000_0000_u64);
            }
        }
        self.y.next = self.res.val();
    }
}

crate::settled_block! {
/// Pipelined f32 divider. See the module documentation.
#[derive(Clone, Debug)]
pub struct FpDiv {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: clears the valid pipeline.
    pub reset: Signal<In, Bit>,
    /// A division is presented.
    pub in_valid: Signal<In, Bit>,
    /// Dividend.
    pub a: Signal<In, Bits<32>>,
    /// Divisor.
    pub b: Signal<In, Bits<32>>,
    /// `y` holds a result (`in_valid` delayed by [`FP_DIV_LATENCY`] clocks).
    pub out_valid: Signal<Out, Bit>,
    /// Quotient.
    pub y: Signal<Out, Bits<32>>,
    /// Classes, normalisation, first remainder.
    pub front: FpDivFront,
    /// Two quotient bits per stage; `step[i]` sits between registers `i` and `i + 1`.
    pub step: [FpDivStep; 12],
    /// Rounding and result selection.
    pub back: FpDivBack,
    /// Partial remainders, stages 1…13.
    rem: [DFF<Bits<25>>; 13],
    /// Divisor significands, stages 1…12 (the back end does not need it).
    div: [DFF<Bits<24>>; 12],
    /// Quotient bits, stages 1…13.
    quo: [DFF<Bits<25>>; 13],
    /// Class, sign and exponent, delayed to the back end (13 stages).
    meta: Retime<Bits<16>>,
    /// Output register.
    yreg: DFF<Bits<32>>,
    /// Valid bits: bit k is the valid of stage k + 1.
    valid: DFF<Bits<14>>,
    vnext: Signal<Local, Bits<14>>,
}
}

impl Default for FpDiv {
    fn default() -> Self {
        Self {
            settle: crate::common::settle::SettleState::new(true),
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            a: Default::default(),
            b: Default::default(),
            out_valid: Default::default(),
            y: Default::default(),
            front: Default::default(),
            step: Default::default(),
            back: Default::default(),
            rem: Default::default(),
            div: Default::default(),
            quo: Default::default(),
            meta: Retime::new(FP_DIV_STEPS + 1),
            yreg: Default::default(),
            valid: Default::default(),
            vnext: Default::default(),
        }
    }
}

impl Logic for FpDiv {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..13 {
            self.rem[i].clock.next = self.clock.val();
            self.quo[i].clock.next = self.clock.val();
        }
        for i in 0..12 {
            self.div[i].clock.next = self.clock.val();
        }
        self.meta.clock.next = self.clock.val();
        self.meta.en.next = true;
        self.yreg.clock.next = self.clock.val();
        self.valid.clock.next = self.clock.val();
        // Stage 1: the front end's outputs; the quotient's integer bit is 1.
        self.front.a.next = self.a.val();
        self.front.b.next = self.b.val();
        self.rem[0].d.next = self.front.r.val();
        self.div[0].d.next = self.front.d.val();
        self.quo[0].d.next = bits::<25>(1);
        self.meta.d.next = self.front.meta.val();
        // Stages 2…13: two quotient bits each.
        for i in 0..12 {
            self.step[i].r.next = self.rem[i].q.val();
            self.step[i].d.next = self.div[i].q.val();
            self.step[i].q.next = self.quo[i].q.val();
            self.rem[i + 1].d.next = self.step[i].r_out.val();
            self.quo[i + 1].d.next = self.step[i].q_out.val();
        }
        for i in 0..11 {
            self.div[i + 1].d.next = self.div[i].q.val();
        }
        // Stage 14: rounding into the output register.
        self.back.r.next = self.rem[12].q.val();
        self.back.q.next = self.quo[12].q.val();
        self.back.meta.next = self.meta.q.val();
        self.yreg.d.next = self.back.y.val();
        self.y.next = self.yreg.q.val();
        // Valid pipeline.
        self.vnext.next = self.valid.q.val() << 1;
        if self.in_valid.val() {
            self.vnext.next = self.vnext.val() | bits::<14>(1);
        }
        if self.reset.val() {
            self.vnext.next = bits::<14>(0);
        }
        self.valid.d.next = self.vnext.val();
        self.out_valid.next = self.valid.q.val().get_bit(13);
    }
}
