//! The scoreboard: runs vectors through a unit's RTL and compares every result with the golden model,
//! in order, reporting the first mismatch with its input, both outputs and the cycle.

use crate::unit::{RtlRun, Unit};
use texpix_sim::{StreamConfig, Transfer};

/// Checks RTL results against the golden model, in order, `results[k]` being vector `k`'s.
///
/// `results` is what a unit's driver returned ([`Unit::run`]): one result per vector, in input
/// order, each leaving after it entered. The drivers guarantee that by construction (the stream
/// runner pairs the k-th output with the k-th accepted input and stops at the last one; tags catch
/// a lost, duplicated or reordered transaction, the drain an extra one), so it is not re-checked
/// here.
pub fn check<U: Unit>(vectors: &[U::Txn], results: &[Transfer<U::Res>]) -> Result<(), String> {
    for (k, (t, g)) in vectors.iter().zip(U::golden_batch(vectors)).enumerate() {
        let r = &results[k];
        if r.out != g {
            return Err(format!(
                "vector {} (0-based) at cycle {}: RTL and golden model differ: input {}; rtl {}; golden {}",
                k,
                r.cycle_out,
                U::txn_json(t),
                U::result_json(&r.out),
                U::result_json(&g)
            ));
        }
    }
    Ok(())
}

/// Runs `vectors` through a fresh, reset unit with back-pressure `cfg` and checks every result.
pub fn run_and_check<U: Unit>(vectors: &[U::Txn], cfg: &StreamConfig) -> RtlRun<U::Res> {
    let mut sim = U::new_sim().map_err(|e| e.to_string())?;
    let (results, stats) = U::run(&mut sim, vectors, cfg)?;
    check::<U>(vectors, &results)?;
    // Stalls happen when the sink refuses a valid output; with `n` outputs each refused with
    // probability p, a run without any has probability (1 − p)^n. Only where that is below 1e-9
    // is "no stall" a defect (short random runs, e.g. proptest cases, may honestly see none).
    let p = f64::from(cfg.out_stall_permille.min(999)) / 1000.0;
    let no_stall_chance = (1.0 - p).powi(vectors.len().min(100_000) as i32);
    if p > 0.0 && no_stall_chance < 1e-9 && stats.in_stall_cycles + stats.out_stall_cycles == 0 {
        return Err("back-pressure was requested but never exercised".into());
    }
    Ok((results, stats))
}

/// A stream configuration with the same stall probability (‰) on both sides.
pub fn stalls(permille: u32, seed: u64) -> StreamConfig {
    StreamConfig {
        in_idle_permille: permille,
        out_stall_permille: permille,
        seed,
        max_idle_cycles: 1000,
    }
}
