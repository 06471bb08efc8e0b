//! The derivative/LOD calculator's transactions, its bit-accurate golden model and the ideal f64
//! reference (docs/units/lod.md).
//!
//! # The hardware algorithm (the RTL computes exactly this)
//! Per lane, all in the order written:
//! 1. Derivatives (f32, round to nearest even, denormals kept): `implicit`/`bias` take them from the
//!    quad's coordinates — coarse (default): ∂/∂x = lane1 − lane0, ∂/∂y = lane2 − lane0 for every
//!    lane; fine (option): ∂/∂x from the lane's row (lanes 0,1: 1 − 0; lanes 2,3: 3 − 2), ∂/∂y from its
//!    column (lanes 0,2: 2 − 0; lanes 1,3: 3 − 1). `grad` takes the lane's explicit gradients.
//! 2. Scaled components `m = |d|·size` (f32 multiply; width/height are exact in f32), squared
//!    (f32 multiply), and the squared lengths `ρx² = m_ux² + m_vx²`, `ρy² = m_uy² + m_vy²` (f32 add);
//!    with the max-abs option `ρ² = max(m_u², m_v²)` instead (an unsigned compare of the bit
//!    patterns, both being non-negative; a NaN wins).
//! 3. `L = log2(ρ²)` by the shared fixed-point log2 ([`crate::fpmodel::fp_log2`]: 16 fraction bits);
//!    since log2(ρ²) = 2·log2(ρ), `L` read with 17 fraction bits *is* log2(ρ): λ is carried as
//!    `λ·2^17` in an i32 from here on. ρ² = 0 gives −∞ and ρ² = +Inf gives +∞, both as the saturated
//!    value ∓[`INF17`]; a NaN ρ² (NaN derivative, Inf − Inf) marks the lane NaN.
//! 4. Anisotropy with `A = max_aniso`: Lmax/Lmin of the two axes; if `A = 1`: λ_base = Lmax, N = 1;
//!    else with `D = Lmax − Lmin` and `T_k = round(log2(k)·2^17)`: D ≥ T_A ⇒ λ_base = Lmax − T_A,
//!    N = A; otherwise λ_base = Lmin (= log2(ρmax/η) with η = ρmax/ρmin) and
//!    N = 1 + #{k ∈ 1…A−1 : D > T_k} = ⌈η⌉.
//! 5. λ' (·2^17): implicit/grad: λ_base + sampler bias·2^9; bias: that plus the lane's f32 shader
//!    bias converted to 17 fraction bits (round to nearest even) and clamped to ±16; lod: the
//!    explicit f32 LOD converted likewise; lz: 0. Every λ' is then clamped to ±INF17 and rounded to
//!    8 fraction bits, ⌊(λ' + 2^8) / 2^9⌋ (round half up).
//! 6. λ = max(lod_min, min(lod_max, λ')) with lod_min = max(sampler min_lod, .LC) (lod_min wins when
//!    it exceeds lod_max: Direct3D order). A NaN lane takes λ = lod_min (documented choice: a NaN
//!    derivative, LOD or bias selects the most detailed allowed level, never garbage).
//! 7. magnify = λ ≤ 0; d = base·256 + min(λ, q·256) (λ ≥ 0 always, since lod_min ≥ 0) with
//!    q = levels − 1; nearest: level0 = level1 = ⌊d + 0.5⌋ (on the 8.8 value), frac 0; linear:
//!    level0 = ⌊d⌋, level1 = min(level0 + 1, base + q), frac = d mod 256; none: base, base, 0.
//! 8. lod_warning = λ < min_lod_warning; status (TFE word) = TEXEL_FAIL | lod_warning << 1 |
//!    ⌊λ⌋ << 16 with TEXEL_FAIL = 0 here (the address unit raises it for non-resident tiles).
//!
//! # Choices where no public reference fixes the behaviour (docs/units/lod.md §8)
//! - Shader bias clamp: the per-lane shader bias is clamped to ±16 before the sampler bias is added;
//!   the sampler bias is limited to ±16 (±4096 in 1/256) by the vector parser.
//! - Explicit LOD (`lod`) replaces λ' entirely: no bias is added (docs/units/lod.md §2:
//!   "or λ' = the explicit LOD").
//! - NaN: see step 6. ±Inf derivatives saturate λ to +∞ (⇒ lod_max); a ±Inf LOD or bias saturates.
//! - Range: the squared lengths are f32, so ρ ≥ 2^64 texels per pixel saturates ρ² to +∞ and
//!   ρ < 2^-63 falls into the denormals (ρ < 2^-75 gives 0). λ is then at lod_max (resp. lod_min)
//!   whatever the bias, so only the probe count N can differ from the ideal there (both axes
//!   saturated ⇒ N = 1).
//! - Results carry, beside the level fields, `probes` (N, 1…16), `status` (the TFE word) and
//!   `unclamped` (step 5's λ'·256 before the clamps, `None` for NaN: the texture unit's `lodq`).

pub mod dut;
mod ideal;
mod io;
pub mod stim;
mod unit;

pub use ideal::{
    clamps, ideal, ideal_json, select, IdealLane, IdealSelect, RHO_DENORMAL, RHO_INF, RHO_ZERO,
};
pub use io::{parse_line, result_json, txn_json};
pub use unit::Lod;

use crate::fpmodel::{fp_add, fp_log2, fp_mul, fp_to_fixed};

/// λ fraction bits inside the unit.
pub const FRAC: u32 = 17;
/// Saturation value of λ·2^17 standing for ±∞ (2048 levels: beyond every clamp).
pub const INF17: i32 = 1 << 28;
/// Shader-bias clamp, ±16 levels, in λ·2^17.
pub const BIAS_LIMIT17: i32 = 16 << FRAC;

/// `round(log2(k)·2^17)` for k = 0…16 (entry 0 unused): the RTL's constant table.
pub fn log2_table17() -> [i32; 17] {
    texpix_rtl::lod::aniso_log2_table()
}

/// How λ' is formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LodMode {
    Implicit = 0,
    Grad = 1,
    Lod = 2,
    Bias = 3,
    Lz = 4,
}

impl LodMode {
    pub const ALL: [(LodMode, &'static str); 5] = [
        (LodMode::Implicit, "implicit"),
        (LodMode::Grad, "grad"),
        (LodMode::Lod, "lod"),
        (LodMode::Bias, "bias"),
        (LodMode::Lz, "lz"),
    ];
    pub fn name(self) -> &'static str {
        Self::ALL[self as usize].1
    }
    /// Derivatives come from the quad's coordinates.
    pub fn implicit_derivatives(self) -> bool {
        matches!(self, LodMode::Implicit | LodMode::Bias)
    }
}

/// Mip filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MipFilter {
    None = 0,
    Nearest = 1,
    Linear = 2,
}

impl MipFilter {
    pub const ALL: [(MipFilter, &'static str); 3] = [
        (MipFilter::None, "none"),
        (MipFilter::Nearest, "nearest"),
        (MipFilter::Linear, "linear"),
    ];
    pub fn name(self) -> &'static str {
        Self::ALL[self as usize].1
    }
}

/// Texture fields the LOD unit reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LodTex {
    /// Base level width, 1…32768.
    pub width: u32,
    /// Base level height, 1…32768.
    pub height: u32,
    /// Level count q + 1, 1…16.
    pub levels: u32,
    /// Base level, 0…15.
    pub base_level: u32,
}

/// Sampler fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LodSampler {
    /// Bias·256, −4096…4096.
    pub bias: i32,
    /// min_lod·256 (u4.8).
    pub min_lod: u32,
    /// max_lod·256 (u4.8).
    pub max_lod: u32,
    pub mip_filter: MipFilter,
    /// 1…16.
    pub max_aniso: u32,
}

/// One quad's LOD request.
#[derive(Clone, Debug, PartialEq)]
pub struct LodTxn {
    pub tex: LodTex,
    pub sampler: LodSampler,
    pub mode: LodMode,
    /// Per-lane (s, t) f32 bits (implicit, bias).
    pub coords: [[u32; 2]; 4],
    /// Per-lane (dsdx, dsdy, dtdx, dtdy) f32 bits (grad).
    pub grad: [[u32; 4]; 4],
    /// Per-lane explicit LOD f32 bits (lod).
    pub lod: [u32; 4],
    /// Per-lane shader bias f32 bits (bias).
    pub bias: [u32; 4],
    /// .LC clamp·256 (u4.8), 0 when absent.
    pub lod_clamp: u32,
    /// min_lod_warning·256, 0 when absent.
    pub min_lod_warning: u32,
    /// Fine derivatives (option; default coarse).
    pub fine: bool,
    /// Max-abs ρ approximation (option; default exact Euclidean).
    pub maxabs: bool,
}

/// One lane's result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LodLane {
    /// Final clamped λ·256.
    pub lambda: i32,
    /// λ'·256 before the min/max clamps (step 5's rounded value, within ±2^19), `None` for a NaN
    /// lane: what a LOD query reports as the unclamped LOD.
    pub unclamped: Option<i32>,
    pub level0: u32,
    pub level1: u32,
    pub frac: u32,
    pub magnify: bool,
    pub lod_warning: bool,
    /// Anisotropic probe count N = ⌈η⌉.
    pub probes: u32,
    /// The footprint's major axis is y (ρy > ρx): the probes' axis. False on a tie, for NaN
    /// lengths and in the lod and lz modes.
    pub major_y: bool,
    /// TFE status word.
    pub status: u32,
}

/// A quad's result.
pub type LodResult = [LodLane; 4];

/// λ_base·2^17 of one lane, or `None` for NaN, and its probe count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LambdaBase {
    pub lambda17: Option<i32>,
    pub probes: u32,
    pub major_y: bool,
}

/// The lane's four derivatives (dsdx, dsdy, dtdx, dtdy), f32 bits.
pub fn lane_derivatives(t: &LodTxn, lane: usize) -> [u32; 4] {
    if !t.mode.implicit_derivatives() {
        return t.grad[lane];
    }
    let c = &t.coords;
    let (xa, xb, ya, yb) = if t.fine {
        let row = lane & 2;
        let col = lane & 1;
        (row, row + 1, col, col + 2)
    } else {
        (0, 1, 0, 2)
    };
    let sub = |a: u32, b: u32| fp_add(a, b, true);
    [
        sub(c[xb][0], c[xa][0]),
        sub(c[yb][0], c[ya][0]),
        sub(c[xb][1], c[xa][1]),
        sub(c[yb][1], c[ya][1]),
    ]
}

/// log2 of a squared length as λ·2^17, saturated; `None` for NaN.
fn log2_17(rho2: u32) -> Option<i32> {
    let (y, f) = fp_log2(rho2);
    // A negative ρ² cannot occur (squares and their sum); the hardware counts it as NaN.
    if f.nan || f.neg {
        None
    } else if f.zero {
        Some(-INF17)
    } else if f.inf {
        Some(INF17)
    } else {
        Some(y)
    }
}

/// Steps 2–3: the lane's logs log2(ρx²), log2(ρy²) as λ·2^17 (saturated to ±[`INF17`]; `None`
/// for NaN) from its derivatives.
pub fn lane_logs(t: &LodTxn, d: [u32; 4]) -> (Option<i32>, Option<i32>) {
    let w = (t.tex.width as f32).to_bits();
    let h = (t.tex.height as f32).to_bits();
    let abs = |x: u32| x & 0x7FFF_FFFF;
    let sq = |x: u32| fp_mul(x, x);
    let rho2 = |du: u32, dv: u32| {
        let mu = sq(fp_mul(abs(du), w));
        let mv = sq(fp_mul(abs(dv), h));
        if t.maxabs {
            // Both are non-negative (a NaN is the positive canonical NaN), so the larger bit
            // pattern is the larger value and a NaN wins: an unsigned compare in hardware.
            mu.max(mv)
        } else {
            fp_add(mu, mv, false)
        }
    };
    (log2_17(rho2(d[0], d[2])), log2_17(rho2(d[1], d[3])))
}

/// Step 4: λ_base and N from the lane's logs and the sampler's max anisotropy (1…16).
pub fn lambda_base(max_aniso: u32, lx: Option<i32>, ly: Option<i32>) -> LambdaBase {
    let (Some(lx), Some(ly)) = (lx, ly) else {
        return LambdaBase {
            lambda17: None,
            probes: 1,
            major_y: false,
        };
    };
    let (lmax, lmin) = (lx.max(ly), lx.min(ly));
    let major_y = ly > lx;
    let a = max_aniso as usize;
    if a == 1 {
        return LambdaBase {
            lambda17: Some(lmax),
            probes: 1,
            major_y,
        };
    }
    let tab = log2_table17();
    let diff = lmax - lmin;
    if diff >= tab[a] {
        LambdaBase {
            lambda17: Some(lmax - tab[a]),
            probes: a as u32,
            major_y,
        }
    } else {
        LambdaBase {
            lambda17: Some(lmin),
            probes: 1 + (1..a).filter(|&k| diff > tab[k]).count() as u32,
            major_y,
        }
    }
}

/// An f32 as λ·2^17 (round to nearest even, saturating), `None` for NaN.
fn f32_to_17(x: u32) -> Option<i32> {
    let c = fp_to_fixed(x, FRAC);
    (!c.nan).then_some(c.y)
}

/// Rounds λ'·2^17 (clamped to ±INF17) to λ'·2^8, half up.
pub fn round_to_8(l17: i32) -> i32 {
    (l17.clamp(-INF17, INF17) + (1 << 8)) >> 9
}

/// The bit-accurate result of a quad.
pub fn golden(t: &LodTxn) -> LodResult {
    std::array::from_fn(|lane| {
        let (lx, ly) = if matches!(t.mode, LodMode::Lod | LodMode::Lz) {
            (None, None)
        } else {
            lane_logs(t, lane_derivatives(t, lane))
        };
        let lfix = match t.mode {
            LodMode::Lod => f32_to_17(t.lod[lane]),
            LodMode::Bias => f32_to_17(t.bias[lane]),
            _ => None,
        };
        finish_lane(t, lx, ly, lfix)
    })
}

/// Steps 4–8 of one lane from its logs `lx`, `ly` (λ·2^17, [`lane_logs`]) and its explicit LOD or
/// shader bias `lfix` (λ·2^17; `None` for NaN): anisotropy, biases, rounding, clamps, levels and
/// status, with the configuration of `t` (the logs are read in the modes that use derivatives,
/// `lfix` in lod and bias). What the RTL's fixed-point back end computes.
pub fn finish_lane(t: &LodTxn, lx: Option<i32>, ly: Option<i32>, lfix: Option<i32>) -> LodLane {
    let s = &t.sampler;
    let lo = s.min_lod.max(t.lod_clamp) as i32;
    let hi = s.max_lod as i32;
    let q = t.tex.levels as i32 - 1;
    let b = t.tex.base_level as i32;
    let (l17, probes, major_y) = match t.mode {
        LodMode::Lod => (lfix, 1, false),
        LodMode::Lz => (Some(0), 1, false),
        _ => {
            let base = lambda_base(s.max_aniso, lx, ly);
            let mut l = base.lambda17.map(|l| l + (s.bias << 9));
            if t.mode == LodMode::Bias {
                l = match (l, lfix) {
                    (Some(l), Some(sb)) => Some(l + sb.clamp(-BIAS_LIMIT17, BIAS_LIMIT17)),
                    _ => None,
                };
            }
            (l, base.probes, base.major_y)
        }
    };
    let lambda = match l17 {
        Some(l) => lo.max(hi.min(round_to_8(l))),
        None => lo,
    };
    let dq = lambda.min(q * 256);
    let d = b * 256 + dq;
    let (level0, level1, frac) = match s.mip_filter {
        MipFilter::None => (b, b, 0),
        MipFilter::Nearest => ((d + 128) >> 8, (d + 128) >> 8, 0),
        MipFilter::Linear => (d >> 8, ((d >> 8) + 1).min(b + q), d & 0xFF),
    };
    let lod_warning = lambda < t.min_lod_warning as i32;
    LodLane {
        lambda,
        unclamped: l17.map(round_to_8),
        level0: level0 as u32,
        level1: level1 as u32,
        frac: frac as u32,
        magnify: lambda <= 0,
        lod_warning,
        probes,
        major_y,
        status: (u32::from(lod_warning) << 1) | (((lambda >> 8) as u32) << 16),
    }
}
