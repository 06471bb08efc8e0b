//! `texpix._texpix`: the Rust core of the Python test benches.
//!
//! Generic over [`Unit`]: every unit of texpix's registry ([`texpix_tb::registry`]) gets signal
//! access by name, a Rust clock, VCD dumping, its golden model, its ideal reference, random vectors,
//! batch runs and its Verilog, with no code of its own. The cocotb-like scheduler on top is pure Python (`python/texpix`).

mod engine;

use engine::{Core, Engine, Hdl, Net};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use texpix_sim::access::Role;
use texpix_sim::StreamConfig;
use texpix_tb::registry::{self, UnitFn, UNITS};
use texpix_tb::unit::Unit;

create_exception!(
    _texpix,
    SimError,
    PyRuntimeError,
    "The simulation failed (no settle, VCD I/O)."
);
create_exception!(
    _texpix,
    RustPanic,
    PyRuntimeError,
    "Rust code panicked; the simulator that panicked is unusable afterwards."
);

/// Stack for building and batch-running units: their signal trees are built by value before boxing.
const BIG_STACK: usize = 512 << 20;

/// [`registry::with_unit`] with an unknown name as a Python `ValueError`.
fn with_unit<F: UnitFn>(name: &str, f: F) -> PyResult<F::Out> {
    registry::with_unit(name, f).map_err(PyValueError::new_err)
}

/// Runs `f` on a thread with a big stack, turning a panic into [`RustPanic`].
fn on_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> PyResult<T> {
    let h = std::thread::Builder::new()
        .stack_size(BIG_STACK)
        .spawn(f)
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
    h.join().map_err(|p| RustPanic::new_err(panic_text(&*p)))
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".into()
    }
}

/// A block moved between threads once, before any simulation: rust-hdl blocks hold no
/// thread-bound state, but do not all declare `Send`.
struct Moved<T>(T);
// SAFETY: the value is built on one thread and handed to another after that thread ended; it is
// never shared.
unsafe impl<T> Send for Moved<T> {}

struct Build;
impl UnitFn for Build {
    type Out = PyResult<Box<dyn Engine>>;
    fn call<U: Unit>(self) -> Self::Out {
        let b = on_big_stack(|| Moved(Box::<U::Block>::default()))?;
        let core = Core::new(Hdl::new(b.0)).map_err(SimError::new_err)?;
        Ok(Box::new(core))
    }
}

struct BuildNet;
impl UnitFn for BuildNet {
    type Out = PyResult<Box<dyn Engine>>;
    fn call<U: Unit>(self) -> Self::Out {
        let net = on_big_stack(|| {
            texpix_tb::unit::compiled_netlist(U::TOP, U::DEPTHS[0], || {
                U::export(texpix_tb::unit::NETLIST_HEADER)
            })
        })?
        .map_err(SimError::new_err)?;
        let core = Core::new(Net::new(net)).map_err(SimError::new_err)?;
        Ok(Box::new(core))
    }
}

/// A unit under simulation at power-up (not reset), driven by the Python scheduler.
#[pyclass(unsendable, module = "texpix._texpix")]
struct Sim {
    eng: Box<dyn Engine>,
    broken: Option<String>,
}

impl Sim {
    /// Runs `f` on the engine; a panic marks the simulator broken and becomes [`RustPanic`].
    fn guard<T>(&mut self, f: impl FnOnce(&mut dyn Engine) -> Result<T, String>) -> PyResult<T> {
        if let Some(why) = &self.broken {
            return Err(RustPanic::new_err(format!(
                "the simulator panicked earlier and cannot continue: {why}"
            )));
        }
        let eng = &mut *self.eng;
        match catch_unwind(AssertUnwindSafe(|| f(eng))) {
            Ok(r) => r.map_err(SimError::new_err),
            Err(p) => {
                let why = panic_text(&*p);
                self.broken = Some(why.clone());
                Err(RustPanic::new_err(format!(
                    "Rust panic in the simulator: {why}"
                )))
            }
        }
    }
}

#[pymethods]
impl Sim {
    /// Builds the unit `unit` (its NAME or its Verilog TOP) on `engine`: `fast` (the default:
    /// `netlist` where Yosys is present, else `rtl`, with one line on stderr saying so), `rtl` (the
    /// rust-hdl model) or `netlist` (the same circuit compiled from its Yosys netlist; needs Yosys).
    #[new]
    #[pyo3(signature = (unit, engine = "fast"))]
    fn new(unit: &str, engine: &str) -> PyResult<Self> {
        let eng = match engine {
            "rtl" => with_unit(unit, Build)??,
            "netlist" => with_unit(unit, BuildNet)??,
            "fast" => match with_unit(unit, BuildNet)? {
                Ok(e) => e,
                Err(why) => {
                    eprintln!("texpix: {unit} runs on the rust-hdl model (the netlist engine is unavailable: {why})");
                    with_unit(unit, Build)??
                }
            },
            _ => {
                return Err(PyValueError::new_err(format!(
                    "unknown engine `{engine}` (expected fast, netlist or rtl)"
                )))
            }
        };
        Ok(Self { eng, broken: None })
    }

    /// Every signal: `(name, bits, role)` with role `in`, `out` or `internal`.
    fn signals(&self) -> Vec<(String, usize, &'static str)> {
        self.eng
            .sigs()
            .iter()
            .map(|s| {
                let role = match s.role {
                    Role::Input => "in",
                    Role::Output => "out",
                    Role::Internal => "internal",
                };
                (s.name.clone(), s.bits, role)
            })
            .collect()
    }

    /// The value of signal `h` (unsigned).
    fn get(&mut self, h: usize) -> PyResult<u128> {
        self.check(h)?;
        self.guard(|e| e.get(h))
    }

    /// Queues a write of input `h`; negative values within the signed range are two's complement.
    fn set(&mut self, h: usize, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.check(h)?;
        let s = &self.eng.sigs()[h];
        if s.role != Role::Input {
            return Err(PyTypeError::new_err(format!(
                "{} is {}: only top-level inputs can be written",
                s.name,
                if s.role == Role::Output {
                    "an output"
                } else {
                    "an internal signal"
                }
            )));
        }
        let bits = s.bits as u32;
        let too_wide = || {
            PyValueError::new_err(format!(
                "value {value} does not fit {} ({bits} bit{}): expected {} ≤ value < 2**{bits}",
                s.name,
                if bits == 1 { "" } else { "s" },
                if bits > 1 {
                    format!("-2**{}", bits - 1)
                } else {
                    "0".into()
                }
            ))
        };
        let v: u128 = if let Ok(u) = value.extract::<u128>() {
            if bits < 128 && u >> bits != 0 {
                return Err(too_wide());
            }
            u
        } else if let Ok(i) = value.extract::<i128>() {
            if bits < 2 || i < -(1i128 << (bits.min(128) - 1)) {
                return Err(too_wide());
            }
            (i as u128)
                & if bits >= 128 {
                    u128::MAX
                } else {
                    (1u128 << bits) - 1
                }
        } else if value.is_instance_of::<pyo3::types::PyInt>() {
            return Err(too_wide());
        } else {
            return Err(PyTypeError::new_err(format!(
                "{}: expected an int, got {}",
                s.name,
                value.get_type().name()?
            )));
        };
        if !s.writable {
            return Err(PyTypeError::new_err(format!(
                "{}: writing type {} is not supported",
                s.name, s.type_name
            )));
        }
        self.guard(|e| {
            e.queue(h, v);
            Ok(())
        })
    }

    /// Applies queued writes at time `t_ps` and settles.
    fn apply(&mut self, t_ps: u64) -> PyResult<()> {
        self.guard(|e| e.apply(t_ps))
    }

    /// Starts the Rust clock on input `h`.
    fn clock_start(
        &mut self,
        h: usize,
        period_ps: u64,
        t0_ps: u64,
        start_high: bool,
    ) -> PyResult<()> {
        self.check(h)?;
        let s = &self.eng.sigs()[h];
        if s.role != Role::Input || s.bits != 1 {
            return Err(PyTypeError::new_err(format!(
                "{}: a clock must drive a 1-bit top-level input",
                s.name
            )));
        }
        if period_ps < 2 {
            return Err(PyValueError::new_err(
                "the clock period must be at least 2 ps",
            ));
        }
        self.guard(|e| {
            e.clock_start(h, period_ps, t0_ps, start_high);
            Ok(())
        })
    }

    /// Stops the Rust clock.
    fn clock_stop(&mut self) -> PyResult<()> {
        self.guard(|e| {
            e.clock_stop();
            Ok(())
        })
    }

    /// The handle the clock drives, if any.
    fn clock_handle(&self) -> Option<usize> {
        self.eng.clock_handle()
    }

    /// `(time_ps, rising)` of the next clock edge.
    fn next_edge(&self) -> Option<(u64, bool)> {
        self.eng.next_edge()
    }

    /// Time of the `n`-th upcoming rising (or falling) clock edge.
    fn nth_edge(&self, n: u64, rising: bool) -> Option<u64> {
        self.eng.nth_edge(n, rising)
    }

    /// Executes the next clock edge, then the queued writes.
    fn edge(&mut self) -> PyResult<()> {
        self.guard(|e| e.edge())
    }

    /// The time step at `now_ps`: the clock edge due now, if one is (then the queued writes), else
    /// the queued writes.
    fn step_at(&mut self, now_ps: u64) -> PyResult<()> {
        self.guard(|e| match e.next_edge() {
            Some((t, _)) if t == now_ps => e.edge(),
            _ => e.apply(now_ps),
        })
    }

    /// Time of the `n`-th clock edge of `kind` (`rise`, `fall`, `any`) to come after `now_ps`; an
    /// edge due now counts unless tasks already woke for it (`fired`), as in an HDL simulator where
    /// code running after an edge's callbacks sees that edge as past.
    fn edge_time(&self, n: u64, kind: &str, now_ps: u64, fired: bool) -> PyResult<u64> {
        let (t_next, rising) = self
            .eng
            .next_edge()
            .ok_or_else(|| PyRuntimeError::new_err("no clock is running"))?;
        let fired = fired && t_next == now_ps;
        let nth = |n, r| {
            self.eng
                .nth_edge(n, r)
                .ok_or_else(|| PyRuntimeError::new_err("no clock is running"))
        };
        match kind {
            "any" => {
                let half = nth(1, !rising)? - t_next;
                Ok(t_next + if fired { n } else { n.saturating_sub(1) } * half)
            }
            "rise" | "fall" => {
                let want = kind == "rise";
                nth(if fired && rising == want { n + 1 } else { n }, want)
            }
            _ => Err(PyValueError::new_err(format!("unknown edge kind `{kind}`"))),
        }
    }

    /// Executes all clock edges before `t_end_ps` (stopping after one that changes a `watch`ed
    /// signal; returns its time).
    fn advance(&mut self, t_end_ps: u64, watch: Vec<usize>) -> PyResult<Option<u64>> {
        for &h in &watch {
            self.check(h)?;
        }
        self.guard(|e| e.advance(t_end_ps, &watch))
    }

    /// Rising edges of the Rust clock so far.
    fn rises(&self) -> u64 {
        self.eng.rises()
    }

    /// Starts a VCD of the signals whose path contains one of `filter` (all if empty).
    #[pyo3(signature = (path, t_ps, filter = Vec::new()))]
    fn vcd_start(&mut self, path: PathBuf, t_ps: u64, filter: Vec<String>) -> PyResult<()> {
        self.guard(|e| e.vcd_start(&path, &filter, t_ps))
    }

    /// Flushes and closes the VCD.
    fn vcd_stop(&mut self) -> PyResult<()> {
        self.guard(|e| e.vcd_stop())
    }

    /// Panics inside Rust on purpose (to test that the interpreter survives).
    fn _panic_for_test(&mut self) -> PyResult<()> {
        self.guard(|_| -> Result<(), String> { panic!("deliberate panic requested by a test") })
    }
}

impl Sim {
    fn check(&self, h: usize) -> PyResult<()> {
        if h < self.eng.sigs().len() {
            Ok(())
        } else {
            Err(PyValueError::new_err(format!("no signal handle {h}")))
        }
    }
}

struct Golden(Vec<String>);
impl UnitFn for Golden {
    type Out = PyResult<Vec<String>>;
    fn call<U: Unit>(self) -> Self::Out {
        let vectors = self
            .0
            .iter()
            .map(|line| {
                U::parse(line).map_err(|e| PyValueError::new_err(format!("{}: {e}", U::NAME)))
            })
            .collect::<PyResult<Vec<_>>>()?;
        let results = catch_unwind(AssertUnwindSafe(|| U::golden_batch(&vectors)))
            .map_err(|p| RustPanic::new_err(panic_text(&*p)))?;
        Ok(results
            .iter()
            .map(|r| U::result_json(r).to_string())
            .collect())
    }
}

struct Random(u64, usize);
impl UnitFn for Random {
    type Out = Vec<String>;
    fn call<U: Unit>(self) -> Self::Out {
        U::random(self.0, self.1)
            .iter()
            .map(|t| U::txn_json(t).to_string())
            .collect()
    }
}

/// One batch result: result JSON, input and output transfer cycles.
type BatchRow = (String, u64, u64);
/// Batch results and stream statistics `(cycles, in_stall_cycles, out_stall_cycles)`.
type BatchOut = (Vec<BatchRow>, (u64, u64, u64));

struct Batch(Vec<String>, StreamConfig, texpix_tb::unit::Engine);
impl UnitFn for Batch {
    type Out = PyResult<BatchOut>;
    fn call<U: Unit>(self) -> Self::Out {
        let txns = self
            .0
            .iter()
            .map(|l| U::parse(l).map_err(|e| format!("{}: {e}", U::NAME)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(PyValueError::new_err)?;
        let (cfg, engine) = (self.1, self.2);
        let txns = Moved(txns);
        let run = on_big_stack(move || -> Result<BatchOut, String> {
            let txns = txns;
            let txns = &txns.0;
            let mut sim = U::new_sim_on(engine)?;
            let (res, st) = U::run(&mut sim, txns, &cfg)?;
            let rows = res
                .iter()
                .map(|r| (U::result_json(&r.out).to_string(), r.cycle_in, r.cycle_out))
                .collect();
            Ok((rows, (st.cycles, st.in_stall_cycles, st.out_stall_cycles)))
        })?;
        run.map_err(SimError::new_err)
    }
}

struct Export(String);
impl UnitFn for Export {
    type Out = PyResult<String>;
    fn call<U: Unit>(self) -> Self::Out {
        let h = self.0;
        on_big_stack(move || U::export(&h))?.map_err(SimError::new_err)
    }
}

/// The ideal (exact or f64) reference of one vector, as JSON (each unit's `ideal_json`): coverage
/// `{"covered": [4], "covmask", "pixld"}` (covered samples before the sample mask, and the full ideal
/// result), LOD per-lane arrays of its ideal fields (NaN/±Inf as null), texaddr (direct form only)
/// per lane the exact taps and the real weights α·256, BVH the reference's debug text
/// (`{"debug": ...}`).
#[pyfunction]
fn ideal(unit: &str, line: &str) -> PyResult<String> {
    with_unit(unit, Ideal(line.to_string()))?
}

struct Ideal(String);
impl UnitFn for Ideal {
    type Out = PyResult<String>;
    fn call<U: Unit>(self) -> Self::Out {
        let t =
            U::parse(&self.0).map_err(|e| PyValueError::new_err(format!("{}: {e}", U::NAME)))?;
        let v =
            U::ideal_json(&t).map_err(|e| PyValueError::new_err(format!("{}: {e}", U::NAME)))?;
        Ok(v.to_string())
    }
}

/// Golden-model results (JSON) for vectors (JSON lines) of `unit`.
#[pyfunction]
fn golden(unit: &str, lines: Vec<String>) -> PyResult<Vec<String>> {
    with_unit(unit, Golden(lines))?
}

/// `n` random and edge-case vectors of `unit` (JSON lines).
#[pyfunction]
fn random(unit: &str, seed: u64, n: usize) -> PyResult<Vec<String>> {
    with_unit(unit, Random(seed, n))
}

/// Runs vectors (JSON lines) through a fresh, reset `unit` with random back-pressure; returns
/// `([(result_json, cycle_in, cycle_out)], (cycles, in_stall_cycles, out_stall_cycles))`.
// Python keyword arguments, one per stream setting.
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (unit, lines, in_idle_permille = 0, out_stall_permille = 0, seed = 1, max_idle_cycles = 10_000, engine = "fast"))]
fn batch(
    py: Python<'_>,
    unit: &str,
    lines: Vec<String>,
    in_idle_permille: u32,
    out_stall_permille: u32,
    seed: u64,
    max_idle_cycles: u64,
    engine: &str,
) -> PyResult<BatchOut> {
    let engine: texpix_tb::unit::Engine = engine.parse().map_err(PyValueError::new_err)?;
    let cfg = StreamConfig {
        in_idle_permille,
        out_stall_permille,
        seed,
        max_idle_cycles,
    };
    let unit = unit.to_string();
    py.detach(move || with_unit(&unit, Batch(lines, cfg, engine)))?
}

/// The Verilog of `unit` (top module = its TOP name), with `header` as a comment.
#[pyfunction]
#[pyo3(signature = (unit, header = "generated by texpix (Python)"))]
fn export(unit: &str, header: &str) -> PyResult<String> {
    with_unit(unit, Export(header.to_string()))?
}

/// Registered units as `(name, verilog_top)`.
#[pyfunction]
fn units() -> Vec<(&'static str, &'static str)> {
    UNITS.iter().map(|u| (u.name, u.top)).collect()
}

#[pymodule]
fn _texpix(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Sim>()?;
    m.add_function(wrap_pyfunction!(golden, m)?)?;
    m.add_function(wrap_pyfunction!(ideal, m)?)?;
    m.add_function(wrap_pyfunction!(random, m)?)?;
    m.add_function(wrap_pyfunction!(batch, m)?)?;
    m.add_function(wrap_pyfunction!(export, m)?)?;
    m.add_function(wrap_pyfunction!(units, m)?)?;
    m.add("SimError", m.py().get_type::<SimError>())?;
    m.add("RustPanic", m.py().get_type::<RustPanic>())?;
    Ok(())
}
