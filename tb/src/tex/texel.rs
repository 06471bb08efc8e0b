//! Texel formats, their conversion to four components (the TGSI component table), depth compare
//! and the filter's weighted sum — the per-texel arithmetic of the texture unit, bit for bit as
//! the RTL computes it (`texpix_rtl::tex`).
//!
//! # Conversion
//! A texel is the `bpp` bytes at its address, little-endian, first component in the lowest bits.
//! - UNORM n-bit c → the f32 nearest to c / (2^n − 1). The binary expansion of c / (2^n − 1) is
//!   the n-bit pattern of c repeated forever, so the hardware normalises that pattern, keeps 24
//!   bits and rounds up iff the next bit is one (the tail is never exactly a half: ties cannot
//!   occur). This model computes it as `(c as f64 / (2^n − 1) as f64) as f32`, which is exact for
//!   the same reason (no f64 rounding lands on an f32 midpoint for periods ≤ 16).
//! - SNORM8: −128 and −127 → −1.0, else c / 127 the same way, with the sign.
//! - sRGB8 (r, g, b): the f32 nearest to the sRGB transfer function's inverse of c / 255
//!   ([`srgb_table`]); alpha is UNORM.
//! - f16: exact ([`f16_to_f32`]). f32: denormals flush to signed zero (texture sampling flushes),
//!   everything else passes unchanged (NaN payloads too).
//! - Integers (`r32ui`, `rgba8ui`): the integer itself; the missing components are 0 and 1.
//! - Depth: `d16` is UNORM16, `d32f` f32 with denormals flushed.
//!
//! Then the TGSI table fills the missing components: R → (r,0,0,1), RG → (r,g,0,1),
//! RGB → (r,g,b,1), A → (0,0,0,a), L → (l,l,l,1), LA → (l,l,l,a), I → (i,i,i,i),
//! depth → (z,z,z,1) (1 is 1.0, or the integer 1 for integer formats).
//!
//! # Filtering ([`blend`])
//! The filtered value of up to eight converted taps t_k with integer weights W_k (Σ W_k = 2^S:
//! products of the 8-bit weights k/256 — S = 0 nearest, 8 per linear axis and 8 more for the mip
//! blend) is a block-floating-point dot product with one rounding:
//! 1. Specials among taps with W_k > 0: any NaN, or both +Inf and −Inf ⇒ the canonical NaN
//!    0x7FC00000; otherwise an infinity ⇒ that infinity.
//! 2. Each finite tap is (−1)^s_k · M_k · 2^(e_k − 150) with M_k its 24-bit significand (hidden
//!    bit included; zeros have M_k = 0) and e_k its biased exponent (denormals are already
//!    flushed). E = the largest e_k among taps with W_k > 0 and M_k ≠ 0.
//! 3. A_k = ⌊(W_k · M_k · 2^G) / 2^(E − e_k)⌋ (G = [`BLEND_GUARD`] guard bits, truncation of the
//!    magnitude), and Acc = Σ ± A_k (a signed integer below 2^(S + 24 + G)).
//! 4. The result is Acc · 2^(E − 150 − G − S) rounded once to f32, to nearest even, denormals
//!    kept, with the sticky bit taken from the accumulator bits below the rounding point;
//!    Acc = 0 gives +0.
//!
//! Error: each truncation loses less than 2^(E − 150 − G − S) of the value, at most eight of
//! them, plus half an ulp of the result: below 8·2^(E − 150 − G − S) + 2^−24·max|t_k|
//! ≤ (2^(−23 − S) + 2^−24)·max|t_k| ≤ 2^−20·max|t_k| for G = 3 (max|t_k| ≥ 2^(E − 127)).

use crate::fpmodel::f16_to_f32;
use std::sync::OnceLock;
pub use texpix_rtl::common::fp::CANONICAL_NAN;

/// Guard bits of the filter's aligned products.
pub const BLEND_GUARD: u32 = 3;
/// f32 1.0.
pub const ONE: u32 = 0x3F80_0000;

/// A texel format. The discriminant is the descriptor's format code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    R8 = 0,
    Rg8 = 1,
    Rgba8 = 2,
    Rgba8Snorm = 3,
    Rgba8Srgb = 4,
    A8 = 5,
    L8 = 6,
    I8 = 7,
    La8 = 8,
    Rgb565 = 9,
    Rgb10a2 = 10,
    R16f = 11,
    Rg16f = 12,
    Rgba16f = 13,
    R32f = 14,
    Rg32f = 15,
    Rgba32f = 16,
    R32ui = 17,
    Rgba8ui = 18,
    D16 = 19,
    D32f = 20,
}

/// Format families, for the error tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    Unorm8,
    Snorm8,
    Srgb8,
    UnormPacked,
    Float16,
    Float32,
    Integer,
    Depth,
}

impl Format {
    /// Every format with its vector name and bytes per texel.
    pub const ALL: [(Format, &'static str, u32); 21] = [
        (Format::R8, "r8", 1),
        (Format::Rg8, "rg8", 2),
        (Format::Rgba8, "rgba8", 4),
        (Format::Rgba8Snorm, "rgba8_snorm", 4),
        (Format::Rgba8Srgb, "rgba8_srgb", 4),
        (Format::A8, "a8", 1),
        (Format::L8, "l8", 1),
        (Format::I8, "i8", 1),
        (Format::La8, "la8", 2),
        (Format::Rgb565, "rgb565", 2),
        (Format::Rgb10a2, "rgb10a2", 4),
        (Format::R16f, "r16f", 2),
        (Format::Rg16f, "rg16f", 4),
        (Format::Rgba16f, "rgba16f", 8),
        (Format::R32f, "r32f", 4),
        (Format::Rg32f, "rg32f", 8),
        (Format::Rgba32f, "rgba32f", 16),
        (Format::R32ui, "r32ui", 4),
        (Format::Rgba8ui, "rgba8ui", 4),
        (Format::D16, "d16", 2),
        (Format::D32f, "d32f", 4),
    ];
    /// From the 5-bit code (`None` above 20).
    pub fn from_code(c: u32) -> Option<Format> {
        Self::ALL.get(c as usize).map(|f| f.0)
    }
    /// From the vector name.
    pub fn from_name(s: &str) -> Option<Format> {
        Self::ALL.iter().find(|f| f.1 == s).map(|f| f.0)
    }
    /// The vector name.
    pub fn name(self) -> &'static str {
        Self::ALL[self as usize].1
    }
    /// Bytes per texel.
    pub fn bpp(self) -> u32 {
        Self::ALL[self as usize].2
    }
    /// Returns integers (no filtering).
    pub fn is_integer(self) -> bool {
        matches!(self, Format::R32ui | Format::Rgba8ui)
    }
    /// A UNORM format (depth compare clamps the reference to [0, 1]).
    pub fn is_unorm(self) -> bool {
        !matches!(
            self,
            Format::Rgba8Snorm
                | Format::R16f
                | Format::Rg16f
                | Format::Rgba16f
                | Format::R32f
                | Format::Rg32f
                | Format::Rgba32f
                | Format::R32ui
                | Format::Rgba8ui
                | Format::D32f
        )
    }
    /// The error-table family.
    pub fn family(self) -> Family {
        use Format::*;
        match self {
            R8 | Rg8 | Rgba8 | A8 | L8 | I8 | La8 => Family::Unorm8,
            Rgba8Snorm => Family::Snorm8,
            Rgba8Srgb => Family::Srgb8,
            Rgb565 | Rgb10a2 => Family::UnormPacked,
            R16f | Rg16f | Rgba16f => Family::Float16,
            R32f | Rg32f | Rgba32f => Family::Float32,
            R32ui | Rgba8ui => Family::Integer,
            D16 | D32f => Family::Depth,
        }
    }
}

/// The f32 nearest to `c / (2^n − 1)`, `c < 2^n`.
pub fn unorm(c: u32, n: u32) -> u32 {
    let max = (1u64 << n) - 1;
    ((f64::from(c) / max as f64) as f32).to_bits()
}

/// SNORM8: −128 and −127 → −1.0, else c / 127.
pub fn snorm8(c: u8) -> u32 {
    let v = (c as i8).max(-127);
    ((f64::from(v) / 127.0) as f32).to_bits()
}

/// The sRGB decode of c / 255, as f32 bits (the table the RTL's ROM holds).
pub fn srgb_table() -> &'static [u32; 256] {
    static T: OnceLock<[u32; 256]> = OnceLock::new();
    T.get_or_init(|| std::array::from_fn(|c| (srgb_to_linear(c as f64 / 255.0) as f32).to_bits()))
}

/// The sRGB transfer function's inverse (IEC 61966-2-1), in f64.
pub fn srgb_to_linear(s: f64) -> f64 {
    if s <= 0.04045 {
        s / 12.92
    } else {
        ((s + 0.055) / 1.055).powf(2.4)
    }
}

/// f32 bits with a denormal flushed to signed zero.
pub fn flush(x: u32) -> u32 {
    if x & 0x7F80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

/// The four components of a texel (the TGSI table applied, before the descriptor swizzle).
/// `raw` holds the texel's bytes, little-endian (bytes beyond `bpp` are ignored).
pub fn convert(fmt: Format, raw: u128) -> [u32; 4] {
    use Format::*;
    let byte = |k: u32| ((raw >> (8 * k)) & 0xFF) as u32;
    let u8n = |k: u32| unorm(byte(k), 8);
    let half = |k: u32| f16_to_f32((raw >> (16 * k)) as u16);
    let word = |k: u32| (raw >> (32 * k)) as u32;
    match fmt {
        R8 => [u8n(0), 0, 0, ONE],
        Rg8 => [u8n(0), u8n(1), 0, ONE],
        Rgba8 => [u8n(0), u8n(1), u8n(2), u8n(3)],
        Rgba8Snorm => std::array::from_fn(|k| snorm8(byte(k as u32) as u8)),
        Rgba8Srgb => {
            let t = srgb_table();
            [
                t[byte(0) as usize],
                t[byte(1) as usize],
                t[byte(2) as usize],
                u8n(3),
            ]
        }
        A8 => [0, 0, 0, u8n(0)],
        L8 => [u8n(0), u8n(0), u8n(0), ONE],
        I8 => [u8n(0); 4],
        La8 => [u8n(0), u8n(0), u8n(0), u8n(1)],
        Rgb565 => {
            let w = raw as u32;
            [
                unorm(w & 31, 5),
                unorm((w >> 5) & 63, 6),
                unorm((w >> 11) & 31, 5),
                ONE,
            ]
        }
        Rgb10a2 => {
            let w = raw as u32;
            [
                unorm(w & 1023, 10),
                unorm((w >> 10) & 1023, 10),
                unorm((w >> 20) & 1023, 10),
                unorm(w >> 30, 2),
            ]
        }
        R16f => [half(0), 0, 0, ONE],
        Rg16f => [half(0), half(1), 0, ONE],
        Rgba16f => [half(0), half(1), half(2), half(3)],
        R32f => [flush(word(0)), 0, 0, ONE],
        Rg32f => [flush(word(0)), flush(word(1)), 0, ONE],
        Rgba32f => std::array::from_fn(|k| flush(word(k as u32))),
        R32ui => [word(0), 0, 0, 1],
        Rgba8ui => [byte(0), byte(1), byte(2), byte(3)],
        D16 => {
            let z = unorm(raw as u32 & 0xFFFF, 16);
            [z, z, z, ONE]
        }
        D32f => {
            let z = flush(word(0));
            [z, z, z, ONE]
        }
    }
}

/// Depth-compare function (sampler `compare`), in Vulkan's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    Never = 0,
    Less = 1,
    Equal = 2,
    LEqual = 3,
    Greater = 4,
    NotEqual = 5,
    GEqual = 6,
    Always = 7,
}

impl Compare {
    /// Every function with its vector name.
    pub const ALL: [(Compare, &'static str); 8] = [
        (Compare::Never, "never"),
        (Compare::Less, "less"),
        (Compare::Equal, "equal"),
        (Compare::LEqual, "lequal"),
        (Compare::Greater, "greater"),
        (Compare::NotEqual, "notequal"),
        (Compare::GEqual, "gequal"),
        (Compare::Always, "always"),
    ];
    /// From the 3-bit code.
    pub fn from_code(c: u32) -> Compare {
        Self::ALL[(c & 7) as usize].0
    }
    /// The vector name.
    pub fn name(self) -> &'static str {
        Self::ALL[self as usize].1
    }
    /// `reference OP texel` (IEEE relations: NaN is unordered, so only `notequal` and `always`
    /// hold with a NaN; −0 equals +0).
    pub fn holds(self, reference: f32, texel: f32) -> bool {
        match self {
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
}

/// The depth-compare reference as the unit uses it: denormals flushed, and for a UNORM format
/// clamped to [0, 1] (a NaN stays NaN).
pub fn compare_ref(fmt: Format, r: u32) -> u32 {
    let r = flush(r);
    let x = f32::from_bits(r);
    if fmt.is_unorm() && !x.is_nan() {
        x.clamp(0.0, 1.0).to_bits()
    } else {
        r
    }
}

/// Percentage-closer tap value: 1.0 if `reference OP z` holds, else 0.0 (`reference` already
/// through [`compare_ref`]).
pub fn compare_tap(op: Compare, reference: u32, z: u32) -> u32 {
    if op.holds(f32::from_bits(reference), f32::from_bits(z)) {
        ONE
    } else {
        0
    }
}

/// The filter's weighted sum (see the module documentation): taps (f32 bits, denormals already
/// flushed) with weights W_k summing to 2^`s`.
pub fn blend(taps: &[(u32, u32)], s: u32) -> u32 {
    let live = || taps.iter().filter(|t| t.1 != 0).map(|t| t.0);
    let nan = live().any(|x| x & 0x7FFF_FFFF > 0x7F80_0000);
    let pinf = live().any(|x| x == 0x7F80_0000);
    let ninf = live().any(|x| x == 0xFF80_0000);
    if nan || (pinf && ninf) {
        return CANONICAL_NAN;
    }
    if pinf || ninf {
        return if pinf { 0x7F80_0000 } else { 0xFF80_0000 };
    }
    let sig = |x: u32| {
        if x & 0x7F80_0000 == 0 {
            0
        } else {
            u64::from(x & 0x7F_FFFF | 0x80_0000)
        }
    };
    let exp = |x: u32| (x >> 23) & 0xFF;
    let e_max = live().filter(|&x| sig(x) != 0).map(exp).max();
    let Some(e_max) = e_max else {
        return 0;
    };
    let mut acc: i64 = 0;
    for &(x, w) in taps {
        if w == 0 || sig(x) == 0 {
            continue;
        }
        let sh = e_max - exp(x);
        let p = (u64::from(w) * sig(x)) << BLEND_GUARD;
        let a = if sh >= 64 { 0 } else { (p >> sh) as i64 };
        acc += if x >> 31 != 0 { -a } else { a };
    }
    // value = acc · 2^(e_max − 150 − G − s)
    round_scaled(acc, e_max as i32 - 150 - BLEND_GUARD as i32 - s as i32)
}

/// `acc · 2^scale` rounded to f32 (nearest even, denormals kept, +0 for 0). `|acc| < 2^62`.
pub fn round_scaled(acc: i64, scale: i32) -> u32 {
    if acc == 0 {
        return 0;
    }
    let sign = if acc < 0 { 0x8000_0000 } else { 0 };
    let m = acc.unsigned_abs();
    let top = 63 - m.leading_zeros() as i32; // m ∈ [2^top, 2^(top+1))
                                             // Unbiased exponent of the leading one: top + scale; biased: + 127. Denormals: exponent field 0,
                                             // unit 2^−149. The kept significand's lowest bit has weight 2^q.
    let lead = top + scale;
    let q = if lead + 127 >= 1 { lead - 23 } else { -149 };
    let shift = q - scale; // drop `shift` low bits of m (negative: exact, shift left)
    let (mut k, round_up) = if shift <= 0 {
        (m << (-shift) as u32, false)
    } else if shift >= 64 {
        (0, false)
    } else {
        let kept = m >> shift;
        let rem = m & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        (kept, rem > half || (rem == half && kept & 1 == 1))
    };
    if round_up {
        k += 1;
    }
    // k < 2^25; k ≥ 2^24 only after a rounding carry.
    let mut e = q + 150; // biased exponent when k has its leading one at bit 23
    if k >= 1 << 24 {
        k >>= 1;
        e += 1;
    }
    if k < 1 << 23 {
        // denormal (or rounded up into the smallest normal: k = 2^23 handled below)
        return sign | k as u32;
    }
    if e >= 255 {
        return sign | 0x7F80_0000;
    }
    sign | (e as u32) << 23 | (k as u32 & 0x7F_FFFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f32) -> u32 {
        x.to_bits()
    }

    #[test]
    fn round_scaled_matches_host_rounding() {
        // Values exactly representable in f64 and rounded by the host to f32.
        let cases: [(i64, i32); 9] = [
            (1, 0),
            (3, -1),
            ((1 << 40) + 12345, -40),
            (-(1 << 30) - 7, -20),
            (0x1FF_FFFF, 0),
            (0x1FF_FFFF, -149 - 1),
            (5, -151),
            (0x7FFF_FFFF, 100),
            (1, -150),
        ];
        for (acc, sc) in cases {
            let exact = acc as f64 * 2f64.powi(sc);
            assert_eq!(
                round_scaled(acc, sc),
                (exact as f32).to_bits(),
                "{acc} {sc}"
            );
        }
    }

    #[test]
    fn blend_specials_and_exact_cases() {
        assert_eq!(blend(&[(f(1.0), 1)], 0), f(1.0));
        assert_eq!(blend(&[(f(-0.0), 1)], 0), 0);
        assert_eq!(blend(&[(f(2.0), 128), (f(4.0), 128)], 8), f(3.0));
        assert_eq!(blend(&[(CANONICAL_NAN, 0), (f(4.0), 256)], 8), f(4.0));
        assert_eq!(blend(&[(0x7FC0_1234, 1), (f(4.0), 255)], 8), CANONICAL_NAN);
        assert_eq!(
            blend(&[(f(f32::INFINITY), 1), (f(f32::NEG_INFINITY), 255)], 8),
            CANONICAL_NAN
        );
        assert_eq!(
            blend(&[(f(f32::INFINITY), 1), (f(1.0), 255)], 8),
            f(f32::INFINITY)
        );
        // 0.25·1 + 0.75·(−1) = −0.5
        assert_eq!(blend(&[(f(1.0), 64), (f(-1.0), 192)], 8), f(-0.5));
    }

    #[test]
    fn unorm_matches_exact_rational_rounding() {
        for n in [2, 5, 6, 8, 10, 16] {
            for c in 0..1u32 << n {
                let exact = num_div_round(u64::from(c), (1u64 << n) - 1);
                assert_eq!(unorm(c, n), exact, "unorm{n} {c}");
            }
        }
        assert_eq!(snorm8(0x80), f(-1.0));
        assert_eq!(snorm8(0x81), f(-1.0));
        assert_eq!(snorm8(0x7F), f(1.0));
    }

    /// c / d correctly rounded to f32 by long division (c < d, or c = d), independent of f64.
    fn num_div_round(c: u64, d: u64) -> u32 {
        if c == 0 {
            return 0;
        }
        if c == d {
            return ONE;
        }
        // Find e with 2^e ≤ c/d < 2^(e+1), e < 0.
        let mut e = 0i32;
        let mut num = c;
        while num < d {
            num <<= 1;
            e -= 1;
        }
        // num/d ∈ [1, 2): 24 significand bits then round bit, sticky.
        let mut sig = 0u64;
        let mut r = num;
        for _ in 0..24 {
            let bit = r / d;
            sig = sig << 1 | bit;
            r = (r - bit * d) << 1;
        }
        let round = r / d;
        let rest = r - round * d;
        if round == 1 && (rest != 0 || sig & 1 == 1) {
            sig += 1;
        }
        ((e + 127) as u32) << 23 | (sig as u32 & 0x7F_FFFF)
    }

    #[test]
    fn convert_component_table() {
        let one = ONE;
        assert_eq!(convert(Format::A8, 0xFF), [0, 0, 0, one]);
        assert_eq!(convert(Format::L8, 0xFF), [one, one, one, one]);
        assert_eq!(convert(Format::I8, 0x00), [0, 0, 0, 0]);
        assert_eq!(convert(Format::La8, 0x00FF), [one, one, one, 0]);
        assert_eq!(convert(Format::R32ui, 7), [7, 0, 0, 1]);
        assert_eq!(convert(Format::Rgba8ui, 0x04030201), [1, 2, 3, 4]);
        assert_eq!(convert(Format::Rgb565, 0xFFFF), [one, one, one, one]);
        assert_eq!(convert(Format::D32f, 1), [0, 0, 0, one]);
        assert_eq!(convert(Format::Rgba16f, 0x3C00), [one, 0, 0, 0]);
    }
}
