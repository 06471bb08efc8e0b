//! The `texpix` command-line program.
//!
//! ```text
//! texpix list
//! texpix run <unit> --input v.jsonl [--output r.jsonl] [--model rtl|golden|both] [--vcd w.vcd]
//!            [--vcd-filter a,b] [--stall P --seed S] [--engine rtl|netlist]
//! texpix gen <unit> --count N [--seed S] --output v.jsonl
//! texpix export <unit>|--all --out DIR
//! texpix export-fpga <coverage-board|fp-board|fp-cmp-board|fpmul|fpadd> [--stages N] [--div D] --out DIR
//! texpix cosim <unit> --sim icarus|verilator|netlist [--input v.jsonl | --count N] [--stall P --seed S] [--dir D]
//! texpix bench <unit> [--count N] [--seed S] [--engine rtl|netlist]
//! ```
//! `--engine netlist` runs the unit's exported Verilog compiled by Yosys into texpix's netlist
//! simulator (ports identical to the rust-hdl model's cycle by cycle; much faster; needs Yosys).
//! Errors are one line naming the cause (file, line, field); the exit status is then 1 and no output
//! file is left half-written (results go to a temporary file renamed into place at the end).

use crate::cosim::{self, Simulator, Trace};
use crate::unit::{Bvh, Coverage, Engine, Lod, TexAddr, Unit};
use crate::vectors::read_jsonl;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;
use texpix_sim::StreamConfig;

/// Units the program knows, with what exists of each.
pub const UNITS: &[(&str, &str)] = &[
    (
        "coverage",
        "sample-pattern coverage unit (SPEC §1): rtl, golden, ideal, export, cosim",
    ),
    (
        "lod",
        "derivative/LOD calculator (SPEC §2): rtl, golden, ideal, export, cosim",
    ),
    (
        "texaddr",
        "texture address pipeline (SPEC §3): rtl, golden, ideal, export, cosim",
    ),
    (
        "bvh",
        "BVH box/triangle intersector (SPEC §4): rtl, golden, ideal, export, cosim",
    ),
];

/// Units whose RTL exists.
const BUILT: &[&str] = &["coverage", "lod", "texaddr", "bvh"];

const USAGE: &str = "usage: texpix list | run <unit> --input F [--output F] [--model rtl|golden|both] [--vcd F] [--vcd-filter a,b] [--stall P --seed S] [--engine rtl|netlist] | gen <unit> --count N [--seed S] --output F | export <unit>|--all --out DIR | export-fpga <coverage-board|fp-board|fp-cmp-board|fpmul|fpadd> [--stages N] [--div D] --out DIR | cosim <unit> --sim icarus|verilator|netlist [--input F | --count N] [--stall P --seed S] [--dir D] | bench <unit> [--count N] [--seed S] [--engine rtl|netlist]";

/// Parsed `--flag value` options and positional words.
struct Args {
    words: Vec<String>,
    opts: HashMap<String, String>,
}

impl Args {
    fn parse(args: &[String]) -> Result<Self, String> {
        let mut words = Vec::new();
        let mut opts = HashMap::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if let Some(name) = a.strip_prefix("--") {
                if name == "all" {
                    opts.insert("all".into(), "true".into());
                    continue;
                }
                let v = it
                    .next()
                    .ok_or_else(|| format!("option --{name} needs a value"))?;
                opts.insert(name.to_string(), v.clone());
            } else {
                words.push(a.clone());
            }
        }
        Ok(Self { words, opts })
    }

    fn check(&self, allowed: &[&str]) -> Result<(), String> {
        for k in self.opts.keys() {
            if !allowed.contains(&k.as_str()) {
                return Err(format!("unknown option --{k} for `{}`", self.words[0]));
            }
        }
        Ok(())
    }

    fn get(&self, k: &str) -> Option<&str> {
        self.opts.get(k).map(String::as_str)
    }

    fn need(&self, k: &str) -> Result<&str, String> {
        self.get(k)
            .ok_or_else(|| format!("`{}` needs --{k}", self.words[0]))
    }

    fn num<T: std::str::FromStr>(&self, k: &str, default: T) -> Result<T, String> {
        match self.get(k) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| format!("option --{k}: `{v}` is not a valid number")),
        }
    }

    fn unit(&self) -> Result<&str, String> {
        let u = self
            .words
            .get(1)
            .ok_or_else(|| format!("`{}` needs a unit ({})", self.words[0], unit_names()))?;
        match UNITS.iter().find(|(n, _)| n == u) {
            Some((n, _)) if BUILT.contains(n) => Ok(n),
            Some((n, _)) => Err(format!("unit `{n}` is not built yet")),
            None => Err(format!("unknown unit `{u}` (known: {})", unit_names())),
        }
    }

    /// Back-pressure from `--stall P` (probability 0…1 on both sides) and `--seed S`.
    fn stream(&self) -> Result<StreamConfig, String> {
        let p: f64 = self.num("stall", 0.0)?;
        if !(0.0..=0.95).contains(&p) {
            return Err(format!("option --stall: {p} is outside 0…0.95"));
        }
        let permille = (p * 1000.0).round() as u32;
        Ok(StreamConfig {
            in_idle_permille: permille,
            out_stall_permille: permille,
            seed: self.num("seed", 1)?,
            max_idle_cycles: 10_000,
        })
    }

    /// `--engine rtl|netlist` (default rtl).
    fn engine(&self) -> Result<Engine, String> {
        self.get("engine")
            .unwrap_or("rtl")
            .parse()
            .map_err(|e| format!("option --engine: {e}"))
    }
}

fn unit_names() -> String {
    UNITS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}

/// Runs the program on `args` (without the program name); `Err` is the one-line error to print.
pub fn main_with(args: &[String]) -> Result<(), String> {
    let a = Args::parse(args)?;
    let Some(cmd) = a.words.first() else {
        return Err(USAGE.into());
    };
    match cmd.as_str() {
        "list" => {
            for (n, d) in UNITS {
                println!("{n:10} {d}");
            }
            Ok(())
        }
        "export" => export(&a),
        "export-fpga" => export_fpga(&a),
        "run" | "gen" | "cosim" | "bench" => match a.unit()? {
            "coverage" => unit_command::<Coverage>(&a),
            "lod" => unit_command::<Lod>(&a),
            "texaddr" => unit_command::<TexAddr>(&a),
            _ => unit_command::<Bvh>(&a),
        },
        "help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command `{other}`; {USAGE}")),
    }
}

fn unit_command<U: Unit>(a: &Args) -> Result<(), String> {
    match a.words[0].as_str() {
        "run" => run::<U>(a),
        "gen" => gen::<U>(a),
        "cosim" => cosim_cmd::<U>(a),
        _ => bench::<U>(a),
    }
}

fn load<U: Unit>(path: &str) -> Result<Vec<U::Txn>, String> {
    read_jsonl(Path::new(path), U::parse).map_err(|e| e.to_string())
}

/// Writes `text` to `path` through a temporary file, so a failed run leaves no partial result.
fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("partial");
    std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// One result line: the unit's fields, then `cycle_in`/`cycle_out` (null for the golden model).
fn result_line<U: Unit>(r: &U::Res, cycles: Option<(u64, u64)>) -> String {
    let mut v = U::result_json(r);
    let (i, o) = match cycles {
        Some((i, o)) => (i.into(), o.into()),
        None => (serde_json::Value::Null, serde_json::Value::Null),
    };
    if let Some(m) = v.as_object_mut() {
        m.insert("cycle_in".into(), i);
        m.insert("cycle_out".into(), o);
    }
    serde_json::to_string(&v).unwrap_or_default()
}

fn run<U: Unit>(a: &Args) -> Result<(), String> {
    a.check(&[
        "input",
        "output",
        "model",
        "vcd",
        "vcd-filter",
        "stall",
        "seed",
        "engine",
    ])?;
    let input = a.need("input")?;
    let vectors = load::<U>(input)?;
    let model = a.get("model").unwrap_or("both");
    if !["rtl", "golden", "both"].contains(&model) {
        return Err(format!(
            "option --model: `{model}` (expected rtl, golden or both)"
        ));
    }
    let mut lines = Vec::with_capacity(vectors.len());
    if model == "golden" {
        for t in &vectors {
            lines.push(result_line::<U>(&U::golden(t), None));
        }
    } else {
        let mut sim = U::new_sim_on(a.engine()?)?;
        if let Some(vcd) = a.get("vcd") {
            let filter: Vec<String> = a
                .get("vcd-filter")
                .map(|f| f.split(',').map(str::to_string).collect())
                .unwrap_or_default();
            sim.dump_vcd(Path::new(vcd), &filter)
                .map_err(|e| e.to_string())?;
        }
        let res = U::run(&mut sim, &vectors, &a.stream()?);
        sim.finish_vcd().map_err(|e| e.to_string())?;
        let (results, stats) = res?;
        if model == "both" {
            for (k, (t, r)) in vectors.iter().zip(&results).enumerate() {
                let g = U::golden(t);
                if g != r.out {
                    return Err(format!(
                        "{input}:{}: RTL and golden model differ (cycle_out {}): input {}; rtl {}; golden {}",
                        k + 1,
                        r.cycle_out,
                        U::txn_json(t),
                        U::result_json(&r.out),
                        U::result_json(&g)
                    ));
                }
            }
        }
        for r in &results {
            lines.push(result_line::<U>(&r.out, Some((r.cycle_in, r.cycle_out))));
        }
        eprintln!(
            "{} vectors, {} cycles ({} in-stall, {} out-stall){}",
            vectors.len(),
            stats.cycles,
            stats.in_stall_cycles,
            stats.out_stall_cycles,
            if model == "both" {
                ", RTL == golden for all"
            } else {
                ""
            }
        );
    }
    let text = lines.join("\n") + if lines.is_empty() { "" } else { "\n" };
    match a.get("output") {
        Some(out) => write_atomically(Path::new(out), &text),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

fn gen<U: Unit>(a: &Args) -> Result<(), String> {
    a.check(&["count", "seed", "output"])?;
    let n: usize = a.num("count", 1000)?;
    let mut text = String::new();
    for t in U::random(a.num("seed", 1)?, n) {
        text.push_str(&serde_json::to_string(&U::txn_json(&t)).map_err(|e| e.to_string())?);
        text.push('\n');
    }
    write_atomically(Path::new(a.need("output")?), &text)
}

/// The exported Verilog of a unit, with a header naming the revision and parameters.
pub fn export_unit(unit: &str) -> Result<String, String> {
    let rev = option_env!("TEXPIX_REV").unwrap_or(env!("CARGO_PKG_VERSION"));
    let what = UNITS
        .iter()
        .find(|(n, _)| *n == unit)
        .map_or("", |(_, d)| d.split(':').next().unwrap_or(""));
    let header = format!("texpix_{unit}: {what}, generated by texpix {rev}");
    match unit {
        "coverage" => Coverage::export(&header),
        "lod" => Lod::export(&header),
        "texaddr" => TexAddr::export(&header),
        "bvh" => Bvh::export(&header),
        other => Err(format!("unit `{other}` is not built yet")),
    }
}

fn export(a: &Args) -> Result<(), String> {
    a.check(&["out", "all"])?;
    let units: Vec<&str> = if a.get("all").is_some() {
        BUILT.to_vec()
    } else {
        vec![a.unit()?]
    };
    let dir = PathBuf::from(a.need("out")?);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for u in units {
        let path = dir.join(format!("texpix_{u}.v"));
        write_atomically(&path, &export_unit(u)?)?;
        println!("{}", path.display());
    }
    Ok(())
}

/// Exports a board top or a pipelined fp block for the FPGA flow (`crate::board::export_fpga`).
fn export_fpga(a: &Args) -> Result<(), String> {
    a.check(&["out", "stages", "div"])?;
    let target = a.words.get(1).ok_or_else(|| {
        let t: Vec<_> = crate::board::FPGA_TARGETS.iter().map(|t| t.0).collect();
        format!("`export-fpga` needs a target ({})", t.join(", "))
    })?;
    let top = crate::board::fpga_top(target)?;
    let rev = option_env!("TEXPIX_REV").unwrap_or(env!("CARGO_PKG_VERSION"));
    let verilog = crate::board::export_fpga(
        target,
        a.num("stages", 2)?,
        a.num("div", crate::board::ICEBREAKER_DIV)?,
        &format!("generated by texpix {rev}"),
    )?;
    let dir = PathBuf::from(a.need("out")?);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("{top}.v"));
    write_atomically(&path, &verilog)?;
    println!("{}", path.display());
    Ok(())
}

/// Runs vectors through the RTL recording the port trace, then co-simulates it.
fn cosim_cmd<U: Unit>(a: &Args) -> Result<(), String> {
    a.check(&["sim", "input", "count", "stall", "seed", "dir"])?;
    let sim_kind: Simulator = a.need("sim")?.parse()?;
    let vectors = match a.get("input") {
        Some(f) => load::<U>(f)?,
        None => U::random(a.num("seed", 1)?, a.num("count", 2000usize)?),
    };
    let dir = PathBuf::from(a.get("dir").unwrap_or("out/cosim"));
    let (trace, rust_secs) = trace::<U>(&vectors, &a.stream()?)?;
    let report = cosim::run(sim_kind, &dir, U::TOP, &export_unit(U::NAME)?, &trace)?;
    println!(
        "cosim {} {:?}: {} cycles, outputs identical on every cycle; Verilog {:.0} cycles/s (compile {:.1} s), Rust {:.0} cycles/s",
        U::NAME,
        sim_kind,
        report.cycles,
        report.cycles_per_sec(),
        report.compile_secs,
        report.cycles as f64 / rust_secs
    );
    Ok(())
}

/// The RTL run of `vectors` with every port recorded each cycle from power-up (so the Verilog
/// replays the reset cycles too); also checks RTL == golden. Returns the trace and the Rust run time.
pub fn trace<U: Unit>(vectors: &[U::Txn], cfg: &StreamConfig) -> Result<(Trace, f64), String> {
    let mut sim = U::power_up();
    let rows = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = rows.clone();
    sim.set_probe(Box::new(move |u: &U::Block| {
        sink.borrow_mut().push(crate::ports::ports_and_values(u).1);
    }));
    U::reset(&mut sim).map_err(|e| e.to_string())?;
    let t0 = Instant::now();
    let (results, _) = U::run(&mut sim, vectors, cfg)?;
    let secs = t0.elapsed().as_secs_f64();
    crate::scoreboard::check::<U>(vectors, &results)?;
    let ports = crate::ports::ports_and_values(&*sim.uut).0;
    let cycles = rows.borrow().clone();
    Ok((Trace { ports, cycles }, secs))
}

fn bench<U: Unit>(a: &Args) -> Result<(), String> {
    a.check(&["count", "seed", "engine"])?;
    let engine = a.engine()?;
    let n: usize = a.num("count", 20_000)?;
    let vectors = U::random(a.num("seed", 7)?, n);
    let t0 = Instant::now();
    for t in &vectors {
        std::hint::black_box(U::golden(t));
    }
    let golden_secs = t0.elapsed().as_secs_f64();
    let mut sim = U::new_sim_on(engine)?;
    let start_cycle = sim.cycle();
    let t1 = Instant::now();
    let (results, stats) = U::run(
        &mut sim,
        &vectors,
        &StreamConfig {
            in_idle_permille: 0,
            out_stall_permille: 0,
            seed: 1,
            max_idle_cycles: 1000,
        },
    )?;
    let rtl_secs = t1.elapsed().as_secs_f64();
    let first = results.first().ok_or("bench needs --count ≥ 1")?;
    let last = results.last().ok_or("bench needs --count ≥ 1")?;
    let latency = first.cycle_out - first.cycle_in;
    let span = last.cycle_out - first.cycle_in;
    let transactions = stats.accepted;
    let mismatches = vectors
        .iter()
        .zip(&results)
        .filter(|(t, r)| U::golden(t) != r.out)
        .count();
    println!(
        "bench {}: {n} vectors ({transactions} RTL transactions), no back-pressure",
        U::NAME
    );
    println!("  latency            {latency} cycles (accepting edge to output transfer edge)");
    println!(
        "  first accept .. last output, inclusive: {} cycles = N + {} → {:.4} transactions/clock",
        span + 1,
        (span + 1) as i64 - transactions as i64,
        transactions as f64 / (span + 1) as f64
    );
    println!(
        "  stream cycles      {} (from cycle {start_cycle})",
        stats.cycles
    );
    println!(
        "  RTL sim ({:<7})  {:.2} s, {:.0} cycles/s",
        format!("{engine:?}").to_lowercase(),
        rtl_secs,
        stats.cycles as f64 / rtl_secs
    );
    println!(
        "  golden model       {:.3} s, {:.0} vectors/s",
        golden_secs,
        n as f64 / golden_secs
    );
    println!("  RTL vs golden      {mismatches} mismatches");
    if mismatches > 0 {
        return Err(format!("{mismatches} RTL/golden mismatches"));
    }
    Ok(())
}
