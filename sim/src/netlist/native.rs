//! Native code for a [`NetSim`]: the levelised netlist written out as C, compiled once by the
//! system C compiler into a shared library (cached by hash), and loaded into the process.
//!
//! The generated code evaluates the same cells on the same word slots as the interpreter
//! ([`super::ops::Cell::compute`] is the reference for every operator), so a [`NetSim`] switches
//! between the two without any other change: `set`, `get`, names and VCD all read the slot array.
//!
//! - **Partitions.** Cells are ordered depth first from the flip-flops and outputs back to the
//!   inputs (a topological order that keeps each cone together) and cut into partitions of
//!   [`PART_CELLS`] cells, one C function each. A partition runs only when one of the slots it reads
//!   from outside changed: a cell whose output is read by later partitions compares the new value
//!   with the old and flags its readers. Idle logic costs one test per partition.
//! - **Clock edges.** One function per (clock, edge) samples every flip-flop's `D` and every memory
//!   write port's address, data and enable, then updates `Q`s and memory words, flagging the
//!   partitions that read what changed (an HDL's non-blocking assignment).
//! - **Build.** `cc -O1 -shared -fPIC` (`$CC` overrides `cc`); the library is cached under
//!   [`native_cache_dir`] by the FNV hash of the C text, the compiler's version and the flags.

use super::build_lock::{Acquired, BuildLock};
use super::ops::{mask, Cell, Op, Operand};
use super::yosys::{cache_dir, fnv};
use super::NetSim;
use std::ffi::{c_void, CString};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// Cells per partition (one C function).
pub const PART_CELLS: usize = 400;

/// Designs of this many cells or more are compiled as several translation units in parallel.
pub const SPLIT_CELLS: usize = 20_000;

/// Flags of the link step (each translation unit is compiled `-c -O2 -fPIC`).
const CFLAGS: [&str; 3] = ["-O2", "-shared", "-fPIC"];

/// `settle(v, m, d)`: runs the flagged partitions in order.
type SettleFn = unsafe extern "C" fn(*mut u64, *const *mut u64, *mut u8);
/// `edge(v, m, d)`: one clock edge; returns 1 if any flip-flop or memory word changed.
type EdgeFn = unsafe extern "C" fn(*mut u64, *const *mut u64, *mut u8) -> i32;
/// `set_inputs(v, d, words)`: writes the data inputs ([`NetSim::data_inputs`]); returns 1 if any
/// changed.
type SetInputsFn = unsafe extern "C" fn(*mut u64, *mut u8, *const u64) -> i32;
/// `get_outputs(v, words)`: reads the outputs ([`NetSim::outputs`]).
type GetOutputsFn = unsafe extern "C" fn(*const u64, *mut u64);

/// Where compiled netlists are cached: beside the netlist cache, in `native/`.
pub fn native_cache_dir() -> PathBuf {
    cache_dir().with_file_name("native")
}

/// An open shared library (never unloaded: its functions may be held by clones).
struct Library(*mut c_void);
// SAFETY: the handle is only used to look symbols up; the library's code has no global state.
unsafe impl Send for Library {}
unsafe impl Sync for Library {}

/// The loaded native code of one netlist and the per-instance partition flags.
#[derive(Clone)]
pub(super) struct Native {
    _lib: Arc<Library>,
    settle: SettleFn,
    set_inputs: SetInputsFn,
    get_outputs: GetOutputsFn,
    /// Per (clock slot, bit, rising): its edge function.
    edges: Vec<(u32, u8, bool, EdgeFn)>,
    /// Partitions reading each slot (CSR), flagged when the test bench writes it.
    part_start: Vec<u32>,
    parts: Vec<u32>,
    /// One flag per partition: its inputs changed.
    flags: Vec<u8>,
    /// Whether any flag may be set.
    pub(super) pending: bool,
}

impl Native {
    /// Flags the partitions reading `slot`.
    #[inline]
    pub(super) fn mark(&mut self, slot: u32) {
        let (a, b) = (
            self.part_start[slot as usize] as usize,
            self.part_start[slot as usize + 1] as usize,
        );
        for &p in &self.parts[a..b] {
            self.flags[p as usize] = 1;
        }
        self.pending |= a != b;
    }

    /// Runs the flagged partitions.
    pub(super) fn settle(&mut self, vals: &mut [u64], mems: &mut [Vec<u64>]) {
        if !self.pending {
            return;
        }
        let (f, flags) = (self.settle, self.flags.as_mut_ptr());
        // SAFETY: the code was generated for exactly these slots and memories.
        with_ptrs(mems, |m| unsafe { f(vals.as_mut_ptr(), m, flags) });
        self.pending = false;
    }

    /// Writes every data input from `words` (see [`NetSim::set_inputs`]).
    pub(super) fn set_inputs(&mut self, vals: &mut [u64], words: &[u64]) {
        // SAFETY: `words` holds one word per data-input slot (checked by the caller).
        let changed = unsafe {
            (self.set_inputs)(vals.as_mut_ptr(), self.flags.as_mut_ptr(), words.as_ptr())
        };
        self.pending |= changed != 0;
    }

    /// Reads every output into `words` (see [`NetSim::get_outputs`]).
    pub(super) fn get_outputs(&self, vals: &[u64], words: &mut [u64]) {
        // SAFETY: `words` has room for every output word (checked by the caller).
        unsafe { (self.get_outputs)(vals.as_ptr(), words.as_mut_ptr()) };
    }

    /// Clocks the flip-flops and memory writes of `slot`'s bit edges between `old` and `new`.
    pub(super) fn edge(
        &mut self,
        slot: u32,
        old: u64,
        new: u64,
        vals: &mut [u64],
        mems: &mut [Vec<u64>],
    ) {
        for &(s, bit, rising, f) in &self.edges {
            let (was, now) = ((old >> bit) & 1, (new >> bit) & 1);
            if s == slot && was != now && (now == 1) == rising {
                let flags = self.flags.as_mut_ptr();
                // SAFETY: as in `settle`.
                let changed = with_ptrs(mems, |m| unsafe { f(vals.as_mut_ptr(), m, flags) });
                self.pending |= changed != 0;
            }
        }
    }
}

/// Calls `f` with an array of the memories' base pointers (on the stack for up to 32 memories).
#[inline]
fn with_ptrs<R>(mems: &mut [Vec<u64>], f: impl FnOnce(*const *mut u64) -> R) -> R {
    if mems.len() <= 32 {
        let mut ptrs = [std::ptr::null_mut::<u64>(); 32];
        for (p, m) in ptrs.iter_mut().zip(mems.iter_mut()) {
            *p = m.as_mut_ptr();
        }
        f(ptrs.as_ptr())
    } else {
        let ptrs: Vec<*mut u64> = mems.iter_mut().map(|m| m.as_mut_ptr()).collect();
        f(ptrs.as_ptr())
    }
}

/// C source of `sim` (translation units; the first has the entry points), its partition count and
/// the partitions reading each slot.
pub(super) struct Generated {
    /// Each translation unit and its optimisation flag.
    pub c: Vec<(String, &'static str)>,
    pub n_parts: usize,
    pub slot_parts: Vec<Vec<u32>>,
    pub edges: Vec<(u32, u8, bool)>,
}

/// Names slots in C: a slot only its own partition reads, and nothing else (no name, flip-flop,
/// memory port or other partition), is a local variable `t<slot>`; every other slot is `v[slot]`.
struct Slots<'a> {
    sim: &'a NetSim,
    local: Vec<bool>,
}

impl Slots<'_> {
    fn name(&self, s: u32) -> String {
        if self.local[s as usize] {
            format!("t{s}")
        } else {
            format!("v[{s}]")
        }
    }
}

/// The C expression of an operand.
fn operand(slots: &Slots, op: Operand) -> String {
    let sim = slots.sim;
    match op {
        Operand::Slot(s) => slots.name(s),
        Operand::Const(k) => format!("{k:#x}ULL"),
        Operand::Gather { start, len, konst } => {
            let mut parts = Vec::new();
            for s in &sim.segs[start as usize..(start + len) as usize] {
                let w = sim.widths[s.slot as usize];
                let mut e = slots.name(s.slot);
                if s.from > 0 {
                    e = format!("({e} >> {})", s.from);
                }
                if s.from as u32 + s.len as u32 != w as u32 {
                    e = format!("({e} & {:#x}ULL)", mask(s.len));
                }
                if s.to > 0 {
                    e = format!("({e} << {})", s.to);
                }
                parts.push(e);
            }
            if konst != 0 || parts.is_empty() {
                parts.push(format!("{konst:#x}ULL"));
            }
            format!("({})", parts.join(" | "))
        }
    }
}

/// `x` (a `w`-bit value) extended by its signedness to 64 bits.
fn ext(x: &str, w: u8, signed: bool) -> String {
    if signed && w > 0 && w < 64 {
        format!("SX({x}, {})", 64 - w)
    } else {
        x.to_string()
    }
}

/// A C statement block setting `y` to cell `c`'s output (mirrors [`Cell::compute`]).
fn cell_expr(slots: &Slots, c: &Cell) -> String {
    let sim = slots.sim;
    let (a, b, s) = (
        operand(slots, c.a),
        operand(slots, c.b),
        operand(slots, c.s),
    );
    let both = c.a_signed && c.b_signed;
    let ea = ext("a", c.aw, both);
    let eb = ext("b", c.bw, both);
    let xa = ext("a", c.aw, c.a_signed);
    let wide = if c.aw.max(c.yw) >= 64 {
        xa.clone()
    } else {
        format!("({xa} & {:#x}ULL)", mask(c.aw.max(c.yw)))
    };
    let cmp = |o: &str| {
        if both {
            format!("(u64)((i64){ea} {o} (i64){eb})")
        } else {
            format!("(u64)({ea} {o} {eb})")
        }
    };
    let body = match c.op {
        Op::Add => format!("{ea} + {eb}"),
        Op::Sub => format!("{ea} - {eb}"),
        Op::Mul => format!("{ea} * {eb}"),
        Op::And => format!("{ea} & {eb}"),
        Op::Or => format!("{ea} | {eb}"),
        Op::Xor => format!("{ea} ^ {eb}"),
        Op::Xnor => format!("~({ea} ^ {eb})"),
        Op::Not => format!("~{xa}"),
        Op::Neg => format!("(u64)0 - {xa}"),
        Op::Pos => xa.clone(),
        Op::LogicNot => "(u64)(a == 0)".into(),
        Op::LogicAnd => "(u64)(a != 0 && b != 0)".into(),
        Op::LogicOr => "(u64)(a != 0 || b != 0)".into(),
        Op::ReduceOr => "(u64)(a != 0)".into(),
        Op::ReduceAnd => format!("(u64)(a == {:#x}ULL)", mask(c.aw)),
        Op::ReduceXor => "(u64)__builtin_parityll(a)".into(),
        Op::ReduceXnor => "(u64)!__builtin_parityll(a)".into(),
        Op::Eq => format!("(u64)({ea} == {eb})"),
        Op::Ne => format!("(u64)({ea} != {eb})"),
        Op::Lt => cmp("<"),
        Op::Le => cmp("<="),
        Op::Gt => cmp(">"),
        Op::Ge => cmp(">="),
        Op::Shl => format!("SHL({xa}, b)"),
        Op::Shr => format!("SHR({wide}, b)"),
        Op::Sshr => {
            if c.a_signed {
                format!("(u64)((i64){xa} >> (b < 63 ? b : 63))")
            } else {
                "SHR(a, b)".into()
            }
        }
        Op::Shift => format!("SHIFT({xa}, {wide}, (i64){})", ext("b", c.bw, c.b_signed)),
        Op::Shiftx => format!("SHIFT(a, a, (i64){})", ext("b", c.bw, c.b_signed)),
        Op::Mux => return format!("y = ({s} & 1) ? {b} : {a};"),
        Op::Pmux { start, n } => {
            let mut e = format!("{{ u64 s = {s}; ");
            for k in 0..n {
                let case = operand(slots, sim.cases[(start + k) as usize]);
                let _ = write!(e, "if (s & {:#x}ULL) y = {case}; else ", 1u64 << k);
            }
            let _ = write!(e, "y = {a}; }}");
            return e;
        }
        Op::MemRead { mem, offset } => {
            let size = sim.mems[mem as usize].len();
            return format!(
                "{{ u64 i = {a} - (u64)({offset}LL); y = i < {size}ULL ? m[{mem}][i] & {:#x}ULL : 0; }}",
                mask(c.yw)
            );
        }
    };
    let masked = if c.yw >= 64 {
        body
    } else {
        format!("({body}) & {:#x}ULL", mask(c.yw))
    };
    format!("{{ u64 a = {a}, b = {b}; y = {masked}; }}")
}

const PRELUDE: &str = r#"#include <stdint.h>
typedef uint64_t u64;
typedef int64_t i64;
#define SX(x, s) ((u64)(((i64)((u64)(x) << (s))) >> (s)))
static inline u64 SHL(u64 v, u64 n) { return n >= 64 ? 0 : v << n; }
static inline u64 SHR(u64 v, u64 n) { return n >= 64 ? 0 : v >> n; }
static inline u64 SHIFT(u64 left, u64 right, i64 n) {
    return n < 0 ? SHL(left, (u64)0 - (u64)n) : SHR(right, (u64)n);
}
"#;

/// A cell's operand fields (A, B, S and a `$pmux`'s cases).
fn operands<'a>(sim: &'a NetSim, c: &'a Cell) -> impl Iterator<Item = &'a Operand> {
    let cases: &[Operand] = match c.op {
        Op::Pmux { start, n } => &sim.cases[start as usize..(start + n) as usize],
        _ => &[],
    };
    [&c.a, &c.b, &c.s].into_iter().chain(cases)
}

/// C statements setting the flags of `parts`, except partition `skip`.
fn flags(parts: &[u32], skip: u32) -> String {
    parts
        .iter()
        .filter(|&&p| p != skip)
        .map(|p| format!("d[{p}] = 1; "))
        .collect()
}

/// Writes a cell and its output's store: a C local, a slot, or a slot and the flags of the
/// partitions reading it when it changed.
fn emit_cell(slots: &Slots, slot_parts: &[Vec<u32>], cell: &Cell, p: u32, c: &mut String) {
    let _ = writeln!(c, "  {}", cell_expr(slots, cell));
    let y = cell.y;
    let marks = flags(&slot_parts[y as usize], p);
    if slots.local[y as usize] {
        let _ = writeln!(c, "  u64 t{y} = y;");
    } else if marks.is_empty() {
        let _ = writeln!(c, "  v[{y}] = y;");
    } else {
        let _ = writeln!(c, "  if (y != v[{y}]) {{ v[{y}] = y; {marks}}}");
    }
}

/// Generates the C code of `sim` with partitions of `part_cells` cells.
pub(super) fn generate(sim: &NetSim, part_cells: usize) -> Generated {
    let n_slots = sim.widths.len();
    let n_cells = sim.cells.len();
    // Driver cell of each slot.
    let mut driver = vec![u32::MAX; n_slots];
    for (i, c) in sim.cells.iter().enumerate() {
        driver[c.y as usize] = i as u32;
    }
    let cell_sources = |i: usize| {
        let mut srcs = Vec::new();
        for op in operands(sim, &sim.cells[i]) {
            super::compile::sources(op, &sim.segs, &mut srcs);
        }
        srcs.sort_unstable();
        srcs.dedup();
        srcs
    };
    let sources: Vec<Vec<u32>> = (0..n_cells).map(cell_sources).collect();

    // Depth-first post-order from the sinks (flip-flop inputs, memory writes, outputs, then every
    // cell): a topological order in which each cone's cells sit together.
    let mut roots: Vec<u32> = Vec::new();
    let mut srcs = Vec::new();
    for d in &sim.dffs {
        srcs.clear();
        super::compile::sources(&d.d, &sim.segs, &mut srcs);
        roots.extend(&srcs);
    }
    for w in &sim.mem_writes {
        srcs.clear();
        for op in [&w.addr, &w.data, &w.en] {
            super::compile::sources(op, &sim.segs, &mut srcs);
        }
        roots.extend(&srcs);
    }
    for n in &sim.named {
        srcs.clear();
        super::compile::sources(&n.lo, &sim.segs, &mut srcs);
        super::compile::sources(&n.hi, &sim.segs, &mut srcs);
        roots.extend(&srcs);
    }
    let mut order: Vec<u32> = Vec::with_capacity(n_cells);
    let mut state = vec![0u8; n_cells]; // 0 new, 1 open, 2 done
    let mut visit = |start: u32, order: &mut Vec<u32>| {
        if state[start as usize] != 0 {
            return;
        }
        let mut stack: Vec<(u32, usize)> = vec![(start, 0)];
        state[start as usize] = 1;
        while let Some(&mut (cell, ref mut k)) = stack.last_mut() {
            let srcs = &sources[cell as usize];
            if *k < srcs.len() {
                let d = driver[srcs[*k] as usize];
                *k += 1;
                if d != u32::MAX && state[d as usize] == 0 {
                    state[d as usize] = 1;
                    stack.push((d, 0));
                }
            } else {
                state[cell as usize] = 2;
                order.push(cell);
                stack.pop();
            }
        }
    };
    for &s in &roots {
        let d = driver[s as usize];
        if d != u32::MAX {
            visit(d, &mut order);
        }
    }
    for i in 0..n_cells as u32 {
        visit(i, &mut order);
    }

    let part_cells = part_cells.max(1);
    let n_parts = n_cells.div_ceil(part_cells).max(1);
    let mut part_of = vec![0u32; n_cells];
    for (k, &c) in order.iter().enumerate() {
        part_of[c as usize] = (k / part_cells) as u32;
    }
    // Partitions reading each slot and each memory.
    let mut slot_parts: Vec<Vec<u32>> = vec![Vec::new(); n_slots];
    for (i, srcs) in sources.iter().enumerate() {
        for &s in srcs {
            slot_parts[s as usize].push(part_of[i]);
        }
    }
    let mut mem_parts: Vec<Vec<u32>> = vec![Vec::new(); sim.mems.len()];
    for (i, c) in sim.cells.iter().enumerate() {
        if let Op::MemRead { mem, .. } = c.op {
            mem_parts[mem as usize].push(part_of[i]);
        }
    }
    for p in slot_parts.iter_mut().chain(mem_parts.iter_mut()) {
        p.sort_unstable();
        p.dedup();
    }

    // Slots read outside their partition's code: by a name, a flip-flop or memory port, another
    // partition; the rest are C locals.
    let mut local = vec![false; n_slots];
    for (cell, &p) in sim.cells.iter().zip(&part_of) {
        let y = cell.y as usize;
        local[y] = slot_parts[y].iter().all(|&q| q == p);
    }
    let mut srcs = Vec::new();
    for n in &sim.named {
        super::compile::sources(&n.lo, &sim.segs, &mut srcs);
        super::compile::sources(&n.hi, &sim.segs, &mut srcs);
    }
    for d in &sim.dffs {
        super::compile::sources(&d.d, &sim.segs, &mut srcs);
    }
    for w in &sim.mem_writes {
        for op in [&w.addr, &w.data, &w.en] {
            super::compile::sources(op, &sim.segs, &mut srcs);
        }
    }
    for &s in &srcs {
        local[s as usize] = false;
    }
    // A cell whose output nothing reads (no cell, name, flip-flop or memory port) is dead.
    let mut read = vec![false; n_slots];
    for srcs in &sources {
        for &s in srcs {
            read[s as usize] = true;
        }
    }
    let slots = Slots { sim, local };
    // A small design is one translation unit at `-O2`, its partitions static (inlined into settle).
    // A large one (≥ SPLIT_CELLS cells) has its partitions in up to (cores) units compiled in
    // parallel at `-O2`, and the entry points (settle, edges, ports: long straight-line functions,
    // slow to optimise and simple) in a unit of their own at `-O1`.
    let n_used = order.len().div_ceil(part_cells);
    let split = n_cells >= SPLIT_CELLS;
    let files = if split {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, 8)
    } else {
        1
    };
    let head = format!(
        "{PRELUDE}#define P(name) {}void name(u64 *restrict v, u64 *const *restrict m, uint8_t *restrict d)\n",
        if split { "" } else { "static " }
    );
    let mut units: Vec<String> = vec![head; files + split as usize];
    for (p, chunk) in order.chunks(part_cells).enumerate() {
        let unit = &mut units[split as usize + p * files / n_used.max(1)];
        let _ = writeln!(unit, "P(texpix_p{p}) {{\n  u64 y;");
        for &i in chunk {
            let cell = &sim.cells[i as usize];
            if !slots.local[cell.y as usize] || read[cell.y as usize] {
                emit_cell(&slots, &slot_parts, cell, p as u32, unit);
            }
        }
        unit.push_str("}\n");
    }
    let mut c = std::mem::take(&mut units[0]);
    if split {
        for p in 0..n_used {
            let _ = writeln!(c, "P(texpix_p{p});");
        }
    }
    c.push_str(
        "void texpix_settle(u64 *restrict v, u64 *const *restrict m, uint8_t *restrict d) {\n",
    );
    for p in 0..n_used {
        let _ = writeln!(c, "  if (d[{p}]) {{ d[{p}] = 0; texpix_p{p}(v, m, d); }}");
    }
    c.push_str("}\n");

    // Clock edges.
    let mut edges: Vec<(u32, u8, bool)> = Vec::new();
    for d in &sim.dffs {
        let k = (d.clk_slot, d.clk_bit, d.rising);
        if !edges.contains(&k) {
            edges.push(k);
        }
    }
    for w in &sim.mem_writes {
        let k = (w.clk_slot, w.clk_bit, w.rising);
        if !edges.contains(&k) {
            edges.push(k);
        }
    }
    for (g, &(slot, bit, rising)) in edges.iter().enumerate() {
        let _ = writeln!(
            c,
            "int texpix_edge{g}(u64 *restrict v, u64 *const *restrict m, uint8_t *restrict d) {{\n  int ch = 0;"
        );
        let ffs: Vec<_> = sim
            .dffs
            .iter()
            .filter(|d| (d.clk_slot, d.clk_bit, d.rising) == (slot, bit, rising))
            .collect();
        let wrs: Vec<_> = sim
            .mem_writes
            .iter()
            .filter(|w| (w.clk_slot, w.clk_bit, w.rising) == (slot, bit, rising))
            .collect();
        let _ = writeln!(c, "  u64 t[{}];", ffs.len().max(1));
        for (k, f) in ffs.iter().enumerate() {
            let _ = writeln!(c, "  t[{k}] = {};", operand(&slots, f.d));
        }
        for (k, w) in wrs.iter().enumerate() {
            let _ = writeln!(
                c,
                "  u64 we{k} = {}, wa{k} = {} - (u64)({}LL), wd{k} = {};",
                operand(&slots, w.en),
                operand(&slots, w.addr),
                w.offset,
                operand(&slots, w.data)
            );
        }
        for (k, f) in ffs.iter().enumerate() {
            let q = f.q;
            let _ = writeln!(
                c,
                "  if (t[{k}] != v[{q}]) {{ v[{q}] = t[{k}]; {}ch = 1; }}",
                flags(&slot_parts[q as usize], u32::MAX)
            );
        }
        for (k, w) in wrs.iter().enumerate() {
            let size = sim.mems[w.mem as usize].len();
            let _ = writeln!(
                c,
                "  if (we{k} && wa{k} < {size}ULL) {{ u64 *x = &m[{mem}][wa{k}]; u64 n = (*x & ~we{k}) | (wd{k} & we{k}); if (n != *x) {{ *x = n; {}ch = 1; }} }}",
                flags(&mem_parts[w.mem as usize], u32::MAX),
                mem = w.mem
            );
        }
        c.push_str("  return ch;\n}\n");
    }
    // Bulk port access.
    c.push_str("int texpix_set_inputs(u64 *restrict v, uint8_t *restrict d, const u64 *restrict in) {\n  int ch = 0;\n");
    for (k, &slot) in sim.data_input_slots().iter().enumerate() {
        let _ = writeln!(
            c,
            "  {{ u64 x = in[{k}] & {:#x}ULL; if (x != v[{slot}]) {{ v[{slot}] = x; {}ch = 1; }} }}",
            mask(sim.widths[slot as usize]),
            flags(&slot_parts[slot as usize], u32::MAX)
        );
    }
    c.push_str("  return ch;\n}\n");
    c.push_str("void texpix_get_outputs(const u64 *restrict v, u64 *restrict out) {\n");
    let mut k = 0;
    for n in sim.named.iter().filter(|n| n.dir == super::PortDir::Output) {
        let _ = writeln!(c, "  out[{k}] = {};", operand(&slots, n.lo));
        k += 1;
        if n.width > 64 {
            let _ = writeln!(c, "  out[{k}] = {};", operand(&slots, n.hi));
            k += 1;
        }
    }
    c.push_str("}\n");
    units[0] = c;
    Generated {
        c: units
            .into_iter()
            .enumerate()
            .map(|(k, u)| (u, if split && k == 0 { "-O1" } else { "-O2" }))
            .collect(),
        n_parts,
        slot_parts,
        edges,
    }
}

/// The C compiler: `$CC`, else `cc`.
fn compiler() -> String {
    std::env::var("CC")
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "cc".into())
}

/// Why the compiler failed: its status and the first lines it printed.
fn failed(cc: &str, top: &str, res: &std::process::Output) -> String {
    format!(
        "{cc} failed to compile the native code of {top} ({}): {}",
        res.status,
        String::from_utf8_lossy(&res.stderr)
            .lines()
            .take(5)
            .collect::<Vec<_>>()
            .join(" | ")
    )
}

/// Compiles the translation units `c` (in parallel, each with its optimisation flag) and links them into a shared library, cached in
/// `dir` by hash; returns its path. The sources stay beside it (`.c`, `.1.c`, …), for reading.
fn build(c: &[(String, &str)], top: &str, dir: &Path) -> Result<PathBuf, String> {
    let cc = compiler();
    let version = Command::new(&cc)
        .arg("--version")
        .output()
        .map_err(|e| format!("native netlist code needs a C compiler (`{cc}`): {e}"))?;
    let version = String::from_utf8_lossy(&version.stdout).to_string();
    let extra = std::env::var("TEXPIX_NATIVE_CFLAGS").unwrap_or_default();
    let mut parts: Vec<&[u8]> = c
        .iter()
        .flat_map(|(u, o)| [u.as_bytes(), o.as_bytes()])
        .collect();
    let flags = CFLAGS.join(" ");
    parts.extend([version.as_bytes(), flags.as_bytes(), extra.as_bytes()]);
    let key = fnv(&parts);
    let lib = dir.join(format!("{top}-{key:016x}.so"));
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("{}: cannot create the native cache: {e}", dir.display()))?;
    let _lock = match BuildLock::acquire(&lib) {
        Acquired::Ready => return Ok(lib),
        Acquired::Make(lock) => lock,
    };
    // Temporary names unique per process and call (two tests may build the same design at once).
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = format!("{top}-{key:016x}.{}-{call}", std::process::id());
    let name = |k: usize, ext: &str| match k {
        0 => format!("{tmp}.{ext}"),
        k => format!("{tmp}.{k}.{ext}"),
    };
    let mut jobs = Vec::new();
    for (k, (unit, opt)) in c.iter().enumerate() {
        let src = dir.join(name(k, "c"));
        std::fs::write(&src, unit).map_err(|e| format!("{}: {e}", src.display()))?;
        let obj = dir.join(name(k, "o"));
        let child = Command::new(&cc)
            .args(["-c", opt])
            .args(["-fPIC", "-w", "-fno-strict-aliasing"])
            .args(extra.split_whitespace())
            .arg("-o")
            .arg(&obj)
            .arg(&src)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| format!("running {cc}: {e}"))?;
        jobs.push((src, obj, child));
    }
    let out = dir.join(name(0, "so"));
    let mut error = None;
    let mut objs = Vec::new();
    let mut srcs = Vec::new();
    for (src, obj, child) in jobs {
        match child.wait_with_output() {
            Ok(res) if res.status.success() => {}
            Ok(res) => error = error.or(Some(failed(&cc, top, &res))),
            Err(e) => error = error.or(Some(format!("running {cc}: {e}"))),
        }
        objs.push(obj);
        srcs.push(src);
    }
    if error.is_none() {
        let res = Command::new(&cc)
            .args(CFLAGS)
            .arg("-o")
            .arg(&out)
            .args(&objs)
            .output()
            .map_err(|e| format!("running {cc}: {e}"))?;
        if !res.status.success() {
            error = Some(failed(&cc, top, &res));
        }
    }
    for obj in &objs {
        let _ = std::fs::remove_file(obj);
    }
    for (k, src) in srcs.iter().enumerate() {
        if error.is_some() {
            let _ = std::fs::remove_file(src);
        } else {
            let keep = match k {
                0 => lib.with_extension("c"),
                k => lib.with_extension(format!("{k}.c")),
            };
            let _ = std::fs::rename(src, keep);
        }
    }
    if let Some(e) = error {
        let _ = std::fs::remove_file(&out);
        return Err(e);
    }
    std::fs::rename(&out, &lib).map_err(|e| format!("{}: {e}", lib.display()))?;
    Ok(lib)
}

fn symbol(lib: &Library, name: &str, path: &Path) -> Result<*mut c_void, String> {
    let cname = CString::new(name).expect("no NUL in symbol names");
    // SAFETY: `lib.0` is a live handle from dlopen.
    let f = unsafe { libc::dlsym(lib.0, cname.as_ptr()) };
    if f.is_null() {
        Err(format!("{}: no symbol {name}", path.display()))
    } else {
        Ok(f)
    }
}

/// Generates, compiles (or finds in the cache) and loads the native code of `sim`.
pub(super) fn load(sim: &NetSim, top: &str, part_cells: usize) -> Result<Native, String> {
    let g = generate(sim, part_cells);
    let path = build(&g.c, top, &native_cache_dir())?;
    let cpath = CString::new(path.to_string_lossy().as_bytes())
        .map_err(|_| format!("{}: path contains NUL", path.display()))?;
    // SAFETY: loading a library this module generated; it has no constructors.
    let handle = unsafe { libc::dlopen(cpath.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    if handle.is_null() {
        // SAFETY: dlerror returns a C string or NULL.
        let why = unsafe {
            let e = libc::dlerror();
            if e.is_null() {
                "unknown error".to_string()
            } else {
                std::ffi::CStr::from_ptr(e).to_string_lossy().into_owned()
            }
        };
        return Err(format!("{}: cannot load: {why}", path.display()));
    }
    let lib = Library(handle);
    // SAFETY: the symbols were generated with exactly these signatures.
    let settle: SettleFn = unsafe { std::mem::transmute(symbol(&lib, "texpix_settle", &path)?) };
    let set_inputs: SetInputsFn =
        unsafe { std::mem::transmute(symbol(&lib, "texpix_set_inputs", &path)?) };
    let get_outputs: GetOutputsFn =
        unsafe { std::mem::transmute(symbol(&lib, "texpix_get_outputs", &path)?) };
    let mut edges = Vec::new();
    for (g_i, &(slot, bit, rising)) in g.edges.iter().enumerate() {
        let f: EdgeFn =
            unsafe { std::mem::transmute(symbol(&lib, &format!("texpix_edge{g_i}"), &path)?) };
        edges.push((slot, bit, rising, f));
    }
    let mut part_start = Vec::with_capacity(g.slot_parts.len() + 1);
    let mut parts = Vec::new();
    for p in &g.slot_parts {
        part_start.push(parts.len() as u32);
        parts.extend_from_slice(p);
    }
    part_start.push(parts.len() as u32);
    Ok(Native {
        _lib: Arc::new(lib),
        settle,
        set_inputs,
        get_outputs,
        edges,
        part_start,
        parts,
        flags: vec![1; g.n_parts],
        pending: true,
    })
}

#[cfg(test)]
mod tests {
    use super::super::compile;
    use crate::SplitMix64;
    use std::fmt::Write as _;

    /// Every word-level cell type the netlist compiler accepts, except memory reads (covered by the
    /// units' co-simulation tests).
    const TYPES: [&str; 30] = [
        "$add",
        "$sub",
        "$mul",
        "$and",
        "$or",
        "$xor",
        "$xnor",
        "$not",
        "$neg",
        "$pos",
        "$logic_not",
        "$logic_and",
        "$logic_or",
        "$reduce_or",
        "$reduce_and",
        "$reduce_xor",
        "$reduce_xnor",
        "$eq",
        "$ne",
        "$lt",
        "$le",
        "$gt",
        "$ge",
        "$shl",
        "$shr",
        "$sshr",
        "$shift",
        "$shiftx",
        "$mux",
        "$pmux",
    ];

    fn bits(first: u64, n: u64) -> String {
        let v: Vec<String> = (first..first + n).map(|b| b.to_string()).collect();
        format!("[{}]", v.join(", "))
    }

    fn width(rng: &mut SplitMix64) -> u64 {
        match rng.next_u64() % 4 {
            0 => 64,
            1 => 1 + rng.next_u64() % 8,
            _ => 1 + rng.next_u64() % 64,
        }
    }

    /// A netlist of `n` random cells, each reading the inputs `a`, `b`, `s` (64 bits each) and
    /// driving an output port `y<i>`.
    fn random_netlist(rng: &mut SplitMix64, n: usize) -> String {
        let (a0, b0, s0) = (2u64, 66u64, 130u64);
        let mut next = 200u64;
        let mut ports = format!(
            r#""a": {{"direction": "input", "bits": {}}}, "b": {{"direction": "input", "bits": {}}}, "s": {{"direction": "input", "bits": {}}}"#,
            bits(a0, 64),
            bits(b0, 64),
            bits(s0, 64)
        );
        let mut nets = format!(
            r#""a": {{"bits": {}}}, "b": {{"bits": {}}}, "s": {{"bits": {}}}"#,
            bits(a0, 64),
            bits(b0, 64),
            bits(s0, 64)
        );
        let mut cells = String::new();
        for i in 0..n {
            let kind = TYPES[(rng.next_u64() % TYPES.len() as u64) as usize];
            let signed = rng.next_u64() % 2;
            let (conns, params, yw);
            match kind {
                "$mux" => {
                    let w = width(rng);
                    yw = w;
                    params = format!(r#""WIDTH": {w}"#);
                    conns = format!(
                        r#""A": {}, "B": {}, "S": [{}]"#,
                        bits(a0, w),
                        bits(b0, w),
                        s0 + rng.next_u64() % 64
                    );
                }
                "$pmux" => {
                    let w = 1 + rng.next_u64() % 16;
                    let cases = 1 + rng.next_u64() % 4;
                    yw = w;
                    params = format!(r#""WIDTH": {w}, "S_WIDTH": {cases}"#);
                    // Case k reads b from bit 16k; S is `cases` bits of s.
                    let mut bb = Vec::new();
                    for k in 0..cases {
                        bb.extend((0..w).map(|j| (b0 + 16 * k + j).to_string()));
                    }
                    conns = format!(
                        r#""A": {}, "B": [{}], "S": {}"#,
                        bits(a0, w),
                        bb.join(", "),
                        bits(s0 + rng.next_u64() % 8, cases)
                    );
                }
                _ => {
                    let unary = matches!(
                        kind,
                        "$not"
                            | "$neg"
                            | "$pos"
                            | "$logic_not"
                            | "$reduce_or"
                            | "$reduce_and"
                            | "$reduce_xor"
                            | "$reduce_xnor"
                    );
                    let shift = kind.starts_with("$sh") || kind == "$sshr";
                    let aw = width(rng);
                    let bw = if shift {
                        1 + rng.next_u64() % 8
                    } else {
                        width(rng)
                    };
                    yw = width(rng);
                    let b_signed = if shift { rng.next_u64() % 2 } else { signed };
                    params = format!(
                        r#""A_SIGNED": {signed}, "B_SIGNED": {b_signed}, "A_WIDTH": {aw}, "B_WIDTH": {bw}, "Y_WIDTH": {yw}"#
                    );
                    conns = if unary {
                        format!(r#""A": {}"#, bits(a0, aw))
                    } else {
                        format!(r#""A": {}, "B": {}"#, bits(a0, aw), bits(b0, bw))
                    };
                }
            }
            if !cells.is_empty() {
                cells.push_str(", ");
            }
            let y = bits(next, yw);
            let _ = write!(
                cells,
                r#""c{i}": {{"type": "{kind}", "parameters": {{{params}}}, "connections": {{{conns}, "Y": {y}}}}}"#
            );
            let _ = write!(ports, r#", "y{i}": {{"direction": "output", "bits": {y}}}"#);
            let _ = write!(nets, r#", "y{i}": {{"bits": {y}}}"#);
            next += yw;
        }
        format!(
            r#"{{"modules": {{"top": {{"ports": {{{ports}}}, "cells": {{{cells}}}, "netnames": {{{nets}}}}}}}}}"#
        )
    }

    /// Every operator, at random widths and signedness, on random and edge values: the native code
    /// equals the interpreter ([`super::super::ops::Cell::compute`]) on every output.
    #[test]
    fn native_code_equals_the_interpreter_cell_by_cell() {
        const CELLS: usize = 1500;
        let mut rng = SplitMix64::new(11);
        let json = random_netlist(&mut rng, CELLS);
        let mut interp = compile(&json, "top").unwrap();
        let mut native = interp.clone().native(7).unwrap();
        assert!(native.is_native() && !interp.is_native());
        let [a, b, s] = ["a", "b", "s"].map(|n| interp.find(n).unwrap());
        let outs: Vec<usize> = (0..CELLS)
            .map(|i| interp.find(&format!("y{i}")).unwrap())
            .collect();
        let specials = [
            0u64,
            1,
            u64::MAX,
            1 << 63,
            (1 << 63) - 1,
            0x8000_0000,
            0xffff_ffff,
            63,
            64,
            65,
        ];
        let mut checked = 0;
        for round in 0..400u64 {
            let mut val = |k: u64| {
                if round < 100 {
                    specials[((round * 7 + k * 3) % specials.len() as u64) as usize]
                } else {
                    match rng.next_u64() % 4 {
                        0 => specials[(rng.next_u64() % specials.len() as u64) as usize],
                        1 => rng.next_u64() % 256,
                        _ => rng.next_u64(),
                    }
                }
            };
            let (va, vb, vs) = (val(0), val(1), val(2));
            for sim in [&mut interp, &mut native] {
                sim.set(a, va as u128).unwrap();
                sim.set(b, vb as u128).unwrap();
                sim.set(s, vs as u128).unwrap();
                sim.settle();
            }
            for (i, &h) in outs.iter().enumerate() {
                assert_eq!(
                    native.get(h),
                    interp.get(h),
                    "cell c{i} with a={va:#x} b={vb:#x} s={vs:#x}"
                );
                checked += 1;
            }
        }
        assert_eq!(checked, 400 * CELLS);
    }
}
