//! The 48 per-sample edge tests of one coverage lane: 16 samples × 3 edges, combinational.
//!
//! Ports: `q[3]` (the lane centre's `⌊E/16⌋` per edge, clamped to ±2^30), `own[3]` (a sample
//! exactly on the edge is covered: `E mod 16 ≠ 0` or a top-left edge), `dx[3]`, `dy[3]` (edge
//! steps), `nz` (non-degenerate triangle), `nmask` (samples 0…n−1), `pos[16]` (`{dy, dx}`
//! offsets, 4-bit two's complement each) → `hit: Bits<16>` (bit s: sample s inside all three
//! edges, `nz` and bit s of `nmask`). Latency 0.
//!
//! Sample s passes edge e when `q + dx·sy − dy·sx` (mod 2^32) is positive, or zero with
//! `own[e]` (the lane module's documentation derives this from the edge function). The sum is
//! nine terms, `q` and one step shifted by each offset bit's weight (the top bit of each
//! two's-complement offset with the opposite sign), added as a balanced tree of eight adders four
//! deep, each an adder of two operands ANDed with select bits ([`gated_add_verilog`]): on the
//! ECP5 (`TEXPIX_ECP5_CARRY`) 128 `CCU2C` and no other logic per test, where Yosys's own mapping
//! of the sum took about 1 000 LUT4 (docs/fpga.md).

use crate::common::carry::gated_add_verilog;
use rust_hdl::prelude::*;
use std::fmt::Write;

/// The lane's sample tests. See the module documentation.
#[derive(Clone, Debug, Default, LogicBlock)]
pub struct SampleTests {
    /// Lane-centre edge value `⌊E/16⌋` per edge (two's complement).
    pub q: [Signal<In, Bits<32>>; 3],
    /// A sample on the edge is covered.
    pub own: [Signal<In, Bit>; 3],
    /// Edge x step (two's complement).
    pub dx: [Signal<In, Bits<32>>; 3],
    /// Edge y step.
    pub dy: [Signal<In, Bits<32>>; 3],
    /// The triangle is not degenerate.
    pub nz: Signal<In, Bit>,
    /// Samples of the raster mode.
    pub nmask: Signal<In, Bits<16>>,
    /// Sample offsets `{dy[3:0], dx[3:0]}`.
    pub pos: [Signal<In, Bits<8>>; 16],
    /// Covered samples.
    pub hit: Signal<Out, Bits<16>>,
}

/// A 4-bit two's-complement field of `pos` as an integer.
fn nibble(pos: Bits<8>, shift: usize) -> i64 {
    let v = (pos.index() >> shift) & 0xF;
    v as i64 - if v >= 8 { 16 } else { 0 }
}

/// A 32-bit signal as a two's-complement integer.
fn signed(v: Bits<32>) -> i64 {
    i64::from(v.index() as u32 as i32)
}

impl Logic for SampleTests {
    fn update(&mut self) {
        let mut hit = 0u64;
        for s in 0..16 {
            let pos = self.pos[s].val();
            let (sx, sy) = (nibble(pos, 0), nibble(pos, 4));
            let mut h = self.nz.val() && self.nmask.val().get_bit(s);
            for e in 0..3 {
                let sum = signed(self.q[e].val()) + signed(self.dx[e].val()) * sy
                    - signed(self.dy[e].val()) * sx;
                let acc = sum as u32 as i32;
                h &= acc > 0 || (acc == 0 && self.own[e].val());
            }
            hit |= u64::from(h) << s;
        }
        self.hit.next = hit.into();
    }
    fn connect(&mut self) {
        self.hit.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(sample_tests_verilog())
    }
}

/// One adder of the tree: its sum, its two (net, gate) operands, and whether it subtracts.
type Adder<'a> = (&'a str, (&'a str, &'a str), (&'a str, &'a str), bool);

/// The Verilog body of [`SampleTests`]: a generate loop over samples and edges, each test the
/// eight adders of the module documentation.
fn sample_tests_verilog() -> String {
    let mut v = String::new();
    let cat = |name: &str, n: usize| {
        (0..n)
            .rev()
            .map(|i| format!("{name}_{i}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(v, "wire [95:0] qv = {{{}}};", cat("q", 3));
    let _ = writeln!(v, "wire [95:0] dxv = {{{}}};", cat("dx", 3));
    let _ = writeln!(v, "wire [95:0] dyv = {{{}}};", cat("dy", 3));
    let _ = writeln!(v, "wire [2:0] ownv = {{{}}};", cat("own", 3));
    let _ = writeln!(v, "wire [127:0] posv = {{{}}};", cat("pos", 16));
    let _ = writeln!(v, "wire [15:0] hw;");
    let _ = writeln!(v, "genvar gs, ge;");
    // The carry chains' bit index (the portable form has no chains).
    let _ = writeln!(v, "`ifdef TEXPIX_ECP5_CARRY\ngenvar gi;\n`endif");
    let _ = writeln!(v, "generate for (gs = 0; gs < 16; gs = gs + 1) begin : smp");
    let _ = writeln!(v, "wire [3:0] sx = posv[8*gs +: 4];");
    let _ = writeln!(v, "wire [3:0] sy = posv[8*gs+4 +: 4];");
    let _ = writeln!(v, "wire [2:0] pass;");
    let _ = writeln!(v, "for (ge = 0; ge < 3; ge = ge + 1) begin : edg");
    let _ = writeln!(v, "wire [31:0] q = qv[32*ge +: 32];");
    for n in ["dx", "dy"] {
        let _ = writeln!(v, "wire [31:0] {n}0 = {n}v[32*ge +: 32];");
        for k in 1..4 {
            let _ = writeln!(v, "wire [31:0] {n}{k} = {{{n}0[{}:0], {k}'b0}};", 31 - k);
        }
    }
    let _ = writeln!(v, "wire [31:0] u0, u1, u2, u3, v0, v1, w, acc;");
    let one = "1'b1";
    // q − dy·sx0 | dx·sy0 + 2dx·sy1 | 4dx·sy2 − 8dx·sy3 | 8dy·sx3 − 2dy·sx1, then the sums; the
    // last term, −4dy·sx2, joins at the third level.
    let adders: [Adder; 8] = [
        ("u0", ("q", one), ("dy0", "sx[0]"), true),
        ("u1", ("dx0", "sy[0]"), ("dx1", "sy[1]"), false),
        ("u2", ("dx2", "sy[2]"), ("dx3", "sy[3]"), true),
        ("u3", ("dy3", "sx[3]"), ("dy1", "sx[1]"), true),
        ("v0", ("u0", one), ("u1", one), false),
        ("v1", ("u2", one), ("u3", one), false),
        ("w", ("v0", one), ("dy2", "sx[2]"), true),
        ("acc", ("w", one), ("v1", one), false),
    ];
    for (y, a, b, sub) in adders {
        v.push_str(&gated_add_verilog(
            &format!("c_{y}"),
            "gi",
            32,
            y,
            a,
            b,
            sub,
        ));
    }
    let _ = writeln!(
        v,
        "assign pass[ge] = !acc[31] & ((acc != 32'd0) | ownv[ge]);"
    );
    let _ = writeln!(v, "end");
    let _ = writeln!(v, "assign hw[gs] = nz & nmask[gs] & (&pass);");
    let _ = writeln!(v, "end endgenerate");
    let _ = writeln!(v, "always @(*) hit = hw;");
    v
}
