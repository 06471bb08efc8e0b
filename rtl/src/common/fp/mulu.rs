//! Unsigned wide multiplier as a leaf block (the unsigned sibling of [`crate::common::MulS`]).
//!
//! rust-hdl only implements `Bits<16> * Bits<16>`; wider products are leaf blocks with their own
//! simulation (native `u128` arithmetic) and a one-line Verilog body, so that synthesis maps the
//! product onto DSP/multiplier cells.
//!
//! Ports: `a: Bits<A>`, `b: Bits<B>` (unsigned, `A, B ≤ 64`) → `p: Bits<P>` (the exact product when
//! `P ≥ A + B`, else its low `P` bits). Combinational: latency 0. Exact: no rounding.
//!
//! A product of at most 6 × 6 bits is written as the sum of its shifted, masked rows instead of
//! `*` ([`LUT_MAX`]): synthesis would give it a whole 18 × 18 DSP slice (the 6 × 6 high part of
//! every f32 multiplier, a quarter of the LOD unit's 136 slices on the ECP5-85F), where a few
//! dozen LUTs do.

use rust_hdl::prelude::*;

/// `p = a * b`, all operands unsigned.
#[derive(Clone, Debug, LogicBlock, Default)]
pub struct MulU<const A: usize, const B: usize, const P: usize> {
    /// Multiplicand.
    pub a: Signal<In, Bits<A>>,
    /// Multiplier.
    pub b: Signal<In, Bits<B>>,
    /// Product.
    pub p: Signal<Out, Bits<P>>,
}

impl<const A: usize, const B: usize, const P: usize> Logic for MulU<A, B, P> {
    fn update(&mut self) {
        self.p.next = product(self.a.val(), self.b.val());
    }
    fn connect(&mut self) {
        self.p.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "always @(*) p = {};",
            product_verilog(A, B, P, "a", "b")
        ))
    }
}

/// Operand widths up to which a product is built from logic rather than a DSP slice.
pub const LUT_MAX: usize = 6;

/// Whether an `a` × `b`-bit product of `p` bits is built from logic ([`LUT_MAX`]).
fn from_logic(a: usize, b: usize, p: usize) -> bool {
    a <= LUT_MAX && b <= LUT_MAX && p > a
}

/// The Verilog expression for the `p`-bit product of the `a`-bit net `x` and the `b`-bit net `y`:
/// `x * y`, or for operands of at most [`LUT_MAX`] bits the sum of `y`'s rows, each `x` shifted
/// and masked by one bit of `y` (the same value; Yosys does not turn it back into a multiply).
fn product_verilog(a: usize, b: usize, p: usize, x: &str, y: &str) -> String {
    if !from_logic(a, b, p) {
        return format!("{x} * {y}");
    }
    (0..b)
        .map(|k| format!("({{{p}{{{y}[{k}]}}}} & ({{{}'d0, {x}}} << {k}))", p - a))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// [`MulU`] with the registers of an FPGA DSP slice: an operand register in front of the
/// multiplier and a product register behind it, or none.
///
/// Ports: `clock`, `en: Bit`, `a: Bits<A>`, `b: Bits<B>` → `p: Bits<P>` (as [`MulU`]). Registered
/// ([`MulUReg::new`]`(true)`): on every rising edge with `en` high the operand registers take `a`
/// and `b` and the product register takes their earlier product, so `p` is the product of the
/// operands presented two enabled edges earlier (latency 2, one product per enabled clock; `en`
/// low holds both). The registers power up at zero and are not reset. Not registered: `p` is
/// `a · b` now and `clock` and `en` are unused (latency 0). Exact: no rounding.
///
/// The Verilog is the same behaviour twice. By default it is portable: two `always` registers
/// around `*`, which synthesis maps to a DSP slice and, where its tools pack registers (Yosys'
/// iCE40 and Xilinx flows), into the slice's own registers. With `A, B ≤ 18` and the macro
/// `TEXPIX_ECP5_DSP` defined (`read_verilog -DTEXPIX_ECP5_DSP`) a registered leaf is instead one
/// Lattice ECP5 `MULT18X18D` (but one of at most [`LUT_MAX`] × [`LUT_MAX`] bits, built from
/// logic) with its input registers A and B and its output register in use (clock CLK0, enable CE0, unsigned). Yosys' `synth_ecp5` does not move flip-flops into a
/// `MULT18X18D`, so without the macro the registers stay in the logic fabric, and the route
/// from an operand register to the DSP column and back is a clock period of its own
/// (docs/fpga.md, "Transport registers").
#[derive(Clone, Debug, LogicBlock)]
pub struct MulUReg<const A: usize, const B: usize, const P: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance the registers (both hold while low).
    pub en: Signal<In, Bit>,
    /// Multiplicand.
    pub a: Signal<In, Bits<A>>,
    /// Multiplier.
    pub b: Signal<In, Bits<B>>,
    /// Product (two enabled edges after its operands when registered).
    pub p: Signal<Out, Bits<P>>,
    /// The registers are built.
    _registered: bool,
    /// Operand registers and product register.
    _ra: Bits<A>,
    _rb: Bits<B>,
    _rp: Bits<P>,
}

/// The low `P` bits of `a · b`.
fn product<const A: usize, const B: usize, const P: usize>(a: Bits<A>, b: Bits<B>) -> Bits<P> {
    let p = a.to_u128().wrapping_mul(b.to_u128());
    let mask = if P >= 128 {
        u128::MAX
    } else {
        (1u128 << P) - 1
    };
    (p & mask).to_bits::<P>()
}

impl<const A: usize, const B: usize, const P: usize> MulUReg<A, B, P> {
    /// The multiplier with (`true`) or without its two registers.
    pub fn new(registered: bool) -> Self {
        Self {
            clock: Default::default(),
            en: Default::default(),
            a: Default::default(),
            b: Default::default(),
            p: Default::default(),
            _registered: registered,
            _ra: Default::default(),
            _rb: Default::default(),
            _rp: Default::default(),
        }
    }

    /// Register stages (the latency in enabled clocks): 2 or 0.
    pub fn stages(&self) -> usize {
        if self._registered {
            2
        } else {
            0
        }
    }
}

impl<const A: usize, const B: usize, const P: usize> Logic for MulUReg<A, B, P> {
    fn update(&mut self) {
        if !self._registered {
            self.p.next = product(self.a.val(), self.b.val());
            return;
        }
        if self.clock.pos_edge() && self.en.val() {
            self._rp = product(self._ra, self._rb);
            self._ra = self.a.val();
            self._rb = self.b.val();
        }
        self.p.next = self._rp;
    }
    fn connect(&mut self) {
        self.p.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(mul_reg_verilog(A, B, P, self._registered))
    }
}

/// The Verilog body of [`MulUReg`]: portable registers around `*`, and for a registered leaf of at
/// most 18 × 18 bits an ECP5 `MULT18X18D` alternative under `TEXPIX_ECP5_DSP`, whose `p` follows
/// the slice's product register and starts at its power-up value, zero (without the `initial`,
/// a simulator may leave `p` unknown until the product first changes).
fn mul_reg_verilog(a: usize, b: usize, p: usize, registered: bool) -> String {
    if !registered {
        return format!(
            "always @(*) p = {};\n/* verilator lint_off UNUSEDSIGNAL */\nwire unused_ok = &{{1'b0, clock, en}};\n/* verilator lint_on UNUSEDSIGNAL */\n",
            product_verilog(a, b, p, "a", "b")
        );
    }
    let portable = format!(
        "reg [{}:0] ra;\nreg [{}:0] rb;\ninitial begin\n   ra = 0;\n   rb = 0;\n   p = 0;\nend\nalways @(posedge clock) begin\n   if (en) begin\n      ra <= a;\n      rb <= b;\n      p <= {};\n   end\nend\n",
        a - 1,
        b - 1,
        product_verilog(a, b, p, "ra", "rb")
    );
    if a > 18 || b > 18 || p > 36 || from_logic(a, b, p) {
        return portable;
    }
    let pad = |w: usize, x: &str| {
        if w == 18 {
            x.to_string()
        } else {
            format!("{{{}'d0, {x}}}", 18 - w)
        }
    };
    let bus = |port: &str, net: &str| {
        (0..18)
            .map(|i| format!(".{port}{i}({net}[{i}])"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let params = ["INPUTA", "INPUTB", "OUTPUT"]
        .iter()
        .map(|r| format!(".REG_{r}_CLK(\"CLK0\"), .REG_{r}_CE(\"CE0\"), .REG_{r}_RST(\"RST0\")"))
        .collect::<Vec<_>>()
        .join(",\n      ");
    let outs = (0..36)
        .map(|i| format!(".P{i}(pw[{i}])"))
        .collect::<Vec<_>>()
        .join(", ");
    let zero_c = (0..18)
        .map(|i| format!(".C{i}(1'b0)"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "`ifdef TEXPIX_ECP5_DSP\nwire [17:0] aw = {};\nwire [17:0] bw = {};\nwire [35:0] pw;\n\
         MULT18X18D #(\n      {params},\n      .GSR(\"ENABLED\"), .RESETMODE(\"SYNC\")\n   ) dsp (\n      \
         {},\n      {},\n      {zero_c},\n      \
         .SIGNEDA(1'b0), .SIGNEDB(1'b0), .SOURCEA(1'b0), .SOURCEB(1'b0),\n      \
         .CLK0(clock), .CLK1(1'b0), .CLK2(1'b0), .CLK3(1'b0), .CE0(en), .CE1(1'b0), .CE2(1'b0), .CE3(1'b0),\n      \
         .RST0(1'b0), .RST1(1'b0), .RST2(1'b0), .RST3(1'b0),\n      {outs}\n   );\n\
         initial p = 0;\nalways @(*) p = pw[{}:0];\n`else\n{portable}`endif\n",
        pad(a, "a"),
        pad(b, "b"),
        bus("A", "aw"),
        bus("B", "bw"),
        p - 1
    )
}
