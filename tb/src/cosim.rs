//! Co-simulation: replays a Rust simulation's port trace through the exported Verilog in Icarus
//! Verilog, Verilator (a Verilog test bench, or the in-memory C++ harness of
//! [`crate::verilator_mem`]) or the netlist engine and compares every output port on every cycle.
//!
//! The trace holds, per cycle, every top-level port's value sampled after the inputs have settled and
//! before the rising edge. The generated test bench applies the same inputs at the same point of each
//! cycle (inputs at t = 10c, outputs sampled at 10c + 1, rising edge at 10c + 5) and writes the outputs;
//! the comparison reports the first cycle and port that differ. Unit-agnostic: ports come from
//! [`crate::ports`].

use crate::ports::Port;
use crate::tools::{run_tool, run_with_timeout, SIM_TIMEOUT};
use crate::unit::{Engine, Unit};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Instant;
use texpix_sim::netlist::yosys::cache_dir;
use texpix_sim::netlist::Mode;
use texpix_sim::{NetSim, StreamConfig};

/// Port values per cycle, in [`Port`] order.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// The unit's ports.
    pub ports: Vec<Port>,
    /// One row per cycle: hex values of all ports.
    pub cycles: Vec<Vec<String>>,
}

/// A Verilog simulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simulator {
    Icarus,
    /// Verilator running the file-based Verilog test bench.
    Verilator,
    /// Verilator driven by a generated C++ harness that holds the trace in memory: Verilator's
    /// own speed ([`crate::verilator_mem`]).
    VerilatorMem,
    /// texpix's own netlist simulator ([`texpix_sim::NetSim`]), in process, as native code where a
    /// C compiler works.
    Netlist,
    /// The netlist simulator's interpreter (no native code): the reference the native code is
    /// checked against.
    NetlistInterp,
}

impl std::str::FromStr for Simulator {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "icarus" => Ok(Self::Icarus),
            "verilator" => Ok(Self::Verilator),
            "verilator-mem" => Ok(Self::VerilatorMem),
            "netlist" => Ok(Self::Netlist),
            "netlist-interp" => Ok(Self::NetlistInterp),
            _ => Err(format!(
                "unknown simulator `{s}` (expected icarus, verilator, verilator-mem, netlist or netlist-interp)"
            )),
        }
    }
}

/// What a co-simulation measured.
#[derive(Clone, Debug)]
pub struct CosimReport {
    pub cycles: usize,
    pub compile_secs: f64,
    /// The replay's wall time (the fastest of the runs of [`run_best_of`]).
    pub run_secs: f64,
    /// The netlist ran as native code ([`texpix_sim::netlist::native`]).
    pub native: bool,
}

impl CosimReport {
    /// Simulated cycles per second of wall time, compile excluded.
    pub fn cycles_per_sec(&self) -> f64 {
        self.cycles as f64 / self.run_secs.max(1e-9)
    }
}

fn is_clock(p: &Port) -> bool {
    p.input && p.name == "clock"
}

pub(crate) fn data_inputs(ports: &[Port]) -> impl Iterator<Item = (usize, &Port)> {
    ports
        .iter()
        .enumerate()
        .filter(|(_, p)| p.input && !is_clock(p))
}

pub(crate) fn outputs(ports: &[Port]) -> impl Iterator<Item = (usize, &Port)> {
    ports.iter().enumerate().filter(|(_, p)| !p.input)
}

/// A test bench's `dut` instance of `top`: each data input a slice of the `width`-bit register
/// `cur` (first port most significant), each output a wire of its own name.
fn dut_wiring(v: &mut String, top: &str, ports: &[Port], width: usize) {
    let mut hi = width;
    for (_, p) in data_inputs(ports) {
        let lo = hi - p.bits;
        let _ = writeln!(
            v,
            "  wire [{}:0] {} = cur[{}:{}];",
            p.bits - 1,
            p.name,
            hi - 1,
            lo
        );
        hi = lo;
    }
    for (_, p) in outputs(ports) {
        let _ = writeln!(v, "  wire [{}:0] {};", p.bits - 1, p.name);
    }
    let conns: Vec<String> = ports.iter().map(|p| format!(".{0}({0})", p.name)).collect();
    let _ = writeln!(v, "  {top} dut({});", conns.join(", "));
}

/// The Verilog test bench for `top` replaying `cycles` rows of `stim.hex` into `outputs.txt`.
pub fn testbench(top: &str, ports: &[Port], cycles: usize) -> String {
    let width: usize = data_inputs(ports).map(|(_, p)| p.bits).sum();
    let mut v = String::new();
    let _ = writeln!(v, "`timescale 1ns/1ps");
    let _ = writeln!(v, "module texpix_cosim_tb;");
    let _ = writeln!(v, "  reg clock = 1'b0;");
    let _ = writeln!(v, "  reg [{}:0] stim [0:{}];", width - 1, cycles.max(1) - 1);
    let _ = writeln!(v, "  reg [{}:0] cur;", width - 1);
    dut_wiring(&mut v, top, ports, width);
    let _ = writeln!(v, "  integer c, f;");
    let _ = writeln!(v, "  initial begin");
    let _ = writeln!(v, "    $readmemh(\"stim.hex\", stim);");
    let _ = writeln!(v, "    f = $fopen(\"outputs.txt\", \"w\");");
    let _ = writeln!(v, "    for (c = 0; c < {cycles}; c = c + 1) begin");
    let _ = writeln!(v, "      cur = stim[c];");
    let _ = writeln!(v, "      #1;");
    let fmt: Vec<&str> = outputs(ports).map(|_| "%h").collect();
    let args: Vec<&str> = outputs(ports).map(|(_, p)| p.name.as_str()).collect();
    let _ = writeln!(
        v,
        "      $fwrite(f, \"{}\\n\", {});",
        fmt.join(" "),
        args.join(", ")
    );
    let _ = writeln!(v, "      #4 clock = 1'b1;");
    let _ = writeln!(v, "      #5 clock = 1'b0;");
    let _ = writeln!(v, "    end");
    let _ = writeln!(v, "    $fclose(f);");
    let _ = writeln!(v, "    $finish;");
    let _ = writeln!(v, "  end");
    let _ = writeln!(v, "endmodule");
    v
}

/// A self-checking test bench for `top` (module `<top>_tb`): replays `cycles` rows of
/// `<top>_stim.hex` and compares every output port, concatenated in port order, with the row of
/// `<top>_expect.hex` on every cycle (inputs at t = 10c, outputs compared at 10c + 1, rising edge
/// at 10c + 5, as [`testbench`]). It prints the first mismatches and ends with `$fatal` if any
/// cycle differs, else prints `PASS`. Verilog-2012 (`$fatal`).
pub fn checking_testbench(top: &str, ports: &[Port], cycles: usize) -> String {
    let width: usize = data_inputs(ports).map(|(_, p)| p.bits).sum();
    let owidth: usize = outputs(ports).map(|(_, p)| p.bits).sum();
    let n = cycles.max(1);
    let mut v = String::new();
    let _ = writeln!(v, "`timescale 1ns/1ps");
    let _ = writeln!(v, "module {top}_tb;");
    let _ = writeln!(v, "  reg clock = 1'b0;");
    let _ = writeln!(v, "  reg [{}:0] stim [0:{}];", width - 1, n - 1);
    let _ = writeln!(v, "  reg [{}:0] expect_mem [0:{}];", owidth - 1, n - 1);
    let _ = writeln!(v, "  reg [{}:0] cur;", width - 1);
    dut_wiring(&mut v, top, ports, width);
    let outs: Vec<&str> = outputs(ports).map(|(_, p)| p.name.as_str()).collect();
    let _ = writeln!(
        v,
        "  wire [{}:0] got = {{{}}};",
        owidth - 1,
        outs.join(", ")
    );
    let _ = writeln!(v, "  integer c, errors;");
    let _ = writeln!(v, "  initial begin");
    let _ = writeln!(v, "    $readmemh(\"{top}_stim.hex\", stim);");
    let _ = writeln!(v, "    $readmemh(\"{top}_expect.hex\", expect_mem);");
    let _ = writeln!(v, "    errors = 0;");
    let _ = writeln!(v, "    for (c = 0; c < {cycles}; c = c + 1) begin");
    let _ = writeln!(v, "      cur = stim[c];");
    let _ = writeln!(v, "      #1;");
    let _ = writeln!(v, "      if (got !== expect_mem[c]) begin");
    let _ = writeln!(v, "        errors = errors + 1;");
    let _ = writeln!(
        v,
        "        if (errors <= 5) $display(\"cycle %0d: outputs %h, expected %h\", c, got, expect_mem[c]);"
    );
    let _ = writeln!(v, "      end");
    let _ = writeln!(v, "      #4 clock = 1'b1;");
    let _ = writeln!(v, "      #5 clock = 1'b0;");
    let _ = writeln!(v, "    end");
    let _ = writeln!(
        v,
        "    if (errors != 0) $fatal(1, \"{top}: %0d of {cycles} cycles differ from the Rust model\", errors);"
    );
    let _ = writeln!(
        v,
        "    $display(\"PASS {top}: {cycles} cycles, every output equal to the Rust model\");"
    );
    let _ = writeln!(v, "    $finish;");
    let _ = writeln!(v, "  end");
    let _ = writeln!(v, "endmodule");
    v
}

/// Writes `top`'s exported Verilog (`<top>.v`), its [`checking_testbench`] (`<top>_tb.v`) and
/// the trace's stimulus and expected outputs (`<top>_stim.hex`, `<top>_expect.hex`) into `dir`;
/// returns the paths written.
pub fn write_checking_bench(
    dir: &Path,
    top: &str,
    verilog: &str,
    trace: &Trace,
) -> Result<Vec<std::path::PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut stim = String::new();
    let mut expect = String::new();
    let outs: Vec<(usize, &Port)> = outputs(&trace.ports).collect();
    for row in &trace.cycles {
        stim.push_str(&stim_row(&trace.ports, row));
        stim.push('\n');
        let mut bits = String::new();
        for (i, p) in &outs {
            bits.push_str(&u128_bits(&row[*i], p.bits));
        }
        expect.push_str(&bits_to_hex(&bits));
        expect.push('\n');
    }
    let files = [
        (format!("{top}.v"), verilog.to_string()),
        (
            format!("{top}_tb.v"),
            checking_testbench(top, &trace.ports, trace.cycles.len()),
        ),
        (format!("{top}_stim.hex"), stim),
        (format!("{top}_expect.hex"), expect),
    ];
    let mut paths = Vec::new();
    for (name, text) in files {
        let p = dir.join(name);
        std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
        paths.push(p);
    }
    Ok(paths)
}

/// Concatenation of a row's data inputs as one hex word (first port most significant).
fn stim_row(ports: &[Port], row: &[String]) -> String {
    let mut bits = String::new();
    for (i, p) in data_inputs(ports) {
        let v = u128_bits(&row[i], p.bits);
        bits.push_str(&v);
    }
    bits_to_hex(&bits)
}

/// A string of binary digits as hex digits (zero-padded on the left to whole nibbles).
fn bits_to_hex(bits: &str) -> String {
    let pad = (4 - bits.len() % 4) % 4;
    let bits = format!("{}{}", "0".repeat(pad), bits);
    bits.as_bytes()
        .chunks(4)
        .map(|nib| {
            let n = nib.iter().fold(0u8, |a, b| (a << 1) | (b - b'0'));
            char::from_digit(n as u32, 16).unwrap_or('0')
        })
        .collect()
}

/// Binary digits of a hex value, `bits` wide.
fn u128_bits(hex: &str, bits: usize) -> String {
    let mut s = String::new();
    for c in hex.chars() {
        let d = c.to_digit(16).unwrap_or(0);
        let _ = write!(s, "{d:04b}");
    }
    s[s.len() - bits.min(s.len())..].to_string()
}

/// Runs the co-simulation in `dir` and compares every output on every cycle.
pub fn run(
    sim: Simulator,
    dir: &Path,
    top: &str,
    verilog: &str,
    trace: &Trace,
) -> Result<CosimReport, String> {
    run_best_of(sim, dir, top, verilog, trace, 1)
}

/// [`run`] with the replay repeated `runs` times from power-up after one compile, outputs compared
/// after each (the in-memory harness: after the last); `run_secs` is the fastest run, which damps
/// the noise of a shared machine.
pub fn run_best_of(
    sim: Simulator,
    dir: &Path,
    top: &str,
    verilog: &str,
    trace: &Trace,
    runs: usize,
) -> Result<CosimReport, String> {
    let runs = runs.max(1);
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // Absolute, so that the simulator binary inside it is found whatever the child's directory.
    let dir = &dir
        .canonicalize()
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text)
            .map_err(|e| format!("{}: {e}", dir.join(name).display()))
    };
    let n = trace.cycles.len();
    match sim {
        Simulator::Netlist => return run_netlist(top, verilog, trace, runs, Mode::from_env()),
        Simulator::NetlistInterp => return run_netlist(top, verilog, trace, runs, Mode::Interpret),
        Simulator::VerilatorMem => {
            return crate::verilator_mem::run(dir, top, verilog, trace, runs)
        }
        _ => {}
    }
    write("dut.v", verilog)?;
    write("tb.v", &testbench(top, &trace.ports, n))?;
    let mut stim = String::new();
    for row in &trace.cycles {
        stim.push_str(&stim_row(&trace.ports, row));
        stim.push('\n');
    }
    write("stim.hex", &stim)?;
    let t0 = Instant::now();
    let run_cmd = match sim {
        Simulator::Icarus => {
            run_tool(
                Command::new("iverilog").current_dir(dir).args([
                    "-g2012",
                    "-o",
                    "cosim.vvp",
                    "tb.v",
                    "dut.v",
                ]),
                "iverilog",
            )?;
            let mut c = Command::new("vvp");
            c.current_dir(dir).args(["-n", "cosim.vvp"]);
            c
        }
        Simulator::Netlist | Simulator::NetlistInterp | Simulator::VerilatorMem => {
            unreachable!("handled above")
        }
        Simulator::Verilator => {
            // The file-driven test bench checks behaviour, not speed (that is `VerilatorMem`): its
            // C++ is compiled unoptimised and in parallel, which builds the texture unit's 325 k
            // lines of generated C++ in a third of the time of Verilator's default `-Os`, and
            // Verilator skips its statement reordering (`-fno-reorder`, quadratic in the length
            // of an `always` block: the texture unit's Verilator run, before the C++, 332 → 52 s).
            run_tool(
                Command::new("verilator").current_dir(dir).args([
                    "--binary",
                    "--timing",
                    "-j",
                    "0",
                    "-MAKEFLAGS",
                    "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0",
                    "-O3",
                    "-fno-reorder",
                    "-Wno-fatal",
                    "-Wno-lint",
                    "-Wno-style",
                    "--top-module",
                    "texpix_cosim_tb",
                    "-o",
                    "cosim",
                    "tb.v",
                    "dut.v",
                ]),
                "verilator",
            )?;
            let mut c = Command::new(dir.join("obj_dir").join("cosim"));
            c.current_dir(dir);
            c
        }
    };
    let compile_secs = t0.elapsed().as_secs_f64();
    let mut run_cmd = run_cmd;
    let mut run_secs = f64::INFINITY;
    for _ in 0..runs {
        let _ = std::fs::remove_file(dir.join("outputs.txt"));
        let t1 = Instant::now();
        run_with_timeout(&mut run_cmd, "the Verilog simulation", SIM_TIMEOUT)?;
        run_secs = run_secs.min(t1.elapsed().as_secs_f64());
        let got = std::fs::read_to_string(dir.join("outputs.txt"))
            .map_err(|e| format!("{}: {e}", dir.join("outputs.txt").display()))?;
        let got: Vec<&str> = got.lines().collect();
        compare_lines(trace, &got, "Verilog")?;
    }
    Ok(CosimReport {
        cycles: n,
        compile_secs,
        run_secs,
        native: false,
    })
}

/// Compares `got`, one line of space-separated hex outputs (in port order) per cycle, with the
/// trace's outputs on every cycle; the error names the first differing cycle and port (`who` names
/// the simulator in it).
pub(crate) fn compare_lines(trace: &Trace, got: &[&str], who: &str) -> Result<(), String> {
    let n = trace.cycles.len();
    if got.len() != n {
        return Err(format!(
            "{who} simulation wrote {} cycles, expected {n}",
            got.len()
        ));
    }
    let outs: Vec<(usize, &Port)> = outputs(&trace.ports).collect();
    for (c, (row, line)) in trace.cycles.iter().zip(got).enumerate() {
        let vals: Vec<&str> = line.split_whitespace().collect();
        for (k, (i, p)) in outs.iter().enumerate() {
            let want = &row[*i];
            let have = vals.get(k).copied().unwrap_or("<missing>");
            if !have.eq_ignore_ascii_case(want) {
                return Err(format!(
                    "co-simulation mismatch at cycle {c}, port {}: Rust {want}, {who} {have}",
                    p.name
                ));
            }
        }
    }
    Ok(())
}

/// The netlist co-simulation: the trace's inputs replayed `runs` times through a fresh copy of a
/// [`NetSim`] of `verilog` (netlist from the shared cache, [`cache_dir`]), outputs compared at the
/// same point of each cycle.
fn run_netlist(
    top: &str,
    verilog: &str,
    trace: &Trace,
    runs: usize,
    mode: Mode,
) -> Result<CosimReport, String> {
    let t0 = Instant::now();
    let compiled = NetSim::from_verilog_in(verilog, top, &cache_dir(), mode)?;
    let compile_secs = t0.elapsed().as_secs_f64();
    let handle = |p: &Port| {
        compiled
            .find(&p.name)
            .ok_or_else(|| format!("netlist of {top} has no port {}", p.name))
    };
    let clock = match trace.ports.iter().find(|p| is_clock(p)) {
        Some(p) => handle(p)?,
        None => return Err(format!("{top} has no clock input")),
    };
    // The trace column of each port in the netlist's bulk layouts (data inputs, outputs).
    let column = |h: usize| {
        let name = &compiled.signals()[h].name;
        trace
            .ports
            .iter()
            .position(|p| &p.name == name)
            .ok_or_else(|| format!("the trace of {top} has no port {name}"))
    };
    let ins: Vec<usize> = compiled
        .data_inputs()
        .into_iter()
        .map(column)
        .collect::<Result<_, _>>()?;
    let outs: Vec<(usize, usize)> = compiled
        .outputs()
        .into_iter()
        .map(|h| column(h).map(|i| (i, compiled.words(h))))
        .collect::<Result<_, _>>()?;
    if let Some((_, p)) = data_inputs(&trace.ports)
        .chain(outputs(&trace.ports))
        .find(|(_, p)| compiled.find(&p.name).is_none())
    {
        return Err(format!("netlist of {top} has no port {}", p.name));
    }
    // Parsed before the timed loop into one flat array per direction, in the bulk layouts (64-bit
    // words, two for a port wider than 64 bits), so that the loop measures the engine, not hex
    // parsing or pointer chasing.
    let mut in_words: Vec<u64> = Vec::new();
    let mut out_words: Vec<u64> = Vec::new();
    for (c, row) in trace.cycles.iter().enumerate() {
        let parse = |i: usize| {
            u128::from_str_radix(&row[i], 16)
                .map_err(|e| format!("trace cycle {c}, port {}: {e}", trace.ports[i].name))
        };
        for &i in &ins {
            let v = parse(i)?;
            in_words.push(v as u64);
            if trace.ports[i].bits > 64 {
                in_words.push((v >> 64) as u64);
            }
        }
        for &(i, words) in &outs {
            let v = parse(i)?;
            out_words.push(v as u64);
            if words == 2 {
                out_words.push((v >> 64) as u64);
            }
        }
    }
    let n_in = in_words.len() / trace.cycles.len().max(1);
    let n_out = out_words.len() / trace.cycles.len().max(1);
    let mut got = vec![0u64; n_out];
    let mut run_secs = f64::INFINITY;
    for _ in 0..runs.max(1) {
        let mut sim = compiled.clone();
        let t1 = Instant::now();
        for (c, (inw, want)) in in_words
            .chunks_exact(n_in.max(1))
            .zip(out_words.chunks_exact(n_out.max(1)))
            .enumerate()
        {
            sim.set_inputs(inw)?;
            sim.settle();
            sim.get_outputs(&mut got)?;
            if got != want {
                return Err(netlist_mismatch(&compiled, trace, c, &outs, &got));
            }
            // The edge clocks the flip-flops; what they change settles with the next inputs.
            sim.set(clock, 1)?;
            sim.set(clock, 0)?;
        }
        run_secs = run_secs.min(t1.elapsed().as_secs_f64());
    }
    Ok(CosimReport {
        cycles: trace.cycles.len(),
        compile_secs,
        run_secs,
        native: compiled.is_native(),
    })
}

/// The first output of cycle `c` whose netlist word `got` differs from the trace.
fn netlist_mismatch(
    net: &NetSim,
    trace: &Trace,
    c: usize,
    outs: &[(usize, usize)],
    got: &[u64],
) -> String {
    let mut k = 0;
    for (&(i, words), h) in outs.iter().zip(net.outputs()) {
        let mut have = got[k] as u128;
        if words == 2 {
            have |= (got[k + 1] as u128) << 64;
        }
        k += words;
        let p = &trace.ports[i];
        if u128::from_str_radix(&trace.cycles[c][i], 16).ok() != Some(have) {
            return format!(
                "co-simulation mismatch at cycle {c}, port {}: Rust {}, netlist {have:0w$x}",
                p.name,
                trace.cycles[c][i],
                w = p.hex_digits()
            );
        }
        debug_assert_eq!(net.signals()[h].name, p.name);
    }
    format!("co-simulation mismatch at cycle {c}")
}

/// The RTL run of `vectors` with every port recorded each cycle from power-up (so the Verilog
/// replays the reset cycles too); also checks RTL == golden. Returns the trace and the Rust run time.
pub fn trace<U: Unit>(vectors: &[U::Txn], cfg: &StreamConfig) -> Result<(Trace, f64), String> {
    trace_at::<U>(vectors, cfg, U::DEPTHS[0])
}

/// [`trace`] of the unit built at pipeline depth `depth`.
pub fn trace_at<U: Unit>(
    vectors: &[U::Txn],
    cfg: &StreamConfig,
    depth: usize,
) -> Result<(Trace, f64), String> {
    let mut sim = U::power_up_at(Engine::Rtl, depth)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stim_rows_concatenate_inputs_msb_first() {
        let ports = [
            Port::new("clock", 1, true),
            Port::new("a", 3, true),
            Port::new("y", 8, false),
            Port::new("b", 5, true),
        ];
        let row: Vec<String> = ["0", "5", "ff", "11"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        // a = 101, b = 10001 -> 10110001 = b1
        assert_eq!(stim_row(&ports, &row), "b1");
    }

    #[test]
    fn testbench_declares_every_port() {
        let ports = [
            Port::new("clock", 1, true),
            Port::new("a", 3, true),
            Port::new("y", 8, false),
        ];
        let tb = testbench("dut_top", &ports, 7);
        assert!(tb.contains("wire [2:0] a = cur[2:0];"));
        assert!(tb.contains("dut_top dut(.clock(clock), .a(a), .y(y));"));
        assert!(tb.contains("c < 7"));
    }
}
