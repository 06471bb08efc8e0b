//! Ideal texture-unit reference: the value every lane of a quad should return, computed from the
//! spec rules in f64 and exact integer arithmetic, with none of the golden model's arithmetic or
//! tables ([`super::texel`] is not used at all).
//!
//! What it computes:
//! - **Conversion** ([`convert`]): every format's components from the texel's bytes (little
//!   endian, first component lowest), each the f32 value the spec names, as an exact f64: UNORM
//!   n-bit c is the f32 nearest to c / (2^n − 1) found by exact integer long division
//!   ([`unorm`]); SNORM8 is −1 for −128 and −127, else c / 127 the same way ([`snorm8`]); sRGB is
//!   the f32 nearest to the IEC 61966-2-1 decode of c / 255, decided exactly: the linear segment
//!   by long division, the power segment by comparing y^5 = x^12 with the fifth power of each
//!   candidate rounding midpoint in big integers ([`srgb_decode`]); f16 is decoded from its
//!   fields ([`f16_value`], denormals, infinities and NaN payloads included); f32 from its
//!   fields with denormals flushed to signed zero ([`f32_sampled`]); integers as themselves. Then
//!   the TGSI component table and the descriptor swizzle ([`swizzle`]), written out again here.
//! - **Filtering** ([`filtered`]): the exact weighted sum Σ W_k·t_k / 2^S of the converted taps
//!   (kept exactly as a floating-point expansion, [`Exact`], and rounded once to f64 — far below
//!   the project bound of 2^−20·max|tap|), with IEEE's rule for specials among the weighted taps
//!   (a NaN, or both infinities, give NaN; else an infinity gives itself; zero weights don't count).
//!   The weights are the spec's products of (256 − α or α) per linear axis and (256 − frac or
//!   frac) across levels ([`weights`]), from the address pipeline's 8-bit α and frac.
//! - **Depth compare** ([`compare_reference`], [`compare_value`]): the reference with denormals
//!   flushed and, for UNORM formats, clamped to [0, 1]; tap value 1.0 iff `ref OP texel` (Vulkan's
//!   order, IEEE relations), then filtered; the lane returns (p, p, p, 1).
//! - **gather4** ([`GATHER_ORDER_2D`]): component `gather_comp` of the taps (i0,j1), (i1,j1),
//!   (i1,j0), (i0,j0).
//! - **A whole quad** ([`ideal`], [`ideal_json`]): memory bytes from the textures (data or the
//!   `fill` hash rule, the last covering texture winning, each read here again), border colours,
//!   txf's out-of-range and TEXEL_FAIL lanes (zeros), txq's sizes, lodq's (λ, λ', 0, 0) in f64,
//!   and txp's projection as an f64 division rounded to f32 ([`divide`]); the operands of a
//!   MIMG address block are the golden model's unpacking ([`super::mimg_operands`]).
//! - **3D textures** (`volume`): the whole 3D footprint of a lane at once — s, t and r through
//!   the address pipeline's axis rule at each level's width, height and depth, 8 taps per level
//!   (16 trilinear) weighted f_u·f_v·f_r·f_l, one exact sum — where the golden model filters
//!   (level, slice) planes and combines them; the level starts (depth halving per level) and the
//!   texel addresses and tiles computed here ([`volume_level_start`]).
//!
//! What it shares with the golden model: the type definitions ([`Format`], [`Compare`], [`Swz`],
//! [`TexTxn`], …) and, because the texture address pipeline and the LOD unit are verified
//! separately (tests/texaddr_golden.rs, tests/lod_golden.rs), their results: which level(s) and
//! filter each lane uses and the passes (`super::{lod_txn, plan, passes, pass_txn}` over
//! [`crate::lod::golden`]), the LOD unit's per-lane mip fraction, and the address pipeline's taps,
//! border flags, TEXEL_FAIL, TXQ sizes and 8-bit weights ([`crate::texaddr::golden`]). The byte size of a mip chain is
//! the address pipeline's *ideal* [`crate::texaddr::ideal::level_start`] ([`volume_level_start`]
//! for 3D). For 3D textures only the LOD unit's result and the address pipeline's per-axis rule
//! ([`crate::texaddr::axis`]: 16.8 fixed point, wrap) are shared.

use super::texel::{Compare, Format};
use super::{Filter, Swz, TexData, TexOp, TexTxn, Texture};
use crate::lod::MipFilter;
use crate::texaddr::{self, Dim, Fault, LaneResult};
use std::cmp::Ordering;
use std::sync::OnceLock;

// ------------------------------------------------------------------------------------------------
// Exact f64 helpers
// ------------------------------------------------------------------------------------------------

/// 2^n as f64 (n within f64's normal exponent range).
fn pow2(n: i32) -> f64 {
    assert!(
        (-1022..=1023).contains(&n),
        "2^{n} is outside f64's normal range"
    );
    f64::from_bits(((1023 + n) as u64) << 52)
}

/// An f64 NaN with this sign and payload (bits below the exponent).
fn nan_with_payload(negative: bool, payload: u64) -> f64 {
    f64::from_bits(u64::from(negative) << 63 | 0x7FF << 52 | payload)
}

/// The exact value of f32 bits (denormals kept; a NaN keeps its sign and payload, moved to the
/// top of f64's significand).
pub fn f32_value(bits: u32) -> f64 {
    let negative = bits >> 31 != 0;
    let e = ((bits >> 23) & 0xFF) as i32;
    let m = bits & 0x7F_FFFF;
    let v = match e {
        0 => f64::from(m) * pow2(-149),
        255 if m == 0 => f64::INFINITY,
        255 => return nan_with_payload(negative, u64::from(m) << 29),
        _ => f64::from(m | 1 << 23) * pow2(e - 150),
    };
    if negative {
        -v
    } else {
        v
    }
}

/// The value texture sampling reads from f32 bits: denormals flushed to signed zero.
pub fn f32_sampled(bits: u32) -> f64 {
    if (bits >> 23) & 0xFF == 0 {
        if bits >> 31 != 0 {
            -0.0
        } else {
            0.0
        }
    } else {
        f32_value(bits)
    }
}

/// The exact value of f16 bits (denormals, infinities; a NaN keeps its sign and payload, moved
/// to the top of f64's significand).
pub fn f16_value(h: u16) -> f64 {
    let negative = h >> 15 != 0;
    let e = i32::from((h >> 10) & 0x1F);
    let m = u32::from(h & 0x3FF);
    let v = match e {
        0 => f64::from(m) * pow2(-24),
        31 if m == 0 => f64::INFINITY,
        31 => return nan_with_payload(negative, u64::from(m) << 42),
        _ => f64::from(m | 1 << 10) * pow2(e - 25),
    };
    if negative {
        -v
    } else {
        v
    }
}

/// The f16 nearest to `x` (ties to even; |x| ≥ 65520 ⇒ ±Inf; f16 denormals in steps of 2^−24),
/// as bits; a NaN gives the sign and the quiet NaN 0x7E00 (payloads are not the ideal's concern).
/// For every f32 value `x` the scaled values below are exact in f64, so each rounding is one
/// `round_ties_even`.
pub fn nearest_f16(x: f64) -> u16 {
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs();
    if x.is_nan() {
        return sign | 0x7E00;
    }
    if a >= 65520.0 {
        return sign | 0x7C00;
    }
    if a < pow2(-14) {
        // Denormal (or the smallest normal, 1024 · 2^−24, when it rounds up).
        return sign | (a * pow2(24)).round_ties_even() as u16;
    }
    let mut e = a.log2().floor() as i32;
    if pow2(e) > a {
        e -= 1;
    } else if pow2(e + 1) <= a {
        e += 1;
    }
    let mut m = (a * pow2(10 - e)).round_ties_even() as u32;
    if m == 2048 {
        m = 1024;
        e += 1;
    }
    sign | (((e + 15) as u16) << 10) | (m - 1024) as u16
}

/// The f32 nearest to p / q (ties to even) for 0 ≤ p ≤ q < 2^32, by integer long division.
pub fn nearest_ratio(p: u64, q: u64) -> f64 {
    assert!(p <= q && q < 1 << 32 && q > 0);
    if p == 0 {
        return 0.0;
    }
    // The smallest k with p·2^k ≥ q·2^23: then 2^23 ≤ p·2^k / q < 2^24.
    let mut k = (23 + p.leading_zeros()).saturating_sub(q.leading_zeros());
    while k > 0 && (p << (k - 1)) >= q << 23 {
        k -= 1;
    }
    while (p << k) < q << 23 {
        k += 1;
    }
    let n = p << k;
    let (sig, rem) = (n / q, n % q);
    let up = 2 * rem > q || (2 * rem == q && sig & 1 == 1);
    // sig + 1 = 2^24 is still exact: the value is then a power of two.
    (sig + u64::from(up)) as f64 * pow2(-(k as i32))
}

/// UNORM n-bit c: the f32 nearest to c / (2^n − 1).
pub fn unorm(c: u32, n: u32) -> f64 {
    assert!((1..=16).contains(&n) && c < 1 << n);
    if n == 8 {
        return unorm8_table()[c as usize];
    }
    nearest_ratio(u64::from(c), (1 << n) - 1)
}

fn unorm8_table() -> &'static [f64; 256] {
    static T: OnceLock<[f64; 256]> = OnceLock::new();
    T.get_or_init(|| std::array::from_fn(|c| nearest_ratio(c as u64, 255)))
}

/// SNORM8: −128 and −127 → −1.0, else c / 127 (the f32 nearest).
pub fn snorm8(c: u8) -> f64 {
    let v = i64::from(c as i8);
    if v <= -127 {
        -1.0
    } else if v < 0 {
        -nearest_ratio((-v) as u64, 127)
    } else {
        nearest_ratio(v as u64, 127)
    }
}

// ------------------------------------------------------------------------------------------------
// sRGB, exactly
// ------------------------------------------------------------------------------------------------

/// A non-negative big integer (32-bit limbs, little-endian), just enough for sRGB's comparisons.
#[derive(Clone, Debug)]
struct Big(Vec<u32>);

impl Big {
    fn one() -> Big {
        Big(vec![1])
    }
    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let x = u64::from(*limb) * u64::from(m) + carry;
            *limb = x as u32;
            carry = x >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
    }
    fn pow_small(b: u32, e: u32) -> Big {
        let mut x = Big::one();
        for _ in 0..e {
            x.mul_small(b);
        }
        x
    }
    fn shl(&mut self, k: u32) {
        for _ in 0..k / 32 {
            self.0.insert(0, 0);
        }
        let r = k % 32;
        if r != 0 {
            let mut carry = 0u32;
            for limb in &mut self.0 {
                let x = (u64::from(*limb) << r) | u64::from(carry);
                *limb = x as u32;
                carry = (x >> 32) as u32;
            }
            if carry != 0 {
                self.0.push(carry);
            }
        }
    }
    fn mul(&self, o: &Big) -> Big {
        let mut r = Big(vec![0; self.0.len() + o.0.len()]);
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in o.0.iter().enumerate() {
                let x = u64::from(a) * u64::from(b) + u64::from(r.0[i + j]) + carry;
                r.0[i + j] = x as u32;
                carry = x >> 32;
            }
            let mut k = i + o.0.len();
            while carry != 0 {
                let x = u64::from(r.0[k]) + carry;
                r.0[k] = x as u32;
                carry = x >> 32;
                k += 1;
            }
        }
        r
    }
    fn cmp(&self, o: &Big) -> Ordering {
        let len = |x: &Big| x.0.iter().rposition(|&l| l != 0).map_or(0, |p| p + 1);
        let (la, lb) = (len(self), len(o));
        if la != lb {
            return la.cmp(&lb);
        }
        for k in (0..la).rev() {
            match self.0[k].cmp(&o.0[k]) {
                Ordering::Equal => {}
                c => return c,
            }
        }
        Ordering::Equal
    }
}

/// A positive finite f64 as N·2^e with N odd.
fn dyadic(x: f64) -> (u64, i32) {
    assert!(x > 0.0 && x.is_finite());
    let b = x.to_bits();
    let be = ((b >> 52) & 0x7FF) as i32;
    let (mut n, mut e) = if be == 0 {
        (b & ((1 << 52) - 1), -1074)
    } else {
        (b & ((1 << 52) - 1) | 1 << 52, be - 1075)
    };
    let tz = n.trailing_zeros();
    n >>= tz;
    e += tz as i32;
    (n, e)
}

/// The f32 nearest (ties to even) to a positive real y, given an approximation of y (within a
/// few f32 ulps) and `cmp(N, e)` = the exact ordering of y against N·2^e.
fn nearest_f32(approx: f64, cmp: impl Fn(u64, i32) -> Ordering) -> f64 {
    let mut f = approx as f32;
    assert!(f.is_normal() && f > 0.0);
    let mid = |a: f32, b: f32| dyadic((f64::from(a) + f64::from(b)) / 2.0);
    loop {
        let bits = f.to_bits();
        let (down, up) = (f32::from_bits(bits - 1), f32::from_bits(bits + 1));
        let odd = bits & 1 == 1;
        let (n, e) = mid(down, f);
        match cmp(n, e) {
            Ordering::Less => {
                f = down;
                continue;
            }
            Ordering::Equal if odd => return f64::from(down),
            _ => {}
        }
        let (n, e) = mid(f, up);
        match cmp(n, e) {
            Ordering::Greater => {
                f = up;
                continue;
            }
            Ordering::Equal if odd => return f64::from(up),
            _ => {}
        }
        return f64::from(f);
    }
}

/// The sRGB decode of c / 255 (IEC 61966-2-1: s ≤ 0.04045 ? s / 12.92 :
/// ((s + 0.055) / 1.055)^2.4), correctly rounded to f32, computed exactly.
fn srgb_exact(c: u8) -> f64 {
    let c = u64::from(c);
    // s = c/255 ≤ 0.04045 ⇔ 100000·c ≤ 255·4045.
    if c * 100_000 <= 255 * 4045 {
        // c / (255 · 12.92) = 5c / 16473.
        return nearest_ratio(5 * c, 16473);
    }
    // x = (c/255 + 0.055) / 1.055 = (1000c + 14025) / 269025 = a / b, y = x^(12/5):
    // y > N·2^e ⇔ a^12 > N^5 · 2^(5e) · b^12.
    let (a, b) = (40 * c as u32 + 561, 10761u32);
    let a12 = Big::pow_small(a, 12);
    let b12 = Big::pow_small(b, 12);
    let approx = (f64::from(a) / f64::from(b)).powf(2.4);
    nearest_f32(approx, |n, e| {
        let n = u32::try_from(n).expect("f32 midpoints have 25 significant bits");
        let mut lhs = a12.clone();
        let mut rhs = Big::pow_small(n, 5).mul(&b12);
        if e >= 0 {
            rhs.shl(5 * e as u32);
        } else {
            lhs.shl(5 * (-e) as u32);
        }
        lhs.cmp(&rhs)
    })
}

/// sRGB decode of an 8-bit c: the f32 nearest to the IEC 61966-2-1 inverse transfer function
/// of c / 255 (see [`srgb_exact`]; the 256 values are computed once).
pub fn srgb_decode(c: u8) -> f64 {
    static T: OnceLock<[f64; 256]> = OnceLock::new();
    T.get_or_init(|| std::array::from_fn(|c| srgb_exact(c as u8)))[c as usize]
}

// ------------------------------------------------------------------------------------------------
// Formats
// ------------------------------------------------------------------------------------------------

/// Bytes per texel.
pub fn bytes_per_texel(fmt: Format) -> u32 {
    use Format::*;
    match fmt {
        R8 | A8 | L8 | I8 => 1,
        Rg8 | La8 | Rgb565 | R16f | D16 => 2,
        Rgba8 | Rgba8Snorm | Rgba8Srgb | Rgb10a2 | Rg16f | R32f | R32ui | Rgba8ui | D32f => 4,
        Rgba16f | Rg32f => 8,
        Rgba32f => 16,
    }
}

/// An integer format (returns integers, never filters).
pub fn integer_format(fmt: Format) -> bool {
    matches!(fmt, Format::R32ui | Format::Rgba8ui)
}

/// A UNORM format (sRGB included: unsigned normalized with a nonlinear encoding): depth compare
/// clamps the reference to [0, 1].
pub fn unorm_format(fmt: Format) -> bool {
    use Format::*;
    matches!(
        fmt,
        R8 | Rg8 | Rgba8 | Rgba8Srgb | A8 | L8 | I8 | La8 | Rgb565 | Rgb10a2 | D16
    )
}

/// The four components of a texel: the format's values, then the TGSI table (R → (r,0,0,1),
/// RG → (r,g,0,1), RGB → (r,g,b,1), A → (0,0,0,a), L → (l,l,l,1), LA → (l,l,l,a),
/// I → (i,i,i,i), depth → (z,z,z,1)). Integers are returned as f64. `raw` holds the texel's
/// bytes, little-endian; bits beyond the texel are ignored.
pub fn convert(fmt: Format, raw: u128) -> [f64; 4] {
    use Format::*;
    let field = |lo: u32, n: u32| ((raw >> lo) & ((1u128 << n) - 1)) as u32;
    let un = |lo: u32, n: u32| unorm(field(lo, n), n);
    let half = |k: u32| f16_value(field(16 * k, 16) as u16);
    let single = |k: u32| f32_sampled(field(32 * k, 32));
    let int = |lo: u32, n: u32| f64::from(field(lo, n));
    match fmt {
        R8 => [un(0, 8), 0.0, 0.0, 1.0],
        Rg8 => [un(0, 8), un(8, 8), 0.0, 1.0],
        Rgba8 => [un(0, 8), un(8, 8), un(16, 8), un(24, 8)],
        Rgba8Snorm => std::array::from_fn(|k| snorm8(field(8 * k as u32, 8) as u8)),
        Rgba8Srgb => [
            srgb_decode(field(0, 8) as u8),
            srgb_decode(field(8, 8) as u8),
            srgb_decode(field(16, 8) as u8),
            un(24, 8),
        ],
        A8 => [0.0, 0.0, 0.0, un(0, 8)],
        L8 => {
            let l = un(0, 8);
            [l, l, l, 1.0]
        }
        I8 => [un(0, 8); 4],
        La8 => {
            let l = un(0, 8);
            [l, l, l, un(8, 8)]
        }
        Rgb565 => [un(0, 5), un(5, 6), un(11, 5), 1.0],
        Rgb10a2 => [un(0, 10), un(10, 10), un(20, 10), un(30, 2)],
        R16f => [half(0), 0.0, 0.0, 1.0],
        Rg16f => [half(0), half(1), 0.0, 1.0],
        Rgba16f => [half(0), half(1), half(2), half(3)],
        R32f => [single(0), 0.0, 0.0, 1.0],
        Rg32f => [single(0), single(1), 0.0, 1.0],
        Rgba32f => [single(0), single(1), single(2), single(3)],
        R32ui => [int(0, 32), 0.0, 0.0, 1.0],
        Rgba8ui => [int(0, 8), int(8, 8), int(16, 8), int(24, 8)],
        D16 => {
            let z = un(0, 16);
            [z, z, z, 1.0]
        }
        D32f => {
            let z = single(0);
            [z, z, z, 1.0]
        }
    }
}

/// The descriptor swizzle: per output component r, g, b, a of `v`, or 0, or 1 (1.0, which is
/// also the integer 1 as f64).
pub fn swizzle(v: [f64; 4], sw: [Swz; 4]) -> [f64; 4] {
    sw.map(|s| match s {
        Swz::R => v[0],
        Swz::G => v[1],
        Swz::B => v[2],
        Swz::A => v[3],
        Swz::Zero => 0.0,
        Swz::One => 1.0,
    })
}

/// A border tap's four-vector: the sampler's border colour as a texel would arrive, f32 values
/// with denormals read as signed zero (texture sampling flushes) — or integers for integer
/// formats.
pub fn border_texel(fmt: Format, border: [u32; 4]) -> [f64; 4] {
    if integer_format(fmt) {
        border.map(f64::from)
    } else {
        border.map(|b| {
            let denormal = (b >> 23) & 0xFF == 0;
            f32_value(if denormal { b & 0x8000_0000 } else { b })
        })
    }
}

// ------------------------------------------------------------------------------------------------
// Depth compare
// ------------------------------------------------------------------------------------------------

/// The depth-compare reference: f32 with denormals flushed; clamped to [0, 1] for a UNORM
/// format (NaN stays NaN).
pub fn compare_reference(fmt: Format, bits: u32) -> f64 {
    let r = f32_sampled(bits);
    if unorm_format(fmt) && !r.is_nan() {
        r.clamp(0.0, 1.0)
    } else {
        r
    }
}

/// `reference OP texel` in Vulkan's order, with IEEE relations (NaN unordered).
pub fn compare_holds(op: Compare, reference: f64, texel: f64) -> bool {
    match op {
        Compare::Never => false,
        Compare::Less => reference < texel,
        Compare::Equal => reference == texel,
        Compare::LEqual => reference <= texel,
        Compare::Greater => reference > texel,
        Compare::NotEqual => reference != texel,
        Compare::GEqual => reference >= texel,
        Compare::Always => true,
    }
}

/// A tap's percentage-closer value: 1.0 if `reference OP texel`, else 0.0.
pub fn compare_value(op: Compare, reference: f64, texel: f64) -> f64 {
    if compare_holds(op, reference, texel) {
        1.0
    } else {
        0.0
    }
}

// ------------------------------------------------------------------------------------------------
// Filtering
// ------------------------------------------------------------------------------------------------

/// An exact sum of f64 values: a nonoverlapping expansion (Shewchuk 1997), components in
/// increasing magnitude, zeros dropped. Exact as long as no intermediate overflows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exact {
    terms: Vec<f64>,
}

/// a + b = s + e exactly (Knuth's TwoSum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bv = s - a;
    let av = s - bv;
    (s, (a - av) + (b - bv))
}

impl Exact {
    /// Adds x exactly.
    pub fn add(&mut self, x: f64) {
        let mut q = x;
        let mut out = Vec::with_capacity(self.terms.len() + 1);
        for &e in &self.terms {
            let (s, h) = two_sum(q, e);
            if h != 0.0 {
                out.push(h);
            }
            q = s;
        }
        if q != 0.0 {
            out.push(q);
        }
        self.terms = out;
    }
    /// Adds w·t·2^scale exactly, for any 32-bit integer weight w (t is split into two halves of
    /// at most 26 significant bits, Veltkamp, so both products are exact for w < 2^27; a larger
    /// weight — a trilinear 3D tap reaches 256³·255 — is split into its 16-bit halves first).
    pub fn add_weighted(&mut self, t: f64, w: u32, scale: i32) {
        if w >= 1 << 27 {
            self.add_weighted(t, w >> 16, scale + 16);
            self.add_weighted(t, w & 0xFFFF, scale);
            return;
        }
        let c = t * 134_217_729.0; // 2^27 + 1
        let hi = c - (c - t);
        let lo = t - hi;
        let w = f64::from(w);
        let s = pow2(scale);
        self.add(w * hi * s);
        self.add(w * lo * s);
    }
    /// The sum rounded to f64 (the components added smallest first; within an ulp or so).
    pub fn value(&self) -> f64 {
        self.terms.iter().fold(0.0, |s, &t| s + t)
    }
    /// The sum is zero.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }
}

/// Σ W_k·t_k / 2^s over the finite taps, exactly.
pub fn weighted_sum(taps: &[(f64, u32)], s: u32) -> Exact {
    let mut e = Exact::default();
    for &(t, w) in taps {
        if w != 0 && t.is_finite() {
            e.add_weighted(t, w, -(s as i32));
        }
    }
    e
}

/// The filtered value Σ W_k·t_k / 2^s of taps (value, weight): NaN if a weighted tap is NaN or
/// both infinities are weighted; else an infinity if one is weighted; else the exact sum
/// (rounded to f64). Zero-weight taps don't count. A single weighted tap carrying all of 2^s is
/// returned as it is (the exact sum, keeping a −0 or a NaN's payload) before the rule for
/// specials.
pub fn filtered(taps: &[(f64, u32)], s: u32) -> f64 {
    let live: Vec<(f64, u32)> = taps.iter().copied().filter(|t| t.1 != 0).collect();
    if let [(t, w)] = live[..] {
        if u64::from(w) == 1 << s {
            return t;
        }
    }
    let nan = live.iter().any(|t| t.0.is_nan());
    let pinf = live.iter().any(|t| t.0 == f64::INFINITY);
    let ninf = live.iter().any(|t| t.0 == f64::NEG_INFINITY);
    if nan || (pinf && ninf) {
        return f64::NAN;
    }
    if pinf {
        return f64::INFINITY;
    }
    if ninf {
        return f64::NEG_INFINITY;
    }
    weighted_sum(taps, s).value()
}

/// The largest |t| among the weighted taps (the bound's max|tap|; 0 if none; NaN/Inf ignored).
pub fn max_weighted(taps: &[(f64, u32)]) -> f64 {
    taps.iter()
        .filter(|t| t.1 != 0 && t.0.is_finite())
        .fold(0.0, |m, t| m.max(t.0.abs()))
}

/// The weights of a lane's taps and S, in the address pipeline's tap order ((i0,j0), (i1,j0),
/// (i0,j1), (i1,j1) per level; 1D: (i0), (i1); nearest: one tap; level 0 then level 1): the
/// product of (256 − α) for an i0/j0 tap or α for i1/j1 per linear axis, and (256 − frac) for
/// level 0 or frac for level 1 when trilinear; S = 8 per factor.
pub fn weights(
    lane: &LaneResult,
    frac: u32,
    trilinear: bool,
    linear: bool,
    one_d: bool,
) -> (Vec<u32>, u32) {
    let mut out = Vec::new();
    let levels: &[(u32, u32, u32)] = if trilinear {
        &[(lane.wu, lane.wv, 256 - frac), (lane.wu1, lane.wv1, frac)]
    } else {
        &[(lane.wu, lane.wv, 1)]
    };
    for &(a, b, wl) in levels {
        if !linear {
            out.push(wl);
            continue;
        }
        let (u, v) = ([256 - a, a], [256 - b, b]);
        if one_d {
            out.extend([u[0] * wl, u[1] * wl]);
        } else {
            out.extend([
                u[0] * v[0] * wl,
                u[1] * v[0] * wl,
                u[0] * v[1] * wl,
                u[1] * v[1] * wl,
            ]);
        }
    }
    let axes = if linear { 2 - u32::from(one_d) } else { 0 };
    (out, 8 * (axes + u32::from(trilinear)))
}

/// gather4's taps (indices in the address pipeline's bilinear order) for x, y, z, w, 2D:
/// (i0,j1), (i1,j1), (i1,j0), (i0,j0).
pub const GATHER_ORDER_2D: [usize; 4] = [2, 3, 1, 0];
/// 1D: (i0), (i1), (i1), (i0).
pub const GATHER_ORDER_1D: [usize; 4] = [0, 1, 1, 0];

// ------------------------------------------------------------------------------------------------
// A whole quad
// ------------------------------------------------------------------------------------------------

/// splitmix64 of one value (the `fill` hash rule).
fn mix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// First byte of level `l` of a 3D texture (depth D = `layers`), computed here: base +
/// Σ_{k<l} align256(w_k·h_k·d_k·bpp) with w_k, h_k, d_k = max(1, ⌊size/2^k⌋) — the depth halves
/// per level as the width and height do. No wrap to 48 bits.
pub fn volume_level_start(d: &texaddr::TexDesc, l: u32) -> u128 {
    let half = |x: u32, k: u32| u128::from((x >> k).max(1));
    (0..l).fold(u128::from(d.base), |a, k| {
        let bytes = half(d.width, k) * half(d.height, k) * half(d.layers, k) * u128::from(d.bpp);
        a + bytes.div_ceil(256) * 256
    })
}

/// One past the last byte of a texture's mip chain (no wrap to 48 bits): 3D textures as
/// [`volume_level_start`], the others the address pipeline's ideal
/// [`crate::texaddr::ideal::level_start`].
pub fn chain_end(d: &texaddr::TexDesc) -> u128 {
    if d.dim == Dim::D3 {
        volume_level_start(d, d.levels)
    } else {
        texaddr::ideal::level_start(d, d.levels)
    }
}

/// Memory byte at (48-bit) address `a`: the last texture whose mip chain covers it, else 0.
pub fn memory_byte(textures: &[Texture], a: u64) -> u8 {
    let a = a & texaddr::ADDR_MASK;
    for x in textures.iter().rev() {
        let d = &x.desc;
        let len = chain_end(d) - u128::from(d.base);
        let off = (u128::from(a) + (1 << 48) - u128::from(d.base)) % (1 << 48);
        if off < len {
            return match &x.data {
                TexData::Bytes(v) => v.get(off as usize).copied().unwrap_or(0),
                TexData::Hash(seed) => mix64(seed ^ (a / 8)).to_le_bytes()[(a % 8) as usize],
            };
        }
    }
    0
}

/// The texel at `addr`: its bytes, little-endian.
pub fn texel_raw(textures: &[Texture], addr: u64, fmt: Format) -> u128 {
    (0..bytes_per_texel(fmt)).fold(0u128, |acc, b| {
        acc | u128::from(memory_byte(textures, addr + u64::from(b))) << (8 * b)
    })
}

/// One lane's ideal result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IdealLane {
    /// x, y, z, w (integers as f64 for integer formats and txq).
    pub rgba: [f64; 4],
    /// Per component the largest |tap| among the weighted taps it came from (the bound's
    /// max|tap|; 0 for constants).
    pub max_tap: [f64; 4],
    /// Per component: the value is a weighted sum of two or more taps (not a single tap, a
    /// constant or an integer).
    pub blended: [bool; 4],
}

impl IdealLane {
    const ZERO: IdealLane = IdealLane {
        rgba: [0.0; 4],
        max_tap: [0.0; 4],
        blended: [false; 4],
    };
}

/// A sampling op on an integer format with a linear filter or a depth compare (descriptor
/// fault).
pub fn integer_filter_fault(t: &TexTxn, fmt: Format) -> bool {
    let s = &t.sampler;
    let sampling = !matches!(t.op, TexOp::Txf | TexOp::Txq | TexOp::Gather4 | TexOp::Lodq);
    let compares = matches!(t.op, TexOp::SampleC | TexOp::SampleCLz);
    integer_format(fmt)
        && sampling
        && (s.min_filter == Filter::Linear
            || s.mag_filter == Filter::Linear
            || s.mip_filter == MipFilter::Linear
            || compares)
}

/// The f32 nearest to a / b (f64 division of the two f32 values, rounded once more to f32: f64
/// carries more than 2·24 + 2 bits, so the double rounding is exact); NaN canonical.
pub fn divide(a: u32, b: u32) -> u32 {
    let q = f64::from(f32::from_bits(a)) / f64::from(f32::from_bits(b));
    if q.is_nan() {
        0x7FC0_0000
    } else {
        (q as f32).to_bits()
    }
}

/// The cube's face of direction (x, y, z) and its face coordinates: (face, sc, tc, |ma|) as f64.
/// The major axis has the largest magnitude, NaN above every number (NaNs by payload), ties
/// going to z, then y; the face's sign is the major component's sign bit; sc and tc from the
/// Vulkan / Direct3D table.
pub fn cube_select(x: u32, y: u32, z: u32) -> (u32, f64, f64, f64) {
    let key = |b: u32| {
        let v = f32_value(b);
        if v.is_nan() {
            (1, f64::from(b & 0x7F_FFFF))
        } else {
            (0, v.abs())
        }
    };
    let (kx, ky, kz) = (key(x), key(y), key(z));
    let ge = |a: (i32, f64), b: (i32, f64)| a.0 > b.0 || (a.0 == b.0 && a.1 >= b.1);
    let (vx, vy, vz) = (f32_value(x), f32_value(y), f32_value(z));
    let neg = |b: u32| b >> 31 != 0;
    if ge(kz, ky) && ge(kz, kx) {
        if neg(z) {
            (5, -vx, -vy, vz.abs())
        } else {
            (4, vx, -vy, vz.abs())
        }
    } else if ge(ky, kx) {
        if neg(y) {
            (3, vx, -vz, vy.abs())
        } else {
            (2, vx, vz, vy.abs())
        }
    } else if neg(x) {
        (1, vz, -vy, vx.abs())
    } else {
        (0, -vz, -vy, vx.abs())
    }
}

/// The f32 of an f64 (NaN canonical).
fn to_f32_bits(v: f64) -> u32 {
    if v.is_nan() {
        0x7FC0_0000
    } else {
        (v as f32).to_bits()
    }
}

/// A cube instruction as one on the 2D array of its faces (the spec's rule, in f64): face
/// coordinate (c/|ma| + 1)/2 with the quotient and the sum each rounded to f32 as the unit
/// states, layer 6·index + face with the index q rounded half to even, clamped to the cubes.
fn cube_faces(t: &TexTxn, tex: &Texture) -> Result<TexTxn, Fault> {
    let cubes = if tex.desc.dim == Dim::Cube {
        1
    } else {
        tex.desc.layers
    };
    if 6 * u64::from(cubes) > 65_536 {
        return Err(Fault::BadDescriptor);
    }
    // The face array itself is the golden model's (the descriptor rewrite); the face choice and
    // the coordinates are computed here.
    let mut c = super::cube_face_array(t, cubes);
    if !matches!(t.op, TexOp::Txf | TexOp::Txq) {
        for lane in &mut c.coords {
            let (face, sc, tc, ma) = cube_select(lane[0], lane[1], lane[2]);
            let coord = |a: f64| {
                let u = f64::from(f32::from_bits(to_f32_bits(a / ma)));
                f64::from(f32::from_bits(to_f32_bits(u + 1.0))) / 2.0
            };
            let q = f32_value(lane[3]);
            let index = if q.is_nan() {
                0.0
            } else {
                q.round_ties_even().clamp(0.0, f64::from(cubes - 1))
            };
            lane[0] = to_f32_bits(coord(sc));
            lane[1] = to_f32_bits(coord(tc));
            lane[2] = to_f32_bits(6.0 * index + f64::from(face));
        }
    }
    Ok(c)
}

/// The ideal results of a quad, or its fault (every lane then returns zeros).
pub fn ideal(t: &TexTxn) -> Result<[IdealLane; 4], Fault> {
    if t.mimg.address.is_some() {
        // The operands of the MIMG address dwords (the golden model's unpacking, verified
        // against an independent encoder in tests/tex_mimg.rs).
        return ideal(&super::mimg_operands(t));
    }
    if matches!(t.op, TexOp::Nop | TexOp::KillLt0) {
        // Nothing read, nothing written.
        return Ok([IdealLane::ZERO; 4]);
    }
    if t.unscaled && !t.sampler.unnormalized {
        let mut u = t.clone();
        u.sampler.unnormalized = true;
        return ideal(&u);
    }
    if t.op == TexOp::Txp {
        // s, t, r divided by q, then `tex`.
        let mut p = t.clone();
        p.op = TexOp::Tex;
        for c in &mut p.coords {
            let q = c[3];
            for x in c.iter_mut().take(3) {
                *x = divide(*x, q);
            }
        }
        return ideal(&p);
    }
    let Some(tex) = t.textures.get(t.unit as usize) else {
        return Err(Fault::Unbound);
    };
    if matches!(tex.desc.dim, Dim::Cube | Dim::ArrayCube) {
        return ideal(&cube_faces(t, tex)?);
    }
    if tex.desc.dim == Dim::D3 {
        return volume(t, tex);
    }
    let lod = crate::lod::golden(&super::lod_txn(t, &tex.desc));
    let plan = super::plan(t, tex, &lod);
    // Anisotropic probes: the golden model's probe positions (its addresses), averaged exactly.
    let n = super::probe_counts(t, tex, &lod);
    let mut probes: [Vec<IdealLane>; 4] = Default::default();
    let mut failed = [false; 4];
    let mut out = [IdealLane::ZERO; 4];
    for p in 0..n.iter().copied().max().unwrap_or(1) {
        let lanes = (0..4).filter(|&l| p < n[l]).fold(0, |m, l| m | 1 << l);
        let probe = super::probe_plan(t, tex, &plan, &lod, &n, p);
        for (key, mask) in super::passes(&probe, lanes) {
            let a = texaddr::golden(&super::pass_txn(t, tex, &probe, key, &lod));
            if a.fault != Fault::None {
                return Err(a.fault);
            }
            if integer_filter_fault(t, tex.format) {
                return Err(Fault::BadDescriptor);
            }
            for l in (0..4).filter(|&l| mask & 1 << l != 0) {
                if t.op == TexOp::Txq {
                    let v = a.size.map(f64::from);
                    out[l] = IdealLane {
                        rgba: v,
                        max_tap: v,
                        blended: [false; 4],
                    };
                } else if t.op == TexOp::Lodq {
                    // (λ, λ' before the clamps, 0, 0): the LOD unit's values, in f64.
                    let v = [
                        f64::from(lod[l].lambda) / 256.0,
                        lod[l].unclamped.map_or(f64::NAN, |u| f64::from(u) / 256.0),
                        0.0,
                        0.0,
                    ];
                    out[l] = IdealLane {
                        rgba: v,
                        max_tap: [0.0; 4],
                        blended: [false; 4],
                    };
                } else if probe[l].active {
                    failed[l] |= a.lanes[l].fail;
                    let v = lane(t, tex, &a.lanes[l], lod[l].frac, key.2, key.3, l);
                    probes[l].push(v);
                }
            }
        }
    }
    for l in 0..4 {
        if !failed[l] && !probes[l].is_empty() {
            out[l] = average(&probes[l]);
        }
    }
    Ok(out)
}

/// The deepest 3D texture: the r axis is scaled by the level's depth in the address pipeline's
/// 16-bit axis arithmetic, as s and t by width and height (deeper is `bad_descriptor`).
pub const MAX_DEPTH: u32 = 32_768;

/// A quad on a 3D texture (depth D = the descriptor's `layers`), on the whole 3D footprint at
/// once. Faults: `gather4`, D > [`MAX_DEPTH`], and an integer format filtered or compared are
/// `bad_descriptor`. Level l is w_l × h_l × d_l (each max(1, size >> l)) at
/// [`volume_level_start`], texel (i, j, k) at + ((k·h_l + j)·w_l + i)·bpp; a sparse texture's
/// tap fails (TEXEL_FAIL, the lane returns zeros) when its offset within the level, / 64 KiB, is
/// a non-resident tile (level l, tile) — border taps fetch nothing and cannot fail.
/// - `txq`: [w_l, h_l, d_l, levels] for l < levels, else [0, 0, 0, levels].
/// - `lodq`: (λ, λ', 0, 0), as for every texture.
/// - `txf`: (i + du, j + dv, k) of `level`, each checked against the level (signed, ≥ 0); out of
///   range ⇒ zeros; the texel as it is (swizzled).
/// - Sampling: the LOD unit's level(s) and fraction for the lane (isotropic: LOD from s and t),
///   filter = mag_filter when it magnifies else min_filter, trilinear iff mip_filter is linear
///   and frac ≠ 0. Per level L (level0 with f_l = 256 − frac, level1 with f_l = frac; one level:
///   f_l = 1) the three axes are the address pipeline's axis rule ([`texaddr::axis`]): s by w_L
///   with wrap_s and du, t by h_L with wrap_t and dv, r by d_L with wrap_r and no offset. The
///   lane's taps are every (i, j, k) of the footprint (2 per axis when linear, else 1), a tap
///   reading the border colour when any of its axes is a border coordinate, with weight
///   W = f_u·f_v·f_r·f_l (f = 256 − α for the first coordinate, α for the second, 1 when
///   nearest); the result is Σ W·texel / 2^S, S = 8·(3·linear + trilinear), exactly
///   ([`combine`]).
fn volume(t: &TexTxn, tex: &Texture) -> Result<[IdealLane; 4], Fault> {
    let d = &tex.desc;
    let (s, fmt) = (&t.sampler, tex.format);
    if d.layers > MAX_DEPTH || t.op == TexOp::Gather4 || integer_filter_fault(t, fmt) {
        return Err(Fault::BadDescriptor);
    }
    let size = |x: u32, l: u32| (x >> l).max(1);
    // Byte address of texel (i, j, k) of level l (all in range), and whether its tile is
    // non-resident.
    let texel = |l: u32, i: i64, j: i64, k: i64| -> (u64, bool) {
        let (w, h) = (size(d.width, l), size(d.height, l));
        assert!((0..i64::from(w)).contains(&i) && (0..i64::from(h)).contains(&j));
        assert!((0..i64::from(size(d.layers, l))).contains(&k));
        let off = ((k as u128 * u128::from(h) + j as u128) * u128::from(w) + i as u128)
            * u128::from(d.bpp);
        let addr = (volume_level_start(d, l) + off) & u128::from(texaddr::ADDR_MASK);
        let tile = (off >> texaddr::TILE_SHIFT) as u64;
        (
            addr as u64,
            d.sparse && tex.nonresident.contains(&(l, tile)),
        )
    };
    let fetch = |a: u64| convert(fmt, texel_raw(&t.textures, a, fmt));
    let lod = crate::lod::golden(&super::lod_txn(t, d));
    let mut out = [IdealLane::ZERO; 4];
    for (l, lane) in out.iter_mut().enumerate() {
        let c = t.coords[l];
        let off = t.offset[l];
        match t.op {
            TexOp::Txq => {
                let lv = t.lod[l];
                let v = if lv < d.levels {
                    [
                        size(d.width, lv),
                        size(d.height, lv),
                        size(d.layers, lv),
                        d.levels,
                    ]
                } else {
                    [0, 0, 0, d.levels]
                }
                .map(f64::from);
                *lane = IdealLane {
                    rgba: v,
                    max_tap: v,
                    blended: [false; 4],
                };
            }
            TexOp::Lodq => {
                let v = [
                    f64::from(lod[l].lambda) / 256.0,
                    lod[l].unclamped.map_or(f64::NAN, |u| f64::from(u) / 256.0),
                    0.0,
                    0.0,
                ];
                *lane = IdealLane {
                    rgba: v,
                    max_tap: [0.0; 4],
                    blended: [false; 4],
                };
            }
            TexOp::Txf => {
                let int = |x: u32| i64::from(x as i32);
                let lv = int(c[3]);
                let (i, j, k) = (
                    int(c[0]) + i64::from(off[0]),
                    int(c[1]) + i64::from(off[1]),
                    int(c[2]) + i64::from(off[2]),
                );
                if !(0..i64::from(d.levels)).contains(&lv) {
                    continue;
                }
                let lv = lv as u32;
                let inside = |x: i64, n: u32| (0..i64::from(n)).contains(&x);
                if !(inside(i, size(d.width, lv))
                    && inside(j, size(d.height, lv))
                    && inside(k, size(d.layers, lv)))
                {
                    continue;
                }
                let (a, fail) = texel(lv, i, j, k);
                if !fail {
                    *lane = combine(t, tex, &[fetch(a)], &[1], 0, l);
                }
            }
            _ => {
                let r = lod[l];
                let filter = if r.magnify {
                    s.mag_filter
                } else {
                    s.min_filter
                };
                let linear = filter == Filter::Linear;
                let tri = s.mip_filter == MipFilter::Linear && r.frac != 0;
                let levels = if tri {
                    vec![(r.level0, 256 - r.frac), (r.level1, r.frac)]
                } else {
                    vec![(r.level0, 1)]
                };
                // (coordinate, border) with its weight factor, per axis.
                let pair = |a: (i32, bool), b: (i32, bool), alpha: u32| {
                    if linear {
                        vec![(a, 256 - alpha), (b, alpha)]
                    } else {
                        vec![(a, 1)]
                    }
                };
                let (mut texels, mut ws, mut fail) = (Vec::new(), Vec::new(), false);
                for (lv, f_l) in levels {
                    let lv = lv.min(d.levels - 1);
                    let (w, h, dp) = (size(d.width, lv), size(d.height, lv), size(d.layers, lv));
                    let ax = |x: u32, n: u32, wrap, o: i32| {
                        texaddr::axis(x, n, wrap, linear, s.unnormalized, o)
                    };
                    let (u0, u1, wu) = ax(c[0], w, s.wrap_s, off[0]);
                    let (v0, v1, wv) = ax(c[1], h, s.wrap_t, off[1]);
                    let (r0, r1, wr) = ax(c[2], dp, s.wrap_r, off[2]);
                    for (k, f_r) in pair(r0, r1, wr) {
                        for &(j, f_v) in &pair(v0, v1, wv) {
                            for &(i, f_u) in &pair(u0, u1, wu) {
                                texels.push(if i.1 || j.1 || k.1 {
                                    border_texel(fmt, s.border)
                                } else {
                                    let (a, nr) = texel(lv, i.0.into(), j.0.into(), k.0.into());
                                    fail |= nr;
                                    fetch(a)
                                });
                                ws.push(f_u * f_v * f_r * f_l);
                            }
                        }
                    }
                }
                if !fail {
                    let scale = 8 * (3 * u32::from(linear) + u32::from(tri));
                    *lane = combine(t, tex, &texels, &ws, scale, l);
                }
            }
        }
    }
    Ok(out)
}

/// The exact mean of a lane's probes (one probe: itself). A component averaged over several
/// probes counts as blended unless it is a constant (max|tap| 0: the swizzle's 0 and 1, depth
/// compare's alpha).
fn average(probes: &[IdealLane]) -> IdealLane {
    let n = probes.len();
    if n == 1 {
        return probes[0];
    }
    let rgba = std::array::from_fn(|c| probes.iter().map(|x| x.rgba[c]).sum::<f64>() / n as f64);
    let max_tap = std::array::from_fn(|c| probes.iter().map(|x| x.max_tap[c]).fold(0.0, f64::max));
    IdealLane {
        rgba,
        max_tap,
        blended: std::array::from_fn(|c| probes.iter().any(|x| x.blended[c]) || max_tap[c] > 0.0),
    }
}

/// One fetching lane: texels, then gather, or compare / filter and swizzle.
fn lane(
    t: &TexTxn,
    tex: &Texture,
    ln: &LaneResult,
    frac: u32,
    trilinear: bool,
    linear: bool,
    l: usize,
) -> IdealLane {
    let fmt = tex.format;
    let one_d = tex.desc.dim.coords() == 1;
    let texels: Vec<[f64; 4]> = ln
        .taps
        .iter()
        .map(|tap| {
            if tap.border {
                border_texel(fmt, t.sampler.border)
            } else {
                convert(fmt, texel_raw(&t.textures, tap.addr, fmt))
            }
        })
        .collect();
    if t.op == TexOp::Gather4 {
        let c = (t.gather_comp & 3) as usize;
        let order = if one_d {
            GATHER_ORDER_1D
        } else {
            GATHER_ORDER_2D
        };
        let v = order.map(|k| texels[k][c]);
        return IdealLane {
            rgba: v,
            max_tap: v.map(f64::abs),
            blended: [false; 4],
        };
    }
    let (ws, s) = weights(ln, frac, trilinear, linear, one_d);
    combine(t, tex, &texels, &ws, s, l)
}

/// A lane's converted taps with their weights W_k (Σ W_k = 2^s): depth compare (p, p, p, 1) or
/// each component filtered ([`filtered`]), then the descriptor swizzle.
fn combine(
    t: &TexTxn,
    tex: &Texture,
    texels: &[[f64; 4]],
    ws: &[u32],
    s: u32,
    l: usize,
) -> IdealLane {
    let fmt = tex.format;
    assert_eq!(ws.len(), texels.len(), "one weight per tap");
    let component = |vals: Vec<f64>| {
        let taps: Vec<(f64, u32)> = vals.into_iter().zip(ws.iter().copied()).collect();
        let live = taps.iter().filter(|x| x.1 != 0).count();
        (filtered(&taps, s), max_weighted(&taps), live > 1)
    };
    let comps: [(f64, f64, bool); 4] = if matches!(t.op, TexOp::SampleC | TexOp::SampleCLz) {
        let r = compare_reference(fmt, t.reference[l]);
        let p = component(
            texels
                .iter()
                .map(|x| compare_value(t.sampler.compare, r, x[0]))
                .collect(),
        );
        [p, p, p, (1.0, 0.0, false)]
    } else {
        std::array::from_fn(|c| component(texels.iter().map(|x| x[c]).collect()))
    };
    let pick = |sw: Swz| match sw {
        Swz::Zero => (0.0, 0.0, false),
        Swz::One => (1.0, 0.0, false),
        _ => comps[sw as usize],
    };
    let v = tex.swizzle.map(pick);
    IdealLane {
        rgba: v.map(|x| x.0),
        max_tap: v.map(|x| x.1),
        blended: v.map(|x| x.2),
    }
}

/// A component for JSON: a number, or "NaN", "+Inf", "-Inf".
fn number(x: f64) -> serde_json::Value {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 { "+Inf" } else { "-Inf" }.into()
    } else {
        serde_json::json!(x)
    }
}

/// The ideal reference as JSON: `fault` (the address pipeline's fault name, `bad_descriptor` for
/// an integer format filtered or compared, `none`) and `rgba`, per lane the four components
/// (numbers; NaN and infinities as the strings "NaN", "+Inf", "-Inf"; a component outside the
/// write mask as null), or null for every lane of a faulting quad.
pub fn ideal_json(t: &TexTxn) -> Result<serde_json::Value, String> {
    use serde_json::{json, Value};
    Ok(match ideal(t) {
        Ok(lanes) => {
            let rgba: Vec<Value> = lanes
                .iter()
                .map(|x| {
                    Value::Array(
                        (0..4)
                            .map(|c| {
                                if t.wmask & t.mimg.dmask & 1 << c != 0 {
                                    number(x.rgba[c])
                                } else {
                                    Value::Null
                                }
                            })
                            .collect(),
                    )
                })
                .collect();
            json!({"fault": "none", "rgba": rgba})
        }
        Err(f) => json!({"fault": f.name(), "rgba": [null, null, null, null]}),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_rationals_by_hand() {
        assert_eq!(nearest_ratio(1, 3), f64::from(1.0f32 / 3.0));
        assert_eq!(nearest_ratio(255, 255), 1.0);
        assert_eq!(unorm(0, 5), 0.0);
        assert_eq!(unorm(31, 5), 1.0);
        assert_eq!(snorm8(0x80), -1.0);
        assert_eq!(snorm8(0x81), -1.0);
        assert_eq!(snorm8(0x7F), 1.0);
        assert_eq!(f16_value(0x0001), pow2(-24));
        assert_eq!(f16_value(0xFC00), f64::NEG_INFINITY);
        assert_eq!(f16_value(0x3C00), 1.0);
        assert_eq!(f32_sampled(0x8000_0001).to_bits(), (-0.0f64).to_bits());
        assert_eq!(srgb_decode(0), 0.0);
        assert_eq!(srgb_decode(255), 1.0);
        // 0.5 (c = 188 is about 0.5029): within an f32 ulp of the f64 formula.
        let s = 188.0 / 255.0;
        let y: f64 = ((s + 0.055) / 1.055f64).powf(2.4);
        assert!((srgb_decode(188) - y).abs() <= y * 2f64.powi(-24));
    }

    #[test]
    fn filtered_specials_and_exact_sums() {
        assert_eq!(filtered(&[(2.0, 128), (4.0, 128)], 8), 3.0);
        assert!(filtered(&[(f64::NAN, 1), (1.0, 255)], 8).is_nan());
        assert_eq!(filtered(&[(f64::NAN, 0), (1.0, 256)], 8), 1.0);
        assert!(filtered(&[(f64::INFINITY, 1), (f64::NEG_INFINITY, 255)], 8).is_nan());
        assert_eq!(
            filtered(&[(f64::INFINITY, 1), (1.0, 255)], 8),
            f64::INFINITY
        );
        // 1 + 2^-80 − 1 cancels exactly in the expansion.
        let mut e = Exact::default();
        e.add(1.0);
        e.add(pow2(-80));
        e.add(-1.0);
        assert_eq!(e.value(), pow2(-80));
    }
}
