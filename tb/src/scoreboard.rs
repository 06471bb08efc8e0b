//! The scoreboard: runs vectors through a unit's RTL and compares every result with the golden model,
//! in order, reporting the first mismatch with its input, both outputs and the cycle.

use crate::unit::{RtlRun, Unit};
use texpix_sim::{StreamConfig, Transfer};

/// Checks RTL results against the golden model and the stream's ordering: one result per vector,
/// each leaving after it entered, inputs accepted and outputs delivered in order.
pub fn check<U: Unit>(vectors: &[U::Txn], results: &[Transfer<U::Res>]) -> Result<(), String> {
    if results.len() != vectors.len() {
        return Err(format!(
            "{} results for {} vectors (lost or duplicated transactions)",
            results.len(),
            vectors.len()
        ));
    }
    for (k, (t, r)) in vectors.iter().zip(results).enumerate() {
        let g = U::golden(t);
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
        if r.cycle_out <= r.cycle_in {
            return Err(format!(
                "vector {k}: left at cycle {} before it entered at {}",
                r.cycle_out, r.cycle_in
            ));
        }
        if k > 0
            && (r.cycle_in <= results[k - 1].cycle_in || r.cycle_out <= results[k - 1].cycle_out)
        {
            return Err(format!("vector {k}: accepted or delivered out of order"));
        }
    }
    Ok(())
}

/// Runs `vectors` through a fresh, reset unit with back-pressure `cfg` and checks every result.
pub fn run_and_check<U: Unit>(vectors: &[U::Txn], cfg: &StreamConfig) -> RtlRun<U::Res> {
    let mut sim = U::new_sim().map_err(|e| e.to_string())?;
    let (results, stats) = U::run(&mut sim, vectors, cfg)?;
    check::<U>(vectors, &results)?;
    let backpressure = cfg.in_idle_permille + cfg.out_stall_permille > 0;
    if backpressure && vectors.len() > 20 && stats.in_stall_cycles + stats.out_stall_cycles == 0 {
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
