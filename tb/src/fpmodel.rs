//! Bit-accurate golden models of the shared floating-point blocks (`texpix_rtl::common::fp`).
//!
//! Plain Rust, same semantics as the RTL, computed the simple way: IEEE arithmetic comes from the
//! host's `f32` (round to nearest even, denormals kept — Rust never enables flush-to-zero) plus
//! the canonical-NaN rule; the conversions use integer arithmetic; [`fp_log2`] repeats the RTL's
//! table and interpolation bit for bit, with the table from the one definition in
//! [`texpix_rtl::common::fp::log2::log2_table`].

use std::sync::OnceLock;
use texpix_rtl::common::fp::log2::{log2_table, LOG2_OUT_FRAC, LOG2_SEGMENTS, LOG2_TABLE_FRAC};
pub use texpix_rtl::common::fp::CANONICAL_NAN;

/// `x`'s bits, or [`CANONICAL_NAN`] if `x` is a NaN.
pub fn canon(x: f32) -> u32 {
    if x.is_nan() {
        CANONICAL_NAN
    } else {
        x.to_bits()
    }
}

/// True if the f32 bit pattern `x` is a NaN.
pub fn is_nan(x: u32) -> bool {
    x & 0x7fff_ffff > 0x7f80_0000
}

/// `FpAdd`: `a + b` (or `a − b` with `sub`), RNE, denormals kept, canonical NaN.
pub fn fp_add(a: u32, b: u32, sub: bool) -> u32 {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    canon(if sub { x - y } else { x + y })
}

/// `FpMul`: `a · b`, RNE, denormals kept, canonical NaN.
pub fn fp_mul(a: u32, b: u32) -> u32 {
    canon(f32::from_bits(a) * f32::from_bits(b))
}

/// `FpDiv`: `a / b`, correctly rounded (RNE), denormals kept, canonical NaN. IEEE division is
/// exactly specified, so the host's `f32` division is the golden model.
pub fn fp_div(a: u32, b: u32) -> u32 {
    canon(f32::from_bits(a) / f32::from_bits(b))
}

/// Outputs of `FpCmp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CmpOut {
    pub lt: bool,
    pub eq: bool,
    pub gt: bool,
    pub unordered: bool,
    pub min: u32,
    pub max: u32,
}

/// `FpCmp`: IEEE relations (−0 == +0, NaN unordered) and minNum/maxNum (a NaN operand is ignored,
/// both NaN ⇒ canonical NaN, −0 < +0).
pub fn fp_cmp(a: u32, b: u32) -> CmpOut {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    let unordered = x.is_nan() || y.is_nan();
    // Among equal values (only ±0 pairs and identical patterns) the negative zero is the smaller.
    let a_first = x < y || (x == y && (a >> 31) >= (b >> 31));
    let (min, max) = match (x.is_nan(), y.is_nan()) {
        (true, true) => (CANONICAL_NAN, CANONICAL_NAN),
        (true, false) => (b, b),
        (false, true) => (a, a),
        (false, false) if a_first => (a, b),
        (false, false) => (b, a),
    };
    CmpOut {
        lt: x < y,
        eq: x == y,
        gt: x > y,
        unordered,
        min,
        max,
    }
}

/// `F16ToF32`: exact conversion of f16 bits (NaN payloads kept, shifted left by 13).
pub fn f16_to_f32(h: u16) -> u32 {
    let s = u32::from(h >> 15) << 31;
    let e = u32::from((h >> 10) & 0x1f);
    let m = u32::from(h & 0x3ff);
    match (e, m) {
        (0, 0) => s,
        (0, _) => {
            // m · 2^-24 with the leading one at bit p: 2^(p - 24) · 1.f.
            let p = 31 - m.leading_zeros();
            let frac = (m << (23 - p)) & 0x7f_ffff;
            s | ((p + 103) << 23) | frac
        }
        (0x1f, _) => s | 0x7f80_0000 | (m << 13),
        _ => s | ((e + 112) << 23) | (m << 13),
    }
}

/// `F32ToF16`: f32 bits → f16 bits, round to nearest even (|a| ≥ 65520 ⇒ ±Inf, f16 denormals,
/// ±0 and ±Inf kept); NaN ⇒ sign kept, payload = fraction bits 22…13 with the quiet bit set.
pub fn f32_to_f16(a: u32) -> u16 {
    let s = ((a >> 16) & 0x8000) as u16;
    let e = (a >> 23) & 0xff;
    let f = a & 0x7f_ffff;
    if e == 0xff {
        return if f != 0 {
            s | 0x7e00 | (f >> 13) as u16
        } else {
            s | 0x7c00
        };
    }
    // |a| = sig · 2^(e - 150) (denormal f32: e = 1 without the hidden bit). In units of the
    // result's last place (2^-24 below 2^-14, else 2^(e - 127 - 10)) the value is sig >> shift.
    let (sig, e) = if e == 0 { (f, 1) } else { (f | 0x80_0000, e) };
    let shift = if e < 113 { 126 - e } else { 13 };
    if shift > 25 {
        return s; // at most 2^-26 · 2: below half the smallest denormal
    }
    let q = sig >> shift;
    let rem = sig & ((1 << shift) - 1);
    let half = 1 << (shift - 1);
    let up = rem > half || (rem == half && q & 1 == 1);
    let mag = if e < 113 {
        q + u32::from(up)
    } else {
        (((e - 112) << 10) | (q & 0x3ff)) + u32::from(up)
    };
    s | mag.min(0x7c00) as u16
}

/// Outputs of `FpToFixed<F>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedOut {
    pub y: i32,
    pub nan: bool,
    pub sat: bool,
}

/// `FpToFixed<F>`: `round_ties_even(a · 2^F)` saturated to i32 (`sat` when out of range), NaN ⇒ 0.
pub fn fp_to_fixed(a: u32, frac_bits: u32) -> FixedOut {
    assert!(frac_bits <= 24);
    let neg = a >> 31 == 1;
    let e = (a >> 23) & 0xff;
    let f = a & 0x7f_ffff;
    if e == 0xff {
        return if f != 0 {
            FixedOut {
                y: 0,
                nan: true,
                sat: false,
            }
        } else {
            FixedOut {
                y: if neg { i32::MIN } else { i32::MAX },
                nan: false,
                sat: true,
            }
        };
    }
    let (m, ee) = if e == 0 { (f, 1) } else { (f | 0x80_0000, e) };
    // a · 2^F = m · 2^sh, exactly, in i128.
    let sh = ee as i32 + frac_bits as i32 - 150;
    let mag: i128 = if sh >= 0 {
        (m as i128) << sh.min(100)
    } else {
        let k = (-sh) as u32;
        if k >= 64 {
            0
        } else {
            let q = (m as u128) >> k;
            let rem = (m as u128) & ((1u128 << k) - 1);
            let half = 1u128 << (k - 1);
            let up = rem > half || (rem == half && q & 1 == 1);
            (q + u128::from(up)) as i128
        }
    };
    let v = if neg { -mag } else { mag };
    if v > i32::MAX as i128 {
        FixedOut {
            y: i32::MAX,
            nan: false,
            sat: true,
        }
    } else if v < i32::MIN as i128 {
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

/// Flags of `FpLog2P`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Log2Flags {
    pub zero: bool,
    pub inf: bool,
    pub nan: bool,
    pub neg: bool,
}

/// `FpLog2P`: `log2|a| · 65536` (two's complement) by exponent + table + linear interpolation, bit
/// for bit as the RTL computes it; special values as documented on the RTL block.
pub fn fp_log2(a: u32) -> (i32, Log2Flags) {
    let e = (a >> 23) & 0xff;
    let f = a & 0x7f_ffff;
    let flags = Log2Flags {
        zero: e == 0 && f == 0,
        inf: e == 0xff && f == 0,
        nan: e == 0xff && f != 0,
        neg: a >> 31 == 1 && !(e == 0 && f == 0) && !(e == 0xff && f != 0),
    };
    if flags.zero {
        return (i32::MIN, flags);
    }
    if flags.nan {
        return (0, flags);
    }
    if flags.inf {
        return (i32::MAX, flags);
    }
    // a = 2^exp · (1 + frac / 2^23).
    let (exp, frac) = if e == 0 {
        let lz = f.leading_zeros() - 9; // zeros above the leading one within 23 bits
        (-127 - lz as i32, (f << (lz + 1)) & 0x7f_ffff)
    } else {
        (e as i32 - 127, f)
    };
    let (y, _) = log2_fraction(frac);
    (exp * (1 << LOG2_OUT_FRAC) + y as i32, flags)
}

/// The table/interpolation part of [`fp_log2`]: `round(log2(1 + frac/2^23) · 2^16)` as the RTL
/// approximates it, for a 23-bit fraction, with the segment index.
pub fn log2_fraction(frac: u32) -> (u32, usize) {
    static TABLE: OnceLock<[u32; LOG2_SEGMENTS + 1]> = OnceLock::new();
    let t = TABLE.get_or_init(log2_table);
    let seg_bits = LOG2_SEGMENTS.trailing_zeros();
    let idx = (frac >> (23 - seg_bits)) as usize;
    let r_bits = 23 - seg_bits;
    let r = frac & ((1 << r_bits) - 1);
    let d = t[idx + 1] - t[idx];
    let interp = (d * r + (1 << (r_bits - 1))) >> r_bits;
    let l = t[idx] + interp;
    let drop = LOG2_TABLE_FRAC - LOG2_OUT_FRAC;
    ((l + (1 << (drop - 1))) >> drop, idx)
}

/// `Lzc<N>`: leading zeros of the low `n` bits of `x` (`n` for zero).
pub fn lzc(x: u64, n: u32) -> u32 {
    let x = if n == 64 { x } else { x & ((1u64 << n) - 1) };
    x.leading_zeros() - (64 - n)
}
