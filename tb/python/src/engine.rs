//! The event core the Python scheduler drives: queued writes, a clock generator that runs in Rust,
//! settling, and VCD dumping.
//!
//! Semantics (mirroring an event-driven HDL simulator as seen from cocotb): writes are queued and
//! take effect at the end of the current time step; at a clock edge the flip-flops sample first and
//! the writes made by code that woke on that edge land after it. Times are in picoseconds; the VCD
//! (timescale 1 ns) gets `t / 1000`.

use rust_hdl::prelude::Block;
use std::path::Path;
use texpix_rtl::export::port_name;
use texpix_sim::access::{self, Role, Sig};
use texpix_sim::netlist::{NetVcd, PortDir};
use texpix_sim::{NetSim, VcdWriter};

/// Update passes allowed before a time step is declared unsettled (a combinational loop).
const MAX_SETTLE_PASSES: usize = 10_000;

/// A periodic 50 % clock on one 1-bit input.
#[derive(Clone, Debug)]
struct ClockGen {
    handle: usize,
    half_ps: u64,
    next_t: u64,
    next_high: bool,
}

/// What the scheduler needs from a simulated unit, independent of its type.
pub trait Engine {
    /// The signal table.
    fn sigs(&self) -> &[Sig];
    /// Current settled value of signal `h`.
    fn get(&self, h: usize) -> Result<u128, String>;
    /// Queues a write of input `h` (applied by [`Engine::apply`] or [`Engine::edge`]).
    fn queue(&mut self, h: usize, v: u128);
    /// Applies queued writes at time `t` and settles.
    fn apply(&mut self, t: u64) -> Result<(), String>;
    /// Starts the clock on input `h`: first edge at `t0` (rising if `start_high`).
    fn clock_start(&mut self, h: usize, period_ps: u64, t0: u64, start_high: bool);
    /// Stops the clock (it keeps its level).
    fn clock_stop(&mut self);
    /// The clock's handle, if one runs.
    fn clock_handle(&self) -> Option<usize>;
    /// Time and direction (rising = true) of the next clock edge.
    fn next_edge(&self) -> Option<(u64, bool)>;
    /// Time of the `n`-th (from 1) upcoming rising (or falling) edge.
    fn nth_edge(&self, n: u64, rising: bool) -> Option<u64>;
    /// Executes the next clock edge: flip-flops sample, then queued writes land; settles and dumps.
    fn edge(&mut self) -> Result<(), String>;
    /// Executes every clock edge before `t_end`; stops early, returning its time, after an edge
    /// that changed one of the `watch` signals.
    fn advance(&mut self, t_end: u64, watch: &[usize]) -> Result<Option<u64>, String>;
    /// Rising clock edges executed so far.
    fn rises(&self) -> u64;
    /// Starts dumping signals matching `filter` (all if empty) at time `t`.
    fn vcd_start(&mut self, path: &Path, filter: &[String], t: u64) -> Result<(), String>;
    /// Flushes and closes the VCD.
    fn vcd_stop(&mut self) -> Result<(), String>;
}

/// A simulated circuit as the scheduler sees it: named signals, input writes, settling, waveforms.
pub trait Circuit {
    /// The signal table (handles are indices).
    fn sigs(&self) -> &[Sig];
    /// Settled value of signal `h`.
    fn read(&self, h: usize) -> Result<u128, String>;
    /// Drives top-level input `h` (takes effect when settled; a clock's edge clocks at once).
    fn write(&mut self, h: usize, v: u128) -> Result<(), String>;
    /// Propagates writes until nothing changes.
    fn settle(&mut self) -> Result<(), String>;
    /// Opens a VCD of the signals matching `filter` (all if empty).
    fn vcd_create(&mut self, path: &Path, filter: &[String]) -> Result<(), String>;
    /// Writes the changes at `t_ns`, if a VCD is open.
    fn vcd_sample(&mut self, t_ns: u64) -> Result<(), String>;
    /// Flushes and closes the VCD, if one is open.
    fn vcd_finish(&mut self) -> Result<(), String>;
}

/// The rust-hdl model itself: every block's `update` until nothing changes.
pub struct Hdl<B: Block> {
    uut: Box<B>,
    sigs: Vec<Sig>,
    vcd: Option<VcdWriter>,
}

impl<B: Block> Hdl<B> {
    /// Connects `uut` (boxed, never moved afterwards: the signal table holds addresses into it).
    pub fn new(mut uut: Box<B>) -> Self {
        uut.connect_all();
        let sigs = access::table(&*uut, port_name);
        Self {
            uut,
            sigs,
            vcd: None,
        }
    }
}

impl<B: Block> Circuit for Hdl<B> {
    fn sigs(&self) -> &[Sig] {
        &self.sigs
    }

    fn read(&self, h: usize) -> Result<u128, String> {
        let s = &self.sigs[h];
        match s.access {
            Some(a) => Ok(a.get()),
            None => access::read_by_id(&*self.uut, s.id)
                .map_err(|e| format!("{}: not readable as an integer: {e}", s.name)),
        }
    }

    fn write(&mut self, h: usize, v: u128) -> Result<(), String> {
        match self.sigs[h].access {
            Some(a) if a.set(v) => Ok(()),
            _ => Err(format!("{} cannot be written", self.sigs[h].name)),
        }
    }

    fn settle(&mut self) -> Result<(), String> {
        for _ in 0..MAX_SETTLE_PASSES {
            self.uut.update_all();
            if !self.uut.has_changed() {
                return Ok(());
            }
        }
        Err(format!(
            "the circuit did not settle after {MAX_SETTLE_PASSES} update passes (combinational loop?)"
        ))
    }

    fn vcd_create(&mut self, path: &Path, filter: &[String]) -> Result<(), String> {
        let w = VcdWriter::create(path, &*self.uut, filter)
            .map_err(|e| format!("{}: cannot create the VCD: {e}", path.display()))?;
        self.vcd = Some(w);
        Ok(())
    }

    fn vcd_sample(&mut self, t_ns: u64) -> Result<(), String> {
        if let Some(w) = self.vcd.as_mut() {
            w.sample(t_ns, &*self.uut)
                .map_err(|e| format!("{}: writing the VCD failed: {e}", w.path()))?;
        }
        Ok(())
    }

    fn vcd_finish(&mut self) -> Result<(), String> {
        match self.vcd.take() {
            Some(w) => {
                let p = w.path().to_string();
                w.finish()
                    .map_err(|e| format!("{p}: writing the VCD failed: {e}"))
            }
            None => Ok(()),
        }
    }
}

/// The same circuit compiled from its Yosys netlist ([`NetSim`]): event-driven, levelised.
pub struct Net {
    sim: NetSim,
    sigs: Vec<Sig>,
    vcd: Option<NetVcd>,
}

impl Net {
    /// Wraps a compiled netlist; its inputs that clock flip-flops are the clocks.
    pub fn new(mut sim: NetSim) -> Self {
        sim.settle();
        let sigs = sim
            .signals()
            .iter()
            .enumerate()
            .map(|(h, n)| Sig {
                name: n.name.clone(),
                bits: n.width,
                role: match n.dir {
                    PortDir::Input => Role::Input,
                    PortDir::Output => Role::Output,
                    PortDir::Internal => Role::Internal,
                },
                id: h,
                access: None,
                writable: n.dir == PortDir::Input,
                type_name: if sim.is_clock(h) {
                    "clock".into()
                } else if n.width == 1 {
                    "Bit".into()
                } else {
                    format!("Bits::<{}>", n.width)
                },
            })
            .collect();
        Self {
            sim,
            sigs,
            vcd: None,
        }
    }
}

impl Circuit for Net {
    fn sigs(&self) -> &[Sig] {
        &self.sigs
    }

    fn read(&self, h: usize) -> Result<u128, String> {
        Ok(self.sim.get(h))
    }

    fn write(&mut self, h: usize, v: u128) -> Result<(), String> {
        self.sim.set(h, v)
    }

    fn settle(&mut self) -> Result<(), String> {
        self.sim.settle();
        Ok(())
    }

    fn vcd_create(&mut self, path: &Path, filter: &[String]) -> Result<(), String> {
        let w = NetVcd::create(path, &self.sim, filter)
            .map_err(|e| format!("{}: cannot create the VCD: {e}", path.display()))?;
        self.vcd = Some(w);
        Ok(())
    }

    fn vcd_sample(&mut self, t_ns: u64) -> Result<(), String> {
        if let Some(w) = self.vcd.as_mut() {
            w.sample(t_ns, &self.sim)
                .map_err(|e| format!("{}: writing the VCD failed: {e}", w.path()))?;
        }
        Ok(())
    }

    fn vcd_finish(&mut self) -> Result<(), String> {
        match self.vcd.take() {
            Some(w) => {
                let p = w.path().to_string();
                w.finish()
                    .map_err(|e| format!("{p}: writing the VCD failed: {e}"))
            }
            None => Ok(()),
        }
    }
}

/// [`Engine`] for any [`Circuit`]: queued writes, the Rust clock, edges, VCD timing.
pub struct Core<C: Circuit> {
    c: C,
    pending: Vec<(usize, u128)>,
    clock: Option<ClockGen>,
    rises: u64,
}

impl<C: Circuit> Core<C> {
    /// Settles `c` at power-up.
    pub fn new(mut c: C) -> Result<Self, String> {
        c.settle()?;
        Ok(Self {
            c,
            pending: Vec::new(),
            clock: None,
            rises: 0,
        })
    }

    fn dump(&mut self, t: u64) -> Result<(), String> {
        self.c.vcd_sample(t / 1000)
    }

    /// Applies queued writes: data first, then writes to a clock-like input, each settled, so a
    /// hand-driven clock edge samples the data written with it as an HDL simulator's would.
    fn flush_pending(&mut self) -> Result<(), String> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        let (clocks, data): (Vec<_>, Vec<_>) = pending
            .into_iter()
            .partition(|(h, _)| self.c.sigs()[*h].type_name == "clock");
        for (h, v) in data {
            self.c.write(h, v)?;
        }
        self.c.settle()?;
        if !clocks.is_empty() {
            for (h, v) in clocks {
                self.c.write(h, v)?;
            }
            self.c.settle()?;
        }
        Ok(())
    }

    fn watched(&self, watch: &[usize]) -> Result<Vec<u128>, String> {
        watch.iter().map(|&h| self.get(h)).collect()
    }
}

impl<C: Circuit> Engine for Core<C> {
    fn sigs(&self) -> &[Sig] {
        self.c.sigs()
    }

    fn get(&self, h: usize) -> Result<u128, String> {
        self.c.read(h)
    }

    fn queue(&mut self, h: usize, v: u128) {
        debug_assert_eq!(self.c.sigs()[h].role, Role::Input);
        self.pending.push((h, v));
    }

    fn apply(&mut self, t: u64) -> Result<(), String> {
        if self.pending.is_empty() {
            return Ok(());
        }
        self.flush_pending()?;
        self.dump(t)
    }

    fn clock_start(&mut self, h: usize, period_ps: u64, t0: u64, start_high: bool) {
        self.clock = Some(ClockGen {
            handle: h,
            half_ps: (period_ps / 2).max(1),
            next_t: t0,
            next_high: start_high,
        });
    }

    fn clock_stop(&mut self) {
        self.clock = None;
    }

    fn clock_handle(&self) -> Option<usize> {
        self.clock.as_ref().map(|c| c.handle)
    }

    fn next_edge(&self) -> Option<(u64, bool)> {
        self.clock.as_ref().map(|c| (c.next_t, c.next_high))
    }

    fn nth_edge(&self, n: u64, rising: bool) -> Option<u64> {
        let c = self.clock.as_ref()?;
        let first = if c.next_high == rising {
            c.next_t
        } else {
            c.next_t + c.half_ps
        };
        Some(first + (n.max(1) - 1) * 2 * c.half_ps)
    }

    fn edge(&mut self) -> Result<(), String> {
        let Some(c) = self.clock.clone() else {
            return Err("no clock is running".into());
        };
        self.c.write(c.handle, c.next_high as u128)?;
        self.c.settle()?;
        if c.next_high {
            self.rises += 1;
        }
        if let Some(g) = self.clock.as_mut() {
            g.next_t += g.half_ps;
            g.next_high = !g.next_high;
        }
        self.flush_pending()?;
        self.dump(c.next_t)
    }

    fn advance(&mut self, t_end: u64, watch: &[usize]) -> Result<Option<u64>, String> {
        let mut before = if watch.is_empty() {
            Vec::new()
        } else {
            self.watched(watch)?
        };
        while let Some((t, _)) = self.next_edge() {
            if t >= t_end {
                break;
            }
            self.edge()?;
            if !watch.is_empty() {
                let now = self.watched(watch)?;
                if now != before {
                    return Ok(Some(t));
                }
                before = now;
            }
        }
        Ok(None)
    }

    fn rises(&self) -> u64 {
        self.rises
    }

    fn vcd_start(&mut self, path: &Path, filter: &[String], t: u64) -> Result<(), String> {
        self.c.vcd_finish()?;
        self.c.vcd_create(path, filter)?;
        self.dump(t)
    }

    fn vcd_stop(&mut self) -> Result<(), String> {
        self.c.vcd_finish()
    }
}
