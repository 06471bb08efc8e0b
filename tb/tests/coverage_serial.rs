//! The time-multiplexed coverage unit (`CoverageSerial`) against the golden model, with the coverage
//! unit's stimulus (edge cases first, then random) and driver: in order, with and without random
//! back-pressure on both sides; the conformance examples; its timing (one transaction per
//! `SERIAL_CYCLES` clocks). Its exported Verilog (lint, Yosys, Icarus, Verilator and netlist
//! co-simulation) is tested with every registered unit's, in `verilog.rs` and `netlist.rs`.

use texpix_rtl::coverage::SERIAL_CYCLES;
use texpix_tb::coverage::stim::Stim;
use texpix_tb::coverage::SerialCoverage;
use texpix_tb::coverage::{parse_line, parse_result_line};
use texpix_tb::scoreboard::{run_and_check, stalls};
use texpix_tb::unit::Unit;
use texpix_tb::vectors::read_jsonl;

/// Runs `n` vectors of the coverage stimulus with `seed` through the serial unit and compares each
/// with the golden model, in order. Returns the number of vectors and RTL transactions.
fn compare(n: usize, seed: u64, stall: u32) -> (usize, usize) {
    let vectors = SerialCoverage::random(seed, n);
    let (results, stats) = run_and_check::<SerialCoverage>(&vectors, &stalls(stall, seed))
        .unwrap_or_else(|e| panic!("seed {seed}, stall {stall}‰: {e}"));
    assert_eq!(results.len(), n);
    (n, stats.accepted)
}

#[test]
fn serial_equals_golden_without_back_pressure() {
    let (n, txns) = compare(3000, 1, 0);
    eprintln!(
        "serial coverage, no back-pressure: {n} vectors, {txns} RTL transactions, 0 mismatches"
    );
}

#[test]
fn serial_equals_golden_with_random_back_pressure() {
    let (n1, t1) = compare(1500, 2, 300);
    let (n2, t2) = compare(1500, 3, 700);
    eprintln!(
        "serial coverage, back-pressure 300‰/700‰: {} vectors, {} RTL transactions, 0 mismatches",
        n1 + n2,
        t1 + t2
    );
}

#[test]
fn serial_conformance_examples_match_expected_results() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let vectors = read_jsonl(&dir.join("coverage.jsonl"), parse_line).expect("vectors");
    let expected =
        read_jsonl(&dir.join("coverage.expected.jsonl"), parse_result_line).expect("expected");
    assert_eq!(vectors.len(), expected.len());
    let (results, _) = run_and_check::<SerialCoverage>(&vectors, &stalls(250, 9)).expect("run");
    for (k, (r, e)) in results.iter().zip(&expected).enumerate() {
        assert_eq!(&r.out, e, "examples/coverage.jsonl line {}", k + 1);
    }
}

#[test]
fn one_transaction_per_serial_cycles_without_back_pressure() {
    let mut s = Stim::new(4);
    let n = 20;
    let vectors: Vec<_> = (0..n)
        .map(|_| {
            let mut t = s.coverage();
            t.ops.truncate(texpix_rtl::coverage::OPS);
            t
        })
        .collect();
    let (results, _) = run_and_check::<SerialCoverage>(&vectors, &stalls(0, 1)).expect("run");
    for (k, r) in results.iter().enumerate() {
        assert_eq!(
            r.cycle_out - r.cycle_in,
            1,
            "vector {k}: out_valid the clock after"
        );
        assert_eq!(
            r.cycle_in,
            results[0].cycle_in + k as u64 * SERIAL_CYCLES,
            "vector {k}: one transaction per SERIAL_CYCLES"
        );
    }
    // The first transaction is offered on the first clock after reset.
    assert_eq!(
        results[0].cycle_in + 1,
        SERIAL_CYCLES + 2,
        "reset takes 2 clocks"
    );
}
