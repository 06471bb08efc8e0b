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
}
