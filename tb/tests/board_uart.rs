//! The board-level tops (`texpix_rtl::board`) driven over a simulated serial line from power-up:
//! the coverage board against the coverage golden model, the fp board against the bit-accurate fp
//! models, the framing's error handling, baud-rate tolerance, and the exported Verilog: Verilator
//! `-Wall` lint with the waiver files (scripts/verilator_waivers.vlt, scripts/synth_waivers.vlt),
//! Yosys structural checks, and Icarus co-simulation of the fp and coverage boards against the Rust
//! simulation, cycle by cycle, from power-up.
//!
//! The UART runs at 4–32 clocks per bit here instead of the board's 104 to keep the simulations
//! short; the divisor is a constructor argument and nothing else depends on it.

use std::path::PathBuf;
use texpix_rtl::board::framer::{CMD_SYNC, RSP_SYNC};
use texpix_rtl::board::{CoverageBoard, CoverageBoardUlx3s, FpBoard, FpOps, LodBoardUlx3s};
use texpix_sim::SplitMix64;
use texpix_tb::board::{
    coverage_command, coverage_vector, export_fpga, fp_command, lod_command, lod_response,
    lod_vectors, BoardPins, BoardSim, FpOp,
};
use texpix_tb::cosim::{self, Simulator, Trace};
use texpix_tb::coverage;
use texpix_tb::coverage::Coverage;
use texpix_tb::fpmodel;
use texpix_tb::ports::ports_and_values;
use texpix_tb::unit::Unit;

const SPECIALS: &[u32] = &[
    0x0000_0000,
    0x8000_0000,
    0x0000_0001,
    0x3f80_0000,
    0xbf80_0000,
    0x7f7f_ffff,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x0080_0000,
];

fn operand(r: &mut SplitMix64) -> u32 {
    let x = r.next_u64();
    if x.is_multiple_of(4) {
        SPECIALS[(x >> 8) as usize % SPECIALS.len()]
    } else {
        (x >> 32) as u32
    }
}

/// The expected result of `op` on the board built with `ops`: (result, echoed op byte).
fn model(ops: FpOps, op: u8, a: u32, b: u32) -> (u32, u8) {
    if !ops.has(op) {
        return (0, op | 0x80);
    }
    let y = match op {
        0 => fpmodel::fp_mul(a, b),
        1 => fpmodel::fp_add(a, b, false),
        2 => fpmodel::fp_add(a, b, true),
        3 => fpmodel::fp_cmp(a, b).min,
        4 => fpmodel::fp_cmp(a, b).max,
        5 => {
            let c = fpmodel::fp_cmp(a, b);
            u32::from(c.lt)
                | u32::from(c.eq) << 1
                | u32::from(c.gt) << 2
                | u32::from(c.unordered) << 3
        }
        _ => fpmodel::f16_to_f32(a as u16),
    };
    (y, op)
}

/// Random fp commands (every op, built or not, and an undefined one) through the fp board with
/// the blocks of `ops` and `stages` pipeline stages, board bit time `div`, host bit time `host_div`.
fn fp_board_run(ops: FpOps, stages: usize, div: u64, host_div: u64, n: usize, seed: u64) {
    let mut b = BoardSim::new(FpBoard::new(ops, stages, div), host_div);
    let mut r = SplitMix64::new(seed);
    for k in 0..n {
        let op = [0u8, 1, 2, 3, 4, 5, 6, 0x37][k % 8];
        let (a, x) = (operand(&mut r), operand(&mut r));
        let got = fp_command(&mut b, op, a, x).unwrap_or_else(|e| panic!("command {k}: {e}"));
        assert_eq!(
            got,
            model(ops, op, a, x),
            "command {k}: {ops:?} op {op} a {a:#010x} b {x:#010x} (stages {stages}, div {div}/{host_div})"
        );
    }
}

#[test]
fn fp_boards_match_fp_models_over_uart() {
    fp_board_run(FpOps::Arith, 1, 8, 8, 64, 1);
    fp_board_run(FpOps::Arith, 3, 8, 8, 64, 2);
    fp_board_run(FpOps::Compare, 2, 8, 8, 64, 5);
}

#[test]
fn uart_tolerates_three_percent_baud_error() {
    // Board 32 clocks per bit; host 3 % faster and 3 % slower.
    fp_board_run(FpOps::Compare, 2, 32, 31, 12, 3);
    fp_board_run(FpOps::Compare, 2, 32, 33, 12, 4);
}

#[test]
fn framer_drops_noise_and_abandons_broken_commands() {
    let mut b = BoardSim::new(FpBoard::new(FpOps::Arith, 2, 8), 8);
    // Noise before a command, and a response sync byte (not a command sync) is noise too.
    b.host.send(&[0x00, 0xff, RSP_SYNC, 0x12]);
    // A command broken by a framing error in its third payload byte.
    b.host.send(&[CMD_SYNC, FpOp::Add as u8, 0x00]);
    b.host.send_char(0x80, false);
    b.host.idle(2);
    while !b.host.sent() {
        b.step().expect("step");
    }
    // Long enough for any (wrong) response to the noise or the broken command to come out.
    for _ in 0..20 * 10 * 8 {
        b.step().expect("step");
    }
    assert!(
        b.host.received.is_empty(),
        "board answered noise or a broken command: {:02x?}",
        b.host.received
    );
    // The next command works: 1.5 + 2.25 = 3.75.
    let got = fp_command(&mut b, FpOp::Add as u8, 0x3fc0_0000, 0x4010_0000).expect("command");
    assert_eq!(got, (0x4070_0000, FpOp::Add as u8));
    assert!(b.host.errors.is_empty(), "{:?}", b.host.errors);
}

#[test]
fn coverage_board_matches_golden_over_uart() {
    // About 9000 clocks per command at 4 clocks per bit: the first random vectors (edge cases
    // first) and the first one that needs several commands (more than OPS ops).
    let pool = Coverage::random(7, 64);
    let mut vectors = pool[..5].to_vec();
    vectors.extend(
        pool.iter()
            .find(|t| t.ops.len() > texpix_rtl::coverage::OPS)
            .cloned(),
    );
    assert_eq!(
        vectors.len(),
        6,
        "no vector with more than OPS ops in the pool"
    );
    let mut b = BoardSim::boxed(Box::new(CoverageBoard::new(4)), 4);
    let mut tag = 0u16;
    for (i, t) in vectors.iter().enumerate() {
        let got = coverage_vector(&mut b, t, tag).unwrap_or_else(|e| panic!("vector {i}: {e}"));
        tag = tag.wrapping_add(texpix_tb::coverage::dut::transactions(t) as u16);
        assert_eq!(got, coverage::golden(t), "vector {i}: {t:?}");
    }
    assert!(b.host.errors.is_empty(), "{:?}", b.host.errors);
}

#[test]
fn coverage_board_ulx3s_matches_golden_and_lights_its_led_high() {
    // The ULX3S top (CoverageBoard with an active-high `led`): two vectors against the golden
    // model, and the LED dark at idle, lit (high) while a command is in the unit or its response
    // is on the line, dark again after it.
    let pool = Coverage::random(7, 64);
    let vectors: Vec<_> = pool
        .iter()
        .filter(|t| t.ops.len() <= texpix_rtl::coverage::OPS)
        .take(2)
        .cloned()
        .collect();
    let mut b = BoardSim::boxed(Box::new(CoverageBoardUlx3s::new(4)), 4);
    for _ in 0..(texpix_rtl::board::reset::POR_CYCLES + 8) {
        b.step().expect("step");
    }
    assert!(!b.sim.uut.led.val(), "LED lit at idle");
    let mut tag = 0u16;
    for (i, t) in vectors.iter().enumerate() {
        let got = coverage_vector(&mut b, t, tag).unwrap_or_else(|e| panic!("vector {i}: {e}"));
        tag = tag.wrapping_add(texpix_tb::coverage::dut::transactions(t) as u16);
        assert_eq!(got, coverage::golden(t), "vector {i}: {t:?}");
    }
    // One more command, stepped by hand to watch the LED.
    let x = &texpix_tb::coverage::dut::encode(&vectors[0], 100)[0];
    b.host.received.clear();
    b.host.send(&[CMD_SYNC]);
    b.host.send(&coverage_command(x));
    let (mut lit, mut cycles) = (0u64, 0u64);
    while b.host.received.len() < texpix_rtl::board::coverage_board::COV_RSP_BYTES + 1 {
        b.step().expect("step");
        lit += u64::from(b.sim.uut.led.val());
        assert_eq!(
            b.sim.uut.led.val(),
            !b.sim.uut.led_n(),
            "led is not the inverse of led_n"
        );
        cycles += 1;
        assert!(cycles < 20_000, "no response after {cycles} cycles");
    }
    assert_eq!(b.host.received[0], RSP_SYNC);
    assert!(lit > 0, "LED never lit during the command");
    for _ in 0..100 {
        b.step().expect("step");
    }
    assert!(!b.sim.uut.led.val(), "LED still lit after the response");
    assert!(b.host.errors.is_empty(), "{:?}", b.host.errors);
}

/// The LOD board (the full LOD unit behind the UART) against the golden model, at a short and at
/// the deepest pipeline: random vectors with the stimulus's edge cases (NaN, infinite, zero and
/// huge derivatives, every mode and mip filter), each sent as one command and its four lanes'
/// results compared field by field.
#[test]
fn lod_board_ulx3s_matches_golden() {
    use texpix_rtl::lod::LodUnit;
    for (depth, seed, n) in [(1, 31, 12), (LodUnit::MAX_DEPTH, 32, 6)] {
        let vectors = texpix_tb::lod::stim::random(seed, n);
        let mut b = BoardSim::boxed(Box::new(LodBoardUlx3s::new(depth, 4)), 4);
        let got = lod_vectors(&mut b, &vectors, 7).unwrap_or_else(|e| panic!("depth {depth}: {e}"));
        assert_eq!(got.len(), vectors.len());
        for (k, (g, t)) in got.iter().zip(&vectors).enumerate() {
            assert_eq!(
                *g,
                texpix_tb::lod::golden(t),
                "depth {depth}, vector {k}: {t:?}"
            );
        }
        assert!(b.host.errors.is_empty(), "{:?}", b.host.errors);
    }
}

/// The LOD board's frames: a command's bytes reach the unit's ports (a field moved by a byte is
/// caught by the golden comparison above; here the LED and a response of the right length with
/// its sync byte), and the busy LED is high only while a command is in flight.
#[test]
fn lod_board_ulx3s_lights_its_led_during_a_command() {
    let t = texpix_tb::lod::stim::random(5, 1).remove(0);
    let mut b = BoardSim::boxed(Box::new(LodBoardUlx3s::new(0, 4)), 4);
    for _ in 0..(texpix_rtl::board::reset::POR_CYCLES + 8) {
        b.step().expect("step");
    }
    assert!(!b.sim.uut.led.val(), "LED lit at idle");
    let x = texpix_tb::lod::dut::LodIn {
        tag: 0xBEEF,
        txn: t.clone(),
    };
    b.host.received.clear();
    b.host.send(&[CMD_SYNC]);
    b.host.send(&lod_command(&x));
    let n = texpix_rtl::board::lod_board::LOD_RSP_BYTES + 1;
    let (mut lit, mut cycles) = (0u64, 0u64);
    while b.host.received.len() < n {
        b.step().expect("step");
        lit += u64::from(b.sim.uut.led.val());
        cycles += 1;
        assert!(cycles < 20_000, "no response after {cycles} cycles");
    }
    assert_eq!(b.host.received[0], RSP_SYNC);
    let (tag, lanes) = lod_response(&b.host.received[1..]).expect("response");
    assert_eq!(tag, 0xBEEF);
    assert_eq!(lanes, texpix_tb::lod::golden(&t));
    assert!(lit > 0, "LED never lit during the command");
    for _ in 0..100 {
        b.step().expect("step");
    }
    assert!(!b.sim.uut.led.val(), "LED still lit after the response");
    // A response of the wrong length is an error naming both lengths.
    let e = lod_response(&[0u8; 3]).unwrap_err();
    assert!(e.contains("3 bytes, expected 58"), "{e}");
}

fn workdir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Verilator `-Wall` lint and Yosys structural checks of a board top's Verilog.
fn lint_and_check(target: &str, top: &str) {
    let v = export_fpga(target, 2, 104, None, "board_uart test").expect("export");
    let dir = workdir(&format!("board_{top}"));
    let f = dir.join(format!("{top}.v"));
    std::fs::write(&f, v).expect("write");
    texpix_tb::tools::lint(&f, top, &["synth_waivers.vlt"]).unwrap_or_else(|e| panic!("{e}"));
    texpix_tb::tools::yosys_check(&f, top).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn board_tops_lint_and_yosys_clean() {
    lint_and_check("fp-board", "texpix_fp_board");
    lint_and_check("fp-cmp-board", "texpix_fp_cmp_board");
    lint_and_check("coverage-board", "texpix_coverage_board");
    lint_and_check("coverage-board-ulx3s", "texpix_coverage_board_ulx3s");
}

#[test]
fn lod_board_lints_and_yosys_clean() {
    // At a short depth (the deepest's Verilog is the LOD unit's, linted with the unit's tests).
    let v = export_fpga("lod-board-ulx3s", 2, 104, Some(1), "board_uart test").expect("export");
    let top = "texpix_lod_board_ulx3s";
    assert!(v.contains("LOD unit depth 1 (latency 6)"), "{}", &v[..300]);
    let dir = workdir(&format!("board_{top}"));
    let f = dir.join(format!("{top}.v"));
    std::fs::write(&f, v).expect("write");
    texpix_tb::tools::lint(&f, top, &["synth_waivers.vlt"]).unwrap_or_else(|e| panic!("{e}"));
    texpix_tb::tools::yosys_check(&f, top).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn fp_board_cosim_icarus() {
    // The fp compare board at 8 clocks per bit, four commands, from power-up: every port on every cycle
    // of the Rust simulation must match Icarus running the exported Verilog.
    let (stages, div) = (2, 8);
    let mut b = BoardSim::new(FpBoard::new(FpOps::Compare, stages, div), div);
    let rows = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = rows.clone();
    b.sim.set_probe(Box::new(move |u: &FpBoard| {
        sink.borrow_mut().push(ports_and_values(u).1);
    }));
    for (op, a, x) in [
        (FpOp::Min as u8, 0x4040_0000, 0xc080_0000),
        (FpOp::Compare as u8, 0x3f80_0000, 0x3f80_0001),
        (FpOp::F16ToF32 as u8, 0x0000_3c01, 0),
        (FpOp::Mul as u8, 0x4040_0000, 0x4040_0000),
    ] {
        let got = fp_command(&mut b, op, a, x).expect("command");
        assert_eq!(got, model(FpOps::Compare, op, a, x));
    }
    let (ports, _) = ports_and_values(&*b.sim.uut);
    let trace = Trace {
        ports,
        cycles: rows.borrow().clone(),
    };
    let mut u = FpBoard::new(FpOps::Compare, stages, div);
    let verilog =
        texpix_rtl::export::verilog(&mut u, "texpix_fp_cmp_board", "cosim").expect("export");
    let report = cosim::run(
        Simulator::Icarus,
        &workdir("board_fp_cosim"),
        "texpix_fp_cmp_board",
        &verilog,
        &trace,
    )
    .expect("co-simulation");
    assert_eq!(report.cycles, trace.cycles.len());
}

#[test]
fn coverage_board_cosim_icarus() {
    // The coverage board (serial unit) at 4 clocks per bit, two commands (one with programmable
    // positions if the pool has one), from power-up: every port on every cycle of the Rust
    // simulation must match Icarus running the exported Verilog, and the responses the golden model.
    let div = 4;
    let pool = Coverage::random(21, 64);
    let mut vectors: Vec<_> = pool
        .iter()
        .filter(|t| t.ops.len() <= texpix_rtl::coverage::OPS)
        .take(1)
        .cloned()
        .collect();
    vectors.extend(
        pool.iter()
            .filter(|t| t.ops.len() <= texpix_rtl::coverage::OPS && t.positions.is_some())
            .take(1)
            .cloned(),
    );
    assert_eq!(
        vectors.len(),
        2,
        "pool lacks a vector with programmable positions"
    );
    let mut b = BoardSim::boxed(Box::new(CoverageBoard::new(div)), div);
    let rows = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = rows.clone();
    b.sim.set_probe(Box::new(move |u: &CoverageBoard| {
        sink.borrow_mut().push(ports_and_values(u).1);
    }));
    for (i, t) in vectors.iter().enumerate() {
        let got =
            coverage_vector(&mut b, t, i as u16).unwrap_or_else(|e| panic!("vector {i}: {e}"));
        assert_eq!(got, coverage::golden(t), "vector {i}: {t:?}");
    }
    let (ports, _) = ports_and_values(&*b.sim.uut);
    let trace = Trace {
        ports,
        cycles: rows.borrow().clone(),
    };
    let mut u = CoverageBoard::new(div);
    let verilog =
        texpix_rtl::export::verilog(&mut u, "texpix_coverage_board", "cosim").expect("export");
    let report = cosim::run(
        Simulator::Icarus,
        &workdir("board_coverage_cosim"),
        "texpix_coverage_board",
        &verilog,
        &trace,
    )
    .expect("co-simulation");
    assert_eq!(report.cycles, trace.cycles.len());
}

/// `texpix export-fpga` as users run it: usage errors (exit status 2), a data error (1), a good call.
#[test]
fn export_fpga_rejects_bad_arguments() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_texpix"))
            .args(args)
            .output()
            .expect("run texpix");
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        (out.status.code(), err)
    };
    let dir = workdir("export_fpga_cli");
    let out = dir.to_str().expect("utf-8 path");
    let (code, e) = run(&["export-fpga", "nope", "--out", out]);
    assert!(
        code == Some(2) && e.contains("unknown FPGA target `nope`"),
        "{e}"
    );
    let (code, e) = run(&["export-fpga", "fpmul", "--stages", "0", "--out", out]);
    assert!(
        code == Some(1) && e.contains("--stages 0 out of range"),
        "{e}"
    );
    let (code, e) = run(&["export-fpga", "fp-board", "--div", "x", "--out", out]);
    assert!(
        code == Some(2) && e.contains("invalid value 'x' for '--div"),
        "{e}"
    );
    let (code, e) = run(&["export-fpga"]);
    assert!(code == Some(2) && e.contains("<TARGET>"), "{e}");
    let (code, e) = run(&[
        "export-fpga",
        "lod-board-ulx3s",
        "--depth",
        "43",
        "--out",
        out,
    ]);
    assert!(
        code == Some(1) && e.contains("--depth 43 out of range 0..=42"),
        "{e}"
    );
    let (code, e) = run(&["export-fpga", "fp-board", "--depth", "1", "--out", out]);
    assert!(
        code == Some(1) && e.contains("--depth applies to a unit board"),
        "{e}"
    );
    // A good call writes the file with its parameters in the header.
    let (code, e) = run(&["export-fpga", "fp-cmp-board", "--stages", "3", "--out", out]);
    assert_eq!(code, Some(0), "{e}");
    let v = std::fs::read_to_string(dir.join("texpix_fp_cmp_board.v")).expect("written");
    assert!(v.starts_with("// texpix_fp_cmp_board: "), "{}", &v[..80]);
    assert!(v.contains("ops Compare, 3 fp stages, UART bit time 104 clocks"));
    assert!(v.contains("module texpix_fp_cmp_board("));
}
