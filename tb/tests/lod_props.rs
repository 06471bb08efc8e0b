//! Property tests of the LOD unit: proptest-generated quads (special f32 values first: ±0, NaN,
//! ±Inf, denormals, maxima, exact powers of two; sizes 1, odd and 32768; every mode, filter and
//! anisotropy) through the RTL against the golden model, and the golden model against the ideal
//! reference within the 2/256 of docs/units/lod.md §7.

use proptest::prelude::*;
use texpix_tb::lod::Lod;
use texpix_tb::lod::{golden, ideal, LodMode, LodSampler, LodTex, LodTxn, MipFilter};
use texpix_tb::scoreboard::{run_and_check, stalls};

fn f32_value() -> impl Strategy<Value = u32> {
    prop_oneof![
        2 => prop::sample::select(vec![
            0u32, 0x8000_0000, 0x7FC0_0000, 0x7F80_0000, 0xFF80_0000, 1, 0x007F_FFFF,
            0x8000_0001, 0x0080_0000, 0x7F7F_FFFF, 0xFF7F_FFFF, 0x3F80_0000, 0xBF80_0000,
        ]),
        // Exact powers of two: λ lands on integer boundaries.
        2 => (-40i32..40, any::<bool>()).prop_map(|(e, neg)| {
            let v = 2f32.powi(e);
            (if neg { -v } else { v }).to_bits()
        }),
        3 => (-30.0f32..30.0).prop_map(|e| 2f32.powf(e).to_bits()),
        1 => any::<u32>(),
    ]
}

fn pair() -> impl Strategy<Value = [u32; 2]> {
    [f32_value(), f32_value()]
}

fn quad() -> impl Strategy<Value = [u32; 4]> {
    [f32_value(), f32_value(), f32_value(), f32_value()]
}

fn size() -> impl Strategy<Value = u32> {
    prop_oneof![Just(1u32), Just(3), Just(32767), Just(32768), 1u32..=32768]
}

fn u48() -> impl Strategy<Value = u32> {
    prop_oneof![Just(0u32), Just(4095), 0u32..4096]
}

fn txn() -> impl Strategy<Value = LodTxn> {
    let tex = (size(), size(), 1u32..=16, prop_oneof![Just(0u32), 0u32..16]).prop_map(
        |(width, height, levels, base_level)| LodTex {
            width,
            height,
            levels,
            base_level,
        },
    );
    let sampler = (
        prop_oneof![Just(0i32), Just(-4096), Just(4096), -4096i32..=4096],
        u48(),
        u48(),
        prop::sample::select(vec![MipFilter::None, MipFilter::Nearest, MipFilter::Linear]),
        prop_oneof![Just(1u32), Just(16), 1u32..=16],
    )
        .prop_map(
            |(bias, min_lod, max_lod, mip_filter, max_aniso)| LodSampler {
                bias,
                min_lod,
                max_lod,
                mip_filter,
                max_aniso,
            },
        );
    let mode = prop::sample::select(vec![
        LodMode::Implicit,
        LodMode::Grad,
        LodMode::Lod,
        LodMode::Bias,
        LodMode::Lz,
    ]);
    (
        tex,
        sampler,
        mode,
        [pair(), pair(), pair(), pair()],
        [quad(), quad(), quad(), quad()],
        (quad(), quad()),
        (u48(), u48(), any::<bool>(), any::<bool>()),
    )
        .prop_map(
            |(tex, sampler, mode, coords, grad, (lod, bias), (lod_clamp, warn, fine, maxabs))| {
                LodTxn {
                    tex,
                    sampler,
                    mode,
                    coords,
                    grad,
                    lod,
                    bias,
                    lod_clamp,
                    min_lod_warning: warn,
                    fine,
                    maxabs,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn rtl_equals_golden_on_generated_streams(
        vectors in prop::collection::vec(txn(), 1..40),
        stall in prop_oneof![Just(0u32), 100u32..800],
        seed in any::<u64>(),
    ) {
        let cfg = stalls(stall, seed);
        run_and_check::<Lod>(&vectors, &cfg).map_err(TestCaseError::fail)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20000, ..ProptestConfig::default() })]

    #[test]
    fn golden_lambda_is_within_two_256ths_of_ideal(t in txn()) {
        let (g, i) = (golden(&t), ideal(&t));
        for lane in 0..4 {
            let err = (g[lane].lambda as f64 / 256.0 - i[lane].lambda).abs();
            prop_assert!(err <= 2.0 / 256.0, "lane {}: λ {} vs ideal {} for {:?}", lane, g[lane].lambda, i[lane].lambda, t);
        }
    }
}
