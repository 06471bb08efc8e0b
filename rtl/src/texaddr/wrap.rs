//! Wrap of one integer texel coordinate (Vulkan's formulas, see `docs/units/texaddr.md`).
//!
//! [`Wrap1`] ports: `i` (two's complement texel), `r` (i mod P·n, from [`super::ModP`]), `n` (level size,
//! 1…32768), `mode` (0 repeat, 1 mirrored repeat, 2 clamp to edge, 3 clamp to border, 4 mirror
//! clamp to edge; 5…7 act as clamp to edge) → `coord` (two's complement), `border`.
//! Combinational.

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
    dd: Signal<Local, Bits<32>>,
    mir: Signal<Local, Bits<32>>,
    ni: Signal<Local, Bits<32>>,
    mi: Signal<Local, Bits<32>>,
    lt0: Signal<Local, Bit>,
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
        // Mirrored repeat: (n − 1) − mirror(x − n).
        self.dd.next = self.r.val() - self.n32.val();
        self.mir.next = self.dd.val();
        if self.dd.val().get_bit(31) {
            self.mir.next = !self.dd.val();
        }
        // Clamp modes.
        self.lt0.next = self.i.val().get_bit(31);
        self.ge.next = !self.i.val().get_bit(31) & (self.i.val() >= self.n32.val());
        self.ni.next = !self.i.val();
        self.mi.next = self.i.val();
        if self.lt0.val() {
            self.mi.next = self.ni.val();
        }
        self.bord.next = false;
        self.res.next = self.i.val();
        match self.mode.val().index() {
            0 => {
                self.res.next = self.r.val();
            }
            1 => {
                self.res.next = self.nm1.val() - self.mir.val();
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
                self.res.next = self.mi.val();
                if self.mi.val() >= self.n32.val() {
                    self.res.next = self.nm1.val();
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
