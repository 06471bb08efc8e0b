//! Ideal LOD reference: every result field of a lane (λ, levels, fraction, magnification flag, LOD
//! warning, probe count, status word) from the Vulkan / Direct3D 11.3 formulas in f64 on the exact
//! operand values (docs/units/lod.md §2), with the documented choices of §8 (bias clamp, explicit
//! LOD replacing λ', NaN ⇒ lod_min, the f32 range of ρ²) but none of the golden model's arithmetic:
//! no f32 rounding, no fixed point, a true log2, hypot, division, ceiling and floor.

use super::{LodMode, LodTxn, MipFilter};

/// Axis lengths ρ at or above 2^64 texels per pixel are +∞: their square does not fit in f32
/// (docs/units/lod.md §8).
pub const RHO_INF: f64 = (1u128 << 64) as f64;
/// Axis lengths below 2^-75 are 0: their square underflows f32 (docs/units/lod.md §8).
pub const RHO_ZERO: f64 = 1.0 / (1u128 << 75) as f64;
/// Below 2^-63 an axis length's square is an f32 denormal: the hardware's log2 of it, and so the
/// probe count, loses precision (docs/units/lod.md §8; λ is at lod_min there whatever the bias).
pub const RHO_DENORMAL: f64 = 1.0 / (1u128 << 63) as f64;

/// The results that follow from the final λ alone (docs/units/lod.md §2, §3 steps 7–8).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IdealSelect {
    /// d = base + clamp(λ, 0, q).
    pub d: f64,
    pub level0: u32,
    pub level1: u32,
    /// Blend fraction between `level0` and `level1`, in [0, 1): the fraction of d (mip filter
    /// linear), else 0.
    pub frac: f64,
    /// λ ≤ 0.
    pub magnify: bool,
    /// λ < min_lod_warning.
    pub lod_warning: bool,
    /// TFE status word: TEXEL_FAIL (always 0 here) | lod_warning << 1 | ⌊λ⌋ << 16.
    pub status: u32,
}

/// The ideal values of one lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IdealLane {
    /// Final clamped λ (real).
    pub lambda: f64,
    /// λ' before the clamp (NaN, ±∞ possible).
    pub lambda_prime: f64,
    /// d = base + clamp(λ, 0, q).
    pub d: f64,
    /// η = min(ρmax/ρmin, max_aniso) (1 when isotropic, when ρmax = 0, when both axes are +∞, and
    /// in modes lod and lz).
    pub eta: f64,
    /// N = ⌈η⌉.
    pub probes: u32,
    /// Exact lengths of the major and minor axes (texels per pixel; NaN for a NaN lane, 0 without
    /// derivatives). λ and η use them within the f32 range of §8: +∞ from [`RHO_INF`], 0 below
    /// [`RHO_ZERO`].
    pub rho_max: f64,
    pub rho_min: f64,
    /// The major axis is y: ρy > ρx exactly (false on a tie, for NaN and without derivatives).
    pub major_y: bool,
    /// Level choices.
    pub level0: u32,
    pub level1: u32,
    /// Blend fraction in [0, 1) (0 unless the mip filter is linear).
    pub frac: f64,
    pub magnify: bool,
    pub lod_warning: bool,
    /// TFE status word.
    pub status: u32,
}

fn f(bits: u32) -> f64 {
    f32::from_bits(bits) as f64
}

/// The lower and upper clamp of λ in levels: `(max(min_lod, .LC), max_lod)`.
pub fn clamps(t: &LodTxn) -> (f64, f64) {
    (
        t.sampler.min_lod.max(t.lod_clamp) as f64 / 256.0,
        t.sampler.max_lod as f64 / 256.0,
    )
}

/// Level selection, fraction, magnification, LOD warning and status word for a final λ (levels, a
/// real number ≥ 0): Vulkan's d = base + clamp(λ, 0, q), Direct3D's nearest level ⌊d + 0.5⌋,
/// linear ⌊d⌋ and min(⌊d⌋ + 1, base + q) blended by the fraction of d; AMD's LOD_WARNING
/// (λ < min_lod_warning) and TFE word.
pub fn select(t: &LodTxn, lambda: f64) -> IdealSelect {
    let q = t.tex.levels.saturating_sub(1) as f64;
    let base = t.tex.base_level as f64;
    let d = base + lambda.clamp(0.0, q);
    let (level0, level1, frac) = match t.sampler.mip_filter {
        MipFilter::None => (base, base, 0.0),
        MipFilter::Nearest => ((d + 0.5).floor(), (d + 0.5).floor(), 0.0),
        MipFilter::Linear => (d.floor(), (d.floor() + 1.0).min(base + q), d - d.floor()),
    };
    let lod_warning = lambda < t.min_lod_warning as f64 / 256.0;
    IdealSelect {
        d,
        level0: level0 as u32,
        level1: level1 as u32,
        frac,
        magnify: lambda <= 0.0,
        lod_warning,
        status: (u32::from(lod_warning) << 1) | ((lambda.floor() as u32) << 16),
    }
}

/// The length of one axis from its scaled components: √(u² + v²) (or max(|u|, |v|) with max-abs),
/// NaN if either is NaN.
fn axis(u: f64, v: f64, maxabs: bool) -> f64 {
    let (u, v) = (u.abs(), v.abs());
    if u.is_nan() || v.is_nan() {
        return f64::NAN;
    }
    if maxabs {
        u.max(v)
    } else {
        u.hypot(v)
    }
}

/// An axis length within the f32 range of ρ² (docs/units/lod.md §8): +∞ from [`RHO_INF`], 0 below
/// [`RHO_ZERO`].
fn f32_range(r: f64) -> f64 {
    if r >= RHO_INF {
        f64::INFINITY
    } else if r < RHO_ZERO {
        0.0
    } else {
        r
    }
}

/// Vulkan's anisotropy from the two (non-NaN) axis lengths: `(λ_base, η)` with
/// η = min(ρmax/ρmin, A) and λ_base = log2(ρmax/η); isotropic (A = 1) λ_base = log2(ρmax), η = 1.
fn anisotropy(rmax: f64, rmin: f64, a: f64) -> (f64, f64) {
    if a <= 1.0 || rmax == 0.0 {
        (rmax.log2(), 1.0)
    } else if rmin.is_infinite() {
        // Both axes saturated (§8): no ratio is known, N = 1.
        (f64::INFINITY, 1.0)
    } else {
        let eta = (rmax / rmin).min(a);
        ((rmax / eta).log2(), eta)
    }
}

/// Per-lane ideal results.
pub fn ideal(t: &LodTxn) -> [IdealLane; 4] {
    let s = &t.sampler;
    let (w, h) = (t.tex.width as f64, t.tex.height as f64);
    let (lo, hi) = clamps(t);
    std::array::from_fn(|lane| {
        let mut eta = 1.0;
        let (mut rho_max, mut rho_min) = (0.0, 0.0);
        let mut major_y = false;
        let lp = match t.mode {
            LodMode::Lod => f(t.lod[lane]),
            LodMode::Lz => 0.0,
            _ => {
                let [dsdx, dsdy, dtdx, dtdy] = if t.mode == LodMode::Grad {
                    t.grad[lane].map(f)
                } else {
                    let c = |l: usize, k: usize| f(t.coords[l][k]);
                    let (xa, xb, ya, yb) = if t.fine {
                        (lane & 2, (lane & 2) + 1, lane & 1, (lane & 1) + 2)
                    } else {
                        (0, 1, 0, 2)
                    };
                    [
                        c(xb, 0) - c(xa, 0),
                        c(yb, 0) - c(ya, 0),
                        c(xb, 1) - c(xa, 1),
                        c(yb, 1) - c(ya, 1),
                    ]
                };
                let rx = axis(dsdx * w, dtdx * h, t.maxabs);
                let ry = axis(dsdy * w, dtdy * h, t.maxabs);
                let lb = if rx.is_nan() || ry.is_nan() {
                    // A NaN ρ: the lane is NaN (λ = lod_min), N = 1 (§3).
                    (rho_max, rho_min) = (f64::NAN, f64::NAN);
                    f64::NAN
                } else {
                    (rho_max, rho_min) = (rx.max(ry), rx.min(ry));
                    major_y = ry > rx;
                    let lb;
                    (lb, eta) =
                        anisotropy(f32_range(rho_max), f32_range(rho_min), s.max_aniso as f64);
                    lb
                };
                let mut bias = s.bias as f64 / 256.0;
                if t.mode == LodMode::Bias {
                    bias += f(t.bias[lane]).clamp(-16.0, 16.0);
                }
                lb + bias
            }
        };
        let lambda = if lp.is_nan() { lo } else { lo.max(hi.min(lp)) };
        let sel = select(t, lambda);
        IdealLane {
            lambda,
            lambda_prime: lp,
            d: sel.d,
            eta,
            probes: eta.ceil() as u32,
            rho_max,
            rho_min,
            major_y,
            level0: sel.level0,
            level1: sel.level1,
            frac: sel.frac,
            magnify: sel.magnify,
            lod_warning: sel.lod_warning,
            status: sel.status,
        }
    })
}

/// The ideal reference as JSON: per-lane arrays of the [`IdealLane`] fields (NaN/±Inf as null).
pub fn ideal_json(t: &LodTxn) -> Result<serde_json::Value, String> {
    use serde_json::{json, Value};
    let l = ideal(t);
    let col = |f: fn(&IdealLane) -> Value| Value::Array(l.iter().map(f).collect());
    Ok(json!({
        "lambda": col(|x| json!(x.lambda)),
        "lambda_prime": col(|x| json!(x.lambda_prime)),
        "d": col(|x| json!(x.d)),
        "eta": col(|x| json!(x.eta)),
        "probes": col(|x| json!(x.probes)),
        "rho_max": col(|x| json!(x.rho_max)),
        "rho_min": col(|x| json!(x.rho_min)),
        "major": col(|x| json!(if x.major_y { "y" } else { "x" })),
        "level0": col(|x| json!(x.level0)),
        "level1": col(|x| json!(x.level1)),
        "frac": col(|x| json!(x.frac)),
        "magnify": col(|x| json!(x.magnify)),
        "lod_warning": col(|x| json!(x.lod_warning)),
        "status": col(|x| json!(x.status)),
    }))
}
