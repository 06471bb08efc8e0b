//! The texture unit's datapath blocks (`texpix_rtl::tex`) evaluated through rust-hdl directly
//! (connect once; set inputs; `update_all` until nothing changes) against the golden model's
//! per-texel arithmetic (`texpix_tb::tex::texel`): the converter on every format (every 8- and
//! 16-bit pattern where the format has no more, edge and random patterns otherwise), the filter's
//! weighted sum on random and edge-case taps and weights, the depth compare on every function, and
//! the anisotropic probe blocks (step ROM, sum, mean) on every entry and random probe sequences.
//! Run with `cargo test --release -p texpix-tb --test tex_blocks`.

use rust_hdl::prelude::*;
use texpix_rtl::common::Fix8ToF32;
use texpix_rtl::tex::{DepthCompare, ProbeAccum, ProbeMean, ProbeStepRom, TapBlend, TexelConvert};
use texpix_sim::SplitMix64;
use texpix_tb::tex::texel::{self, Compare, Format};
use texpix_tb::tex::{probe_step, ProbeAcc};

/// f32 edge values for the blend and probe tests: ±0, ±Inf, NaN, ±largest finite, the smallest
/// and largest denormal, the smallest normal, 1.0.
const SPECIALS: [u32; 11] = [
    0,
    0x8000_0000,
    0x7F80_0000,
    0xFF80_0000,
    0x7FC0_0000,
    0x7F7F_FFFF,
    0xFF7F_FFFF,
    0x0000_0001,
    0x807F_FFFF,
    0x0080_0000,
    0x3F80_0000,
];

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

fn convert_rtl(u: &mut TexelConvert, fmt: Format, raw: u128) -> [u32; 4] {
    u.raw_lo.next = (raw as u64).into();
    u.raw_hi.next = ((raw >> 64) as u64).into();
    u.fmt.next = (fmt as u64).into();
    settle(u);
    [
        u.r.val().to_u32(),
        u.g.val().to_u32(),
        u.b.val().to_u32(),
        u.a.val().to_u32(),
    ]
}

/// Edge-value texel patterns: each 8/16/32-bit special repeated over 16 bytes.
fn edge_patterns() -> Vec<u128> {
    let mut v = Vec::new();
    for x in [
        0u32,
        0xFFFF_FFFF,
        0x8000_0000,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0001,
        0x0000_0001,
        0x807F_FFFF,
        0x0080_0000,
        0x7F7F_FFFF,
        0x3F80_0000,
    ] {
        v.push(u128::from(x) * 0x0000_0001_0000_0001_0000_0001_0000_0001);
    }
    for h in [
        0u16, 0x8000, 0x7C00, 0xFC00, 0x7E01, 0x0001, 0x83FF, 0x0400, 0x7BFF, 0x3C00,
    ] {
        v.push(u128::from(h) * 0x0001_0001_0001_0001_0001_0001_0001_0001);
    }
    for b in [0u8, 0x7F, 0x80, 0x81, 0xFF, 0x01] {
        v.push(u128::from(b) * 0x0101_0101_0101_0101_0101_0101_0101_0101);
    }
    v
}

#[test]
fn converter_equals_golden_on_every_format() {
    let mut u = connected(TexelConvert::default());
    let mut rng = SplitMix64::new(11);
    let mut checked = 0usize;
    for &(fmt, name, bpp) in &Format::ALL {
        let mut raws: Vec<u128> = edge_patterns();
        if bpp <= 2 {
            raws.extend(
                (0..1u128 << (8 * bpp)).map(|x| x | 0xDEAD_0000_0000_0000_0000_0000_0000_0000),
            );
        }
        for _ in 0..20_000 {
            raws.push(u128::from(rng.next_u64()) | u128::from(rng.next_u64()) << 64);
        }
        for raw in raws {
            let mask = if bpp == 16 {
                u128::MAX
            } else {
                (1u128 << (8 * bpp)) - 1
            };
            let got = convert_rtl(&mut u, fmt, raw);
            let want = texel::convert(fmt, raw & mask);
            assert_eq!(got, want, "{name} raw {raw:#034x}");
            checked += 1;
        }
    }
    println!("{checked} texels converted, all equal");
}

fn blend_rtl(u: &mut TapBlend, taps: &[(u32, u32)], s: u32) -> u32 {
    for k in 0..8 {
        let (t, w) = taps.get(k).copied().unwrap_or((0, 0));
        u.tap[k].next = u64::from(t).into();
        u.w[k].next = u64::from(w).into();
    }
    u.s.next = u64::from(s).into();
    settle(u);
    u.y.val().to_u32()
}

/// Weights of a filter configuration: `axes` linear axes (0…2) and a trilinear blend.
fn weights(rng: &mut SplitMix64, axes: u32, tri: bool) -> (Vec<u32>, u32) {
    let mut w = vec![1u32];
    for _ in 0..axes {
        let a = (rng.next_u64() % 257) as u32;
        let a = a.min(255);
        w = w.iter().flat_map(|&x| [x * (256 - a), x * a]).collect();
    }
    if tri {
        let f = (rng.next_u64() % 256) as u32;
        w = w
            .iter()
            .map(|&x| x * (256 - f))
            .chain(w.iter().map(|&x| x * f))
            .collect();
    }
    (w, 8 * (axes + u32::from(tri)))
}

#[test]
fn blend_equals_golden() {
    let mut u = connected(TapBlend::default());
    let mut rng = SplitMix64::new(5);
    let specials = SPECIALS;
    for n in 0..200_000 {
        let axes = (rng.next_u64() % 3) as u32;
        let tri = rng.next_u64().is_multiple_of(2);
        let (w, s) = weights(&mut rng, axes, tri);
        let base_exp = (rng.next_u64() % 254 + 1) as u32;
        let taps: Vec<(u32, u32)> = w
            .iter()
            .map(|&wk| {
                let t = match rng.next_u64() % 8 {
                    0 => specials[(rng.next_u64() % specials.len() as u64) as usize],
                    1..=4 => {
                        // Close exponents (cancellation, carries).
                        let e = (base_exp + (rng.next_u64() % 4) as u32).min(254);
                        (rng.next_u64() as u32 & 0x807F_FFFF) | e << 23
                    }
                    _ => texel::flush(rng.next_u64() as u32),
                };
                (texel::flush(t), wk)
            })
            .collect();
        let got = blend_rtl(&mut u, &taps, s);
        let want = texel::blend(&taps, s);
        assert_eq!(
            got, want,
            "case {n}: taps {taps:x?}, S = {s}: rtl {got:#x}, golden {want:#x}"
        );
    }
}

#[test]
fn depth_compare_equals_golden() {
    let mut u = connected(DepthCompare::default());
    let mut rng = SplitMix64::new(9);
    let vals = [
        0u32,
        0x8000_0000,
        0x3F80_0000,
        0x3F00_0000,
        0xBF80_0000,
        0x7FC0_0000,
        0x7F80_0000,
        0xFF80_0000,
        0x0000_0001,
        0x3F80_0001,
    ];
    for n in 0..50_000 {
        let func = (rng.next_u64() % 8) as u32;
        let fmt = if rng.next_u64().is_multiple_of(2) {
            Format::D16
        } else {
            Format::D32f
        };
        let pick = |r: &mut SplitMix64| {
            if r.next_u64().is_multiple_of(2) {
                vals[(r.next_u64() % vals.len() as u64) as usize]
            } else {
                ((r.next_u64() % 1000) as f32 / 800.0 - 0.1).to_bits()
            }
        };
        let reference = pick(&mut rng);
        let z: [u32; 8] = std::array::from_fn(|_| texel::flush(pick(&mut rng)));
        u.reference.next = u64::from(reference).into();
        u.unorm.next = fmt.is_unorm();
        u.func.next = u64::from(func).into();
        for (port, &zk) in u.z.iter_mut().zip(&z) {
            port.next = u64::from(zk).into();
        }
        settle(&mut u);
        let r = texel::compare_ref(fmt, reference);
        for (k, &zk) in z.iter().enumerate() {
            let want = texel::compare_tap(Compare::from_code(func), r, zk);
            assert_eq!(
                u.pass[k].val().to_u32(),
                want,
                "case {n}: func {func}, ref {reference:#x}, z {:#x}",
                zk
            );
        }
    }
}

#[test]
fn probe_step_rom_equals_golden_on_every_entry() {
    let mut u = connected(ProbeStepRom::default());
    for n in 1..=16u32 {
        for p in 0..16u32 {
            u.a.next = u64::from((n - 1) << 4 | p).into();
            settle(&mut u);
            let want = if p < n { probe_step(n, p) } else { 0 };
            assert_eq!(u.y.val().to_u32(), want, "N = {n}, p = {p}");
        }
    }
}

/// One RTL sum step: the state (e, acc, {nan, +inf, −inf}) after adding `x`.
fn accum_rtl(u: &mut ProbeAccum, s: ProbeAcc, x: u32, first: bool) -> ProbeAcc {
    u.x.next = u64::from(x).into();
    u.first.next = first;
    u.e_in.next = u64::from(s.e).into();
    u.acc_in.next = ((s.acc as u64) & ((1 << 34) - 1)).into();
    u.nan_in.next = s.nan;
    u.pinf_in.next = s.pinf;
    u.ninf_in.next = s.ninf;
    settle(u);
    let a = u.acc.val().to_u64();
    ProbeAcc {
        e: u.e.val().to_u32(),
        // 34-bit two's complement.
        acc: ((a << 30) as i64) >> 30,
        nan: u.nan.val(),
        pinf: u.pinf.val(),
        ninf: u.ninf.val(),
    }
}

#[test]
fn probe_sum_and_mean_equal_golden() {
    let mut acc = connected(ProbeAccum::default());
    let mut mean = connected(ProbeMean::default());
    let mut rng = SplitMix64::new(77);
    let specials = SPECIALS;
    let mut sums = 0u64;
    for case in 0..50_000 {
        let n = (rng.next_u64() % 15 + 2) as u32;
        let base = (rng.next_u64() % 254 + 1) as u32;
        let constant = rng.next_u64().is_multiple_of(8);
        let c = rng.next_u64() as u32;
        // A garbage state before `first`: the step must ignore it.
        let mut golden = ProbeAcc::default();
        let mut rtl = ProbeAcc {
            e: 99,
            acc: -12345,
            nan: true,
            pinf: false,
            ninf: true,
        };
        for p in 0..n {
            let x = if constant {
                c
            } else {
                match rng.next_u64() % 8 {
                    0 => specials[(rng.next_u64() % specials.len() as u64) as usize],
                    1..=4 => {
                        let e = (base + (rng.next_u64() % 6) as u32).min(254);
                        (rng.next_u64() as u32 & 0x807F_FFFF) | e << 23
                    }
                    _ => rng.next_u64() as u32,
                }
            };
            golden = golden.accumulate(x);
            rtl = accum_rtl(&mut acc, rtl, x, p == 0);
            assert_eq!(rtl, golden, "case {case}, probe {p} of {n}, x {x:#x}");
            sums += 1;
        }
        mean.e.next = u64::from(rtl.e).into();
        mean.acc.next = ((rtl.acc as u64) & ((1 << 34) - 1)).into();
        mean.nan.next = rtl.nan;
        mean.pinf.next = rtl.pinf;
        mean.ninf.next = rtl.ninf;
        mean.n.next = u64::from(n).into();
        settle(&mut mean);
        let want = golden.mean(n);
        assert_eq!(
            mean.y.val().to_u32(),
            want,
            "case {case}: N = {n}, {golden:?}"
        );
        if constant && c & 0x7F80_0000 != 0x7F80_0000 {
            // A constant (not NaN/Inf) averages to itself (a −0 sum reads +0).
            assert!(
                want == c || (c == 0x8000_0000 && want == 0),
                "constant {c:#x} → {want:#x}"
            );
        }
    }
    println!("probe sums: {sums} steps, 50 000 means, RTL = golden");
}

/// `lodq`'s converter: every value of a = −(2^23 − 1) … 2^23 − 1 in steps of 97 plus every
/// power of two, its neighbours and both signs, against f64 arithmetic (a / 256 is exact in f32).
#[test]
fn fix8_to_f32_is_exact() {
    let mut u = connected(Fix8ToF32::default());
    let reference = |a: i32| ((f64::from(a) / 256.0) as f32).to_bits();
    let mut values: Vec<i32> = (-(1 << 23) + 1..1 << 23).step_by(97).collect();
    for k in 0..23 {
        for d in [-1, 0, 1] {
            values.push((1 << k) + d);
            values.push(-((1 << k) + d));
        }
    }
    values.extend([0, 1, -1, (1 << 23) - 1, -(1 << 23) + 1]);
    for &a in &values {
        u.a.next = (a as u32 as u64 & 0xFF_FFFF).into();
        settle(&mut u);
        assert_eq!(u.y.val().to_u32(), reference(a), "a = {a}");
    }
    assert!(values.len() > 170_000);
}
