//! The `texpix` command line: argument parsing (clap) and printing over the library. Usage errors
//! exit with status 2 (clap's convention); data errors print one line naming the cause (file, line,
//! field) and exit with status 1, leaving no half-written output (results go to a temporary file
//! renamed into place at the end).

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use texpix_sim::StreamConfig;
use texpix_tb::cosim::{self, Simulator};
use texpix_tb::engine_bench;
use texpix_tb::registry::{self, with_unit, UnitFn, UNITS};
use texpix_tb::unit::{Engine, Unit};
use texpix_tb::vectors::read_jsonl;

/// Simulate, check, export and benchmark texpix's GPU texture and pixel units.
///
/// Every unit runs as a cycle-exact RTL model checked against its bit-accurate golden model;
/// `texpix list` names the units.
#[derive(Parser, Debug)]
#[command(name = "texpix", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the units and what each is.
    List {
        /// Print the unit names only, one per line (for scripts).
        #[arg(long, conflicts_with = "tsv")]
        names: bool,
        /// Print name, Verilog top, RTL block and its ports file, tab-separated (for scripts).
        #[arg(long)]
        tsv: bool,
    },
    /// Run vectors through a unit's RTL (checked against the golden model) or its golden model.
    Run(RunArgs),
    /// Write random and edge-case vectors of a unit.
    Gen(GenArgs),
    /// Export units as Verilog, one file per unit.
    Export(ExportArgs),
    /// Export a board top or a pipelined fp block for the FPGA flow.
    ExportFpga(ExportFpgaArgs),
    /// Replay a unit's RTL port trace through its exported Verilog (Icarus, Verilator or the
    /// netlist engine) and compare every output port on every cycle.
    Cosim(CosimArgs),
    /// Write a unit's exported Verilog with a self-checking Verilog test bench: random vectors
    /// run through the Rust RTL model, its port trace as stimulus and expected outputs (for
    /// FuseSoC's simulation target, or any Verilog simulator).
    Testbench(TestbenchArgs),
    /// Measure a unit's latency, throughput and simulation speed.
    Bench(BenchArgs),
    /// Simulation speed of the engines on one trace per unit: Verilator (in-memory C++ harness),
    /// the netlist engine and the rust-hdl engine, outputs compared on every cycle; one markdown
    /// table.
    BenchEngines(BenchEnginesArgs),
    /// Long RTL-vs-golden regression: random vectors in chunks, each on a freshly reset unit with
    /// random back-pressure (and random memory timing where the unit has a memory port), every
    /// result checked; shardable over processes and hosts.
    Regress(RegressArgs),
}

/// Back-pressure: `--stall P --seed S`.
#[derive(Args, Debug, Clone, Copy)]
struct StallArgs {
    /// Probability (0…0.95) that input valid and output ready are withheld each cycle.
    #[arg(long, default_value_t = 0.0, value_parser = stall_probability)]
    stall: f64,
    /// Seed of the back-pressure pattern (and of random vectors where the command makes them).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

impl StallArgs {
    fn stream(self) -> StreamConfig {
        let permille = (self.stall * 1000.0).round() as u32;
        StreamConfig {
            in_idle_permille: permille,
            out_stall_permille: permille,
            seed: self.seed,
            max_idle_cycles: 10_000,
        }
    }
}

/// `--depth`: the pipeline depth a unit's RTL is built with.
#[derive(Args, Debug, Clone, Copy)]
struct DepthArg {
    /// Pipeline depth: extra register stages inside the unit's datapath (same results, one
    /// transaction per clock, more latency); the depths a unit has are in its documentation and
    /// in its Verilog header. 0 is the default build.
    #[arg(long, default_value_t = 0)]
    depth: usize,
}

#[derive(Args, Debug)]
struct RunArgs {
    /// Unit (see `texpix list`).
    #[arg(value_parser = unit_name)]
    unit: String,
    /// Vector file (JSON Lines).
    #[arg(long)]
    input: PathBuf,
    /// Result file (JSON Lines); standard output without it.
    #[arg(long)]
    output: Option<PathBuf>,
    /// rtl: the RTL only; golden: the golden model only (cycles null); both: RTL checked against
    /// the golden model, stopping at the first mismatch.
    #[arg(long, default_value = "both", value_parser = ["rtl", "golden", "both"])]
    model: String,
    /// Waveform file (VCD, with a GTKWave save file beside it).
    #[arg(long)]
    vcd: Option<PathBuf>,
    /// Only signals whose hierarchical name contains one of these (comma-separated).
    #[arg(long, value_delimiter = ',')]
    vcd_filter: Vec<String>,
    #[command(flatten)]
    stall: StallArgs,
    /// Simulation engine: fast (netlist where Yosys is present, else rtl), netlist (the exported
    /// Verilog compiled by Yosys into native code; identical ports) or rtl (the rust-hdl model, the
    /// reference; VCDs with its own hierarchy).
    #[arg(long, default_value = "fast")]
    engine: Engine,
    #[command(flatten)]
    depth: DepthArg,
}

#[derive(Args, Debug)]
struct GenArgs {
    /// Unit (see `texpix list`).
    #[arg(value_parser = unit_name)]
    unit: String,
    /// Number of vectors.
    #[arg(long, default_value_t = 1000)]
    count: usize,
    /// Seed of the generator.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Vector file to write.
    #[arg(long)]
    output: PathBuf,
}

#[derive(Args, Debug)]
struct ExportArgs {
    /// Unit (see `texpix list`).
    #[arg(value_parser = unit_name, required_unless_present = "all", conflicts_with = "all")]
    unit: Option<String>,
    /// Every unit.
    #[arg(long)]
    all: bool,
    /// Directory for the `<top>.v` files.
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    depth: DepthArg,
}

#[derive(Args, Debug)]
struct ExportFpgaArgs {
    /// Design: a board top or a pipelined fp block.
    #[arg(value_parser = fpga_target)]
    target: String,
    /// fp pipeline depth of the fp boards and blocks.
    #[arg(long, default_value_t = 2)]
    stages: usize,
    /// Clock divider of the board tops.
    #[arg(long, default_value_t = texpix_tb::board::ICEBREAKER_DIV)]
    div: u64,
    /// Pipeline depth of the unit on a unit board (lod-board-ulx3s; default the unit's deepest).
    #[arg(long)]
    depth: Option<usize>,
    /// Directory for the Verilog file.
    #[arg(long)]
    out: PathBuf,
}

#[derive(Args, Debug)]
struct TestbenchArgs {
    /// Unit (see `texpix list`).
    #[arg(value_parser = unit_name)]
    unit: String,
    /// Number of random vectors.
    #[arg(long, default_value_t = 200)]
    count: usize,
    #[command(flatten)]
    stall: StallArgs,
    /// Output directory.
    #[arg(long, default_value = "out/testbench")]
    out: PathBuf,
    #[command(flatten)]
    depth: DepthArg,
}

#[derive(Args, Debug)]
struct CosimArgs {
    /// Unit (see `texpix list`).
    #[arg(value_parser = unit_name)]
    unit: String,
    /// icarus, verilator (a Verilog test bench), verilator-mem (a C++ harness replaying the trace
    /// from memory: Verilator's own speed) or netlist.
    #[arg(long)]
    sim: Simulator,
    /// Vector file; random vectors without it.
    #[arg(long, conflicts_with = "count")]
    input: Option<PathBuf>,
    /// Number of random vectors.
    #[arg(long, default_value_t = 2000)]
    count: usize,
    #[command(flatten)]
    stall: StallArgs,
    /// Working directory for the test bench and simulator build.
    #[arg(long, default_value = "out/cosim")]
    dir: PathBuf,
    #[command(flatten)]
    depth: DepthArg,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Unit (see `texpix list`).
    #[arg(value_parser = unit_name)]
    unit: String,
    /// Number of random vectors (default 20 000; the texture unit runs its standard
    /// screen-space sweep, and with --count also that many random vectors).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    count: Option<u64>,
    /// Seed of the vectors.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Simulation engine: fast (netlist where Yosys is present, else rtl), netlist or rtl.
    #[arg(long, default_value = "fast")]
    engine: Engine,
    #[command(flatten)]
    depth: DepthArg,
}

#[derive(Args, Debug)]
struct BenchEnginesArgs {
    /// Units, comma-separated (default: every registered unit).
    #[arg(long, value_delimiter = ',', value_parser = unit_name)]
    units: Vec<String>,
    /// Random vectors per unit (default: per unit, tens of thousands of cycles where the rust-hdl
    /// engine allows).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    count: Option<u64>,
    /// Back-pressure probability, as in `texpix cosim`.
    #[arg(long, default_value_t = 0.2, value_parser = stall_probability)]
    stall: f64,
    /// Seed of the vectors and of the back-pressure.
    #[arg(long, default_value_t = 3)]
    seed: u64,
    /// Runs of each replay (Verilator, netlist); the fastest counts.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..))]
    runs: u64,
    /// Working directory (trace files; the Verilator harnesses are cached elsewhere).
    #[arg(long, default_value = "out/bench-engines")]
    dir: PathBuf,
}

#[derive(Args, Debug)]
struct RegressArgs {
    /// Unit (see `texpix list`).
    #[arg(value_parser = unit_name)]
    unit: String,
    /// Vectors in the whole regression, over all shards.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    count: u64,
    /// Seed of the regression; chunk i's vectors, back-pressure and memory timing come from a
    /// seed derived from it and i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Vectors per chunk (each chunk runs on a freshly reset unit).
    #[arg(long, default_value_t = texpix_tb::regress::CHUNK,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    chunk_size: usize,
    /// Number of shards the chunks are dealt to (chunk i goes to shard i % K).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    shards: u64,
    /// The shard this process runs (0…K-1).
    #[arg(long, default_value_t = 0)]
    shard: u64,
    /// Run only chunk I (to reproduce a reported failure).
    #[arg(long = "chunk", value_name = "I", conflicts_with_all = ["shards", "shard"])]
    only_chunk: Option<u64>,
    /// Simulation engine: netlist (the exported Verilog compiled by Yosys; an error without
    /// Yosys), fast (netlist where Yosys is present, else rtl) or rtl (the rust-hdl model, far
    /// slower).
    #[arg(long, default_value = "netlist")]
    engine: Engine,
    /// Back-pressure probability (0…0.95) on both streams; without it each chunk draws one of
    /// 0, 0.1, …, 0.6 from its seed.
    #[arg(long, value_parser = stall_probability)]
    stall: Option<f64>,
    /// Test hook: compare vector K of every chunk with the golden result of vector K+1.
    #[arg(long, hide = true)]
    inject_mismatch: Option<usize>,
}

/// A registered unit's name, or a usage error listing them.
fn unit_name(s: &str) -> Result<String, String> {
    let names = registry::names();
    if names.contains(&s) {
        Ok(s.to_string())
    } else {
        Err(format!("unknown unit `{s}` (known: {})", names.join(", ")))
    }
}

fn fpga_target(s: &str) -> Result<String, String> {
    texpix_tb::board::fpga_top(s).map(|_| s.to_string())
}

fn stall_probability(s: &str) -> Result<f64, String> {
    let p: f64 = s.parse().map_err(|_| format!("`{s}` is not a number"))?;
    if (0.0..=0.95).contains(&p) {
        Ok(p)
    } else {
        Err(format!("{p} is outside 0…0.95"))
    }
}

/// Runs the parsed command; `Err` is the one-line data error to print.
pub fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::List { names, tsv } => {
            for u in UNITS {
                if names {
                    println!("{}", u.name);
                } else if tsv {
                    println!("{}\t{}\t{}\t{}", u.name, u.top, u.block, u.ports_doc);
                } else {
                    println!("{:16} {:24} {}", u.name, u.top, u.about);
                }
            }
            Ok(())
        }
        Command::Run(a) => with_unit(&a.unit.clone(), RunCmd(a))?,
        Command::Gen(a) => with_unit(&a.unit.clone(), GenCmd(a))?,
        Command::Export(a) => export(&a),
        Command::ExportFpga(a) => export_fpga(&a),
        Command::Cosim(a) => with_unit(&a.unit.clone(), CosimCmd(a))?,
        Command::Testbench(a) => with_unit(&a.unit.clone(), TestbenchCmd(a))?,
        Command::Bench(a) => with_unit(&a.unit.clone(), BenchCmd(a))?,
        Command::BenchEngines(a) => bench_engines(&a),
        Command::Regress(a) => regress(a),
    }
}

/// `texpix regress`: runs the chunks, prints the summary line on standard output; an error naming
/// the first mismatch (or failed chunk) if there was any.
fn regress(a: RegressArgs) -> Result<(), String> {
    let options = texpix_tb::regress::Options {
        count: a.count,
        chunk_size: a.chunk_size,
        seed: a.seed,
        shards: a.shards,
        shard: a.shard,
        only_chunk: a.only_chunk,
        engine: a.engine,
        stall: a.stall,
        inject_mismatch: a.inject_mismatch,
    };
    let job = texpix_tb::regress::Regress {
        options: options.clone(),
        progress: true,
    };
    let summary = with_unit(&a.unit, job)??;
    println!("{}", summary.line(&options));
    match summary.first_failure {
        None => Ok(()),
        Some(f) => Err(format!(
            "regress {}: {} mismatches, {} chunks failed to run; {f}",
            summary.unit, summary.mismatches, summary.errors
        )),
    }
}

fn load<U: Unit>(path: &Path) -> Result<Vec<U::Txn>, String> {
    read_jsonl(path, U::parse).map_err(|e| e.to_string())
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
    v.to_string()
}

/// A spinner on stderr with the simulated cycles and their rate, shown once a run has taken a
/// second and only when stderr is a terminal; it stops when dropped.
struct Progress {
    done: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    fn start(unit: &'static str, cycles: Arc<AtomicU64>) -> Self {
        let done = Arc::new(AtomicBool::new(false));
        if !std::io::stderr().is_terminal() {
            return Self { done, thread: None };
        }
        let stop = done.clone();
        let thread = std::thread::spawn(move || {
            let t0 = Instant::now();
            let mut bar: Option<ProgressBar> = None;
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                if t0.elapsed() < Duration::from_secs(1) {
                    continue;
                }
                let n = cycles.load(Ordering::Relaxed);
                let secs = t0.elapsed().as_secs_f64();
                let msg = format!("{n} cycles, {:.0} cycles/s, {secs:.0} s", n as f64 / secs);
                let b = bar.get_or_insert_with(|| {
                    let b = ProgressBar::new_spinner().with_prefix(unit);
                    if let Ok(style) = ProgressStyle::with_template("{spinner} {prefix}: {msg}") {
                        b.set_style(style);
                    }
                    b
                });
                b.set_message(msg);
                b.tick();
            }
            if let Some(b) = bar {
                b.finish_and_clear();
            }
        });
        Self {
            done,
            thread: Some(thread),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

struct RunCmd(RunArgs);

impl UnitFn for RunCmd {
    type Out = Result<(), String>;
    fn call<U: Unit>(self) -> Self::Out {
        let a = self.0;
        let input = a.input.display().to_string();
        let vectors = load::<U>(&a.input)?;
        let mut lines = Vec::with_capacity(vectors.len());
        if a.model == "golden" {
            for g in U::golden_batch(&vectors) {
                lines.push(result_line::<U>(&g, None));
            }
        } else {
            let mut sim = U::new_sim_at(a.engine, a.depth.depth)?;
            if let Some(vcd) = &a.vcd {
                sim.dump_vcd(vcd, &a.vcd_filter)
                    .map_err(|e| e.to_string())?;
            }
            let progress = Progress::start(U::NAME, sim.cycle_counter());
            let res = U::run(&mut sim, &vectors, &a.stall.stream());
            drop(progress);
            sim.finish_vcd().map_err(|e| e.to_string())?;
            let (results, stats) = res?;
            if a.model == "both" {
                let golden = U::golden_batch(&vectors);
                for (k, ((t, r), g)) in vectors.iter().zip(&results).zip(golden).enumerate() {
                    if g != r.out {
                        return Err(format!(
                            "{input}:{}: {} RTL and golden model differ (cycle_out {}): input {}; rtl {}; golden {}",
                            k + 1,
                            U::NAME,
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
                "{}: {} vectors, {} cycles ({} in-stall, {} out-stall){}",
                U::NAME,
                vectors.len(),
                stats.cycles,
                stats.in_stall_cycles,
                stats.out_stall_cycles,
                if a.model == "both" {
                    ", RTL == golden for all"
                } else {
                    ""
                }
            );
        }
        let text = lines.join("\n") + if lines.is_empty() { "" } else { "\n" };
        match &a.output {
            Some(out) => write_atomically(out, &text),
            None => {
                print!("{text}");
                Ok(())
            }
        }
    }
}

struct GenCmd(GenArgs);

impl UnitFn for GenCmd {
    type Out = Result<(), String>;
    fn call<U: Unit>(self) -> Self::Out {
        let a = self.0;
        let mut text = String::new();
        for t in U::random(a.seed, a.count) {
            text.push_str(&U::txn_json(&t).to_string());
            text.push('\n');
        }
        write_atomically(&a.output, &text)
    }
}

/// Exports one unit's Verilog at a pipeline depth into `dir`; returns the file written.
struct ExportCmd(PathBuf, usize);

impl UnitFn for ExportCmd {
    type Out = Result<PathBuf, String>;
    fn call<U: Unit>(self) -> Self::Out {
        let path = self.0.join(format!("{}.v", U::TOP));
        write_atomically(&path, &U::verilog_at(self.1)?)?;
        Ok(path)
    }
}

fn export(a: &ExportArgs) -> Result<(), String> {
    let units: Vec<&str> = match &a.unit {
        Some(u) => vec![u.as_str()],
        None => registry::names(),
    };
    std::fs::create_dir_all(&a.out).map_err(|e| format!("{}: {e}", a.out.display()))?;
    for u in units {
        println!(
            "{}",
            with_unit(u, ExportCmd(a.out.clone(), a.depth.depth))??.display()
        );
    }
    Ok(())
}

fn export_fpga(a: &ExportFpgaArgs) -> Result<(), String> {
    let top = texpix_tb::board::fpga_top(&a.target)?;
    let rev = option_env!("TEXPIX_REV").unwrap_or(env!("CARGO_PKG_VERSION"));
    let verilog = texpix_tb::board::export_fpga(
        &a.target,
        a.stages,
        a.div,
        a.depth,
        &format!("generated by texpix {rev}"),
    )?;
    std::fs::create_dir_all(&a.out).map_err(|e| format!("{}: {e}", a.out.display()))?;
    let path = a.out.join(format!("{top}.v"));
    write_atomically(&path, &verilog)?;
    println!("{}", path.display());
    Ok(())
}

struct CosimCmd(CosimArgs);

impl UnitFn for CosimCmd {
    type Out = Result<(), String>;
    fn call<U: Unit>(self) -> Self::Out {
        let a = self.0;
        let vectors = match &a.input {
            Some(f) => load::<U>(f)?,
            None => U::random(a.stall.seed, a.count),
        };
        let depth = a.depth.depth;
        let (trace, rust_secs) = cosim::trace_at::<U>(&vectors, &a.stall.stream(), depth)?;
        let report = cosim::run(a.sim, &a.dir, U::TOP, &U::verilog_at(depth)?, &trace)?;
        println!(
            "cosim {} {:?}: {} cycles, outputs identical on every cycle; Verilog {:.0} cycles/s (compile {:.1} s), Rust {:.0} cycles/s",
            U::NAME,
            a.sim,
            report.cycles,
            report.cycles_per_sec(),
            report.compile_secs,
            report.cycles as f64 / rust_secs
        );
        Ok(())
    }
}

struct TestbenchCmd(TestbenchArgs);

impl UnitFn for TestbenchCmd {
    type Out = Result<(), String>;
    fn call<U: Unit>(self) -> Self::Out {
        let a = self.0;
        let vectors = U::random(a.stall.seed, a.count);
        let depth = a.depth.depth;
        let (trace, _) = cosim::trace_at::<U>(&vectors, &a.stall.stream(), depth)?;
        for p in cosim::write_checking_bench(&a.out, U::TOP, &U::verilog_at(depth)?, &trace)? {
            println!("{}", p.display());
        }
        Ok(())
    }
}

struct BenchCmd(BenchArgs);

impl UnitFn for BenchCmd {
    type Out = Result<(), String>;
    fn call<U: Unit>(self) -> Self::Out {
        let a = self.0;
        let mut failed = 0;
        for (name, vectors) in U::bench_sections(a.seed, a.count.map(|n| n as usize)) {
            failed += bench_section::<U>(&name, &vectors, a.engine, a.depth.depth)?;
        }
        if failed > 0 {
            return Err(format!("{}: {failed} RTL/golden mismatches", U::NAME));
        }
        Ok(())
    }
}

/// Runs one bench section on a freshly reset unit without back-pressure; prints latency,
/// throughput, speed and the unit's own lines; returns the number of mismatches.
fn bench_section<U: Unit>(
    name: &str,
    vectors: &[U::Txn],
    engine: Engine,
    depth: usize,
) -> Result<usize, String> {
    let n = vectors.len();
    let t0 = Instant::now();
    let golden = std::hint::black_box(U::golden_batch(vectors));
    let golden_secs = t0.elapsed().as_secs_f64();
    let mut sim = U::new_sim_at(engine, depth)?;
    let start_cycle = sim.cycle();
    let progress = Progress::start(U::NAME, sim.cycle_counter());
    let t1 = Instant::now();
    let run = U::run(
        &mut sim,
        vectors,
        &StreamConfig {
            in_idle_permille: 0,
            out_stall_permille: 0,
            seed: 1,
            max_idle_cycles: 1000,
        },
    );
    let rtl_secs = t1.elapsed().as_secs_f64();
    drop(progress);
    let (results, stats) = run?;
    let (Some(first), Some(last)) = (results.first(), results.last()) else {
        return Err(format!("{}: the RTL returned no results", U::NAME));
    };
    let latency = first.cycle_out - first.cycle_in;
    let span = last.cycle_out - first.cycle_in;
    let transactions = stats.accepted;
    let mismatches = golden
        .iter()
        .zip(&results)
        .filter(|(g, r)| **g != r.out)
        .count();
    println!(
        "bench {} ({name}): {n} vectors ({transactions} RTL transactions), no back-pressure",
        U::NAME
    );
    println!("  latency            {latency} cycles (accepting edge to output transfer edge; pipeline depth {depth})");
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
    for line in U::bench_extra(&sim, &results) {
        println!("  {line}");
    }
    println!(
        "  RTL sim            {:.2} s, {:.0} cycles/s ({})",
        rtl_secs,
        stats.cycles as f64 / rtl_secs,
        match sim.netlist() {
            Some(n) if n.is_native() => "netlist engine, native code",
            Some(_) => "netlist engine, interpreted",
            None => "rust-hdl model",
        }
    );
    println!(
        "  golden model       {:.3} s, {:.0} vectors/s",
        golden_secs,
        n as f64 / golden_secs
    );
    println!("  RTL vs golden      {mismatches} mismatches");
    Ok(mismatches)
}

/// `texpix bench-engines`: measures each unit in turn (progress on stderr), prints the table; an
/// error if any replay differed from the trace.
fn bench_engines(a: &BenchEnginesArgs) -> Result<(), String> {
    let units: Vec<String> = if a.units.is_empty() {
        registry::names().iter().map(|s| s.to_string()).collect()
    } else {
        a.units.clone()
    };
    let cfg = StallArgs {
        stall: a.stall,
        seed: a.seed,
    }
    .stream();
    let mut rows = Vec::new();
    for u in &units {
        let count = a
            .count
            .map_or_else(|| engine_bench::default_count(u), |n| n as usize);
        eprintln!("bench-engines: {u}, {count} vectors…");
        let measure = engine_bench::Measure {
            count,
            runs: a.runs as usize,
            seed: a.seed,
            cfg: cfg.clone(),
            dir: a.dir.clone(),
        };
        let row = with_unit(u, measure)??;
        eprintln!(
            "bench-engines: {u}: {} cycles, outputs identical: {}",
            row.cycles,
            row.identical()
        );
        rows.push(row);
    }
    println!(
        "texpix bench-engines: --stall {} --seed {}; replays: cycles/s of the timed loop, fastest of {} runs, builds excluded; rust-hdl: the run that recorded the trace\n",
        a.stall, a.seed, a.runs
    );
    print!("{}", engine_bench::table(&rows));
    let bad: Vec<&str> = rows
        .iter()
        .filter(|r| !r.identical())
        .map(|r| r.unit)
        .collect();
    if bad.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "outputs differ from the rust-hdl trace: {}",
            bad.join(", ")
        ))
    }
}
