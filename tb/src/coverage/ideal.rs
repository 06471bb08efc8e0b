//! Ideal coverage reference: exact rational geometry (integers in 1/256 pixel, i128), formulated
//! independently of the golden model — original vertex order for both windings, "same side as the
//! opposite vertex" containment, and the top-left rule in Direct3D's words: a top edge is horizontal
//! with the triangle below it (y points down), a left edge is non-horizontal with the triangle's
//! interior on its +x side; a sample on an edge is covered only if every edge it lies on is top or left.

use super::{lane_positions, CoverageTxn};

fn orient(a: [i128; 2], b: [i128; 2], q: [i128; 2]) -> i128 {
    (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0])
}

/// Covered samples of each lane (before the sample mask), bits 0…n−1.
pub fn ideal_coverage(t: &CoverageTxn) -> [u32; 4] {
    let v: Vec<[i128; 2]> = t.tri.iter().map(|p| [p[0] as i128, p[1] as i128]).collect();
    let mut out = [0u32; 4];
    if orient(v[0], v[1], v[2]) == 0 {
        return out;
    }
    for (lane, bits) in out.iter_mut().enumerate() {
        let x = t.quad[0] as i128 + (lane % 2) as i128;
        let y = t.quad[1] as i128 + (lane / 2) as i128;
        for (s, d) in lane_positions(t, lane).iter().enumerate() {
            // Pixel centre (x + 1/2, y + 1/2) plus d/16, in 1/256 pixel.
            let p = [
                256 * x + 128 + 16 * d[0] as i128,
                256 * y + 128 + 16 * d[1] as i128,
            ];
            let covered = (0..3).all(|k| {
                let (a, b, c) = (v[k], v[(k + 1) % 3], v[(k + 2) % 3]);
                let inside = orient(a, b, c).signum();
                let side = orient(a, b, p).signum();
                if side != 0 {
                    return side == inside;
                }
                let top = a[1] == b[1] && c[1] > a[1];
                let left = a[1] != b[1] && (a[1] - b[1]).signum() == inside;
                top || left
            });
            if covered {
                *bits |= 1 << s;
            }
        }
    }
    out
}

/// The ideal reference as JSON: `{"covered": [4]}`, each lane's covered samples before the mask.
pub fn ideal_json(t: &CoverageTxn) -> Result<serde_json::Value, String> {
    Ok(serde_json::json!({ "covered": ideal_coverage(t) }))
}
