//! The clock/settle engine.

use crate::access::{self, Access, Role};
use crate::netlist::{NetSim, NetVcd};
use crate::vcd_writer::VcdWriter;
use rust_hdl::prelude::*;
use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

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
    /// `out_valid` was high in the drain after the last expected output (an extra output).
    Trailing { cycle: u64, outputs: usize },
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
            SimError::Trailing { cycle, outputs } => write!(
                f,
                "cycle {cycle}: out_valid after the last of the {outputs} expected outputs, with the input idle (a trailing, extra output)"
            ),
            SimError::Vcd { path, cause } => write!(f, "{path}: writing the VCD failed: {cause}"),
            SimError::Responder { cycle, message } => write!(f, "cycle {cycle}: {message}"),
        }
    }
}

impl std::error::Error for SimError {}

/// Passes [`settle_block`] allows before it calls the block a combinational loop.
pub const BLOCK_SETTLE_PASSES: usize = 200;

/// Settles a block driven by hand, outside a [`Sim`] (block tests): `update_all` until nothing
/// changes. Panics after [`BLOCK_SETTLE_PASSES`] passes (a combinational loop), naming the block's
/// type.
pub fn settle_block<B: Block>(block: &mut B) {
    for _ in 0..BLOCK_SETTLE_PASSES {
        block.update_all();
        if !block.has_changed() {
            return;
        }
    }
    panic!(
        "{} did not settle after {BLOCK_SETTLE_PASSES} update passes (combinational loop?)",
        std::any::type_name::<B>()
    );
}

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
    vcd: Option<Waves>,
    probe: Option<Probe<B>>,
    net: Option<Box<NetBackend>>,
    /// Published cycle count for an observer on another thread ([`Sim::cycle_counter`]).
    published: Option<Arc<AtomicU64>>,
}

/// An open waveform: of the rust-hdl hierarchy or of the netlist.
enum Waves {
    Hdl(VcdWriter),
    Net(NetVcd),
}

/// The netlist backend ([`Sim::on_netlist`]): the block is a typed view of the ports only.
struct NetBackend {
    net: NetSim,
    /// The block's top-level inputs, their netlist handles and the values last copied (clocks last).
    inputs: Vec<(Access, usize, Option<u128>)>,
    /// The block's outputs, their handles and the values last copied.
    outputs: Vec<(Access, usize, Option<u128>)>,
    /// How many of `inputs` are data inputs (the rest are clocks).
    data_inputs: usize,
}

impl NetBackend {
    /// Copies the block's inputs from index `first` on (clocks are last) that changed into the
    /// netlist: 0 for all, `data_inputs` for the clocks only.
    fn copy_inputs(&mut self, first: usize, cycle: u64) -> Result<(), SimError> {
        for (a, h, last) in self.inputs[first..].iter_mut() {
            let v = a.get();
            if *last != Some(v) {
                *last = Some(v);
                a.force(v);
                self.net
                    .set(*h, v)
                    .map_err(|message| SimError::Responder { cycle, message })?;
            }
        }
        Ok(())
    }

    /// Settles the netlist and copies the outputs that changed into the block.
    fn settle_outputs(&mut self) {
        self.net.settle();
        for (a, h, last) in self.outputs.iter_mut() {
            let v = self.net.get(*h);
            if *last != Some(v) {
                *last = Some(v);
                a.force(v);
            }
        }
    }
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
            net: None,
            published: None,
        }
    }

    /// Simulates `net`, the compiled netlist of `uut`'s exported Verilog, instead of `uut` itself:
    /// `uut` only carries the port values (drivers write its inputs and read its outputs as usual;
    /// internal signals are not computed — the netlist's VCD has them). `rename` maps a rust-hdl
    /// port name to the netlist's (the export's spelling).
    pub fn on_netlist(
        mut uut: Box<B>,
        set_clock: fn(&mut B, bool),
        net: NetSim,
        rename: fn(&str) -> String,
    ) -> Result<Self, String> {
        uut.connect_all();
        set_clock(&mut uut, false);
        let mut inputs = Vec::new();
        let mut outputs = Vec::new();
        for sig in access::table(&*uut, rename) {
            if sig.role == Role::Internal {
                continue;
            }
            let h = net
                .find(&sig.name)
                .ok_or_else(|| format!("the netlist has no port {}", sig.name))?;
            let a = sig.access.ok_or_else(|| {
                format!(
                    "port {} (type {}) has no typed access",
                    sig.name, sig.type_name
                )
            })?;
            if sig.role == Role::Input {
                inputs.push((a, h, None));
            } else {
                outputs.push((a, h, None));
            }
        }
        inputs.sort_by_key(|&(_, h, _)| net.is_clock(h));
        let data_inputs = inputs.iter().filter(|&&(_, h, _)| !net.is_clock(h)).count();
        let mut sim = Self::boxed(uut, set_clock);
        sim.net = Some(Box::new(NetBackend {
            net,
            inputs,
            outputs,
            data_inputs,
        }));
        sim.settle().map_err(|e| e.to_string())?;
        Ok(sim)
    }

    /// The compiled netlist, if this simulator runs one.
    pub fn netlist(&self) -> Option<&NetSim> {
        self.net.as_ref().map(|n| &n.net)
    }

    /// Cycles stepped so far.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Propagates changes until nothing changes.
    pub fn settle(&mut self) -> Result<(), SimError> {
        if let Some(n) = self.net.as_mut() {
            n.copy_inputs(0, self.cycle)?;
            n.settle_outputs();
            return Ok(());
        }
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

    /// A counter that follows [`Sim::cycle`] after every step, for a progress display on another
    /// thread (reading it never disturbs the simulation).
    pub fn cycle_counter(&mut self) -> Arc<AtomicU64> {
        let c = self
            .published
            .get_or_insert_with(|| Arc::new(AtomicU64::new(self.cycle)));
        c.clone()
    }

    /// One clock cycle: settle inputs, rising edge, falling edge.
    pub fn step(&mut self) -> Result<(), SimError> {
        self.settle()?;
        if let Some(p) = self.probe.as_mut() {
            p(&self.uut);
        }
        self.dump(10 * self.cycle)?;
        if let (Some(n), None) = (self.net.as_mut(), &self.vcd) {
            // The netlist without a waveform: only the clock changes during the cycle, so only the
            // clocks (the last inputs) are copied at each edge, and the circuit settles once, after
            // both edges.
            let clocks = n.data_inputs;
            (self.set_clock)(&mut self.uut, true);
            n.copy_inputs(clocks, self.cycle)?;
            (self.set_clock)(&mut self.uut, false);
            n.copy_inputs(clocks, self.cycle)?;
            n.settle_outputs();
            self.cycle += 1;
            if let Some(c) = &self.published {
                c.store(self.cycle, Ordering::Relaxed);
            }
            return Ok(());
        }
        (self.set_clock)(&mut self.uut, true);
        self.settle()?;
        self.dump(10 * self.cycle + 5)?;
        (self.set_clock)(&mut self.uut, false);
        self.settle()?;
        self.cycle += 1;
        if let Some(c) = &self.published {
            c.store(self.cycle, Ordering::Relaxed);
        }
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
        let w = match &self.net {
            Some(n) => NetVcd::create(path, &n.net, filter).map(Waves::Net),
            None => VcdWriter::create(path, &*self.uut, filter).map(Waves::Hdl),
        }
        .map_err(|e| SimError::Vcd {
            path: path.display().to_string(),
            cause: e.to_string(),
        })?;
        self.vcd = Some(w);
        self.dump(10 * self.cycle)
    }

    /// Flushes and closes the VCD (also done when the simulator is dropped).
    pub fn finish_vcd(&mut self) -> Result<(), SimError> {
        let (path, r) = match self.vcd.take() {
            Some(Waves::Hdl(w)) => (w.path().to_string(), w.finish()),
            Some(Waves::Net(w)) => (w.path().to_string(), w.finish()),
            None => return Ok(()),
        };
        r.map_err(|e| SimError::Vcd {
            path,
            cause: e.to_string(),
        })
    }

    fn dump(&mut self, t: u64) -> Result<(), SimError> {
        let (path, r) = match (self.vcd.as_mut(), &self.net) {
            (Some(Waves::Hdl(w)), _) => (w.path().to_string(), w.sample(t, &*self.uut)),
            (Some(Waves::Net(w)), Some(n)) => (w.path().to_string(), w.sample(t, &n.net)),
            _ => return Ok(()),
        };
        r.map_err(|e| SimError::Vcd {
            path,
            cause: e.to_string(),
        })
    }
}
