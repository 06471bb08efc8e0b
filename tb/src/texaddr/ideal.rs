//! Ideal texture-address reference: docs/units/texaddr.md §4–§6 in exact arithmetic, written apart
//! from the golden model. Per axis, u = s·n (normalized; the f32 value times the level size, exact
//! in f64) or u = s (unnormalized); nearest i = ⌊u⌋ + off; linear i0 = ⌊u − 0.5⌋ + off,
//! i1 = i0 + 1, α = frac(u − 0.5)·256 as a real number; then the wrap formulas of §5 on exact
//! integers. No fixed-point conversion, no denormal flushing (a denormal is its tiny real value),
//! no clamping of large coordinates. It shares the golden model's documented choices only where no
//! public reference fixes one (§12): the level is min(level, levels − 1), the layer
//! min(layer, layers − 1).
//!
//! Coordinates must be finite with |u| < 2^118 ([`axis`] returns `None` otherwise): NaN and ±Inf
//! have no ideal value, their results are documented choices of the golden model.
//!
//! [`texel_address`] is the linear layout of §6 in u128 arithmetic (no 48-bit wrap).

use super::{Dim, Lane, SamplerDesc, TexDesc, Wrap};

/// One axis, ideally.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IdealAxis {
    /// u in texels.
    pub u: f64,
    /// The value that is floored: u (nearest) or u − 0.5 (linear). u is exact; u − 0.5 is
    /// rounded to f64 only where it needs more than 53 bits (|u| < 2^-14, or |u| ≥ 2^53 where u
    /// is an integer), which never moves it across an integer: the floors are exact.
    pub x: f64,
    /// Fraction of the floored value, x − ⌊x⌋, in [0, 1] (exact but for the rounding above, a
    /// relative 2^-53; 1.0 only by rounding a fraction within 2^-53 of 1).
    pub fract: f64,
    /// Integer coordinates before the wrap: ⌊x⌋ + off and ⌊x⌋ + off + 1.
    pub raw: [i128; 2],
    /// Wrapped coordinates (−1 or n for a border texel).
    pub i: [i64; 2],
    /// Border flags (clamp to border only).
    pub border: [bool; 2],
    /// α·256 = 256·fract, a real in [0, 256] (0 for nearest), rounded to f64.
    pub weight: f64,
    /// ⌊α·256⌋ computed exactly (⌊256u⌋ − 128 − 256·⌊u − 0.5⌋, with 256u exact in f64) and
    /// whether α·256 is an integer: the decision of [`IdealAxis::weight_within_one`] does not
    /// depend on f64 rounding (1 − 2^-140 is 1.0 in f64).
    pub weight_floor: i64,
    pub weight_is_integer: bool,
}

impl IdealAxis {
    /// Distance (texels) of the floored value to the nearest integer, where ⌊·⌋ jumps.
    pub fn boundary_distance(&self) -> f64 {
        self.fract.min(1.0 - self.fract)
    }

    /// Whether an 8-bit weight `w` is within 1 (1/256 of a texel) of α·256, decided exactly.
    pub fn weight_within_one(&self, w: u32) -> bool {
        let w = i64::from(w);
        w == self.weight_floor || (!self.weight_is_integer && w == self.weight_floor + 1)
    }
}

fn mirror(x: i128) -> i128 {
    if x >= 0 {
        x
    } else {
        -1 - x
    }
}

/// The wrap of one integer coordinate (docs/units/texaddr.md §5): (coordinate, border).
pub fn wrap(i: i128, n: u32, mode: Wrap) -> (i64, bool) {
    let n = i128::from(n);
    let (c, border) = match mode {
        Wrap::Repeat => (i.rem_euclid(n), false),
        Wrap::MirroredRepeat => ((n - 1) - mirror(i.rem_euclid(2 * n) - n), false),
        Wrap::ClampToEdge => (i.clamp(0, n - 1), false),
        Wrap::ClampToBorder => {
            if i < 0 {
                (-1, true)
            } else if i >= n {
                (n, true)
            } else {
                (i, false)
            }
        }
        Wrap::MirrorClampToEdge => (mirror(i).clamp(0, n - 1), false),
    };
    (c as i64, border)
}

/// One axis: coordinate `s` (f32), level size `n`.
pub fn axis(
    s: f32,
    n: u32,
    mode: Wrap,
    linear: bool,
    unnormalized: bool,
    offset: i32,
) -> Option<IdealAxis> {
    if !s.is_finite() {
        return None;
    }
    let u = if unnormalized {
        f64::from(s)
    } else {
        f64::from(s) * f64::from(n)
    };
    if u.abs() >= 2f64.powi(118) {
        return None;
    }
    // ⌊x⌋ as an exact integer (f64 integers above 2^53 cannot take a −1).
    let (x, fl, fract) = if !linear {
        (u, u.floor() as i128, u - u.floor())
    } else if u == u.floor() {
        // An integer u: u − 0.5 has floor u − 1 and fraction exactly 1/2.
        (u - 0.5, u as i128 - 1, 0.5)
    } else {
        // A non-integer u (|u| < 2^53, at most 40 significant bits): u − 0.5 is exact unless
        // |u| < 2^-14, where the rounding cannot cross an integer.
        let x = u - 0.5;
        (x, x.floor() as i128, x - x.floor())
    };
    let (weight_floor, weight_is_integer) = if linear {
        let v = 256.0 * u;
        ((v.floor() as i128 - 128 - 256 * fl) as i64, v == v.floor())
    } else {
        (0, true)
    };
    let i0 = fl + i128::from(offset);
    let (a, b) = (wrap(i0, n, mode), wrap(i0 + 1, n, mode));
    Some(IdealAxis {
        u,
        x,
        fract,
        raw: [i0, i0 + 1],
        i: [a.0, b.0],
        border: [a.1, b.1],
        weight: if linear { fract * 256.0 } else { 0.0 },
        weight_floor,
        weight_is_integer,
    })
}

fn one_d(dim: Dim) -> bool {
    matches!(dim, Dim::D1 | Dim::Array1D)
}

fn arrayed(dim: Dim) -> bool {
    matches!(
        dim,
        Dim::Array1D | Dim::Array2D | Dim::Array3D | Dim::ArrayCube
    )
}

/// Size (w, h) of level `l`: max(1, ⌊w/2^l⌋), h = 1 for 1D textures.
pub fn level_size(tex: &TexDesc, l: u32) -> (u64, u64) {
    let half = |x: u32| (u64::from(x) / (1u64 << l)).max(1);
    let h = if one_d(tex.dim) { 1 } else { half(tex.height) };
    (half(tex.width), h)
}

/// Layers stored: the texture's for an array texture (six faces per cube of a cube array, six
/// for a cube), else 1.
pub fn layer_count(tex: &TexDesc) -> u64 {
    match tex.dim {
        Dim::Cube => 6,
        Dim::ArrayCube => 6 * u64::from(tex.layers),
        d if arrayed(d) => u64::from(tex.layers),
        _ => 1,
    }
}

/// First byte of level `l`: base + Σ_{k<l} align(pitch_k·h_k·layers, 256).
pub fn level_start(tex: &TexDesc, l: u32) -> u128 {
    let mut a = u128::from(tex.base);
    for k in 0..l {
        let (w, h) = level_size(tex, k);
        let bytes =
            u128::from(w * u64::from(tex.bpp)) * u128::from(h) * u128::from(layer_count(tex));
        a += bytes.div_ceil(256) * 256;
    }
    a
}

/// Byte address of texel (i, j, layer) of level `l` in the linear layout (no wrap to 48 bits).
pub fn texel_address(tex: &TexDesc, l: u32, i: u32, j: u32, layer: u32) -> u128 {
    let (w, h) = level_size(tex, l);
    let pitch = u128::from(w) * u128::from(tex.bpp);
    level_start(tex, l)
        + u128::from(layer) * pitch * u128::from(h)
        + u128::from(j) * pitch
        + u128::from(i) * u128::from(tex.bpp)
}

/// One ideal tap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdealTap {
    pub i: i64,
    pub j: i64,
    pub layer: u32,
    pub level: u32,
    /// Byte address (0 for a border tap).
    pub addr: u128,
    pub border: bool,
}

/// One lane, ideally.
#[derive(Clone, Debug, PartialEq)]
pub struct IdealLane {
    /// The tap order of docs/units/texaddr.md §6: nearest (i0,j0); linear (i0,j0), (i1,j0),
    /// (i0,j1), (i1,j1); 1D only the i taps.
    pub taps: Vec<IdealTap>,
    pub u: IdealAxis,
    /// `None` for a 1D texture.
    pub v: Option<IdealAxis>,
}

/// The taps of one lane of a direct-form vector at one level (`None` for a non-finite or huge
/// coordinate).
pub fn lane(tex: &TexDesc, sampler: &SamplerDesc, level: u32, ln: &Lane) -> Option<IdealLane> {
    let level = level.min(tex.levels - 1);
    let (w, h) = level_size(tex, level);
    let (lin, un) = (sampler.linear, sampler.unnormalized);
    let u = axis(
        f32::from_bits(ln.s),
        w as u32,
        sampler.wrap_s,
        lin,
        un,
        ln.offset[0],
    )?;
    let v = if one_d(tex.dim) {
        None
    } else {
        Some(axis(
            f32::from_bits(ln.t),
            h as u32,
            sampler.wrap_t,
            lin,
            un,
            ln.offset[1],
        )?)
    };
    let layer = ln.layer.min((layer_count(tex) - 1) as u32);
    let mut pairs = vec![(0, 0)];
    if lin {
        pairs.push((1, 0));
        if v.is_some() {
            pairs.extend([(0, 1), (1, 1)]);
        }
    }
    let taps = pairs
        .into_iter()
        .map(|(a, b)| {
            let (i, bi) = (u.i[a], u.border[a]);
            let (j, bj) = v.map_or((0, false), |v| (v.i[b], v.border[b]));
            let border = bi || bj;
            IdealTap {
                i,
                j,
                layer,
                level,
                addr: if border {
                    0
                } else {
                    texel_address(tex, level, i as u32, j as u32, layer)
                },
                border,
            }
        })
        .collect();
    Some(IdealLane { taps, u, v })
}

/// The ideal result fields of a direct-form vector beyond its taps' coordinates
/// (docs/units/texaddr.md §4, §6–§8), from the rules written apart from the golden model.
#[derive(Clone, Debug, PartialEq)]
pub struct IdealQuad {
    /// The direct form lowers to TXD with paramA = the dimension; TXD's paramA table reserves every
    /// row but 1D and 2D (array or not), so the others are rejected (`reserved_param_a`).
    pub reserved_param_a: bool,
    /// TXQ: [w_l, h_l, layers, levels] (level not clamped; [0, 0, 0, levels] beyond the last).
    pub size: [u64; 4],
    /// The mip fraction (trilinear sampling; else 0).
    pub frac: u32,
    /// Per lane (sampling only; `None` when a coordinate has no ideal value).
    pub lanes: [Option<IdealQuadLane>; 4],
}

/// One lane's taps over every level sampled, its memory requests and status word.
#[derive(Clone, Debug, PartialEq)]
pub struct IdealQuadLane {
    /// Level 0's taps, then level 1's.
    pub taps: Vec<IdealTap>,
    /// Bit k: tap k is fetched (not a border tap, and the lane did not fail).
    pub req: u32,
    /// TEXEL_FAIL: a non-border tap lies in a non-resident 64 KiB tile of a sparse texture.
    pub fail: bool,
    /// TEXEL_FAIL | LOD_WARNING << 1 (not when failed) | ⌊λ⌋ << 16 (its low 16 bits).
    pub status: u32,
}

/// [`IdealQuad`] of a direct-form vector (`None` for a TXD instruction).
pub fn quad(t: &super::TexAddrTxn) -> Option<IdealQuad> {
    let super::Form::Direct {
        tex,
        nonresident,
        sampler,
        lanes,
    } = &t.form
    else {
        return None;
    };
    let mut q = IdealQuad {
        reserved_param_a: !matches!(tex.dim, Dim::D1 | Dim::D2 | Dim::Array1D | Dim::Array2D),
        size: [0; 4],
        frac: 0,
        lanes: Default::default(),
    };
    if q.reserved_param_a {
        return Some(q);
    }
    if t.op == super::Op::Txq {
        q.size = if t.level < tex.levels {
            let (w, h) = level_size(tex, t.level);
            [w, h, layer_count(tex), u64::from(tex.levels)]
        } else {
            [0, 0, 0, u64::from(tex.levels)]
        };
        return Some(q);
    }
    let mut levels = vec![t.level];
    if let Some((level1, frac)) = t.mip {
        levels.push(level1);
        q.frac = frac % 256;
    }
    for (l, ln) in lanes.iter().enumerate() {
        let mut taps = Vec::new();
        for &lv in &levels {
            match lane(tex, sampler, lv, ln) {
                Some(x) => taps.extend(x.taps),
                None => break,
            }
        }
        if taps.is_empty() {
            continue;
        }
        let resident = |tp: &IdealTap| {
            let tile = (tp.addr - level_start(tex, tp.level)) / 65536;
            !tex.sparse || !nonresident.contains(&(tp.level, tile as u64))
        };
        let fail = taps.iter().any(|tp| !tp.border && !resident(tp));
        let req = if fail {
            0
        } else {
            taps.iter()
                .enumerate()
                .filter(|(_, tp)| !tp.border)
                .map(|(k, _)| 1u32 << k)
                .sum()
        };
        let whole_levels = (f64::from(t.lambda[l]) / 256.0).floor() as i64;
        let status = u32::from(fail)
            | u32::from(t.lod_warning[l] && !fail) << 1
            | ((whole_levels as u64 & 0xFFFF) as u32) << 16;
        q.lanes[l] = Some(IdealQuadLane {
            taps,
            req,
            fail,
            status,
        });
    }
    Some(q)
}

/// The ideal reference as JSON (direct form only): per lane the exact taps and the real weights
/// α·256 (`null` for a lane without an ideal value: a non-finite coordinate).
pub fn ideal_json(t: &super::TexAddrTxn) -> Result<serde_json::Value, String> {
    use serde_json::{json, Value};
    let super::Form::Direct {
        tex,
        sampler,
        lanes,
        ..
    } = &t.form
    else {
        return Err(
            "the ideal reference takes the direct form (tex, sampler, lanes), not a txd instruction"
                .into(),
        );
    };
    let weight = |a: &IdealAxis| if sampler.linear { a.fract * 256.0 } else { 0.0 };
    let one = |l: &Lane| {
        let Some(x) = lane(tex, sampler, t.level, l) else {
            return Value::Null;
        };
        let taps: Vec<Value> = x
            .taps
            .iter()
            .map(|p| {
                json!({"i": p.i, "j": p.j, "layer": p.layer, "level": p.level,
                       "addr": p.addr as u64, "border": p.border})
            })
            .collect();
        json!({"taps": taps, "wu": weight(&x.u), "wv": x.v.as_ref().map_or(0.0, weight)})
    };
    Ok(json!({ "lanes": lanes.iter().map(one).collect::<Vec<_>>() }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_by_hand() {
        // 4 texels, s = 0.3: u = 1.2; nearest 1; linear ⌊0.7⌋ = 0, α = 0.7·256.
        let a = axis(0.3, 4, Wrap::Repeat, false, false, 0).unwrap();
        assert_eq!(a.i, [1, 2]);
        let a = axis(0.3, 4, Wrap::Repeat, true, false, 0).unwrap();
        assert_eq!(a.i, [0, 1]);
        assert!((a.weight - 0.7 * 256.0).abs() < 1e-4);
        // Repeat and mirrored repeat past the edge; offsets.
        let a = axis(1.1, 4, Wrap::Repeat, false, false, 0).unwrap();
        assert_eq!(a.i[0], 0);
        let a = axis(1.1, 4, Wrap::MirroredRepeat, false, false, 0).unwrap();
        assert_eq!(a.i[0], 3);
        let a = axis(-0.1, 4, Wrap::MirroredRepeat, false, false, 0).unwrap();
        assert_eq!(a.i[0], 0);
        let a = axis(0.1, 4, Wrap::ClampToBorder, false, false, -1).unwrap();
        assert_eq!((a.i[0], a.border[0]), (-1, true));
        let a = axis(0.9, 4, Wrap::ClampToBorder, true, false, 0).unwrap();
        assert_eq!((a.i, a.border), ([3, 4], [false, true]));
        let a = axis(-1.3, 4, Wrap::MirrorClampToEdge, false, false, 0).unwrap();
        assert_eq!(a.i[0], 3);
        // Integer u with linear filtering: exactly halfway.
        let a = axis(1e30, 1, Wrap::ClampToEdge, true, true, 0).unwrap();
        assert_eq!((a.fract, a.weight), (0.5, 128.0));
        assert!(a.weight_within_one(128) && !a.weight_within_one(127));
        // Just below half a texel: α·256 = 128 − 2^-60·…, 1.0 away from 127 in f64 but not
        // in exact arithmetic.
        let a = axis(-1e-20, 4, Wrap::Repeat, true, false, 0).unwrap();
        assert_eq!(
            (a.weight, a.weight_floor, a.weight_is_integer),
            (128.0, 127, false)
        );
        assert!(a.weight_within_one(127) && a.weight_within_one(128));
        assert!(!a.weight_within_one(126));
        // Denormals keep their value: a negative one floors to −1.
        let d = f32::from_bits(0x8000_0001);
        assert_eq!(
            axis(d, 8, Wrap::ClampToBorder, false, false, 0).unwrap().i[0],
            -1
        );
        assert!(axis(f32::NAN, 8, Wrap::Repeat, false, false, 0).is_none());
        assert!(axis(f32::INFINITY, 8, Wrap::Repeat, false, false, 0).is_none());
        assert!(axis(f32::MAX, 1, Wrap::Repeat, false, true, 0).is_none());
        // A huge integer u: ⌊u − 0.5⌋ = u − 1 exactly (u − 1.0 in f64 would round back to u).
        let a = axis(2f32.powi(80), 5, Wrap::Repeat, true, false, 0).unwrap();
        assert_eq!((a.raw[0], a.i), ((5i128 << 80) - 1, [4, 0]));
    }

    #[test]
    fn linear_layout_by_hand() {
        let t = TexDesc {
            width: 5,
            height: 3,
            layers: 2,
            levels: 3,
            bpp: 4,
            base: 1000,
            dim: Dim::Array2D,
            sparse: false,
        };
        // Level 0: 5·4·3·2 = 120 → 256; level 1: 2·4·1·2 = 16 → 256.
        assert_eq!(level_start(&t, 1), 1256);
        assert_eq!(level_start(&t, 2), 1512);
        assert_eq!(texel_address(&t, 0, 4, 2, 1), 1000 + 60 + 2 * 20 + 16);
        assert_eq!(level_size(&t, 2), (1, 1));
    }
}
