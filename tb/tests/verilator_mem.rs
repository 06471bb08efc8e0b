//! The in-memory Verilator harness (`texpix cosim --sim verilator-mem`, the Verilator column of
//! `texpix bench-engines`): a short coverage trace under back-pressure replays with every output
//! equal on every cycle, and a corrupted expected value is caught naming its cycle and port.
//! Skipped, with a line saying so, when Verilator is not installed.

use std::path::PathBuf;
use std::process::Command;
use texpix_tb::cosim::{self, trace, Simulator};
use texpix_tb::coverage::Coverage;
use texpix_tb::scoreboard::stalls;
use texpix_tb::unit::Unit;

fn have_verilator() -> bool {
    let ok = Command::new("verilator").arg("--version").output().is_ok();
    if !ok {
        println!("skipped: verilator is not installed (scripts/setup.sh installs it)");
    }
    ok
}

fn workdir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name)
}

#[test]
fn harness_replays_coverage_and_catches_a_wrong_output() {
    if !have_verilator() {
        return;
    }
    let vectors = Coverage::random(21, 300);
    let (mut trace, _) = trace::<Coverage>(&vectors, &stalls(300, 21)).expect("rust run");
    let verilog = Coverage::verilog().expect("export");
    let dir = workdir("verilator_mem_coverage");
    let report = cosim::run(
        Simulator::VerilatorMem,
        &dir,
        Coverage::TOP,
        &verilog,
        &trace,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.cycles, trace.cycles.len());
    assert!(report.run_secs > 0.0);

    let k = trace
        .ports
        .iter()
        .position(|p| p.name == "out_covmask_2")
        .expect("port");
    let row = trace.cycles.len() / 2;
    let v = u32::from_str_radix(&trace.cycles[row][k], 16).unwrap() ^ 0x100;
    trace.cycles[row][k] = format!("{v:04x}");
    let err = cosim::run(
        Simulator::VerilatorMem,
        &dir,
        Coverage::TOP,
        &verilog,
        &trace,
    )
    .expect_err("must detect the corrupted value");
    assert!(
        err.contains(&format!("cycle {row},")) && err.contains("out_covmask_2"),
        "{err}"
    );
}
