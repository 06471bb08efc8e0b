//! Byte addresses and residency tiles of one lane's four taps at one level (the linear layout of
//! `docs/units/texaddr.md`).
//!
//! Ports: `i0`, `i1`, `j0`, `j1` (the low 16 bits of the wrapped texels; border taps' addresses
//! are discarded by the unit), `layer` (clamped), `start`, `pitch`,
//! `slice` (from [`super::LevelLayout`]), `bpp_log2` → per tap k (order (i0,j0), (i1,j0), (i0,j1),
//! (i1,j1)) `addr<k>` = start + off (modulo 2^48) and `tile<k>` = off >> 16 (the 64 KiB tile within
//! the level), off = layer·slice + j·pitch + i·bpp. Combinational: one 16×36 and two 16×20
//! products, six 48-bit adds.

use crate::common::fp::MulU;
use rust_hdl::prelude::*;

crate::settled_block! {
/// Tap addresses. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct TapAddr {
    /// First texel along u.
    pub i0: Signal<In, Bits<16>>,
    /// Second texel along u.
    pub i1: Signal<In, Bits<16>>,
    /// First texel along v.
    pub j0: Signal<In, Bits<16>>,
    /// Second texel along v.
    pub j1: Signal<In, Bits<16>>,
    /// Array layer.
    pub layer: Signal<In, Bits<16>>,
    /// Level start address.
    pub start: Signal<In, Bits<48>>,
    /// Row pitch in bytes.
    pub pitch: Signal<In, Bits<20>>,
    /// Layer size in bytes.
    pub slice: Signal<In, Bits<36>>,
    /// log2 bytes per texel.
    pub bpp_log2: Signal<In, Bits<3>>,
    /// Byte address of tap 0.
    pub addr0: Signal<Out, Bits<48>>,
    /// Byte address of tap 1.
    pub addr1: Signal<Out, Bits<48>>,
    /// Byte address of tap 2.
    pub addr2: Signal<Out, Bits<48>>,
    /// Byte address of tap 3.
    pub addr3: Signal<Out, Bits<48>>,
    /// Residency tile of tap 0.
    pub tile0: Signal<Out, Bits<32>>,
    /// Residency tile of tap 1.
    pub tile1: Signal<Out, Bits<32>>,
    /// Residency tile of tap 2.
    pub tile2: Signal<Out, Bits<32>>,
    /// Residency tile of tap 3.
    pub tile3: Signal<Out, Bits<32>>,
    lay: MulU<16, 36, 48>,
    row0: MulU<16, 20, 36>,
    row1: MulU<16, 20, 36>,
    col0: Signal<Local, Bits<48>>,
    col1: Signal<Local, Bits<48>>,
    r0: Signal<Local, Bits<48>>,
    r1: Signal<Local, Bits<48>>,
    off: [Signal<Local, Bits<48>>; 4],
}
}

impl Logic for TapAddr {
    #[hdl_gen]
    fn update(&mut self) {
        self.lay.a.next = self.layer.val();
        self.lay.b.next = self.slice.val();
        self.row0.a.next = self.j0.val();
        self.row0.b.next = self.pitch.val();
        self.row1.a.next = self.j1.val();
        self.row1.b.next = self.pitch.val();
        self.col0.next = bit_cast::<48, 16>(self.i0.val()) << self.bpp_log2.val();
        self.col1.next = bit_cast::<48, 16>(self.i1.val()) << self.bpp_log2.val();
        self.r0.next = self.lay.p.val() + bit_cast::<48, 36>(self.row0.p.val());
        self.r1.next = self.lay.p.val() + bit_cast::<48, 36>(self.row1.p.val());
        self.off[0].next = self.r0.val() + self.col0.val();
        self.off[1].next = self.r0.val() + self.col1.val();
        self.off[2].next = self.r1.val() + self.col0.val();
        self.off[3].next = self.r1.val() + self.col1.val();
        self.addr0.next = self.start.val() + self.off[0].val();
        self.tile0.next = self.off[0].val().get_bits::<32>(16);
        self.addr1.next = self.start.val() + self.off[1].val();
        self.tile1.next = self.off[1].val().get_bits::<32>(16);
        self.addr2.next = self.start.val() + self.off[2].val();
        self.tile2.next = self.off[2].val().get_bits::<32>(16);
        self.addr3.next = self.start.val() + self.off[3].val();
        self.tile3.next = self.off[3].val().get_bits::<32>(16);
    }
}
