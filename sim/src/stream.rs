//! Valid/ready stream driving: a source that offers inputs, a sink that takes outputs, both with
//! seeded random back-pressure, and a runner that pushes a list of transactions through a block.
//!
//! Per cycle: the source decides whether to offer the next input (an offered input stays valid, with
//! its payload unchanged, until it is accepted), the sink decides whether to be ready, the inputs
//! settle, both handshakes are sampled (a transfer happens where valid and ready are both high), and
//! the clock ticks. Outputs are paired with inputs in order; a unit that drops, duplicates or stalls
//! forever is reported as an error rather than hanging.

use crate::engine::{Sim, SimError};
use crate::rng::SplitMix64;
use rust_hdl::prelude::*;

/// How the runner reaches a unit's stream ports.
pub struct StreamBinding<B, I, O> {
    /// Sets `in_valid` and the input payload (`None`: valid low).
    pub drive: fn(&mut B, Option<&I>),
    /// Reads `in_ready`.
    pub in_ready: fn(&B) -> bool,
    /// Reads `out_valid`.
    pub out_valid: fn(&B) -> bool,
    /// Reads the output payload.
    pub read: fn(&B) -> O,
    /// Sets `out_ready`.
    pub set_out_ready: fn(&mut B, bool),
}

/// The [`StreamBinding`] of a block whose handshake ports are named `in_ready`, `out_valid` and
/// `out_ready` (every texpix unit's), with the unit's payload functions `drive` and `read`.
#[macro_export]
macro_rules! stream_binding {
    ($drive:expr, $read:expr) => {
        $crate::StreamBinding {
            drive: $drive,
            in_ready: |u| u.in_ready.val(),
            out_valid: |u| u.out_valid.val(),
            read: $read,
            set_out_ready: |u, r| u.out_ready.next = r,
        }
    };
}

/// Back-pressure and watchdog settings.
#[derive(Clone, Debug)]
pub struct StreamConfig {
    /// Probability (‰) that the source withholds an input it could offer this cycle.
    pub in_idle_permille: u32,
    /// Probability (‰) that the sink is not ready this cycle.
    pub out_stall_permille: u32,
    /// Seed of the back-pressure pattern.
    pub seed: u64,
    /// Cycles without any transfer before the run is declared stuck.
    pub max_idle_cycles: u64,
}

/// One output with the cycles of its input's and its own transfer.
#[derive(Clone, Debug, PartialEq)]
pub struct Transfer<O> {
    pub out: O,
    pub cycle_in: u64,
    pub cycle_out: u64,
}

/// What a run cost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StreamStats {
    /// Cycles from the first offer to the last output.
    pub cycles: u64,
    pub accepted: usize,
    pub emitted: usize,
    /// Cycles with an input valid but not ready.
    pub in_stall_cycles: u64,
    /// Cycles with an output valid but not taken.
    pub out_stall_cycles: u64,
}

/// Pushes `inputs` through the unit and collects one output per input, in order.
pub fn run_stream<B: Block, I, O>(
    sim: &mut Sim<B>,
    inputs: &[I],
    bind: &StreamBinding<B, I, O>,
    cfg: &StreamConfig,
) -> Result<(Vec<Transfer<O>>, StreamStats), SimError> {
    run_stream_with(sim, inputs, bind, cfg, &mut |_| Ok(()))
}

/// [`run_stream`] with a responder for the unit's side ports (a synchronous RAM, a residency map):
/// once per cycle, before the stream inputs are driven and settled, `respond` reads the unit's
/// registered outputs and drives the matching inputs. An error from it ends the run with that
/// message (as [`SimError::Responder`]).
pub fn run_stream_with<B: Block, I, O>(
    sim: &mut Sim<B>,
    inputs: &[I],
    bind: &StreamBinding<B, I, O>,
    cfg: &StreamConfig,
    respond: &mut dyn FnMut(&mut B) -> Result<(), String>,
) -> Result<(Vec<Transfer<O>>, StreamStats), SimError> {
    let mut rng = SplitMix64::new(cfg.seed);
    let mut stats = StreamStats::default();
    let mut outs = Vec::with_capacity(inputs.len());
    let mut accepted_at = Vec::with_capacity(inputs.len());
    let mut next = 0usize;
    let mut offering = false;
    let mut idle = 0u64;
    let start = sim.cycle();
    while outs.len() < inputs.len() {
        if !offering && next < inputs.len() {
            offering = !rng.permille(cfg.in_idle_permille);
        }
        respond(&mut sim.uut).map_err(|message| SimError::Responder {
            cycle: sim.cycle(),
            message,
        })?;
        (bind.drive)(
            &mut sim.uut,
            if offering { Some(&inputs[next]) } else { None },
        );
        let ready = !rng.permille(cfg.out_stall_permille);
        (bind.set_out_ready)(&mut sim.uut, ready);
        sim.settle()?;
        let cycle = sim.cycle();
        let in_fire = offering && (bind.in_ready)(&sim.uut);
        let out_valid = (bind.out_valid)(&sim.uut);
        if offering && !in_fire {
            stats.in_stall_cycles += 1;
        }
        if out_valid && !ready {
            stats.out_stall_cycles += 1;
        }
        if out_valid && ready {
            if outs.len() >= accepted_at.len() {
                return Err(SimError::Duplicate {
                    cycle,
                    inputs: accepted_at.len(),
                });
            }
            outs.push(Transfer {
                out: (bind.read)(&sim.uut),
                cycle_in: accepted_at[outs.len()],
                cycle_out: cycle,
            });
        }
        if in_fire {
            accepted_at.push(cycle);
            next += 1;
            offering = false;
        }
        if in_fire || (out_valid && ready) {
            idle = 0;
        } else {
            idle += 1;
            if idle > cfg.max_idle_cycles {
                return Err(SimError::Stalled {
                    cycle,
                    accepted: accepted_at.len(),
                    emitted: outs.len(),
                    inputs: inputs.len(),
                });
            }
        }
        sim.step()?;
    }
    (bind.drive)(&mut sim.uut, None);
    (bind.set_out_ready)(&mut sim.uut, true);
    sim.settle()?;
    stats.cycles = sim.cycle() - start;
    stats.accepted = accepted_at.len();
    stats.emitted = outs.len();
    Ok((outs, stats))
}
