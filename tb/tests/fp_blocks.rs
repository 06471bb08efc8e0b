//! The shared floating-point blocks (`texpix_rtl::common::fp`) evaluated through rust-hdl directly
//! (connect once; set inputs; `update_all` until nothing changes), against Rust's IEEE `f32`
//! arithmetic, independent f64 references, and the bit-accurate models in `texpix_tb::fpmodel`.
//!
//! Every pair of special values, then 1 000 000 random pairs per two-operand block (a mix of random
//! bit patterns, close exponents for cancellation and ties, products near the denormal and overflow
//! limits, short mantissas for exact ties), plus a proptest property per block. Run with
//! `cargo test --release -p texpix-tb --test fp_blocks` (about 10 s on one core).

use proptest::prelude::*;
use rust_hdl::prelude::*;
use texpix_rtl::common::fp::log2::{log2_table, LOG2_SEGMENTS};
use texpix_rtl::common::fp::pack::PackRound;
use texpix_rtl::common::fp::{
    F16ToF32, FpAdd, FpCmp, FpLog2P, FpMul, FpToFixed, Lzc, CANONICAL_NAN,
};
use texpix_sim::{settle_block, SplitMix64};
use texpix_tb::fpmodel::{self, CmpOut, FixedOut, Log2Flags};

/// Random pairs per block (a few seconds per block in release mode).
const RANDOM_PAIRS: usize = 1_000_000;

fn connected<B: Block>(mut u: B) -> B {
    u.connect_all();
    u
}

// ---------------------------------------------------------------------------------------------
// Block drivers.

fn add_rtl(u: &mut FpAdd, a: u32, b: u32, sub: bool) -> u32 {
    u.a.next = (a as u64).into();
    u.b.next = (b as u64).into();
    u.sub.next = sub;
    settle_block(u);
    u.y.val().to_u32()
}

fn mul_rtl(u: &mut FpMul, a: u32, b: u32) -> u32 {
    u.a.next = (a as u64).into();
    u.b.next = (b as u64).into();
    settle_block(u);
    u.y.val().to_u32()
}

fn cmp_rtl(u: &mut FpCmp, a: u32, b: u32) -> CmpOut {
    u.a.next = (a as u64).into();
    u.b.next = (b as u64).into();
    settle_block(u);
    CmpOut {
        lt: u.lt.val(),
        eq: u.eq.val(),
        gt: u.gt.val(),
        unordered: u.unordered.val(),
        min: u.min.val().to_u32(),
        max: u.max.val().to_u32(),
    }
}

fn f16_rtl(u: &mut F16ToF32, h: u16) -> u32 {
    u.a.next = (h as u64).into();
    settle_block(u);
    u.y.val().to_u32()
}

fn fixed_rtl<const F: usize>(u: &mut FpToFixed<F>, a: u32) -> FixedOut {
    u.a.next = (a as u64).into();
    settle_block(u);
    FixedOut {
        y: u.y.val().to_u32() as i32,
        nan: u.nan.val(),
        sat: u.sat.val(),
    }
}

fn log2_rtl(u: &mut FpLog2P, a: u32) -> (i32, Log2Flags) {
    u.a.next = (a as u64).into();
    settle_block(u);
    (
        u.y.val().to_u32() as i32,
        Log2Flags {
            zero: u.zero.val(),
            inf: u.inf.val(),
            nan: u.nan.val(),
            neg: u.neg.val(),
        },
    )
}

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
    0x0040_0000, // mid denormal
    0x0040_0001,
    0x007f_ffff, // max denormal
    0x807f_ffff,
    0x007f_fffe,
    0x0080_0000, // min normal
    0x8080_0000,
    0x0080_0001,
    0x0100_0000,
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x3f80_0001, // 1 + ulp
    0xbf80_0001,
    0x3f7f_ffff, // 1 - ulp/2
    0x3f80_0002,
    0x3fc0_0000, // 1.5
    0x3fa0_0000, // 1.25
    0x4000_0000, // 2
    0x4040_0000, // 3
    0x3f00_0000, // 0.5
    0x3400_0000, // 2^-23 (1 + this: exact)
    0x3380_0000, // 2^-24 (1 + this: tie, to even)
    0x3380_0001, // just above the tie
    0x337f_ffff, // just below the tie
    0xb380_0000,
    0x33c0_0000, // 1.5 · 2^-24 (1 + this: tie after the lsb, rounds up)
    0x4b00_0000, // 2^23
    0x4b00_0001,
    0x4b80_0000, // 2^24
    0x4b7f_ffff,
    0x2000_0000, // 2^-63 (square: the min normal)
    0x1f80_0000, // 2^-64
    0x1a00_0000, // 2^-75 (square: 2^-150, the tie below the min denormal)
    0x1a00_0001,
    0x1a80_0000, // 2^-74 (square: 2^-148)
    0x2680_0000,
    0x5f80_0000, // 2^64
    0x5f00_0000, // 2^63
    0x5f7f_ffff,
    0x7e80_0000,
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

/// A random f32 bit pattern from one of several families that exercise rounding, cancellation,
/// denormals and the range limits.
fn rand_bits(r: &mut SplitMix64) -> u32 {
    let x = r.next_u64();
    let bits = (x >> 32) as u32;
    match x % 8 {
        0..=2 => bits,                                                   // any pattern
        3 => bits & 0x807f_ffff | (((x >> 8) % 4) as u32) << 23, // denormals and the lowest normals
        4 => (bits & 0x807f_ffff) | (((x >> 8) % 60 + 97) as u32) << 23, // |x| in [2^-30, 2^30)
        5 => bits & 0xffff_f000, // few mantissa bits: exact results, ties
        6 => bits | 0x7f00_0000 & !0x0080_0000, // huge
        _ => SPECIALS[(x >> 8) as usize % SPECIALS.len()],
    }
}

/// A pair with close exponents (`|ea - eb| ≤ 3`) and random signs: cancellation and ties.
fn close_pair(r: &mut SplitMix64) -> (u32, u32) {
    let a = rand_bits(r);
    let x = r.next_u64();
    let ea = (a >> 23) & 0xff;
    let d = (x % 7) as i32 - 3;
    let eb = (ea as i32 + d).clamp(0, 254) as u32;
    let mut mb = ((x >> 8) as u32) & 0x7f_ffff;
    if x & (1 << 40) != 0 {
        // b shares a's top mantissa bits: heavy cancellation.
        mb = (a & 0x7f_ff00) | (mb & 0xff);
    }
    let sb = ((x >> 41) as u32 & 1) << 31;
    (a, sb | eb << 23 | mb)
}

/// A random pair for the multiplier: the product often lands near the denormal range, the
/// overflow threshold or a rounding tie.
fn mul_pair(r: &mut SplitMix64) -> (u32, u32) {
    let x = r.next_u64();
    match x % 4 {
        0 => (rand_bits(r), rand_bits(r)),
        1 => {
            // ea + eb near 127 - 24 ... 127 + 1: products around the denormal range.
            let ea = (x >> 8) as u32 % 127;
            let eb = (104 + (x >> 16) as u32 % 28).saturating_sub(ea);
            let a = rand_bits(r) & 0x807f_ffff | ea << 23;
            let b = rand_bits(r) & 0x807f_ffff | eb.min(254) << 23;
            (a, b)
        }
        2 => {
            // ea + eb near 127 + 254: products around the overflow threshold.
            let ea = 127 + (x >> 8) as u32 % 128;
            let eb = (380 - (x >> 16) as u32 % 4).saturating_sub(ea).min(254);
            (
                rand_bits(r) & 0x807f_ffff | ea << 23,
                rand_bits(r) & 0x807f_ffff | eb << 23,
            )
        }
        _ => {
            // Short mantissas: exact products and exact ties.
            let a = rand_bits(r) & 0xfff8_0000;
            let b = rand_bits(r) & 0xffff_c000;
            (a, b)
        }
    }
}

fn add_pair(r: &mut SplitMix64) -> (u32, u32) {
    match r.next_u64() % 8 {
        0..=3 => (rand_bits(r), rand_bits(r)),
        4 => {
            // Equal magnitudes: exact cancellation (or doubling) depending on signs and `sub`.
            let a = rand_bits(r);
            (a, a ^ (r.next_u64() as u32 & 0x8000_0000))
        }
        _ => close_pair(r),
    }
}

fn cmp_pair(r: &mut SplitMix64) -> (u32, u32) {
    let a = rand_bits(r);
    let x = r.next_u64();
    let b = match x % 6 {
        0 => a,
        1 => a ^ 0x8000_0000,
        2 => a.wrapping_add(1),
        3 => a.wrapping_sub(1),
        _ => rand_bits(r),
    };
    if x & 0x100 != 0 {
        (a, b)
    } else {
        (b, a)
    }
}

// ---------------------------------------------------------------------------------------------
// References independent of the RTL.

/// The IEEE result from Rust's f32, NaN canonicalised (the RTL's documented NaN rule).
fn host_add(a: u32, b: u32, sub: bool) -> u32 {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    let r = if sub { x - y } else { x + y };
    if r.is_nan() {
        CANONICAL_NAN
    } else {
        r.to_bits()
    }
}

fn host_mul(a: u32, b: u32) -> u32 {
    let r = f32::from_bits(a) * f32::from_bits(b);
    if r.is_nan() {
        CANONICAL_NAN
    } else {
        r.to_bits()
    }
}

/// IEEE relations from Rust's f32 operators; min/max from the spec: a NaN operand is ignored,
/// two NaNs give the canonical NaN, −0 < +0.
fn host_cmp(a: u32, b: u32) -> CmpOut {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    let pick_min = |a: u32, b: u32| -> u32 {
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        if x < y {
            a
        } else if y < x {
            b
        } else if x == 0.0 && y == 0.0 {
            a | b // −0 if either is −0
        } else {
            a // equal non-zero values have equal bits
        }
    };
    let pick_max = |a: u32, b: u32| -> u32 {
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        if x > y {
            a
        } else if y > x {
            b
        } else if x == 0.0 && y == 0.0 {
            a & b // +0 if either is +0
        } else {
            a
        }
    };
    let (min, max) = match (x.is_nan(), y.is_nan()) {
        (true, true) => (CANONICAL_NAN, CANONICAL_NAN),
        (true, false) => (b, b),
        (false, true) => (a, a),
        (false, false) => (pick_min(a, b), pick_max(a, b)),
    };
    CmpOut {
        lt: x < y,
        eq: x == y,
        gt: x > y,
        unordered: x.is_nan() || y.is_nan(),
        min,
        max,
    }
}

/// f16 → f32 from the f16 fields with f64 arithmetic (NaN: the payload rule of the spec).
fn f16_reference(h: u16) -> u32 {
    let s = h >> 15 == 1;
    let e = i32::from((h >> 10) & 0x1f);
    let m = f64::from(h & 0x3ff);
    if e == 31 {
        let sign = if s { 0x8000_0000 } else { 0 };
        return sign | 0x7f80_0000 | (u32::from(h & 0x3ff) << 13);
    }
    let v = if e == 0 {
        m * 2f64.powi(-24)
    } else {
        (1024.0 + m) * 2f64.powi(e - 25)
    };
    let v = if s { -v } else { v };
    let f = v as f32;
    assert_eq!(f as f64, v, "f16 value must be exact in f32");
    f.to_bits()
}

/// f32 → fixed point from f64 arithmetic: `round_ties_even(x · 2^F)`, clamped.
fn fixed_reference(a: u32, frac: u32) -> FixedOut {
    let x = f32::from_bits(a);
    if x.is_nan() {
        return FixedOut {
            y: 0,
            nan: true,
            sat: false,
        };
    }
    let v = (x as f64 * 2f64.powi(frac as i32)).round_ties_even();
    if v > i32::MAX as f64 {
        FixedOut {
            y: i32::MAX,
            nan: false,
            sat: true,
        }
    } else if v < i32::MIN as f64 {
        FixedOut {
            y: i32::MIN,
            nan: false,
            sat: true,
        }
    } else {
        FixedOut {
            y: v as i32,
            nan: false,
            sat: false,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// FpAdd

fn add_check(u: &mut FpAdd, a: u32, b: u32, sub: bool) {
    let got = add_rtl(u, a, b, sub);
    let want = host_add(a, b, sub);
    assert_eq!(
        got,
        want,
        "FpAdd {a:08x} {} {b:08x}: RTL {got:08x}, f32 {want:08x}",
        if sub { '-' } else { '+' }
    );
}

#[test]
fn fp_add_special_pairs() {
    let mut u = connected(FpAdd::default());
    let mut n = 0;
    for &a in SPECIALS {
        for &b in SPECIALS {
            for sub in [false, true] {
                add_check(&mut u, a, b, sub);
                n += 1;
            }
        }
    }
    assert_eq!(n, 2 * SPECIALS.len() * SPECIALS.len());
}

/// The alignment's sticky bit at every shift: exponent differences 0 to 40 and the extremes
/// (denormal against the largest normal), the smaller significand with every count of trailing
/// zeros (0 to 23, and zero itself), both orders, both signs of the result, against the host.
#[test]
fn fp_add_sticky_at_every_shift() {
    let mut u = connected(FpAdd::default());
    let mut r = SplitMix64::new(17);
    let mut n = 0;
    let mut shifts: Vec<u32> = (0..=40).collect();
    shifts.extend([63, 126, 200, 252, 253]);
    for &d in &shifts {
        for tz in 0..=24u32 {
            for _ in 0..4 {
                let x = r.next_u64();
                let ea = 1 + d + (x % u64::from(254 - d.min(253))) as u32;
                let ea = ea.min(254);
                let eb = ea - d.min(ea);
                // Smaller significand: a one at bit `tz` (the hidden bit at 23), random above it.
                let mb = if tz == 24 {
                    0
                } else {
                    let m = ((x >> 8) as u32 | 0x80_0000) & 0xff_ffff;
                    (m >> tz << tz) | 1 << tz
                };
                // The hidden bit is set, so the stored fraction keeps the count (a denormal
                // `b`, eb = 0, drops the hidden bit: its tz = 23 case is a zero).
                let fb = mb & 0x7f_ffff;
                let a = ((x >> 40) as u32 & 1) << 31 | ea << 23 | (x >> 20) as u32 & 0x7f_ffff;
                let b = ((x >> 41) as u32 & 1) << 31 | eb << 23 | fb;
                for sub in [false, true] {
                    add_check(&mut u, a, b, sub);
                    add_check(&mut u, b, a, sub);
                    n += 2;
                }
            }
        }
    }
    assert_eq!(n, shifts.len() * 25 * 4 * 4);
}

#[test]
fn fp_add_sign_of_zero_rules() {
    let mut u = connected(FpAdd::default());
    // Written out from IEEE-754 §6.3 (not derived from the host), round to nearest.
    assert_eq!(
        add_rtl(&mut u, 0x3f80_0000, 0xbf80_0000, false),
        0x0000_0000
    ); // 1 + -1 = +0
    assert_eq!(add_rtl(&mut u, 0x3f80_0000, 0x3f80_0000, true), 0x0000_0000); // 1 - 1 = +0
    assert_eq!(
        add_rtl(&mut u, 0x8000_0000, 0x8000_0000, false),
        0x8000_0000
    ); // -0 + -0 = -0
    assert_eq!(add_rtl(&mut u, 0x8000_0000, 0x0000_0000, true), 0x8000_0000); // -0 - +0 = -0
    assert_eq!(
        add_rtl(&mut u, 0x0000_0000, 0x8000_0000, false),
        0x0000_0000
    ); // +0 + -0 = +0
    assert_eq!(
        add_rtl(&mut u, 0x8000_0001, 0x0000_0001, false),
        0x0000_0000
    ); // denormal x + -x
    assert_eq!(
        add_rtl(&mut u, 0x7f80_0000, 0x7f80_0000, true),
        CANONICAL_NAN
    ); // Inf - Inf
    assert_eq!(
        add_rtl(&mut u, 0x7f80_0000, 0xff80_0000, false),
        CANONICAL_NAN
    ); // Inf + -Inf
    assert_eq!(
        add_rtl(&mut u, 0xff80_0000, 0xff80_0000, false),
        0xff80_0000
    ); // -Inf + -Inf
    assert_eq!(
        add_rtl(&mut u, 0x7f7f_ffff, 0x7f7f_ffff, false),
        0x7f80_0000
    ); // overflow
    assert_eq!(
        add_rtl(&mut u, 0x3f80_0000, 0x3380_0000, false),
        0x3f80_0000
    ); // tie → even
    assert_eq!(
        add_rtl(&mut u, 0x3f80_0001, 0x3380_0000, false),
        0x3f80_0002
    ); // tie → even
    assert_eq!(
        add_rtl(&mut u, 0x007f_ffff, 0x0000_0001, false),
        0x0080_0000
    ); // denormal → normal
    assert_eq!(add_rtl(&mut u, 0x0080_0000, 0x0000_0001, true), 0x007f_ffff); // normal → denormal
    assert_eq!(
        add_rtl(&mut u, 0x7fc0_1234, 0x3f80_0000, false),
        CANONICAL_NAN
    ); // payload dropped
}

/// What a random run exercised (classified from f64 arithmetic, independently of the RTL).
#[derive(Debug, Default)]
struct Exercised {
    pairs: usize,
    inexact: usize,
    ties: usize,
    denormal_results: usize,
    cancellations: usize,
    overflows: usize,
    nans: usize,
}

impl Exercised {
    /// Classifies the f32 result `r` of an operation whose exact value is `exact` (when f64 holds it).
    fn note(&mut self, exact: Option<f64>, r: u32, operands_finite_nonzero: bool) {
        self.pairs += 1;
        let rf = f32::from_bits(r);
        if rf.is_nan() {
            self.nans += 1;
            return;
        }
        if r & 0x7f80_0000 == 0 && r & 0x7f_ffff != 0 {
            self.denormal_results += 1;
        }
        if rf.is_infinite() && operands_finite_nonzero {
            self.overflows += 1;
        }
        if rf == 0.0 && operands_finite_nonzero {
            self.cancellations += 1;
        }
        if let Some(e) = exact {
            if rf.is_finite() && e != rf as f64 {
                self.inexact += 1;
                let other = if e > rf as f64 {
                    rf.next_up()
                } else {
                    rf.next_down()
                };
                if (e - rf as f64).abs() == (other as f64 - e).abs() {
                    self.ties += 1;
                }
            }
        }
    }

    fn assert_at_least(&self, per_mille: usize, what: &str) {
        eprintln!("{what}: {self:?}");
        let min = self.pairs * per_mille / 1000;
        assert!(self.inexact >= min, "{what}: too few inexact results");
        assert!(self.ties >= min, "{what}: too few ties");
        assert!(
            self.denormal_results >= min,
            "{what}: too few denormal results"
        );
        assert!(self.overflows >= min / 10, "{what}: too few overflows");
        assert!(self.nans >= min, "{what}: too few NaN results");
    }
}

fn finite_nonzero(x: u32) -> bool {
    let f = f32::from_bits(x);
    f.is_finite() && f != 0.0
}

fn add_random(n: usize, seed: u64) {
    let mut u = connected(FpAdd::default());
    let mut r = SplitMix64::new(seed);
    let mut ex = Exercised::default();
    for _ in 0..n {
        let (a, b) = add_pair(&mut r);
        let sub = r.next_u64() & 1 == 1;
        add_check(&mut u, a, b, sub);
        // The f64 sum is exact when the exponents are less than 29 apart.
        let (x, y) = (f32::from_bits(a) as f64, f32::from_bits(b) as f64);
        let ea = ((a >> 23) & 0xff).max(1) as i32;
        let eb = ((b >> 23) & 0xff).max(1) as i32;
        let exact = ((ea - eb).abs() < 29).then_some(if sub { x - y } else { x + y });
        ex.note(
            exact,
            host_add(a, b, sub),
            finite_nonzero(a) && finite_nonzero(b),
        );
    }
    ex.assert_at_least(5, "FpAdd random");
    assert!(ex.cancellations >= n / 1000, "too few exact cancellations");
}

#[test]
fn fp_add_random_pairs() {
    add_random(RANDOM_PAIRS, 1);
}

/// The rounding increment that carries into the exponent field and saturates at infinity (the
/// shared last step of the adder and the multiplier, [`PackRound`]): every exponent field, the
/// significands around the carry boundaries, with and without the increment, against 64-bit
/// integer arithmetic.
#[test]
fn pack_round_carries_and_saturates_exactly() {
    let mut u = connected(PackRound::default());
    let sigs = [
        0u32, 1, 0x7f_fffe, 0x7f_ffff, 0x80_0000, 0x80_0001, 0xff_fffe, 0xff_ffff, 0x12_3456,
        0xab_cdef,
    ];
    for e1 in 0..=255u32 {
        for &sig in &sigs {
            for inc in [false, true] {
                u.e1.next = (e1 as u64).into();
                u.sig.next = (sig as u64).into();
                u.inc.next = inc;
                settle_block(&mut u);
                let exact = ((e1 as u64) << 23) + sig as u64 + u64::from(inc);
                let want = exact.min(0x7f80_0000) as u32;
                assert_eq!(
                    u.mag.val().to_u32(),
                    want,
                    "PackRound e1 {e1} sig {sig:06x} inc {inc}"
                );
            }
        }
    }
}

/// Results that round up into infinity or stop one ulp short of it, through the whole cores.
#[test]
fn fp_add_and_mul_round_at_the_overflow_threshold() {
    let mut add = connected(FpAdd::default());
    let mut mul = connected(FpMul::default());
    // max finite + half its ulp (2^103): a tie, odd significand → Inf; just below half → max.
    assert_eq!(
        add_rtl(&mut add, 0x7f7f_ffff, 0x7300_0000, false),
        0x7f80_0000
    );
    assert_eq!(
        add_rtl(&mut add, 0x7f7f_ffff, 0x72ff_ffff, false),
        0x7f7f_ffff
    );
    // An even significand at the tie stays.
    assert_eq!(
        add_rtl(&mut add, 0x7f7f_fffe, 0x7300_0000, false),
        0x7f7f_fffe
    );
    assert_eq!(
        add_rtl(&mut add, 0xff7f_ffff, 0x7300_0000, true),
        0xff80_0000
    );
    // max finite · (1 + 2^-23) overflows.
    assert_eq!(mul_rtl(&mut mul, 0x7f7f_ffff, 0x3f80_0001), 0x7f80_0000);
    assert_eq!(mul_rtl(&mut mul, 0xff7f_ffff, 0x3f80_0000), 0xff7f_ffff);
    for (a, b) in [
        (0x7f7f_ffffu32, 0x7300_0000u32),
        (0x7f7f_ffff, 0x72ff_ffff),
        (0x7f7f_fffe, 0x7300_0000),
    ] {
        add_check(&mut add, a, b, false);
    }
    for (a, b) in [
        (0x7f7f_ffffu32, 0x3f80_0001u32),
        (0x7f7f_ffff, 0x3f7f_ffff),
        (0x5f80_0000, 0x5f7f_ffff),
    ] {
        mul_check(&mut mul, a, b);
    }
}

// ---------------------------------------------------------------------------------------------
// FpMul

fn mul_check(u: &mut FpMul, a: u32, b: u32) {
    let got = mul_rtl(u, a, b);
    let want = host_mul(a, b);
    assert_eq!(
        got, want,
        "FpMul {a:08x} * {b:08x}: RTL {got:08x}, f32 {want:08x}"
    );
}

#[test]
fn fp_mul_special_pairs() {
    let mut u = connected(FpMul::default());
    for &a in SPECIALS {
        for &b in SPECIALS {
            mul_check(&mut u, a, b);
        }
    }
}

#[test]
fn fp_mul_documented_cases() {
    let mut u = connected(FpMul::default());
    assert_eq!(mul_rtl(&mut u, 0x0000_0000, 0x7f80_0000), CANONICAL_NAN); // 0 · Inf
    assert_eq!(mul_rtl(&mut u, 0x8000_0000, 0x3f80_0000), 0x8000_0000); // -0 · 1
    assert_eq!(mul_rtl(&mut u, 0x8000_0000, 0x8000_0000), 0x0000_0000); // -0 · -0
    assert_eq!(mul_rtl(&mut u, 0x1a00_0000, 0x1a00_0000), 0x0000_0000); // 2^-150: tie → 0
    assert_eq!(mul_rtl(&mut u, 0x1a00_0001, 0x1a00_0000), 0x0000_0001); // above the tie
    assert_eq!(mul_rtl(&mut u, 0x3f00_0000, 0x0000_0003), 0x0000_0002); // 1.5 denormal ulps → 2
    assert_eq!(mul_rtl(&mut u, 0x4b00_0000, 0x0000_0001), 0x0080_0000); // 2^23 · 2^-149 = min normal
    assert_eq!(mul_rtl(&mut u, 0x7f00_0000, 0x4000_0000), 0x7f80_0000); // overflow → Inf
    assert_eq!(mul_rtl(&mut u, 0xff80_0001, 0x3f80_0000), CANONICAL_NAN); // sNaN → canonical
}

fn mul_random(n: usize, seed: u64) {
    let mut u = connected(FpMul::default());
    let mut r = SplitMix64::new(seed);
    let mut ex = Exercised::default();
    for _ in 0..n {
        let (a, b) = mul_pair(&mut r);
        mul_check(&mut u, a, b);
        // A product of two f32 values is exact in f64 (48 significant bits, exponent ≥ −298).
        let exact = f32::from_bits(a) as f64 * f32::from_bits(b) as f64;
        ex.note(
            Some(exact),
            host_mul(a, b),
            finite_nonzero(a) && finite_nonzero(b),
        );
    }
    ex.assert_at_least(5, "FpMul random");
    assert!(ex.cancellations >= n / 1000, "too few underflows to zero");
}

#[test]
fn fp_mul_random_pairs() {
    mul_random(RANDOM_PAIRS, 2);
}

// ---------------------------------------------------------------------------------------------
// FpCmp

fn cmp_check(u: &mut FpCmp, a: u32, b: u32) {
    let got = cmp_rtl(u, a, b);
    let want = host_cmp(a, b);
    assert_eq!(got, want, "FpCmp {a:08x} vs {b:08x}");
    let flags = [got.lt, got.eq, got.gt, got.unordered];
    assert_eq!(flags.iter().filter(|&&f| f).count(), 1, "one relation");
}

#[test]
fn fp_cmp_special_pairs() {
    let mut u = connected(FpCmp::default());
    for &a in SPECIALS {
        for &b in SPECIALS {
            cmp_check(&mut u, a, b);
        }
    }
    // The documented ±0 and NaN choices, written out.
    let c = cmp_rtl(&mut u, 0x0000_0000, 0x8000_0000);
    assert!(c.eq && !c.lt && !c.gt && !c.unordered);
    assert_eq!((c.min, c.max), (0x8000_0000, 0x0000_0000));
    let c = cmp_rtl(&mut u, 0x7f80_0001, 0x3f80_0000);
    assert!(c.unordered && !c.eq);
    assert_eq!((c.min, c.max), (0x3f80_0000, 0x3f80_0000));
    let c = cmp_rtl(&mut u, 0xffc0_0001, 0x7f80_0001);
    assert_eq!((c.min, c.max), (CANONICAL_NAN, CANONICAL_NAN));
    let c = cmp_rtl(&mut u, 0x8000_0001, 0x0000_0001);
    assert!(c.lt);
    assert_eq!((c.min, c.max), (0x8000_0001, 0x0000_0001));
}

fn cmp_random(n: usize, seed: u64) {
    let mut u = connected(FpCmp::default());
    let mut r = SplitMix64::new(seed);
    for _ in 0..n {
        let (a, b) = cmp_pair(&mut r);
        cmp_check(&mut u, a, b);
    }
}

#[test]
fn fp_cmp_random_pairs() {
    cmp_random(RANDOM_PAIRS, 3);
}

// ---------------------------------------------------------------------------------------------
// F16ToF32

#[test]
fn f16_to_f32_exhaustive() {
    let mut u = connected(F16ToF32::default());
    for h in 0..=u16::MAX {
        let want = f16_reference(h);
        let got = f16_rtl(&mut u, h);
        assert_eq!(
            got, want,
            "F16ToF32 {h:04x}: RTL {got:08x}, reference {want:08x}"
        );
        assert_eq!(fpmodel::f16_to_f32(h), want, "model, f16 {h:04x}");
    }
    // Spot values written out.
    assert_eq!(f16_rtl(&mut u, 0x3c00), 0x3f80_0000); // 1.0
    assert_eq!(f16_rtl(&mut u, 0x0001), 0x3380_0000); // 2^-24
    assert_eq!(f16_rtl(&mut u, 0x83ff), 0xb87f_c000); // -max denormal
    assert_eq!(f16_rtl(&mut u, 0x7bff), 0x477f_e000); // 65504
    assert_eq!(f16_rtl(&mut u, 0xfc00), 0xff80_0000); // -Inf
    assert_eq!(f16_rtl(&mut u, 0x7e00), 0x7fc0_0000); // qNaN
    assert_eq!(f16_rtl(&mut u, 0x7d55), 0x7faa_a000); // sNaN payload
}

// ---------------------------------------------------------------------------------------------
// FpToFixed

/// Special inputs for `F` fraction bits: ties, saturation boundaries, classes.
fn fixed_specials(frac: u32) -> Vec<u32> {
    let s = 2f64.powi(-(frac as i32));
    let mut v: Vec<u32> = SPECIALS.to_vec();
    for k in [
        0.5,
        1.5,
        2.5,
        3.5,
        -0.5,
        -1.5,
        -2.5,
        0.25,
        0.75,
        1.0,
        2.0,
        8_388_607.5,
        8_388_608.5,
    ] {
        v.push(((k * s) as f32).to_bits());
    }
    for k in [
        2_147_483_520.0,  // largest f32 below 2^31
        2_147_483_648.0,  // 2^31: saturates
        -2_147_483_648.0, // -2^31: exact
        -2_147_483_904.0, // next below: saturates
        1_073_741_824.0,
        -1_073_741_824.0,
        4_294_967_296.0,
    ] {
        v.push(((k * s) as f32).to_bits());
    }
    let extra: Vec<u32> = v
        .iter()
        .flat_map(|&x| [x.wrapping_add(1), x.wrapping_sub(1)])
        .collect();
    v.extend(extra);
    v
}

fn fixed_check_all<const F: usize>(n_random: usize, seed: u64) -> usize {
    let mut u = connected(FpToFixed::<F>::default());
    let mut r = SplitMix64::new(seed);
    let mut inputs = fixed_specials(F as u32);
    for _ in 0..n_random {
        let x = r.next_u64();
        // Exponents around the interesting range for F: [150 - F - 26, 150 - F + 9].
        let a = if x & 1 == 0 {
            rand_bits(&mut r)
        } else {
            let e = (150 - F as u32 - 26) + (x >> 8) as u32 % 36;
            (x >> 32) as u32 & 0x807f_ffff | e << 23
        };
        inputs.push(a);
    }
    for &a in &inputs {
        let want = fixed_reference(a, F as u32);
        let got = fixed_rtl(&mut u, a);
        assert_eq!(got, want, "FpToFixed<{F}> {a:08x} ({})", f32::from_bits(a));
        assert_eq!(
            fpmodel::fp_to_fixed(a, F as u32),
            want,
            "model, F={F}, {a:08x}"
        );
    }
    inputs.len()
}

#[test]
fn fp_to_fixed_documented_cases() {
    let mut u = connected(FpToFixed::<0>::default());
    let c = |u: &mut FpToFixed<0>, x: f32| fixed_rtl(u, x.to_bits());
    assert_eq!(c(&mut u, 0.5).y, 0);
    assert_eq!(c(&mut u, 1.5).y, 2);
    assert_eq!(c(&mut u, 2.5).y, 2);
    assert_eq!(c(&mut u, -2.5).y, -2);
    assert_eq!(c(&mut u, -3.5).y, -4);
    let m = c(&mut u, -2_147_483_648.0);
    assert_eq!((m.y, m.sat), (i32::MIN, false));
    let p = c(&mut u, 2_147_483_648.0);
    assert_eq!((p.y, p.sat), (i32::MAX, true));
    let n = c(&mut u, f32::NEG_INFINITY);
    assert_eq!((n.y, n.sat, n.nan), (i32::MIN, true, false));
    let q = fixed_rtl(&mut u, 0x7f80_0001);
    assert_eq!((q.y, q.sat, q.nan), (0, false, true));
    let mut u16 = connected(FpToFixed::<16>::default());
    assert_eq!(fixed_rtl(&mut u16, 1.0f32.to_bits()).y, 65536);
    assert_eq!(fixed_rtl(&mut u16, (-0.75f32).to_bits()).y, -49152);
    assert_eq!(fixed_rtl(&mut u16, 2f32.powi(-17).to_bits()).y, 0); // tie → even (0)
    assert_eq!(fixed_rtl(&mut u16, (3.0 * 2f32.powi(-17)).to_bits()).y, 2); // tie → even (2)
    let s = fixed_rtl(&mut u16, 32768.0f32.to_bits());
    assert_eq!((s.y, s.sat), (i32::MAX, true));
}

#[test]
fn fp_to_fixed_random_and_boundaries() {
    let n = fixed_check_all::<0>(50_000, 4)
        + fixed_check_all::<1>(30_000, 5)
        + fixed_check_all::<8>(40_000, 6)
        + fixed_check_all::<16>(50_000, 7)
        + fixed_check_all::<23>(20_000, 8)
        + fixed_check_all::<24>(30_000, 9);
    assert!(n >= 200_000, "{n} cases");
}

// ---------------------------------------------------------------------------------------------
// FpLog2P (at 0 stages: combinational)

/// |y / 65536 − log2|x|| for a positive finite non-zero `x` and the model's `y`.
fn log2_error(x: u32) -> f64 {
    let (y, f) = fpmodel::fp_log2(x);
    assert!(!f.zero && !f.nan && !f.inf);
    (y as f64 / 65536.0 - (f32::from_bits(x & 0x7fff_ffff) as f64).log2()).abs()
}

/// The error bound asserted below and stated in `rtl/src/common/fp/log2.rs`.
const LOG2_BOUND: f64 = 5.1e-5;

#[test]
fn fp_log2_model_error_every_mantissa_and_every_denormal() {
    // Exponent field 127 (x in [1, 2)): every mantissa. Other exponents add E exactly.
    let mut max_norm = 0f64;
    let mut worst_norm = 0;
    for m in 0..(1u32 << 23) {
        let x = 0x3f80_0000 | m;
        let err = log2_error(x);
        if err > max_norm {
            max_norm = err;
            worst_norm = x;
        }
    }
    // Every denormal.
    let mut max_den = 0f64;
    let mut worst_den = 0;
    for m in 1..(1u32 << 23) {
        let err = log2_error(m);
        if err > max_den {
            max_den = err;
            worst_den = m;
        }
    }
    eprintln!(
        "log2 max error: normals {max_norm:.4e} (2^{:.2}) at {worst_norm:08x}, denormals {max_den:.4e} (2^{:.2}) at {worst_den:08x}",
        max_norm.log2(),
        max_den.log2()
    );
    assert!(max_norm < LOG2_BOUND, "normal max error {max_norm:e}");
    assert!(max_den < LOG2_BOUND, "denormal max error {max_den:e}");
    assert!(LOG2_BOUND < 2f64.powi(-13));
    // Same fraction error at the extreme exponents (spot check: E is added exactly).
    for x in [0x0080_0000u32, 0x0080_1234, 0x7f7f_ffff, 0x7f00_0001] {
        assert!(log2_error(x) < LOG2_BOUND, "{x:08x}");
    }
}

#[test]
fn fp_log2_table_is_log2_rounded() {
    let t = log2_table();
    assert_eq!(t.len(), LOG2_SEGMENTS + 1);
    assert_eq!(t[0], 0);
    assert_eq!(t[LOG2_SEGMENTS], 1 << 20);
    for (i, &v) in t.iter().enumerate() {
        let exact = (1.0 + i as f64 / 64.0).log2() * 1048576.0;
        assert!(
            (v as f64 - exact).abs() <= 0.5,
            "T[{i}] = {v}, exact {exact}"
        );
    }
}

fn log2_check(u: &mut FpLog2P, x: u32) {
    let got = log2_rtl(u, x);
    let want = fpmodel::fp_log2(x);
    assert_eq!(got, want, "FpLog2P {x:08x}: RTL vs model");
}

#[test]
fn fp_log2_segment_boundaries_exhaustive() {
    let mut u = connected(FpLog2P::new(0));
    let mut n = 0;
    // Every segment's first, second, middle, last fraction, for normals at several exponents and
    // for denormals normalised into every segment.
    for seg in 0..LOG2_SEGMENTS as u32 {
        for off in [0u32, 1, 2, 0xffff, 0x10000, 0x1fffe, 0x1ffff] {
            let frac = seg << 17 | off;
            for e in [1u32, 2, 100, 126, 127, 128, 200, 254] {
                for s in [0u32, 1] {
                    log2_check(&mut u, s << 31 | e << 23 | frac);
                    n += 1;
                }
            }
            // Denormals with the leading one at bit 22 - lz carry this fraction's top bits.
            for lz in [0u32, 1, 5, 13, 22] {
                let d = (1 << 22 | frac >> 1) >> lz;
                log2_check(&mut u, d);
                n += 1;
            }
        }
    }
    assert!(n > 7000);
}

#[test]
fn fp_log2_special_classes() {
    let mut u = connected(FpLog2P::new(0));
    for &x in SPECIALS {
        log2_check(&mut u, x);
    }
    let f = |zero, inf, nan, neg| Log2Flags {
        zero,
        inf,
        nan,
        neg,
    };
    // Written out from the documented rules.
    assert_eq!(
        log2_rtl(&mut u, 0x0000_0000),
        (i32::MIN, f(true, false, false, false))
    );
    assert_eq!(
        log2_rtl(&mut u, 0x8000_0000),
        (i32::MIN, f(true, false, false, false))
    );
    assert_eq!(
        log2_rtl(&mut u, 0x7f80_0000),
        (i32::MAX, f(false, true, false, false))
    );
    assert_eq!(
        log2_rtl(&mut u, 0xff80_0000),
        (i32::MAX, f(false, true, false, true))
    );
    assert_eq!(
        log2_rtl(&mut u, 0x7fc0_0000),
        (0, f(false, false, true, false))
    );
    assert_eq!(
        log2_rtl(&mut u, 0xff80_0001),
        (0, f(false, false, true, false))
    );
    assert_eq!(
        log2_rtl(&mut u, 0x3f80_0000),
        (0, f(false, false, false, false))
    ); // log2 1
    assert_eq!(
        log2_rtl(&mut u, 0xc080_0000),
        (2 << 16, f(false, false, false, true))
    ); // -4
    assert_eq!(
        log2_rtl(&mut u, 0x0000_0001),
        (-149 << 16, f(false, false, false, false))
    );
    assert_eq!(
        log2_rtl(&mut u, 0x0080_0000),
        (-126 << 16, f(false, false, false, false))
    );
    assert_eq!(
        log2_rtl(&mut u, 0x7f00_0000),
        (127 << 16, f(false, false, false, false))
    );
    // Every power of two is exact.
    for e in -149i32..128 {
        let x = (e as f32).exp2().to_bits();
        assert_eq!(log2_rtl(&mut u, x).0, e << 16, "2^{e}");
    }
}

#[test]
fn fp_log2_random() {
    let mut u = connected(FpLog2P::new(0));
    let mut r = SplitMix64::new(10);
    for _ in 0..RANDOM_PAIRS {
        let x = rand_bits(&mut r);
        log2_check(&mut u, x);
        if x & 0x7fff_ffff < 0x7f80_0000 && x & 0x7fff_ffff != 0 {
            assert!(log2_error(x) < LOG2_BOUND);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Lzc

fn lzc_rtl<const N: usize>(u: &mut Lzc<N>, x: u64) -> u32 {
    u.a.next = x.to_bits::<N>();
    settle_block(u);
    u.count.val().to_u32()
}

/// Reference: count zeros from the top bit down.
fn lzc_reference(x: u64, n: u32) -> u32 {
    (0..n).rev().take_while(|&i| x >> i & 1 == 0).count() as u32
}

fn lzc_check_all<const N: usize>(seed: u64) {
    let mut u = connected(Lzc::<N>::default());
    let n = N as u32;
    let mask = if N == 64 { u64::MAX } else { (1u64 << N) - 1 };
    let mut inputs = vec![0, mask];
    for i in 0..n {
        inputs.push(1 << i); // single bit
        inputs.push(mask >> (n - 1 - i)); // ones from bit 0 up to bit i
        inputs.push(mask & !((1u64 << i) - 1)); // ones from bit i up
    }
    let mut r = SplitMix64::new(seed);
    for _ in 0..20_000 {
        let x = r.next_u64() & mask;
        inputs.push(x >> (r.next_u64() % u64::from(n)));
    }
    for x in inputs {
        let want = lzc_reference(x, n);
        assert_eq!(lzc_rtl(&mut u, x), want, "Lzc<{N}> {x:x}");
        assert_eq!(fpmodel::lzc(x, n), want, "model");
    }
}

#[test]
fn lzc_all_widths_used() {
    lzc_check_all::<1>(20);
    lzc_check_all::<10>(21);
    lzc_check_all::<23>(22);
    lzc_check_all::<24>(23);
    lzc_check_all::<27>(24);
    lzc_check_all::<32>(25);
    lzc_check_all::<33>(26);
    lzc_check_all::<64>(27);
}

// ---------------------------------------------------------------------------------------------
// Properties: RTL == bit-accurate model on proptest-generated inputs (edge values first).

fn f32_bits() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => prop::sample::select(SPECIALS),
        3 => any::<u32>(),
        2 => (any::<u32>(), 0u32..4).prop_map(|(m, e)| m & 0x807f_ffff | e << 23),
        2 => (any::<u32>(), 100u32..155).prop_map(|(m, e)| m & 0x807f_ffff | e << 23),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn prop_add_matches_model(a in f32_bits(), b in f32_bits(), sub in any::<bool>()) {
        let mut u = connected(FpAdd::default());
        prop_assert_eq!(add_rtl(&mut u, a, b, sub), fpmodel::fp_add(a, b, sub));
    }

    #[test]
    fn prop_mul_matches_model(a in f32_bits(), b in f32_bits()) {
        let mut u = connected(FpMul::default());
        prop_assert_eq!(mul_rtl(&mut u, a, b), fpmodel::fp_mul(a, b));
    }

    #[test]
    fn prop_cmp_matches_model(a in f32_bits(), b in f32_bits()) {
        let mut u = connected(FpCmp::default());
        prop_assert_eq!(cmp_rtl(&mut u, a, b), fpmodel::fp_cmp(a, b));
    }

    #[test]
    fn prop_f16_matches_model(h in any::<u16>()) {
        let mut u = connected(F16ToF32::default());
        prop_assert_eq!(f16_rtl(&mut u, h), fpmodel::f16_to_f32(h));
    }

    #[test]
    fn prop_fixed_matches_model(a in f32_bits()) {
        let mut u = connected(FpToFixed::<12>::default());
        prop_assert_eq!(fixed_rtl(&mut u, a), fpmodel::fp_to_fixed(a, 12));
    }

    #[test]
    fn prop_log2_matches_model(a in f32_bits()) {
        let mut u = connected(FpLog2P::new(0));
        prop_assert_eq!(log2_rtl(&mut u, a), fpmodel::fp_log2(a));
    }

    #[test]
    fn prop_lzc_matches_model(x in any::<u32>(), s in 0u32..32) {
        let mut u = connected(Lzc::<27>::default());
        let v = u64::from(x >> s) & ((1 << 27) - 1);
        prop_assert_eq!(lzc_rtl(&mut u, v), fpmodel::lzc(v, 27));
    }
}

// ---------------------------------------------------------------------------------------------
// Settling (texpix_rtl::common::settle): a combinational core reaches its fixed point within one
// `update_all` of its own, however many pieces it chains, and reports that it changed.

/// One `update_all` after new inputs gives the final output and `has_changed`; the next one
/// changes nothing. `set` presents the inputs, `out` reads the output.
fn settles_in_one_pass<B: Block>(
    u: &mut B,
    set: impl Fn(&mut B, u32, u32),
    out: fn(&B) -> u32,
    want: fn(u32, u32) -> u32,
) {
    let mut r = SplitMix64::new(77);
    for _ in 0..2000 {
        let (a, b) = (rand_bits(&mut r), rand_bits(&mut r));
        set(u, a, b);
        u.update_all();
        assert!(
            u.has_changed() || out(u) == want(a, b),
            "{a:#x} {b:#x}: no change reported"
        );
        assert_eq!(out(u), want(a, b), "{a:#x} {b:#x} after one pass");
        u.update_all();
        assert!(
            !u.has_changed(),
            "{a:#x} {b:#x}: still changing after the settled pass"
        );
    }
}

/// [`settles_in_one_pass`] for a two-operand core with ports `a`, `b` (and `sub`, held low) → `y`.
macro_rules! two_operands_settle {
    ($block:expr, $model:expr $(, $sub:ident)?) => {
        settles_in_one_pass(
            &mut connected($block),
            |u, a, b| {
                u.a.next = u64::from(a).into();
                u.b.next = u64::from(b).into();
                $(u.$sub.next = false;)?
            },
            |u| u.y.val().to_u32(),
            $model,
        )
    };
}

#[test]
fn combinational_cores_settle_within_one_pass() {
    use texpix_rtl::common::fp::{FpAddP, FpMulP};
    let add = |a, b| fpmodel::fp_add(a, b, false);
    two_operands_settle!(FpAdd::default(), add, sub);
    two_operands_settle!(FpAddP::new(0), add, sub);
    two_operands_settle!(FpMul::default(), fpmodel::fp_mul);
    two_operands_settle!(FpMulP::new(0), fpmodel::fp_mul);
    settles_in_one_pass(
        &mut connected(FpLog2P::new(0)),
        |u, a, _| u.a.next = u64::from(a).into(),
        |u| u.y.val().to_u32(),
        |a, _| fpmodel::fp_log2(a).0 as u32,
    );
}

/// With a register stage the pipelined cores simulate like any clocked block: new inputs do not
/// reach the output in the pass they arrive.
#[test]
fn pipelined_cores_with_registers_do_not_settle_early() {
    use texpix_rtl::common::fp::FpMulP;
    let mut u = connected(FpMulP::new(1));
    u.a.next = 0x4000_0000_u64.into(); // 2.0
    u.b.next = 0x4040_0000_u64.into(); // 3.0
    u.en.next = true;
    settle_block(&mut u);
    assert_eq!(u.y.val().to_u32(), 0, "no clock edge yet");
    u.clock.next = Clock::from(true);
    settle_block(&mut u);
    assert_eq!(u.y.val().to_u32(), 0x40c0_0000, "6.0 after the edge");
}
