//! The pipelined floating-point wrappers (`texpix_rtl::common::fp::pipe`) as exported Verilog:
//! co-simulation in Icarus Verilog against the Rust simulation, cycle by cycle, from power-up; the
//! Rust run itself is scoreboarded against the bit-accurate models (`texpix_tb::fpmodel`) with the
//! pipeline latency and the enable; Verilator `-Wall` lint with the waiver file; Yosys structural
//! checks (no latches, undriven nets or loops).
//!
//! Each trace is a few thousand cycles of random operands mixed with special values, with `en` low
//! on about one cycle in eight. The same co-simulation in Verilator is opt-in (`-- --ignored`,
//! a few minutes of Verilator builds). These tests need iverilog, verilator and yosys
//! (scripts/setup.sh); they fail, not skip, when a tool is missing.

use rust_hdl::prelude::*;
use std::path::PathBuf;
use texpix_rtl::common::fp::{
    F16ToF32P, FpAddP, FpCmpP, FpLog2P, FpMulP, FpToFixedP, LzcP, CANONICAL_NAN,
};
use texpix_sim::{Sim, SplitMix64};
use texpix_tb::cosim::{self, Simulator, Trace};
use texpix_tb::fpmodel;
use texpix_tb::ports::ports_and_values;

const CYCLES: usize = 3000;

/// Special values mixed into the random operands.
const SPECIALS: &[u32] = &[
    0x0000_0000,
    0x8000_0000,
    0x0000_0001,
    0x807f_ffff,
    0x0080_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x3380_0000,
    0x7f7f_ffff,
    0xff7f_ffff,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7f80_0001,
    0x1a00_0000,
    0x4b00_0000,
];

fn operand(r: &mut SplitMix64) -> u32 {
    let x = r.next_u64();
    let bits = (x >> 32) as u32;
    match x % 6 {
        0 => SPECIALS[(x >> 8) as usize % SPECIALS.len()],
        1 => bits & 0x807f_ffff | (((x >> 8) % 3) as u32) << 23,
        2 => bits & 0x807f_ffff | (((x >> 8) % 40 + 107) as u32) << 23,
        _ => bits,
    }
}

/// One pipelined wrapper under test: how to build it, drive it and what it must compute.
struct Dut<B: Block> {
    /// Verilog top-module name.
    top: String,
    /// Builds the wrapper with the given number of register stages.
    make: fn(usize) -> B,
    set_clock: fn(&mut B, bool),
    set_en: fn(&mut B, bool),
    /// Sets the data inputs (in port order).
    set_inputs: fn(&mut B, &[u64]),
    /// Random data inputs (in port order).
    gen: fn(&mut SplitMix64) -> Vec<u64>,
    /// Expected outputs (in port order) from the bit-accurate models.
    model: fn(&[u64]) -> Vec<u64>,
}

fn workdir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Runs the Rust simulation from power-up, recording the port trace, and checks every cycle's
/// outputs against the models delayed by `stages` enabled clocks (zero before the pipeline fills).
fn rust_trace<B: Block + 'static>(dut: &Dut<B>, stages: usize, cycles: usize, seed: u64) -> Trace {
    let mut sim = Sim::new((dut.make)(stages), dut.set_clock);
    let rows = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = rows.clone();
    sim.set_probe(Box::new(move |u: &B| {
        sink.borrow_mut().push(ports_and_values(u).1);
    }));
    let mut r = SplitMix64::new(seed);
    // Inputs sampled by each enabled rising edge so far.
    let mut sampled: Vec<Vec<u64>> = Vec::new();
    for _ in 0..cycles {
        let en = !r.next_u64().is_multiple_of(8);
        let ins = (dut.gen)(&mut r);
        (dut.set_en)(&mut sim.uut, en);
        (dut.set_inputs)(&mut sim.uut, &ins);
        sim.step().unwrap_or_else(|e| panic!("{}: {e}", dut.top));
        if en {
            sampled.push(ins);
        }
    }
    let (ports, _) = ports_and_values(&*sim.uut);
    let cycles_rows = rows.borrow().clone();
    // Scoreboard: before the edge of cycle c, after k enabled edges, the outputs are the model of
    // the inputs sampled by enabled edge k - stages (1-based), or 0 while k < stages.
    let outs: Vec<usize> = (0..ports.len()).filter(|&i| !ports[i].input).collect();
    let en_col = ports.iter().position(|p| p.name == "en").expect("en port");
    let mut k = 0;
    for (c, row) in cycles_rows.iter().enumerate() {
        let want: Vec<u64> = if k >= stages {
            (dut.model)(&sampled[k - stages])
        } else {
            vec![0; outs.len()]
        };
        let got: Vec<u64> = outs
            .iter()
            .map(|&i| u64::from_str_radix(&row[i], 16).expect("hex"))
            .collect();
        assert_eq!(
            got, want,
            "{}: Rust simulation at cycle {c} ({k} enabled edges) differs from the model; outputs {:?}",
            dut.top,
            outs.iter().map(|&i| &ports[i].name).collect::<Vec<_>>()
        );
        if row[en_col] == "1" {
            k += 1;
        }
    }
    Trace {
        ports,
        cycles: cycles_rows,
    }
}

fn export<B: Block>(dut: &Dut<B>, stages: usize) -> String {
    let mut u = (dut.make)(stages);
    texpix_rtl::export::verilog(
        &mut u,
        &dut.top,
        &format!(
            "{}: texpix floating-point wrapper (fp_verilog test)",
            dut.top
        ),
    )
    .expect("export")
}

/// Rust trace (scoreboarded) replayed in `sim`; every output on every cycle must match.
fn cosim_in<B: Block + 'static>(sim: Simulator, dut: &Dut<B>, stages: usize, seed: u64) {
    let trace = rust_trace(dut, stages, CYCLES, seed);
    let verilog = export(dut, stages);
    let dir = workdir(&format!("fp_cosim_{sim:?}_{}_{stages}", dut.top));
    let report = cosim::run(sim, &dir, &dut.top, &verilog, &trace)
        .unwrap_or_else(|e| panic!("{} ({sim:?}): {e}", dut.top));
    assert_eq!(report.cycles, CYCLES);
}

fn cosim_icarus<B: Block + 'static>(dut: &Dut<B>, stages: usize, seed: u64) {
    cosim_in(Simulator::Icarus, dut, stages, seed);
}

fn lint_and_yosys<B: Block>(dut: &Dut<B>, stages: usize) {
    let dir = workdir(&format!("fp_lint_{}", dut.top));
    let v = dir.join(format!("{}.v", dut.top));
    std::fs::write(&v, export(dut, stages)).expect("write");
    texpix_tb::tools::lint(&v, &dut.top, &[]).unwrap_or_else(|e| panic!("{e}"));
    texpix_tb::tools::yosys_check(&v, &dut.top).unwrap_or_else(|e| panic!("{e}"));
}

// ---------------------------------------------------------------------------------------------
// The wrappers.

fn u(x: u64) -> u32 {
    x as u32
}

fn add_dut(stages: usize) -> Dut<FpAddP> {
    Dut {
        top: format!("fp_add_p{stages}"),
        make: FpAddP::new,
        set_clock: |u, c| u.clock.next = Clock::from(c),
        set_en: |u, e| u.en.next = e,
        set_inputs: |u, v| {
            u.a.next = v[0].into();
            u.b.next = v[1].into();
            u.sub.next = v[2] != 0;
        },
        gen: |r| {
            let a = operand(r);
            let b = if r.next_u64() % 4 == 0 { a } else { operand(r) };
            vec![a.into(), b.into(), r.next_u64() & 1]
        },
        model: |v| vec![fpmodel::fp_add(u(v[0]), u(v[1]), v[2] != 0).into()],
    }
}

fn mul_dut(stages: usize) -> Dut<FpMulP> {
    Dut {
        top: format!("fp_mul_p{stages}"),
        make: FpMulP::new,
        set_clock: |u, c| u.clock.next = Clock::from(c),
        set_en: |u, e| u.en.next = e,
        set_inputs: |u, v| {
            u.a.next = v[0].into();
            u.b.next = v[1].into();
        },
        gen: |r| vec![operand(r).into(), operand(r).into()],
        model: |v| vec![fpmodel::fp_mul(u(v[0]), u(v[1])).into()],
    }
}

fn cmp_dut() -> Dut<FpCmpP> {
    Dut {
        top: "fp_cmp_p2".into(),
        make: FpCmpP::new,
        set_clock: |u, c| u.clock.next = Clock::from(c),
        set_en: |u, e| u.en.next = e,
        set_inputs: |u, v| {
            u.a.next = v[0].into();
            u.b.next = v[1].into();
        },
        gen: |r| {
            let a = operand(r);
            let b = match r.next_u64() % 4 {
                0 => a,
                1 => a ^ 0x8000_0000,
                _ => operand(r),
            };
            vec![a.into(), b.into()]
        },
        model: |v| {
            let c = fpmodel::fp_cmp(u(v[0]), u(v[1]));
            vec![
                c.lt.into(),
                c.eq.into(),
                c.gt.into(),
                c.unordered.into(),
                c.min.into(),
                c.max.into(),
            ]
        },
    }
}

fn f16_dut() -> Dut<F16ToF32P> {
    Dut {
        top: "fp_f16_to_f32_p2".into(),
        make: F16ToF32P::new,
        set_clock: |u, c| u.clock.next = Clock::from(c),
        set_en: |u, e| u.en.next = e,
        set_inputs: |u, v| u.a.next = v[0].into(),
        gen: |r| {
            let x = r.next_u64();
            let h = match x % 4 {
                0 => [
                    0x0000u64, 0x8000, 0x0001, 0x03ff, 0x0400, 0x7bff, 0x7c00, 0xfc00, 0x7e00,
                    0x7d55,
                ][(x >> 8) as usize % 10],
                1 => (x >> 16) & 0x83ff, // denormals
                _ => (x >> 16) & 0xffff,
            };
            vec![h]
        },
        model: |v| vec![fpmodel::f16_to_f32(v[0] as u16).into()],
    }
}

fn fixed_outputs(o: fpmodel::FixedOut) -> Vec<u64> {
    vec![(o.y as u32).into(), o.nan.into(), o.sat.into()]
}

fn fixed_gen<const F: usize>(r: &mut SplitMix64) -> Vec<u64> {
    let x = r.next_u64();
    let a = if x.is_multiple_of(2) {
        operand(r)
    } else {
        // Exponents where rounding and saturation happen for F fraction bits.
        let e = (150 - F as u32 - 26) + (x >> 8) as u32 % 36;
        (x >> 32) as u32 & 0x807f_ffff | e << 23
    };
    vec![a.into()]
}

fn fixed_dut<const F: usize>(top: &'static str) -> Dut<FpToFixedP<F>> {
    Dut {
        top: top.into(),
        make: FpToFixedP::<F>::new,
        set_clock: |u, c| u.clock.next = Clock::from(c),
        set_en: |u, e| u.en.next = e,
        set_inputs: |u, v| u.a.next = v[0].into(),
        gen: fixed_gen::<F>,
        model: |v| fixed_outputs(fpmodel::fp_to_fixed(u(v[0]), F as u32)),
    }
}

fn log2_dut(stages: usize) -> Dut<FpLog2P> {
    Dut {
        top: format!("fp_log2_p{stages}"),
        make: FpLog2P::new,
        set_clock: |u, c| u.clock.next = Clock::from(c),
        set_en: |u, e| u.en.next = e,
        set_inputs: |u, v| u.a.next = v[0].into(),
        gen: |r| vec![operand(r).into()],
        model: |v| {
            let (y, f) = fpmodel::fp_log2(u(v[0]));
            vec![
                (y as u32).into(),
                f.zero.into(),
                f.inf.into(),
                f.nan.into(),
                f.neg.into(),
            ]
        },
    }
}

fn lzc_dut<const N: usize>(top: &'static str) -> Dut<LzcP<N>> {
    Dut {
        top: top.into(),
        make: LzcP::<N>::new,
        set_clock: |u, c| u.clock.next = Clock::from(c),
        set_en: |u, e| u.en.next = e,
        set_inputs: |u, v| u.a.next = v[0].to_bits::<N>(),
        gen: |r| {
            let mask = if N == 64 { u64::MAX } else { (1u64 << N) - 1 };
            let x = r.next_u64() & mask;
            let v = match r.next_u64() % 4 {
                0 => 1u64 << (r.next_u64() % N as u64),
                1 => 0,
                _ => x >> (r.next_u64() % N as u64),
            };
            vec![v]
        },
        model: |v| vec![u64::from(fpmodel::lzc(v[0], N as u32))],
    }
}

// ---------------------------------------------------------------------------------------------
// Co-simulation in Icarus (2 register stages; the adder and the multiplier with 1 to 7).

/// Every stage count from one to seven: each of `FP_CUTS`' and `MUL_CUTS`' rows (and, for the
/// adder, one with a stage after a fully cut pipeline) is a different placement of the registers.
#[test]
fn icarus_fp_add_p_every_stage_count() {
    for s in 1..=7 {
        cosim_icarus(&add_dut(s), s, s as u64);
    }
}

#[test]
fn icarus_fp_mul_p_every_stage_count() {
    for s in 1..=7 {
        cosim_icarus(&mul_dut(s), s, 20 + s as u64);
    }
}

#[test]
fn icarus_fp_cmp_p() {
    cosim_icarus(&cmp_dut(), 2, 5);
}

#[test]
fn icarus_f16_to_f32_p() {
    cosim_icarus(&f16_dut(), 2, 6);
}

#[test]
fn icarus_fp_to_fixed_p() {
    cosim_icarus(&fixed_dut::<0>("fp_to_fixed0_p2"), 2, 7);
    cosim_icarus(&fixed_dut::<16>("fp_to_fixed16_p2"), 2, 8);
    cosim_icarus(&fixed_dut::<24>("fp_to_fixed24_p2"), 2, 9);
}

#[test]
fn icarus_fp_log2_p_every_stage_count() {
    for s in 1..=7 {
        cosim_icarus(&log2_dut(s), s, 10 + s as u64);
    }
}

#[test]
fn icarus_lzc_p() {
    cosim_icarus(&lzc_dut::<27>("lzc27_p2"), 2, 11);
    cosim_icarus(&lzc_dut::<64>("lzc64_p2"), 2, 12);
}

/// The same traces in Verilator (compiling nine models takes a few minutes: opt-in).
#[test]
#[ignore = "slow (Verilator builds): run with --ignored"]
fn verilator_cosim_all_wrappers() {
    let v = Simulator::Verilator;
    cosim_in(v, &add_dut(2), 2, 1);
    cosim_in(v, &add_dut(6), 6, 1);
    cosim_in(v, &mul_dut(2), 2, 4);
    cosim_in(v, &mul_dut(6), 6, 4);
    cosim_in(v, &mul_dut(7), 7, 4);
    cosim_in(v, &cmp_dut(), 2, 5);
    cosim_in(v, &f16_dut(), 2, 6);
    cosim_in(v, &fixed_dut::<0>("fp_to_fixed0_p2"), 2, 7);
    cosim_in(v, &fixed_dut::<16>("fp_to_fixed16_p2"), 2, 8);
    cosim_in(v, &log2_dut(2), 2, 10);
    cosim_in(v, &log2_dut(5), 5, 10);
    cosim_in(v, &log2_dut(6), 6, 10);
    cosim_in(v, &lzc_dut::<27>("lzc27_p2"), 2, 11);
    cosim_in(v, &lzc_dut::<64>("lzc64_p2"), 2, 12);
}

// ---------------------------------------------------------------------------------------------
// Lint and structural checks of every wrapper.

#[test]
fn verilator_lint_and_yosys_checks_are_clean() {
    for s in [1, 2, 6] {
        lint_and_yosys(&add_dut(s), s);
        lint_and_yosys(&mul_dut(s), s);
    }
    lint_and_yosys(&mul_dut(7), 7);
    lint_and_yosys(&cmp_dut(), 2);
    lint_and_yosys(&f16_dut(), 2);
    lint_and_yosys(&fixed_dut::<0>("fp_to_fixed0_p2"), 2);
    lint_and_yosys(&fixed_dut::<16>("fp_to_fixed16_p2"), 2);
    for s in [1, 2, 5, 6] {
        lint_and_yosys(&log2_dut(s), s);
    }
    lint_and_yosys(&lzc_dut::<27>("lzc27_p2"), 2);
    lint_and_yosys(&lzc_dut::<64>("lzc64_p2"), 2);
}

// ---------------------------------------------------------------------------------------------
// The checks themselves can fail.

#[test]
fn cosim_detects_a_wrong_output() {
    let dut = mul_dut(2);
    let mut trace = rust_trace(&dut, 2, 200, 13);
    let k = trace
        .ports
        .iter()
        .position(|p| p.name == "y")
        .expect("port y");
    let row = 150;
    let v = u32::from_str_radix(&trace.cycles[row][k], 16).expect("hex") ^ 1;
    trace.cycles[row][k] = format!("{v:08x}");
    let dir = workdir("fp_cosim_corrupt");
    let err = cosim::run(Simulator::Icarus, &dir, &dut.top, &export(&dut, 2), &trace)
        .expect_err("must detect the corrupted value");
    assert!(
        err.contains(&format!("cycle {row}")) && err.contains("port y"),
        "{err}"
    );
}

#[test]
#[should_panic(expected = "differs from the model")]
fn scoreboard_detects_a_wrong_model() {
    let mut dut = mul_dut(2);
    dut.model = |v| vec![(fpmodel::fp_mul(u(v[0]), u(v[1])) ^ 1).into()];
    rust_trace(&dut, 2, 50, 14);
}

#[test]
fn canonical_nan_reaches_the_output_after_the_latency() {
    // Written out: Inf - Inf with 2 stages, en always high.
    let mut sim = Sim::new(FpAddP::new(2), |u, c| u.clock.next = Clock::from(c));
    sim.uut.en.next = true;
    sim.uut.a.next = 0x7f80_0000u64.into();
    sim.uut.b.next = 0x7f80_0000u64.into();
    sim.uut.sub.next = true;
    sim.step().expect("step");
    sim.uut.a.next = 0x3f80_0000u64.into();
    sim.uut.sub.next = false;
    sim.settle().expect("settle");
    assert_eq!(sim.uut.y.val().to_u32(), 0, "one edge: not through yet");
    sim.step().expect("step");
    sim.settle().expect("settle");
    assert_eq!(sim.uut.y.val().to_u32(), CANONICAL_NAN);
    sim.uut.en.next = false;
    sim.step().expect("step");
    sim.settle().expect("settle");
    assert_eq!(sim.uut.y.val().to_u32(), CANONICAL_NAN, "en low holds");
    sim.uut.en.next = true;
    sim.step().expect("step");
    sim.settle().expect("settle");
    assert_eq!(sim.uut.y.val().to_u32(), 0x7f80_0000, "1 + Inf");
}
