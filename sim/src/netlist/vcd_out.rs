//! VCD waveforms of a [`NetSim`]'s named signals: one scope per hierarchy level under `uut`, only
//! changes written, deterministic output, a GTKWave save file of the top-level ports beside it.

use super::NetSim;
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;
use vcd::{IdCode, TimescaleUnit, Value};

/// An open VCD of a netlist simulation.
pub struct NetVcd {
    w: vcd::Writer<BufWriter<File>>,
    path: String,
    /// Handle, VCD id, width, last value (None before the first sample).
    vars: Vec<(usize, IdCode, usize, Option<u128>)>,
    last_t: Option<u64>,
}

impl NetVcd {
    /// Creates `path` with the signals whose name contains one of `filter` (all if empty).
    pub fn create(path: &Path, sim: &NetSim, filter: &[String]) -> io::Result<Self> {
        let mut w = vcd::Writer::new(BufWriter::new(File::create(path)?));
        w.timescale(1, TimescaleUnit::NS)?;
        w.add_module("uut")?;
        let mut open: Vec<&str> = Vec::new();
        let mut vars = Vec::new();
        for (h, n) in sim.signals().iter().enumerate() {
            if !filter.is_empty() && !filter.iter().any(|f| n.name.contains(f.as_str())) {
                continue;
            }
            let parts: Vec<&str> = n.name.split('.').collect();
            let (scopes, leaf) = parts.split_at(parts.len() - 1);
            let common = open.iter().zip(scopes).take_while(|(a, b)| a == b).count();
            for _ in common..open.len() {
                w.upscope()?;
            }
            open.truncate(common);
            for s in &scopes[common..] {
                w.add_module(s)?;
                open.push(s);
            }
            let id = w.add_wire(n.width as u32, leaf[0])?;
            vars.push((h, id, n.width, None));
        }
        for _ in 0..open.len() + 1 {
            w.upscope()?;
        }
        w.enddefinitions()?;
        let ports: Vec<(String, usize)> = vars
            .iter()
            .map(|&(h, _, width, _)| (&sim.signals()[h].name, width))
            .filter(|(n, _)| !n.contains('.'))
            .map(|(n, w)| (format!("uut.{n}"), w))
            .collect();
        crate::vcd_writer::write_gtkw(path, &ports)?;
        Ok(Self {
            w,
            path: path.display().to_string(),
            vars,
            last_t: None,
        })
    }

    /// The VCD's path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Writes the changes at time `t` (settled values).
    pub fn sample(&mut self, t: u64, sim: &NetSim) -> io::Result<()> {
        let mut stamped = self.last_t.is_some_and(|l| l >= t);
        for (h, id, width, last) in self.vars.iter_mut() {
            let v = sim.get(*h);
            if *last == Some(v) {
                continue;
            }
            *last = Some(v);
            if !stamped {
                self.w.timestamp(t)?;
                self.last_t = Some(t);
                stamped = true;
            }
            if *width == 1 {
                self.w
                    .change_scalar(*id, if v & 1 == 1 { Value::V1 } else { Value::V0 })?;
            } else {
                let bits: Vec<Value> = (0..*width)
                    .rev()
                    .map(|i| {
                        if (v >> i) & 1 == 1 {
                            Value::V1
                        } else {
                            Value::V0
                        }
                    })
                    .collect();
                self.w.change_vector(*id, bits)?;
            }
        }
        Ok(())
    }

    /// Flushes and closes the file.
    pub fn finish(mut self) -> io::Result<()> {
        self.w.flush()
    }
}
