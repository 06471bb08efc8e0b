//! Texture unit RTL against the golden model: random runs of quads over every op, format, filter,
//! wrap mode and compare function (`tex::stim`), in order, with random memory latency, memory
//! stalls and back-pressure on both streams. Every memory request is checked against the golden
//! model's line list: the driver collects the requests of each instruction into its result's
//! `lines`, which the scoreboard compares (a wrong, missing, extra or reordered request fails),
//! and it checks `out_lines` against the count. With the cache disabled the lines must be exactly
//! the footprint's, each once per pass, which is also checked here without the golden model.
//!
//! In CI: 600 quads on the rust-hdl model and 5 000 on the netlist engine (the same circuit
//! compiled from its exported Verilog by Yosys; `tb/tests/netlist.rs` checks it port for port
//! against the rust-hdl model). Opt-in, 100 000 quads on the netlist engine:
//! `cargo test --release -p texpix-tb --test tex_rtl -- --ignored --nocapture`.

use texpix_rtl::tex::TexUnit;
use texpix_sim::Sim;
use texpix_tb::scoreboard::{check, stalls};
use texpix_tb::tex::dut::{run_with, MemConfig, MemStats};
use texpix_tb::tex::{self, CacheConfig, Tex, TexModel, TexTxn, LINE_BYTES};
use texpix_tb::texaddr::Dim;
use texpix_tb::unit::{Engine, Unit};

/// One vector for a mismatch report (explicit texel bytes cut to 16).
fn describe(t: &TexTxn) -> String {
    let mut t = t.clone();
    for x in &mut t.textures {
        if let tex::TexData::Bytes(b) = &mut x.data {
            b.truncate(16);
        }
    }
    format!("{t:?}")
}

/// Runs `vectors` and compares every result (values, status, fault, λ, memory lines in order)
/// with the golden model run with the same cache parameters.
fn compare(
    sim: &mut Sim<TexUnit>,
    vectors: &[TexTxn],
    seed: u64,
    stall: u32,
    mem: &MemConfig,
    cache: CacheConfig,
) -> MemStats {
    let (results, stats, m) = run_with(sim, vectors, &stalls(stall, seed), mem, cache)
        .unwrap_or_else(|e| panic!("seed {seed}, stall {stall}‰: {e}"));
    if cache.enabled {
        if let Err(e) = check::<Tex>(vectors, &results) {
            panic!("seed {seed}, stall {stall}‰: {e}");
        }
    }
    let golden = TexModel::batch(vectors, cache);
    for (k, (g, r)) in golden.iter().zip(&results).enumerate() {
        assert!(
            *g == r.out,
            "seed {seed}, stall {stall}‰, vector {k}: {}\nrtl    {:?}\ngolden {g:?}",
            describe(&vectors[k]),
            r.out
        );
    }
    if stall > 0 && vectors.len() > 50 {
        assert!(
            stats.in_stall_cycles + stats.out_stall_cycles > 0,
            "back-pressure never exercised"
        );
    }
    let lines: usize = results.iter().map(|r| r.out.lines.len()).sum();
    assert_eq!(m.requests, lines);
    println!(
        "{} quads, stall {stall}‰, memory latency {}…{}: {} cycles ({:.1}/quad), {m:?}",
        vectors.len(),
        mem.min_latency,
        mem.max_latency,
        stats.cycles,
        stats.cycles as f64 / vectors.len() as f64
    );
    m
}

/// Quads with a MIMG address, NSA, the offset dword, A16, G16, D16, TFE, LWE, a DMASK.
fn mimg_counts(v: &[TexTxn]) -> [u64; 9] {
    let mut n = [0u64; 9];
    for t in v {
        let m = &t.mimg;
        let a = m.address.as_ref();
        let bits = [
            a.is_some(),
            a.is_some_and(|a| a.nsa),
            a.is_some_and(|a| a.offset),
            m.a16,
            m.g16,
            m.d16,
            m.tfe,
            m.lwe,
            m.dmask != 15,
        ];
        for (k, b) in n.iter_mut().zip(bits) {
            *k += u64::from(b);
        }
    }
    n
}

/// Quads that sample, fetch or query a texture of one of `dims`.
fn quads_on(v: &[TexTxn], dims: &[Dim]) -> u64 {
    let on = |t: &TexTxn| {
        !t.op.inert() && tex::bound_texture(t).is_some_and(|x| dims.contains(&x.desc.dim))
    };
    v.iter().filter(|t| on(t)).count() as u64
}

/// 3D sampling lanes (by the golden model's plan, operands after MIMG and `txp`): with linear r,
/// trilinear across two levels, reading a border slice, with an r offset dw.
fn volume_lanes(v: &[TexTxn]) -> [u64; 4] {
    let mut n = [0u64; 4];
    for t in v {
        let mut t = tex::mimg_operands(t);
        if t.op == tex::TexOp::Txp {
            t = tex::project(&t);
        }
        t.sampler.unnormalized |= t.unscaled;
        let Some(x) = tex::bound_texture(&t).filter(|x| x.desc.dim == Dim::D3) else {
            continue;
        };
        if !t.op.filters() || x.desc.layers > tex::MAX_DEPTH {
            continue;
        }
        let lod = texpix_tb::lod::golden(&tex::lod_txn(&t, &x.desc));
        let plan = tex::plan(&t, x, &lod);
        for (key, mask) in tex::passes(&plan, 15) {
            let planes = tex::planes(&t, x, &plan, key, mask, &lod);
            for l in (0..4).filter(|&l| mask & 1 << l != 0) {
                n[0] += u64::from(key.3);
                n[1] += u64::from(key.2);
                n[2] += u64::from(planes.iter().any(|p| p.border & 1 << l != 0));
                n[3] += u64::from(t.offset[l][2] != 0);
            }
        }
    }
    n
}

/// Quads on cube or cube-array textures.
fn cube_quads(v: &[TexTxn]) -> u64 {
    quads_on(v, &[Dim::Cube, Dim::ArrayCube])
}

fn netlist_sim() -> Sim<TexUnit> {
    Tex::new_sim_on(Engine::Netlist).unwrap_or_else(|e| panic!("netlist engine: {e}"))
}

#[test]
fn rtl_equals_golden_on_the_rust_hdl_model() {
    let mut sim = Tex::new_sim().expect("reset");
    let m = compare(
        &mut sim,
        &Tex::random(1, 300),
        1,
        0,
        &MemConfig::default(),
        CacheConfig::default(),
    );
    assert!(
        m.hits > 0 && m.misses > 0,
        "the cache neither hit nor missed: {m:?}"
    );
    let mut sim = Tex::new_sim().expect("reset");
    compare(
        &mut sim,
        &Tex::random(2, 300),
        2,
        300,
        &MemConfig::default(),
        CacheConfig::default(),
    );
}

/// Lanes per anisotropic probe count N (index N), by the golden LOD unit.
fn probe_lanes(v: &[TexTxn]) -> [u64; 17] {
    let mut per = [0u64; 17];
    for t in v {
        if let Some(x) = tex::bound_texture(t) {
            let lod = texpix_tb::lod::golden(&tex::lod_txn(t, &x.desc));
            for n in tex::probe_counts(t, x, &lod) {
                per[n as usize] += 1;
            }
        }
    }
    per
}

#[test]
fn rtl_equals_golden_5000_quads_on_the_netlist_engine() {
    let mut total = MemStats::default();
    let mut probes = [0u64; 17];
    let mut per_op = [0u64; tex::TexOp::ALL.len()];
    let (mut killed, mut waits, mut acquires, mut cubes, mut volumes) =
        (0u32, 0u32, 0u32, 0u64, 0u64);
    let mut vlanes = [0u64; 4];
    // Quads with a MIMG address, nsa, the offset dword, a16, g16, d16, tfe, lwe, a DMASK.
    let mut mimg = [0u64; 9];
    for (seed, stall, mem) in [
        (
            10,
            0,
            MemConfig {
                min_latency: 1,
                max_latency: 1,
                stall_permille: 0,
            },
        ),
        (11, 200, MemConfig::default()),
        (
            12,
            400,
            MemConfig {
                min_latency: 2,
                max_latency: 120,
                stall_permille: 300,
            },
        ),
        (
            13,
            100,
            MemConfig {
                min_latency: 40,
                max_latency: 60,
                stall_permille: 50,
            },
        ),
        (
            14,
            600,
            MemConfig {
                min_latency: 1,
                max_latency: 8,
                stall_permille: 600,
            },
        ),
    ] {
        let mut sim = netlist_sim();
        let v = Tex::random(seed, 1000);
        for (a, b) in probes.iter_mut().zip(probe_lanes(&v)) {
            *a += b;
        }
        for t in &v {
            per_op[t.op as usize] += 1;
            killed += tex::golden(t).kill.count_ones();
            waits += u32::from(t.sem_wait);
            acquires += u32::from(t.sem_acquire);
        }
        cubes += cube_quads(&v);
        volumes += quads_on(&v, &[Dim::D3]);
        for (n, k) in vlanes.iter_mut().zip(volume_lanes(&v)) {
            *n += k;
        }
        for (n, k) in mimg.iter_mut().zip(mimg_counts(&v)) {
            *n += k;
        }
        let m = compare(&mut sim, &v, seed, stall, &mem, CacheConfig::default());
        total.requests += m.requests;
        total.hits += m.hits;
        total.misses += m.misses;
        total.sem_busy_cycles += m.sem_busy_cycles;
        total.sem_blocked += m.sem_blocked;
        total.sem_wait_cycles += m.sem_wait_cycles;
        total.sem_wait_max = total.sem_wait_max.max(m.sem_wait_max);
    }
    println!(
        "5000 quads: {total:?}; lanes per anisotropic probe count N = 0…16: {probes:?}; \
         quads per op {per_op:?}; {killed} lanes killed; {acquires} acquires, {waits} waits; \
         {cubes} quads on cube textures, {volumes} on 3D textures (sampling lanes with linear r, \
         trilinear, a border slice, an r offset: {vlanes:?}); MIMG (address, nsa, offset, a16, \
         g16, d16, tfe, lwe, dmask) {mimg:?}"
    );
    assert!(vlanes.iter().all(|&n| n > 50), "3D lanes {vlanes:?}");
    assert!(cubes > 300, "{cubes} cube quads");
    assert!(volumes > 300, "{volumes} 3D quads");
    // Waiting instructions held by an outstanding acquire (each released the cycle after it).
    assert!(total.sem_blocked > 50, "{total:?}");
    assert!(mimg.iter().all(|&n| n > 30), "{mimg:?}");
    // Every op, the kill mask and the semaphore bits are exercised.
    assert!(per_op.iter().all(|&k| k > 150), "{per_op:?}");
    assert!(killed > 50 && acquires > 500 && waits > 500);
    // Anisotropic lanes are a real share, with few and many probes.
    let aniso: u64 = probes[2..].iter().sum();
    assert!(aniso > 500, "{probes:?}");
    assert!(probes[2..5].iter().all(|&k| k > 20) && probes[9..].iter().sum::<u64>() > 50);
}

/// The distinct lines of each pass's fetched taps, by the address pipeline's golden model (what a
/// cache-less unit must request, each once per pass), in lookup-round order.
fn footprint_lines(t: &TexTxn) -> Vec<u64> {
    if t.mimg.address.is_some() {
        return footprint_lines(&tex::mimg_operands(t));
    }
    if t.op.inert() {
        return Vec::new();
    }
    if t.op == tex::TexOp::Txp {
        return footprint_lines(&tex::project(t));
    }
    if t.unscaled && !t.sampler.unnormalized {
        let mut u = t.clone();
        u.sampler.unnormalized = true;
        return footprint_lines(&u);
    }
    match tex::cube_txn(t) {
        Some(Ok(c)) => return footprint_lines(&c),
        Some(Err(_)) => return Vec::new(),
        None => {}
    }
    let Some(x) = tex::bound_texture(t) else {
        return Vec::new();
    };
    if x.desc.dim == Dim::D3 && (x.desc.layers > tex::MAX_DEPTH || t.op == tex::TexOp::Gather4) {
        return Vec::new();
    }
    let lod = texpix_tb::lod::golden(&tex::lod_txn(t, &x.desc));
    let plan = tex::plan(t, x, &lod);
    let n = tex::probe_counts(t, x, &lod);
    let mut out = Vec::new();
    for p in 0..n.iter().copied().max().unwrap_or(1) {
        let lanes = (0..4).filter(|&l| p < n[l]).fold(0, |m, l| m | 1 << l);
        let probe = tex::probe_plan(t, x, &plan, &lod, &n, p);
        // A 3D texture's pass is one address pass per (level, slice) plane; a border slice
        // fetches nothing.
        for plane in tex::passes(&probe, lanes)
            .into_iter()
            .flat_map(|(key, mask)| {
                tex::planes(t, x, &probe, key, mask, &lod)
                    .into_iter()
                    .map(move |p| (p, mask))
            })
        {
            let (plane, mask) = plane;
            let a = texpix_tb::texaddr::golden(&tex::pass_txn(
                t,
                &plane.tex,
                &plane.lanes,
                plane.key,
                &lod,
            ));
            if a.fault != texpix_tb::texaddr::Fault::None || tex::format_fault(t, x) {
                return Vec::new();
            }
            let mut pass: Vec<u64> = Vec::new();
            for (l, (q, lane)) in plane.lanes.iter().zip(&a.lanes).enumerate() {
                if mask & 1 << l == 0 || !q.active || plane.border & 1 << l != 0 {
                    continue;
                }
                for (k, tap) in lane.taps.iter().enumerate() {
                    let line = tap.addr / LINE_BYTES;
                    if lane.req & 1 << k != 0 && !pass.contains(&line) {
                        pass.push(line);
                    }
                }
            }
            // In the cache's lookup rounds: per round, one line of each bank, in bank order.
            out.extend(tex::lookup_rounds(&pass).into_iter().flatten());
        }
    }
    out
}

#[test]
fn cache_disabled_fetches_exactly_the_footprint() {
    let v = Tex::random(21, 1000);
    let off = CacheConfig { enabled: false };
    let mut sim = netlist_sim();
    let (results, _, m) = run_with(&mut sim, &v, &stalls(200, 21), &MemConfig::default(), off)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.hits, 0, "a disabled cache hit");
    let golden = TexModel::batch(&v, off);
    let mut lines = 0;
    for (k, (t, r)) in v.iter().zip(&results).enumerate() {
        assert_eq!(r.out, golden[k], "vector {k}: {}", describe(t));
        let want = footprint_lines(t);
        assert_eq!(
            r.out.lines, want,
            "vector {k}: lines differ from the footprint"
        );
        lines += want.len();
    }
    assert!(
        lines > 1000,
        "too few lines fetched to mean anything: {lines}"
    );
    println!("1000 quads, cache off: {lines} lines, each once per pass");
}

#[test]
fn conformance_examples_through_the_rtl() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/tex.jsonl");
    let v = texpix_tb::vectors::read_jsonl(std::path::Path::new(path), Tex::parse)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Tex::new_sim().expect("reset");
    compare(
        &mut sim,
        &v,
        3,
        300,
        &MemConfig::default(),
        CacheConfig::default(),
    );
}

#[test]
#[ignore = "opt-in regression: 100 000 quads on the netlist engine"]
fn regression_100k_quads() {
    let mut total = MemStats::default();
    let mut probes = [0u64; 17];
    let (mut cubes, mut volumes) = (0, 0);
    let mut vlanes = [0u64; 4];
    let mut mimg = [0u64; 9];
    for seed in 0..20u64 {
        let stall = [0, 300, 600][seed as usize % 3];
        let mem = MemConfig {
            min_latency: 1 + seed % 4,
            max_latency: [4, 20, 150][seed as usize % 3],
            stall_permille: [0, 100, 400][(seed as usize / 3) % 3],
        };
        let cache = CacheConfig {
            enabled: seed % 7 != 6,
        };
        let mut sim = netlist_sim();
        let v = Tex::random(1000 + seed, 5000);
        for (a, b) in probes.iter_mut().zip(probe_lanes(&v)) {
            *a += b;
        }
        cubes += cube_quads(&v);
        volumes += quads_on(&v, &[Dim::D3]);
        for (n, k) in vlanes.iter_mut().zip(volume_lanes(&v)) {
            *n += k;
        }
        for (n, k) in mimg.iter_mut().zip(mimg_counts(&v)) {
            *n += k;
        }
        let m = compare(&mut sim, &v, 1000 + seed, stall, &mem, cache);
        total.requests += m.requests;
        total.hits += m.hits;
        total.misses += m.misses;
        total.sem_busy_cycles += m.sem_busy_cycles;
        total.sem_blocked += m.sem_blocked;
        total.sem_wait_cycles += m.sem_wait_cycles;
        total.sem_wait_max = total.sem_wait_max.max(m.sem_wait_max);
    }
    println!(
        "100 000 quads: {total:?}, 0 mismatches; lanes per anisotropic probe count N = 0…16: \
         {probes:?}; {cubes} quads on cube textures, {volumes} on 3D textures (sampling lanes \
         with linear r, trilinear, a border slice, an r offset: {vlanes:?}); MIMG (address, nsa, offset, a16, g16, d16, \
         tfe, lwe, dmask) {mimg:?}"
    );
}
