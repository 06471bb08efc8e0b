//! Leading-zero count.
//!
//! Ports: `a: Bits<N>` → `count: Bits<7>` = number of zero bits above the most significant one of
//! `a` (`0 ≤ count ≤ N - 1`), or `N` when `a` is all zeros. `1 ≤ N ≤ 64`. Combinational, latency 0.
//! No rounding, no floating point.
//!
//! Hardware: a priority encoder (the per-bit results are constants `N - 1 - i`, held as
//! [`Constant`]s so that the generic `N` never appears in the generated Verilog).

use rust_hdl::prelude::*;

/// Width of [`Lzc::count`]: counts up to 64 (N ≤ 64) need 7 bits.
pub const LZC_BITS: usize = 7;

/// Leading-zero counter of an `N`-bit word.
#[derive(Clone, Debug, LogicBlock)]
pub struct Lzc<const N: usize> {
    /// The word.
    pub a: Signal<In, Bits<N>>,
    /// Leading zeros (N for zero).
    pub count: Signal<Out, Bits<LZC_BITS>>,
    /// `kpos[i] = N - 1 - i`: the count when bit `i` is the leading one.
    kpos: [Constant<Bits<LZC_BITS>>; N],
    /// The count of an all-zero word.
    kall: Constant<Bits<LZC_BITS>>,
    c: Signal<Local, Bits<LZC_BITS>>,
}

impl<const N: usize> Default for Lzc<N> {
    fn default() -> Self {
        assert!((1..=64).contains(&N), "Lzc<N> supports 1 ≤ N ≤ 64");
        Self {
            a: Default::default(),
            count: Default::default(),
            kpos: std::array::from_fn(|i| Constant::new(((N - 1 - i) as u64).into())),
            kall: Constant::new((N as u64).into()),
            c: Default::default(),
        }
    }
}

impl<const N: usize> Logic for Lzc<N> {
    #[hdl_gen]
    fn update(&mut self) {
        // Scan from the LSB up: the last set bit seen is the leading one.
        self.c.next = self.kall.val();
        for i in 0..N {
            if self.a.val().get_bit(i) {
                self.c.next = self.kpos[i].val();
            }
        }
        self.count.next = self.c.val();
    }
}
