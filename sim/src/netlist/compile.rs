//! Yosys JSON netlist → [`NetSim`]: word slots, operands, levelised cells, flip-flops, memories, names.

use super::ops::{op_of, Cell, Op, Operand, Seg};
use super::{Dff, MemWrite, Named, NetSim, PortDir};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Where a netlist bit lives: slot and bit index.
type BitLoc = (u32, u8);

struct Builder {
    /// Width of each slot.
    widths: Vec<u8>,
    /// Driver of each net bit.
    bits: HashMap<u64, BitLoc>,
    segs: Vec<Seg>,
    cases: Vec<Operand>,
}

/// A port's bit list: net ids or constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bit {
    Net(u64),
    Const(bool),
}

fn err(cell: &str, what: impl std::fmt::Display) -> String {
    format!("netlist cell `{cell}`: {what}")
}

fn bit_list(v: &Value, ctx: &dyn Fn() -> String) -> Result<Vec<Bit>, String> {
    let a = v
        .as_array()
        .ok_or_else(|| format!("{}: `bits` is not a list", ctx()))?;
    a.iter()
        .map(|b| match b {
            Value::Number(n) => n
                .as_u64()
                .map(Bit::Net)
                .ok_or_else(|| format!("{}: bad net id {n}", ctx())),
            Value::String(s) => Ok(Bit::Const(s == "1")),
            _ => Err(format!("{}: bad bit {b}", ctx())),
        })
        .collect()
}

/// A Yosys parameter: a binary string (`"0101"`, possibly with x) or a number.
fn param(cell: &Map<String, Value>, name: &str) -> Option<u64> {
    match cell.get("parameters")?.get(name)? {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => {
            let mut v = 0u64;
            for c in s
                .chars()
                .rev()
                .take(64)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
            {
                v = (v << 1) | (c == '1') as u64;
            }
            Some(v)
        }
        _ => None,
    }
}

fn param_str<'a>(cell: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    cell.get("parameters")?.get(name)?.as_str()
}

impl Builder {
    fn slot(&mut self, width: usize) -> u32 {
        self.widths.push(width as u8);
        (self.widths.len() - 1) as u32
    }

    /// Gives `bits` (all nets) slots of at most 64 bits; returns the slots.
    fn define(&mut self, bits: &[Bit], ctx: &str) -> Result<Vec<u32>, String> {
        let mut slots = Vec::new();
        for chunk in bits.chunks(64) {
            let s = self.slot(chunk.len());
            for (i, b) in chunk.iter().enumerate() {
                match b {
                    Bit::Net(n) => {
                        if self.bits.insert(*n, (s, i as u8)).is_some() {
                            return Err(format!("{ctx}: net {n} has more than one driver"));
                        }
                    }
                    Bit::Const(_) => return Err(format!("{ctx}: an output bit is a constant")),
                }
            }
            slots.push(s);
        }
        Ok(slots)
    }

    /// The operand reading `bits` (≤ 64); undriven nets read as 0.
    fn operand(&mut self, bits: &[Bit]) -> Operand {
        debug_assert!(bits.len() <= 64);
        let mut konst = 0u64;
        let mut segs: Vec<Seg> = Vec::new();
        for (i, b) in bits.iter().enumerate() {
            match *b {
                Bit::Const(v) => konst |= (v as u64) << i,
                Bit::Net(n) => {
                    let Some(&(slot, from)) = self.bits.get(&n) else {
                        continue;
                    };
                    if let Some(last) = segs.last_mut() {
                        if last.slot == slot
                            && last.from as usize + last.len as usize == from as usize
                            && last.to as usize + last.len as usize == i
                        {
                            last.len += 1;
                            continue;
                        }
                    }
                    segs.push(Seg {
                        slot,
                        from,
                        len: 1,
                        to: i as u8,
                    });
                }
            }
        }
        match segs.as_slice() {
            [] => Operand::Const(konst),
            [s] if konst == 0
                && s.from == 0
                && s.to == 0
                && s.len as usize == bits.len()
                && self.widths[s.slot as usize] as usize == bits.len() =>
            {
                Operand::Slot(s.slot)
            }
            _ => {
                let start = self.segs.len() as u32;
                self.segs.extend_from_slice(&segs);
                Operand::Gather {
                    start,
                    len: segs.len() as u32,
                    konst,
                }
            }
        }
    }
}

/// Slots an operand reads.
pub(super) fn sources(op: &Operand, segs: &[Seg], out: &mut Vec<u32>) {
    match *op {
        Operand::Slot(s) => out.push(s),
        Operand::Const(_) => {}
        Operand::Gather { start, len, .. } => {
            for s in &segs[start as usize..(start + len) as usize] {
                out.push(s.slot);
            }
        }
    }
}

struct RawCell<'a> {
    name: &'a str,
    kind: &'a str,
    body: &'a Map<String, Value>,
}

impl RawCell<'_> {
    fn conn(&self, port: &str) -> Result<Vec<Bit>, String> {
        let v = self
            .body
            .get("connections")
            .and_then(|c| c.get(port))
            .ok_or_else(|| err(self.name, format!("{} has no port {port}", self.kind)))?;
        bit_list(v, &|| err(self.name, port))
    }
    fn conn_opt(&self, port: &str) -> Result<Vec<Bit>, String> {
        match self.body.get("connections").and_then(|c| c.get(port)) {
            Some(v) => bit_list(v, &|| err(self.name, port)),
            None => Ok(Vec::new()),
        }
    }
    fn num(&self, p: &str) -> u64 {
        param(self.body, p).unwrap_or(0)
    }
}

/// Compiles module `top` of a Yosys JSON netlist (flattened; `proc` run; flip-flops plain `$dff`).
pub fn compile(json: &str, top: &str) -> Result<NetSim, String> {
    let doc: Value = serde_json::from_str(json).map_err(|e| format!("netlist JSON: {e}"))?;
    let module = doc
        .get("modules")
        .and_then(|m| m.get(top))
        .and_then(Value::as_object)
        .ok_or_else(|| format!("netlist: no module `{top}`"))?;
    let empty = Map::new();
    let obj = |k: &str| module.get(k).and_then(Value::as_object).unwrap_or(&empty);
    let mut b = Builder {
        widths: Vec::new(),
        bits: HashMap::new(),
        segs: Vec::new(),
        cases: Vec::new(),
    };

    // Top-level inputs: slots the test bench writes.
    let mut inputs: HashMap<String, Vec<u32>> = HashMap::new();
    let mut port_dirs: HashMap<String, PortDir> = HashMap::new();
    for (name, p) in obj("ports") {
        let dir = match p.get("direction").and_then(Value::as_str) {
            Some("input") => PortDir::Input,
            Some("output") => PortDir::Output,
            _ => {
                return Err(format!(
                    "netlist port `{name}`: only input and output ports are supported"
                ))
            }
        };
        port_dirs.insert(name.clone(), dir);
        if dir == PortDir::Input {
            let bits = bit_list(p.get("bits").unwrap_or(&Value::Null), &|| {
                format!("netlist port `{name}`")
            })?;
            let slots = b.define(&bits, &format!("netlist port `{name}`"))?;
            inputs.insert(name.clone(), slots);
        }
    }

    // Every cell output gets slots first, so operands can be resolved in any order.
    let mut raw: Vec<RawCell> = Vec::new();
    let mut out_slot: Vec<u32> = Vec::new();
    for (name, body) in obj("cells") {
        let body = body.as_object().ok_or_else(|| err(name, "not an object"))?;
        let kind = body.get("type").and_then(Value::as_str).unwrap_or("");
        let c = RawCell { name, kind, body };
        let out = match kind {
            "$meminit" | "$meminit_v2" | "$memwr" | "$memwr_v2" => None,
            "$dff" => Some("Q"),
            "$memrd" | "$memrd_v2" => Some("DATA"),
            k if op_of(k).is_some() || k == "$pmux" => Some("Y"),
            k => {
                return Err(err(
                    name,
                    format!("cell type {k} is not supported by the netlist simulator (expected flattened word-level cells, plain $dff and unmapped memories)"),
                ))
            }
        };
        let slot = match out {
            Some(p) => {
                let bits = c.conn(p)?;
                if bits.len() > 64 {
                    return Err(err(
                        name,
                        format!("{kind} output is {} bits wide (at most 64)", bits.len()),
                    ));
                }
                b.define(&bits, &err(name, p))?
                    .first()
                    .copied()
                    .unwrap_or(u32::MAX)
            }
            None => u32::MAX,
        };
        raw.push(c);
        out_slot.push(slot);
    }

    // Memories: their $meminit contents, read by $memrd and written by $memwr at a clock edge.
    let mut mem_ids: HashMap<String, (u32, i64)> = HashMap::new();
    let mut mems: Vec<Vec<u64>> = Vec::new();
    for (id, m) in obj("memories") {
        let m = m
            .as_object()
            .ok_or_else(|| format!("netlist memory `{id}`: not an object"))?;
        let size = m.get("size").and_then(Value::as_u64).unwrap_or(0) as usize;
        let offset = m.get("start_offset").and_then(Value::as_i64).unwrap_or(0);
        mem_ids.insert(id.clone(), (mems.len() as u32, offset));
        mems.push(vec![0; size]);
    }
    for c in raw.iter().filter(|c| c.kind.starts_with("$meminit")) {
        let id = param_str(c.body, "MEMID").unwrap_or("");
        let &(m, offset) =
            mem_lookup(&mem_ids, id).ok_or_else(|| err(c.name, format!("unknown memory {id}")))?;
        let width = c.num("WIDTH") as usize;
        if width > 64 {
            return Err(err(c.name, "memory words wider than 64 bits"));
        }
        let addr = c.conn("ADDR")?;
        let data = c.conn("DATA")?;
        let mut a = 0i64;
        for (i, bit) in addr.iter().enumerate().take(63) {
            match bit {
                Bit::Const(v) => a |= (*v as i64) << i,
                Bit::Net(_) => return Err(err(c.name, "non-constant $meminit address")),
            }
        }
        for (k, word) in data.chunks(width.max(1)).enumerate() {
            let mut v = 0u64;
            for (i, bit) in word.iter().enumerate() {
                if let Bit::Const(true) = bit {
                    v |= 1 << i;
                }
            }
            let idx = a + k as i64 - offset;
            if let Some(slot) = usize::try_from(idx)
                .ok()
                .and_then(|i| mems[m as usize].get_mut(i))
            {
                *slot = v;
            }
        }
    }

    // Cells.
    let mut cells: Vec<Cell> = Vec::new();
    let mut dffs: Vec<Dff> = Vec::new();
    let mut mem_writes: Vec<MemWrite> = Vec::new();
    for (c, &y) in raw.iter().zip(&out_slot) {
        match c.kind {
            "$meminit" | "$meminit_v2" => {}
            "$memwr" | "$memwr_v2" => {
                if c.num("CLK_ENABLE") & 1 == 0 {
                    return Err(err(c.name, "asynchronous memory writes are not supported"));
                }
                let id = param_str(c.body, "MEMID").unwrap_or("");
                let &(mem, offset) = mem_lookup(&mem_ids, id)
                    .ok_or_else(|| err(c.name, format!("unknown memory {id}")))?;
                let (data, en) = (c.conn("DATA")?, c.conn("EN")?);
                if data.len() > 64 || en.len() > 64 {
                    return Err(err(c.name, "memory words wider than 64 bits"));
                }
                let (clk_slot, clk_bit) = match c.conn("CLK")?.as_slice() {
                    [Bit::Net(n)] => *b.bits.get(n).ok_or_else(|| err(c.name, "undriven clock"))?,
                    _ => return Err(err(c.name, "clock is not a single net")),
                };
                let addr = c.conn("ADDR")?;
                mem_writes.push(MemWrite {
                    mem,
                    offset,
                    addr: b.operand(&addr[..addr.len().min(64)]),
                    data: b.operand(&data),
                    en: b.operand(&en),
                    clk_slot,
                    clk_bit,
                    rising: c.num("CLK_POLARITY") & 1 == 1,
                });
            }
            "$dff" => {
                let clk = c.conn("CLK")?;
                let (clk_slot, clk_bit) = match clk.as_slice() {
                    [Bit::Net(n)] => *b.bits.get(n).ok_or_else(|| err(c.name, "undriven clock"))?,
                    _ => return Err(err(c.name, "clock is not a single net")),
                };
                let d = c.conn("D")?;
                if d.len() > 64 {
                    return Err(err(c.name, "flip-flop wider than 64 bits"));
                }
                let d = b.operand(&d);
                dffs.push(Dff {
                    d,
                    q: y,
                    clk_slot,
                    clk_bit,
                    rising: c.num("CLK_POLARITY") & 1 == 1,
                });
            }
            "$memrd" | "$memrd_v2" => {
                if c.num("CLK_ENABLE") & 1 == 1 {
                    return Err(err(c.name, "synchronous memory reads are not supported"));
                }
                let id = param_str(c.body, "MEMID").unwrap_or("");
                let &(mem, offset) = mem_lookup(&mem_ids, id)
                    .ok_or_else(|| err(c.name, format!("unknown memory {id}")))?;
                let addr = c.conn("ADDR")?;
                let yw = c.conn("DATA")?.len() as u8;
                cells.push(Cell {
                    op: Op::MemRead { mem, offset },
                    a: b.operand(&addr[..addr.len().min(64)]),
                    b: Operand::Const(0),
                    s: Operand::Const(0),
                    y,
                    aw: addr.len().min(64) as u8,
                    bw: 0,
                    yw,
                    a_signed: false,
                    b_signed: false,
                });
            }
            "$pmux" => {
                let width = c.num("WIDTH") as usize;
                let a = c.conn("A")?;
                let bb = c.conn("B")?;
                let s = c.conn("S")?;
                if s.len() > 64 {
                    return Err(err(c.name, "$pmux with more than 64 cases"));
                }
                let start = b.cases.len() as u32;
                for case in bb.chunks(width.max(1)) {
                    let op = b.operand(case);
                    b.cases.push(op);
                }
                let (a, s) = (b.operand(&a), b.operand(&s));
                cells.push(Cell {
                    op: Op::Pmux {
                        start,
                        n: (b.cases.len() as u32 - start),
                    },
                    a,
                    b: Operand::Const(0),
                    s,
                    y,
                    aw: width as u8,
                    bw: width as u8,
                    yw: width as u8,
                    a_signed: false,
                    b_signed: false,
                });
            }
            kind => {
                let op = op_of(kind).expect("checked above");
                let a = c.conn("A")?;
                let bb = c.conn_opt("B")?;
                let s = c.conn_opt("S")?;
                for (p, bits) in [("A", &a), ("B", &bb)] {
                    if bits.len() > 64 {
                        return Err(err(
                            c.name,
                            format!("input {p} is {} bits wide (at most 64)", bits.len()),
                        ));
                    }
                }
                let yw = c.conn("Y")?.len() as u8;
                let a_signed = c.num("A_SIGNED") & 1 == 1;
                let b_signed = if bb.is_empty() {
                    a_signed
                } else {
                    c.num("B_SIGNED") & 1 == 1
                };
                let (oa, ob, os) = (b.operand(&a), b.operand(&bb), b.operand(&s));
                cells.push(Cell {
                    op,
                    a: oa,
                    b: ob,
                    s: os,
                    y,
                    aw: a.len() as u8,
                    bw: bb.len() as u8,
                    yw,
                    a_signed,
                    b_signed,
                });
            }
        }
    }

    let cells = levelise(cells, &b)?;

    // Named signals: every public net name (ports included), hierarchy separated by `.`; and the
    // power-up values (`init` attributes, from Verilog `initial`): the bits that start at 1.
    let mut named = Vec::new();
    let mut ones = Vec::new();
    for (name, n) in obj("netnames") {
        let bits = bit_list(n.get("bits").unwrap_or(&Value::Null), &|| {
            format!("netlist net `{name}`")
        })?;
        if let Some(init) = n.pointer("/attributes/init").and_then(Value::as_str) {
            for (bit, c) in bits.iter().zip(init.chars().rev()) {
                if let (Bit::Net(net), '1') = (bit, c) {
                    if let Some(&loc) = b.bits.get(net) {
                        ones.push(loc);
                    }
                }
            }
        }
        let hidden = n.get("hide_name").and_then(Value::as_u64).unwrap_or(0) == 1;
        if hidden || name.starts_with('$') || bits.is_empty() || bits.len() > 128 {
            continue;
        }
        let lo = b.operand(&bits[..bits.len().min(64)]);
        let hi = if bits.len() > 64 {
            b.operand(&bits[64..])
        } else {
            Operand::Const(0)
        };
        let dir = port_dirs.get(name).copied().unwrap_or(PortDir::Internal);
        named.push(Named {
            name: name.clone(),
            width: bits.len(),
            dir,
            lo,
            hi,
            input_slots: if dir == PortDir::Input {
                inputs.get(name).cloned().unwrap_or_default()
            } else {
                Vec::new()
            },
        });
    }
    named.sort_by(|a, b| a.name.cmp(&b.name));

    let mut sim = NetSim::new(
        b.widths, cells, b.segs, b.cases, dffs, mems, mem_writes, named, &ones,
    );
    sim.top = top.to_string();
    Ok(sim)
}

/// A memory by its cell's `MEMID`: the netlist's memory list names public memories without the
/// leading `\` their cells' `MEMID` carries.
fn mem_lookup<'a>(ids: &'a HashMap<String, (u32, i64)>, id: &str) -> Option<&'a (u32, i64)> {
    ids.get(id).or_else(|| ids.get(id.strip_prefix('\\')?))
}

/// Orders combinational cells so every cell comes after the cells driving its inputs.
fn levelise(cells: Vec<Cell>, b: &Builder) -> Result<Vec<Cell>, String> {
    let mut driver = vec![u32::MAX; b.widths.len()];
    for (i, c) in cells.iter().enumerate() {
        driver[c.y as usize] = i as u32;
    }
    let mut deps: Vec<Vec<u32>> = vec![Vec::new(); cells.len()];
    let mut indeg = vec![0u32; cells.len()];
    let mut srcs = Vec::new();
    for (i, c) in cells.iter().enumerate() {
        srcs.clear();
        for op in [&c.a, &c.b, &c.s] {
            sources(op, &b.segs, &mut srcs);
        }
        if let Op::Pmux { start, n } = c.op {
            for op in &b.cases[start as usize..(start + n) as usize] {
                sources(op, &b.segs, &mut srcs);
            }
        }
        srcs.sort_unstable();
        srcs.dedup();
        for &s in &srcs {
            let d = driver[s as usize];
            if d != u32::MAX {
                deps[d as usize].push(i as u32);
                indeg[i] += 1;
            }
        }
    }
    let mut order: Vec<u32> = (0..cells.len() as u32)
        .filter(|&i| indeg[i as usize] == 0)
        .collect();
    let mut k = 0;
    while k < order.len() {
        let i = order[k] as usize;
        k += 1;
        for &j in &deps[i] {
            indeg[j as usize] -= 1;
            if indeg[j as usize] == 0 {
                order.push(j);
            }
        }
    }
    if order.len() != cells.len() {
        return Err(format!(
            "netlist: {} cells are in combinational loops (at word level)",
            cells.len() - order.len()
        ));
    }
    Ok(order.into_iter().map(|i| cells[i as usize]).collect())
}
