//! Property tests of the texture address unit: proptest-generated quads through the RTL against the
//! golden model with random back-pressure. Coordinates come special values first (±0, NaN, ±Inf,
//! denormals, the largest finite values), then exact texel and half-texel boundaries k/(2n) and
//! their neighbours one ulp away, negative and huge values; textures 1×1, odd and 32768 wide, every
//! wrap mode on both axes, both filters, (un)normalized, every dimension, trilinear levels, sparse
//! textures with non-resident tiles and TXQ.

use proptest::prelude::*;
use texpix_tb::scoreboard::{run_and_check, stalls};
use texpix_tb::texaddr::TexAddr;
use texpix_tb::texaddr::{
    golden, ideal, Dim, Form, Lane, Op, SamplerDesc, TexAddrTxn, TexDesc, Wrap, TILE_SHIFT,
};

fn wrap() -> impl Strategy<Value = Wrap> {
    prop::sample::select(Wrap::ALL.iter().map(|w| w.0).collect::<Vec<_>>())
}

fn size() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(1u32),
        Just(3),
        Just(32768),
        Just(1000),
        1u32..=64,
        1u32..=32768
    ]
}

/// An f32 bit pattern: specials, texel/half-texel boundaries of a size up to 64 (±1 ulp), values.
fn coord() -> impl Strategy<Value = u32> {
    prop_oneof![
        2 => prop::sample::select(vec![
            0u32, 0x8000_0000, 0x7FC0_0000, 0xFFC0_0001, 0x7F80_0000, 0xFF80_0000, 1, 0x807F_FFFF,
            0x7F7F_FFFF, 0xFF7F_FFFF, 0x3F80_0000, 0xBF80_0000, 0x3F00_0000, 0x4B80_0000,
        ]),
        4 => (-130i32..130, 1u32..=128, -1i32..=1).prop_map(|(k, n, d)| {
            let b = (k as f32 / (2 * n) as f32).to_bits();
            if b & 0x7FFF_FFFF == 0 { b } else { (b as i64 + d as i64) as u32 }
        }),
        2 => (-70_000.0f32..70_000.0).prop_map(f32::to_bits),
        2 => (-3.0f32..3.0).prop_map(f32::to_bits),
        1 => any::<u32>(),
    ]
}

fn lane() -> impl Strategy<Value = Lane> {
    (
        coord(),
        coord(),
        prop_oneof![Just(0u32), 0u32..70_000],
        (-8i32..=7, -8i32..=7),
    )
        .prop_map(|(s, t, layer, (du, dv))| Lane {
            s,
            t,
            layer: layer.min(65535),
            offset: [du, dv],
        })
}

fn dim() -> impl Strategy<Value = Dim> {
    prop_oneof![
        8 => prop::sample::select(vec![Dim::D1, Dim::D2, Dim::Array1D, Dim::Array2D]),
        1 => prop::sample::select(vec![Dim::D3, Dim::Cube]),
    ]
}

fn txn() -> impl Strategy<Value = TexAddrTxn> {
    let tex = (
        (
            size(),
            size(),
            prop_oneof![Just(1u32), 1u32..=8, Just(65536)],
        ),
        (1u32..=16, 0u32..=4, 0u64..(1 << 40), dim(), any::<bool>()),
    )
        .prop_map(
            |((width, height, layers), (levels, bl, base, dim, sparse))| TexDesc {
                width,
                height,
                layers,
                levels,
                bpp: 1 << bl,
                base,
                dim,
                sparse,
            },
        );
    let sampler = (wrap(), wrap(), any::<bool>(), prop::bool::weighted(0.2)).prop_map(
        |(wrap_s, wrap_t, linear, unnormalized)| SamplerDesc {
            wrap_s,
            wrap_t,
            linear,
            unnormalized,
        },
    );
    (
        tex,
        sampler,
        [lane(), lane(), lane(), lane()],
        (0u32..=15, prop::option::of((0u32..=15, 0u32..=255))),
        (
            prop::bool::weighted(0.08),
            any::<[i32; 4]>(),
            any::<[bool; 4]>(),
        ),
        prop::collection::vec((0u32..3, 0u64..4), 0..4),
    )
        .prop_map(
            |(tex, sampler, lanes, (level, mip), (txq, lambda, lod_warning), miss)| {
                let mut t = TexAddrTxn {
                    form: Form::Direct {
                        tex: tex.clone(),
                        nonresident: Vec::new(),
                        sampler,
                        lanes,
                    },
                    op: if txq { Op::Txq } else { Op::Sample },
                    level,
                    mip,
                    lambda,
                    lod_warning,
                };
                // Sparse: mark tiles non-resident that this quad's taps really touch.
                if tex.sparse {
                    let g = golden(&t);
                    let mut nonresident = Vec::new();
                    for (k, (lane, pick)) in miss.iter().enumerate() {
                        let taps = &g.lanes[(*lane as usize + k) % 4].taps;
                        if let Some(tap) = taps.iter().find(|x| !x.border) {
                            let _ = pick;
                            let start = ideal::level_start(&tex, tap.level) as u64;
                            let off = tap.addr.wrapping_sub(start);
                            nonresident.push((tap.level, (off & ((1 << 48) - 1)) >> TILE_SHIFT));
                        }
                    }
                    if let Form::Direct { nonresident: n, .. } = &mut t.form {
                        *n = nonresident;
                    }
                }
                t
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn rtl_equals_golden_on_generated_streams(
        vectors in prop::collection::vec(txn(), 1..50),
        stall in prop_oneof![Just(0u32), 100u32..800],
        seed in any::<u64>(),
    ) {
        run_and_check::<TexAddr>(&vectors, &stalls(stall, seed)).map_err(TestCaseError::fail)?;
    }
}

/// The generator reaches what it is meant to: border taps, failing lanes, every fault-free wrap.
#[test]
fn generator_hits_borders_failures_and_faults() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut border, mut fail, mut faults, mut lanes) = (0, 0, 0, 0);
    for _ in 0..2000 {
        let t = txn().new_tree(&mut runner).expect("tree").current();
        let g = golden(&t);
        faults += usize::from(g.fault != texpix_tb::texaddr::Fault::None);
        for l in &g.lanes {
            lanes += 1;
            border += usize::from(l.taps.iter().any(|x| x.border));
            fail += usize::from(l.fail);
        }
    }
    println!("2000 quads: {lanes} lanes, {border} with a border tap, {fail} failed, {faults} faulted quads");
    assert!(border > 100 && fail > 50 && faults > 50);
}
