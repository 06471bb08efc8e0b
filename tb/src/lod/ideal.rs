//! Ideal LOD reference: the Vulkan / Direct3D 11.3 formulas in f64 on the exact operand values
//! (docs/units/lod.md §2), with the same documented choices as the golden model (bias clamp,
//! explicit LOD replacing λ', NaN ⇒ lod_min) but none of its arithmetic: no f32 rounding, no fixed
//! point, a true log2, hypot, division and ceiling.

use super::{LodMode, LodTxn, MipFilter};

/// The ideal values of one lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IdealLane {
    /// Final clamped λ (real).
    pub lambda: f64,
    /// λ' before the clamp (NaN, ±∞ possible).
    pub lambda_prime: f64,
    /// d = base + clamp(λ, 0, q).
    pub d: f64,
    /// η = min(ρmax/ρmin, max_aniso) (1 when isotropic or ρmax = 0).
    pub eta: f64,
    /// ⌈η⌉.
    pub probes: u32,
    /// Lengths of the major and minor axes (texels per pixel; 0 without derivatives).
    pub rho_max: f64,
    pub rho_min: f64,
    /// Level choices.
    pub level0: u32,
    pub level1: u32,
}

fn f(bits: u32) -> f64 {
    f32::from_bits(bits) as f64
}

/// Per-lane ideal results.
pub fn ideal(t: &LodTxn) -> [IdealLane; 4] {
    let s = &t.sampler;
    let (w, h) = (t.tex.width as f64, t.tex.height as f64);
    let lo = s.min_lod.max(t.lod_clamp) as f64 / 256.0;
    let hi = s.max_lod as f64 / 256.0;
    let q = (t.tex.levels - 1) as f64;
    let base = t.tex.base_level as f64;
    std::array::from_fn(|lane| {
        let mut eta = 1.0;
        let (mut rho_max, mut rho_min) = (0.0, 0.0);
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
                let len = |u: f64, v: f64| {
                    let (u, v) = ((u * w).abs(), (v * h).abs());
                    if u.is_nan() || v.is_nan() {
                        f64::NAN
                    } else if t.maxabs {
                        u.max(v)
                    } else {
                        u.hypot(v)
                    }
                };
                let (rx, ry) = (len(dsdx, dtdx), len(dsdy, dtdy));
                let (rmax, rmin) = (rx.max(ry), rx.min(ry));
                (rho_max, rho_min) = (rmax, rmin);
                let a = s.max_aniso as f64;
                let lb = if rx.is_nan() || ry.is_nan() {
                    f64::NAN
                } else if a > 1.0 && rmax > 0.0 {
                    eta = (rmax / rmin).min(a);
                    (rmax / eta).log2()
                } else {
                    rmax.log2()
                };
                let mut bias = s.bias as f64 / 256.0;
                if t.mode == LodMode::Bias {
                    bias += f(t.bias[lane]).clamp(-16.0, 16.0);
                }
                lb + bias
            }
        };
        let lambda = if lp.is_nan() { lo } else { lo.max(hi.min(lp)) };
        let d = base + lambda.clamp(0.0, q);
        let (level0, level1) = match s.mip_filter {
            MipFilter::None => (base, base),
            MipFilter::Nearest => ((d + 0.5).floor(), (d + 0.5).floor()),
            MipFilter::Linear => (d.floor(), (d.floor() + 1.0).min(base + q)),
        };
        IdealLane {
            lambda,
            lambda_prime: lp,
            d,
            eta,
            probes: eta.ceil() as u32,
            rho_max,
            rho_min,
            level0: level0 as u32,
            level1: level1 as u32,
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
        "level0": col(|x| json!(x.level0)),
        "level1": col(|x| json!(x.level1)),
    }))
}
