//! Texture address unit RTL against the golden model: random and edge-case quads (the stimulus puts
//! edge cases first), in order, with and without random back-pressure on both streams and random
//! words on the side ports whenever they are not read; the conformance examples; the decoder's
//! invalid cases fetching nothing; latency and throughput; the level layout, the remainder unit,
//! one coordinate axis and one tap-address block alone at every cut count. At least 5 000 quads run in CI; the
//! 100 000-quad regression is opt-in:
//! `cargo test --release -p texpix-tb --test texaddr_rtl -- --ignored --nocapture`.

use texpix_sim::settle_block;
use texpix_tb::scoreboard::{check, stalls};
use texpix_tb::texaddr::dut::{run_with_stats, PortStats};
use texpix_tb::texaddr::stim::TexAddrStim;
use texpix_tb::texaddr::TexAddr;
use texpix_tb::texaddr::{golden, parse_line, Fault, TexAddrTxn};
use texpix_tb::unit::Unit;
use texpix_tb::vectors::read_jsonl;

/// Runs and checks `vectors` (results against the golden model; in the driver, every side-port
/// read against the golden decoder, one read per quad, none in the drain after the last result),
/// returning what the side ports saw and the texel requests (set `req` bits) of the results.
fn compare(vectors: &[TexAddrTxn], seed: u64, stall: u32) -> (PortStats, usize) {
    let mut sim = TexAddr::new_sim().expect("reset");
    let (results, stats, ports) = run_with_stats(&mut sim, vectors, &stalls(stall, seed))
        .unwrap_or_else(|e| panic!("seed {seed}, stall {stall}‰: {e}"));
    if let Err(e) = check::<TexAddr>(vectors, &results) {
        panic!("seed {seed}, stall {stall}‰: {e}");
    }
    if stall > 0 && vectors.len() > 20 {
        assert!(
            stats.in_stall_cycles + stats.out_stall_cycles > 0,
            "back-pressure never exercised"
        );
    }
    let requests = results
        .iter()
        .flat_map(|r| &r.out.lanes)
        .map(|l| l.req.count_ones() as usize)
        .sum();
    (ports, requests)
}

/// `n` random vectors without the edge-case prefix.
fn random_only(seed: u64, n: usize) -> Vec<TexAddrTxn> {
    let mut s = TexAddrStim::random_only(seed);
    (0..n).map(|_| s.txn()).collect()
}

#[test]
fn rtl_equals_golden_without_back_pressure() {
    // The stimulus' edge cases (about 1 500) first, then random quads.
    let v = TexAddr::random(1, 3000);
    let (p, _) = compare(&v, 1, 0);
    println!("3000 quads, no back-pressure: {p:?}");
    assert!(p.res_reads > 0, "no sparse quad read the residency map");
}

#[test]
fn rtl_equals_golden_with_random_back_pressure() {
    let (p, _) = compare(&TexAddr::random(4, 1500), 4, 400);
    println!("1500 edge-case quads, 400‰ stalls: {p:?}");
    for (seed, stall) in [(2, 300), (3, 700)] {
        let (p, _) = compare(&random_only(seed, 1500), seed, stall);
        println!("1500 random quads, {stall}‰ stalls: {p:?}");
    }
}

#[test]
#[ignore = "opt-in regression: 100 000 quads"]
fn regression_100k_with_and_without_back_pressure() {
    let mut total = PortStats::default();
    for seed in 0..5 {
        for (s, stall) in [(100 + seed, 0), (200 + seed, 400)] {
            let v = if seed == 0 {
                TexAddr::random(s, 10_000)
            } else {
                random_only(s, 10_000)
            };
            let (p, _) = compare(&v, s, stall);
            total.desc_reads += p.desc_reads;
            total.res_reads += p.res_reads;
        }
    }
    println!("100 000 quads: {total:?}");
}

#[test]
fn conformance_examples_match_golden() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let vectors = read_jsonl(&dir.join("texaddr.jsonl"), parse_line).expect("vectors");
    compare(&vectors, 9, 250);
}

/// Quads the decoder rejects fetch no descriptor and request no texel; the rest fetch once.
#[test]
fn invalid_quads_fetch_nothing() {
    let all = TexAddr::random(11, 3000);
    let bad: Vec<TexAddrTxn> = all
        .iter()
        .filter(|t| golden(t).fault.before_fetch())
        .cloned()
        .collect();
    let late: Vec<TexAddrTxn> = all
        .iter()
        .filter(|t| {
            let f = golden(t).fault;
            f != Fault::None && !f.before_fetch()
        })
        .cloned()
        .collect();
    assert!(bad.len() >= 20 && late.len() >= 20, "too few faults");
    // The results equal the golden model's (`compare` checks that); that a rejected quad requests
    // no texel is a property of both, checked here.
    let (p, requests) = compare(&bad, 11, 200);
    assert_eq!(p.desc_reads, 0);
    assert_eq!(requests, 0);
    let (p, requests) = compare(&late, 12, 200);
    assert_eq!(
        p.desc_reads,
        late.len(),
        "unbound/bad/mismatch quads fetch their descriptors"
    );
    assert_eq!(requests, 0);
    println!(
        "{} quads rejected by the decoder: 0 fetches; {} rejected after the fetch: {} fetches, 0 texel requests",
        bad.len(),
        late.len(),
        p.desc_reads
    );
}

#[test]
fn n_quads_take_n_plus_latency_cycles_without_back_pressure() {
    let vectors = TexAddr::random(4, 300);
    let mut sim = TexAddr::new_sim().expect("reset");
    let (results, _, _) = run_with_stats(&mut sim, &vectors, &stalls(0, 1)).expect("run");
    check::<TexAddr>(&vectors, &results).expect("golden");
    // Accepted on edge c, registered in stages 1…3, taken by the sink on edge c + 3.
    const LATENCY: u64 = 3;
    for (k, r) in results.iter().enumerate() {
        assert_eq!(r.cycle_out - r.cycle_in, LATENCY, "vector {k}");
        assert_eq!(
            r.cycle_in,
            results[0].cycle_in + k as u64,
            "one quad accepted per clock"
        );
    }
}

/// One level-layout input: width, height, layers, halve, log2 bytes per texel, base, l0, l1.
type LayoutIn = (u64, u64, u64, bool, u64, u64, u64, u64);

/// The first texel of level `l`, from the definition: `base` plus each lower level's volume
/// (w_k·h_k·bpp·layers_k, modulo 2^48 like the 48-bit product) rounded up to 256 bytes, summed
/// one level after another modulo 2^48, the sizes halved per level with a floor of 1.
fn layout_start(c: LayoutIn, l: u64) -> u64 {
    let (w, h, d, halve, bpp, base, _, _) = c;
    let m48 = (1u64 << 48) - 1;
    let (mut wk, mut hk, mut dk, mut s) = (w, h, d, base);
    for _ in 0..l {
        let vol = ((wk * hk) << bpp).wrapping_mul(dk) & m48;
        s = (s + (((vol + 255) & m48) & !255)) & m48;
        wk = (wk >> 1).max(1);
        hk = (hk >> 1).max(1);
        if halve {
            dk = (dk >> 1).max(1);
        }
    }
    s
}

/// `LevelOnes` on every size 1…65 536 and 0: bit k − 1 of `ones` set exactly when size >> k is 0.
#[test]
fn level_ones_flags_exactly_the_levels_clamped_to_one() {
    use rust_hdl::prelude::*;
    use texpix_rtl::texaddr::LevelOnes;
    let mut u = LevelOnes::default();
    u.connect_all();
    for size in 0..=65536u64 {
        u.size.next = size.into();
        settle_block(&mut u);
        let got = u.ones.val().to_u64();
        for k in 1..16 {
            assert_eq!(
                (got >> (k - 1)) & 1 == 1,
                size >> k == 0,
                "size {size}, level {k}"
            );
        }
    }
}

/// `LevelLayout` alone at every cut count, clocked one input per clock: `start0`/`start1` equal
/// [`layout_start`] exactly `cuts` clocks after their input, the layer sizes equal theirs
/// `slice_stages` (1 from two cuts, 4 from eight) clocks after it, and the level sizes, layers and
/// pitches equal their definitions `size_stages` (2 from eight cuts, else 0) clocks after it; on edge cases (1×1 and
/// 32768×32768 textures, 65 536 layers, halving depths, 16 bytes per texel, a base just below
/// 2^48 so the sums wrap, every level) and random inputs.
#[test]
fn level_layout_equals_its_definition_at_every_cut_count() {
    use rust_hdl::prelude::*;
    use std::collections::VecDeque;
    use texpix_rtl::texaddr::LevelLayout;
    let mut cases: Vec<LayoutIn> = Vec::new();
    for l in 0..16 {
        cases.push((32768, 32768, 65536, false, 4, (1 << 48) - 5, l, 15 - l));
        cases.push((32768, 1, 65536, true, 4, 0, l, l));
        cases.push((1, 1, 1, false, 0, 0x1234, l, 0));
        cases.push((3, 32768, 5, true, 2, 255, 15, l));
    }
    let mut rng = texpix_sim::SplitMix64::new(41);
    for _ in 0..400 {
        let mut r = |n: u64| rng.next_u64() % n;
        let c = (
            1 + r(32768),
            1 + r(32768),
            1 + r(65536),
            r(2) == 1,
            r(5),
            r(1 << 48),
            r(16),
            r(16),
        );
        cases.push(c);
    }
    for cuts in 0..=LevelLayout::MAX_CUTS {
        let mut u = LevelLayout::new(cuts);
        u.connect_all();
        assert_eq!(u.stages(), cuts);
        // Cut P from two cuts; from eight the area products' DSP registers (two stages) and cuts
        // S and S2 (the level sizes' selects) before the layer sizes' products (cuts F and R,
        // nine and ten, are on the first-texel path only).
        let slice_stages = match cuts {
            0 | 1 => 0,
            8..=10 => 4,
            _ => 1,
        };
        assert_eq!(u.slice_stages(), slice_stages, "cuts {cuts}");
        let size_stages = if cuts >= 8 { 2 } else { 0 };
        assert_eq!(u.size_stages(), size_stages, "cuts {cuts}");
        u.adv_next.next = true;
        let mut want: VecDeque<(LayoutIn, u64, u64)> = VecDeque::new();
        let mut slices: VecDeque<(LayoutIn, u64, u64)> = VecDeque::new();
        let mut sizes: VecDeque<(LayoutIn, [u64; 5], [u64; 2])> = VecDeque::new();
        for &c in &cases {
            let (w, h, d, halve, bpp, base, l0, l1) = c;
            u.width.next = w.into();
            u.height.next = h.into();
            u.layers.next = d.into();
            u.halve.next = halve;
            u.bpp_log2.next = bpp.into();
            u.base.next = base.into();
            u.l0.next = l0.into();
            u.l1.next = l1.into();
            let ones = |x: u64| (1..16).fold(0u64, |m, k| m | (u64::from(x >> k == 0) << (k - 1)));
            u.ones_w.next = ones(w).into();
            u.ones_h.next = ones(h).into();
            u.ones_d.next = ones(d).into();
            settle_block(&mut u);
            let size = |x: u64, l: u64| (x >> l).max(1);
            let d0 = if halve { size(d, l0) } else { d };
            let level = [size(w, l0), size(h, l0), size(w, l1), size(h, l1), d0];
            sizes.push_back((c, level, [size(w, l0) << bpp, size(w, l1) << bpp]));
            if sizes.len() > size_stages {
                let (c, level, pitch) = sizes.pop_front().expect("queued");
                let what = format!("cuts {cuts}, input {c:?}");
                let got = [&u.w0, &u.h0, &u.w1, &u.h1].map(|s| s.val().to_u64());
                assert_eq!(got, level[..4], "w0/h0/w1/h1, {what}");
                assert_eq!(u.d0.val().to_u64(), level[4], "d0, {what}");
                let got = [u.pitch0.val().to_u64(), u.pitch1.val().to_u64()];
                assert_eq!(got, pitch, "pitch0/pitch1, {what}");
            }
            let slice = |l: u64| (size(w, l) * size(h, l)) << bpp;
            slices.push_back((c, slice(l0), slice(l1)));
            if slices.len() > u.slice_stages() {
                let (c, s0, s1) = slices.pop_front().expect("queued");
                let got = (u.slice0.val().to_u64(), u.slice1.val().to_u64());
                assert_eq!(got, (s0, s1), "slice0/slice1, cuts {cuts}, input {c:?}");
            }
            want.push_back((c, layout_start(c, l0), layout_start(c, l1)));
            if want.len() > cuts {
                let (c, s0, s1) = want.pop_front().expect("queued");
                let got = (u.start0.val().to_u64(), u.start1.val().to_u64());
                assert_eq!(got, (s0, s1), "start0/start1, cuts {cuts}, input {c:?}");
            }
            u.clock.next = Clock::from(true);
            settle_block(&mut u);
            u.clock.next = Clock::from(false);
            settle_block(&mut u);
        }
    }
}

/// `ModP` alone without registers, with one at each boundary, and with all nine, one input per
/// clock: r = i mod pn (Euclidean, so in [0, pn)) and r1 = (i + 1) mod pn, exactly as many clocks after
/// the input as it has registers, against Rust's `rem_euclid`;
/// the dividend at 0, ±1, ±(2^23 − 1), around multiples of pn, and random; pn at 1, 2, 3, 2^15,
/// 65 535, 65 536 and random.
#[test]
fn modp_equals_rem_euclid_with_registers_at_every_boundary() {
    use rust_hdl::prelude::*;
    use std::collections::VecDeque;
    use texpix_rtl::texaddr::{ModP, MODP_BOUNDARIES};
    let lim: i64 = (1 << 23) - 1;
    let mut cases: Vec<(i64, i64)> = Vec::new();
    let mut rng = texpix_sim::SplitMix64::new(17);
    for pn in [1i64, 2, 3, 1 << 15, 65535, 65536] {
        for i in [
            0,
            1,
            -1,
            lim,
            -lim,
            pn,
            -pn,
            pn - 1,
            1 - pn,
            pn + 1,
            -pn - 1,
            7 * pn,
            -7 * pn,
        ] {
            cases.push((i.clamp(-lim, lim), pn));
        }
    }
    for _ in 0..600 {
        let pn = 1 + (rng.next_u64() % 65536) as i64;
        let i = (rng.next_u64() % (2 * lim as u64 + 1)) as i64 - lim;
        cases.push((i, pn));
        let k = (rng.next_u64() % 200) as i64 - 100;
        cases.push((
            (k * pn + (rng.next_u64() % 3) as i64 - 1).clamp(-lim, lim),
            pn,
        ));
    }
    let mut plans: Vec<Vec<usize>> = vec![vec![], (0..MODP_BOUNDARIES).collect()];
    plans.extend((0..MODP_BOUNDARIES).map(|b| vec![b]));
    for at in &plans {
        let cuts = at.len();
        let mut u = ModP::new(at);
        u.connect_all();
        assert_eq!(u.stages(), cuts, "stages with registers at {at:?}");
        u.en.next = true;
        let mut want: VecDeque<(i64, i64)> = VecDeque::new();
        for &(i, pn) in &cases {
            u.i.next = (i as u64 & 0xff_ffff).into();
            u.pn.next = (pn as u64).into();
            settle_block(&mut u);
            want.push_back((i, pn));
            if want.len() > cuts {
                let (i, pn) = want.pop_front().expect("queued");
                let got = (u.r.val().to_u64() as i64, u.r1.val().to_u64() as i64);
                assert_eq!(
                    got,
                    (i.rem_euclid(pn), (i + 1).rem_euclid(pn)),
                    "registers {at:?}, i {i}, pn {pn}"
                );
            }
            u.clock.next = Clock::from(true);
            settle_block(&mut u);
            u.clock.next = Clock::from(false);
            settle_block(&mut u);
        }
    }
}

/// One `Axis` (coordinate → texel pair, borders, weight) at every cut count, one input per
/// clock, against the golden model's `axis` exactly `cuts` clocks later; every wrap mode,
/// nearest and linear, normalized and unnormalized, offsets −8…7, level sizes 1…32768, and
/// coordinates at the clamp's boundary (one ulp either side of 256·n·|s| = 2^30 and 2^31), every
/// exponent, ±0, ±Inf, NaN, denormals, halves and large magnitudes before random ones.
#[test]
fn axis_equals_golden_at_every_cut_count() {
    use rust_hdl::prelude::*;
    use std::collections::VecDeque;
    use texpix_rtl::texaddr::Axis;
    use texpix_tb::texaddr::{axis, Wrap};
    type AxisIn = (u32, u32, u32, bool, bool, i32);
    let specials: [u32; 14] = [
        0,
        0x8000_0000,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x0000_0001,
        0x8000_0001,
        0x3f00_0000,
        0xbf00_0000,
        0x3f80_0000,
        0xc0a0_0000,
        0x4b7f_ffff,
        0xcb7f_ffff,
        0x6000_0000,
    ];
    let mut cases: Vec<AxisIn> = Vec::new();
    let mut rng = texpix_sim::SplitMix64::new(23);
    // The clamp's boundary: 256·n·|s| around 2^30 (and 2^31), reached by a right shift of the
    // product for large n and by a left shift for n = 1, one ulp either side.
    for n in [1u32, 3, 1000, 32768] {
        let edge = (4_194_304.0f64 / f64::from(n)) as f32;
        for t in [edge, edge * 1.5, edge * 2.0] {
            for b in [t.to_bits() - 1, t.to_bits(), t.to_bits() + 1] {
                for sign in [0, 0x8000_0000] {
                    for (mode, unnorm) in [(0, false), (2, false), (4, false), (0, true)] {
                        cases.push((b | sign, n, mode, true, unnorm, 0));
                    }
                }
            }
        }
    }
    // Every exponent, both signs, a random mantissa each: the shift amounts, the masks and
    // their out-of-range cases are decided per exponent (e = 102, 142, 173, 182 among them).
    for e in 0..=255u32 {
        for sign in [0, 0x8000_0000] {
            for n in [1u32, 32768] {
                for (mode, unnorm) in [(0, false), (2, false), (4, false), (0, true)] {
                    let m = rng.next_u64() as u32 & 0x7f_ffff;
                    cases.push((sign | e << 23 | m, n, mode, true, unnorm, 0));
                }
            }
        }
    }
    for &s in &specials {
        for n in [1u32, 3, 32768] {
            for mode in 0..5 {
                for (linear, unnorm) in [(false, false), (true, false), (true, true)] {
                    cases.push((s, n, mode, linear, unnorm, (rng.next_u64() % 16) as i32 - 8));
                }
            }
        }
    }
    for _ in 0..1500 {
        let mut r = |m: u64| rng.next_u64() % m;
        let s = match r(3) {
            0 => r(1 << 32) as u32,
            1 => (r(4000) as f32 / 64.0 - 31.0).to_bits(),
            _ => ((r(1 << 24) as f32 - 8e6) / 3.0).to_bits(),
        };
        let n = if r(2) == 0 {
            1 + r(32768) as u32
        } else {
            1 + r(9) as u32
        };
        cases.push((s, n, r(5) as u32, r(2) == 1, r(4) == 0, r(16) as i32 - 8));
    }
    for cuts in 0..=Axis::MAX_CUTS {
        let mut u = Axis::new(cuts);
        u.connect_all();
        assert_eq!(u.stages(), cuts);
        u.en.next = true;
        let mut want: VecDeque<AxisIn> = VecDeque::new();
        for &c in &cases {
            let (s, n, mode, linear, unnorm, off) = c;
            u.s.next = u64::from(s).into();
            u.n.next = u64::from(n).into();
            u.mode.next = u64::from(mode).into();
            u.linear.next = linear;
            u.unnorm.next = unnorm;
            u.off.next = u64::from(off as u32 & 15).into();
            settle_block(&mut u);
            want.push_back(c);
            if want.len() > cuts {
                let c = want.pop_front().expect("queued");
                let (s, n, mode, linear, unnorm, off) = c;
                let wrap = Wrap::from_code(mode).expect("mode 0…4");
                let ((i0, b0), (i1, b1), w) = axis(s, n, wrap, linear, unnorm, off);
                let got = (
                    (u.i0.val().to_u64() as u32 as i32, u.b0.val()),
                    (u.i1.val().to_u64() as u32 as i32, u.b1.val()),
                    u.w.val().to_u64() as u32,
                );
                assert_eq!(got, ((i0, b0), (i1, b1), w), "cuts {cuts}, input {c:?}");
            }
            u.clock.next = Clock::from(true);
            settle_block(&mut u);
            u.clock.next = Clock::from(false);
            settle_block(&mut u);
        }
    }
}

/// One `TapAddr` at every cut count (0…`TapAddr::MAX_CUTS`), one input per clock, against its
/// definition exactly `cuts` clocks later: off = layer·slice + j·pitch + (i << bpp_log2), the
/// address start + off and the tile off >> 16, all modulo 2^48; operands at 0, their maxima and
/// random, with a clock of held enable between some inputs.
#[test]
fn tap_addresses_equal_their_definition_at_every_cut_count() {
    use rust_hdl::prelude::*;
    use std::collections::VecDeque;
    use texpix_rtl::texaddr::TapAddr;
    /// i0, i1, j0, j1, layer, start, pitch, slice, bpp_log2.
    type TapIn = ([u64; 5], u64, u64, u64, u64);
    let m48 = (1u64 << 48) - 1;
    let mut rng = texpix_sim::SplitMix64::new(23);
    let mut cases: Vec<TapIn> = vec![
        ([0; 5], 0, 0, 0, 0),
        ([0xffff; 5], m48, (1 << 20) - 1, (1 << 36) - 1, 4),
        ([0xffff, 0, 0xffff, 0, 0xffff], m48, 1, (1 << 36) - 1, 0),
        ([1, 2, 3, 4, 5], m48 - 7, 64, 4096, 2),
    ];
    for _ in 0..3000 {
        let mut r = |bits: u32| rng.next_u64() & ((1u64 << bits) - 1);
        let idx = [r(16), r(16), r(16), r(16), r(16)];
        cases.push((idx, r(48), r(20), r(36), r(3) % 5));
    }
    let expect = |c: &TapIn| -> [(u64, u64); 4] {
        let ([i0, i1, j0, j1, layer], start, pitch, slice, bpp) = *c;
        let tap = |i: u64, j: u64| {
            let off = (layer * slice + j * pitch + (i << bpp)) & m48;
            ((start + off) & m48, (off >> 16) & 0xffff_ffff)
        };
        [tap(i0, j0), tap(i1, j0), tap(i0, j1), tap(i1, j1)]
    };
    for cuts in 0..=TapAddr::MAX_CUTS {
        let mut u = TapAddr::new(cuts);
        u.connect_all();
        assert_eq!(u.stages(), cuts);
        let mut want: VecDeque<TapIn> = VecDeque::new();
        for (n, c) in cases.iter().enumerate() {
            let ([i0, i1, j0, j1, layer], start, pitch, slice, bpp) = *c;
            u.i0.next = i0.into();
            u.i1.next = i1.into();
            u.j0.next = j0.into();
            u.j1.next = j1.into();
            u.layer.next = layer.into();
            u.start.next = start.into();
            u.pitch.next = pitch.into();
            u.slice.next = slice.into();
            u.bpp_log2.next = bpp.into();
            // Every seventh input first sits through a clock with the enable low.
            for hold in [n % 7 == 3, false] {
                u.en.next = !hold;
                settle_block(&mut u);
                if hold {
                    u.clock.next = Clock::from(true);
                    settle_block(&mut u);
                    u.clock.next = Clock::from(false);
                    settle_block(&mut u);
                }
            }
            want.push_back(*c);
            if want.len() > cuts {
                let c = want.pop_front().expect("queued");
                let got = [
                    (u.addr0.val().to_u64(), u.tile0.val().to_u64()),
                    (u.addr1.val().to_u64(), u.tile1.val().to_u64()),
                    (u.addr2.val().to_u64(), u.tile2.val().to_u64()),
                    (u.addr3.val().to_u64(), u.tile3.val().to_u64()),
                ];
                assert_eq!(got, expect(&c), "cuts {cuts}, input {c:?}");
            }
            u.clock.next = Clock::from(true);
            settle_block(&mut u);
            u.clock.next = Clock::from(false);
            settle_block(&mut u);
        }
    }
}
