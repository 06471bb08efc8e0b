//! Texel conversion: a texel's raw bytes and format code → its four components (f32 bits, or
//! integers for the integer formats), the missing components filled by the TGSI table.
//!
//! # Ports
//! - `raw: Bits<128>` — the texel's bytes, little-endian, first component in the lowest bits;
//!   only the format's low bpp bytes are read.
//! - `fmt: Bits<5>` — the format code (0 `r8` … 20 `d32f`, in the order of the golden model's
//!   `Format`); codes 21…31 give four zeros.
//! - `r`, `g`, `b`, `a: Bits<32>` — the components (before the descriptor swizzle).
//!
//! Combinational, latency 0.
//!
//! # What it computes
//! - UNORM n-bit c → the f32 nearest to c / (2^n − 1), by [`UnormToF32`] (the repeated-pattern
//!   normalisation: exact rounding, no divider, no table). One converter per component lane,
//!   shared by every width the lane sees: 8 (`r8` … `la8`, `rgba8`, sRGB alpha), 5/6/5
//!   (`rgb565`), 10/10/10/2 (`rgb10a2`), 16 (`d16`), 7 (SNORM8).
//! - SNORM8 → −1.0 for −128 and −127, else sign · |c| / 127: the 7-bit magnitude through the same
//!   UNORM converter with n = 7, the sign ORed in.
//! - sRGB8 r, g, b → a 256-entry ROM each ([`SrgbRom`], contents from [`super::srgb_table`]);
//!   alpha is UNORM8.
//! - f16 → f32 exactly ([`F16ToF32`], NaN payloads kept); f32 → f32 with denormals flushed to a
//!   signed zero (everything else unchanged, NaN payloads too).
//! - `r32ui`, `rgba8ui`: the integers themselves; `d16` UNORM16; `d32f` f32 flushed.
//! - Then the TGSI table: R → (r,0,0,1), RG → (r,g,0,1), RGB → (r,g,b,1), A → (0,0,0,a),
//!   L → (l,l,l,1), LA → (l,l,l,a), I → (i,i,i,i), depth → (z,z,z,1); 1 is 1.0, or the integer 1
//!   for `r32ui`.
//!
//! No rounding happens except in the UNORM/SNORM conversion (exact rounding to nearest; ties are
//! impossible) and in the ROM contents (computed in f64, rounded once to nearest even).
//!
//! # Cost
//! Four [`UnormToF32`] (each: a 16-bit leading-zero count, a 16-position 32-bit shifter, one
//! 32-bit adder), four [`F16ToF32`], three 256 × 32 ROMs, four 32-bit flush multiplexers, four
//! SNORM magnitude negations (7-bit), and the field / component multiplexers. No multipliers.

use super::srgb::SrgbRom;
use super::unorm::UnormToF32;
use crate::common::fp::F16ToF32;
use rust_hdl::prelude::*;

crate::settled_block! {
/// The texel converter. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct TexelConvert {
    /// Texel bytes 0…7, little-endian.
    pub raw_lo: Signal<In, Bits<64>>,
    /// Texel bytes 8…15 (16-byte formats).
    pub raw_hi: Signal<In, Bits<64>>,
    /// Format code.
    pub fmt: Signal<In, Bits<5>>,
    /// Components r, g, b, a.
    pub r: Signal<Out, Bits<32>>,
    /// Component g.
    pub g: Signal<Out, Bits<32>>,
    /// Component b.
    pub b: Signal<Out, Bits<32>>,
    /// Component a.
    pub a: Signal<Out, Bits<32>>,
    unorm: [UnormToF32; 4],
    half: [F16ToF32; 4],
    srgb: [SrgbRom; 3],
    /// The four 32-bit words of `raw`.
    wd: [Signal<Local, Bits<32>>; 4],
    /// The four bytes of word 0.
    byte: [Signal<Local, Bits<8>>; 4],
    /// SNORM8: byte bits 6…0, their complement, the magnitude, the sign.
    low7: [Signal<Local, Bits<7>>; 4],
    inv7: [Signal<Local, Bits<7>>; 4],
    mag7: [Signal<Local, Bits<7>>; 4],
    sgn: [Signal<Local, Bit>; 4],
    /// Lane kind: 0 zero, 1 UNORM/SNORM, 2 f16, 3 f32, 4 integer word, 5 integer bytes, 6 sRGB.
    kind: Signal<Local, Bits<3>>,
    /// UNORM field layout: 0 bytes, 1 SNORM bytes, 2 5/6/5, 3 10/10/10/2, 4 16.
    lay: Signal<Local, Bits<3>>,
    /// Component table: 0 zero, 1 R, 2 RG, 3 RGB, 4 RGBA, 5 A, 6 L, 7 I, 8 LA.
    map: Signal<Local, Bits<4>>,
    /// The "1" of the table: 1.0, or the integer 1.
    one: Signal<Local, Bits<32>>,
    /// The UNORM converters' fields and width codes.
    fc: [Signal<Local, Bits<16>>; 4],
    fw: [Signal<Local, Bits<3>>; 4],
    /// The bytes as integers.
    ib: [Signal<Local, Bits<32>>; 4],
    /// The converted lane values.
    v: [Signal<Local, Bits<32>>; 4],
    /// The components.
    oc: [Signal<Local, Bits<32>>; 4],
}
}

impl Logic for TexelConvert {
    #[hdl_gen]
    fn update(&mut self) {
        self.wd[0].next = self.raw_lo.val().get_bits::<32>(0);
        self.wd[1].next = self.raw_lo.val().get_bits::<32>(32);
        self.wd[2].next = self.raw_hi.val().get_bits::<32>(0);
        self.wd[3].next = self.raw_hi.val().get_bits::<32>(32);
        self.byte[0].next = self.wd[0].val().get_bits::<8>(0);
        self.byte[1].next = self.wd[0].val().get_bits::<8>(8);
        self.byte[2].next = self.wd[0].val().get_bits::<8>(16);
        self.byte[3].next = self.wd[0].val().get_bits::<8>(24);
        // Format decode.
        self.kind.next = bits::<3>(0);
        self.lay.next = bits::<3>(0);
        self.map.next = bits::<4>(0);
        self.one.next = bits::<32>(0x3f80_0000);
        match self.fmt.val().index() {
            0 => {
                // r8
                self.kind.next = bits::<3>(1);
                self.map.next = bits::<4>(1);
            }
            1 => {
                // rg8
                self.kind.next = bits::<3>(1);
                self.map.next = bits::<4>(2);
            }
            2 => {
                // rgba8
                self.kind.next = bits::<3>(1);
                self.map.next = bits::<4>(4);
            }
            3 => {
                // rgba8_snorm
                self.kind.next = bits::<3>(1);
                self.lay.next = bits::<3>(1);
                self.map.next = bits::<4>(4);
            }
            4 => {
                // rgba8_srgb
                self.kind.next = bits::<3>(6);
                self.map.next = bits::<4>(4);
            }
            5 => {
                // a8
                self.kind.next = bits::<3>(1);
                self.map.next = bits::<4>(5);
            }
            6 => {
                // l8
                self.kind.next = bits::<3>(1);
                self.map.next = bits::<4>(6);
            }
            7 => {
                // i8
                self.kind.next = bits::<3>(1);
                self.map.next = bits::<4>(7);
            }
            8 => {
                // la8
                self.kind.next = bits::<3>(1);
                self.map.next = bits::<4>(8);
            }
            9 => {
                // rgb565
                self.kind.next = bits::<3>(1);
                self.lay.next = bits::<3>(2);
                self.map.next = bits::<4>(3);
            }
            10 => {
                // rgb10a2
                self.kind.next = bits::<3>(1);
                self.lay.next = bits::<3>(3);
                self.map.next = bits::<4>(4);
            }
            11 => {
                // r16f
                self.kind.next = bits::<3>(2);
                self.map.next = bits::<4>(1);
            }
            12 => {
                // rg16f
                self.kind.next = bits::<3>(2);
                self.map.next = bits::<4>(2);
            }
            13 => {
                // rgba16f
                self.kind.next = bits::<3>(2);
                self.map.next = bits::<4>(4);
            }
            14 => {
                // r32f
                self.kind.next = bits::<3>(3);
                self.map.next = bits::<4>(1);
            }
            15 => {
                // rg32f
                self.kind.next = bits::<3>(3);
                self.map.next = bits::<4>(2);
            }
            16 => {
                // rgba32f
                self.kind.next = bits::<3>(3);
                self.map.next = bits::<4>(4);
            }
            17 => {
                // r32ui
                self.kind.next = bits::<3>(4);
                self.map.next = bits::<4>(1);
                self.one.next = bits::<32>(1);
            }
            18 => {
                // rgba8ui
                self.kind.next = bits::<3>(5);
                self.map.next = bits::<4>(4);
            }
            19 => {
                // d16
                self.kind.next = bits::<3>(1);
                self.lay.next = bits::<3>(4);
                self.map.next = bits::<4>(6);
            }
            20 => {
                // d32f
                self.kind.next = bits::<3>(3);
                self.map.next = bits::<4>(6);
            }
            _ => {}
        }
        // SNORM8 magnitudes: |byte| (−128 counts as −127).
        for k in 0..4 {
            self.low7[k].next = self.byte[k].val().get_bits::<7>(0);
            self.inv7[k].next = !self.low7[k].val();
            self.sgn[k].next = self.byte[k].val().get_bit(7);
            self.mag7[k].next = self.low7[k].val();
            if self.sgn[k].val() {
                self.mag7[k].next = self.inv7[k].val() + bits::<7>(1);
                if !self.low7[k].val().any() {
                    self.mag7[k].next = bits::<7>(0x7f);
                }
            }
        }
        // UNORM fields and widths (1…7 = 2, 5, 6, 7, 8, 10, 16 bits).
        // (`bit_cast` cannot take a loop-indexed operand in `#[hdl_gen]`: the lanes are unrolled.)
        self.fc[0].next = bit_cast::<16, 8>(self.byte[0].val());
        self.fc[1].next = bit_cast::<16, 8>(self.byte[1].val());
        self.fc[2].next = bit_cast::<16, 8>(self.byte[2].val());
        self.fc[3].next = bit_cast::<16, 8>(self.byte[3].val());
        for k in 0..4 {
            self.fw[k].next = bits::<3>(5);
        }
        match self.lay.val().index() {
            1 => {
                self.fc[0].next = bit_cast::<16, 7>(self.mag7[0].val());
                self.fc[1].next = bit_cast::<16, 7>(self.mag7[1].val());
                self.fc[2].next = bit_cast::<16, 7>(self.mag7[2].val());
                self.fc[3].next = bit_cast::<16, 7>(self.mag7[3].val());
                for k in 0..4 {
                    self.fw[k].next = bits::<3>(4);
                }
            }
            2 => {
                self.fc[0].next = bit_cast::<16, 5>(self.wd[0].val().get_bits::<5>(0));
                self.fw[0].next = bits::<3>(2);
                self.fc[1].next = bit_cast::<16, 6>(self.wd[0].val().get_bits::<6>(5));
                self.fw[1].next = bits::<3>(3);
                self.fc[2].next = bit_cast::<16, 5>(self.wd[0].val().get_bits::<5>(11));
                self.fw[2].next = bits::<3>(2);
                self.fc[3].next = bits::<16>(0);
                self.fw[3].next = bits::<3>(0);
            }
            3 => {
                self.fc[0].next = bit_cast::<16, 10>(self.wd[0].val().get_bits::<10>(0));
                self.fw[0].next = bits::<3>(6);
                self.fc[1].next = bit_cast::<16, 10>(self.wd[0].val().get_bits::<10>(10));
                self.fw[1].next = bits::<3>(6);
                self.fc[2].next = bit_cast::<16, 10>(self.wd[0].val().get_bits::<10>(20));
                self.fw[2].next = bits::<3>(6);
                self.fc[3].next = bit_cast::<16, 2>(self.wd[0].val().get_bits::<2>(30));
                self.fw[3].next = bits::<3>(1);
            }
            4 => {
                self.fc[0].next = self.wd[0].val().get_bits::<16>(0);
                self.fw[0].next = bits::<3>(7);
                for k in 1..4 {
                    self.fc[k].next = bits::<16>(0);
                    self.fw[k].next = bits::<3>(0);
                }
            }
            _ => {}
        }
        for k in 0..4 {
            self.unorm[k].c.next = self.fc[k].val();
            self.unorm[k].width.next = self.fw[k].val();
        }
        self.half[0].a.next = self.wd[0].val().get_bits::<16>(0);
        self.half[1].a.next = self.wd[0].val().get_bits::<16>(16);
        self.half[2].a.next = self.wd[1].val().get_bits::<16>(0);
        self.half[3].a.next = self.wd[1].val().get_bits::<16>(16);
        for k in 0..3 {
            self.srgb[k].a.next = self.byte[k].val();
        }
        // Lane values.
        self.ib[0].next = bit_cast::<32, 8>(self.byte[0].val());
        self.ib[1].next = bit_cast::<32, 8>(self.byte[1].val());
        self.ib[2].next = bit_cast::<32, 8>(self.byte[2].val());
        self.ib[3].next = bit_cast::<32, 8>(self.byte[3].val());
        for k in 0..4 {
            self.v[k].next = bits::<32>(0);
            match self.kind.val().index() {
                1 => {
                    self.v[k].next = self.unorm[k].y.val();
                    if (self.lay.val() == 1) & self.sgn[k].val() {
                        self.v[k].next = self.unorm[k].y.val() | bits::<32>(0x8000_0000_u64);
                    }
                }
                2 => {
                    self.v[k].next = self.half[k].y.val();
                }
                3 => {
                    self.v[k].next = self.wd[k].val();
                    if !self.wd[k].val().get_bits::<8>(23).any() {
                        self.v[k].next = self.wd[k].val() & bits::<32>(0x8000_0000_u64);
                    }
                }
                4 => {
                    self.v[k].next = self.wd[k].val();
                }
                5 => {
                    self.v[k].next = self.ib[k].val();
                }
                6 => {
                    self.v[k].next = self.unorm[k].y.val();
                }
                _ => {}
            }
        }
        if self.kind.val() == 6 {
            for k in 0..3 {
                self.v[k].next = self.srgb[k].y.val();
            }
        }
        // The component table.
        self.oc[0].next = bits::<32>(0);
        self.oc[1].next = bits::<32>(0);
        self.oc[2].next = bits::<32>(0);
        self.oc[3].next = bits::<32>(0);
        match self.map.val().index() {
            1 => {
                self.oc[0].next = self.v[0].val();
                self.oc[3].next = self.one.val();
            }
            2 => {
                self.oc[0].next = self.v[0].val();
                self.oc[1].next = self.v[1].val();
                self.oc[3].next = self.one.val();
            }
            3 => {
                self.oc[0].next = self.v[0].val();
                self.oc[1].next = self.v[1].val();
                self.oc[2].next = self.v[2].val();
                self.oc[3].next = self.one.val();
            }
            4 => {
                self.oc[0].next = self.v[0].val();
                self.oc[1].next = self.v[1].val();
                self.oc[2].next = self.v[2].val();
                self.oc[3].next = self.v[3].val();
            }
            5 => {
                self.oc[3].next = self.v[0].val();
            }
            6 => {
                self.oc[0].next = self.v[0].val();
                self.oc[1].next = self.v[0].val();
                self.oc[2].next = self.v[0].val();
                self.oc[3].next = self.one.val();
            }
            7 => {
                self.oc[0].next = self.v[0].val();
                self.oc[1].next = self.v[0].val();
                self.oc[2].next = self.v[0].val();
                self.oc[3].next = self.v[0].val();
            }
            8 => {
                self.oc[0].next = self.v[0].val();
                self.oc[1].next = self.v[0].val();
                self.oc[2].next = self.v[0].val();
                self.oc[3].next = self.v[1].val();
            }
            _ => {}
        }
        self.r.next = self.oc[0].val();
        self.g.next = self.oc[1].val();
        self.b.next = self.oc[2].val();
        self.a.next = self.oc[3].val();
    }
}
