//! Gated adders on the ECP5 carry chain.
//!
//! A sum of many terms, each a value ANDed with a select bit (a shift-and-add multiply by a small
//! variable, the coverage unit's sample offsets), is what Yosys's `alumacc` folds into one
//! `$macc` cell, and `maccmap` then builds as a carry-save tree of LUTs: about 1 000 LUT4 for a
//! nine-term 32-bit sum on the ECP5, where eight carry chains need 128 `CCU2C`. Marking the
//! partial sums `(* keep *)` keeps the chains but leaves each AND gate in a LUT4 of its own.
//!
//! [`gated_add_verilog`] writes one adder `y = (a & ga) ± (b & gb)` (mod 2^W) as Verilog for a
//! leaf's `Custom` body: portable `assign`s, and under `TEXPIX_ECP5_CARRY` (read the Verilog with
//! `-DTEXPIX_ECP5_CARRY`, as scripts/synth_one.sh does for ECP5) a chain of W/2 `CCU2C` cells
//! whose LUTs absorb both AND gates. Each half-cell's LUT4 computes the propagate bit
//! `p = (C & D) ^ f(A, B)` with `a`'s bit and gate on C, D and `b`'s on A, B, `f = A & B` (add)
//! or `!(A & B)` (subtract: `a + ~b + 1`, carry-in 1). The chain's generate term is the LUT's
//! low nibble read as a LUT2 of A and B, i.e. `f(A, B)`, the second operand's bit, which equals
//! the first wherever `p = 0`: exactly the carry of the sum. The form follows the CCU2C model
//! in Yosys's ECP5 cell library (sum `LUT4 ^ CIN`, carry `LUT4 ? CIN : LUT2(A, B)` with
//! `INJECT1 = "NO"`); tb/verilog/ecp5_ccu2c.v models it for the co-simulation test.

/// The CCU2C `INIT` of one half-cell: `p = (C & D) ^ f(A, B)` over the LUT index `A + 2B + 4C + 8D`.
pub const fn gated_add_init(sub: bool) -> u16 {
    let mut init = 0u16;
    let mut i = 0;
    while i < 16 {
        let (a, b, c, d) = (i & 1 != 0, i & 2 != 0, i & 4 != 0, i & 8 != 0);
        let f = (a & b) ^ sub;
        if (c & d) ^ f {
            init |= 1 << i;
        }
        i += 1;
    }
    init
}

/// Verilog of `y = ({W{ga}} & a) + ({W{gb}} & b)` (or `−` with `sub`), W = `width` (even), for a
/// generate scope: `y`, `a`, `b` name W-bit nets (declared by the caller; `y` a wire), `ga`, `gb`
/// one-bit expressions (`1'b1` for an ungated operand), `genvar` a genvar declared by the caller,
/// `label` a name unique in the scope (the carry net `<label>_c` and the chain's block).
pub fn gated_add_verilog(
    label: &str,
    genvar: &str,
    width: usize,
    y: &str,
    (a, ga): (&str, &str),
    (b, gb): (&str, &str),
    sub: bool,
) -> String {
    assert!(
        width >= 2 && width.is_multiple_of(2),
        "gated add: even width, not {width}"
    );
    let op = if sub { '-' } else { '+' };
    let init = gated_add_init(sub);
    let g = genvar;
    format!(
        "`ifdef TEXPIX_ECP5_CARRY\n\
         wire [{c}:0] {label}_c;\n\
         assign {label}_c[0] = 1'b{cin};\n\
         for ({g} = 0; {g} < {width}; {g} = {g} + 2) begin : {label}\n\
         \x20  CCU2C #(.INIT0(16'h{init:04X}), .INIT1(16'h{init:04X}), .INJECT1_0(\"NO\"), .INJECT1_1(\"NO\")) cc (\n\
         \x20     .CIN({label}_c[{g}/2]),\n\
         \x20     .A0({b}[{g}]), .B0({gb}), .C0({a}[{g}]), .D0({ga}),\n\
         \x20     .A1({b}[{g}+1]), .B1({gb}), .C1({a}[{g}+1]), .D1({ga}),\n\
         \x20     .S0({y}[{g}]), .S1({y}[{g}+1]), .COUT({label}_c[{g}/2+1]));\n\
         end\n\
         `else\n\
         assign {y} = ({{{width}{{{ga}}}}} & {a}) {op} ({{{width}{{{gb}}}}} & {b});\n\
         `endif\n",
        c = width / 2,
        cin = u8::from(sub),
    )
}
