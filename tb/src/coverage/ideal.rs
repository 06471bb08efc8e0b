//! Ideal coverage reference: every result field of a transaction (`covmask`, and each op's `rd`,
//! `pd` and `error`) computed from the documented rules (docs/units/coverage.md §2–§4, §7, §9),
//! sharing nothing with the golden model's helpers: its own standard sample-pattern table (typed in
//! from the Direct3D 11.3 standard multisample patterns), its own per-lane position selection, exact
//! rational geometry and its own encodings of offsets and f32 positions.
//!
//! Geometry: integers in 1/256 pixel, i128 (exact). A sample sits at the pixel's upper-left corner
//! plus `(d + 8)/16` pixel per axis (Vulkan's form of the D3D offset `d`). The triangle keeps its
//! original vertex order for both windings; a sample is inside an edge if it lies strictly on the
//! same side as the opposite vertex, and on the edge line it counts only if the edge is a top or left
//! edge in Direct3D's words: a top edge is horizontal with the triangle below it (y points down), a
//! left edge is non-horizontal with the triangle's interior on its +x side.

use super::{CoverageResult, CoverageTxn, OpMode, OpResult};

/// The Direct3D 11.3 standard multisample patterns (`D3D11_STANDARD_MULTISAMPLE_PATTERN`), sample
/// index order, `(dx, dy)` in 1/16 pixel from the pixel centre, +y down.
pub const D3D_STANDARD_PATTERNS: [(u32, &[(i8, i8)]); 5] = [
    (1, &[(0, 0)]),
    (2, &[(4, 4), (-4, -4)]),
    (4, &[(-2, -6), (6, -2), (-6, 2), (2, 6)]),
    (
        8,
        &[
            (1, -3),
            (-1, 3),
            (5, 1),
            (-3, -5),
            (-5, 5),
            (-7, -1),
            (3, 7),
            (7, -7),
        ],
    ),
    (
        16,
        &[
            (1, 1),
            (-1, -3),
            (-3, 2),
            (4, -1),
            (-5, -2),
            (2, 5),
            (5, 3),
            (3, -5),
            (-2, 6),
            (0, -7),
            (-4, -6),
            (-6, 4),
            (-8, 0),
            (7, -4),
            (6, 7),
            (-7, -8),
        ],
    ),
];

/// The ideal's standard pattern for `n` samples (`None` for a count without one).
pub fn ideal_standard_pattern(n: u32) -> Option<&'static [(i8, i8)]> {
    D3D_STANDARD_PATTERNS
        .iter()
        .find(|(count, _)| *count == n)
        .map(|(_, p)| *p)
}

/// The sample offsets pixel lane `lane` uses: the transaction's programmable list for that lane if
/// it has one, else the standard pattern of its sample count.
fn offsets(t: &CoverageTxn, lane: usize) -> Vec<(i64, i64)> {
    if let Some(per_lane) = &t.positions {
        per_lane[lane]
            .iter()
            .map(|d| (d[0] as i64, d[1] as i64))
            .collect()
    } else {
        ideal_standard_pattern(t.samples)
            .expect("vectors have 1, 2, 4, 8 or 16 samples")
            .iter()
            .map(|&(x, y)| (x as i64, y as i64))
            .collect()
    }
}

/// Twice the signed area of `(a, b, q)` (positive: `q` to the right of `a→b` with +y down, i.e.
/// clockwise on screen).
fn cross(a: [i128; 2], b: [i128; 2], q: [i128; 2]) -> i128 {
    (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0])
}

/// Per lane: which samples the triangle covers (before the sample mask) and which of them lie on
/// the closed triangle's boundary, where the top-left rule decided (`on_edge`, covered or not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IdealCoverage {
    pub covered: [u32; 4],
    pub on_edge: [u32; 4],
}

/// The geometry of a transaction: covered samples of each lane (bits 0…n−1, before the mask).
pub fn ideal_geometry(t: &CoverageTxn) -> IdealCoverage {
    let v: Vec<[i128; 2]> = t.tri.iter().map(|p| [p[0] as i128, p[1] as i128]).collect();
    let mut out = IdealCoverage::default();
    if cross(v[0], v[1], v[2]) == 0 {
        return out;
    }
    for lane in 0..4 {
        // Lanes: 0 (x, y), 1 (x+1, y), 2 (x, y+1), 3 (x+1, y+1).
        let corner_x = 256 * (t.quad[0] as i128 + (lane % 2) as i128);
        let corner_y = 256 * (t.quad[1] as i128 + (lane / 2) as i128);
        for (s, &(dx, dy)) in offsets(t, lane).iter().enumerate() {
            let p = [
                corner_x + 16 * (dx as i128 + 8),
                corner_y + 16 * (dy as i128 + 8),
            ];
            let mut inside = true;
            let mut tie = false;
            for k in 0..3 {
                let (a, b, c) = (v[k], v[(k + 1) % 3], v[(k + 2) % 3]);
                let interior = cross(a, b, c).signum();
                let side = cross(a, b, p).signum();
                if side == interior {
                    continue;
                }
                if side != 0 {
                    inside = false;
                    tie = false;
                    break;
                }
                tie = true;
                let top = a[1] == b[1] && c[1] > a[1];
                let left = a[1] != b[1] && (a[1] - b[1]).signum() == interior;
                if !(top || left) {
                    inside = false;
                }
            }
            if inside {
                out.covered[lane] |= 1 << s;
            }
            if tie {
                out.on_edge[lane] |= 1 << s;
            }
        }
    }
    out
}

/// Covered samples of each lane (before the sample mask), bits 0…n−1.
pub fn ideal_coverage(t: &CoverageTxn) -> [u32; 4] {
    ideal_geometry(t).covered
}

/// PIXLD's OFFSET grid encoding: each component as a 16-bit two's complement field, dx low, dy high.
fn grid_word(dx: i64, dy: i64) -> u32 {
    let field = |d: i64| d.rem_euclid(1 << 16) as u32;
    field(dx) + (field(dy) << 16)
}

/// The IEEE-754 binary32 encoding of the exact value `k/16` (`|k| < 2^24`), assembled from sign,
/// exponent and fraction (no float arithmetic).
fn sixteenths_f32(k: i64) -> u32 {
    if k == 0 {
        return 0; // +0.0
    }
    let sign = if k < 0 { 1u32 << 31 } else { 0 };
    let m = k.unsigned_abs();
    let top = 63 - m.leading_zeros() as i64; // 2^top ≤ |k| < 2^(top+1)
    let exponent = (top - 4 + 127) as u32; // |k|/16 = 1.f × 2^(top − 4)
    let fraction = ((m << (23 - top)) as u32) & 0x7F_FFFF;
    sign | (exponent << 23) | fraction
}

/// The ideal result of one transaction: every field the golden model and the RTL produce.
pub fn ideal(t: &CoverageTxn) -> CoverageResult {
    let n = t.samples;
    let all_n: u32 = (0..n).fold(0, |m, s| m | 1 << s); // the n samples
    let geometry = ideal_geometry(t);
    let covmask: [u32; 4] = std::array::from_fn(|l| geometry.covered[l] & t.sample_mask & all_n);
    let lanes: Vec<Vec<(i64, i64)>> = (0..4).map(|l| offsets(t, l)).collect();
    let pixld = t
        .ops
        .iter()
        .map(|op| {
            let in_range = (op.index as u64) < n as u64;
            // The offset an index selects; an out-of-range index reads offset 0 (the centre).
            let at = |lane: usize| -> (i64, i64) {
                if in_range {
                    lanes[lane][op.index as usize]
                } else {
                    (0, 0)
                }
            };
            let half = if op.tgsi { 8 } else { 0 }; // +0.5 pixel in 1/16
            let per_lane = |f: &dyn Fn(usize) -> (u32, bool)| -> ([u32; 4], [bool; 4]) {
                let r: Vec<(u32, bool)> = (0..4).map(f).collect();
                (
                    std::array::from_fn(|l| r[l].0),
                    std::array::from_fn(|l| r[l].1),
                )
            };
            let (rd, pd) = match op.mode {
                OpMode::Invalid6 | OpMode::Invalid7 => {
                    return OpResult {
                        rd: None,
                        pd: None,
                        error: Some(format!("invalid PIXLD mode encoding {}", op.mode as u32)),
                    }
                }
                OpMode::MsCount | OpMode::SampleInfo => per_lane(&|_| (n, false)),
                OpMode::CovMask => per_lane(&|l| (covmask[l], false)),
                OpMode::Covered => per_lane(&|l| {
                    let hit = in_range && (covmask[l] >> op.index) & 1 == 1;
                    (if hit { 0xFFFF_FFFF } else { 0 }, hit)
                }),
                OpMode::Offset => per_lane(&|l| {
                    // Only the standard patterns up to 8 samples have OFFSET; else 0.
                    let supported = t.positions.is_none() && n <= 8 && in_range;
                    let (dx, dy) = at(l);
                    (if supported { grid_word(dx, dy) } else { 0 }, false)
                }),
                OpMode::CentroidOffset => per_lane(&|l| {
                    let lowest = |m: u32| (0..n).find(|&s| m >> s & 1 == 1);
                    let enabled = t.sample_mask & all_n;
                    let sample = if covmask[l] == all_n {
                        None // fully covered: the pixel centre
                    } else if covmask[l] != 0 {
                        lowest(covmask[l])
                    } else if enabled != 0 && enabled != all_n {
                        lowest(enabled) // helper pixel, strict non-empty mask
                    } else {
                        None
                    };
                    let word = sample.map_or(0, |s| {
                        let (dx, dy) = lanes[l][s as usize];
                        grid_word(dx, dy)
                    });
                    (word, false)
                }),
                OpMode::MyIndex => per_lane(&|l| {
                    if t.ssaa {
                        (t.sample_id[l], true)
                    } else {
                        (0, false)
                    }
                }),
                OpMode::SamplePosX => per_lane(&|l| (sixteenths_f32(at(l).0 + half), false)),
                OpMode::SamplePosY => per_lane(&|l| (sixteenths_f32(at(l).1 + half), false)),
            };
            let writes_pd = op.pd && matches!(op.mode, OpMode::Covered | OpMode::MyIndex);
            OpResult {
                rd: Some(rd),
                pd: writes_pd.then_some(pd),
                error: None,
            }
        })
        .collect();
    CoverageResult { covmask, pixld }
}

/// The ideal reference as JSON: `covered` (each lane's covered samples before the sample mask) and
/// the full ideal result, `covmask` and `pixld` in the result format (docs/units/coverage.md §7).
pub fn ideal_json(t: &CoverageTxn) -> Result<serde_json::Value, String> {
    let r = ideal(t);
    let mut v = super::result_json(&r);
    v["covered"] = serde_json::json!(ideal_coverage(t));
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteenths_are_the_exact_f32_values() {
        for k in -8i64..=15 {
            assert_eq!(
                sixteenths_f32(k),
                ((k as f64 / 16.0) as f32).to_bits(),
                "k = {k}"
            );
        }
        assert_eq!(sixteenths_f32(8), 0x3F00_0000); // 0.5
        assert_eq!(sixteenths_f32(-8), 0xBF00_0000); // −0.5
        assert_eq!(sixteenths_f32(1), 0x3D80_0000); // 1/16
    }

    #[test]
    fn grid_word_sign_extends_each_component() {
        assert_eq!(grid_word(-2, -6), 0xFFFA_FFFE);
        assert_eq!(grid_word(7, -8), 0xFFF8_0007);
        assert_eq!(grid_word(0, 0), 0);
    }
}
