//! The exported Verilog of every built unit: lint (Verilator -Wall with the waiver file), Yosys
//! structural checks (no latches, no undriven nets, no logic loops), and co-simulation in Icarus
//! Verilog and Verilator against the Rust simulation, cycle by cycle, with random back-pressure.
//!
//! These tests need iverilog, verilator and yosys (scripts/setup.sh installs them); they fail, not
//! skip, when a tool is missing.

use std::path::PathBuf;
use std::process::Command;
use texpix_sim::StreamConfig;
use texpix_tb::cli::{export_unit, trace};
use texpix_tb::cosim::{self, Simulator};
use texpix_tb::unit::{Bvh, Coverage, Lod, TexAddr, Unit};

fn workdir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn exported<U: Unit>() -> PathBuf {
    let d = workdir(&format!("{}_export", U::NAME));
    let f = d.join(format!("{}.v", U::TOP));
    std::fs::write(&f, export_unit(U::NAME).expect("export")).expect("write");
    f
}

fn tool(cmd: &mut Command, what: &str) -> String {
    texpix_tb::cosim::run_tool(cmd, what).unwrap_or_else(|e| panic!("{e}"))
}

fn lint<U: Unit>() {
    let v = exported::<U>();
    let waivers =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/verilator_waivers.vlt");
    let out = tool(
        Command::new("verilator")
            .args(["--lint-only", "-Wall", "--top-module", U::TOP])
            .arg(&waivers)
            .arg(&v),
        "verilator --lint-only -Wall",
    );
    assert!(!out.contains("%Warning"), "lint warnings:\n{out}");
}

fn yosys<U: Unit>() {
    let v = exported::<U>();
    let script = format!(
        "read_verilog {}; hierarchy -check -top {}; proc; check -assert; select -assert-none t:$dlatch",
        v.display(),
        U::TOP
    );
    tool(Command::new("yosys").args(["-q", "-p", &script]), "yosys");
}

fn cosim<U: Unit>(sim: Simulator, n: usize, stall: u32, seed: u64) {
    let vectors = U::random(seed, n);
    let cfg = StreamConfig {
        in_idle_permille: stall,
        out_stall_permille: stall,
        seed,
        max_idle_cycles: 1000,
    };
    let (trace, _) = trace::<U>(&vectors, &cfg).expect("rust run");
    assert!(trace.cycles.len() > n, "trace too short");
    let dir = workdir(&format!("cosim_{}_{sim:?}_{seed}", U::NAME));
    let verilog = export_unit(U::NAME).expect("export");
    let report = cosim::run(sim, &dir, U::TOP, &verilog, &trace).expect("co-simulation");
    assert_eq!(report.cycles, trace.cycles.len());
}

#[test]
fn coverage_verilator_lint_is_clean_with_the_waiver_file() {
    lint::<Coverage>();
}

#[test]
fn coverage_yosys_finds_no_latches_undriven_nets_or_loops() {
    yosys::<Coverage>();
}

#[test]
fn coverage_icarus_matches_rust_cycle_by_cycle_under_back_pressure() {
    cosim::<Coverage>(Simulator::Icarus, 600, 300, 11);
}

#[test]
fn coverage_verilator_matches_rust_cycle_by_cycle_under_back_pressure() {
    cosim::<Coverage>(Simulator::Verilator, 600, 300, 12);
}

#[test]
fn lod_verilator_lint_is_clean_with_the_waiver_file() {
    lint::<Lod>();
}

#[test]
fn lod_yosys_finds_no_latches_undriven_nets_or_loops() {
    yosys::<Lod>();
}

#[test]
fn lod_icarus_matches_rust_cycle_by_cycle_under_back_pressure() {
    cosim::<Lod>(Simulator::Icarus, 400, 300, 13);
}

#[test]
fn lod_verilator_matches_rust_cycle_by_cycle_under_back_pressure() {
    cosim::<Lod>(Simulator::Verilator, 400, 300, 14);
}

#[test]
fn cosim_detects_a_wrong_output() {
    let vectors = Coverage::random(5, 20);
    let (mut trace, _) = trace::<Coverage>(
        &vectors,
        &StreamConfig {
            in_idle_permille: 0,
            out_stall_permille: 0,
            seed: 1,
            max_idle_cycles: 1000,
        },
    )
    .expect("rust run");
    // Corrupt one expected output value: the comparison must name that cycle and port.
    let k = trace
        .ports
        .iter()
        .position(|p| p.name == "out_covmask_0")
        .expect("port");
    let row = trace.cycles.len() - 3;
    let v = u32::from_str_radix(&trace.cycles[row][k], 16).unwrap() ^ 1;
    trace.cycles[row][k] = format!("{v:04x}");
    let dir = workdir("cosim_corrupt");
    let err = cosim::run(
        Simulator::Icarus,
        &dir,
        "texpix_coverage",
        &export_unit("coverage").unwrap(),
        &trace,
    )
    .expect_err("must detect the corrupted value");
    assert!(
        err.contains(&format!("cycle {row}")) && err.contains("out_covmask_0"),
        "{err}"
    );
}

#[test]
fn bvh_verilator_lint_is_clean_with_the_waiver_file() {
    lint::<Bvh>();
}

#[test]
fn bvh_yosys_finds_no_latches_undriven_nets_or_loops() {
    yosys::<Bvh>();
}

#[test]
fn bvh_icarus_matches_rust_cycle_by_cycle_under_back_pressure() {
    cosim::<Bvh>(Simulator::Icarus, 150, 300, 15);
}

#[test]
fn bvh_verilator_matches_rust_cycle_by_cycle_under_back_pressure() {
    cosim::<Bvh>(Simulator::Verilator, 300, 300, 16);
}

#[test]
fn texaddr_verilator_lint_is_clean_with_the_waiver_file() {
    lint::<TexAddr>();
}

#[test]
fn texaddr_yosys_finds_no_latches_undriven_nets_or_loops() {
    yosys::<TexAddr>();
}

#[test]
fn texaddr_icarus_matches_rust_cycle_by_cycle_under_back_pressure() {
    cosim::<TexAddr>(Simulator::Icarus, 200, 300, 17);
}

#[test]
fn texaddr_verilator_matches_rust_cycle_by_cycle_under_back_pressure() {
    cosim::<TexAddr>(Simulator::Verilator, 400, 300, 18);
}
