//! Random and edge-case stimulus for the coverage unit.
//!
//! Each call draws one vector; a fixed fraction targets the hard cases: vertices exactly on sample
//! points, edges through sample rows and columns (the top-left rule decides), degenerate triangles,
//! huge triangles at the coordinate limits, both windings, empty and full sample masks, programmable
//! patterns (one for all lanes or one per lane), quads at the range limits, out-of-range and extreme
//! op indices, the two invalid PIXLD encodings, and op lists longer than the unit's op slots.

use crate::draw::Draw;
use texpix_sim::SplitMix64;

use crate::coverage::{CoverageTxn, OpMode, PixldOp, QUAD_MAX, QUAD_MIN, VERTEX_MAX, VERTEX_MIN};

/// `n` vectors from [`Stim`] seeded with `seed`.
pub fn random(seed: u64, n: usize) -> Vec<CoverageTxn> {
    let mut s = Stim::new(seed);
    (0..n).map(|_| s.coverage()).collect()
}

/// A deterministic vector generator (the engine's SplitMix64 underneath).
#[derive(Clone, Debug)]
pub struct Stim {
    rng: SplitMix64,
}

impl Draw for Stim {
    fn rng(&mut self) -> &mut SplitMix64 {
        &mut self.rng
    }
}

impl Stim {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: SplitMix64::new(seed),
        }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    /// One coverage vector.
    pub fn coverage(&mut self) -> CoverageTxn {
        let samples = self.pick(&[1u32, 2, 4, 8, 16]);
        let quad = if self.chance(5) {
            [
                self.pick(&[QUAD_MIN, QUAD_MAX, 0, -1]),
                self.pick(&[QUAD_MIN, QUAD_MAX, 0, -1]),
            ]
        } else {
            [self.range(-200, 200) as i32, self.range(-200, 200) as i32]
        };
        let positions = if self.chance(25) {
            let lane = |s: &mut Self| -> Vec<[i32; 2]> {
                (0..samples)
                    .map(|_| [s.range(-8, 7) as i32, s.range(-8, 7) as i32])
                    .collect()
            };
            if self.chance(50) {
                let one = lane(self);
                Some([one.clone(), one.clone(), one.clone(), one])
            } else {
                Some([lane(self), lane(self), lane(self), lane(self)])
            }
        } else {
            None
        };
        let tri = self.triangle(quad);
        let sample_mask = match self.range(0, 9) {
            0 => 0,
            1 => 0xFFFF,
            2 => (1 << samples) - 1,
            3..=5 => 0xFFFF,
            _ => self.range(0, 0xFFFF) as u32,
        };
        let ssaa = self.chance(30);
        let sample_id = [0; 4].map(|_: u32| self.range(0, 15) as u32);
        let nops = if self.chance(10) {
            self.range(5, 10)
        } else {
            self.range(0, 4)
        };
        let ops = (0..nops).map(|_| self.op(samples)).collect();
        CoverageTxn {
            samples,
            positions,
            tri,
            quad,
            sample_mask,
            ssaa,
            sample_id,
            ops,
        }
    }

    fn op(&mut self, samples: u32) -> PixldOp {
        use OpMode::*;
        let mode = self.pick(&[
            MsCount,
            CovMask,
            Covered,
            Covered,
            Offset,
            Offset,
            CentroidOffset,
            CentroidOffset,
            MyIndex,
            SampleInfo,
            SamplePosX,
            SamplePosY,
            Invalid6,
            Invalid7,
        ]);
        let index = match self.range(0, 9) {
            0 => self.pick(&[samples, 15, 16, 255, u32::MAX, 0x8000_0000, 0x10]),
            1 => self.next() as u32,
            _ => self.range(0, samples as i64 - 1) as u32,
        };
        PixldOp {
            mode,
            index,
            pd: self.chance(50),
            tgsi: self.chance(30),
        }
    }

    /// A triangle near the quad (or anywhere, for the huge kind), 16.8 fixed point.
    fn triangle(&mut self, quad: [i32; 2]) -> [[i32; 2]; 3] {
        let cx = 256 * quad[0] as i64 + 256;
        let cy = 256 * quad[1] as i64 + 256;
        let clamp = |v: i64| v.clamp(VERTEX_MIN as i64, VERTEX_MAX as i64) as i32;
        let mut tri = [[0i32; 2]; 3];
        match self.range(0, 9) {
            // Vertices on the 1/16-pixel grid of sample points: edges through samples, E = 0 ties.
            0..=2 => {
                let spread = self.pick(&[2i64, 4, 8, 40]);
                for v in &mut tri {
                    let gx = cx - 128 + 16 * self.range(-spread * 8, spread * 8);
                    let gy = cy - 128 + 16 * self.range(-spread * 8, spread * 8);
                    *v = [clamp(gx), clamp(gy)];
                }
                // Axis-aligned edges through sample rows/columns.
                if self.chance(40) {
                    tri[1][1] = tri[0][1];
                }
                if self.chance(40) {
                    tri[2][0] = tri[0][0];
                }
            }
            // Degenerate: repeated vertex or collinear.
            3 => {
                let a = [cx + self.range(-1024, 1024), cy + self.range(-1024, 1024)];
                let d = [self.range(-300, 300), self.range(-300, 300)];
                let k = self.range(-3, 3);
                tri = [
                    [clamp(a[0]), clamp(a[1])],
                    [clamp(a[0] + d[0]), clamp(a[1] + d[1])],
                    [clamp(a[0] + k * d[0]), clamp(a[1] + k * d[1])],
                ];
            }
            // Huge: anywhere in the coordinate range, including the limits.
            4 => {
                for v in &mut tri {
                    *v = if self.chance(30) {
                        [
                            self.pick(&[VERTEX_MIN, VERTEX_MAX]),
                            self.pick(&[VERTEX_MIN, VERTEX_MAX]),
                        ]
                    } else {
                        [
                            self.range(VERTEX_MIN as i64, VERTEX_MAX as i64) as i32,
                            self.range(VERTEX_MIN as i64, VERTEX_MAX as i64) as i32,
                        ]
                    };
                }
            }
            // Small and medium triangles around the quad at full 1/256 precision.
            _ => {
                let spread = self.pick(&[256i64, 600, 2048, 20000]);
                for v in &mut tri {
                    *v = [
                        clamp(cx + self.range(-spread, spread)),
                        clamp(cy + self.range(-spread, spread)),
                    ];
                }
            }
        }
        tri
    }
}
