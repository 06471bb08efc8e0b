//! Word-level cells of a flattened Yosys netlist and their evaluation on 64-bit words.
//!
//! Semantics follow Yosys' cell library (`simlib.v`): binary operands are sign-extended when both are
//! signed, else zero-extended; results are truncated to `Y_WIDTH`. Every value is held in the low
//! bits of a `u64`, masked to its width; `x` and `z` read as 0. Cells wider than 64 bits are
//! rejected when the netlist is compiled (none of texpix's units has one: wide buses are split into
//! ports of at most 64 bits, and `$pmux` cases are read one case at a time).

/// Where a cell input's bits come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A whole word slot.
    Slot(u32),
    /// A constant.
    Const(u64),
    /// Bits gathered from several slots: `segs[start .. start + len]`, OR-ed with `konst`.
    Gather { start: u32, len: u32, konst: u64 },
}

/// `len` bits of slot `slot` from bit `from`, placed at bit `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seg {
    pub slot: u32,
    pub from: u8,
    pub len: u8,
    pub to: u8,
}

/// What a combinational cell computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    And,
    Or,
    Xor,
    Xnor,
    Not,
    Neg,
    Pos,
    LogicNot,
    LogicAnd,
    LogicOr,
    ReduceOr,
    ReduceAnd,
    ReduceXor,
    ReduceXnor,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Shl,
    Shr,
    Sshr,
    /// `$shift` (B may be signed: negative shifts left).
    Shift,
    /// `$shiftx` (out-of-range bits are `x`, read as 0).
    Shiftx,
    /// `Y = S ? B : A`.
    Mux,
    /// `Y = B[k]` for the lowest set bit `k` of `S`, else `A`; the cases are `cases[start .. start + n]`.
    Pmux {
        start: u32,
        n: u32,
    },
    /// Asynchronous read of memory `mem` at `ADDR - offset` (0 outside the memory).
    MemRead {
        mem: u32,
        offset: i64,
    },
}

/// One combinational cell.
#[derive(Clone, Copy, Debug)]
pub struct Cell {
    pub op: Op,
    pub a: Operand,
    pub b: Operand,
    pub s: Operand,
    /// Output slot.
    pub y: u32,
    pub aw: u8,
    pub bw: u8,
    pub yw: u8,
    /// Operand A is sign-extended (for binary cells: both operands are signed).
    pub a_signed: bool,
    /// Operand B is sign-extended.
    pub b_signed: bool,
}

/// The low `w` bits set (`w` ≤ 64).
#[inline(always)]
pub fn mask(w: u8) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

/// `v` (a `w`-bit value) sign-extended to 64 bits.
#[inline(always)]
pub fn sext(v: u64, w: u8) -> u64 {
    if w == 0 || w >= 64 {
        v
    } else {
        let s = 64 - w as u32;
        (((v << s) as i64) >> s) as u64
    }
}

#[inline(always)]
fn ext(v: u64, w: u8, signed: bool) -> u64 {
    if signed {
        sext(v, w)
    } else {
        v
    }
}

/// A logical right shift that gives 0 for shift amounts of 64 or more.
#[inline(always)]
fn shr(v: u64, n: u64) -> u64 {
    if n >= 64 {
        0
    } else {
        v >> n
    }
}

#[inline(always)]
fn shl(v: u64, n: u64) -> u64 {
    if n >= 64 {
        0
    } else {
        v << n
    }
}

impl Cell {
    /// The cell's output for operand values `a`, `b`, `s` (already gathered; `Pmux` and `MemRead`
    /// are evaluated by the caller), masked to `Y_WIDTH`.
    #[inline(always)]
    pub fn compute(&self, a: u64, b: u64, s: u64) -> u64 {
        let both = self.a_signed && self.b_signed;
        let ea = ext(a, self.aw, both);
        let eb = ext(b, self.bw, both);
        let y = match self.op {
            Op::Add => ea.wrapping_add(eb),
            Op::Sub => ea.wrapping_sub(eb),
            Op::Mul => ea.wrapping_mul(eb),
            Op::And => ea & eb,
            Op::Or => ea | eb,
            Op::Xor => ea ^ eb,
            Op::Xnor => !(ea ^ eb),
            Op::Not => !ext(a, self.aw, self.a_signed),
            Op::Neg => ext(a, self.aw, self.a_signed).wrapping_neg(),
            Op::Pos => ext(a, self.aw, self.a_signed),
            Op::LogicNot => (a == 0) as u64,
            Op::LogicAnd => (a != 0 && b != 0) as u64,
            Op::LogicOr => (a != 0 || b != 0) as u64,
            Op::ReduceOr => (a != 0) as u64,
            Op::ReduceAnd => (a == mask(self.aw)) as u64,
            Op::ReduceXor => (a.count_ones() & 1) as u64,
            Op::ReduceXnor => (!a.count_ones() & 1) as u64,
            Op::Eq => (ea == eb) as u64,
            Op::Ne => (ea != eb) as u64,
            Op::Lt => compare(ea, eb, both).is_lt() as u64,
            Op::Le => compare(ea, eb, both).is_le() as u64,
            Op::Gt => compare(ea, eb, both).is_gt() as u64,
            Op::Ge => compare(ea, eb, both).is_ge() as u64,
            Op::Shl => shl(ext(a, self.aw, self.a_signed), b),
            Op::Shr => shr(self.widened(a), b),
            Op::Sshr => {
                if self.a_signed {
                    ((sext(a, self.aw) as i64) >> b.min(63)) as u64
                } else {
                    shr(a, b)
                }
            }
            Op::Shift => {
                let n = ext(b, self.bw, self.b_signed) as i64;
                if n < 0 {
                    shl(ext(a, self.aw, self.a_signed), n.unsigned_abs())
                } else {
                    shr(self.widened(a), n as u64)
                }
            }
            Op::Shiftx => {
                let n = ext(b, self.bw, self.b_signed) as i64;
                if n < 0 {
                    shl(a, n.unsigned_abs())
                } else {
                    shr(a, n as u64)
                }
            }
            Op::Mux => {
                if s & 1 == 1 {
                    b
                } else {
                    a
                }
            }
            Op::Pmux { .. } | Op::MemRead { .. } => 0,
        };
        y & mask(self.yw)
    }

    /// A extended (by its signedness) to `max(A_WIDTH, Y_WIDTH)` bits, the width a right shift
    /// works in.
    #[inline(always)]
    fn widened(&self, a: u64) -> u64 {
        ext(a, self.aw, self.a_signed) & mask(self.aw.max(self.yw))
    }
}

#[inline(always)]
fn compare(a: u64, b: u64, signed: bool) -> std::cmp::Ordering {
    if signed {
        (a as i64).cmp(&(b as i64))
    } else {
        a.cmp(&b)
    }
}

/// Maps a Yosys cell type to its [`Op`] (`None`: not a combinational word-level cell handled here).
pub fn op_of(kind: &str) -> Option<Op> {
    Some(match kind {
        "$add" => Op::Add,
        "$sub" => Op::Sub,
        "$mul" => Op::Mul,
        "$and" => Op::And,
        "$or" => Op::Or,
        "$xor" => Op::Xor,
        "$xnor" => Op::Xnor,
        "$not" => Op::Not,
        "$neg" => Op::Neg,
        "$pos" => Op::Pos,
        "$logic_not" => Op::LogicNot,
        "$logic_and" => Op::LogicAnd,
        "$logic_or" => Op::LogicOr,
        "$reduce_or" | "$reduce_bool" => Op::ReduceOr,
        "$reduce_and" => Op::ReduceAnd,
        "$reduce_xor" => Op::ReduceXor,
        "$reduce_xnor" => Op::ReduceXnor,
        "$eq" | "$eqx" => Op::Eq,
        "$ne" | "$nex" => Op::Ne,
        "$lt" => Op::Lt,
        "$le" => Op::Le,
        "$gt" => Op::Gt,
        "$ge" => Op::Ge,
        "$shl" | "$sshl" => Op::Shl,
        "$shr" => Op::Shr,
        "$sshr" => Op::Sshr,
        "$shift" => Op::Shift,
        "$shiftx" => Op::Shiftx,
        "$mux" => Op::Mux,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(op: Op, aw: u8, bw: u8, yw: u8, signed: bool) -> Cell {
        Cell {
            op,
            a: Operand::Const(0),
            b: Operand::Const(0),
            s: Operand::Const(0),
            y: 0,
            aw,
            bw,
            yw,
            a_signed: signed,
            b_signed: signed,
        }
    }

    #[test]
    fn signed_and_unsigned_extension() {
        // 4-bit -1 + 8-bit 1, signed: 0 in 8 bits; unsigned: 15 + 1 = 16.
        assert_eq!(cell(Op::Add, 4, 8, 8, true).compute(0xf, 1, 0), 0);
        assert_eq!(cell(Op::Add, 4, 8, 8, false).compute(0xf, 1, 0), 16);
        // Signed compare: -1 < 1; unsigned: 15 > 1.
        assert_eq!(cell(Op::Lt, 4, 4, 1, true).compute(0xf, 1, 0), 1);
        assert_eq!(cell(Op::Lt, 4, 4, 1, false).compute(0xf, 1, 0), 0);
        // Equality across widths: signed 4'b1111 == 8'hff, unsigned not.
        assert_eq!(cell(Op::Eq, 4, 8, 1, true).compute(0xf, 0xff, 0), 1);
        assert_eq!(cell(Op::Eq, 4, 8, 1, false).compute(0xf, 0xff, 0), 0);
        // 54-bit signed product, truncated.
        let m = cell(Op::Mul, 54, 54, 54, true);
        assert_eq!(m.compute(mask(54), 3, 0), mask(54) - 2); // -1 * 3 = -3
    }

    #[test]
    fn shifts() {
        // $shr of a signed 4-bit value into 8 bits shifts in the extension (Verilog width rules).
        assert_eq!(cell(Op::Shr, 4, 3, 8, true).compute(0x8, 1, 0), 0x7c);
        assert_eq!(cell(Op::Shr, 4, 3, 4, false).compute(0x8, 1, 0), 0x4);
        assert_eq!(cell(Op::Sshr, 4, 3, 4, true).compute(0x8, 1, 0), 0xc);
        assert_eq!(cell(Op::Shl, 8, 8, 8, false).compute(1, 200, 0), 0);
        assert_eq!(cell(Op::Shr, 8, 8, 8, false).compute(0x80, 64, 0), 0);
        let mut sh = cell(Op::Shift, 8, 4, 8, false);
        sh.b_signed = true;
        assert_eq!(sh.compute(0x01, 0xf, 0), 0x02); // shift by -1: left
    }

    #[test]
    fn reductions_and_logic() {
        assert_eq!(cell(Op::ReduceAnd, 3, 0, 1, false).compute(7, 0, 0), 1);
        assert_eq!(cell(Op::ReduceAnd, 3, 0, 1, false).compute(6, 0, 0), 0);
        assert_eq!(cell(Op::ReduceXor, 3, 0, 1, false).compute(7, 0, 0), 1);
        assert_eq!(cell(Op::LogicNot, 3, 0, 2, false).compute(0, 0, 0), 1);
        assert_eq!(cell(Op::Not, 3, 0, 3, false).compute(5, 0, 0), 2);
        assert_eq!(cell(Op::Mux, 8, 8, 8, false).compute(1, 2, 1), 2);
    }
}
