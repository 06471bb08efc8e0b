//! Long RTL-vs-golden regressions (`texpix regress`): a unit's random stimulus streamed in chunks,
//! each chunk run through a freshly reset RTL on the chosen engine with random back-pressure (and
//! random side-port timing, [`Unit::run_random_timing`]) and checked vector by vector against the
//! golden model.
//!
//! Chunk `i` of a regression with seed `S` holds [`chunk_len`] vectors of
//! `U::random(chunk_seed(S, i), len)`; its back-pressure is `--stall` or, without it, drawn from
//! the chunk seed ([`chunk_stall_permille`]). A chunk is therefore reproducible on its own
//! (`texpix regress <unit> --seed S --count N --chunk i`), and `--shards K --shard I` runs the
//! chunks with `i % K == I`, so K processes together run exactly the N vectors of one process.

use crate::registry::UnitFn;
use crate::unit::{Engine, Unit};
use std::io::{IsTerminal, Write};
use std::time::Instant;
use texpix_sim::{SplitMix64, StreamConfig};

/// Vectors per chunk unless `--chunk-size` says otherwise.
pub const CHUNK: usize = 10_000;

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Vectors in the whole regression (over all shards).
    pub count: u64,
    /// Vectors per chunk.
    pub chunk_size: usize,
    /// The regression's seed; each chunk's seed is derived from it.
    pub seed: u64,
    /// Shards the chunks are dealt to, and the one this process runs.
    pub shards: u64,
    pub shard: u64,
    /// Run this one chunk only (reproducing a failure).
    pub only_chunk: Option<u64>,
    pub engine: Engine,
    /// Back-pressure probability on both streams; `None`: drawn per chunk.
    pub stall: Option<f64>,
    /// Test hook: compare vector `k` of every chunk with the golden result of vector `k + 1`, so
    /// that the reporting of a mismatch can be tested (hidden option `--inject-mismatch`).
    pub inject_mismatch: Option<usize>,
}

/// What a regression (or one shard of it) found.
#[derive(Clone, Debug)]
pub struct Summary {
    pub unit: &'static str,
    /// Vectors run and compared.
    pub transactions: u64,
    pub mismatches: u64,
    /// Chunks whose run failed (a protocol error reported by the driver: lost, extra or stray
    /// outputs, a wrong memory request, a hang); their vectors are not counted as run.
    pub errors: u64,
    pub chunks: u64,
    pub secs: f64,
    /// The first mismatch or error: chunk, chunk seed, vector index and what differed.
    pub first_failure: Option<String>,
}

impl Summary {
    /// The summary line `texpix regress` prints on standard output.
    pub fn line(&self, o: &Options) -> String {
        let mut s = format!(
            "regress {}: {} transactions, {} mismatches, {:.1} s, engine {}, seed {}",
            self.unit,
            self.transactions,
            self.mismatches,
            self.secs,
            engine_name(o.engine),
            o.seed
        );
        if o.shards > 1 {
            s.push_str(&format!(", shard {}/{}", o.shard, o.shards));
        }
        if let Some(c) = o.only_chunk {
            s.push_str(&format!(", chunk {c}"));
        }
        if self.errors > 0 {
            s.push_str(&format!(", {} chunks failed to run", self.errors));
        }
        s
    }
}

/// `rtl`, `netlist` or `fast`.
pub fn engine_name(e: Engine) -> &'static str {
    match e {
        Engine::Rtl => "rtl",
        Engine::Netlist => "netlist",
        Engine::Fast => "fast",
    }
}

/// Number of chunks of a regression of `count` vectors.
pub fn chunks(count: u64, chunk_size: usize) -> u64 {
    count.div_ceil(chunk_size as u64)
}

/// Vectors in chunk `i` (the last chunk may be short).
pub fn chunk_len(count: u64, chunk_size: usize, i: u64) -> usize {
    let start = i * chunk_size as u64;
    count.saturating_sub(start).min(chunk_size as u64) as usize
}

/// The seed of chunk `i` (vectors, back-pressure and side-port timing).
pub fn chunk_seed(seed: u64, i: u64) -> u64 {
    let base = SplitMix64::new(seed).next_u64();
    SplitMix64::new(base ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

/// The back-pressure (‰, both streams) of a chunk run without `--stall`: 0, 100, …, 600.
pub fn chunk_stall_permille(chunk_seed: u64) -> u32 {
    (SplitMix64::new(chunk_seed ^ 0x5354_414c_4c00).next_u64() % 7) as u32 * 100
}

/// The chunks this process runs, in order.
pub fn my_chunks(o: &Options) -> Vec<u64> {
    match o.only_chunk {
        Some(c) => vec![c],
        None => (0..chunks(o.count, o.chunk_size))
            .filter(|i| i % o.shards == o.shard)
            .collect(),
    }
}

/// Vectors this process runs: the sum of its chunks' lengths.
pub fn planned(o: &Options) -> u64 {
    my_chunks(o)
        .iter()
        .map(|&i| chunk_len(o.count, o.chunk_size, i) as u64)
        .sum()
}

/// Checks the options that clap cannot check on its own (combinations).
pub fn validate(o: &Options) -> Result<(), String> {
    if o.count == 0 {
        return Err("--count must be at least 1".into());
    }
    if o.chunk_size == 0 {
        return Err("--chunk-size must be at least 1".into());
    }
    if o.shards == 0 {
        return Err("--shards must be at least 1".into());
    }
    if o.shard >= o.shards {
        return Err(format!(
            "--shard {} is out of range for --shards {} (0…{})",
            o.shard,
            o.shards,
            o.shards - 1
        ));
    }
    let n = chunks(o.count, o.chunk_size);
    if let Some(c) = o.only_chunk {
        if c >= n {
            return Err(format!(
                "--chunk {c} is out of range: --count {} in chunks of {} makes {n} chunks (0…{})",
                o.count,
                o.chunk_size,
                n - 1
            ));
        }
    }
    if let Some(p) = o.stall {
        if !(0.0..=0.95).contains(&p) {
            return Err(format!("--stall {p} is outside 0…0.95"));
        }
    }
    Ok(())
}

/// The progress line on standard error: rewritten in place on a terminal, one line per chunk
/// otherwise.
struct Progress {
    tty: bool,
    unit: &'static str,
    total: u64,
    t0: Instant,
}

impl Progress {
    fn chunk_done(&self, done: u64, mismatches: u64, errors: u64) {
        let secs = self.t0.elapsed().as_secs_f64();
        let rate = done as f64 / secs.max(1e-9);
        let eta = (self.total - done) as f64 / rate.max(1e-9);
        let mut line = format!(
            "regress {}: {done}/{} transactions ({:.1} %), {mismatches} mismatches, {rate:.0} transactions/s, {secs:.0} s, ETA {}",
            self.unit,
            self.total,
            100.0 * done as f64 / self.total.max(1) as f64,
            hms(eta)
        );
        if errors > 0 {
            line.push_str(&format!(", {errors} chunks failed"));
        }
        let mut err = std::io::stderr().lock();
        if self.tty {
            let _ = write!(err, "\r\x1b[2K{line}");
        } else {
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
    }

    fn finish(&self) {
        if self.tty {
            let _ = writeln!(std::io::stderr());
        }
    }
}

/// Seconds as `1h02m03s`, `2m03s` or `3s`.
fn hms(secs: f64) -> String {
    if !secs.is_finite() {
        return "?".into();
    }
    let s = secs.round() as u64;
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, s) => format!("{m}m{s:02}s"),
        (h, m, s) => format!("{h}h{m:02}m{s:02}s"),
    }
}

/// Cuts a long JSON text for a one-line report.
fn cut(s: String, max: usize) -> String {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &s[..end], s.len())
}

/// Runs a regression on unit `U` (through [`crate::registry::with_unit`]), printing progress on
/// standard error; the summary is returned, not printed.
pub struct Regress {
    pub options: Options,
    /// Show progress on standard error.
    pub progress: bool,
}

impl UnitFn for Regress {
    type Out = Result<Summary, String>;
    fn call<U: Unit>(self) -> Self::Out {
        run::<U>(&self.options, self.progress)
    }
}

/// Runs this process's chunks of the regression on `U`.
pub fn run<U: Unit>(o: &Options, progress: bool) -> Result<Summary, String> {
    validate(o)?;
    let total = planned(o);
    let t0 = Instant::now();
    let bar = Progress {
        tty: std::io::stderr().is_terminal(),
        unit: U::NAME,
        total,
        t0,
    };
    let mut s = Summary {
        unit: U::NAME,
        transactions: 0,
        mismatches: 0,
        errors: 0,
        chunks: 0,
        secs: 0.0,
        first_failure: None,
    };
    let mut done = 0;
    for i in my_chunks(o) {
        let len = chunk_len(o.count, o.chunk_size, i);
        let cseed = chunk_seed(o.seed, i);
        let permille = match o.stall {
            Some(p) => (p * 1000.0).round() as u32,
            None => chunk_stall_permille(cseed),
        };
        let cfg = StreamConfig {
            in_idle_permille: permille,
            out_stall_permille: permille,
            seed: cseed,
            max_idle_cycles: 10_000,
        };
        let at = format!(
            "chunk {i} (chunk seed {cseed:#018x}, {len} vectors, stall {permille}‰; reproduce: texpix regress {} --count {} --chunk-size {} --seed {} --chunk {i} --engine {}{})",
            U::NAME,
            o.count,
            o.chunk_size,
            o.seed,
            engine_name(o.engine),
            o.stall.map_or(String::new(), |p| format!(" --stall {p}"))
        );
        let vectors = U::random(cseed, len);
        let golden = U::golden_batch(&vectors);
        // A fresh unit per chunk (state such as the texture cache starts cold, as the golden
        // model's does); failing to build one (no Yosys, say) ends the regression.
        let mut sim = U::new_sim_on(o.engine)?;
        let ran = U::run_random_timing(&mut sim, &vectors, &cfg);
        s.chunks += 1;
        done += len as u64;
        match ran {
            Err(e) => {
                s.errors += 1;
                if s.first_failure.is_none() {
                    s.first_failure = Some(format!("{at}: the run failed: {e}"));
                }
            }
            Ok((results, _stats)) => {
                if results.len() != vectors.len() {
                    s.errors += 1;
                    if s.first_failure.is_none() {
                        s.first_failure = Some(format!(
                            "{at}: {} results for {} vectors",
                            results.len(),
                            vectors.len()
                        ));
                    }
                } else {
                    s.transactions += len as u64;
                    count_mismatches::<U>(o, &at, &vectors, &golden, &results, &mut s);
                }
            }
        }
        if progress {
            bar.chunk_done(done, s.mismatches, s.errors);
        }
    }
    if progress {
        bar.finish();
    }
    s.secs = t0.elapsed().as_secs_f64();
    Ok(s)
}

/// Compares a chunk's results with the golden model's, counting mismatches into `s` and keeping
/// the first.
fn count_mismatches<U: Unit>(
    o: &Options,
    at: &str,
    vectors: &[U::Txn],
    golden: &[U::Res],
    results: &[texpix_sim::Transfer<U::Res>],
    s: &mut Summary,
) {
    for (k, r) in results.iter().enumerate() {
        let g = match o.inject_mismatch {
            Some(j) if j == k && k + 1 < golden.len() => &golden[k + 1],
            _ => &golden[k],
        };
        if r.out == *g {
            continue;
        }
        s.mismatches += 1;
        if s.first_failure.is_none() {
            s.first_failure = Some(cut(
                format!(
                    "first mismatch: {at}, vector {k} (0-based) at cycle {}: input {}; rtl {}; golden {}",
                    r.cycle_out,
                    U::txn_json(&vectors[k]),
                    U::result_json(&r.out),
                    U::result_json(g)
                ),
                4000,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(count: u64, chunk_size: usize, shards: u64, shard: u64) -> Options {
        Options {
            count,
            chunk_size,
            seed: 1,
            shards,
            shard,
            only_chunk: None,
            engine: Engine::Rtl,
            stall: None,
            inject_mismatch: None,
        }
    }

    #[test]
    fn shards_cover_every_chunk_once() {
        for (count, size, k) in [
            (1_000_000, 10_000, 8),
            (1234, 100, 5),
            (7, 10, 3),
            (30, 10, 7),
        ] {
            let mut seen = vec![0u32; chunks(count, size) as usize];
            let mut total = 0;
            for i in 0..k {
                let o = opts(count, size, k, i);
                for c in my_chunks(&o) {
                    seen[c as usize] += 1;
                }
                total += planned(&o);
            }
            assert!(seen.iter().all(|&n| n == 1), "{count} {size} {k}: {seen:?}");
            assert_eq!(total, count);
        }
    }

    #[test]
    fn chunk_seeds_differ() {
        let mut v: Vec<u64> = (0..1000).map(|i| chunk_seed(1, i)).collect();
        v.extend((0..1000).map(|i| chunk_seed(2, i)));
        let n = v.len();
        v.sort_unstable();
        v.dedup();
        assert_eq!(v.len(), n);
    }

    #[test]
    fn bad_combinations_are_one_line_errors() {
        assert!(validate(&opts(10, 10, 8, 8))
            .unwrap_err()
            .contains("--shard 8"));
        assert!(validate(&opts(0, 10, 1, 0)).is_err());
        let mut o = opts(25, 10, 1, 0);
        o.only_chunk = Some(3);
        assert!(validate(&o).unwrap_err().contains("3 chunks"));
    }
}
