//! Wrap of one integer texel coordinate (Vulkan's formulas, see `docs/units/texaddr.md`).
//!
//! [`Wrap1`] ports: `i` (two's complement texel), `r` (i mod P·n, 0 ≤ r < P·n, from
//! [`super::ModP`]; P = 2 for mirrored repeat), `n` (level size, 1…32768), `mode` (0 repeat,
//! 1 mirrored repeat, 2 clamp to edge, 3 clamp to border, 4 mirror clamp to edge; 5…7 act as
//! clamp to edge) → `coord` (two's complement), `border`. Combinational: every mode is one
//! compare or one add beside the others, then the mode's select (no two carry chains in series).

use rust_hdl::prelude::*;

crate::settled_block! {
/// Wraps one coordinate. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct Wrap1 {
    /// Texel (two's complement).
    pub i: Signal<In, Bits<32>>,
    /// i mod P·n.
    pub r: Signal<In, Bits<32>>,
    /// Level size.
    pub n: Signal<In, Bits<16>>,
    /// Wrap mode code.
    pub mode: Signal<In, Bits<3>>,
    /// Wrapped texel (−1 or n for a border texel).
    pub coord: Signal<Out, Bits<32>>,
    /// Border texel.
    pub border: Signal<Out, Bit>,
    n32: Signal<Local, Bits<32>>,
    nm1: Signal<Local, Bits<32>>,
    rlt: Signal<Local, Bit>,
    rev: Signal<Local, Bits<32>>,
    ni: Signal<Local, Bits<32>>,
    lt0: Signal<Local, Bit>,
    ige: Signal<Local, Bit>,
    nige: Signal<Local, Bit>,
    ge: Signal<Local, Bit>,
    res: Signal<Local, Bits<32>>,
    bord: Signal<Local, Bit>,
}
}

impl Logic for Wrap1 {
    #[hdl_gen]
    fn update(&mut self) {
        self.n32.next = bit_cast::<32, 16>(self.n.val());
        self.nm1.next = self.n32.val() - bits::<32>(1);
        // Mirrored repeat: (n − 1) − mirror(r − n) is r below n and 2n − 1 − r = !r + 2n from n
        // on (0 ≤ r < 2n): a compare and an add side by side.
        self.rlt.next = self.r.val() < self.n32.val();
        self.rev.next = !self.r.val() + (self.n32.val() << 1);
        // Clamp modes: i ≥ n and, for the mirror, !i ≥ n (= mirror(i) ≥ n for negative i), both
        // compared at once, the sign selecting.
        self.lt0.next = self.i.val().get_bit(31);
        self.ni.next = !self.i.val();
        // (n < 2^16: a 16-bit compare beside an OR of the upper half.)
        self.ige.next = self.i.val().get_bits::<16>(16).any()
            | (self.i.val().get_bits::<16>(0) >= self.n.val());
        self.nige.next = self.ni.val().get_bits::<16>(16).any()
            | (self.ni.val().get_bits::<16>(0) >= self.n.val());
        self.ge.next = !self.lt0.val() & self.ige.val();
        self.bord.next = false;
        self.res.next = self.i.val();
        match self.mode.val().index() {
            0 => {
                self.res.next = self.r.val();
            }
            1 => {
                self.res.next = self.rev.val();
                if self.rlt.val() {
                    self.res.next = self.r.val();
                }
            }
            3 => {
                self.bord.next = self.lt0.val() | self.ge.val();
                if self.lt0.val() {
                    self.res.next = bits::<32>(0xffff_ffff_u64);
                }
                if self.ge.val() {
                    self.res.next = self.n32.val();
                }
            }
            4 => {
                if self.lt0.val() {
                    self.res.next = self.ni.val();
                    if self.nige.val() {
                        self.res.next = self.nm1.val();
                    }
                } else {
                    self.res.next = self.i.val();
                    if self.ige.val() {
                        self.res.next = self.nm1.val();
                    }
                }
            }
            _ => {
                if self.lt0.val() {
                    self.res.next = bits::<32>(0);
                }
                if self.ge.val() {
                    self.res.next = self.nm1.val();
                }
            }
        }
        self.coord.next = self.res.val();
        self.border.next = self.bord.val();
    }
}
