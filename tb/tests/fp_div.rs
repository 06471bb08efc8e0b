//! The pipelined f32 divider (`texpix_rtl::common::fp::FpDiv`) against Rust's IEEE `f32` division
//! (NaN canonicalised: `texpix_tb::fpmodel::fp_div`).
//!
//! - Every pair of special and boundary values, streamed back to back through the rust-hdl model
//!   (one division per clock), each result checked in order at exactly `FP_DIV_LATENCY` clocks.
//! - Random pairs from six families (random bits, close significands, quotients around the
//!   denormal range, around the overflow threshold, small-integer significands, denormal
//!   operands), with an independent classification of what was exercised (exact, inexact, ties,
//!   denormal results, overflow, underflow to zero, NaN) and a minimum count per family:
//!   `RTL_PAIRS` through the rust-hdl model, and 1 000 000 through the exported Verilog compiled by
//!   Yosys into the native netlist engine ([`texpix_sim::NetSim`]); 1 000 000 through the rust-hdl
//!   model is opt-in (`-- --ignored`).
//! - Valid handling: power-up empty, bubbles, the synchronous reset.
//! - Export: Verilator `-Wall` lint, Yosys structural checks, and a co-simulation of the exported
//!   Verilog in Icarus (and the netlist engine) against the scoreboarded rust-hdl trace, cycle by
//!   cycle from power-up. Needs iverilog, verilator and yosys; fails, not skips, without them.
//!
//! Run with `cargo test --release -p texpix-tb --test fp_div -- --nocapture` (timings printed).

use rust_hdl::prelude::*;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::Instant;
use texpix_rtl::common::fp::{FpDiv, CANONICAL_NAN, FP_DIV_LATENCY};
use texpix_rtl::export::port_name;
use texpix_sim::netlist::yosys::cache_dir;
use texpix_sim::{NetSim, Sim, SplitMix64};
use texpix_tb::cosim::{self, Simulator, Trace};
use texpix_tb::fpmodel;
use texpix_tb::ports::ports_and_values;

/// Random pairs through the rust-hdl model in the default run.
const RTL_PAIRS: usize = 50_000;

/// Random pairs through the netlist engine, and through the rust-hdl model in the opt-in run.
const MANY_PAIRS: usize = 1_000_000;

/// Verilog module name of the exported divider.
const TOP: &str = "fp_div";

// ---------------------------------------------------------------------------------------------
// Stimulus.

/// Special and boundary values (both signs where it matters).
const SPECIALS: &[u32] = &[
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x0000_0001, // min denormal
    0x8000_0001,
    0x0000_0002,
    0x0000_0003,
    0x0000_0005,
    0x0040_0000, // mid denormal = min normal / 2
    0x0040_0001,
    0x0060_0000, // 1.5 · 2^-127
    0x007f_ffff, // max denormal
    0x807f_ffff,
    0x007f_fffe,
    0x0080_0000, // min normal
    0x8080_0000,
    0x0080_0001,
    0x00ff_ffff,
    0x0100_0000,
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x3f80_0001, // 1 + ulp
    0xbf80_0001,
    0x3f7f_ffff, // 1 - ulp/2
    0x3f7f_fffe,
    0x3fc0_0000, // 1.5
    0x3fa0_0000, // 1.25
    0x3fff_ffff, // 2 - ulp
    0x4000_0000, // 2
    0x4000_0001, // 2 + ulp
    0x4040_0000, // 3
    0x40a0_0000, // 5
    0x40e0_0000, // 7
    0x3eaa_aaab, // 1/3
    0x3f00_0000, // 0.5
    0x3380_0000, // 2^-24
    0x3400_0000, // 2^-23
    0x4b00_0000, // 2^23
    0x4b7f_ffff,
    0x4b80_0000, // 2^24
    0x4c00_0000, // 2^25
    0x2000_0000, // 2^-63
    0x1a00_0000, // 2^-75
    0x0d00_0000, // 2^-101
    0x5f80_0000, // 2^64
    0x6580_0000, // 2^76
    0x7e80_0000, // 2^126
    0x7f00_0000, // 2^127
    0x7f7f_ffff, // max finite
    0xff7f_ffff,
    0x7f7f_fffe,
    0x7f80_0000, // +Inf
    0xff80_0000, // -Inf
    0x7fc0_0000, // qNaN
    0xffc0_0000,
    0x7fc0_0001, // qNaN with payload
    0x7fff_ffff,
    0x7f80_0001, // sNaN
    0xff80_0001,
    0x7fbf_ffff, // sNaN, max payload
];

/// The random families; `pair` draws one operand pair of a family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    /// Any bit patterns.
    Bits,
    /// Significands equal or a few ulps apart: quotients at and next to powers of two.
    Close,
    /// Quotient exponent in [−152, −124]: denormal results, underflow to ±0, exact denormals
    /// and ties (short significands), and quotients within a few ulps of the min normal.
    Denormal,
    /// Quotient exponent in [124, 129]: the largest finite values and overflow, and quotients
    /// within a few ulps of the overflow threshold.
    Overflow,
    /// Small integers times powers of two: many exact quotients.
    SmallInt,
    /// One or both operands denormal.
    DenormalOperand,
}

const FAMILIES: [Family; 6] = [
    Family::Bits,
    Family::Close,
    Family::Denormal,
    Family::Overflow,
    Family::SmallInt,
    Family::DenormalOperand,
];

/// A random sign bit.
fn sign(r: &mut SplitMix64) -> u32 {
    (r.next_u64() as u32) & 0x8000_0000
}

/// A finite f32 with biased exponent `e` (1…254) and a random fraction.
fn with_exp(r: &mut SplitMix64, e: u32) -> u32 {
    sign(r) | e << 23 | (r.next_u64() as u32 & 0x7f_ffff)
}

/// A denormal with a random number of leading zeros.
fn denormal(r: &mut SplitMix64) -> u32 {
    let f = (r.next_u64() as u32 & 0x7f_ffff) >> (r.next_u64() % 23);
    sign(r) | f.max(1)
}

/// The integer `k` (< 2^24) times a power of two: biased exponent `e` (1…254), random sign.
fn int_at(r: &mut SplitMix64, k: u32, e: u32) -> u32 {
    // k's significand, with its leading bit at biased exponent e.
    sign(r) | e << 23 | ((k as f32).to_bits() & 0x7f_ffff)
}

/// A random integer 1…`max` times a power of two (biased exponent `e`), random sign.
fn small_int(r: &mut SplitMix64, max: u64, e: u32) -> u32 {
    let k = 1 + r.next_u64() % max;
    int_at(r, k as u32, e)
}

/// A quotient within a few ulps of 2^`target` (unbiased; −126: the smallest normal, 128: the
/// overflow threshold): `a = 2^ea · (2 − k·2^-23)` over `b = 2^eb · (1 + j·2^-23)` or
/// `b = 2^eb · (2 − (j+1)·2^-23)`, with small k and j. Random signs.
fn near_power(r: &mut SplitMix64, target: i32) -> (u32, u32) {
    let x = r.next_u64();
    let lo = 1.max(1 + target);
    let hi = 254.min(253 + target);
    let ea = lo + (x % (hi - lo + 1) as u64) as i32;
    let k = 1 + ((x >> 16) % 16) as u32;
    let j = ((x >> 24) % 4) as u32;
    let a = sign(r) | (ea as u32) << 23 | (0x80_0000 - k);
    let b = if x & (1 << 32) != 0 {
        sign(r) | ((ea + 1 - target) as u32) << 23 | j
    } else {
        sign(r) | ((ea - target) as u32) << 23 | (0x7f_ffff - j)
    };
    (a, b)
}

fn pair(r: &mut SplitMix64, f: Family) -> (u32, u32) {
    let x = r.next_u64();
    match f {
        Family::Bits => (x as u32, (x >> 32) as u32),
        Family::Close => {
            let a = with_exp(r, 1 + (x % 254) as u32);
            let eb = 1 + ((x >> 8) % 254) as u32;
            let delta = ((x >> 16) % 9) as i32 - 4;
            let fb = ((a & 0x7f_ffff) as i32 + delta).clamp(0, 0x7f_ffff) as u32;
            (a, sign(r) | eb << 23 | fb)
        }
        Family::Denormal => {
            // Quotient exponent ea − eb (−1) = t, t in [−152, −124].
            let t = -152 + (x % 29) as i32;
            let ea = 1 + ((x >> 8) % (254 + t) as u64) as i32;
            let eb = ea - t;
            match (x >> 40) % 4 {
                0 => (small_int(r, 64, ea as u32), small_int(r, 16, eb as u32)),
                1 => (with_exp(r, ea as u32), with_exp(r, eb as u32)),
                _ => near_power(r, -126),
            }
        }
        Family::Overflow => {
            let t = 124 + (x % 6) as i32;
            let ea = t + 1 + ((x >> 8) % (254 - t) as u64) as i32;
            let eb = ea - t;
            match (x >> 40) % 4 {
                0 => (small_int(r, 4096, ea as u32), small_int(r, 64, eb as u32)),
                1 => (with_exp(r, ea as u32), with_exp(r, eb as u32)),
                _ => near_power(r, 128),
            }
        }
        Family::SmallInt => {
            let ea = 1 + (x % 254) as u32;
            let eb = (ea as i32 + ((x >> 8) % 41) as i32 - 20).clamp(1, 254) as u32;
            if x & (1 << 40) != 0 {
                // b's integer divides a's: the quotient is an integer (times 2^n), exact unless it
                // leaves the range.
                let j = 1 + ((x >> 41) % 64) as u32;
                let c = 1 + ((x >> 48) % 256) as u32;
                (int_at(r, j * c, ea), int_at(r, j, eb))
            } else {
                (small_int(r, 4096, ea), small_int(r, 64, eb))
            }
        }
        Family::DenormalOperand => match x % 4 {
            0 => (denormal(r), denormal(r)),
            1 => (denormal(r), with_exp(r, 1 + ((x >> 8) % 160) as u32)),
            2 => (with_exp(r, 1 + ((x >> 8) % 254) as u32), denormal(r)),
            _ => (denormal(r), SPECIALS[(x >> 8) as usize % SPECIALS.len()]),
        },
    }
}

/// `n` random pairs: families in turn, 5 % special values mixed in.
fn random_pairs(n: usize, seed: u64) -> Vec<(u32, u32, Family)> {
    let mut r = SplitMix64::new(seed);
    (0..n)
        .map(|i| {
            let f = FAMILIES[i % FAMILIES.len()];
            let (mut a, mut b) = pair(&mut r, f);
            let x = r.next_u64();
            if x.is_multiple_of(40) {
                a = SPECIALS[(x >> 8) as usize % SPECIALS.len()];
            }
            if x % 40 == 1 {
                b = SPECIALS[(x >> 8) as usize % SPECIALS.len()];
            }
            (a, b, f)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Classification, independent of the RTL: from the host result and exact f64 products.

/// What a set of divisions exercised.
#[derive(Clone, Copy, Debug, Default)]
struct Classes {
    pairs: usize,
    nan: usize,
    /// ±Inf from finite operands (b ≠ 0).
    overflow: usize,
    /// ±0 from finite non-zero operands.
    underflow_zero: usize,
    /// Non-zero denormal results.
    denormal: usize,
    /// The largest finite magnitude.
    max_finite: usize,
    /// The smallest normal magnitude.
    min_normal: usize,
    /// Finite non-zero results equal to the exact quotient.
    exact: usize,
    /// Finite results (including underflow to zero) not equal to the exact quotient.
    inexact: usize,
    /// Exact quotients half-way between two f32 values.
    ties: usize,
}

fn finite_nonzero(x: u32) -> bool {
    let f = f32::from_bits(x);
    f.is_finite() && f != 0.0
}

impl Classes {
    fn note(&mut self, a: u32, b: u32) {
        self.pairs += 1;
        let y = fpmodel::fp_div(a, b);
        let yf = f32::from_bits(y);
        if yf.is_nan() {
            self.nan += 1;
            return;
        }
        if !(finite_nonzero(a) && finite_nonzero(b)) {
            return;
        }
        let mag = y & 0x7fff_ffff;
        if yf.is_infinite() {
            self.overflow += 1;
            return;
        }
        match mag {
            0 => self.underflow_zero += 1,
            0x7f7f_ffff => self.max_finite += 1,
            0x0080_0000 => self.min_normal += 1,
            m if m < 0x0080_0000 => self.denormal += 1,
            _ => {}
        }
        // y · b and (midpoint) · b are exact in f64 (≤ 49 significant bits, exponent ≥ −298).
        let (af, bf) = (f32::from_bits(a) as f64, (f32::from_bits(b) as f64).abs());
        let af = af.abs();
        let ym = yf.abs();
        if ym as f64 * bf == af {
            self.exact += 1;
            return;
        }
        self.inexact += 1;
        let other = if (ym as f64) * bf < af {
            ym.next_up()
        } else {
            ym.next_down()
        };
        if other.is_finite() && (ym as f64 + other as f64) / 2.0 * bf == af {
            self.ties += 1;
        }
    }

    fn add(&mut self, o: &Classes) {
        self.pairs += o.pairs;
        self.nan += o.nan;
        self.overflow += o.overflow;
        self.underflow_zero += o.underflow_zero;
        self.denormal += o.denormal;
        self.max_finite += o.max_finite;
        self.min_normal += o.min_normal;
        self.exact += o.exact;
        self.inexact += o.inexact;
        self.ties += o.ties;
    }
}

/// Classes per family, and the minimum share (per mille of the family's pairs) each family must
/// reach in the class it targets.
fn assert_exercised(pairs: &[(u32, u32, Family)]) {
    let mut per = [Classes::default(); 6];
    for &(a, b, f) in pairs {
        let k = FAMILIES.iter().position(|&g| g == f).expect("family");
        per[k].note(a, b);
    }
    let mut all = Classes::default();
    for (f, c) in FAMILIES.iter().zip(&per) {
        eprintln!("  {f:?}: {c:?}");
        all.add(c);
    }
    eprintln!("  all: {all:?}");
    let min = |c: &Classes, pm: usize| c.pairs * pm / 1000;
    let [bits, close, den, ovf, small, dop] = per;
    assert!(bits.inexact >= min(&bits, 500), "random bits: inexact");
    assert!(bits.nan >= min(&bits, 5), "random bits: NaN");
    assert!(bits.overflow >= min(&bits, 50), "random bits: overflow");
    assert!(
        bits.underflow_zero >= min(&bits, 50),
        "random bits: underflow"
    );
    assert!(close.exact >= min(&close, 50), "close: exact");
    assert!(close.inexact >= min(&close, 500), "close: inexact");
    assert!(den.denormal >= min(&den, 500), "denormal: denormal results");
    assert!(den.underflow_zero >= min(&den, 20), "denormal: to zero");
    assert!(den.min_normal >= min(&den, 5), "denormal: min normal");
    assert!(den.ties >= min(&den, 10), "denormal: ties");
    assert!(den.exact >= min(&den, 50), "denormal: exact denormals");
    assert!(ovf.overflow >= min(&ovf, 100), "overflow: Inf");
    assert!(ovf.max_finite >= min(&ovf, 5), "overflow: max finite");
    assert!(ovf.inexact >= min(&ovf, 300), "overflow: finite");
    assert!(small.exact >= min(&small, 400), "small ints: exact");
    assert!(
        dop.denormal >= min(&dop, 50) && dop.inexact >= min(&dop, 300),
        "denormal operands"
    );
    assert!(dop.overflow >= min(&dop, 20), "denormal operands: overflow");
}

// ---------------------------------------------------------------------------------------------
// Driving the divider: one pair per clock, results checked in order at the latency.

fn set_clock(u: &mut FpDiv, c: bool) {
    u.clock.next = Clock::from(c);
}

/// A rust-hdl simulation of the divider from power-up.
fn rtl_sim() -> Sim<FpDiv> {
    Sim::new(FpDiv::default(), set_clock)
}

fn workdir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn export() -> String {
    texpix_rtl::export::verilog(
        &mut FpDiv::default(),
        TOP,
        "fp_div: texpix pipelined f32 divider (fp_div test)",
    )
    .expect("export")
}

/// The exported Verilog compiled by Yosys into the netlist engine (native code), from power-up.
fn netlist_sim() -> Sim<FpDiv> {
    let net = NetSim::from_verilog(&export(), TOP, &cache_dir()).expect("netlist");
    assert!(net.is_native(), "the netlist engine runs native code");
    Sim::on_netlist(Box::default(), set_clock, net, port_name).expect("netlist sim")
}

/// Streams `pairs` through `sim`, one per clock except for a bubble (`in_valid` low) on about
/// one clock in `bubble_every` (never if 0), then drains. Every result must come out in order,
/// exactly `FP_DIV_LATENCY` clocks after its operands, equal to the model; `out_valid` must never
/// be high without a division in flight. Returns the number of results.
fn stream(sim: &mut Sim<FpDiv>, pairs: &[(u32, u32)], bubble_every: u64, seed: u64) -> usize {
    let mut r = SplitMix64::new(seed);
    let mut inflight: VecDeque<(u64, u32, u32)> = VecDeque::new();
    let mut next = 0;
    let mut done = 0;
    let lat = FP_DIV_LATENCY as u64;
    let start = sim.cycle();
    while done < pairs.len() {
        assert!(
            sim.cycle() - start < 2 * pairs.len() as u64 + 100 + 2 * lat,
            "no progress"
        );
        let bubble = bubble_every != 0 && r.next_u64().is_multiple_of(bubble_every);
        let c = sim.cycle();
        if next < pairs.len() && !bubble {
            let (a, b) = pairs[next];
            next += 1;
            sim.uut.in_valid.next = true;
            sim.uut.a.next = (a as u64).into();
            sim.uut.b.next = (b as u64).into();
            inflight.push_back((c, a, b));
        } else {
            sim.uut.in_valid.next = false;
            // Idle operands: something that is not a valid division's operands.
            sim.uut.a.next = (r.next_u64() as u32 as u64).into();
            sim.uut.b.next = (r.next_u64() as u32 as u64).into();
        }
        sim.step().expect("step");
        // After the rising edge of cycle c, the result of the pair accepted at cycle c − L + 1.
        let due = inflight
            .front()
            .is_some_and(|&(c0, _, _)| c0 + lat - 1 == c);
        let valid = sim.uut.out_valid.val();
        assert_eq!(
            valid, due,
            "cycle {c}: out_valid {valid}, a result is due: {due}"
        );
        if valid {
            let (_, a, b) = inflight.pop_front().expect("in flight");
            let got = sim.uut.y.val().to_u32();
            let want = fpmodel::fp_div(a, b);
            assert_eq!(
                got, want,
                "FpDiv {a:08x} / {b:08x}: RTL {got:08x}, f32 {want:08x}"
            );
            done += 1;
        }
    }
    done
}

/// Every ordered pair of special values.
fn special_pairs() -> Vec<(u32, u32)> {
    let mut v = Vec::new();
    for &a in SPECIALS {
        for &b in SPECIALS {
            v.push((a, b));
        }
    }
    v
}

// ---------------------------------------------------------------------------------------------
// The model itself (written out, not derived from the host).

#[test]
fn model_documented_cases() {
    let d = fpmodel::fp_div;
    assert_eq!(d(0x3f80_0000, 0x0000_0000), 0x7f80_0000); // 1 / +0
    assert_eq!(d(0x3f80_0000, 0x8000_0000), 0xff80_0000); // 1 / -0
    assert_eq!(d(0x8000_0001, 0x0000_0000), 0xff80_0000); // -denormal / +0
    assert_eq!(d(0x0000_0000, 0x0000_0000), CANONICAL_NAN); // 0 / 0
    assert_eq!(d(0x7f80_0000, 0xff80_0000), CANONICAL_NAN); // Inf / -Inf
    assert_eq!(d(0x8000_0000, 0x3f80_0000), 0x8000_0000); // -0 / 1
    assert_eq!(d(0x8000_0000, 0x8000_0001), 0x0000_0000); // -0 / -denormal
    assert_eq!(d(0xff80_0000, 0x4000_0000), 0xff80_0000); // -Inf / 2
    assert_eq!(d(0x7f80_0000, 0x8000_0000), 0xff80_0000); // Inf / -0
    assert_eq!(d(0x4000_0000, 0xff80_0000), 0x8000_0000); // 2 / -Inf
    assert_eq!(d(0x0000_0000, 0x7f80_0000), 0x0000_0000); // 0 / Inf
    assert_eq!(d(0x3f80_0000, 0x4040_0000), 0x3eaa_aaab); // 1 / 3
    assert_eq!(d(0x4000_0000, 0x4040_0000), 0x3f2a_aaab); // 2 / 3
    assert_eq!(d(0x40e0_0000, 0x4000_0000), 0x4060_0000); // 7 / 2 = 3.5
    assert_eq!(d(0x0080_0000, 0x4000_0000), 0x0040_0000); // min normal / 2
    assert_eq!(d(0x0000_0001, 0x4000_0000), 0x0000_0000); // 2^-150: tie → even (0)
    assert_eq!(d(0x8000_0001, 0x4000_0000), 0x8000_0000); // −2^-150 → −0
    assert_eq!(d(0x0000_0003, 0x4000_0000), 0x0000_0002); // 1.5 ulp: tie → 2
    assert_eq!(d(0x0000_0005, 0x4000_0000), 0x0000_0002); // 2.5 ulp: tie → 2
    assert_eq!(d(0x0000_0001, 0x3fff_ffff), 0x0000_0001); // just above the tie → min denormal
    assert_eq!(d(0x0000_0001, 0x4000_0001), 0x0000_0000); // just below the tie → 0
    assert_eq!(d(0x3f80_0000, 0x7f7f_ffff), 0x0020_0000); // 1 / max ≈ 2^-128
    assert_eq!(d(0x00ff_ffff, 0x4000_0000), 0x0080_0000); // tie (odd max denormal) → min normal
    assert_eq!(d(0x007f_ffff, 0x3f7f_ffff), 0x007f_ffff); // just below that tie
    assert_eq!(d(0x7f7f_ffff, 0x3f00_0000), 0x7f80_0000); // max / 0.5: overflow
    assert_eq!(d(0xff7f_ffff, 0x3f7f_ffff), 0xff80_0000); // −max / (1 − 2^-24): overflow
    assert_eq!(d(0x7f7f_ffff, 0x3f80_0001), 0x7f7f_fffd); // max / (1 + ulp): 3 ulps down
    assert_eq!(d(0x7f7f_ffff, 0x0000_0001), 0x7f80_0000); // max / min denormal
    assert_eq!(d(0x0000_0001, 0x7f7f_ffff), 0x0000_0000); // min denormal / max
    assert_eq!(d(0xff80_0001, 0x3f80_0000), CANONICAL_NAN); // sNaN
    assert_eq!(d(0x3f80_0000, 0xffc0_1234), CANONICAL_NAN); // NaN payload dropped
}

#[test]
fn classification_sees_ties_and_exact_results() {
    let mut c = Classes::default();
    c.note(0x0000_0003, 0x4000_0000); // tie
    c.note(0x40e0_0000, 0x4000_0000); // exact
    c.note(0x3f80_0000, 0x4040_0000); // inexact
    c.note(0x0000_0001, 0x7f7f_ffff); // to zero
    c.note(0x7f7f_ffff, 0x3f00_0000); // overflow
    assert_eq!(
        (c.ties, c.exact, c.inexact, c.underflow_zero, c.overflow),
        (1, 1, 3, 1, 1)
    );
}

// ---------------------------------------------------------------------------------------------
// The RTL in rust-hdl.

#[test]
fn rtl_special_pairs_back_to_back() {
    let pairs = special_pairs();
    let mut sim = rtl_sim();
    let t = Instant::now();
    let n = stream(&mut sim, &pairs, 0, 1);
    assert_eq!(n, SPECIALS.len() * SPECIALS.len());
    eprintln!(
        "rust-hdl: {n} special pairs in {:.2} s ({} cycles)",
        t.elapsed().as_secs_f64(),
        sim.cycle()
    );
}

#[test]
fn rtl_documented_cases() {
    // The cases of `model_documented_cases`, through the RTL, with bubbles.
    let pairs = [
        (0x3f80_0000, 0x0000_0000),
        (0x3f80_0000, 0x8000_0000),
        (0x0000_0000, 0x0000_0000),
        (0x7f80_0000, 0xff80_0000),
        (0x8000_0000, 0x3f80_0000),
        (0x4000_0000, 0xff80_0000),
        (0x3f80_0000, 0x4040_0000),
        (0x0000_0001, 0x4000_0000),
        (0x8000_0001, 0x4000_0000),
        (0x0000_0003, 0x4000_0000),
        (0x0000_0001, 0x3fff_ffff),
        (0x0000_0001, 0x4000_0001),
        (0x00ff_ffff, 0x4000_0000),
        (0x007f_ffff, 0x3f7f_ffff),
        (0x7f7f_ffff, 0x3f00_0000),
        (0x0000_0001, 0x7f7f_ffff),
        (0x8000_0001, 0x7f7f_ffff),
        (0xff80_0001, 0x3f80_0000),
    ];
    let mut sim = rtl_sim();
    assert_eq!(stream(&mut sim, &pairs, 3, 2), pairs.len());
}

/// `n` random pairs (generator seed `seed`) checked for coverage of every family, then streamed
/// through `sim` with a bubble about every `bubble_every` clocks; prints the speed.
fn random_run(sim: &mut Sim<FpDiv>, engine: &str, n: usize, seed: u64, bubble_every: u64) {
    let pairs = random_pairs(n, seed);
    assert_exercised(&pairs);
    let ops: Vec<(u32, u32)> = pairs.iter().map(|&(a, b, _)| (a, b)).collect();
    let t = Instant::now();
    assert_eq!(stream(sim, &ops, bubble_every, seed + 1), ops.len());
    let s = t.elapsed().as_secs_f64();
    eprintln!(
        "{engine}: {} random pairs in {s:.1} s ({:.0} cycles/s)",
        ops.len(),
        sim.cycle() as f64 / s
    );
}

#[test]
fn rtl_random_pairs() {
    random_run(&mut rtl_sim(), "rust-hdl", RTL_PAIRS, 3, 16);
}

#[test]
#[ignore = "slow (about 50 s in release): run with --ignored"]
fn rtl_random_pairs_million() {
    random_run(&mut rtl_sim(), "rust-hdl", MANY_PAIRS, 5, 64);
}

#[test]
fn rtl_powers_up_empty_and_reset_clears_the_pipe() {
    let mut sim = rtl_sim();
    sim.uut.in_valid.next = false;
    for c in 0..3 * FP_DIV_LATENCY {
        sim.step().expect("step");
        assert!(!sim.uut.out_valid.val(), "power-up: out_valid at cycle {c}");
    }
    // Fill the pipe (1 / 1 every clock), then reset for one clock while presenting more.
    sim.uut.in_valid.next = true;
    sim.uut.a.next = 0x3f80_0000u64.into();
    sim.uut.b.next = 0x3f80_0000u64.into();
    for _ in 0..FP_DIV_LATENCY - 1 {
        sim.step().expect("step");
        assert!(!sim.uut.out_valid.val());
    }
    sim.step().expect("step");
    assert!(
        sim.uut.out_valid.val(),
        "the first result after the latency"
    );
    assert_eq!(sim.uut.y.val().to_u32(), 0x3f80_0000);
    sim.uut.reset.next = true;
    sim.step().expect("step");
    assert!(!sim.uut.out_valid.val(), "reset clears every valid bit");
    sim.uut.reset.next = false;
    sim.uut.in_valid.next = false;
    for c in 0..2 * FP_DIV_LATENCY {
        sim.step().expect("step");
        assert!(!sim.uut.out_valid.val(), "after reset: out_valid at {c}");
    }
    // And it works after the reset.
    assert_eq!(stream(&mut sim, &special_pairs()[..200], 5, 7), 200);
}

// ---------------------------------------------------------------------------------------------
// The exported Verilog.

/// The netlist (exported Verilog → Yosys → native code): the special pairs and 1 000 000 random
/// pairs, streamed like the rust-hdl runs.
#[test]
fn netlist_special_and_million_random_pairs() {
    let t = Instant::now();
    let mut sim = netlist_sim();
    eprintln!("netlist: compiled in {:.1} s", t.elapsed().as_secs_f64());
    let specials = special_pairs();
    assert_eq!(stream(&mut sim, &specials, 0, 8), specials.len());
    random_run(&mut sim, "netlist", MANY_PAIRS, 9, 32);
}

/// A port trace of the rust-hdl model from power-up: a few hundred divisions (specials, random
/// pairs, bubbles, a reset pulse), scoreboarded against the model on the way.
fn rust_trace(seed: u64) -> Trace {
    let mut sim = rtl_sim();
    let rows = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = rows.clone();
    sim.set_probe(Box::new(move |u: &FpDiv| {
        sink.borrow_mut().push(ports_and_values(u).1);
    }));
    let mut r = SplitMix64::new(seed);
    let mut ops: Vec<(u32, u32)> = SPECIALS
        .iter()
        .map(|&a| (a, SPECIALS[(r.next_u64() as usize) % SPECIALS.len()]))
        .collect();
    ops.extend(SPECIALS.iter().map(|&b| {
        let a = SPECIALS[(r.next_u64() as usize) % SPECIALS.len()];
        (a, b)
    }));
    ops.extend(random_pairs(300, seed).iter().map(|&(a, b, _)| (a, b)));
    let half = ops.len() / 2;
    assert_eq!(stream(&mut sim, &ops[..half], 6, seed), half);
    // A reset pulse with divisions in flight (their results are dropped), then the rest.
    for k in 0..5 {
        sim.uut.in_valid.next = true;
        sim.uut.a.next = (0x4000_0000u64 + k).into();
        sim.uut.b.next = 0x3fc0_0000u64.into();
        sim.step().expect("step");
    }
    sim.uut.reset.next = true;
    sim.uut.in_valid.next = false;
    sim.step().expect("step");
    sim.uut.reset.next = false;
    assert!(!sim.uut.out_valid.val());
    assert_eq!(
        stream(&mut sim, &ops[half..], 6, seed + 1),
        ops.len() - half
    );
    for _ in 0..3 {
        sim.step().expect("step");
    }
    let (ports, _) = ports_and_values(&*sim.uut);
    let cycles = rows.borrow().clone();
    Trace { ports, cycles }
}

fn replay(sim: Simulator, seed: u64) {
    let trace = rust_trace(seed);
    let dir = workdir(&format!("fp_div_cosim_{sim:?}"));
    let t = Instant::now();
    let report = cosim::run(sim, &dir, TOP, &export(), &trace)
        .unwrap_or_else(|e| panic!("{TOP} ({sim:?}): {e}"));
    assert_eq!(report.cycles, trace.cycles.len());
    eprintln!(
        "{sim:?}: {} cycles replayed in {:.1} s",
        report.cycles,
        t.elapsed().as_secs_f64()
    );
}

#[test]
fn icarus_cosim_from_power_up() {
    replay(Simulator::Icarus, 11);
}

#[test]
fn netlist_cosim_from_power_up() {
    replay(Simulator::Netlist, 12);
}

#[test]
#[ignore = "slow (a Verilator build): run with --ignored"]
fn verilator_cosim_from_power_up() {
    replay(Simulator::Verilator, 13);
}

#[test]
fn verilator_lint_and_yosys_checks_are_clean() {
    let dir = workdir("fp_div_lint");
    let v = dir.join(format!("{TOP}.v"));
    std::fs::write(&v, export()).expect("write");
    texpix_tb::tools::lint(&v, TOP, &[]).unwrap_or_else(|e| panic!("{e}"));
    texpix_tb::tools::yosys_check(&v, TOP).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn cosim_detects_a_wrong_result() {
    let mut trace = rust_trace(14);
    let k = trace
        .ports
        .iter()
        .position(|p| p.name == "y")
        .expect("port y");
    let v = trace.ports.iter().position(|p| p.name == "out_valid");
    let v = v.expect("port out_valid");
    let row = (100..trace.cycles.len())
        .find(|&c| trace.cycles[c][v] == "1")
        .expect("a valid result");
    let y = u32::from_str_radix(&trace.cycles[row][k], 16).expect("hex") ^ 1;
    trace.cycles[row][k] = format!("{y:08x}");
    let dir = workdir("fp_div_cosim_corrupt");
    let err = cosim::run(Simulator::Icarus, &dir, TOP, &export(), &trace)
        .expect_err("must detect the corrupted value");
    assert!(
        err.contains(&format!("cycle {row}")) && err.contains("port y"),
        "{err}"
    );
}
