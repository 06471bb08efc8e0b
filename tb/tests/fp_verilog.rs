//! The pipelined floating-point wrappers (`texpix_rtl::common::fp::pipe`), the LOD unit's
//! fixed-point back end (`texpix_rtl::lod::LodFinish`, checked against the golden model's steps
//! 4–8, `texpix_tb::lod::finish_lane`) and one texaddr coordinate axis (`texpix_rtl::texaddr::Axis`,
//! against the golden model's `axis`), as exported Verilog:
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
    F16ToF32P, FpAddP, FpCmpP, FpLog2P, FpMulP, FpToFixedP, LzcP, MulUReg, CANONICAL_NAN,
};
use texpix_rtl::lod::LodFinish;
use texpix_rtl::texaddr::Axis;
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
    /// The outputs are all zero until the first result arrives (the fp wrappers); otherwise they
    /// are not checked before it (a pipeline whose valid bits live outside it).
    zero_until_full: bool,
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
    // Inputs sampled by each enabled rising edge so far, and the inputs of every cycle.
    let mut sampled: Vec<Vec<u64>> = Vec::new();
    let mut applied: Vec<Vec<u64>> = Vec::new();
    for _ in 0..cycles {
        let en = !r.next_u64().is_multiple_of(8);
        let ins = (dut.gen)(&mut r);
        (dut.set_en)(&mut sim.uut, en);
        (dut.set_inputs)(&mut sim.uut, &ins);
        sim.step().unwrap_or_else(|e| panic!("{}: {e}", dut.top));
        if en {
            sampled.push(ins.clone());
        }
        applied.push(ins);
    }
    let (ports, _) = ports_and_values(&*sim.uut);
    let cycles_rows = rows.borrow().clone();
    // Scoreboard: before the edge of cycle c, after k enabled edges, the outputs are the model of
    // the inputs sampled by enabled edge k - stages (1-based), or 0 while k < stages (unchecked
    // unless `zero_until_full`); with no
    // stages, the model of the cycle's own inputs.
    let outs: Vec<usize> = (0..ports.len()).filter(|&i| !ports[i].input).collect();
    let en_col = ports.iter().position(|p| p.name == "en").expect("en port");
    let mut k: usize = 0;
    for (c, row) in cycles_rows.iter().enumerate() {
        let inputs = if stages == 0 {
            Some(&applied[c])
        } else {
            k.checked_sub(stages).map(|j| &sampled[j])
        };
        let want: Vec<u64> = match inputs {
            Some(v) => (dut.model)(v),
            None if dut.zero_until_full => vec![0; outs.len()],
            None => {
                k += usize::from(row[en_col] == "1");
                continue;
            }
        };
        let got: Vec<u64> = outs
            .iter()
            .map(|&i| u64::from_str_radix(&row[i], 16).expect("hex"))
            .collect();
        assert_eq!(
            got, want,
            "{}: Rust simulation at cycle {c} ({k} enabled edges) differs from the model; outputs {:?}, inputs {:x?}",
            dut.top,
            outs.iter().map(|&i| &ports[i].name).collect::<Vec<_>>(),
            inputs
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
        zero_until_full: true,
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
        zero_until_full: true,
    }
}

/// The 6 × 6 product that the Verilog builds from logic (`mulu::LUT_MAX`), combinational
/// (0 stages) or with its operand and product registers (2); a quarter of the operands are 63.
fn mul6_dut(stages: usize) -> Dut<MulUReg<6, 6, 12>> {
    Dut {
        top: format!("mulu6_p{stages}"),
        make: |s| MulUReg::new(s > 0),
        set_clock: |u, c| u.clock.next = Clock::from(c),
        set_en: |u, e| u.en.next = e,
        set_inputs: |u, v| {
            u.a.next = v[0].into();
            u.b.next = v[1].into();
        },
        gen: |r| {
            let x = r.next_u64();
            let side = |v: u64| {
                if v.is_multiple_of(4) {
                    63
                } else {
                    (v >> 8) & 63
                }
            };
            vec![side(x & 0xffff), side(x >> 16)]
        },
        model: |v| vec![v[0] * v[1]],
        zero_until_full: true,
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
        zero_until_full: true,
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
        zero_until_full: true,
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
        zero_until_full: true,
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
        zero_until_full: true,
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
        zero_until_full: true,
    }
}

/// A log2(ρ²)·2^16 of the LOD lane: anywhere in the f32 log's range, small, or a boundary.
fn lod_log(r: &mut SplitMix64) -> u64 {
    let x = r.next_u64();
    let v: i64 = match x % 4 {
        0 => (x >> 8) as i64 % (150 << 16),
        1 => (x >> 8) as i64 % (12 << 17),
        2 => [0, 1, -1, 1 << 17, 3 << 16, 150 << 16, -(149 << 16)][(x >> 8) as usize % 7],
        _ => ((x >> 8) as i64 % 64) << 13,
    };
    let v = if (x >> 40) & 1 == 1 { -v } else { v };
    u64::from(v as i32 as u32)
}

/// Zero, inf or NaN flags of one axis (at most one set), mostly none.
fn lod_flags(r: &mut SplitMix64) -> [u64; 3] {
    match r.next_u64() % 16 {
        0 => [1, 0, 0],
        1 => [0, 1, 0],
        2 => [0, 0, 1],
        _ => [0, 0, 0],
    }
}

/// One texaddr coordinate axis at `cuts` registers, against the golden model's `axis`: half the
/// coordinates with a uniformly random exponent (every shift amount and mask case of
/// `ScaledFloor`), the rest from the fp operand mix; level sizes 1, 32768, small and random; the
/// five wrap modes, nearest and linear, normalized and unnormalized, offsets −8…7.
fn axis_dut(cuts: usize) -> Dut<Axis> {
    Dut {
        top: format!("texaddr_axis_p{cuts}"),
        make: Axis::new,
        set_clock: |u, c| u.clock.next = Clock::from(c),
        set_en: |u, e| u.en.next = e,
        set_inputs: |u, v| {
            u.s.next = v[0].into();
            u.n.next = v[1].into();
            u.mode.next = v[2].into();
            u.linear.next = v[3] != 0;
            u.unnorm.next = v[4] != 0;
            u.off.next = v[5].into();
        },
        gen: |r| {
            let x = r.next_u64();
            let s = if x.is_multiple_of(2) {
                u64::from((x >> 32) as u32 & 0x807f_ffff | (((x >> 8) % 256) as u32) << 23)
            } else {
                u64::from(operand(r))
            };
            let n = match r.next_u64() % 4 {
                0 => 1,
                1 => 32768,
                2 => 1 + r.next_u64() % 9,
                _ => 1 + r.next_u64() % 32768,
            };
            let f = r.next_u64();
            vec![
                s,
                n,
                f % 5,
                (f >> 8) & 1,
                u64::from((f >> 9) % 4 == 0),
                (f >> 16) % 16,
            ]
        },
        model: |v| {
            use texpix_tb::texaddr::{axis, Wrap};
            let wrap = Wrap::from_code(v[2] as u32).expect("mode 0…4");
            let off = ((v[5] as i32) << 28) >> 28;
            let ((i0, b0), (i1, b1), w) =
                axis(u(v[0]), v[1] as u32, wrap, v[3] != 0, v[4] != 0, off);
            vec![
                u64::from(i0 as u32),
                u64::from(i1 as u32),
                b0.into(),
                b1.into(),
                w.into(),
            ]
        },
        zero_until_full: false,
    }
}

/// The LOD back end at `stages` register stages, against the golden model's steps 4–8 over the
/// unit's configuration ranges (modes 0…4, aniso and levels 1…16, clamps u4.8, bias ±4096).
fn lod_fin_dut(stages: usize) -> Dut<LodFinish> {
    Dut {
        top: format!("lod_fin_p{stages}"),
        make: LodFinish::new,
        set_clock: |u, c| u.clock.next = Clock::from(c),
        set_en: |u, e| u.en.next = e,
        set_inputs: |u, v| {
            u.lx.next = v[0].into();
            u.ly.next = v[1].into();
            u.x_zero.next = v[2] != 0;
            u.x_inf.next = v[3] != 0;
            u.x_nan.next = v[4] != 0;
            u.y_zero.next = v[5] != 0;
            u.y_inf.next = v[6] != 0;
            u.y_nan.next = v[7] != 0;
            u.lfix.next = v[8].into();
            u.lnan.next = v[9] != 0;
            u.mode.next = v[10].into();
            u.sbias.next = v[11].into();
            u.aniso.next = v[12].into();
            u.lo.next = v[13].into();
            u.hi.next = v[14].into();
            u.warn.next = v[15].into();
            u.levels.next = v[16].into();
            u.base.next = v[17].into();
            u.mip.next = v[18].into();
        },
        gen: |r| {
            let lx = lod_log(r);
            let ly = if r.next_u64().is_multiple_of(6) {
                lx
            } else {
                lod_log(r)
            };
            let [xz, xi, xn] = lod_flags(r);
            let [yz, yi, yn] = lod_flags(r);
            let x = r.next_u64();
            let lfix = match x % 4 {
                0 => x >> 32,
                1 => [
                    0x7FFF_FFFF,
                    0x8000_0000,
                    0x7FFF_FF00,
                    0x0020_0000,
                    0x0020_0001,
                    0xFFE0_0000,
                    0xFFDF_FFFF,
                    0x1000_0000,
                    0xF000_0000,
                    0,
                    0x100,
                    0xFF,
                ][(x >> 8) as usize % 12],
                _ => u64::from((((x >> 32) as i64 % (40 << 17)) - (20 << 17)) as i32 as u32),
            };
            let lnan = u64::from(r.next_u64().is_multiple_of(12));
            let mode = r.next_u64() % 5;
            let sbias = u64::from(((r.next_u64() % 8193) as i32 - 4096) as u32) & 0xFFFF;
            let u48 = |r: &mut SplitMix64| match r.next_u64() % 4 {
                0 => 0,
                1 => 4095,
                _ => r.next_u64() % 4096,
            };
            let (lo, hi, warn) = (u48(r), u48(r), u48(r));
            let aniso = 1 + r.next_u64() % 16;
            let levels = 1 + r.next_u64() % 16;
            let base = r.next_u64() % 16;
            let mip = r.next_u64() % 3;
            vec![
                lx, ly, xz, xi, xn, yz, yi, yn, lfix, lnan, mode, sbias, aniso, lo, hi, warn,
                levels, base, mip,
            ]
        },
        model: |v| {
            use texpix_tb::lod::{self, LodMode, MipFilter};
            let axis = |l: u64, zero: u64, inf: u64, nan: u64| match (zero, inf, nan) {
                (_, _, 1) => None,
                (1, _, _) => Some(-lod::INF17),
                (_, 1, _) => Some(lod::INF17),
                _ => Some(l as u32 as i32),
            };
            let t = lod::LodTxn {
                tex: lod::LodTex {
                    width: 1,
                    height: 1,
                    levels: v[16] as u32,
                    base_level: v[17] as u32,
                },
                sampler: lod::LodSampler {
                    bias: i32::from(v[11] as u16 as i16),
                    min_lod: v[13] as u32,
                    max_lod: v[14] as u32,
                    mip_filter: MipFilter::ALL[v[18] as usize].0,
                    max_aniso: v[12] as u32,
                },
                mode: LodMode::ALL[v[10] as usize].0,
                coords: [[0; 2]; 4],
                grad: [[0; 4]; 4],
                lod: [0; 4],
                bias: [0; 4],
                lod_clamp: 0,
                min_lod_warning: v[15] as u32,
                fine: false,
                maxabs: false,
            };
            let lx = axis(v[0], v[2], v[3], v[4]);
            let ly = axis(v[1], v[5], v[6], v[7]);
            let lfix = (v[9] == 0).then_some(v[8] as u32 as i32);
            let o = lod::finish_lane(&t, lx, ly, lfix);
            vec![
                u64::from(o.lambda as u32),
                o.unclamped
                    .map_or(u64::from(texpix_rtl::lod::UNCLAMPED_NAN), |u| {
                        u64::from(u as u32 & 0xFF_FFFF)
                    }),
                o.level0.into(),
                o.level1.into(),
                o.frac.into(),
                o.magnify.into(),
                o.lod_warning.into(),
                o.probes.into(),
                o.major_y.into(),
                o.status.into(),
            ]
        },
        zero_until_full: false,
    }
}

// ---------------------------------------------------------------------------------------------
// Co-simulation in Icarus (2 register stages; the adder with 1 to 7, the multiplier and the log
// 1 to 9).

/// Every stage count from one to seven (nine for the multiplier, whose last two add transport
/// registers): each of `FP_CUTS`' and `MUL_CUTS`' rows (and, for the adder, one with a stage after
/// a fully cut pipeline) is a different placement of the registers.
#[test]
fn icarus_fp_add_p_every_stage_count() {
    for s in 1..=7 {
        cosim_icarus(&add_dut(s), s, s as u64);
    }
}

#[test]
fn icarus_fp_mul_p_every_stage_count() {
    for s in 1..=10 {
        cosim_icarus(&mul_dut(s), s, 20 + s as u64);
    }
}

#[test]
fn icarus_mulu_6x6_from_logic() {
    for s in [0, 2] {
        let dut = mul6_dut(s);
        assert!(
            !export(&dut, s).contains("a * b") && !export(&dut, s).contains("ra * rb"),
            "the 6 × 6 product is written as rows, not `*`"
        );
        cosim_icarus(&dut, s, 70 + s as u64);
        lint_and_yosys(&dut, s);
    }
}

/// From ten stages the multiplier's first registers are private operand copies that synthesis
/// must keep (`mul_front`): the export marks exactly those two chains `(* keep *)`, and nine
/// stages mark none.
#[test]
fn fp_mul_p_ten_stages_keep_their_operand_copies() {
    for (s, kept) in [(9, 0), (10, 2)] {
        let verilog = export(&mul_dut(s), s);
        assert_eq!(
            verilog.matches("(* keep *) always").count(),
            kept,
            "fp_mul_p at {s} stages"
        );
    }
}

/// The ECP5 form of the multiplier's DSP registers: at nine and ten stages, the exported Verilog
/// under `TEXPIX_ECP5_DSP` puts each partial product on a `MULT18X18D` with its input and output
/// registers (`MulUReg`), but for the 6 × 6 high part, which is logic (`mulu::LUT_MAX`).
/// Co-simulated in Icarus with a behavioural model of the primitive (tb/verilog/ecp5_mult18x18d.v,
/// which stops on any setting it does not model) against the same scoreboarded Rust trace; the
/// export must contain the three instances, or the test would only repeat the portable one.
#[test]
fn icarus_fp_mul_p_ecp5_dsp_registers() {
    for s in [8, 9, 10] {
        cosim_ecp5_dsp(&mul_dut(s), s, if s >= 9 { 3 } else { 0 });
    }
}

/// The log's interpolation product in the same form: a `MULT18X18D` with its input and output
/// registers at eight stages (`log2_dsp_registers`), none at seven.
#[test]
fn icarus_fp_log2_p_ecp5_dsp_registers() {
    for s in [7, 8] {
        cosim_ecp5_dsp(&log2_dut(s), s, if s >= 8 { 1 } else { 0 });
    }
}

/// The log's ROM in block RAM exactly where it is read through its register (seven and nine
/// stages, not six or eight, where the product's operand register is the only one behind it):
/// Yosys' `synth_ecp5` (Debian's 0.23, which CI installs) maps the 64-word ROM to one `DP16KD`
/// (36 of its 40 bits are not constant), else to logic.
#[test]
fn yosys_fp_log2_p_rom_in_block_ram() {
    for (s, want) in [(6, 0), (7, 1), (8, 0), (9, 1)] {
        let dut = log2_dut(s);
        let dir = workdir(&format!("fp_rom_{}_{s}", dut.top));
        let v = dir.join(format!("{}.v", dut.top));
        std::fs::write(&v, export(&dut, s)).expect("write");
        let stat = dir.join("stat.txt");
        let script = format!(
            "read_verilog -DTEXPIX_ECP5_DSP {}; synth_ecp5 -top {}; tee -q -o {} stat",
            v.display(),
            dut.top,
            stat.display()
        );
        texpix_tb::tools::run_tool(
            std::process::Command::new("yosys").args(["-q", "-p", &script]),
            "yosys synth_ecp5",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let text = std::fs::read_to_string(&stat).expect("read the Yosys statistics");
        let brams: usize = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("DP16KD"))
            .map(|n| n.trim().parse::<usize>().expect("DP16KD count"))
            .sum();
        assert_eq!(brams, want, "{} at {s} stages: DP16KD\n{text}", dut.top);
    }
}

/// Co-simulates `dut` at `stages` in Icarus with `TEXPIX_ECP5_DSP` defined and the behavioural
/// `MULT18X18D` model (tb/verilog/ecp5_mult18x18d.v, which stops on any setting it does not model)
/// against the scoreboarded Rust trace, after checking that the export has `instances` of the
/// primitive (with none, the test would only repeat the portable form).
fn cosim_ecp5_dsp<U: Block + 'static>(dut: &Dut<U>, stages: usize, instances: usize) {
    let model = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("verilog/ecp5_mult18x18d.v"),
    )
    .expect("read tb/verilog/ecp5_mult18x18d.v");
    let verilog = export(dut, stages);
    assert_eq!(
        verilog.matches("MULT18X18D #(").count(),
        instances,
        "{} at {stages} stages",
        dut.top
    );
    let trace = rust_trace(dut, stages, CYCLES, 40 + stages as u64);
    let dir = workdir(&format!("fp_cosim_ecp5_dsp_{}_{stages}", dut.top));
    let text = format!("`define TEXPIX_ECP5_DSP\n{model}\n{verilog}");
    let report = cosim::run(Simulator::Icarus, &dir, &dut.top, &text, &trace)
        .unwrap_or_else(|e| panic!("{} with MULT18X18D: {e}", dut.top));
    assert_eq!(report.cycles, CYCLES);
}

#[test]
fn icarus_fp_cmp_p() {
    cosim_icarus(&cmp_dut(), 2, 5);
}

#[test]
fn icarus_f16_to_f32_p() {
    cosim_icarus(&f16_dut(), 2, 6);
}

/// Two stages for three fraction widths, and for the LOD unit's width, 17, each row of
/// `FIX_CUTS`, the transport register in front (3), registers after it (4) and the LOD unit's
/// deepest build (6).
#[test]
fn icarus_fp_to_fixed_p() {
    cosim_icarus(&fixed_dut::<0>("fp_to_fixed0_p2"), 2, 7);
    cosim_icarus(&fixed_dut::<16>("fp_to_fixed16_p2"), 2, 8);
    cosim_icarus(&fixed_dut::<24>("fp_to_fixed24_p2"), 2, 9);
    for s in [0, 1, 3, 4, 6] {
        cosim_icarus(&fixed_dut::<17>("fp_to_fixed17_p"), s, 40 + s as u64);
    }
}

/// The texaddr axis combinational, at 15 registers (cut K, M, C, S, R, W and every third remainder
/// step) and at its deepest (every remainder step): a check that its Verilog computes what the
/// Rust model does, for the widths of constants and inverted bits inside expressions that the
/// Rust model cannot show.
#[test]
fn icarus_texaddr_axis() {
    for s in [0, 15, Axis::MAX_CUTS] {
        cosim_icarus(&axis_dut(s), s, 60 + s as u64);
    }
}

/// Every row of `LOG2_CUTS` (seven and eight stages add transport registers on the two sides of
/// the interpolation product; seven, nine and ten read the ROM through its read register) and a
/// stage after a fully cut pipeline.
#[test]
fn icarus_fp_log2_p_every_stage_count() {
    for s in 1..=10 {
        cosim_icarus(&log2_dut(s), s, 10 + s as u64);
    }
}

/// The LOD back end at every stage count: combinational, each row of `FINISH_CUTS`, and one
/// stage after a fully cut pipeline.
#[test]
fn icarus_lod_finish_every_stage_count() {
    for s in 0..=LodFinish::CUTS + 1 {
        cosim_icarus(&lod_fin_dut(s), s, 30 + s as u64);
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
    lint_and_yosys(&mul_dut(10), 10);
    lint_and_yosys(&cmp_dut(), 2);
    lint_and_yosys(&f16_dut(), 2);
    lint_and_yosys(&fixed_dut::<0>("fp_to_fixed0_p2"), 2);
    lint_and_yosys(&fixed_dut::<16>("fp_to_fixed16_p2"), 2);
    lint_and_yosys(&fixed_dut::<17>("fp_to_fixed17_p"), 1);
    for s in [1, 2, 5, 6, 7, 8, 9] {
        lint_and_yosys(&log2_dut(s), s);
    }
    lint_and_yosys(&lzc_dut::<27>("lzc27_p2"), 2);
    lint_and_yosys(&lzc_dut::<64>("lzc64_p2"), 2);
    for s in [0, 1, 2, 3, 4] {
        lint_and_yosys(&lod_fin_dut(s), s);
    }
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
