//! Derivative / LOD calculator (docs/units/lod.md). The algorithm, bit for bit, is stated in
//! docs/units/lod.md §3 and in the golden model's documentation (`texpix_tb::lod`); [`LodUnit`] is
//! its pipelined hardware: one quad per clock, latency 5.

pub mod finish;
pub mod lane;
pub mod unit;

pub use finish::{LodFinish, UNCLAMPED_NAN};
pub use lane::LodLane;
pub use unit::LodUnit;

/// λ fraction bits inside the unit: log2(ρ²) with 16 fraction bits is λ with 17.
pub const LAMBDA_FRAC: u32 = 17;

/// `round(log2(k)·2^17)` for k = 1…16 and 0 for k = 0: the anisotropy thresholds, shared by the
/// RTL's constant table and the golden model. Entry 0 is the threshold [`LodFinish`] selects for
/// `in_aniso` 0 and 17…31; being 0 it keeps those isotropic (docs/units/lod.md §9). Checked entry
/// by entry against log2 in `tb/tests/lod_golden.rs`.
pub fn aniso_log2_table() -> [i32; 17] {
    let mut t = [0i32; 17];
    for (k, e) in t.iter_mut().enumerate().skip(1) {
        *e = ((k as f64).log2() * f64::from(1u32 << LAMBDA_FRAC)).round() as i32;
    }
    t
}
