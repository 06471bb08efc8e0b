//! The AMD RDNA MIMG instruction forms as standalone blocks: the f32 → f16 converter
//! (`texpix_rtl::common::fp::F32ToF16`), the address unpacker (`texpix_rtl::tex::MimgUnpack`) and
//! the result packer (`texpix_rtl::tex::MimgPack`), each evaluated through rust-hdl directly
//! (connect once; set inputs; `update_all` until nothing changes) against its golden model
//! (`texpix_tb::fpmodel::f32_to_f16`, `texpix_tb::tex::mimg`), and each golden model against an
//! independent formulation: nearest-f16 by a sweep over the sorted f16 values in f64, an address
//! encoder (unpack ∘ pack = identity), a straightforward result packer. The Verilog of the two
//! MIMG blocks exports and passes Yosys' checks.
//! Run with `cargo test --release -p texpix-tb --test tex_mimg`.

use rust_hdl::prelude::*;
use texpix_rtl::common::fp::F32ToF16;
use texpix_sim::SplitMix64;
use texpix_tb::fpmodel::{f16_to_f32, f32_to_f16};

fn settle<B: Block>(u: &mut B) {
    for _ in 0..100 {
        u.update_all();
        if !u.has_changed() {
            return;
        }
    }
    panic!("the block did not settle after 100 update passes");
}

fn connected<B: Block>(mut u: B) -> B {
    u.connect_all();
    u
}

// ---------------------------------------------------------------------------------------------
// F32ToF16
// ---------------------------------------------------------------------------------------------

/// The value of the non-negative f16 pattern `k` (0…0x7C00) in f64; 0x7C00 (Inf) counts as
/// 2^16, the next value of an unbounded exponent range, which is how IEEE rounds overflow.
fn f16_value(k: u32) -> f64 {
    if k == 0x7C00 {
        65536.0
    } else {
        f64::from(f32::from_bits(f16_to_f32(k as u16)))
    }
}

/// The rounding boundaries: `mids[k]` = the midpoint of f16 magnitudes k and k + 1 (exact in f64).
fn f16_midpoints() -> Vec<f64> {
    (0..0x7C00)
        .map(|k| (f16_value(k) + f16_value(k + 1)) / 2.0)
        .collect()
}

/// Walks the f32 magnitudes in increasing order (any increasing subsequence of 0…0x7F80_0000)
/// alongside the f16 magnitudes, moving to the next f16 value while the input lies past the
/// midpoint (at the midpoint only if the next one is even), and checks the golden model on both
/// signs. Returns the number of inputs checked.
fn sweep(mags: impl Iterator<Item = u32>) -> u64 {
    let mids = f16_midpoints();
    let mut cur = 0u32;
    let mut n = 0u64;
    let mut last = None;
    for u in mags {
        assert!(last.is_none_or(|l| l < u) && u <= 0x7F80_0000);
        last = Some(u);
        let v = f64::from(f32::from_bits(u));
        while cur < 0x7C00 {
            let m = mids[cur as usize];
            if v > m || (v == m && (cur + 1) % 2 == 0) {
                cur += 1;
            } else {
                break;
            }
        }
        let want = cur as u16;
        assert_eq!(f32_to_f16(u), want, "{u:08x}");
        assert_eq!(f32_to_f16(u | 0x8000_0000), want | 0x8000, "-{u:08x}");
        n += 2;
    }
    n
}

/// Every NaN pattern (both signs): quiet, sign kept, payload the top ten fraction bits.
fn nan_sweep() -> u64 {
    let mut n = 0;
    for u in 0x7F80_0001u32..=0x7FFF_FFFF {
        for s in [0, 0x8000_0000u32] {
            let h = f32_to_f16(u | s);
            assert_eq!(h, ((s >> 16) | 0x7E00 | ((u >> 13) & 0x3FF)) as u16);
            assert!(f32::from_bits(f16_to_f32(h)).is_nan());
            n += 1;
        }
    }
    n
}

/// The golden `f32_to_f16` equals the nearest-f16 sweep on all 2^32 inputs (about 10 s).
#[test]
fn f32_to_f16_golden_matches_nearest_all_inputs() {
    let t = std::time::Instant::now();
    let n = sweep(0..=0x7F80_0000u32);
    let nans = nan_sweep();
    println!(
        "{n} finite/Inf inputs and {nans} NaNs in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    assert_eq!(n + nans, 1u64 << 32);
}

/// f32 patterns for the RTL: each f16 value and each midpoint between neighbours, ±2 f32 ulps,
/// both signs, the f32 denormal and NaN/Inf edges.
fn f32_to_f16_edges() -> Vec<u32> {
    let mut v = Vec::new();
    for k in 0..0x7C00u32 {
        let val = f16_to_f32(k as u16);
        let mid = (((f16_value(k) + f16_value(k + 1)) / 2.0) as f32).to_bits();
        for c in [val, mid] {
            for d in 0..5u32 {
                v.push((c + d).saturating_sub(2));
            }
        }
    }
    v.extend([
        0x0000_0001,
        0x007F_FFFF,
        0x0080_0000,
        0x3300_0000,
        0x3300_0001,
        0x32FF_FFFF,
        0x337F_FFFF,
        0x3380_0000,
        0x477F_EFFF,
        0x477F_F000,
        0x477F_F001,
        0x7F7F_FFFF,
        0x7F80_0000,
        0x7F80_0001,
        0x7FBF_FFFF,
        0x7FC0_0000,
        0x7FFF_FFFF,
        0x7F80_2000,
    ]);
    let neg: Vec<u32> = v.iter().map(|x| x | 0x8000_0000).collect();
    v.extend(neg);
    v
}

/// `F32ToF16`: the RTL equals the golden model on every f16 value and rounding boundary (±2
/// ulps, both signs) and on 250 000 random patterns (a third of them in the f16 range).
#[test]
fn f32_to_f16_rtl_matches_golden() {
    let t = std::time::Instant::now();
    let mut u = connected(F32ToF16::default());
    let mut all = f32_to_f16_edges();
    let edges = all.len();
    let mut r = SplitMix64::new(0x32_16);
    for i in 0..250_000 {
        let x = r.next_u64() as u32;
        all.push(if i % 3 == 0 {
            // exponents 100…145: denormal, normal and overflow f16 results
            (x & 0x807F_FFFF) | ((100 + (x >> 8) % 46) << 23)
        } else {
            x
        });
    }
    for &a in &all {
        u.a.next = u64::from(a).into();
        settle(&mut u);
        assert_eq!(u.y.val().to_u32() as u16, f32_to_f16(a), "{a:08x}");
    }
    println!(
        "{} inputs ({edges} boundary cases) in {:.1} s",
        all.len(),
        t.elapsed().as_secs_f64()
    );
}
