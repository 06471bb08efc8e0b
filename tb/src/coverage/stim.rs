//! Random and edge-case stimulus for the coverage unit.
//!
//! Each call draws one vector; a fixed fraction targets the hard cases: vertices exactly on sample
//! points, edges through sample rows and columns (the top-left rule decides), degenerate triangles,
//! huge triangles at the coordinate limits, both windings, empty and full sample masks, programmable
//! patterns (one for all lanes or one per lane), quads at the range limits, out-of-range and extreme
//! op indices, the two invalid PIXLD encodings, and op lists longer than the unit's op slots.
//!
//! [`edge_biased`] draws from a second generator, [`Stim::coverage_edges`], in which those hard cases
//! are the majority: edges laid exactly through sample points and vertices on them (the top-left
//! rule decides), samples on pixel corners and pixel boundaries, programmable patterns, partial and
//! empty sample masks, long edges through sample points with steps near the coordinate limits,
//! every op mode in equal numbers and long op lists. [`random`] is unchanged.

use crate::draw::Draw;
use texpix_sim::SplitMix64;

use crate::coverage::{
    lane_positions, CoverageTxn, OpMode, PixldOp, QUAD_MAX, QUAD_MIN, VERTEX_MAX, VERTEX_MIN,
};

/// `n` vectors from [`Stim`] seeded with `seed`.
pub fn random(seed: u64, n: usize) -> Vec<CoverageTxn> {
    let mut s = Stim::new(seed);
    (0..n).map(|_| s.coverage()).collect()
}

/// `n` vectors from [`Stim::coverage_edges`] seeded with `seed`: the hard cases as the majority.
pub fn edge_biased(seed: u64, n: usize) -> Vec<CoverageTxn> {
    let mut s = Stim::new(seed);
    (0..n).map(|_| s.coverage_edges()).collect()
}

/// Every op mode, each drawn equally often by [`Stim::coverage_edges`].
const ALL_MODES: [OpMode; 11] = [
    OpMode::MsCount,
    OpMode::CovMask,
    OpMode::Covered,
    OpMode::Offset,
    OpMode::CentroidOffset,
    OpMode::MyIndex,
    OpMode::Invalid6,
    OpMode::Invalid7,
    OpMode::SampleInfo,
    OpMode::SamplePosX,
    OpMode::SamplePosY,
];

/// Primitive edge directions (x, y) for edges laid through a sample point.
const DIRECTIONS: [[i64; 2]; 12] = [
    [1, 0],
    [0, 1],
    [1, 1],
    [1, -1],
    [2, 1],
    [1, 2],
    [2, -1],
    [1, -2],
    [3, 1],
    [1, -3],
    [3, 2],
    [5, -3],
];

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

impl Stim {
    /// One vector of the edge-biased mix (see the module documentation): the top-left rule, pixel
    /// corners, programmable patterns and partial/empty masks are the majority of the draws.
    pub fn coverage_edges(&mut self) -> CoverageTxn {
        let samples = self.pick(&[1u32, 2, 4, 8, 16]);
        let quad = if self.chance(3) {
            [
                self.pick(&[QUAD_MIN, QUAD_MAX, 0, -1]),
                self.pick(&[QUAD_MIN, QUAD_MAX, 0, -1]),
            ]
        } else {
            [self.range(-300, 300) as i32, self.range(-300, 300) as i32]
        };
        // Components of −8 put samples on the pixel's left/top boundary, (−8, −8) on its corner.
        let lane = |s: &mut Self| -> Vec<[i32; 2]> {
            let c = |s: &mut Self| -> i32 {
                if s.chance(35) {
                    -8
                } else {
                    s.range(-8, 7) as i32
                }
            };
            (0..samples).map(|_| [c(s), c(s)]).collect()
        };
        let positions = match self.range(0, 9) {
            0..=3 => None,
            4..=6 => {
                let one = lane(self);
                Some([one.clone(), one.clone(), one.clone(), one])
            }
            _ => Some([lane(self), lane(self), lane(self), lane(self)]),
        };
        let nmask = (1u32 << samples) - 1;
        let sample_mask = match self.range(0, 9) {
            0 | 1 => 0xFFFF,
            2 => nmask,
            // Empty within the n samples (bits above n only).
            3 | 4 => (self.next() as u32 & 0xFFFF) & !nmask,
            // Partial: some but not all of the n samples (where n > 1).
            _ => {
                let m = self.next() as u32 & 0xFFFF;
                if samples > 1 && m & nmask == nmask {
                    m & !(1 << self.range(0, samples as i64 - 1))
                } else {
                    m
                }
            }
        };
        let ssaa = self.chance(50);
        let sample_id = [0; 4].map(|_: u32| self.range(0, 15) as u32);
        let nops = match self.range(0, 9) {
            0 => 0,
            1..=6 => self.range(1, 4),
            _ => self.range(5, 12),
        };
        let ops = (0..nops).map(|_| self.op_uniform(samples)).collect();
        let mut t = CoverageTxn {
            samples,
            positions,
            tri: [[0; 2]; 3],
            quad,
            sample_mask,
            ssaa,
            sample_id,
            ops,
        };
        t.tri = self.edge_triangle(&t);
        t
    }

    /// An op with every mode equally likely and the index in range about half the time.
    fn op_uniform(&mut self, samples: u32) -> PixldOp {
        let mode = self.pick(&ALL_MODES);
        let index = match self.range(0, 19) {
            0..=10 => self.range(0, samples as i64 - 1) as u32,
            11 | 12 => samples,
            13 | 14 => self.range(samples as i64, 16) as u32,
            15 | 16 => self.next() as u32,
            _ => self.pick(&[u32::MAX, 0x8000_0000, 0x7FFF_FFFF, 0x1_0000 + samples - 1]),
        };
        PixldOp {
            mode,
            index,
            pd: self.chance(50),
            tgsi: self.chance(50),
        }
    }

    /// A sample point of `t` in 1/256 pixel: lane `lane`, sample `s`.
    fn sample_point(t: &CoverageTxn, lane: usize, s: usize) -> [i64; 2] {
        let d = lane_positions(t, lane)[s];
        [
            256 * (t.quad[0] as i64 + (lane & 1) as i64) + 128 + 16 * d[0] as i64,
            256 * (t.quad[1] as i64 + (lane >> 1) as i64) + 128 + 16 * d[1] as i64,
        ]
    }

    /// A triangle for `t` (its samples and quad set) whose edges or vertices mostly lie exactly on
    /// sample points or pixel corners.
    fn edge_triangle(&mut self, t: &CoverageTxn) -> [[i32; 2]; 3] {
        let clamp = |v: i64| v.clamp(VERTEX_MIN as i64, VERTEX_MAX as i64) as i32;
        let (qx, qy) = (256 * t.quad[0] as i64, 256 * t.quad[1] as i64);
        let lane = self.range(0, 3) as usize;
        let s = self.range(0, t.samples as i64 - 1) as usize;
        let p = Self::sample_point(t, lane, s);
        let mut v = [[0i64; 2]; 3];
        match self.range(0, 99) {
            // An edge through sample point p, p strictly inside the edge; the third vertex off the
            // line on either side. Scale 16 puts further sample-grid points on the line.
            0..=39 => {
                let d = self.pick(&DIRECTIONS);
                let sign = self.pick(&[1i64, -1]);
                let scale = self.pick(&[16i64, 16, 16, 1, 3]);
                let (dx, dy) = (sign * scale * d[0], sign * scale * d[1]);
                let (t0, t1) = (self.range(1, 600 / scale), self.range(1, 600 / scale));
                v[0] = [p[0] - t0 * dx, p[1] - t0 * dy];
                v[1] = [p[0] + t1 * dx, p[1] + t1 * dy];
                // Off the line: the normal (−dy, dx) times ±k, plus some slide along the edge.
                let k = self.range(1, 2000 / (dx.abs() + dy.abs())) * self.pick(&[1i64, -1]);
                let slide = self.range(-2 * t0, 2 * t1);
                v[2] = [p[0] - k * dy + slide * dx, p[1] + k * dx + slide * dy];
            }
            // A vertex exactly on a sample point, the others on the 1/16 grid nearby.
            40..=54 => {
                v[0] = p;
                for w in &mut v[1..] {
                    *w = [
                        p[0] + 16 * self.range(-60, 60),
                        p[1] + 16 * self.range(-60, 60),
                    ];
                }
                if self.chance(40) {
                    v[1][1] = p[1];
                }
                if self.chance(40) {
                    v[2][0] = p[0];
                }
            }
            // Vertices on pixel corners, edges often along pixel boundaries.
            55..=69 => {
                for w in &mut v {
                    *w = [qx + 256 * self.range(-2, 4), qy + 256 * self.range(-2, 4)];
                }
                if self.chance(50) {
                    v[1][1] = v[0][1];
                }
                if self.chance(50) {
                    v[2][0] = v[0][0];
                }
            }
            // Vertices on the 1/16 grid of sample points, axis-parallel edges through sample rows.
            70..=84 => {
                for w in &mut v {
                    *w = [qx + 16 * self.range(-24, 56), qy + 16 * self.range(-24, 56)];
                }
                if self.chance(40) {
                    v[1][1] = v[0][1];
                }
                if self.chance(40) {
                    v[2][0] = v[0][0];
                }
            }
            // A long edge through or next to p, its ends as far out as the coordinate range
            // allows (steps near 2^25, the widest the sample tests' sums must hold), the third
            // vertex anywhere: the samples near the edge then decide on sums of large terms.
            85..=88 => {
                let reach = |c: i64| (VERTEX_MAX as i64 - c).min(c - VERTEX_MIN as i64);
                let far = |s: &mut Self, m: i64| match s.range(0, 2) {
                    0 => m,
                    1 => -m,
                    _ => s.range(-m, m),
                };
                let u = [far(self, reach(p[0])), far(self, reach(p[1]))];
                let jitter = [self.range(-1, 1), self.range(-1, 1)];
                v[0] = [p[0] + u[0] + jitter[0], p[1] + u[1] + jitter[1]];
                v[1] = [p[0] - u[0], p[1] - u[1]];
                v[2] = [
                    self.range(VERTEX_MIN as i64, VERTEX_MAX as i64),
                    self.range(VERTEX_MIN as i64, VERTEX_MAX as i64),
                ];
            }
            // Generic: full 1/256 precision around the quad.
            89..=92 => {
                for w in &mut v {
                    *w = [
                        qx + 256 + self.range(-1500, 1500),
                        qy + 256 + self.range(-1500, 1500),
                    ];
                }
            }
            // Degenerate: collinear through p, or a repeated vertex.
            93..=96 => {
                let d = [self.range(-300, 300), self.range(-300, 300)];
                let k = self.range(-3, 3);
                v = [
                    p,
                    [p[0] + d[0], p[1] + d[1]],
                    [p[0] + k * d[0], p[1] + k * d[1]],
                ];
            }
            // Huge: at the coordinate limits.
            _ => {
                for w in &mut v {
                    *w = [
                        self.pick(&[VERTEX_MIN, VERTEX_MAX, 0]) as i64,
                        self.pick(&[VERTEX_MIN, VERTEX_MAX, 0]) as i64,
                    ];
                }
            }
        }
        // Any vertex order: both windings, and the special edge in any of the three positions.
        let r = self.range(0, 5) as usize;
        let order = [
            [0, 1, 2],
            [1, 2, 0],
            [2, 0, 1],
            [0, 2, 1],
            [2, 1, 0],
            [1, 0, 2],
        ][r];
        order.map(|i| [clamp(v[i][0]), clamp(v[i][1])])
    }
}
