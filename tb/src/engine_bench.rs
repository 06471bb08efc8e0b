//! The engine benchmark: per unit, one stimulus trace (random vectors under back-pressure) recorded
//! by the rust-hdl engine, replayed by Verilator (the in-memory harness of
//! [`crate::verilator_mem`]) and by the netlist engine, each compared with the trace on every
//! output port of every cycle; speeds in cycles/s (replays: the fastest of a few runs; rust-hdl:
//! its one recording run) and their ratios to Verilator, as one table.

use crate::cosim::{self, CosimReport, Simulator};
use crate::registry::UnitFn;
use crate::unit::Unit;
use std::path::PathBuf;
use texpix_sim::StreamConfig;

/// Random vectors per unit by default: tens of thousands of cycles where the rust-hdl engine (which
/// records the trace, and dominates the run time) allows, about a minute per unit.
pub fn default_count(unit: &str) -> usize {
    match unit {
        "coverage" => 20_000,
        "coverage-serial" => 400,
        "lod" | "texaddr" => 14_000,
        "bvh" => 9_000,
        "tex" => 600,
        _ => 2_000,
    }
}

/// One unit's measurement.
#[derive(Debug)]
pub struct Row {
    pub unit: &'static str,
    pub vectors: usize,
    pub cycles: usize,
    /// rust-hdl engine cycles/s while recording the trace (the probe reads every port each cycle).
    pub rust_hdl: f64,
    pub verilator: Result<CosimReport, String>,
    /// The netlist engine as it runs by default (native code where a C compiler works).
    pub netlist: Result<CosimReport, String>,
    /// The netlist engine's interpreter.
    pub interp: Result<CosimReport, String>,
}

impl Row {
    /// Both replays matched the trace on every output of every cycle.
    pub fn identical(&self) -> bool {
        self.verilator.is_ok() && self.netlist.is_ok() && self.interp.is_ok()
    }
}

/// Measures one unit (see [`crate::registry::with_unit`]): `count` random vectors from `seed`,
/// streamed under `cfg`; each replay run `runs` times; work files under `dir/<unit>`.
pub struct Measure {
    pub count: usize,
    pub runs: usize,
    pub seed: u64,
    pub cfg: StreamConfig,
    pub dir: PathBuf,
}

impl UnitFn for Measure {
    type Out = Result<Row, String>;
    fn call<U: Unit>(self) -> Self::Out {
        let vectors = U::random(self.seed, self.count);
        let (trace, rust_secs) = cosim::trace::<U>(&vectors, &self.cfg)?;
        let verilog = U::verilog()?;
        let dir = self.dir.join(U::NAME);
        let replay = |sim| cosim::run_best_of(sim, &dir, U::TOP, &verilog, &trace, self.runs);
        Ok(Row {
            unit: U::NAME,
            vectors: vectors.len(),
            cycles: trace.cycles.len(),
            rust_hdl: trace.cycles.len() as f64 / rust_secs.max(1e-9),
            verilator: replay(Simulator::VerilatorMem),
            netlist: replay(Simulator::Netlist),
            interp: replay(Simulator::NetlistInterp),
        })
    }
}

/// `n` rounded, digits grouped in threes by spaces (`140 000`).
fn grouped(n: f64) -> String {
    let digits = format!("{:.0}", n.max(0.0));
    let mut out = String::new();
    for (k, ch) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k) % 3 == 0 {
            out.push(' ');
        }
        out.push(ch);
    }
    out
}

/// The markdown table of `rows`, then per unit the build times (not timed in cycles/s) or why a
/// replay failed.
pub fn table(rows: &[Row]) -> String {
    let speed = |r: &Result<CosimReport, String>| r.as_ref().ok().map(|r| r.cycles_per_sec());
    let mut t = String::from(
        "| unit | vectors | cycles | Verilator (in-memory) cycles/s | netlist engine cycles/s | netlist / Verilator | interpreter cycles/s | interpreter / Verilator | rust-hdl cycles/s | rust-hdl / Verilator | outputs identical |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    let mut notes = Vec::new();
    for r in rows {
        let v = speed(&r.verilator);
        let n = speed(&r.netlist);
        let i = speed(&r.interp);
        let cell = |x: Option<f64>| x.map_or("—".to_string(), grouped);
        let ratio = |x: Option<f64>, digits: usize| match (x, v) {
            (Some(x), Some(v)) => format!("{:.*}", digits, x / v),
            _ => "—".to_string(),
        };
        t.push_str(&format!(
            "| {} | {} | {} | {} | {}{} | {} | {} | {} | {} | {} | {} |\n",
            r.unit,
            grouped(r.vectors as f64),
            grouped(r.cycles as f64),
            cell(v),
            cell(n),
            match &r.netlist {
                Ok(rep) if rep.native => " (native)",
                Ok(_) => " (interpreted)",
                Err(_) => "",
            },
            ratio(n, 2),
            cell(i),
            ratio(i, 2),
            grouped(r.rust_hdl),
            ratio(Some(r.rust_hdl), 4),
            if r.identical() { "yes" } else { "no" }
        ));
        let build = |r: &Result<CosimReport, String>| match r {
            Ok(rep) if rep.compile_secs == 0.0 => "cached".to_string(),
            Ok(rep) => format!("{:.1} s", rep.compile_secs),
            Err(_) => "failed".to_string(),
        };
        notes.push(format!(
            "{}: Verilator harness build {}, netlist load/compile {} (interpreter {})",
            r.unit,
            build(&r.verilator),
            build(&r.netlist),
            build(&r.interp)
        ));
        for (who, res) in [
            ("Verilator", &r.verilator),
            ("netlist", &r.netlist),
            ("interpreter", &r.interp),
        ] {
            if let Err(e) = res {
                notes.push(format!("{} {who} FAILED: {e}", r.unit));
            }
        }
    }
    t.push('\n');
    t.push_str(&notes.join("\n"));
    t.push('\n');
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_group_in_threes() {
        assert_eq!(grouped(140_000.4), "140 000");
        assert_eq!(grouped(999.0), "999");
        assert_eq!(grouped(1_234_567.0), "1 234 567");
    }

    #[test]
    fn a_failed_replay_is_not_identical_and_is_named() {
        let ok = CosimReport {
            cycles: 10,
            compile_secs: 0.0,
            run_secs: 0.001,
            native: false,
        };
        let rows = [Row {
            unit: "u",
            vectors: 3,
            cycles: 10,
            rust_hdl: 100.0,
            verilator: Ok(ok.clone()),
            netlist: Err("mismatch at cycle 4".into()),
            interp: Ok(CosimReport {
                run_secs: 0.002,
                ..ok
            }),
        }];
        let t = table(&rows);
        assert!(
            t.contains("| u | 3 | 10 | 10 000 | — | — | 5 000 | 0.50 | 100 | 0.0100 | no |"),
            "{t}"
        );
        assert!(t.contains("u netlist FAILED: mismatch at cycle 4"), "{t}");
    }
}
