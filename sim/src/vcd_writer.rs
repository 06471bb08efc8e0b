//! VCD waveforms of a whole rust-hdl hierarchy, written with the `vcd` crate.
//!
//! Every signal (`Atom`) is a wire of its width inside the scopes of its blocks; names use `_` for
//! rust-hdl's `$` array/field separator, as in the exported Verilog. Values come from each signal's
//! Verilog literal, so enum-typed state is dumped as its numeric encoding (readable in every viewer).
//! Only changes are written, under one timestamp per half cycle. Output is deterministic: the same run
//! gives the same bytes (no date, definition order = hierarchy order). A GTKWave save file
//! (`<name>.gtkw`) listing the top-level ports is written beside the VCD.

use rust_hdl::prelude::*;
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;
use vcd::{IdCode, TimescaleUnit, Value};

/// An open VCD file.
pub struct VcdWriter {
    w: vcd::Writer<BufWriter<File>>,
    path: String,
    /// Dumped signals by rust-hdl signal id: VCD id, width, last hex value.
    vars: HashMap<usize, (IdCode, usize, String)>,
    last_t: Option<u64>,
    finished: bool,
}

fn vcd_name(name: &str) -> String {
    name.replace('$', "_")
}

struct Header<'a> {
    w: &'a mut vcd::Writer<BufWriter<File>>,
    vars: &'a mut HashMap<usize, (IdCode, usize, String)>,
    filter: &'a [String],
    scopes: Vec<String>,
    top_ports: Vec<(String, usize)>,
    err: Option<io::Error>,
}

impl Header<'_> {
    fn keep<T>(&mut self, r: io::Result<T>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                self.err.get_or_insert(e);
                None
            }
        }
    }
}

impl Probe for Header<'_> {
    fn visit_start_scope(&mut self, name: &str, _node: &dyn Block) {
        let r = self.w.add_module(&vcd_name(name));
        self.keep(r);
        self.scopes.push(vcd_name(name));
    }
    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        let r = self.w.upscope();
        self.keep(r);
        self.scopes.pop();
    }
    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        let name = vcd_name(name);
        let path = format!("{}.{}", self.scopes.join("."), name);
        if !self.filter.is_empty() && !self.filter.iter().any(|f| path.contains(f.as_str())) {
            return;
        }
        let bits = signal.bits().max(1);
        let r = self.w.add_wire(bits as u32, &name);
        if let Some(id) = self.keep(r) {
            self.vars.insert(signal.id(), (id, bits, String::new()));
            if self.scopes.len() == 1 {
                self.top_ports.push((path, bits));
            }
        }
    }
}

struct Change<'a> {
    w: &'a mut vcd::Writer<BufWriter<File>>,
    vars: &'a mut HashMap<usize, (IdCode, usize, String)>,
    pending_t: Option<u64>,
    err: Option<io::Error>,
}

impl Probe for Change<'_> {
    fn visit_atom(&mut self, _name: &str, signal: &dyn Atom) {
        let Some((id, bits, last)) = self.vars.get_mut(&signal.id()) else {
            return;
        };
        // rust-hdl formats literals as `<bits>'h<hex>`.
        let lit = format!("{:x}", signal.verilog());
        let hex = lit.rsplit('h').next().unwrap_or("0");
        if hex == last.as_str() {
            return;
        }
        *last = hex.to_string();
        let mut r = Ok(());
        if let Some(t) = self.pending_t.take() {
            r = self.w.timestamp(t);
        }
        let (id, bits) = (*id, *bits);
        let r = r.and_then(|_| {
            if bits == 1 {
                let v = if hex.trim_start_matches('0').is_empty() {
                    Value::V0
                } else {
                    Value::V1
                };
                self.w.change_scalar(id, v)
            } else {
                self.w.change_vector(id, hex_bits(hex, bits))
            }
        });
        if let Err(e) = r {
            self.err.get_or_insert(e);
        }
    }
}

/// The `bits` low bits of a hex number, most significant first.
fn hex_bits(hex: &str, bits: usize) -> Vec<Value> {
    let mut all: Vec<Value> = Vec::with_capacity(hex.len() * 4);
    for c in hex.chars() {
        let d = c.to_digit(16).unwrap_or(0);
        for k in (0..4).rev() {
            all.push(if (d >> k) & 1 == 1 {
                Value::V1
            } else {
                Value::V0
            });
        }
    }
    if all.len() >= bits {
        all.split_off(all.len() - bits)
    } else {
        let mut v = vec![Value::V0; bits - all.len()];
        v.extend(all);
        v
    }
}

/// Writes the GTKWave save file beside the VCD at `path` (`<name>.gtkw`), showing `signals`
/// (full VCD paths, widths).
pub fn write_gtkw(path: &Path, signals: &[(String, usize)]) -> io::Result<()> {
    let mut gtkw = format!("[dumpfile] \"{}\"\n", path.display());
    for (p, bits) in signals {
        if *bits > 1 {
            gtkw.push_str(&format!("{p}[{}:0]\n", bits - 1));
        } else {
            gtkw.push_str(&format!("{p}\n"));
        }
    }
    std::fs::write(path.with_extension("gtkw"), gtkw)
}

impl VcdWriter {
    /// Creates `path` with the definitions of `uut`'s signals matching `filter` (all if empty).
    pub fn create<B: Block>(path: &Path, uut: &B, filter: &[String]) -> io::Result<Self> {
        let file = BufWriter::new(File::create(path)?);
        let mut w = vcd::Writer::new(file);
        w.timescale(1, TimescaleUnit::NS)?;
        let mut vars = HashMap::new();
        let mut h = Header {
            w: &mut w,
            vars: &mut vars,
            filter,
            scopes: Vec::new(),
            top_ports: Vec::new(),
            err: None,
        };
        uut.accept("uut", &mut h);
        if let Some(e) = h.err.take() {
            return Err(e);
        }
        let top_ports = std::mem::take(&mut h.top_ports);
        w.enddefinitions()?;
        write_gtkw(path, &top_ports)?;
        Ok(Self {
            w,
            path: path.display().to_string(),
            vars,
            last_t: None,
            finished: false,
        })
    }

    /// The VCD's path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Writes the changes of `uut`'s signals at time `t` (≥ the previous sample's time).
    pub fn sample<B: Block>(&mut self, t: u64, uut: &B) -> io::Result<()> {
        let pending_t = match self.last_t {
            Some(l) if l >= t => None,
            _ => Some(t),
        };
        let mut c = Change {
            w: &mut self.w,
            vars: &mut self.vars,
            pending_t,
            err: None,
        };
        uut.accept("uut", &mut c);
        if c.pending_t.is_none() {
            self.last_t = Some(t.max(self.last_t.unwrap_or(0)));
        }
        match c.err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Flushes and closes the file.
    pub fn finish(mut self) -> io::Result<()> {
        self.finished = true;
        self.w.flush()
    }
}

impl Drop for VcdWriter {
    fn drop(&mut self) {
        if !self.finished {
            let _ = self.w.flush();
        }
    }
}
