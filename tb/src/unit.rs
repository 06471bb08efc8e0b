//! What the program and the test benches need of a unit, so that running, generating, tracing,
//! co-simulating and benchmarking are written once for every unit.
//!
//! A unit is its RTL folder `rtl/src/<unit>/`, its test-bench folder `tb/src/<unit>/` and one line
//! in [`crate::registry`]. The test-bench folder has the same files in every unit:
//!
//! | file | what |
//! |---|---|
//! | `mod.rs` | transaction and result types, the bit-accurate golden model `golden` |
//! | `ideal.rs` | the ideal (exact or f64) reference, and `ideal_json` |
//! | `io.rs` | the vector format: `parse_line`, `txn_json`, `result_json` |
//! | `stim.rs` | edge-case and random stimulus: `random(seed, n)` |
//! | `dut.rs` | the RTL driver: `run(sim, vectors, cfg)`, with any side-port responders |
//! | `unit.rs` | the [`Unit`] impl: [`unit_impl!`](crate::unit_impl) over those names |

use crate::vectors::FieldError;
use rust_hdl::prelude::Block;
use serde_json::Value;
use std::collections::HashMap;
use std::fmt::Debug;
use std::sync::{Mutex, OnceLock};
use texpix_rtl::export::port_name;
use texpix_sim::netlist::yosys::cache_dir;
use texpix_sim::{NetSim, Sim, SimError, StreamConfig, StreamStats, Transfer};

/// RTL results of a run, in order, and what the stream cost.
pub type RtlRun<R> = Result<(Vec<Transfer<R>>, StreamStats), String>;

/// A unit: its vectors, golden model, ideal reference, RTL driver and Verilog export.
pub trait Unit: 'static {
    /// The RTL block.
    type Block: Block + Default;
    /// One vector.
    type Txn: Clone + Debug;
    /// One vector's result.
    type Res: PartialEq + Debug;
    /// Name on the command line.
    const NAME: &'static str;
    /// Exported top module.
    const TOP: &'static str;
    /// The RTL block's type name (its struct in [`Unit::PORTS_DOC`]).
    const BLOCK: &'static str;
    /// One line: what the unit is.
    const ABOUT: &'static str;
    /// Vectors in a quick co-simulation test (`tb/tests/verilog.rs`, `tb/tests/netlist.rs`): sized
    /// so that one Icarus run takes seconds.
    const TEST_VECTORS: usize;
    /// Vectors in the Icarus co-simulation test: fewer where Icarus is too slow for the unit.
    const ICARUS_VECTORS: usize = Self::TEST_VECTORS;
    /// Parses one vector line.
    fn parse(line: &str) -> Result<Self::Txn, FieldError>;
    /// A vector as JSON.
    fn txn_json(t: &Self::Txn) -> Value;
    /// A result as a JSON object (without cycles).
    fn result_json(r: &Self::Res) -> Value;
    /// The bit-accurate result of one vector on its own (a unit with state, like the texture
    /// unit's cache, starts cold).
    fn golden(t: &Self::Txn) -> Self::Res;
    /// The bit-accurate results of a sequence run through one unit, in order: what the RTL must
    /// return. Differs from [`Unit::golden`] per vector only for units with state.
    fn golden_batch(v: &[Self::Txn]) -> Vec<Self::Res> {
        v.iter().map(Self::golden).collect()
    }
    /// The ideal reference's view of a vector, as JSON (see the unit's `ideal.rs`).
    fn ideal_json(t: &Self::Txn) -> Result<Value, String>;
    /// `n` random and edge-case vectors.
    fn random(seed: u64, n: usize) -> Vec<Self::Txn>;
    /// What `texpix bench` runs: named sections of vectors, each on a freshly reset unit. The
    /// default is one section of `n` (default 20 000) random vectors.
    fn bench_sections(seed: u64, n: Option<usize>) -> Vec<(String, Vec<Self::Txn>)> {
        let n = n.unwrap_or(20_000);
        vec![(format!("{n} random vectors"), Self::random(seed, n))]
    }
    /// Lines `texpix bench` adds about one section's run (counters of the unit's own, say).
    fn bench_extra(_sim: &Sim<Self::Block>, _results: &[Transfer<Self::Res>]) -> Vec<String> {
        Vec::new()
    }
    /// Drives the block's clock input.
    fn set_clock(b: &mut Self::Block, high: bool);
    /// Drives the block's synchronous reset input.
    fn set_reset(b: &mut Self::Block, high: bool);
    /// Runs vectors through the RTL.
    fn run(sim: &mut Sim<Self::Block>, v: &[Self::Txn], cfg: &StreamConfig) -> RtlRun<Self::Res>;
    /// Runs vectors through the RTL for a long regression (`texpix regress`): like [`Unit::run`],
    /// but the timing of the unit's own side ports (memory latency, memory stalls) is drawn at
    /// random from `cfg.seed`, so that the chunks of a regression cover many timings. The default
    /// is [`Unit::run`] (units without a side port whose timing varies).
    fn run_random_timing(
        sim: &mut Sim<Self::Block>,
        v: &[Self::Txn],
        cfg: &StreamConfig,
    ) -> RtlRun<Self::Res> {
        Self::run(sim, v, cfg)
    }
    /// Pipeline depths the tests build, in increasing order: extra register stages inside the
    /// datapath (see the unit's RTL documentation), each keeping one transaction per clock and the
    /// golden model's results bit for bit. The first (0) is the default build and the last the
    /// deepest; the block takes every depth between them.
    const DEPTHS: &'static [usize] = &[0];
    /// The block built with `depth` extra register stages, 0 to the last of [`Unit::DEPTHS`]
    /// (checked by the callers through [`Unit::check_depth`]).
    fn block(depth: usize) -> Box<Self::Block> {
        let _ = depth;
        Box::default()
    }
    /// `Ok` for a depth from 0 to the last of [`Unit::DEPTHS`], else an error naming the unit
    /// and its depths.
    fn check_depth(depth: usize) -> Result<(), String> {
        let max = Self::DEPTHS.last().copied().unwrap_or(0);
        if depth <= max {
            Ok(())
        } else {
            Err(format!(
                "{} has no pipeline depth {depth} (depths 0…{max}; tested: {:?})",
                Self::NAME,
                Self::DEPTHS
            ))
        }
    }
    /// Parameters and timing at pipeline depth `depth` for the exported Verilog's header, e.g.
    /// `latency 3, II = 1`.
    fn parameters(depth: usize) -> String;
    /// The source file documenting the block's ports.
    const PORTS_DOC: &'static str;
    /// The default depth's Verilog of the unit, top module [`Unit::TOP`], with `header` on top.
    fn export(header: &str) -> Result<String, String> {
        Self::export_at(header, Self::DEPTHS[0])
    }
    /// [`Unit::export`] at pipeline depth `depth`.
    fn export_at(header: &str, depth: usize) -> Result<String, String> {
        Self::check_depth(depth)?;
        let mut u = Self::block(depth);
        let header = format!(
            "{header}\nparameters: {}; ports: see {}",
            Self::parameters(depth),
            Self::PORTS_DOC
        );
        texpix_rtl::export::verilog(&mut *u, Self::TOP, &header)
    }
    /// [`Unit::export`] with the standard header: unit, what it is, texpix revision.
    fn verilog() -> Result<String, String> {
        Self::verilog_at(Self::DEPTHS[0])
    }
    /// [`Unit::verilog`] at pipeline depth `depth`.
    fn verilog_at(depth: usize) -> Result<String, String> {
        let rev = option_env!("TEXPIX_REV").unwrap_or(env!("CARGO_PKG_VERSION"));
        Self::export_at(
            &format!("{}: {}, generated by texpix {rev}", Self::TOP, Self::ABOUT),
            depth,
        )
    }
    /// The unit at power-up, not yet reset (attach probes or a VCD here), built on the heap.
    fn power_up() -> Sim<Self::Block> {
        Sim::boxed(Self::block(Self::DEPTHS[0]), Self::set_clock)
    }
    /// Holds the reset for two cycles.
    fn reset(sim: &mut Sim<Self::Block>) -> Result<(), SimError> {
        sim.reset(Self::set_reset, 2)
    }
    /// A reset unit in a simulator.
    fn new_sim() -> Result<Sim<Self::Block>, SimError> {
        let mut sim = Self::power_up();
        Self::reset(&mut sim)?;
        Ok(sim)
    }
    /// [`Unit::power_up`] on `engine`: the rust-hdl model, or its exported Verilog compiled by
    /// Yosys into a [`NetSim`] (cached; see [`texpix_sim::netlist`]).
    fn power_up_on(engine: Engine) -> Result<Sim<Self::Block>, String> {
        Self::power_up_at(engine, Self::DEPTHS[0])
    }
    /// [`Unit::power_up_on`] with the block built at pipeline depth `depth`.
    fn power_up_at(engine: Engine, depth: usize) -> Result<Sim<Self::Block>, String> {
        Self::check_depth(depth)?;
        match engine {
            Engine::Rtl => Ok(Sim::boxed(Self::block(depth), Self::set_clock)),
            Engine::Netlist => {
                let net =
                    compiled_netlist(Self::TOP, depth, || Self::export_at(NETLIST_HEADER, depth))?;
                Sim::on_netlist(Self::block(depth), Self::set_clock, net, port_name)
            }
            Engine::Fast => Self::power_up_at(Engine::Netlist, depth).or_else(|e| {
                fall_back_once(Self::NAME, &e);
                Self::power_up_at(Engine::Rtl, depth)
            }),
        }
    }
    /// [`Unit::new_sim`] on `engine`.
    fn new_sim_on(engine: Engine) -> Result<Sim<Self::Block>, String> {
        Self::new_sim_at(engine, Self::DEPTHS[0])
    }
    /// [`Unit::new_sim_on`] at pipeline depth `depth`.
    fn new_sim_at(engine: Engine, depth: usize) -> Result<Sim<Self::Block>, String> {
        let mut sim = Self::power_up_at(engine, depth)?;
        Self::reset(&mut sim).map_err(|e| e.to_string())?;
        Ok(sim)
    }
}

/// A fresh copy of unit `top`'s compiled netlist at pipeline depth `depth`: compiled once per
/// process (from `export()`'s Verilog through the on-disk Yosys cache), then cloned.
pub fn compiled_netlist(
    top: &'static str,
    depth: usize,
    export: impl FnOnce() -> Result<String, String>,
) -> Result<NetSim, String> {
    type Compiled = Mutex<HashMap<(&'static str, usize), NetSim>>;
    static COMPILED: OnceLock<Compiled> = OnceLock::new();
    let cache = COMPILED.get_or_init(Default::default);
    if let Some(n) = cache.lock().map_err(|e| e.to_string())?.get(&(top, depth)) {
        return Ok(n.clone());
    }
    let net = NetSim::from_verilog(&export()?, top, &cache_dir())?;
    cache
        .lock()
        .map_err(|e| e.to_string())?
        .insert((top, depth), net.clone());
    Ok(net)
}

/// The header of the Verilog the netlist engine compiles (fixed, so the netlist cache hits).
pub const NETLIST_HEADER: &str = "texpix netlist engine";

/// Which simulation computes a unit's RTL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The rust-hdl model itself (every signal; the reference).
    Rtl,
    /// The same circuit compiled from its Yosys netlist into native code (interpreted where no C
    /// compiler works): ports identical cycle by cycle (`texpix cosim --sim netlist`), 100–1000×
    /// faster; needs Yosys.
    Netlist,
    /// The default: `Netlist` where Yosys is present, else `Rtl` (one line on stderr says so).
    Fast,
}

impl std::str::FromStr for Engine {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "rtl" => Ok(Self::Rtl),
            "netlist" => Ok(Self::Netlist),
            "fast" => Ok(Self::Fast),
            _ => Err(format!(
                "unknown engine `{s}` (expected fast, netlist or rtl)"
            )),
        }
    }
}

/// Says once per unit and process that the fast engine fell back to the rust-hdl model, and why.
fn fall_back_once(unit: &str, why: &str) {
    static SAID: OnceLock<Mutex<Vec<String>>> = OnceLock::new();
    let said = SAID.get_or_init(Default::default);
    if let Ok(mut said) = said.lock() {
        if !said.iter().any(|u| u == unit) {
            said.push(unit.to_string());
            eprintln!("texpix: {unit} runs on the rust-hdl model (the netlist engine is unavailable: {why})");
        }
    }
}

/// The [`Unit`] impl of a unit whose test-bench folder has the standard names (see the module
/// documentation): `io::{parse_line, txn_json, result_json}`, `golden`, `ideal::ideal_json`,
/// `stim::random` and `dut::run`, all reached through `super::` from the unit's `unit.rs`. The
/// block's ports are named `clock` and `reset`.
#[macro_export]
macro_rules! unit_impl {
    ($unit:ident {
        block: $block:ty,
        txn: $txn:ty,
        res: $res:ty,
        name: $name:expr,
        top: $top:expr,
        about: $about:expr,
        test_vectors: $tv:expr,
        ports_doc: $ports:expr,
        parameters: |$depth:ident| $params:expr
        $(, depths: $depths:expr, block: $build:expr)?
        $(, icarus_vectors: $iv:expr)?
        $(, golden_batch: $batch:path)?
        $(, bench_sections: $sections:path, bench_extra: $extra:path)?
        $(, run_random_timing: $timing:path)? $(,)?
    }) => {
        impl $crate::unit::Unit for $unit {
            type Block = $block;
            type Txn = $txn;
            type Res = $res;
            const NAME: &'static str = $name;
            const TOP: &'static str = $top;
            const BLOCK: &'static str = stringify!($block);
            const ABOUT: &'static str = $about;
            const TEST_VECTORS: usize = $tv;
            $(const ICARUS_VECTORS: usize = $iv;)?
            const PORTS_DOC: &'static str = $ports;
            fn parse(line: &str) -> Result<$txn, $crate::vectors::FieldError> {
                super::io::parse_line(line)
            }
            fn txn_json(t: &$txn) -> serde_json::Value {
                super::io::txn_json(t)
            }
            fn result_json(r: &$res) -> serde_json::Value {
                super::io::result_json(r)
            }
            fn golden(t: &$txn) -> $res {
                super::golden(t)
            }
            $(
                fn golden_batch(v: &[$txn]) -> Vec<$res> {
                    $batch(v)
                }
            )?
            $(
                fn bench_sections(seed: u64, n: Option<usize>) -> Vec<(String, Vec<$txn>)> {
                    $sections(seed, n)
                }
                fn bench_extra(
                    sim: &texpix_sim::Sim<$block>,
                    results: &[texpix_sim::Transfer<$res>],
                ) -> Vec<String> {
                    $extra(sim, results)
                }
            )?
            fn ideal_json(t: &$txn) -> Result<serde_json::Value, String> {
                super::ideal::ideal_json(t)
            }
            fn random(seed: u64, n: usize) -> Vec<$txn> {
                super::stim::random(seed, n)
            }
            fn set_clock(b: &mut $block, high: bool) {
                b.clock.next = rust_hdl::prelude::Clock::from(high);
            }
            fn set_reset(b: &mut $block, high: bool) {
                b.reset.next = high;
            }
            fn run(
                sim: &mut texpix_sim::Sim<$block>,
                v: &[$txn],
                cfg: &texpix_sim::StreamConfig,
            ) -> $crate::unit::RtlRun<$res> {
                super::dut::run(sim, v, cfg)
            }
            $(
                fn run_random_timing(
                    sim: &mut texpix_sim::Sim<$block>,
                    v: &[$txn],
                    cfg: &texpix_sim::StreamConfig,
                ) -> $crate::unit::RtlRun<$res> {
                    $timing(sim, v, cfg)
                }
            )?
            fn parameters($depth: usize) -> String {
                $params
            }
            $(
                const DEPTHS: &'static [usize] = $depths;
                fn block(depth: usize) -> Box<$block> {
                    Box::new($build(depth))
                }
            )?
        }
    };
}
