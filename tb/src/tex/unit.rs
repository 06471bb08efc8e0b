//! The texture unit as a [`Unit`](crate::unit::Unit), run with the cache on and the default
//! memory model ([`super::dut::run`]); `texpix bench tex` runs the standard screen-space sweep
//! ([`super::stim::standard_sweep`]), an anisotropic one and a cache-resident one, and reports
//! the cache and memory figures.

use super::{TexResult, TexTxn};
use texpix_rtl::tex::TexUnit;
use texpix_sim::{Sim, Transfer};

/// The texture unit (docs/units/tex.md).
pub struct Tex;

crate::unit_impl!(Tex {
    block: TexUnit,
    txn: TexTxn,
    res: TexResult,
    name: "tex",
    top: "texpix_tex",
    about: "texture unit: LOD, addressing, texel cache, formats, filtering, depth compare",
    test_vectors: 200,
    ports_doc: "rtl/src/tex/unit.rs",
    parameters: |depth| {
        let (lod, addr) = TexUnit::sub_depths(depth);
        format!(
            "depth {depth} (LOD unit at depth {lod}, address pipeline at depth {addr}), \
             texel cache 16 KiB, {} banks x {} sets x {} ways, 64-byte lines",
            super::cache::BANKS,
            super::cache::SETS / super::cache::BANKS,
            super::cache::WAYS
        )
    },
    depths: &TexUnit::DEPTHS,
    block: TexUnit::new,
    // Icarus re-evaluates the combinational datapath (filter, probe sums, address pipeline) per
    // event: with the anisotropic probe datapath one instruction no longer finishes in its 600 s
    // limit. Icarus runs the reset cycles only (elaboration and reset checked); the cycle-by-cycle
    // co-simulation of this unit is Verilator's and the netlist engine's.
    icarus_vectors: 0,
    golden_batch: super::golden_batch,
    bench_sections: bench_sections,
    bench_extra: bench_extra,
    run_random_timing: super::dut::run_random_memory,
});

/// The standard sweep's three passes, an anisotropic one (4:1 along x only, max_aniso 16: four
/// probes per lane), a cache-resident one (magnified 16×: the 32×32 quads sample a 4×4-texel
/// corner, so after the first few lines every lookup hits: the bilinear hit throughput), a
/// trilinear one (minified 1.5:1, λ ≈ 0.58: levels 0 and 1 blended) and its cache-resident form
/// (a 4×4-quad tile repeated: the trilinear hit throughput), then `n` random vectors if asked
/// for.
fn bench_sections(seed: u64, n: Option<usize>) -> Vec<(String, Vec<TexTxn>)> {
    let mut v: Vec<(String, Vec<TexTxn>)> = super::stim::standard_sweep()
        .into_iter()
        .map(|(name, v)| (format!("sweep {name}, 512x512 rgba8, 32x32 quads"), v))
        .collect();
    v.push((
        "sweep 4:1 along x, 1:1 along y, max_aniso 16, 32x32 quads".into(),
        super::stim::sweep_xy(4.0, 1.0, 16, 32, 32),
    ));
    v.push((
        "sweep magnified 16x (cache-resident), 32x32 quads".into(),
        super::stim::sweep(1.0 / 16.0, 32, 32),
    ));
    v.push((
        "sweep trilinear, minified 1.5:1 (levels 0 and 1), 32x32 quads".into(),
        super::stim::sweep(1.5, 32, 32),
    ));
    v.push((
        "sweep trilinear 1.5:1, a 4x4-quad tile repeated (cache-resident), 32x32 quads".into(),
        super::stim::sweep_tiled(1.5, 4, 32, 32),
    ));
    if let Some(n) = n {
        v.push((format!("{n} random vectors"), super::stim::random(seed, n)));
    }
    v
}

/// Cache hit rate and lookup rounds (the unit's counters), memory lines per quad and mean latency.
fn bench_extra(sim: &Sim<TexUnit>, results: &[Transfer<TexResult>]) -> Vec<String> {
    let hits = u64::from(sim.uut.cnt_hits.val().to_u32());
    let misses = u64::from(sim.uut.cnt_misses.val().to_u32());
    let rounds = u64::from(sim.uut.cnt_rounds.val().to_u32());
    let lines: usize = results.iter().map(|r| r.out.lines.len()).sum();
    let n = results.len().max(1) as f64;
    let latency: u64 = results.iter().map(|r| r.cycle_out - r.cycle_in).sum();
    vec![
        format!(
            "texel cache        {hits} hits, {misses} misses: hit rate {:.1} %",
            100.0 * hits as f64 / (hits + misses).max(1) as f64
        ),
        format!(
            "cache lookups      {rounds} rounds, {:.2} rounds/quad, {:.2} lines/round ({} banks)",
            rounds as f64 / n,
            (hits + misses) as f64 / rounds.max(1) as f64,
            super::cache::BANKS
        ),
        format!(
            "memory             {lines} lines, {:.3} lines/quad",
            lines as f64 / n
        ),
        format!("mean latency       {:.1} cycles", latency as f64 / n),
    ]
}
