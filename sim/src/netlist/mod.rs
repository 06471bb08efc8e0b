//! A compiled, event-driven simulator of a unit's flattened Yosys netlist.
//!
//! The rust-hdl engine ([`crate::Sim`]) evaluates every block's `update` on every pass until nothing
//! changes, several passes per clock edge. This simulator runs the *same circuit* — the unit's
//! exported Verilog, elaborated by Yosys (`proc; flatten; opt`) into word-level cells — as a levelised
//! list of cells over 64-bit words:
//!
//! - every cell output and every top-level input is a word slot (≤ 64 bits, wider ports are split);
//! - cells are sorted so each comes after the cells that drive it (a word-level loop is an error);
//! - a write or a flip-flop update marks the cells reading the changed slot; [`NetSim::settle`]
//!   evaluates only marked cells, in order, in one sweep, and marks their readers when an output
//!   changes (so idle logic costs nothing);
//! - on a clock input's active edge every `$dff` clocked by it samples its settled `D`, and every
//!   memory write port (`$memwr`) its address, data and enable; then all `Q`s and memory words
//!   change together — an HDL simulator's non-blocking assignment.
//!
//! Values are two-state: `x`/`z` read as 0 and registers power up at their `init` value (0 if none),
//! as rust-hdl's signals do. Equivalence with the rust-hdl model is checked cycle by cycle on every
//! output port by `texpix cosim <unit> --sim netlist` (tb/tests/verilog.rs). [`yosys`] makes the
//! netlist from Verilog and caches it.

pub mod build_lock;
mod compile;
pub mod native;
pub mod ops;
mod vcd_out;
pub mod yosys;

pub use compile::compile;
use ops::{mask, Cell, Op, Operand, Seg};
use std::collections::HashMap;
use std::path::Path;
pub use vcd_out::NetVcd;

/// How a netlist is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The interpreter: levelised cells over word slots, only changed cells evaluated.
    Interpret,
    /// Native code ([`native`]); an error if it cannot be built.
    Native,
    /// Native code where a C compiler works, else the interpreter.
    Auto,
}

impl Mode {
    /// `Auto`, or `Interpret` when `TEXPIX_NATIVE=0`.
    pub fn from_env() -> Self {
        if std::env::var("TEXPIX_NATIVE").is_ok_and(|v| v == "0") {
            Mode::Interpret
        } else {
            Mode::Auto
        }
    }
}

/// What a named signal is to the test bench.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortDir {
    Input,
    Output,
    Internal,
}

/// A named net: a top-level port or a public internal signal (hierarchy separated by `.`).
#[derive(Clone, Debug)]
pub struct Named {
    pub name: String,
    pub width: usize,
    pub dir: PortDir,
    lo: Operand,
    hi: Operand,
    input_slots: Vec<u32>,
}

/// A positive- or negative-edge flip-flop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dff {
    d: Operand,
    q: u32,
    clk_slot: u32,
    clk_bit: u8,
    rising: bool,
}

/// A synchronous memory write port: at the clock edge, the bits of `en` that are set take `data`
/// in word `addr - offset` of memory `mem` (sampled on the values settled before the edge).
#[derive(Clone, Copy, Debug)]
pub(crate) struct MemWrite {
    mem: u32,
    offset: i64,
    addr: Operand,
    data: Operand,
    en: Operand,
    clk_slot: u32,
    clk_bit: u8,
    rising: bool,
}

/// Readers per slot as compressed rows: `list[start[s] .. start[s + 1]]`.
fn csr(readers: &[Vec<u32>]) -> (Vec<u32>, Vec<u32>) {
    let mut start = Vec::with_capacity(readers.len() + 1);
    let mut list = Vec::new();
    for r in readers {
        start.push(list.len() as u32);
        list.extend_from_slice(r);
    }
    start.push(list.len() as u32);
    (start, list)
}

/// A bit set with bits `0..n` set.
fn all_set(n: usize) -> Vec<u64> {
    let mut v = vec![u64::MAX; n.div_ceil(64)];
    if let Some(last) = v.last_mut() {
        if !n.is_multiple_of(64) {
            *last = mask((n % 64) as u8);
        }
    }
    v
}

/// The compiled netlist and its state. See the module documentation.
#[derive(Clone)]
pub struct NetSim {
    vals: Vec<u64>,
    widths: Vec<u8>,
    cells: Vec<Cell>,
    segs: Vec<Seg>,
    cases: Vec<Operand>,
    /// Readers of each slot (combinational cell indices), CSR: `fan[fan_start[s] .. fan_start[s+1]]`.
    fan_start: Vec<u32>,
    fan: Vec<u32>,
    dirty: Vec<u64>,
    any_dirty: bool,
    dffs: Vec<Dff>,
    /// Flip-flops reading each slot (through `D`), CSR like `fan`.
    dff_fan_start: Vec<u32>,
    dff_fan: Vec<u32>,
    /// Flip-flops whose `D` may differ from `Q` (its inputs changed since it last sampled).
    dff_dirty: Vec<u64>,
    /// Whether each slot clocks flip-flops.
    is_clock: Vec<bool>,
    mems: Vec<Vec<u64>>,
    mem_writes: Vec<MemWrite>,
    /// Combinational cells reading each memory (marked dirty when it is written).
    mem_readers: Vec<Vec<u32>>,
    named: Vec<Named>,
    by_name: HashMap<String, usize>,
    updates: Vec<(u32, u64)>,
    evals: u64,
    /// Slots of the data inputs and words of the outputs in the bulk layouts.
    data_input_slots: Vec<u32>,
    output_words: usize,
    /// The module's name (names the native library in the cache).
    top: String,
    /// Compiled native code, when loaded ([`NetSim::native`]): it then settles and clocks instead
    /// of the interpreter.
    native: Option<native::Native>,
}

impl NetSim {
    #[allow(clippy::too_many_arguments)]
    fn new(
        widths: Vec<u8>,
        cells: Vec<Cell>,
        segs: Vec<Seg>,
        cases: Vec<Operand>,
        dffs: Vec<Dff>,
        mems: Vec<Vec<u64>>,
        mem_writes: Vec<MemWrite>,
        named: Vec<Named>,
        ones: &[(u32, u8)],
    ) -> Self {
        let mut readers: Vec<Vec<u32>> = vec![Vec::new(); widths.len()];
        let mut srcs = Vec::new();
        for (i, c) in cells.iter().enumerate() {
            srcs.clear();
            for op in [&c.a, &c.b, &c.s] {
                compile::sources(op, &segs, &mut srcs);
            }
            if let Op::Pmux { start, n } = c.op {
                for op in &cases[start as usize..(start + n) as usize] {
                    compile::sources(op, &segs, &mut srcs);
                }
            }
            srcs.sort_unstable();
            srcs.dedup();
            for &s in &srcs {
                readers[s as usize].push(i as u32);
            }
        }
        let (fan_start, fan) = csr(&readers);
        let mut dff_readers: Vec<Vec<u32>> = vec![Vec::new(); widths.len()];
        let mut is_clock = vec![false; widths.len()];
        for (i, d) in dffs.iter().enumerate() {
            is_clock[d.clk_slot as usize] = true;
            srcs.clear();
            compile::sources(&d.d, &segs, &mut srcs);
            srcs.sort_unstable();
            srcs.dedup();
            for &s in &srcs {
                dff_readers[s as usize].push(i as u32);
            }
        }
        for w in &mem_writes {
            is_clock[w.clk_slot as usize] = true;
        }
        let mut mem_readers: Vec<Vec<u32>> = vec![Vec::new(); mems.len()];
        for (i, c) in cells.iter().enumerate() {
            if let Op::MemRead { mem, .. } = c.op {
                mem_readers[mem as usize].push(i as u32);
            }
        }
        let (dff_fan_start, dff_fan) = csr(&dff_readers);
        let dff_dirty = all_set(dffs.len());
        let by_name = named
            .iter()
            .enumerate()
            .map(|(i, n)| (n.name.clone(), i))
            .collect();
        let mut sim = Self {
            vals: vec![0; widths.len()],
            widths,
            dirty: all_set(cells.len()),
            any_dirty: true,
            cells,
            segs,
            cases,
            fan_start,
            fan,
            dffs,
            dff_fan_start,
            dff_fan,
            dff_dirty,
            is_clock,
            mems,
            mem_writes,
            mem_readers,
            named,
            by_name,
            updates: Vec::new(),
            evals: 0,
            top: String::new(),
            native: None,
            data_input_slots: Vec::new(),
            output_words: 0,
        };
        sim.data_input_slots = sim.data_input_slots();
        sim.output_words = sim.outputs().iter().map(|&h| sim.words(h)).sum();
        for &(slot, bit) in ones {
            sim.vals[slot as usize] |= 1 << bit;
        }
        sim.settle();
        sim
    }

    /// Compiles the netlist Yosys makes of `verilog` (module `top`), cached in `cache_dir`, in
    /// [`Mode::from_env`]'s mode: native code unless `TEXPIX_NATIVE=0`, interpreted (with one line
    /// on stderr saying why) where no C compiler works.
    pub fn from_verilog(verilog: &str, top: &str, cache_dir: &Path) -> Result<Self, String> {
        Self::from_verilog_in(verilog, top, cache_dir, Mode::from_env())
    }

    /// [`NetSim::from_verilog`] in a given mode.
    pub fn from_verilog_in(
        verilog: &str,
        top: &str,
        cache_dir: &Path,
        mode: Mode,
    ) -> Result<Self, String> {
        let json = yosys::netlist_json(verilog, top, cache_dir)?;
        let sim = compile(&json, top)?;
        let part = std::env::var("TEXPIX_NATIVE_PART")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(native::PART_CELLS);
        match mode {
            Mode::Interpret => Ok(sim),
            Mode::Native => sim.native(part),
            Mode::Auto => match sim.clone().native(part) {
                Ok(fast) => Ok(fast),
                Err(e) => {
                    eprintln!("texpix: interpreting the netlist of {top} (no native code: {e})");
                    Ok(sim)
                }
            },
        }
    }

    /// The named signals (sorted by name); a signal's handle is its index here.
    pub fn signals(&self) -> &[Named] {
        &self.named
    }

    /// The handle of signal `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// Whether input `h` clocks flip-flops.
    pub fn is_clock(&self, h: usize) -> bool {
        self.named[h]
            .input_slots
            .iter()
            .any(|&s| self.is_clock[s as usize])
    }

    /// Combinational cells, flip-flops (words) and word slots: the compiled size.
    pub fn size(&self) -> (usize, usize, usize) {
        (self.cells.len(), self.dffs.len(), self.vals.len())
    }

    /// Cell evaluations so far (activity).
    pub fn evaluations(&self) -> u64 {
        self.evals
    }

    #[inline(always)]
    fn read(&self, op: Operand) -> u64 {
        match op {
            Operand::Slot(s) => self.vals[s as usize],
            Operand::Const(k) => k,
            Operand::Gather { start, len, konst } => {
                let mut v = konst;
                for s in &self.segs[start as usize..(start + len) as usize] {
                    v |= ((self.vals[s.slot as usize] >> s.from) & mask(s.len)) << s.to;
                }
                v
            }
        }
    }

    #[inline(always)]
    fn eval(&self, c: &Cell) -> u64 {
        match c.op {
            Op::Mux => {
                if self.read(c.s) & 1 == 1 {
                    self.read(c.b)
                } else {
                    self.read(c.a)
                }
            }
            Op::Pmux { start, n } => {
                let s = self.read(c.s);
                if s == 0 {
                    self.read(c.a)
                } else {
                    let k = s.trailing_zeros();
                    if k < n {
                        self.read(self.cases[(start + k) as usize])
                    } else {
                        0
                    }
                }
            }
            Op::MemRead { mem, offset } => {
                let a = (self.read(c.a) as i64).wrapping_sub(offset);
                usize::try_from(a)
                    .ok()
                    .and_then(|i| self.mems[mem as usize].get(i))
                    .map_or(0, |v| v & mask(c.yw))
            }
            _ => c.compute(self.read(c.a), self.read(c.b), 0),
        }
    }

    #[inline(always)]
    fn mark(&mut self, slot: u32) {
        let (a, b) = (
            self.fan_start[slot as usize] as usize,
            self.fan_start[slot as usize + 1] as usize,
        );
        for &j in &self.fan[a..b] {
            self.dirty[j as usize / 64] |= 1 << (j % 64);
        }
        self.any_dirty |= a != b;
        let (a, b) = (
            self.dff_fan_start[slot as usize] as usize,
            self.dff_fan_start[slot as usize + 1] as usize,
        );
        for &j in &self.dff_fan[a..b] {
            self.dff_dirty[j as usize / 64] |= 1 << (j % 64);
        }
    }

    /// Switches to native code: the netlist as C, compiled by the system C compiler into a shared
    /// library (cached; see [`native`]) with partitions of `part_cells` cells
    /// ([`native::PART_CELLS`] is the default). The values so far are kept.
    pub fn native(mut self, part_cells: usize) -> Result<Self, String> {
        self.settle();
        let top = if self.top.is_empty() {
            "netlist"
        } else {
            &self.top
        };
        self.native = Some(native::load(&self, top, part_cells)?);
        self.settle();
        Ok(self)
    }

    /// Whether native code runs this netlist.
    pub fn is_native(&self) -> bool {
        self.native.is_some()
    }

    /// Evaluates every cell whose inputs changed, in dependency order, until nothing changes.
    pub fn settle(&mut self) {
        if let Some(n) = self.native.as_mut() {
            n.settle(&mut self.vals, &mut self.mems);
            return;
        }
        if !self.any_dirty {
            return;
        }
        for w in 0..self.dirty.len() {
            while self.dirty[w] != 0 {
                let bit = self.dirty[w].trailing_zeros() as usize;
                self.dirty[w] &= self.dirty[w] - 1;
                let c = &self.cells[w * 64 + bit];
                let (y, out) = (c.y as usize, self.eval(c));
                self.evals += 1;
                if out != self.vals[y] {
                    self.vals[y] = out;
                    self.mark(y as u32);
                }
            }
        }
        self.any_dirty = false;
    }

    /// Writes one input slot; an active clock edge makes its flip-flops sample first.
    #[inline]
    fn write_slot(&mut self, slot: u32, v: u64) {
        let old = self.vals[slot as usize];
        if old != v {
            self.write_changed(slot, old, v);
        }
    }

    /// [`NetSim::write_slot`] of a value that differs from the slot's.
    fn write_changed(&mut self, slot: u32, old: u64, v: u64) {
        if let Some(n) = self.native.as_mut() {
            if self.is_clock[slot as usize] {
                n.settle(&mut self.vals, &mut self.mems);
                n.edge(slot, old, v, &mut self.vals, &mut self.mems);
            }
            self.vals[slot as usize] = v;
            n.mark(slot);
            return;
        }
        if self.is_clock[slot as usize] {
            self.settle();
            let mut updates = std::mem::take(&mut self.updates);
            updates.clear();
            // Only flip-flops whose D changed since they last sampled can change (else Q = D).
            for w in 0..self.dff_dirty.len() {
                let mut bits = self.dff_dirty[w];
                while bits != 0 {
                    let f = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let d = self.dffs[f];
                    if d.clk_slot != slot {
                        continue;
                    }
                    let (was, now) = ((old >> d.clk_bit) & 1, (v >> d.clk_bit) & 1);
                    if was != now && (now == 1) == d.rising {
                        updates.push((d.q, self.read(d.d)));
                        self.dff_dirty[w] &= !(1 << (f % 64));
                    }
                }
            }
            // Memory writes clocked by this edge, sampled before anything changes.
            let mut writes: Vec<(u32, usize, u64, u64)> = Vec::new();
            for w in &self.mem_writes {
                let (was, now) = ((old >> w.clk_bit) & 1, (v >> w.clk_bit) & 1);
                if w.clk_slot != slot || was == now || (now == 1) != w.rising {
                    continue;
                }
                let en = self.read(w.en);
                let a = (self.read(w.addr) as i64).wrapping_sub(w.offset);
                if let (true, Ok(i)) = (en != 0, usize::try_from(a)) {
                    writes.push((w.mem, i, self.read(w.data), en));
                }
            }
            for (m, i, data, en) in writes {
                if let Some(word) = self.mems[m as usize].get_mut(i) {
                    let new = (*word & !en) | (data & en);
                    if new != *word {
                        *word = new;
                        for &j in &self.mem_readers[m as usize] {
                            self.dirty[j as usize / 64] |= 1 << (j % 64);
                            self.any_dirty = true;
                        }
                    }
                }
            }
            self.vals[slot as usize] = v;
            self.mark(slot);
            for &(q, val) in &updates {
                if self.vals[q as usize] != val {
                    self.vals[q as usize] = val;
                    self.mark(q);
                }
            }
            self.updates = updates;
        } else {
            self.vals[slot as usize] = v;
            self.mark(slot);
        }
    }

    /// Drives input `h` with `v` (takes effect at the next [`NetSim::settle`]; a clock input's
    /// active edge clocks its flip-flops at once, on the values settled before the write).
    #[inline]
    pub fn set(&mut self, h: usize, v: u128) -> Result<(), String> {
        let n = &self.named[h];
        if n.dir != PortDir::Input || (n.width < 128 && v >> n.width != 0) {
            return Err(self.set_error(h, v));
        }
        if let [slot] = n.input_slots[..] {
            self.write_slot(slot, v as u64);
            return Ok(());
        }
        for k in 0..n.input_slots.len() {
            let slot = self.named[h].input_slots[k];
            let part = (v >> (64 * k)) as u64 & mask(self.widths[slot as usize]);
            self.write_slot(slot, part);
        }
        Ok(())
    }

    #[cold]
    fn set_error(&self, h: usize, v: u128) -> String {
        let n = &self.named[h];
        if n.dir != PortDir::Input {
            format!("{} is not an input", n.name)
        } else {
            format!("{v:#x} does not fit {} ({} bits)", n.name, n.width)
        }
    }

    /// The data inputs (every input port that clocks nothing), in name order: the layout of
    /// [`NetSim::set_inputs`]'s words, one per 64 bits of each port.
    pub fn data_inputs(&self) -> Vec<usize> {
        (0..self.named.len())
            .filter(|&h| self.named[h].dir == PortDir::Input && !self.is_clock(h))
            .collect()
    }

    /// The slots of [`NetSim::data_inputs`], in order.
    fn data_input_slots(&self) -> Vec<u32> {
        self.data_inputs()
            .into_iter()
            .flat_map(|h| self.named[h].input_slots.iter().copied())
            .collect()
    }

    /// The output ports, in name order: the layout of [`NetSim::get_outputs`]'s words, one per 64
    /// bits of each port (at most two).
    pub fn outputs(&self) -> Vec<usize> {
        (0..self.named.len())
            .filter(|&h| self.named[h].dir == PortDir::Output)
            .collect()
    }

    /// Words of a port in the bulk layouts.
    pub fn words(&self, h: usize) -> usize {
        self.named[h].width.div_ceil(64).clamp(1, 2)
    }

    /// Writes every data input at once: `words` holds [`NetSim::data_inputs`]' values in order, one
    /// word per 64 bits of each port (bits above a port's width are ignored). Like
    /// [`NetSim::set`] for each, in one call.
    pub fn set_inputs(&mut self, words: &[u64]) -> Result<(), String> {
        let slots = self.data_input_slots.len();
        if words.len() != slots {
            return Err(format!(
                "set_inputs: {} words given, the data inputs take {slots}",
                words.len()
            ));
        }
        if let Some(n) = self.native.as_mut() {
            n.set_inputs(&mut self.vals, words);
        } else {
            for (k, &w) in words.iter().enumerate() {
                let slot = self.data_input_slots[k];
                self.write_slot(slot, w & mask(self.widths[slot as usize]));
            }
        }
        Ok(())
    }

    /// Reads every output at once into `words` ([`NetSim::outputs`]' layout).
    pub fn get_outputs(&self, words: &mut [u64]) -> Result<(), String> {
        if words.len() != self.output_words {
            return Err(format!(
                "get_outputs: room for {} words, the outputs take {}",
                words.len(),
                self.output_words
            ));
        }
        if let Some(n) = self.native.as_ref() {
            n.get_outputs(&self.vals, words);
        } else {
            let mut k = 0;
            for n in self.named.iter().filter(|n| n.dir == PortDir::Output) {
                words[k] = self.read(n.lo);
                k += 1;
                if n.width > 64 {
                    words[k] = self.read(n.hi);
                    k += 1;
                }
            }
        }
        Ok(())
    }

    /// The value of signal `h` (call [`NetSim::settle`] after writes first).
    pub fn get(&self, h: usize) -> u128 {
        let n = &self.named[h];
        self.read(n.lo) as u128 | (self.read(n.hi) as u128) << 64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4-bit counter with a synchronous reset and an enable, written as Yosys would emit it.
    const COUNTER: &str = r#"{"modules": {"top": {
        "ports": {
            "clock": {"direction": "input", "bits": [2]},
            "reset": {"direction": "input", "bits": [3]},
            "en": {"direction": "input", "bits": [4]},
            "count": {"direction": "output", "bits": [5, 6, 7, 8]},
            "wrap": {"direction": "output", "bits": [20]}
        },
        "cells": {
            "add": {"type": "$add", "parameters": {"A_SIGNED": "0", "A_WIDTH": "00000000000000000000000000000100", "B_SIGNED": "0", "B_WIDTH": "1", "Y_WIDTH": "100"},
                    "connections": {"A": [5, 6, 7, 8], "B": ["1"], "Y": [9, 10, 11, 12]}},
            "mux_en": {"type": "$mux", "parameters": {"WIDTH": "100"},
                    "connections": {"A": [5, 6, 7, 8], "B": [9, 10, 11, 12], "S": [4], "Y": [13, 14, 15, 16]}},
            "mux_rst": {"type": "$mux", "parameters": {"WIDTH": "100"},
                    "connections": {"A": [13, 14, 15, 16], "B": ["0", "0", "0", "0"], "S": [3], "Y": [17, 18, 19, 21]}},
            "ff": {"type": "$dff", "parameters": {"CLK_POLARITY": "1", "WIDTH": "100"},
                    "connections": {"CLK": [2], "D": [17, 18, 19, 21], "Q": [5, 6, 7, 8]}},
            "all1": {"type": "$reduce_and", "parameters": {"A_SIGNED": "0", "A_WIDTH": "100", "Y_WIDTH": "1"},
                    "connections": {"A": [5, 6, 7, 8], "Y": [20]}}
        },
        "netnames": {
            "count": {"hide_name": 0, "bits": [5, 6, 7, 8]},
            "next": {"hide_name": 0, "bits": [17, 18, 19, 21]},
            "hi2": {"hide_name": 0, "bits": [7, 8, "1"]},
            "clock": {"hide_name": 0, "bits": [2]},
            "reset": {"hide_name": 0, "bits": [3]},
            "en": {"hide_name": 0, "bits": [4]},
            "wrap": {"hide_name": 0, "bits": [20]}
        }
    }}}"#;

    fn clock(s: &mut NetSim, clk: usize) {
        s.set(clk, 1).unwrap();
        s.settle();
        s.set(clk, 0).unwrap();
        s.settle();
    }

    #[test]
    fn counter_counts_resets_and_wraps() {
        let mut s = compile(COUNTER, "top").unwrap();
        let [clk, rst, en, count, wrap, hi2, next] =
            ["clock", "reset", "en", "count", "wrap", "hi2", "next"].map(|n| s.find(n).unwrap());
        assert_eq!(s.get(count), 0);
        s.set(en, 1).unwrap();
        s.settle();
        assert_eq!(s.get(next), 1, "settled before the edge");
        for k in 1..=15u128 {
            clock(&mut s, clk);
            assert_eq!(s.get(count), k);
            assert_eq!(s.get(hi2), 0b100 | (k >> 2));
        }
        assert_eq!(s.get(wrap), 1);
        clock(&mut s, clk);
        assert_eq!(s.get(count), 0, "wraps");
        s.set(en, 0).unwrap();
        clock(&mut s, clk);
        assert_eq!(s.get(count), 0, "holds");
        s.set(en, 1).unwrap();
        clock(&mut s, clk);
        clock(&mut s, clk);
        s.set(rst, 1).unwrap();
        s.settle();
        assert_eq!(s.get(count), 2);
        clock(&mut s, clk);
        assert_eq!(s.get(count), 0, "synchronous reset");
        // A falling edge does not clock a rising-edge flip-flop; a value that does not fit is refused.
        assert!(s.set(en, 2).is_err());
        assert!(s.set(count, 1).is_err());
    }

    #[test]
    fn loops_and_unknown_cells_are_errors() {
        let looped = COUNTER
            .replace(r#""type": "$dff""#, r#""type": "$or""#)
            .replace(
                r#""CLK": [2], "D": [17, 18, 19, 21], "Q": [5, 6, 7, 8]"#,
                r#""A": [17, 18, 19, 21], "B": [2], "Y": [5, 6, 7, 8]"#,
            );
        let e = compile(&looped, "top").err().unwrap();
        assert!(e.contains("combinational loop"), "{e}");
        let alien = COUNTER.replace("$reduce_and", "$fancy");
        let e = compile(&alien, "top").err().unwrap();
        assert!(e.contains("`all1`") && e.contains("$fancy"), "{e}");
        assert!(compile(COUNTER, "nope")
            .err()
            .unwrap()
            .contains("no module `nope`"));
    }
}
