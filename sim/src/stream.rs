//! Valid/ready stream driving: a source that offers inputs, a sink that takes outputs, both with
//! seeded random back-pressure, and a runner that pushes a list of transactions through a block.
//!
//! Per cycle: the source decides whether to offer the next input (an offered input stays valid, with
//! its payload unchanged, until it is accepted), the sink decides whether to be ready, the inputs
//! settle, both handshakes are sampled (a transfer happens where valid and ready are both high), and
//! the clock ticks. Outputs are paired with inputs in order; a unit that drops, duplicates or stalls
//! forever is reported as an error rather than hanging.
//!
//! After the last output the runner does not stop at once: it keeps clocking for a *drain* of
//! [`drain_cycles`] cycles (the longest latency the run observed plus [`DRAIN_MARGIN`]) with the
//! input idle and `out_ready` high, still calling the side-port responder (with [`Phase::Drain`]),
//! and fails with [`SimError::Trailing`] on any `out_valid` in that time: an extra output after the
//! last expected one is a defect, not something to ignore. The drain is not part of
//! [`StreamStats::cycles`] and changes no result's cycles.

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

/// Cycles the runner keeps clocking after the last output beyond the longest latency it observed
/// (see [`drain_cycles`]).
pub const DRAIN_MARGIN: u64 = 32;

/// The drain after the last of `outputs`: the longest `cycle_out − cycle_in` among them (the unit's
/// latency under the run's back-pressure, at least its pipeline latency) plus [`DRAIN_MARGIN`]; a
/// run without outputs drains for [`DRAIN_MARGIN`] cycles.
pub fn drain_cycles<O>(outputs: &[Transfer<O>]) -> u64 {
    let latency = outputs.iter().map(|t| t.cycle_out - t.cycle_in).max();
    latency.unwrap_or(0) + DRAIN_MARGIN
}

/// Which part of a run a side-port responder is called in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Inputs are offered or outputs are still due.
    Stream,
    /// After the last output (input idle, `out_ready` high): the unit has nothing left to do, so a
    /// side-port request is an error the responder reports.
    Drain,
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

/// Counts cycles without progress and fails a run that stops making any (a lost transaction or a
/// deadlock): more than `limit` consecutive cycles with no transfer.
#[derive(Clone, Copy, Debug)]
pub struct IdleWatch {
    idle: u64,
    limit: u64,
}

impl IdleWatch {
    /// A watch that allows `limit` idle cycles in a row.
    pub fn new(limit: u64) -> Self {
        Self { idle: 0, limit }
    }

    /// Records one cycle; `progressed`: some transfer happened in it. The error names the cycle
    /// and how far the run got.
    pub fn tick(
        &mut self,
        progressed: bool,
        cycle: u64,
        accepted: usize,
        emitted: usize,
        inputs: usize,
    ) -> Result<(), SimError> {
        if progressed {
            self.idle = 0;
            return Ok(());
        }
        self.idle += 1;
        if self.idle > self.limit {
            return Err(SimError::Stalled {
                cycle,
                accepted,
                emitted,
                inputs,
            });
        }
        Ok(())
    }
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
    /// Cycles from the first offer to the last output, inclusive (the drain after it not counted).
    pub cycles: u64,
    pub accepted: usize,
    pub emitted: usize,
    /// Cycles with an input valid but not ready.
    pub in_stall_cycles: u64,
    /// Cycles with an output valid but not taken.
    pub out_stall_cycles: u64,
}

/// Pushes `inputs` through the unit and collects one output per input, in order, then drains (see
/// the module documentation): an output after the last one is [`SimError::Trailing`].
pub fn run_stream<B: Block, I, O>(
    sim: &mut Sim<B>,
    inputs: &[I],
    bind: &StreamBinding<B, I, O>,
    cfg: &StreamConfig,
) -> Result<(Vec<Transfer<O>>, StreamStats), SimError> {
    run_stream_with(sim, inputs, bind, cfg, &mut |_, _| Ok(()))
}

/// [`run_stream`] with a responder for the unit's side ports (a synchronous RAM, a residency map):
/// once per cycle, before the stream inputs are driven and settled, `respond` reads the unit's
/// registered outputs and drives the matching inputs; it is told whether the run is still streaming
/// or draining after the last output ([`Phase`]), where any side-port request is an error. An error
/// from it ends the run with that message (as [`SimError::Responder`]).
pub fn run_stream_with<B: Block, I, O>(
    sim: &mut Sim<B>,
    inputs: &[I],
    bind: &StreamBinding<B, I, O>,
    cfg: &StreamConfig,
    respond: &mut dyn FnMut(&mut B, Phase) -> Result<(), String>,
) -> Result<(Vec<Transfer<O>>, StreamStats), SimError> {
    let mut rng = SplitMix64::new(cfg.seed);
    let mut stats = StreamStats::default();
    let mut outs = Vec::with_capacity(inputs.len());
    let mut accepted_at = Vec::with_capacity(inputs.len());
    let mut next = 0usize;
    let mut offering = false;
    let mut watch = IdleWatch::new(cfg.max_idle_cycles);
    let start = sim.cycle();
    while outs.len() < inputs.len() {
        if !offering && next < inputs.len() {
            offering = !rng.permille(cfg.in_idle_permille);
        }
        respond(&mut sim.uut, Phase::Stream).map_err(|message| SimError::Responder {
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
        watch.tick(
            in_fire || (out_valid && ready),
            cycle,
            accepted_at.len(),
            outs.len(),
            inputs.len(),
        )?;
        sim.step()?;
    }
    stats.cycles = sim.cycle() - start;
    stats.accepted = accepted_at.len();
    stats.emitted = outs.len();
    for _ in 0..drain_cycles(&outs) {
        respond(&mut sim.uut, Phase::Drain).map_err(|message| SimError::Responder {
            cycle: sim.cycle(),
            message,
        })?;
        (bind.drive)(&mut sim.uut, None);
        (bind.set_out_ready)(&mut sim.uut, true);
        sim.settle()?;
        if (bind.out_valid)(&sim.uut) {
            return Err(SimError::Trailing {
                cycle: sim.cycle(),
                outputs: outs.len(),
            });
        }
        sim.step()?;
    }
    (bind.drive)(&mut sim.uut, None);
    (bind.set_out_ready)(&mut sim.uut, true);
    sim.settle()?;
    Ok((outs, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A one-register valid/ready stage (`out_data` = the accepted `in_data`, latency 1) that, when
    /// `echo` is high, misbehaves: `GHOST_DELAY` cycles after it delivered a byte with bit 7 set it
    /// raises `out_valid` once more, with no input to account for it.
    #[derive(Clone, Debug, LogicBlock, Default)]
    struct Toy {
        clock: Signal<In, Clock>,
        in_valid: Signal<In, Bit>,
        in_ready: Signal<Out, Bit>,
        in_data: Signal<In, Bits<8>>,
        out_valid: Signal<Out, Bit>,
        out_ready: Signal<In, Bit>,
        out_data: Signal<Out, Bits<8>>,
        echo: Signal<In, Bit>,
        full: DFF<Bit>,
        data: DFF<Bits<8>>,
        ghost: DFF<Bits<4>>,
    }

    const GHOST_DELAY: u64 = 5;

    impl Logic for Toy {
        fn update(&mut self) {
            dff_setup!(self, clock, full, data, ghost);
            let ghost = self.ghost.q.val().to_u64();
            let take = self.out_ready.val();
            self.in_ready.next = !self.full.q.val() | take;
            self.out_valid.next = self.full.q.val() | (ghost == 1);
            self.out_data.next = self.data.q.val();
            if self.in_valid.val() & (!self.full.q.val() | take) {
                self.full.d.next = true;
                self.data.d.next = self.in_data.val();
            } else if take {
                self.full.d.next = false;
            }
            if ghost > 1 || (ghost == 1 && !take) {
                self.ghost.d.next = (ghost - u64::from(ghost > 1)).into();
            } else if ghost == 1 {
                self.ghost.d.next = 0.into();
            }
            if self.echo.val() & self.full.q.val() & take & self.data.q.val().get_bit(7) {
                self.ghost.d.next = GHOST_DELAY.into();
            }
        }
    }

    fn binding() -> StreamBinding<Toy, u8, u8> {
        StreamBinding {
            drive: |u, x| {
                u.in_valid.next = x.is_some();
                if let Some(x) = x {
                    u.in_data.next = (*x as u64).into();
                }
            },
            in_ready: |u| u.in_ready.val(),
            out_valid: |u| u.out_valid.val(),
            read: |u| u.out_data.val().to_u64() as u8,
            set_out_ready: |u, r| u.out_ready.next = r,
        }
    }

    fn toy(echo: bool) -> Sim<Toy> {
        let mut sim = Sim::new(Toy::default(), |u, c| u.clock.next = Clock::from(c));
        sim.uut.echo.next = echo;
        sim
    }

    fn cfg(seed: u64) -> StreamConfig {
        StreamConfig {
            in_idle_permille: 300,
            out_stall_permille: 300,
            seed,
            max_idle_cycles: 100,
        }
    }

    const INPUTS: [u8; 6] = [1, 2, 3, 4, 5, 0x86];

    #[test]
    fn a_quiet_unit_passes_the_drain_which_stats_do_not_count() {
        let mut sim = toy(false);
        let start = sim.cycle();
        let mut drained = 0u64;
        let (outs, stats) = run_stream_with(&mut sim, &INPUTS, &binding(), &cfg(1), &mut |_, p| {
            drained += u64::from(p == Phase::Drain);
            Ok(())
        })
        .expect("a unit that stays quiet passes");
        assert_eq!(outs.iter().map(|t| t.out).collect::<Vec<_>>(), INPUTS);
        let last = outs.last().expect("outputs");
        assert_eq!(stats.cycles, last.cycle_out + 1 - start);
        let drain = drain_cycles(&outs);
        assert!(drain > DRAIN_MARGIN, "latency ≥ 1 lengthens the drain");
        assert_eq!(drained, drain);
        assert_eq!(sim.cycle(), start + stats.cycles + drain);
    }

    #[test]
    fn an_extra_output_after_the_last_one_is_an_error() {
        for seed in 0..8 {
            let mut sim = toy(true);
            let err = run_stream(&mut sim, &INPUTS, &binding(), &cfg(seed))
                .expect_err("the ghost output must be caught");
            let SimError::Trailing { cycle, outputs } = err else {
                panic!("seed {seed}: {err}");
            };
            assert_eq!(outputs, INPUTS.len(), "seed {seed}");
            // The run ended with the last output at `cycle − GHOST_DELAY`: the ghost is caught in
            // the cycle it appears (`out_ready` is high during the drain).
            assert_eq!(sim.cycle(), cycle, "seed {seed}");
            if seed == 0 {
                println!("{err}");
            }
        }
    }

    #[test]
    fn a_side_port_request_in_the_drain_is_reported_by_the_responder() {
        let mut sim = toy(false);
        let err = run_stream_with(&mut sim, &INPUTS, &binding(), &cfg(2), &mut |_, p| {
            if p == Phase::Drain {
                Err("stray read".into())
            } else {
                Ok(())
            }
        })
        .expect_err("the responder's error ends the run");
        assert!(
            matches!(&err, SimError::Responder { message, .. } if message == "stray read"),
            "{err}"
        );
    }
}
