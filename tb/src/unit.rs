//! What the program and the test benches need of a unit, so that running, generating, tracing,
//! co-simulating and benchmarking are written once for every unit.

use crate::bvh::{self, BvhResult, BvhTxn};
use crate::bvh_dut::{self, MemConfig};
use crate::coverage::{self, CoverageResult, CoverageTxn};
use crate::coverage_dut;
use crate::lod::{self, LodResult, LodTxn};
use crate::texaddr::{self, TexAddrResult, TexAddrTxn};
use crate::vectors::FieldError;
use crate::{bvh_stim, coverage_stim, lod_dut, lod_stim, texaddr_dut, texaddr_stim};
use rust_hdl::prelude::{Block, Clock};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt::Debug;
use std::sync::{Mutex, OnceLock};
use texpix_rtl::export::port_name;
use texpix_sim::netlist::yosys::cache_dir;
use texpix_sim::{NetSim, Sim, SimError, StreamConfig, StreamStats, Transfer};

/// RTL results of a run, in order, and what the stream cost.
pub type RtlRun<R> = Result<(Vec<Transfer<R>>, StreamStats), String>;

/// A unit: its vectors, golden model, RTL driver and Verilog export.
pub trait Unit {
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
    /// Parses one vector line.
    fn parse(line: &str) -> Result<Self::Txn, FieldError>;
    /// A vector as JSON.
    fn txn_json(t: &Self::Txn) -> Value;
    /// A result as a JSON object (without cycles).
    fn result_json(r: &Self::Res) -> Value;
    /// The bit-accurate result.
    fn golden(t: &Self::Txn) -> Self::Res;
    /// `n` random and edge-case vectors.
    fn random(seed: u64, n: usize) -> Vec<Self::Txn>;
    /// Drives the block's clock input.
    fn set_clock(b: &mut Self::Block, high: bool);
    /// Drives the block's synchronous reset input.
    fn set_reset(b: &mut Self::Block, high: bool);
    /// Runs vectors through the RTL.
    fn run(sim: &mut Sim<Self::Block>, v: &[Self::Txn], cfg: &StreamConfig) -> RtlRun<Self::Res>;
    /// The Verilog of the unit, top module [`Unit::TOP`], with `header` on top.
    fn export(header: &str) -> Result<String, String>;
    /// The unit at power-up, not yet reset (attach probes or a VCD here), built on the heap.
    fn power_up() -> Sim<Self::Block> {
        Sim::boxed(Box::default(), Self::set_clock)
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
        match engine {
            Engine::Rtl => Ok(Self::power_up()),
            Engine::Netlist => {
                let net = compiled_netlist(Self::TOP, || Self::export(NETLIST_HEADER))?;
                Sim::on_netlist(Box::default(), Self::set_clock, net, port_name)
            }
        }
    }
    /// [`Unit::new_sim`] on `engine`.
    fn new_sim_on(engine: Engine) -> Result<Sim<Self::Block>, String> {
        let mut sim = Self::power_up_on(engine)?;
        Self::reset(&mut sim).map_err(|e| e.to_string())?;
        Ok(sim)
    }
}

/// A fresh copy of unit `top`'s compiled netlist: compiled once per process (from `export()`'s
/// Verilog through the on-disk Yosys cache), then cloned.
pub fn compiled_netlist(
    top: &'static str,
    export: impl FnOnce() -> Result<String, String>,
) -> Result<NetSim, String> {
    type Compiled = Mutex<HashMap<&'static str, NetSim>>;
    static COMPILED: OnceLock<Compiled> = OnceLock::new();
    let cache = COMPILED.get_or_init(Default::default);
    if let Some(n) = cache.lock().map_err(|e| e.to_string())?.get(top) {
        return Ok(n.clone());
    }
    let net = NetSim::from_verilog(&export()?, top, &cache_dir())?;
    cache
        .lock()
        .map_err(|e| e.to_string())?
        .insert(top, net.clone());
    Ok(net)
}

/// The header of the Verilog the netlist engine compiles (fixed, so the netlist cache hits).
pub const NETLIST_HEADER: &str = "texpix netlist engine";

/// Which simulation computes a unit's RTL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The rust-hdl model itself (every signal; the reference).
    Rtl,
    /// The same circuit compiled from its Yosys netlist: ports identical cycle by cycle
    /// (`texpix cosim --sim netlist`), 10–40× faster; needs Yosys.
    Netlist,
}

impl std::str::FromStr for Engine {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "rtl" => Ok(Self::Rtl),
            "netlist" => Ok(Self::Netlist),
            _ => Err(format!("unknown engine `{s}` (expected rtl or netlist)")),
        }
    }
}

/// `set_clock`/`set_reset` for a block whose ports are named `clock` and `reset` (every unit's).
macro_rules! clock_and_reset {
    () => {
        fn set_clock(b: &mut Self::Block, high: bool) {
            b.clock.next = Clock::from(high);
        }
        fn set_reset(b: &mut Self::Block, high: bool) {
            b.reset.next = high;
        }
    };
}

/// The sample-pattern coverage unit (SPEC §1).
pub struct Coverage;

impl Unit for Coverage {
    type Block = texpix_rtl::coverage::CoverageUnit;
    type Txn = CoverageTxn;
    type Res = CoverageResult;
    const NAME: &'static str = "coverage";
    const TOP: &'static str = "texpix_coverage";
    fn parse(line: &str) -> Result<CoverageTxn, FieldError> {
        coverage::parse_coverage_line(line)
    }
    fn txn_json(t: &CoverageTxn) -> Value {
        coverage_stim::to_json(t)
    }
    fn result_json(r: &CoverageResult) -> Value {
        serde_json::from_str(&coverage::result_to_json(r)).unwrap_or(Value::Null)
    }
    fn golden(t: &CoverageTxn) -> CoverageResult {
        coverage::golden(t)
    }
    fn random(seed: u64, n: usize) -> Vec<CoverageTxn> {
        let mut s = coverage_stim::Stim::new(seed);
        (0..n).map(|_| s.coverage()).collect()
    }
    clock_and_reset!();
    fn run(
        sim: &mut Sim<Self::Block>,
        v: &[CoverageTxn],
        cfg: &StreamConfig,
    ) -> RtlRun<CoverageResult> {
        coverage_dut::run(sim, v, cfg)
    }
    fn export(header: &str) -> Result<String, String> {
        let mut u = Box::<Self::Block>::default();
        let header = format!(
            "{header}\nparameters: OPS = {}, latency 3, II = 1; ports: see rtl/src/coverage/unit.rs",
            texpix_rtl::coverage::OPS
        );
        texpix_rtl::export::verilog(&mut *u, Self::TOP, &header)
    }
}

/// The time-multiplexed coverage unit ([`texpix_rtl::coverage::CoverageSerial`]): the coverage
/// unit's vectors, golden model and driver, one transaction per
/// [`texpix_rtl::coverage::SERIAL_CYCLES`] clocks. Not a command-line unit; it is the core of the
/// coverage board.
pub struct SerialCoverage;

impl Unit for SerialCoverage {
    type Block = texpix_rtl::coverage::CoverageSerial;
    type Txn = CoverageTxn;
    type Res = CoverageResult;
    const NAME: &'static str = "coverage-serial";
    const TOP: &'static str = "texpix_coverage_serial";
    fn parse(line: &str) -> Result<CoverageTxn, FieldError> {
        Coverage::parse(line)
    }
    fn txn_json(t: &CoverageTxn) -> Value {
        Coverage::txn_json(t)
    }
    fn result_json(r: &CoverageResult) -> Value {
        Coverage::result_json(r)
    }
    fn golden(t: &CoverageTxn) -> CoverageResult {
        Coverage::golden(t)
    }
    fn random(seed: u64, n: usize) -> Vec<CoverageTxn> {
        Coverage::random(seed, n)
    }
    clock_and_reset!();
    fn run(
        sim: &mut Sim<Self::Block>,
        v: &[CoverageTxn],
        cfg: &StreamConfig,
    ) -> RtlRun<CoverageResult> {
        coverage_dut::run(sim, v, cfg)
    }
    fn export(header: &str) -> Result<String, String> {
        let mut u = Box::<Self::Block>::default();
        let header = format!(
            "{header}\nparameters: OPS = {}, {} clocks per transaction; ports: see rtl/src/coverage/serial.rs",
            texpix_rtl::coverage::OPS,
            texpix_rtl::coverage::SERIAL_CYCLES
        );
        texpix_rtl::export::verilog(&mut *u, Self::TOP, &header)
    }
}

/// The derivative/LOD calculator (SPEC §2).
pub struct Lod;

impl Unit for Lod {
    type Block = texpix_rtl::lod::LodUnit;
    type Txn = LodTxn;
    type Res = LodResult;
    const NAME: &'static str = "lod";
    const TOP: &'static str = "texpix_lod";
    fn parse(line: &str) -> Result<LodTxn, FieldError> {
        lod::parse_lod_line(line)
    }
    fn txn_json(t: &LodTxn) -> Value {
        lod::to_json(t)
    }
    fn result_json(r: &LodResult) -> Value {
        lod::result_to_json(r)
    }
    fn golden(t: &LodTxn) -> LodResult {
        lod::golden(t)
    }
    fn random(seed: u64, n: usize) -> Vec<LodTxn> {
        let mut s = lod_stim::LodStim::new(seed);
        (0..n).map(|_| s.lod()).collect()
    }
    clock_and_reset!();
    fn run(sim: &mut Sim<Self::Block>, v: &[LodTxn], cfg: &StreamConfig) -> RtlRun<LodResult> {
        lod_dut::run(sim, v, cfg)
    }
    fn export(header: &str) -> Result<String, String> {
        let mut u = Box::<Self::Block>::default();
        let header =
            format!("{header}\nparameters: latency 5, II = 1; ports: see rtl/src/lod/unit.rs");
        texpix_rtl::export::verilog(&mut *u, Self::TOP, &header)
    }
}

/// The BVH box/triangle intersector (SPEC §4), run with the default memory model (latency 4…12
/// cycles; its stall probability follows the stream's).
pub struct Bvh;

impl Unit for Bvh {
    type Block = texpix_rtl::bvh::BvhUnit;
    type Txn = BvhTxn;
    type Res = BvhResult;
    const NAME: &'static str = "bvh";
    const TOP: &'static str = "texpix_bvh";
    fn parse(line: &str) -> Result<BvhTxn, FieldError> {
        bvh::parse_bvh_line(line)
    }
    fn txn_json(t: &BvhTxn) -> Value {
        bvh::to_json(t)
    }
    fn result_json(r: &BvhResult) -> Value {
        bvh::result_to_json(r)
    }
    fn golden(t: &BvhTxn) -> BvhResult {
        bvh::golden(t)
    }
    fn random(seed: u64, n: usize) -> Vec<BvhTxn> {
        bvh_stim::random(seed, n)
    }
    clock_and_reset!();
    fn run(sim: &mut Sim<Self::Block>, v: &[BvhTxn], cfg: &StreamConfig) -> RtlRun<BvhResult> {
        let mem = MemConfig {
            stall_permille: cfg.out_stall_permille / 2,
            ..MemConfig::default()
        };
        bvh_dut::run(sim, v, cfg, &mem).map(|(r, s, _)| (r, s))
    }
    fn export(header: &str) -> Result<String, String> {
        let mut u = Box::<Self::Block>::default();
        let header = format!(
            "{header}\nparameters: QUEUE = {} rays in flight; ports: see rtl/src/bvh/unit.rs",
            texpix_rtl::bvh::unit::QUEUE
        );
        texpix_rtl::export::verilog(&mut *u, Self::TOP, &header)
    }
}

/// The texture address pipeline (SPEC §3), with its descriptor RAM and residency map answered by
/// the driver ([`texaddr_dut`]).
pub struct TexAddr;

impl Unit for TexAddr {
    type Block = texpix_rtl::texaddr::TexAddrUnit;
    type Txn = TexAddrTxn;
    type Res = TexAddrResult;
    const NAME: &'static str = "texaddr";
    const TOP: &'static str = "texpix_texaddr";
    fn parse(line: &str) -> Result<TexAddrTxn, FieldError> {
        texaddr::parse_texaddr_line(line)
    }
    fn txn_json(t: &TexAddrTxn) -> Value {
        texaddr::to_json(t)
    }
    fn result_json(r: &TexAddrResult) -> Value {
        texaddr::result_to_json(r)
    }
    fn golden(t: &TexAddrTxn) -> TexAddrResult {
        texaddr::golden(t)
    }
    fn random(seed: u64, n: usize) -> Vec<TexAddrTxn> {
        texaddr_stim::random(seed, n)
    }
    clock_and_reset!();
    fn run(
        sim: &mut Sim<Self::Block>,
        v: &[TexAddrTxn],
        cfg: &StreamConfig,
    ) -> RtlRun<TexAddrResult> {
        texaddr_dut::run(sim, v, cfg)
    }
    fn export(header: &str) -> Result<String, String> {
        let mut u = Box::<Self::Block>::default();
        let header = format!(
            "{header}\nparameters: latency 3, II = 1, 4 lanes x 2 levels x 4 taps; ports: see rtl/src/texaddr/unit.rs"
        );
        texpix_rtl::export::verilog(&mut *u, Self::TOP, &header)
    }
}
