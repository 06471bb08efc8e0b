//! The netlist engine ([`texpix_sim::NetSim`]: each unit's exported Verilog elaborated by Yosys and
//! compiled into texpix's event-driven simulator) against the rust-hdl model and the golden model.
//!
//! - Replay: the rust-hdl run's port trace (random vectors, 30 % back-pressure) through the netlist,
//!   as native code (the whole trace) and interpreted (its first 1 000 cycles); every output port
//!   equal on every cycle.
//! - Engine: the stream driver (with its side-port responders) running on the netlist engine; every
//!   result equal to the golden model, in order, under back-pressure.
//! - A corrupted trace is caught, naming the cycle and port; a netlist VCD has the hierarchy.
//!
//! Needs Yosys (scripts/setup.sh installs it); fails, not skips, without it.

use std::path::PathBuf;
use texpix_tb::cosim::{self, trace, Simulator};
use texpix_tb::coverage::Coverage;
use texpix_tb::lod::Lod;
use texpix_tb::scoreboard::{self, stalls};
use texpix_tb::unit::{Engine, Unit, NETLIST_HEADER};

fn workdir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Cycles of the rust-hdl trace replayed through the interpreted netlist (the texture unit's
/// trace is several thousand cycles, which the interpreter takes minutes over).
const INTERPRETED_CYCLES: usize = 1000;

/// The rust-hdl trace of `U::TEST_VECTORS` random vectors (30 % back-pressure) replayed through
/// the netlist as native code, and its first [`INTERPRETED_CYCLES`] cycles interpreted: identical
/// outputs on every cycle.
fn replay<U: Unit>(seed: u64) {
    let n = U::TEST_VECTORS;
    let vectors = U::random(seed, n);
    let (trace, _) = trace::<U>(&vectors, &stalls(300, seed)).expect("rust run");
    assert!(trace.cycles.len() > n, "trace too short");
    let dir = workdir(&format!("netlist_{}_{seed}", U::NAME));
    // The netlist engine's own Verilog (its fixed header keeps it one Yosys cache entry with the
    // engine's: the revision-stamped export would be elaborated a second time).
    let verilog = U::export(NETLIST_HEADER).expect("export");
    let report =
        cosim::run(Simulator::Netlist, &dir, U::TOP, &verilog, &trace).expect("netlist replay");
    assert_eq!(report.cycles, trace.cycles.len());
    assert!(
        report.native,
        "the netlist engine runs native code (needs a C compiler)"
    );
    // The interpreter evaluates every cell every cycle (the native code is checked against it
    // cell by cell in texpix-sim's tests): the trace's first cycles suffice.
    let mut head = trace.clone();
    head.cycles.truncate(INTERPRETED_CYCLES);
    let report = cosim::run(Simulator::NetlistInterp, &dir, U::TOP, &verilog, &head)
        .expect("interpreted netlist replay");
    assert_eq!(report.cycles, head.cycles.len());
    assert!(!report.native);
}

/// The unit's own driver on the netlist engine, 3 × `U::TEST_VECTORS` vectors: results equal the
/// golden model, in order.
fn engine<U: Unit>(seed: u64) {
    let vectors = U::random(seed, 3 * U::TEST_VECTORS);
    let mut sim = U::new_sim_on(Engine::Netlist).expect("netlist engine");
    let (results, stats) = U::run(&mut sim, &vectors, &stalls(300, seed)).expect("run");
    scoreboard::check::<U>(&vectors, &results).expect("netlist engine == golden");
    assert!(
        stats.in_stall_cycles > 0 && stats.out_stall_cycles > 0,
        "{stats:?}"
    );
    let net = sim.netlist().expect("runs a netlist");
    assert!(net.is_native(), "the netlist engine runs native code");
}

macro_rules! netlist_tests {
    ($($id:ident => $u:ty),* $(,)?) => {$(
        mod $id {
            use super::*;

            #[test]
            fn netlist_replays_the_rust_trace() {
                replay::<$u>(31);
            }

            #[test]
            fn netlist_engine_matches_golden() {
                engine::<$u>(32);
            }
        }
    )*};
}

texpix_tb::for_each_unit!(netlist_tests);

#[test]
fn netlist_replay_detects_a_wrong_output() {
    let vectors = Lod::random(5, 20);
    let (mut trace, _) = trace::<Lod>(&vectors, &stalls(300, 1)).expect("rust run");
    let k = trace
        .ports
        .iter()
        .position(|p| p.name == "out_valid")
        .expect("port");
    let row = trace
        .cycles
        .iter()
        .position(|r| r[k] == "1")
        .expect("an output cycle");
    trace.cycles[row][k] = "0".into();
    let err = cosim::run(
        Simulator::Netlist,
        &workdir("netlist_corrupt"),
        Lod::TOP,
        &Lod::export(NETLIST_HEADER).unwrap(),
        &trace,
    )
    .expect_err("must detect the corrupted value");
    assert!(
        err.contains(&format!("cycle {row}")) && err.contains("out_valid"),
        "{err}"
    );
}

#[test]
fn netlist_vcd_has_ports_and_internal_signals() {
    let path = workdir("netlist_vcd").join("coverage.vcd");
    let mut sim = Coverage::power_up_on(Engine::Netlist).expect("netlist engine");
    sim.dump_vcd(&path, &[]).expect("vcd");
    Coverage::reset(&mut sim).expect("reset");
    let vectors = Coverage::random(3, 4);
    let (results, _) = Coverage::run(&mut sim, &vectors, &stalls(300, 3)).expect("run");
    scoreboard::check::<Coverage>(&vectors, &results).expect("== golden");
    sim.finish_vcd().expect("finish");
    let text = std::fs::read_to_string(&path).expect("read vcd");
    for needle in [
        "$scope module uut",
        "$scope module lane0",
        " out_valid ",
        " in_ready ",
    ] {
        assert!(text.contains(needle), "VCD lacks `{needle}`");
    }
    let stamps = text.lines().filter(|l| l.starts_with('#')).count();
    assert!(stamps > 10, "only {stamps} time stamps");
    assert!(path.with_extension("gtkw").exists());
}
