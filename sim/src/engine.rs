//! The clock/settle engine.

use crate::vcd_writer::VcdWriter;
use rust_hdl::prelude::*;
use std::fmt;
use std::path::Path;

/// Update passes allowed before a half cycle is declared unsettled (a combinational loop).
pub const MAX_SETTLE_PASSES: usize = 10_000;

/// Why a simulation stopped.
#[derive(Debug)]
pub enum SimError {
    /// The circuit kept changing: a combinational loop or an oscillating signal.
    NoSettle { cycle: u64, passes: usize },
    /// A stream made no progress for too long (a lost transaction or a deadlock).
    Stalled {
        cycle: u64,
        accepted: usize,
        emitted: usize,
        inputs: usize,
    },
    /// The unit produced more outputs than it was given inputs.
    Duplicate { cycle: u64, inputs: usize },
    /// Writing the waveform failed.
    Vcd { path: String, cause: String },
    /// A side-port responder (memory, residency map) found the unit's request wrong.
    Responder { cycle: u64, message: String },
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::NoSettle { cycle, passes } => write!(
                f,
                "cycle {cycle}: the circuit did not settle after {passes} update passes (combinational loop?)"
            ),
            SimError::Stalled { cycle, accepted, emitted, inputs } => write!(
                f,
                "cycle {cycle}: no progress: {accepted} of {inputs} inputs accepted, {emitted} outputs received (lost transaction or deadlock)"
            ),
            SimError::Duplicate { cycle, inputs } => write!(
                f,
                "cycle {cycle}: the unit returned more outputs than the {inputs} inputs it accepted (duplicated transaction)"
            ),
            SimError::Vcd { path, cause } => write!(f, "{path}: writing the VCD failed: {cause}"),
            SimError::Responder { cycle, message } => write!(f, "cycle {cycle}: {message}"),
        }
    }
}

impl std::error::Error for SimError {}

/// A callback run once per cycle after the inputs have settled, before the rising edge.
pub type Probe<B> = Box<dyn FnMut(&B)>;

/// A block under simulation.
///
/// Timeline (clock period 10 time units, timescale 1 ns): cycle `c`'s inputs are applied at `t = 10c`
/// with the clock low, the rising edge is at `10c + 5`, the falling edge at `10c + 10` (the next
/// cycle's input time). The caller sets inputs, then calls [`Sim::step`], which settles the inputs
/// *before* raising the clock (inputs that reach a flip-flop through a sub-block would otherwise be
/// sampled a cycle late), then clocks.
pub struct Sim<B: Block> {
    /// The unit (boxed: a unit's signal tree can be several hundred KiB); set its inputs between
    /// steps, read its outputs after [`Sim::settle`].
    pub uut: Box<B>,
    set_clock: fn(&mut B, bool),
    cycle: u64,
    vcd: Option<VcdWriter>,
    probe: Option<Probe<B>>,
}

impl<B: Block> Sim<B> {
    /// Connects `uut`; `set_clock` drives its clock input.
    pub fn new(uut: B, set_clock: fn(&mut B, bool)) -> Self {
        Self::boxed(Box::new(uut), set_clock)
    }

    /// [`Sim::new`] for a unit already on the heap (`Box::default()`), which keeps large units off
    /// the stack.
    pub fn boxed(mut uut: Box<B>, set_clock: fn(&mut B, bool)) -> Self {
        uut.connect_all();
        set_clock(&mut uut, false);
        Self {
            uut,
            set_clock,
            cycle: 0,
            vcd: None,
            probe: None,
        }
    }

    /// Cycles stepped so far.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Propagates changes until nothing changes.
    pub fn settle(&mut self) -> Result<(), SimError> {
        for _ in 0..MAX_SETTLE_PASSES {
            self.uut.update_all();
            if !self.uut.has_changed() {
                return Ok(());
            }
        }
        Err(SimError::NoSettle {
            cycle: self.cycle,
            passes: MAX_SETTLE_PASSES,
        })
    }

    /// Runs `probe` every cycle after the inputs settle (e.g. to record a port trace).
    pub fn set_probe(&mut self, probe: Probe<B>) {
        self.probe = Some(probe);
    }

    /// One clock cycle: settle inputs, rising edge, falling edge.
    pub fn step(&mut self) -> Result<(), SimError> {
        self.settle()?;
        if let Some(p) = self.probe.as_mut() {
            p(&self.uut);
        }
        self.dump(10 * self.cycle)?;
        (self.set_clock)(&mut self.uut, true);
        self.settle()?;
        self.dump(10 * self.cycle + 5)?;
        (self.set_clock)(&mut self.uut, false);
        self.settle()?;
        self.cycle += 1;
        Ok(())
    }

    /// Holds a synchronous reset (driven by `set_reset`) for `cycles` cycles, then releases it.
    pub fn reset(&mut self, set_reset: fn(&mut B, bool), cycles: u64) -> Result<(), SimError> {
        set_reset(&mut self.uut, true);
        for _ in 0..cycles {
            self.step()?;
        }
        set_reset(&mut self.uut, false);
        self.settle()
    }

    /// Starts dumping a VCD of every signal whose path contains one of `filter` (all if empty), and a
    /// GTKWave save file beside it. Dumping starts at the current cycle.
    pub fn dump_vcd(&mut self, path: &Path, filter: &[String]) -> Result<(), SimError> {
        self.settle()?;
        let w = VcdWriter::create(path, &*self.uut, filter).map_err(|e| SimError::Vcd {
            path: path.display().to_string(),
            cause: e.to_string(),
        })?;
        self.vcd = Some(w);
        self.dump(10 * self.cycle)
    }

    /// Flushes and closes the VCD (also done when the simulator is dropped).
    pub fn finish_vcd(&mut self) -> Result<(), SimError> {
        match self.vcd.take() {
            Some(w) => {
                let path = w.path().to_string();
                w.finish().map_err(|e| SimError::Vcd {
                    path,
                    cause: e.to_string(),
                })
            }
            None => Ok(()),
        }
    }

    fn dump(&mut self, t: u64) -> Result<(), SimError> {
        if let Some(w) = self.vcd.as_mut() {
            w.sample(t, &*self.uut).map_err(|e| SimError::Vcd {
                path: w.path().to_string(),
                cause: e.to_string(),
            })?;
        }
        Ok(())
    }
}
