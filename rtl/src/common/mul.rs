//! Signed wide multiplier as a leaf block.
//!
//! rust-hdl only implements `Bits<16> * Bits<16>`; wider products are leaf blocks with their own
//! simulation (native `i128` arithmetic, fast) and a one-line Verilog body so that synthesis maps the
//! product onto DSP/multiplier cells.
//!
//! Ports: `a: Bits<A>`, `b: Bits<B>` (two's complement), `p: Bits<P>` (two's complement, the exact
//! product when `P >= A + B`, else its low `P` bits). Purely combinational: latency 0.

use rust_hdl::prelude::*;

/// `p = a * b`, all operands two's complement.
#[derive(Clone, Debug, LogicBlock, Default)]
pub struct MulS<const A: usize, const B: usize, const P: usize> {
    /// Multiplicand.
    pub a: Signal<In, Bits<A>>,
    /// Multiplier.
    pub b: Signal<In, Bits<B>>,
    /// Product.
    pub p: Signal<Out, Bits<P>>,
}

/// Sign-extends the low `width` bits of `v`.
fn sext(v: u128, width: usize) -> i128 {
    let shift = 128 - width as u32;
    ((v << shift) as i128) >> shift
}

impl<const A: usize, const B: usize, const P: usize> Logic for MulS<A, B, P> {
    fn update(&mut self) {
        let a = sext(self.a.val().to_u128(), A);
        let b = sext(self.b.val().to_u128(), B);
        let p = a.wrapping_mul(b) as u128;
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
        Verilog::Custom("always @(*) p = $signed(a) * $signed(b);".into())
    }
}
