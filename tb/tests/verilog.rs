//! The exported Verilog of every registered unit: lint (Verilator -Wall with the waiver file), Yosys
//! structural checks (no latches, no undriven nets, no logic loops; part of the netlist engine's
//! elaboration), and co-simulation in Icarus
//! Verilog and Verilator against the Rust simulation, cycle by cycle, with random back-pressure.
//! One test module per unit of the registry (`texpix_tb::for_each_unit!`).
//!
//! These tests need iverilog, verilator and yosys (scripts/setup.sh installs them); they fail, not
//! skip, when a tool is missing.

use std::path::{Path, PathBuf};
use texpix_tb::cosim::{self, trace, trace_at, Simulator};
use texpix_tb::coverage::Coverage;
use texpix_tb::scoreboard::stalls;
use texpix_tb::tools;
use texpix_tb::unit::{Engine, Unit};

fn workdir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn exported<U: Unit>() -> PathBuf {
    let d = workdir(&format!("{}_export", U::NAME));
    let f = d.join(format!("{}.v", U::TOP));
    std::fs::write(&f, U::verilog().expect("export")).expect("write");
    f
}

/// `U::TEST_VECTORS` (Icarus: `U::ICARUS_VECTORS`) random vectors at 30 % back-pressure: the Rust
/// trace replayed by `sim`.
fn cosim<U: Unit>(sim: Simulator, seed: u64) {
    let n = match sim {
        Simulator::Icarus => U::ICARUS_VECTORS,
        _ => U::TEST_VECTORS,
    };
    let vectors = U::random(seed, n);
    let (trace, _) = trace::<U>(&vectors, &stalls(300, seed)).expect("rust run");
    assert!(trace.cycles.len() > n, "trace too short");
    let dir = workdir(&format!("cosim_{}_{sim:?}_{seed}", U::NAME));
    let verilog = U::verilog().expect("export");
    let report = cosim::run(sim, &dir, U::TOP, &verilog, &trace).expect("co-simulation");
    assert_eq!(report.cycles, trace.cycles.len());
}

macro_rules! verilog_tests {
    ($($id:ident => $u:ty),* $(,)?) => {$(
        mod $id {
            use super::*;
            type U = $u;

            #[test]
            fn verilator_lint_is_clean_with_the_waiver_file() {
                tools::lint(&exported::<U>(), U::TOP, &[]).unwrap_or_else(|e| panic!("{e}"));
            }

            /// The netlist engine's Yosys elaboration runs the checks (`check -assert`, no
            /// `$dlatch`) and refuses the design on a finding; its Verilog is the export with a
            /// fixed header comment. Shared through the netlist cache with every other test
            /// that builds the unit on the netlist engine, instead of a second elaboration.
            #[test]
            fn yosys_finds_no_latches_undriven_nets_or_loops() {
                assert!(texpix_sim::netlist::yosys::script(Path::new("V"), U::TOP, Path::new("J"))
                    .contains("proc_dlatch; proc_dff; proc_memwr; proc_clean; opt_expr -keepdc; check -assert; select -assert-none t:$dlatch;"));
                U::power_up_on(Engine::Netlist).unwrap_or_else(|e| panic!("{e}"));
            }

            #[test]
            fn icarus_matches_rust_cycle_by_cycle_under_back_pressure() {
                cosim::<U>(Simulator::Icarus, 11);
            }

            #[test]
            fn verilator_matches_rust_cycle_by_cycle_under_back_pressure() {
                cosim::<U>(Simulator::Verilator, 12);
            }
        }
    )*};
}

texpix_tb::for_each_unit!(verilog_tests);

/// Vectors for the coverage unit's sample-test sums: half random, half edge-biased (whose long
/// edges through sample points have steps near the coordinate limits, where the sums need every
/// bit of their width).
fn coverage_wide_sum_vectors(seed: u64, n: usize) -> Vec<<Coverage as Unit>::Txn> {
    let mut v = Coverage::random(seed, n / 2);
    v.extend(texpix_tb::coverage::stim::edge_biased(seed, n - n / 2));
    v
}

/// The coverage unit's ECP5 form of its sample tests (`TEXPIX_ECP5_CARRY`: each of the 192
/// tests' eight gated adders a chain of `CCU2C` cells, each only as wide as its sum,
/// rtl/src/common/carry.rs and rtl/src/coverage/samples.rs), at the deepest depth (cuts T1 and
/// T2 inside the tests), co-simulated in Icarus with a behavioural model of the cell
/// (tb/verilog/ecp5_ccu2c.v) against the Rust trace of random and edge-biased transactions under
/// back-pressure, after checking that the export holds the cells (with none, the test would only
/// repeat the portable form).
#[test]
fn icarus_coverage_ecp5_carry_form_matches_rust() {
    let model =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("verilog/ecp5_ccu2c.v"))
            .expect("read tb/verilog/ecp5_ccu2c.v");
    // The deepest depth: the chains of every depth, and the cuts' registers between them.
    let depth = *Coverage::DEPTHS.last().expect("depths");
    let verilog = Coverage::verilog_at(depth).expect("export");
    assert!(
        verilog.matches("CCU2C #(").count() >= 8,
        "no CCU2C chains in the export at depth {depth}"
    );
    // A third of the unit's Icarus vectors: Icarus steps 23 040 cells per evaluation here.
    let vectors = coverage_wide_sum_vectors(13 + depth as u64, Coverage::ICARUS_VECTORS / 3);
    let (trace, _) = trace_at::<Coverage>(&vectors, &stalls(300, 13), depth).expect("rust run");
    let dir = workdir(&format!("cosim_coverage_ecp5_carry_d{depth}"));
    let text = format!("`define TEXPIX_ECP5_CARRY\n{model}\n{verilog}");
    let report = cosim::run(Simulator::Icarus, &dir, Coverage::TOP, &text, &trace)
        .unwrap_or_else(|e| panic!("coverage at depth {depth} with CCU2C chains: {e}"));
    assert_eq!(report.cycles, trace.cycles.len());
}

/// The portable form of the same sums (Verilog `+` and `-` at each sum's width), at depth 0 (no
/// cuts), on the same mix of random and edge-biased transactions, in Icarus.
#[test]
fn icarus_coverage_portable_sums_match_rust_on_long_edges() {
    let vectors = coverage_wide_sum_vectors(14, Coverage::ICARUS_VECTORS / 2);
    let (trace, _) = trace::<Coverage>(&vectors, &stalls(300, 14)).expect("rust run");
    let dir = workdir("cosim_coverage_long_edges");
    let verilog = Coverage::verilog().expect("export");
    let report = cosim::run(Simulator::Icarus, &dir, Coverage::TOP, &verilog, &trace)
        .unwrap_or_else(|e| panic!("coverage with long edges: {e}"));
    assert_eq!(report.cycles, trace.cycles.len());
}

/// The memory form of the long delay lines (`TEXPIX_RAM_RETIME`: a ring written at a pointer and
/// read one word ahead of it, then two registers; rtl/src/common/fp/retime.rs) gives the register
/// chains' values clock for clock: the texaddr unit at its deepest depth, whose lines are longest,
/// co-simulated in Icarus with the define against the Rust trace under back-pressure (and
/// lint-clean in Verilator, also with the block-RAM attribute of `TEXPIX_RAM_BLOCK`), after
/// checking that the export holds rings (with none, the test would only repeat the register
/// form).
#[test]
fn icarus_texaddr_ram_retime_form_matches_rust() {
    use texpix_tb::texaddr::TexAddr;
    let depth = *TexAddr::DEPTHS.last().expect("depths");
    let verilog = TexAddr::verilog_at(depth).expect("export");
    let rings = verilog.matches("`ifdef TEXPIX_RAM_RETIME").count();
    assert!(rings >= 100, "{rings} rings in the export at depth {depth}");
    let vectors = TexAddr::random(17 + depth as u64, TexAddr::ICARUS_VECTORS / 2);
    let (trace, _) = trace_at::<TexAddr>(&vectors, &stalls(300, 17), depth).expect("rust run");
    let dir = workdir(&format!("cosim_texaddr_ram_retime_d{depth}"));
    let text = format!("`define TEXPIX_RAM_RETIME\n{verilog}");
    let f = dir.join("texaddr_ram_retime.v");
    std::fs::write(&f, &text).expect("write");
    tools::lint(&f, TexAddr::TOP, &[]).unwrap_or_else(|e| panic!("ring form: {e}"));
    let fb = dir.join("texaddr_ram_block.v");
    std::fs::write(&fb, format!("`define TEXPIX_RAM_BLOCK\n{text}")).expect("write");
    tools::lint(&fb, TexAddr::TOP, &[]).unwrap_or_else(|e| panic!("block RAM ring form: {e}"));
    let report = cosim::run(Simulator::Icarus, &dir, TexAddr::TOP, &text, &trace)
        .unwrap_or_else(|e| panic!("texaddr at depth {depth} with ring delay lines: {e}"));
    assert_eq!(report.cycles, trace.cycles.len());
}

/// The gated adder's carry-cell table (rtl/src/common/carry.rs), from its definition over the
/// LUT index A + 2B + 4C + 8D: propagate `(C & D) ^ f(A, B)`, `f = A & B` for an add and its
/// complement for a subtract; the generate nibble (C = D = 0) is then `f`, the second operand.
#[test]
fn gated_add_carry_tables() {
    use texpix_rtl::common::carry::gated_add_init;
    for sub in [false, true] {
        let init = gated_add_init(sub);
        for i in 0..16u16 {
            let (a, b, c, d) = (i & 1, (i >> 1) & 1, (i >> 2) & 1, (i >> 3) & 1);
            let f = (a & b) ^ u16::from(sub);
            assert_eq!((init >> i) & 1, (c & d) ^ f, "sub {sub} index {i}");
        }
    }
    // By hand: an add sets bits 3, 7, 11 (A = B = 1, C·D = 0) and 12, 13, 14 (C = D = 1, not A·B).
    assert_eq!(gated_add_init(false), 0x7888);
    assert_eq!(gated_add_init(true), 0x8777);
}

#[test]
fn cosim_detects_a_wrong_output() {
    let vectors = Coverage::random(5, 20);
    let (mut trace, _) = trace::<Coverage>(&vectors, &stalls(0, 1)).expect("rust run");
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
        &Coverage::verilog().unwrap(),
        &trace,
    )
    .expect_err("must detect the corrupted value");
    assert!(
        err.contains(&format!("cycle {row}")) && err.contains("out_covmask_0"),
        "{err}"
    );
}

/// `texpix testbench`'s self-checking bench (what texpix.core's simulation targets run): it
/// passes on the Rust model's own trace, and one flipped bit of one expected output makes Icarus
/// end with `$fatal` and a non-zero exit status.
#[test]
fn checking_testbench_passes_and_catches_a_wrong_output() {
    let vectors = Coverage::random(6, 20);
    let (trace, _) = trace::<Coverage>(&vectors, &stalls(200, 6)).expect("rust run");
    let dir = workdir("checking_bench");
    let top = Coverage::TOP;
    let verilog = Coverage::verilog().expect("export");
    cosim::write_checking_bench(&dir, top, &verilog, &trace).expect("write");
    let run = |dir: &PathBuf| {
        let ok = std::process::Command::new("iverilog")
            .current_dir(dir)
            .args(["-g2012", "-o", "tb.vvp"])
            .arg(format!("{top}_tb.v"))
            .arg(format!("{top}.v"))
            .status()
            .expect("iverilog");
        assert!(ok.success(), "iverilog failed");
        std::process::Command::new("vvp")
            .current_dir(dir)
            .args(["-n", "tb.vvp"])
            .output()
            .expect("vvp")
    };
    let out = run(&dir);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("PASS"), "{text}");
    // Flip the lowest bit of cycle 10's expected outputs.
    let path = dir.join(format!("{top}_expect.hex"));
    let mut lines: Vec<String> = std::fs::read_to_string(&path)
        .expect("read")
        .lines()
        .map(String::from)
        .collect();
    let last = lines[10]
        .pop()
        .and_then(|c| c.to_digit(16))
        .expect("hex digit");
    lines[10].push(char::from_digit(last ^ 1, 16).expect("digit"));
    std::fs::write(&path, lines.join("\n") + "\n").expect("write");
    let out = run(&dir);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "a wrong output passed: {text}");
    assert!(text.contains("cycle 10:"), "{text}");
}

/// The netlist engine's elaboration refuses a latch, an undriven output and a logic loop, each with
/// Yosys's own message, and accepts the same module written correctly.
#[test]
fn netlist_elaboration_refuses_latches_undriven_nets_and_loops() {
    let cache = workdir("netlist_checks_cache");
    let elaborate = |body: &str| {
        let v = format!("module t(input wire a, input wire b, output reg y, output wire z);\n{body}\nendmodule\n");
        texpix_sim::netlist::yosys::netlist_json(&v, "t", &cache)
    };
    let good = "always @(*) y = a & b;\nassign z = a | b;";
    elaborate(good).expect("a clean module elaborates");
    for (what, body, says) in [
        (
            "latch",
            "always @(*) if (a) y = b;\nassign z = a;",
            "t:$dlatch",
        ),
        ("undriven", "always @(*) y = a;", "has no driver"),
        (
            "loop",
            "wire w;\nassign w = a ^ z;\nassign z = w & b;\nalways @(*) y = a;",
            "logic loop",
        ),
    ] {
        let err = elaborate(body).expect_err(what);
        assert!(
            err.contains("Yosys failed to elaborate t") && err.contains(says),
            "{what}: {err}"
        );
    }
}
