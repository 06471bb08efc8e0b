//! The in-memory Verilator harness (`texpix cosim --sim verilator-mem`, the Verilator column of
//! `texpix bench-engines`): a short coverage trace under back-pressure replays with every output
//! equal on every cycle, a corrupted expected value is caught naming its cycle and port, and ports
//! wider than 64 bits round-trip.
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

/// Ports wider than 64 bits (Verilator's `VlWide` words, which no unit has yet) round-trip: an
/// 80-bit input registered into a 70-bit output, checked one cycle later.
#[test]
fn harness_handles_ports_wider_than_64_bits() {
    if !have_verilator() {
        return;
    }
    let verilog = "module wide_reg(input clock, input [79:0] a, output reg [69:0] y);\n\
                   initial y = 70'd0;\n\
                   always @(posedge clock) y <= a[79:10] ^ {a[9:0], 60'd0};\n\
                   endmodule\n";
    let port = |name: &str, bits, input| texpix_tb::ports::Port {
        name: name.into(),
        bits,
        input,
    };
    let ports = vec![
        port("clock", 1, true),
        port("a", 80, true),
        port("y", 70, false),
    ];
    let mask70 = (1u128 << 70) - 1;
    let mut y = 0u128;
    let mut cycles = Vec::new();
    for c in 0..200u128 {
        let a = (c.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c) ^ (c << 75)) & ((1u128 << 80) - 1);
        cycles.push(vec!["0".into(), format!("{a:020x}"), format!("{y:018x}")]);
        y = ((a >> 10) ^ ((a & 0x3ff) << 60)) & mask70;
    }
    let trace = cosim::Trace { ports, cycles };
    let report = cosim::run(
        Simulator::VerilatorMem,
        &workdir("verilator_mem_wide"),
        "wide_reg",
        verilog,
        &trace,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.cycles, 200);
}
