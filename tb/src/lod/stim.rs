//! Random and edge-case stimulus for the LOD unit.
//!
//! A fixed fraction of each draw targets the hard cases: zero, ±0, NaN, ±Inf, denormal and huge
//! derivatives; exact powers of two (λ on integer and half-integer boundaries); equal and
//! degenerate axes (one zero length: infinite anisotropy); 1×1, odd and 32768-wide textures; every
//! mip filter, mode and anisotropy; min_lod above max_lod; .LC clamps; extreme biases and LODs.

use crate::draw::Draw;
use crate::lod::{LodMode, LodSampler, LodTex, LodTxn, MipFilter};
use texpix_sim::SplitMix64;

/// `n` vectors from [`LodStim`] seeded with `seed`.
pub fn random(seed: u64, n: usize) -> Vec<LodTxn> {
    let mut s = LodStim::new(seed);
    (0..n).map(|_| s.lod()).collect()
}

/// `n` vectors from [`LodStim::lod_in_range`] seeded with `seed`: most lanes' λ inside
/// [lod_min, lod_max], where the golden model and the ideal reference can disagree ([`random`] is
/// unchanged by it).
pub fn in_range(seed: u64, n: usize) -> Vec<LodTxn> {
    let mut s = LodStim::new(seed);
    (0..n).map(|_| s.lod_in_range()).collect()
}

/// A deterministic LOD vector generator.
#[derive(Clone, Debug)]
pub struct LodStim {
    rng: SplitMix64,
}

const SPECIAL: [u32; 12] = [
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x7FC0_0000, // NaN
    0x7F80_0000, // +Inf
    0xFF80_0000, // -Inf
    0x0000_0001, // smallest denormal
    0x007F_FFFF, // largest denormal
    0x0080_0000, // smallest normal
    0x7F7F_FFFF, // largest finite
    0x3F80_0000, // 1
    0x3F00_0000, // 0.5
    0xBF80_0000, // -1
];

impl Draw for LodStim {
    fn rng(&mut self) -> &mut SplitMix64 {
        &mut self.rng
    }
}

impl LodStim {
    pub fn new(seed: u64) -> Self {
        Self {
            rng: SplitMix64::new(seed),
        }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    /// A texture dimension.
    fn size(&mut self) -> u32 {
        match self.range(0, 5) {
            0 => self.pick(&[1, 2, 3, 5, 7, 32767, 32768]),
            1 => 1 << self.range(0, 15),
            _ => self.range(1, 4096) as u32,
        }
    }

    /// A derivative magnitude (texture coordinates per pixel) times a random sign, scaled so that
    /// `|d|·size` spans roughly 2^-12 … 2^20 texels, with special values mixed in.
    fn deriv(&mut self, size: u32) -> u32 {
        match self.range(0, 19) {
            0 => self.pick(&SPECIAL),
            1 => 0,
            // Exact power of two texels per pixel: λ on an integer (or half-integer) boundary.
            2 => {
                let e = self.range(-8, 12) as i32;
                ((2f64.powi(e) / size as f64) as f32).to_bits()
            }
            3 => self.next() as u32,
            _ => {
                let e = self.range(-12, 20) as f64 + self.unit();
                let sign = if self.chance(50) { -1.0 } else { 1.0 };
                ((sign * 2f64.powf(e) / size as f64) as f32).to_bits()
            }
        }
    }

    /// An f32 LOD or bias, near boundaries often.
    fn level_value(&mut self) -> u32 {
        match self.range(0, 9) {
            0 => self.pick(&SPECIAL),
            // On a 1/256 step or half step of it (rounding ties of the 8.8 conversion).
            1 | 2 => {
                let k = self.range(-6000, 6000) as f64;
                let half = if self.chance(50) { 0.5 } else { 0.0 };
                (((k + half) / 256.0) as f32).to_bits()
            }
            3 => (self.range(-40, 40) as f32 * 0.5).to_bits(),
            _ => ((self.unit() * 44.0 - 22.0) as f32).to_bits(),
        }
    }

    /// One LOD vector.
    pub fn lod(&mut self) -> LodTxn {
        let tex = LodTex {
            width: self.size(),
            height: self.size(),
            levels: if self.chance(20) {
                self.pick(&[1, 16])
            } else {
                self.range(1, 16) as u32
            },
            base_level: if self.chance(70) {
                0
            } else {
                self.range(0, 15) as u32
            },
        };
        let lod_u48 = |s: &mut Self| -> u32 {
            match s.range(0, 4) {
                0 => 0,
                1 => 4095,
                _ => s.range(0, 4095) as u32,
            }
        };
        let (mut min_lod, mut max_lod) = (lod_u48(self), lod_u48(self));
        if self.chance(70) && min_lod > max_lod {
            std::mem::swap(&mut min_lod, &mut max_lod);
        }
        if self.chance(30) {
            min_lod = 0;
        }
        let sampler = LodSampler {
            bias: match self.range(0, 5) {
                0 => self.pick(&[-4096, 4096, 128, -128]),
                1 | 2 => 0,
                _ => self.range(-4096, 4096) as i32,
            },
            min_lod,
            max_lod,
            mip_filter: self.pick(&[MipFilter::None, MipFilter::Nearest, MipFilter::Linear]),
            max_aniso: match self.range(0, 3) {
                0 => 1,
                1 => self.pick(&[2, 16]),
                _ => self.range(1, 16) as u32,
            },
        };
        let mode = self.pick(&[
            LodMode::Implicit,
            LodMode::Implicit,
            LodMode::Grad,
            LodMode::Grad,
            LodMode::Grad,
            LodMode::Bias,
            LodMode::Lod,
            LodMode::Lz,
        ]);
        let (w, h) = (tex.width, tex.height);
        let mut grad = [[0u32; 4]; 4];
        for g in &mut grad {
            *g = [self.deriv(w), self.deriv(w), self.deriv(h), self.deriv(h)];
            if self.chance(10) {
                // Equal axes, or one axis of length zero (infinite anisotropy).
                if self.chance(50) {
                    g[1] = g[0];
                    g[3] = g[2];
                } else {
                    g[1] = 0;
                    g[3] = 0x8000_0000;
                }
            }
        }
        // Coordinates: lane 0 anywhere, the others displaced by derivative-sized steps.
        let mut coords = [[0u32; 2]; 4];
        let origin = [
            (self.unit() * 200.0 - 100.0) as f32,
            (self.unit() * 200.0 - 100.0) as f32,
        ];
        let step = |s: &mut Self, size: u32| f32::from_bits(s.deriv(size));
        let (sx, sy, tx, ty) = (step(self, w), step(self, w), step(self, h), step(self, h));
        for (lane, c) in coords.iter_mut().enumerate() {
            let (x, y) = ((lane & 1) as f32, (lane >> 1) as f32);
            // Fine derivatives differ per row/column: perturb lane 3.
            let wobble = if lane == 3 && self.chance(50) {
                1.25
            } else {
                1.0
            };
            *c = [
                (origin[0] + x * sx * wobble + y * sy).to_bits(),
                (origin[1] + x * tx + y * ty * wobble).to_bits(),
            ];
            if self.chance(3) {
                c[self.range(0, 1) as usize] = self.pick(&SPECIAL);
            }
        }
        let lod = [0; 4].map(|_: u32| self.level_value());
        let bias = [0; 4].map(|_: u32| self.level_value());
        LodTxn {
            tex,
            sampler,
            mode,
            coords,
            grad,
            lod,
            bias,
            lod_clamp: if self.chance(60) { 0 } else { lod_u48(self) },
            min_lod_warning: if self.chance(40) { 0 } else { lod_u48(self) },
            fine: self.chance(20),
            maxabs: self.chance(15),
        }
    }

    /// A λ' target snapped, now and then, onto the values where rounding decides: multiples of
    /// 1/512 (ties of λ's rounding to 1/256) and of 1/2 (nearest-level boundaries, integer λ).
    fn snap(&mut self, x: f64) -> f64 {
        match self.range(0, 7) {
            0 => (x * 512.0).round() / 512.0,
            1 => (x * 2.0).round() / 2.0,
            _ => x,
        }
    }

    /// The major and minor axis lengths (texels per pixel) that give λ_base = `l` with max
    /// anisotropy `a`: ρmax = 2^l·η, ρmin = ρmax/r for an axis ratio r that is often 1 or close to
    /// an integer (the probe count's boundaries).
    fn axis_lengths(&mut self, l: f64, a: u32) -> (f64, f64) {
        let r = match self.range(0, 99) {
            0..=29 => 1.0,
            30..=44 => {
                let k = self.range(1, 17) as f64;
                k * (1.0 + (self.unit() * 2.0 - 1.0) * 2f64.powi(-10))
            }
            _ => 2f64.powf(self.unit() * 5.0),
        }
        .max(1.0);
        let eta = if a == 1 { 1.0 } else { r.min(a as f64) };
        let rmax = 2f64.powf(l) * eta;
        (rmax, rmax / r)
    }

    /// `(∂s/∂x, ∂s/∂y, ∂t/∂x, ∂t/∂y)` for λ_base = `l`: two axes of the lengths of
    /// [`Self::axis_lengths`] in random (a quarter of the time axis-aligned) directions, the major
    /// one in x or y, scaled from texels to texture coordinates by the size.
    fn gradients(&mut self, l: f64, a: u32, w: u32, h: u32) -> [f64; 4] {
        let (rmax, rmin) = self.axis_lengths(l, a);
        let (rx, ry) = if self.chance(50) {
            (rmax, rmin)
        } else {
            (rmin, rmax)
        };
        let dir = |s: &mut Self| {
            let th = if s.chance(25) {
                s.range(0, 3) as f64 * std::f64::consts::FRAC_PI_2
            } else {
                s.unit() * std::f64::consts::TAU
            };
            (th.cos(), th.sin())
        };
        let ((cx, sx), (cy, sy)) = (dir(self), dir(self));
        let (w, h) = (w as f64, h as f64);
        [rx * cx / w, ry * cy / w, rx * sx / h, ry * sy / h]
    }

    /// A shader bias (mode bias): mostly within ±1 level, sometimes on a rounding tie, beyond the
    /// ±16 clamp or special.
    fn shader_bias(&mut self) -> u32 {
        match self.range(0, 19) {
            0..=13 => (self.unit() * 2.0 - 1.0) as f32,
            14..=16 => ((self.range(-256, 256) as f64 + 0.5) / 256.0) as f32,
            17 | 18 => {
                let sign = if self.chance(50) { -1.0 } else { 1.0 };
                (sign * (16.0 + self.unit() * 8.0)) as f32
            }
            _ => f32::from_bits(self.pick(&SPECIAL)),
        }
        .to_bits()
    }

    /// One LOD vector aimed at the regimes where golden model and ideal reference can disagree:
    /// a tenth of the draws come from [`Self::lod`] (special values, huge and tiny derivatives);
    /// the rest choose λ' first and build the operands that give it — three quarters inside
    /// [lod_min, lod_max] (unclamped), 15 % below 0 with lod_min = 0 (magnification), 10 % beyond
    /// a clamp — with derivatives scaled to the texture size, every mode, mip filter and
    /// anisotropy, and min_lod_warning around λ (the warning both ways).
    pub fn lod_in_range(&mut self) -> LodTxn {
        if self.chance(10) {
            return self.lod();
        }
        let tex = LodTex {
            width: self.size(),
            height: self.size(),
            levels: if self.chance(30) {
                16
            } else {
                self.range(1, 16) as u32
            },
            base_level: if self.chance(70) {
                0
            } else {
                self.range(0, 15) as u32
            },
        };
        let regime = self.range(0, 99);
        let (magnify, outside) = (regime < 15, regime >= 90);
        let (mut min_lod, mut lod_clamp) = (0u32, 0u32);
        if !magnify {
            if self.chance(50) {
                min_lod = self.range(0, 768) as u32;
            }
            if self.chance(30) {
                lod_clamp = self.range(0, 512) as u32;
            }
        }
        let lo = min_lod.max(lod_clamp);
        let mut max_lod = if self.chance(40) {
            4095
        } else {
            self.range(lo as i64 + 256, 4095) as u32
        };
        if !magnify && self.chance(3) {
            // lod_min above lod_max: lod_min wins.
            min_lod = self.range(1, 4095) as u32;
            lod_clamp = 0;
            max_lod = self.range(0, min_lod as i64 - 1) as u32;
        }
        let (lo, hi) = (
            min_lod.max(lod_clamp) as f64 / 256.0,
            max_lod as f64 / 256.0,
        );
        let sampler = LodSampler {
            bias: if self.chance(50) {
                0
            } else {
                self.range(-512, 512) as i32
            },
            min_lod,
            max_lod,
            mip_filter: self.pick(&[MipFilter::None, MipFilter::Nearest, MipFilter::Linear]),
            max_aniso: match self.range(0, 4) {
                0 | 1 => 1,
                2 => 16,
                _ => self.range(2, 16) as u32,
            },
        };
        let mode = match self.range(0, 19) {
            0..=4 => LodMode::Implicit,
            5..=10 => LodMode::Grad,
            11..=14 => LodMode::Bias,
            15..=17 => LodMode::Lod,
            _ => LodMode::Lz,
        };
        let target = |s: &mut Self| {
            let x = if magnify {
                s.unit() * 4.05 - 4.0
            } else if outside {
                if s.chance(50) {
                    hi + s.unit() * 3.0
                } else {
                    lo - s.unit() * 3.0
                }
            } else {
                lo + (hi - lo) * s.unit()
            };
            s.snap(x)
        };
        let targets = [0; 4].map(|_| target(self));
        let bias = [0; 4].map(|_| self.shader_bias());
        let sbias = sampler.bias as f64 / 256.0;
        // λ_base that puts lane `k`'s λ' on its target (lane 0's for derivatives shared by the
        // quad; the other lanes then differ by their shader biases and the fine differences).
        let base_target = |k: usize| {
            let b = if mode == LodMode::Bias {
                (f32::from_bits(bias[k]) as f64).clamp(-16.0, 16.0)
            } else {
                0.0
            };
            let l = targets[k] - sbias - b;
            if l.is_nan() {
                targets[k] - sbias
            } else {
                l
            }
        };
        let a = sampler.max_aniso;
        let (w, h) = (tex.width, tex.height);
        let mut grad = [[0u32; 4]; 4];
        for (k, g) in grad.iter_mut().enumerate() {
            *g = self
                .gradients(base_target(k), a, w, h)
                .map(|x| (x as f32).to_bits());
            if self.chance(5) {
                // Exactly equal axes: η = 1.
                g[1] = g[0];
                g[3] = g[2];
            }
        }
        // Coordinates: lane 0 at an origin of about the steps' size, the others one step away.
        let [sx, sy, tx, ty] = self.gradients(base_target(0), a, w, h);
        let origin = |s: &mut Self, step: f64| {
            (s.unit() * 2.0 - 1.0)
                * step.abs().max(1.0 / w.max(h) as f64)
                * 2f64.powi(s.range(0, 6) as i32)
        };
        let o = [
            origin(self, sx.abs().max(sy.abs())),
            origin(self, tx.abs().max(ty.abs())),
        ];
        let wobble = if self.chance(50) { 1.25 } else { 1.0 };
        let coords = std::array::from_fn(|lane| {
            let (x, y) = ((lane & 1) as f64, (lane >> 1) as f64);
            let wob = if lane == 3 { wobble } else { 1.0 };
            [
                ((o[0] + x * sx * wob + y * sy) as f32).to_bits(),
                ((o[1] + x * tx + y * ty * wob) as f32).to_bits(),
            ]
        });
        let lod = std::array::from_fn(|k| {
            if self.chance(5) {
                self.pick(&SPECIAL)
            } else {
                (targets[k] as f32).to_bits()
            }
        });
        let (lo256, hi256) = ((lo * 256.0) as i64, (hi.max(lo) * 256.0) as i64);
        LodTxn {
            tex,
            sampler,
            mode,
            coords,
            grad,
            lod,
            bias,
            lod_clamp,
            min_lod_warning: if self.chance(35) {
                0
            } else {
                self.range((lo256 - 256).max(0), (hi256 + 256).min(4095)) as u32
            },
            fine: self.chance(25),
            maxabs: self.chance(15),
        }
    }
}
