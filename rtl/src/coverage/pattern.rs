//! Standard sample-pattern ROM (the Direct3D / Vulkan standard locations; docs/units/coverage.md §2).
//!
//! Ports: `log2n: Bits<3>` (0…4 for 1…16 samples) → `pos[s]: Bits<8>`, each `{dy[3:0], dx[3:0]}` in
//! 1/16-pixel two's complement units from the pixel centre (+y down); entries `s ≥ n` and encodings
//! 5…7 read 0. Combinational, latency 0.

use rust_hdl::prelude::*;

crate::settled_block! {
/// The ROM.
#[derive(Clone, Debug, Default)]
pub struct StdPattern {
    /// log2 of the sample count.
    pub log2n: Signal<In, Bits<3>>,
    /// Packed sample offsets, sample index order.
    pub pos: [Signal<Out, Bits<8>>; 16],
    rom: [Signal<Local, Bits<8>>; 16],
}
}

impl Logic for StdPattern {
    #[hdl_gen]
    fn update(&mut self) {
        for s in 0..16 {
            self.rom[s].next = 0.into();
        }
        match self.log2n.val().index() {
            0 => {
                self.rom[0].next = bits::<8>(0x00);
            }
            1 => {
                self.rom[0].next = bits::<8>(0x44);
                self.rom[1].next = bits::<8>(0xcc);
            }
            2 => {
                self.rom[0].next = bits::<8>(0xae);
                self.rom[1].next = bits::<8>(0xe6);
                self.rom[2].next = bits::<8>(0x2a);
                self.rom[3].next = bits::<8>(0x62);
            }
            3 => {
                self.rom[0].next = bits::<8>(0xd1);
                self.rom[1].next = bits::<8>(0x3f);
                self.rom[2].next = bits::<8>(0x15);
                self.rom[3].next = bits::<8>(0xbd);
                self.rom[4].next = bits::<8>(0x5b);
                self.rom[5].next = bits::<8>(0xf9);
                self.rom[6].next = bits::<8>(0x73);
                self.rom[7].next = bits::<8>(0x97);
            }
            4 => {
                self.rom[0].next = bits::<8>(0x11);
                self.rom[1].next = bits::<8>(0xdf);
                self.rom[2].next = bits::<8>(0x2d);
                self.rom[3].next = bits::<8>(0xf4);
                self.rom[4].next = bits::<8>(0xeb);
                self.rom[5].next = bits::<8>(0x52);
                self.rom[6].next = bits::<8>(0x35);
                self.rom[7].next = bits::<8>(0xb3);
                self.rom[8].next = bits::<8>(0x6e);
                self.rom[9].next = bits::<8>(0x90);
                self.rom[10].next = bits::<8>(0xac);
                self.rom[11].next = bits::<8>(0x4a);
                self.rom[12].next = bits::<8>(0x08);
                self.rom[13].next = bits::<8>(0xc7);
                self.rom[14].next = bits::<8>(0x76);
                self.rom[15].next = bits::<8>(0x89);
            }
            _ => {}
        }
        for s in 0..16 {
            self.pos[s].next = self.rom[s].val();
        }
    }
}

crate::settled_block! {
/// f32 of a sample position component: `k/16` with `k = d + 8·tgsi`, `d` the 4-bit offset.
///
/// Ports: `d: Bits<4>` (two's complement), `tgsi: Bit` (TGSI's [0,1] convention: +0.5) →
/// `f: Bits<32>` (IEEE-754 bits, exact). Combinational.
#[derive(Clone, Debug, Default)]
pub struct SamplePosF32 {
    /// Offset in 1/16 pixel.
    pub d: Signal<In, Bits<4>>,
    /// Add 0.5 (TGSI convention).
    pub tgsi: Signal<In, Bit>,
    /// The position as f32 bits.
    pub f: Signal<Out, Bits<32>>,
    k: Signal<Local, Bits<5>>,
    mag: Signal<Local, Bits<5>>,
    fl: Signal<Local, Bits<32>>,
}
}

impl Logic for SamplePosF32 {
    #[hdl_gen]
    fn update(&mut self) {
        self.k.next = bit_cast::<5, 4>(self.d.val());
        if self.d.val().get_bit(3) {
            self.k.next = self.k.val() | bits::<5>(0x10);
        }
        if self.tgsi.val() {
            self.k.next = self.k.val() + bits::<5>(8);
        }
        self.mag.next = self.k.val();
        if self.k.val().get_bit(4) {
            self.mag.next = bits::<5>(0) - self.k.val();
        }
        // |k|/16 for |k| in 0..=8 (k >= -8); positive k up to 15.
        self.fl.next = 0.into();
        match self.mag.val().index() {
            1 => self.fl.next = bits::<32>(0x3d80_0000_u64),
            2 => self.fl.next = bits::<32>(0x3e00_0000_u64),
            3 => self.fl.next = bits::<32>(0x3e40_0000_u64),
            4 => self.fl.next = bits::<32>(0x3e80_0000_u64),
            5 => self.fl.next = bits::<32>(0x3ea0_0000_u64),
            6 => self.fl.next = bits::<32>(0x3ec0_0000_u64),
            7 => self.fl.next = bits::<32>(0x3ee0_0000_u64),
            8 => self.fl.next = bits::<32>(0x3f00_0000_u64),
            9 => self.fl.next = bits::<32>(0x3f10_0000_u64),
            10 => self.fl.next = bits::<32>(0x3f20_0000_u64),
            11 => self.fl.next = bits::<32>(0x3f30_0000_u64),
            12 => self.fl.next = bits::<32>(0x3f40_0000_u64),
            13 => self.fl.next = bits::<32>(0x3f50_0000_u64),
            14 => self.fl.next = bits::<32>(0x3f60_0000_u64),
            15 => self.fl.next = bits::<32>(0x3f70_0000_u64),
            _ => {}
        }
        if self.k.val().get_bit(4) {
            self.fl.next = self.fl.val() | bits::<32>(0x8000_0000_u64);
        }
        self.f.next = self.fl.val();
    }
}

crate::settled_block! {
/// PIXLD OFFSET encoding of a packed sample position.
///
/// Ports: `code: Bits<8>` (`{dy[3:0], dx[3:0]}`) → `enc: Bits<32>` = `(dx & 0xFFFF) | (dy & 0xFFFF) << 16`
/// with dx, dy sign-extended to 16 bits. Combinational.
#[derive(Clone, Debug, Default)]
pub struct OffsetEncode {
    /// Packed offset.
    pub code: Signal<In, Bits<8>>,
    /// PIXLD OFFSET grid format (docs/units/coverage.md §4).
    pub enc: Signal<Out, Bits<32>>,
    e: Signal<Local, Bits<32>>,
}
}

impl Logic for OffsetEncode {
    #[hdl_gen]
    fn update(&mut self) {
        self.e.next = bit_cast::<32, 8>(self.code.val()) & bits::<32>(0x0000_000f_u64);
        if self.code.val().get_bit(3) {
            self.e.next = self.e.val() | bits::<32>(0x0000_fff0_u64);
        }
        self.e.next =
            self.e.val() | ((bit_cast::<32, 8>(self.code.val()) & bits::<32>(0xf0)) << 12);
        if self.code.val().get_bit(7) {
            self.e.next = self.e.val() | bits::<32>(0xfff0_0000_u64);
        }
        self.enc.next = self.e.val();
    }
}
