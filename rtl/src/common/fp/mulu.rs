//! Unsigned wide multiplier as a leaf block (the unsigned sibling of [`crate::common::MulS`]).
//!
//! rust-hdl only implements `Bits<16> * Bits<16>`; wider products are leaf blocks with their own
//! simulation (native `u128` arithmetic) and a one-line Verilog body, so that synthesis maps the
//! product onto DSP/multiplier cells.
//!
//! Ports: `a: Bits<A>`, `b: Bits<B>` (unsigned, `A, B ≤ 64`) → `p: Bits<P>` (the exact product when
//! `P ≥ A + B`, else its low `P` bits). Combinational: latency 0. Exact: no rounding.

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
        let p = self.a.val().to_u128().wrapping_mul(self.b.val().to_u128());
        let mask = if P >= 128 {
            u128::MAX
        } else {
            (1u128 << P) - 1
        };
        self.p.next = (p & mask).to_bits::<P>();
    }
    fn connect(&mut self) {
        self.p.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom("always @(*) p = a * b;".into())
    }
}
