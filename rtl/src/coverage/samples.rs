//! The 48 per-sample edge tests of one coverage lane: 16 samples × 3 edges.
//!
//! Ports: `clock`, `adv_next` (the advance of the next clock, registered here in `(* keep *)`
//! copies: one per test, one per sample for its position and flags, one per group of four samples for cut D's step copies, one for the
//! lane-wide delay lines, so that no enable net reaches all of the lane's registers), `q[3]` (the lane centre's `⌊E/16⌋` per edge, clamped to
//! ±2^30), `own[3]` (a sample exactly on the edge is covered: `E mod 16 ≠ 0` or a top-left edge),
//! `dx[3]`, `dy[3]` (edge steps), `nz` (non-degenerate triangle), `nmask` (samples 0…n−1),
//! `pos[16]` (`{dy, dx}` offsets, 4-bit two's complement each) → `hit: Bits<16>` (bit s: sample
//! s inside all three edges, `nz` and bit s of `nmask`). Latency: its cuts (0…4 enabled
//! clocks, [`SampleTests::new`]); one set of inputs per clock.
//!
//! Sample s passes edge e when `q + dx·sy − dy·sx` (mod 2^32) is positive, or zero with
//! `own[e]` (the lane module's documentation derives this from the edge function). The sum is
//! nine terms, `q` and one step shifted by each offset bit's weight (the top bit of each
//! two's-complement offset with the opposite sign), added by eight adders four deep, each of two
//! operands ANDed with select bits ([`gated_add_verilog`]): level 1 pairs the eight shifted steps
//! (`dx·sy0 + 2dx·sy1`, `4dx·sy2 − 8dx·sy3`, `8dy·sx3 − 2dy·sx1`, `dy·sx0 + 4dy·sx2`), levels 2
//! and 3 sum them to `T = dx·sy − dy·sx`, and level 4 adds `q`. Each sum is only as wide as its
//! value ([`ADDER_WIDTHS`]: 28 or 30 bits, 32 for the last). Cut T1 registers level 2's two sums
//! `dx·sy` and `−dy·sx` (60 bits a test, where level 1's four sums took 128), cut T2 level 3's
//! `T` (30 bits; with `q`, `own`, `nz`, `nmask` beside them), so a clock holds at most two
//! adders, and chained ripple adders overlap their carries. The last of these cuts holds `q`,
//! `own` and the sample's `nz & nmask` bit once per test (`(* keep *)`, so that synthesis does
//! not merge the copies), so that no register fans out to the last adders of all 16 samples
//! across the lane. Without cut Z the zero test of the
//! last sum reads its operands, not the sum (a carry-free identity, in the code), so that it runs
//! beside the last adder's carry chain; cut Z registers each test's pass bit (the last sum's sign
//! and zero test), so that the AND of a sample's three tests and the route to the lane's mask
//! register have a clock of their own, and the zero test then reads the sum (about 11 LUT4 per
//! test instead of 43). Cut D, in front of level 1, holds a copy of the edge steps per group of
//! four samples and of each sample's position (kept apart in synthesis), so that no input bit
//! gates the level-1 adders of the whole lane. On the ECP5 (`TEXPIX_ECP5_CARRY`) each adder is a
//! chain of `CCU2C` (two bits a cell: 120 cells a test) and a test has no other logic but its
//! zero test, where Yosys's own mapping of the sum took about 1 000 LUT4 (docs/fpga.md).

use crate::common::carry::gated_add_verilog;
use rust_hdl::prelude::*;
use std::fmt::Write;

/// The lane's sample tests. See the module documentation.
#[derive(Clone, Debug, LogicBlock)]
pub struct SampleTests {
    /// Clock (used with cuts only).
    pub clock: Signal<In, Clock>,
    /// The cuts advance in the next clock (registered in enable copies, power-up value 1).
    pub adv_next: Signal<In, Bit>,
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
    /// The inputs the cuts hold, oldest last: the registers hold functions of them alone.
    _held: Vec<Inputs>,
    /// `hit` of the oldest held inputs (computed once per enabled edge, not per pass).
    _held_hit: u64,
    /// The registered advance (the enable copies' common value).
    _en: bool,
}

/// One clock's inputs of [`SampleTests`], as the cuts' registers see them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Inputs {
    q: [i64; 3],
    own: [bool; 3],
    dx: [i64; 3],
    dy: [i64; 3],
    nz: bool,
    nmask: u64,
    pos: [u64; 16],
}

impl Default for SampleTests {
    fn default() -> Self {
        Self::new(0)
    }
}

impl SampleTests {
    /// The tests with `cuts` register stages: 0 (combinational), 1 (cut T1), 2 (cuts T1 and T2),
    /// 3 (cuts T1, T2 and Z), 4 (cuts D, T1, T2 and Z).
    pub fn new(cuts: usize) -> Self {
        assert!(cuts <= 4, "sample tests: 0…4 cuts, not {cuts}");
        Self {
            clock: Default::default(),
            adv_next: Default::default(),
            q: Default::default(),
            own: Default::default(),
            dx: Default::default(),
            dy: Default::default(),
            nz: Default::default(),
            nmask: Default::default(),
            pos: Default::default(),
            hit: Default::default(),
            _held: vec![Inputs::default(); cuts],
            _held_hit: 0,
            _en: true,
        }
    }

    /// Register stages (the latency in enabled clocks).
    pub fn cuts(&self) -> usize {
        self._held.len()
    }

    fn inputs(&self) -> Inputs {
        Inputs {
            q: std::array::from_fn(|e| signed(self.q[e].val())),
            own: std::array::from_fn(|e| self.own[e].val()),
            dx: std::array::from_fn(|e| signed(self.dx[e].val())),
            dy: std::array::from_fn(|e| signed(self.dy[e].val())),
            nz: self.nz.val(),
            nmask: self.nmask.val().index() as u64,
            pos: std::array::from_fn(|s| self.pos[s].val().index() as u64),
        }
    }
}

/// A 4-bit two's-complement field of `pos` as an integer.
fn nibble(pos: u64, shift: usize) -> i64 {
    let v = (pos >> shift) & 0xF;
    v as i64 - if v >= 8 { 16 } else { 0 }
}

/// A 32-bit signal as a two's-complement integer.
fn signed(v: Bits<32>) -> i64 {
    i64::from(v.index() as u32 as i32)
}

/// The covered samples of one clock's inputs.
fn hits(x: &Inputs) -> u64 {
    let mut hit = 0u64;
    for s in 0..16 {
        let (sx, sy) = (nibble(x.pos[s], 0), nibble(x.pos[s], 4));
        let mut h = x.nz && (x.nmask >> s) & 1 == 1;
        for e in 0..3 {
            let acc = (x.q[e] + x.dx[e] * sy - x.dy[e] * sx) as u32 as i32;
            h &= acc > 0 || (acc == 0 && x.own[e]);
        }
        hit |= u64::from(h) << s;
    }
    hit
}

impl Logic for SampleTests {
    fn update(&mut self) {
        if self._held.is_empty() {
            self.hit.next = hits(&self.inputs()).into();
            return;
        }
        if self.clock.pos_edge() {
            if self._en {
                let x = self.inputs();
                self._held.pop();
                self._held.insert(0, x);
                self._held_hit = hits(self._held.last().expect("a cut"));
            }
            self._en = self.adv_next.val();
        }
        self.hit.next = self._held_hit.into();
    }
    fn connect(&mut self) {
        self.hit.connect();
    }
    fn hdl(&self) -> Verilog {
        let cuts = self.cuts();
        Verilog::Custom(sample_tests_verilog(
            cuts >= 1,
            cuts >= 2,
            cuts >= 3,
            cuts >= 4,
        ))
    }
}

/// `wire <range><name> = <value>`, or with `registered` a register of it (enabled by `en`, one
/// enabled clock later) whose `always` block is `(* keep *)`, a copy of its own that synthesis does not merge
/// with its neighbours' (Yosys merges registers with the same input even when their `reg` is
/// marked `(* keep *)`: the attribute must be on the process).
fn keep_reg(v: &mut String, en: &str, registered: bool, range: &str, name: &str, value: &str) {
    if registered {
        let _ = writeln!(v, "reg {range}{name};\ninitial {name} = 0;");
        let _ = writeln!(
            v,
            "(* keep *) always @(posedge clock) if ({en}) {name} <= {value};"
        );
    } else {
        let _ = writeln!(v, "wire {range}{name} = {value};");
    }
}

/// A `(* keep *)` register `name` of the advance `adv_next` (power-up value 1): one enable copy,
/// as [`crate::common::EnableCopy`].
fn enable_copy(v: &mut String, name: &str) {
    let _ = writeln!(v, "reg {name};\ninitial {name} = 1'b1;");
    let _ = writeln!(v, "(* keep *) always @(posedge clock) {name} <= adv_next;");
}

/// Groups of samples that share a copy of the edge steps at cut D.
const SAMPLE_GROUPS: usize = 4;

/// The adders' sums and their widths (even, for the carry cells' pairs of bits): with every
/// vertex coordinate in ±2^24, a step `d` is below 2^25 in magnitude, so `u0 = d·sy0 + 2d·sy1`
/// is below 3·2^25 (28 bits, two's complement), `u1`, `u2`, `u3` below 12·2^25 (30 bits),
/// `v0 = dx·sy` and `v1 = −dy·sx` below 2^28 (30 bits: 29 would do), `T` below 2^29 (30 bits);
/// `acc = q + T`, with `|q| ≤ 2^30`, takes 32.
const ADDER_WIDTHS: [(&str, usize); 8] = [
    ("u0", 28),
    ("u1", 30),
    ("u2", 30),
    ("u3", 30),
    ("v0", 30),
    ("v1", 30),
    ("t", 30),
    ("acc", 32),
];

/// The width of the sum `name` ([`ADDER_WIDTHS`]).
fn adder_width(name: &str) -> usize {
    ADDER_WIDTHS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, w)| w)
        .unwrap_or_else(|| panic!("sample tests: no sum named {name}"))
}

/// One adder of the tree: its sum, its two (term, gate) operands, and whether it subtracts.
type Adder<'a> = (&'a str, (Term<'a>, &'a str), (Term<'a>, &'a str), bool);

/// An adder's operand before its gate: a net, its width, and a left shift.
type Term<'a> = (&'a str, usize, usize);

/// The Verilog body of [`SampleTests`]: the lane-wide operands (delayed beside the cuts), then a
/// generate loop over samples and edges, each test the eight adders of the module documentation
/// with cut D (`d`, kept copies of the inputs) in front of level 1, cut T1 (`t1`) after level 2,
/// cut T2 (`t2`) after level 3 and cut Z (`z`) on each test's result.
fn sample_tests_verilog(t1: bool, t2: bool, z: bool, d: bool) -> String {
    let mut v = String::new();
    let cat = |name: &str, n: usize| {
        (0..n)
            .rev()
            .map(|i| format!("{name}_{i}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let cuts = usize::from(d) + usize::from(t1) + usize::from(t2);
    let _ = writeln!(v, "wire [127:0] posv = {{{}}};", cat("pos", 16));
    // Cut D: a kept copy of the edge steps per group of four samples (and of each sample's
    // position, below), so that no input fans out to the level-1 adders of the whole lane.
    // (Registers of at most 64 bits, for the netlist engine: one per edge.)
    for g in 0..SAMPLE_GROUPS {
        if d {
            enable_copy(&mut v, &format!("eng{g}"));
        }
        for n in ["dx", "dy"] {
            for e in 0..3 {
                keep_reg(
                    &mut v,
                    &format!("eng{g}"),
                    d,
                    "[31:0] ",
                    &format!("{n}g{g}_{e}"),
                    &format!("{n}_{e}"),
                );
            }
            let _ = writeln!(
                v,
                "wire [95:0] {n}g{g} = {{{}}};",
                cat(&format!("{n}g{g}"), 3)
            );
        }
    }
    // What level 4 and the tests read of the lane, delayed by every cut: q per edge, and the flags
    // {nz, nmask, own} (registers of at most 64 bits, for the netlist engine).
    let _ = writeln!(v, "wire [19:0] flags0 = {{nz, nmask, {}}};", cat("own", 3));
    for e in 0..3 {
        let _ = writeln!(v, "wire [31:0] q{e}_0 = q_{e};");
    }
    if cuts == 0 && !z {
        let _ = writeln!(v, "/* verilator lint_off UNUSEDSIGNAL */\nwire unused_ok = &{{1'b0, clock, adv_next}};\n/* verilator lint_on UNUSEDSIGNAL */");
    }
    // The last cut's copies of q and the flags are per test (below), so that no register fans out
    // to the 16 samples' last adders across the lane.
    let shared = cuts.saturating_sub(1);
    if shared > 0 {
        enable_copy(&mut v, "enl");
    }
    for k in 1..=shared {
        let p = k - 1;
        let _ = writeln!(v, "reg [19:0] flags{k};\ninitial flags{k} = 0;");
        let _ = writeln!(v, "always @(posedge clock) if (enl) flags{k} <= flags{p};");
        for e in 0..3 {
            let _ = writeln!(v, "reg [31:0] q{e}_{k};\ninitial q{e}_{k} = 0;");
            let _ = writeln!(v, "always @(posedge clock) if (enl) q{e}_{k} <= q{e}_{p};");
        }
    }
    let _ = writeln!(
        v,
        "wire [95:0] qv = {{q2_{shared}, q1_{shared}, q0_{shared}}};"
    );
    let _ = writeln!(v, "wire [2:0] ownv = flags{shared}[2:0];");
    let _ = writeln!(v, "wire [15:0] nmv = flags{shared}[18:3];");
    let _ = writeln!(v, "wire nzv = flags{shared}[19];");
    let _ = writeln!(v, "wire [15:0] hw;");
    let _ = writeln!(v, "genvar gs, ge;");
    // The carry chains' bit index (the portable form has no chains).
    let _ = writeln!(v, "`ifdef TEXPIX_ECP5_CARRY\ngenvar gi;\n`endif");
    let _ = writeln!(v, "generate for (gs = 0; gs < 16; gs = gs + 1) begin : smp");
    // The sample's enable copy, for its position and flags.
    if cuts >= 1 {
        enable_copy(&mut v, "ens");
    }
    keep_reg(&mut v, "ens", d, "[7:0] ", "pp", "posv[8*gs +: 8]");
    let _ = writeln!(v, "wire [3:0] sx = pp[3:0];");
    let _ = writeln!(v, "wire [3:0] sy = pp[7:4];");
    let per_group = 16 / SAMPLE_GROUPS;
    for n in ["dx", "dy"] {
        let _ = writeln!(
            v,
            "wire [95:0] {n}s = {};",
            (0..SAMPLE_GROUPS)
                .map(|g| if g + 1 < SAMPLE_GROUPS {
                    format!("gs < {} ? {n}g{g} : ", per_group * (g + 1))
                } else {
                    format!("{n}g{g}")
                })
                .collect::<String>()
        );
    }
    let _ = writeln!(v, "wire [2:0] pass;");
    // Whether the sample counts at all (nz and its bit of nmask), through the last cut.
    keep_reg(&mut v, "ens", cuts >= 1, "", "live_t", "nzv & nmv[gs]");
    keep_reg(&mut v, "ens", z, "", "live", "live_t");
    let _ = writeln!(v, "for (ge = 0; ge < 3; ge = ge + 1) begin : edg");
    // The test's enable copy, for its own registers (about 200 of them, in one place).
    if cuts >= 1 {
        enable_copy(&mut v, "ene");
    }
    // The steps' top bits are copies of their sign (|step| < 2^25): the sums read fewer.
    let _ = writeln!(v, "/* verilator lint_off UNUSEDSIGNAL */");
    for n in ["dx", "dy"] {
        let _ = writeln!(v, "wire [31:0] {n} = {n}s[32*ge +: 32];");
    }
    let _ = writeln!(v, "/* verilator lint_on UNUSEDSIGNAL */");
    keep_reg(&mut v, "ene", cuts >= 1, "[31:0] ", "q", "qv[32*ge +: 32]");
    keep_reg(&mut v, "ene", cuts >= 1, "", "own", "ownv[ge]");
    // Each sum at the width its value needs (ADDER_WIDTHS), its operands the low bits of the
    // (sign-extended) terms: the sum is exact, as it fits.
    // (All but the last, `acc`, declared below with its unread bits waived.)
    for (name, w) in &ADDER_WIDTHS[..ADDER_WIDTHS.len() - 1] {
        let _ = writeln!(v, "wire [{}:0] {name};", w - 1);
    }
    // Without cut Z only the last sum's sign is read (its zero test reads the operands).
    let _ = writeln!(
        v,
        "/* verilator lint_off UNUSEDSIGNAL */\nwire [{}:0] acc;\n/* verilator lint_on UNUSEDSIGNAL */",
        adder_width("acc") - 1
    );
    // A cut's registers: `names` in, `<name>r` out (the same wire when the cut is absent).
    let cut = |v: &mut String, on: bool, names: &[&str]| -> Vec<String> {
        names
            .iter()
            .map(|n| {
                if on {
                    let w = adder_width(n);
                    let _ = writeln!(v, "reg [{}:0] {n}r;\ninitial {n}r = 0;", w - 1);
                    let _ = writeln!(v, "always @(posedge clock) if (ene) {n}r <= {n};");
                    format!("{n}r")
                } else {
                    (*n).to_string()
                }
            })
            .collect()
    };
    // An operand of the adder `y` (its width w): the net's low w bits, its sign extended when it
    // is narrower (`bits` wide), shifted left by `shift` (a step times an offset bit's weight).
    let operand = |v: &mut String, y: &str, side: &str, &(net, bits, shift): &Term| -> String {
        let w = adder_width(y);
        let name = format!("{y}_{side}");
        let value = if shift > 0 {
            format!("{{{net}[{}:0], {shift}'b0}}", w - 1 - shift)
        } else if bits >= w {
            format!("{net}[{}:0]", w - 1)
        } else {
            format!("{{{{{}{{{net}[{}]}}}}, {net}}}", w - bits, bits - 1)
        };
        let _ = writeln!(v, "wire [{}:0] {name} = {value};", w - 1);
        name
    };
    let one = "1'b1";
    let emit = |v: &mut String, adders: &[Adder]| {
        for (y, (a, ga), (b, gb), sub) in adders {
            let a = operand(v, y, "a", a);
            let b = operand(v, y, "b", b);
            v.push_str(&gated_add_verilog(
                &format!("c_{y}"),
                "gi",
                adder_width(y),
                y,
                (&a, ga),
                (&b, gb),
                *sub,
            ));
        }
    };
    // Level 1: the eight shifted steps (step, shift, gate), in pairs.
    let step = |n: &'static str, k: usize, gate: &'static str| ((n, 32, k), gate);
    emit(
        &mut v,
        &[
            ("u0", step("dx", 0, "sy[0]"), step("dx", 1, "sy[1]"), false),
            ("u1", step("dx", 2, "sy[2]"), step("dx", 3, "sy[3]"), true),
            ("u2", step("dy", 3, "sx[3]"), step("dy", 1, "sx[1]"), true),
            ("u3", step("dy", 0, "sx[0]"), step("dy", 2, "sx[2]"), false),
        ],
    );
    let sum = |n: &'static str| (n, adder_width(n), 0);
    // Level 2: dx·sy and −dy·sx; cut T1; level 3: T; cut T2.
    emit(
        &mut v,
        &[
            ("v0", (sum("u0"), one), (sum("u1"), one), false),
            ("v1", (sum("u2"), one), (sum("u3"), one), true),
        ],
    );
    let w = cut(&mut v, t1, &["v0", "v1"]);
    let (v0, v1) = (
        (w[0].as_str(), adder_width("v0"), 0),
        (w[1].as_str(), adder_width("v1"), 0),
    );
    emit(&mut v, &[("t", (v0, one), (v1, one), false)]);
    let t = cut(&mut v, t2, &["t"]);
    // Level 4: q + T.
    emit(
        &mut v,
        &[(
            "acc",
            (("q", 32, 0), one),
            ((&t[0], adder_width("t"), 0), one),
            false,
        )],
    );
    if z {
        // Cut Z gives the test a clock of its own: the zero test reads the sum (about 11 LUT4),
        // after the chain.
        let _ = writeln!(v, "wire nonzero = |acc;");
    } else {
        // `q + t = 0` (t sign-extended: `acc_b`) without waiting for the carry chain: every sum
        // bit is zero exactly when the carry into bit i is `q[i] ^ t[i]`, that is when
        // `q[i] ^ t[i] = q[i-1] | t[i-1]` (0 for bit 0); so the zero test reads the operands,
        // beside the chain (about 43 LUT4), and only the sign waits for it.
        let _ = writeln!(
            v,
            "wire [31:0] zw = q ^ acc_b ^ {{q[30:0] | acc_b[30:0], 1'b0}};\nwire nonzero = |zw;"
        );
    }
    keep_reg(&mut v, "ene", z, "", "pass_z", "!acc[31] & (nonzero | own)");
    let _ = writeln!(v, "assign pass[ge] = pass_z;");
    let _ = writeln!(v, "end");
    let _ = writeln!(v, "assign hw[gs] = live & (&pass);");
    let _ = writeln!(v, "end endgenerate");
    let _ = writeln!(v, "always @(*) hit = hw;");
    v
}
