//! Texture unit RTL against the golden model: random runs of quads over every op, format, filter,
//! wrap mode and compare function, in order, with random memory latency, memory stalls and
//! back-pressure; every memory request checked against the golden model's line list (the driver
//! collects the requests of each instruction into its result, which the scoreboard compares).

use texpix_tb::scoreboard::{check, stalls};
use texpix_tb::tex::dut::{run_with, MemConfig, MemStats};
use texpix_tb::tex::{CacheConfig, Tex, TexTxn};
use texpix_tb::unit::Unit;

/// Runs `vectors` through the RTL and checks every result and memory request.
fn compare(vectors: &[TexTxn], seed: u64, stall: u32, mem: &MemConfig, cache: CacheConfig) -> MemStats {
    let mut sim = Tex::new_sim().expect("reset");
    let (results, stats, m) = run_with(&mut sim, vectors, &stalls(stall, seed), mem, cache)
        .unwrap_or_else(|e| panic!("seed {seed}, stall {stall}‰: {e}"));
    if let Err(e) = check::<Tex>(vectors, &results) {
        let golden = Tex::golden_batch(vectors);
        if let Some(k) = (0..vectors.len()).find(|&k| golden[k] != results[k].out) {
            let mut t = vectors[k].clone();
            for x in &mut t.textures {
                if let texpix_tb::tex::TexData::Bytes(b) = &mut x.data {
                    b.truncate(16);
                }
            }
            let tex = texpix_tb::tex::bound_texture(&t);
            eprintln!(
                "vector {k}: op {:?} tex {tex:?}\nsampler {:?}\ncoords {:x?}\nlod {:x?} bias {:x?} grad {:x?} off {:?}",
                t.op, t.sampler, t.coords, t.lod, t.bias, t.grad, t.offset
            );
            if let Some(tex) = tex {
                let lod = texpix_tb::lod::golden(&texpix_tb::tex::lod_txn(&t, &tex.desc));
                let plan = texpix_tb::tex::plan(&t, tex, &lod);
                eprintln!("lod {lod:?}");
                for (key, mask) in texpix_tb::tex::passes(&plan) {
                    let at = texpix_tb::tex::pass_txn(&t, tex, &plan, key, &lod);
                    let a = texpix_tb::texaddr::golden(&at);
                    eprintln!("pass {key:?} mask {mask:b}: {a:?}");
                }
            }
            eprintln!("rtl {:?}\ngolden {:?}", results[k].out, golden[k]);
        }
        panic!("seed {seed}, stall {stall}‰: {e}");
    }
    println!("{} quads, {} cycles, {m:?}", vectors.len(), stats.cycles);
    m
}

#[test]
fn rtl_equals_golden_small() {
    let v = Tex::random(1, 40);
    compare(&v, 1, 0, &MemConfig::default(), CacheConfig::default());
}

#[test]
#[ignore = "dev"]
fn dev_many() {
    let n: usize = std::env::var("N").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    let seed: u64 = std::env::var("SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(7);
    let stall: u32 = std::env::var("STALL").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    let v = Tex::random(seed, n);
    let from: usize = std::env::var("FROM").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    compare(&v[from..], seed, stall, &MemConfig::default(), CacheConfig::default());
}
