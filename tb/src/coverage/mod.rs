//! The coverage unit's transactions, its bit-accurate golden model and an independent ideal
//! reference (docs/units/coverage.md).
//!
//! Decisions where no public reference fixes the behaviour (docs/units/coverage.md §9; the RTL
//! implements the same):
//! - Vertex coordinates are 25-bit two's complement 16.8 values (±2^16 pixels), quad coordinates
//!   17-bit pixel values: wider than Direct3D 11's ±2^15-pixel viewport bounds, checked by the
//!   vector parser.
//! - `index` is the 32-bit register value (`Ra + ImmS08` may wrap); any value ≥ n is out of range.
//! - Pd is written only for COVERED and MY_INDEX, and only when requested; otherwise `pd` is null.
//! - CENTROID_OFFSET of an uncovered (helper) pixel whose sample mask holds none of the n samples
//!   returns the centre (an empty mask has no lowest sample).
//! - SAMPLE_INFO, SAMPLE_POS_X and SAMPLE_POS_Y are op modes beside PIXLD's (encodings 8, 9, 10);
//!   positions are f32 `d/16` from the centre, or `d/16 + 0.5` (TGSI) with `tgsi`.
//! - The two INVALID encodings (6, 7) are rejected: the op's result has an `error`, nothing written.

pub mod dut;
mod ideal;
mod io;
pub mod stim;
mod unit;

pub use ideal::{
    ideal, ideal_coverage, ideal_geometry, ideal_json, ideal_standard_pattern, IdealCoverage,
    D3D_STANDARD_PATTERNS,
};
pub use io::{parse_line, parse_result_line, result_json, txn_json};
pub use unit::{Coverage, SerialCoverage};

/// Most samples per pixel.
pub const MAX_SAMPLES: usize = 16;
/// 16.8 vertex coordinate range (25-bit two's complement).
pub const VERTEX_MIN: i32 = -(1 << 24);
pub const VERTEX_MAX: i32 = (1 << 24) - 1;
/// Quad (lane 0) pixel coordinate range; lanes 1–3 add one.
pub const QUAD_MIN: i32 = -(1 << 16);
pub const QUAD_MAX: i32 = (1 << 16) - 2;

/// An op: PIXLD's 3-bit modes, then the sample-info queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpMode {
    MsCount = 0,
    CovMask = 1,
    Covered = 2,
    Offset = 3,
    CentroidOffset = 4,
    MyIndex = 5,
    Invalid6 = 6,
    Invalid7 = 7,
    SampleInfo = 8,
    SamplePosX = 9,
    SamplePosY = 10,
}

const MODES: [(OpMode, &str); 11] = [
    (OpMode::MsCount, "MSCOUNT"),
    (OpMode::CovMask, "COVMASK"),
    (OpMode::Covered, "COVERED"),
    (OpMode::Offset, "OFFSET"),
    (OpMode::CentroidOffset, "CENTROID_OFFSET"),
    (OpMode::MyIndex, "MY_INDEX"),
    (OpMode::Invalid6, "INVALID6"),
    (OpMode::Invalid7, "INVALID7"),
    (OpMode::SampleInfo, "SAMPLE_INFO"),
    (OpMode::SamplePosX, "SAMPLE_POS_X"),
    (OpMode::SamplePosY, "SAMPLE_POS_Y"),
];

impl OpMode {
    /// The hardware encoding (PIXLD's field for 0–7).
    pub fn encoding(self) -> u32 {
        self as u32
    }
    /// The mode of an encoding.
    pub fn from_encoding(e: u32) -> Option<Self> {
        MODES.get(e as usize).map(|m| m.0)
    }
    /// The name used in vector files.
    pub fn name(self) -> &'static str {
        MODES[self as usize].1
    }
    /// The mode of a name.
    pub fn from_name(s: &str) -> Option<Self> {
        MODES.iter().find(|m| m.1 == s).map(|m| m.0)
    }
}

/// One op of a transaction.
#[derive(Clone, Debug, PartialEq)]
pub struct PixldOp {
    pub mode: OpMode,
    pub index: u32,
    pub pd: bool,
    pub tgsi: bool,
}

/// One quad × one triangle, and the queries on it.
#[derive(Clone, Debug, PartialEq)]
pub struct CoverageTxn {
    /// 1, 2, 4, 8 or 16.
    pub samples: u32,
    /// Programmable pattern per lane (n entries, components −8…7).
    pub positions: Option<[Vec<[i32; 2]>; 4]>,
    /// Vertices, 16.8 fixed point.
    pub tri: [[i32; 2]; 3],
    /// Pixel coordinates of lane 0.
    pub quad: [i32; 2],
    /// 16-bit sample mask.
    pub sample_mask: u32,
    pub ssaa: bool,
    pub sample_id: [u32; 4],
    pub ops: Vec<PixldOp>,
}

/// One op's result.
#[derive(Clone, Debug, PartialEq)]
pub struct OpResult {
    pub rd: Option<[u32; 4]>,
    pub pd: Option<[bool; 4]>,
    pub error: Option<String>,
}

/// A transaction's result.
#[derive(Clone, Debug, PartialEq)]
pub struct CoverageResult {
    pub covmask: [u32; 4],
    pub pixld: Vec<OpResult>,
}

const P1: [[i32; 2]; 1] = [[0, 0]];
const P2: [[i32; 2]; 2] = [[4, 4], [-4, -4]];
const P4: [[i32; 2]; 4] = [[-2, -6], [6, -2], [-6, 2], [2, 6]];
const P8: [[i32; 2]; 8] = [
    [1, -3],
    [-1, 3],
    [5, 1],
    [-3, -5],
    [-5, 5],
    [-7, -1],
    [3, 7],
    [7, -7],
];
const P16: [[i32; 2]; 16] = [
    [1, 1],
    [-1, -3],
    [-3, 2],
    [4, -1],
    [-5, -2],
    [2, 5],
    [5, 3],
    [3, -5],
    [-2, 6],
    [0, -7],
    [-4, -6],
    [-6, 4],
    [-8, 0],
    [7, -4],
    [6, 7],
    [-7, -8],
];

/// The standard pattern for n samples (docs/units/coverage.md §2 table), in sample index order.
pub fn standard_pattern(n: u32) -> &'static [[i32; 2]] {
    match n {
        1 => &P1,
        2 => &P2,
        4 => &P4,
        8 => &P8,
        _ => &P16,
    }
}

/// The sample offsets of `lane` (programmable or standard).
pub fn lane_positions(t: &CoverageTxn, lane: usize) -> Vec<[i32; 2]> {
    match &t.positions {
        Some(p) => p[lane].clone(),
        None => standard_pattern(t.samples).to_vec(),
    }
}

/// Raw coverage bits (before the sample mask) of each lane, exactly as docs/units/coverage.md §3
/// states it.
fn raw_coverage(t: &CoverageTxn) -> [u32; 4] {
    let v: Vec<[i64; 2]> = t.tri.iter().map(|p| [p[0] as i64, p[1] as i64]).collect();
    let area =
        (v[1][0] - v[0][0]) * (v[2][1] - v[0][1]) - (v[2][0] - v[0][0]) * (v[1][1] - v[0][1]);
    let mut out = [0u32; 4];
    if area == 0 {
        return out;
    }
    let (a, b, c) = if area < 0 {
        (v[0], v[2], v[1])
    } else {
        (v[0], v[1], v[2])
    };
    let edges = [(a, b), (b, c), (c, a)];
    for (lane, bits) in out.iter_mut().enumerate() {
        let px0 = 256 * (t.quad[0] as i64 + (lane & 1) as i64) + 128;
        let py0 = 256 * (t.quad[1] as i64 + (lane >> 1) as i64) + 128;
        for (s, pos) in lane_positions(t, lane).iter().enumerate() {
            let p = [px0 + 16 * pos[0] as i64, py0 + 16 * pos[1] as i64];
            let inside = edges.iter().all(|(e0, e1)| {
                let (dx, dy) = (e1[0] - e0[0], e1[1] - e0[1]);
                let e = dx * (p[1] - e0[1]) - dy * (p[0] - e0[0]);
                e > 0 || (e == 0 && (dy < 0 || (dy == 0 && dx > 0)))
            });
            if inside {
                *bits |= 1 << s;
            }
        }
    }
    out
}

/// The OFFSET encoding of a sample offset.
fn offset_encoding(p: [i32; 2]) -> u32 {
    (p[0] as u32 & 0xFFFF) | ((p[1] as u32 & 0xFFFF) << 16)
}

fn lowest(mask: u32) -> Option<usize> {
    (mask != 0).then(|| mask.trailing_zeros() as usize)
}

/// The bit-accurate result of a transaction.
pub fn golden(t: &CoverageTxn) -> CoverageResult {
    let n = t.samples;
    let nmask = if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
    let raw = raw_coverage(t);
    let covmask = raw.map(|r| r & t.sample_mask & nmask);
    let pixld = t
        .ops
        .iter()
        .map(|op| {
            let mut rd = [0u32; 4];
            let mut pd = [false; 4];
            for lane in 0..4 {
                let pos = lane_positions(t, lane);
                let cov = covmask[lane];
                let idx_ok = op.index < n;
                let sel = if idx_ok {
                    pos[op.index as usize]
                } else {
                    [0, 0]
                };
                let f = |d: i32| (d as f32 / 16.0 + if op.tgsi { 0.5 } else { 0.0 }).to_bits();
                (rd[lane], pd[lane]) = match op.mode {
                    OpMode::MsCount | OpMode::SampleInfo => (n, false),
                    OpMode::CovMask => (cov, false),
                    OpMode::Covered => {
                        let hit = idx_ok && cov >> op.index & 1 == 1;
                        (if hit { u32::MAX } else { 0 }, hit)
                    }
                    OpMode::Offset => {
                        let fixed = t.positions.is_none() && n <= 8;
                        (
                            if fixed && idx_ok {
                                offset_encoding(sel)
                            } else {
                                0
                            },
                            false,
                        )
                    }
                    OpMode::CentroidOffset => {
                        let helper = t.sample_mask & nmask;
                        let pick = if cov == nmask {
                            None
                        } else if cov != 0 {
                            lowest(cov)
                        } else if helper != nmask {
                            lowest(helper)
                        } else {
                            None
                        };
                        (pick.map_or(0, |s| offset_encoding(pos[s])), false)
                    }
                    OpMode::MyIndex => {
                        if t.ssaa {
                            (t.sample_id[lane], true)
                        } else {
                            (0, false)
                        }
                    }
                    OpMode::SamplePosX => (f(sel[0]), false),
                    OpMode::SamplePosY => (f(sel[1]), false),
                    OpMode::Invalid6 | OpMode::Invalid7 => (0, false),
                };
            }
            match op.mode {
                OpMode::Invalid6 | OpMode::Invalid7 => OpResult {
                    rd: None,
                    pd: None,
                    error: Some(format!(
                        "invalid PIXLD mode encoding {}",
                        op.mode.encoding()
                    )),
                },
                OpMode::Covered | OpMode::MyIndex if op.pd => OpResult {
                    rd: Some(rd),
                    pd: Some(pd),
                    error: None,
                },
                _ => OpResult {
                    rd: Some(rd),
                    pd: None,
                    error: None,
                },
            }
        })
        .collect();
    CoverageResult { covmask, pixld }
}
