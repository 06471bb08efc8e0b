//! Wrap of one integer texel coordinate (Vulkan's formulas, see `docs/units/texaddr.md`), and the
//! remainder unit the periodic modes need.
//!
//! [`Wrap1`] ports: `i` (two's complement texel), `r` (i mod P·n, from [`ModP`]), `n` (level size,
//! 1…32768), `mode` (0 repeat, 1 mirrored repeat, 2 clamp to edge, 3 clamp to border, 4 mirror
//! clamp to edge; 5…7 act as clamp to edge) → `coord` (two's complement), `border`.
//! Combinational.
//!
//! [`ModP`] ports: `i` (two's complement, |i| < 2^23, which the 24.8 coordinate range guarantees),
//! `pn` (1…65536) → `r` = i mod pn in [0, pn). |i| mod pn by 23 restoring compare-subtract steps
//! (pn·2^22 … pn·2^0, a step skipped where pn·2^k ≥ 2^23), then pn − r for a negative i.

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

crate::settled_block! {
/// i mod pn. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct ModP {
    /// Dividend (two's complement, |i| < 2^23).
    pub i: Signal<In, Bits<32>>,
    /// Divisor (1…65536).
    pub pn: Signal<In, Bits<32>>,
    /// Remainder in [0, pn).
    pub r: Signal<Out, Bits<32>>,
    x: Signal<Local, Bits<32>>,
    res: Signal<Local, Bits<32>>,
}
}

impl Logic for ModP {
    #[hdl_gen]
    fn update(&mut self) {
        self.x.next = self.i.val();
        if self.i.val().get_bit(31) {
            self.x.next = bits::<32>(0) - self.i.val();
        }
        if !(self.pn.val() >> 1).any() & (self.x.val() >= (self.pn.val() << 22)) {
            self.x.next = self.x.val() - (self.pn.val() << 22);
        }
        if !(self.pn.val() >> 2).any() & (self.x.val() >= (self.pn.val() << 21)) {
            self.x.next = self.x.val() - (self.pn.val() << 21);
        }
        if !(self.pn.val() >> 3).any() & (self.x.val() >= (self.pn.val() << 20)) {
            self.x.next = self.x.val() - (self.pn.val() << 20);
        }
        if !(self.pn.val() >> 4).any() & (self.x.val() >= (self.pn.val() << 19)) {
            self.x.next = self.x.val() - (self.pn.val() << 19);
        }
        if !(self.pn.val() >> 5).any() & (self.x.val() >= (self.pn.val() << 18)) {
            self.x.next = self.x.val() - (self.pn.val() << 18);
        }
        if !(self.pn.val() >> 6).any() & (self.x.val() >= (self.pn.val() << 17)) {
            self.x.next = self.x.val() - (self.pn.val() << 17);
        }
        if !(self.pn.val() >> 7).any() & (self.x.val() >= (self.pn.val() << 16)) {
            self.x.next = self.x.val() - (self.pn.val() << 16);
        }
        if !(self.pn.val() >> 8).any() & (self.x.val() >= (self.pn.val() << 15)) {
            self.x.next = self.x.val() - (self.pn.val() << 15);
        }
        if !(self.pn.val() >> 9).any() & (self.x.val() >= (self.pn.val() << 14)) {
            self.x.next = self.x.val() - (self.pn.val() << 14);
        }
        if !(self.pn.val() >> 10).any() & (self.x.val() >= (self.pn.val() << 13)) {
            self.x.next = self.x.val() - (self.pn.val() << 13);
        }
        if !(self.pn.val() >> 11).any() & (self.x.val() >= (self.pn.val() << 12)) {
            self.x.next = self.x.val() - (self.pn.val() << 12);
        }
        if !(self.pn.val() >> 12).any() & (self.x.val() >= (self.pn.val() << 11)) {
            self.x.next = self.x.val() - (self.pn.val() << 11);
        }
        if !(self.pn.val() >> 13).any() & (self.x.val() >= (self.pn.val() << 10)) {
            self.x.next = self.x.val() - (self.pn.val() << 10);
        }
        if !(self.pn.val() >> 14).any() & (self.x.val() >= (self.pn.val() << 9)) {
            self.x.next = self.x.val() - (self.pn.val() << 9);
        }
        if !(self.pn.val() >> 15).any() & (self.x.val() >= (self.pn.val() << 8)) {
            self.x.next = self.x.val() - (self.pn.val() << 8);
        }
        if !(self.pn.val() >> 16).any() & (self.x.val() >= (self.pn.val() << 7)) {
            self.x.next = self.x.val() - (self.pn.val() << 7);
        }
        if !(self.pn.val() >> 17).any() & (self.x.val() >= (self.pn.val() << 6)) {
            self.x.next = self.x.val() - (self.pn.val() << 6);
        }
        if !(self.pn.val() >> 18).any() & (self.x.val() >= (self.pn.val() << 5)) {
            self.x.next = self.x.val() - (self.pn.val() << 5);
        }
        if !(self.pn.val() >> 19).any() & (self.x.val() >= (self.pn.val() << 4)) {
            self.x.next = self.x.val() - (self.pn.val() << 4);
        }
        if !(self.pn.val() >> 20).any() & (self.x.val() >= (self.pn.val() << 3)) {
            self.x.next = self.x.val() - (self.pn.val() << 3);
        }
        if !(self.pn.val() >> 21).any() & (self.x.val() >= (self.pn.val() << 2)) {
            self.x.next = self.x.val() - (self.pn.val() << 2);
        }
        if !(self.pn.val() >> 22).any() & (self.x.val() >= (self.pn.val() << 1)) {
            self.x.next = self.x.val() - (self.pn.val() << 1);
        }
        if !(self.pn.val() >> 23).any() & (self.x.val() >= (self.pn.val() << 0)) {
            self.x.next = self.x.val() - (self.pn.val() << 0);
        }
        self.res.next = self.x.val();
        if self.i.val().get_bit(31) & self.x.val().any() {
            self.res.next = self.pn.val() - self.x.val();
        }
        self.r.next = self.res.val();
    }
}
