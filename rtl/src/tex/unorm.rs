//! UNORM n-bit integer → f32, for the texel widths n ∈ {2, 5, 6, 7, 8, 10, 16} (n = 7 serves the
//! SNORM8 magnitude).
//!
//! Ports: `c: Bits<16>` (the integer in its low n bits; higher bits are ignored), `width: Bits<3>`
//! (0: none — the result is 0; 1…7: n = 2, 5, 6, 7, 8, 10, 16) → `y: Bits<32>` = the f32 nearest
//! to c / (2^n − 1). Combinational, latency 0.
//!
//! # Algorithm (the repeating-pattern trick)
//! The binary expansion of c / (2^n − 1) is 0.ccc… — the n-bit pattern of c repeated forever. With
//! lz the leading zeros of c in n bits (c ≠ 0), the value lies in [2^−(lz+1), 2^−lz), so the
//! biased exponent is 126 − lz, and the significand is the expansion from its leading one on:
//! the period starting there, c rotated left by lz within its n bits — which is c << lz, since
//! c's top lz bits are zeros — repeated. The block
//! - aligns c to the top of a 32-bit word (per width: wiring), counts its leading zeros (one
//!   16-bit count) and shifts it left by them (one 16-position shifter): the period, on top;
//! - repeats the period below itself by doubling (x |= x >> n, x |= x >> 2n, …: wiring and ORs,
//!   one set per width, selected by `width`), so bit 31 is the hidden one, 30…8 the fraction
//!   and bit 7 the next bit;
//! - adds that bit (round up iff it is one). A tie would need the tail after it to be exactly
//!   zero, which a non-zero periodic expansion never is; a carry out of the significand would
//!   need 25 ones, i.e. c = 2^n − 1 (handled apart), so none happens.
//!
//! c = 0 → +0 and c = 2^n − 1 → 1.0 are selected directly.
//!
//! # Cost
//! One 16-bit leading-zero count, one 32-bit left shifter (16 positions), 7-way multiplexers
//! for the top-aligned c and the repeated period (32 bits), one 32-bit adder (exponent, significand and round bit), two 16-bit equality tests.

use crate::common::fp::Lzc;
use rust_hdl::prelude::*;

crate::settled_block! {
/// UNORM → f32 converter. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct UnormToF32 {
    /// The integer (low n bits).
    pub c: Signal<In, Bits<16>>,
    /// Width code: 0 none, 1…7 = 2, 5, 6, 7, 8, 10, 16 bits.
    pub width: Signal<In, Bits<3>>,
    /// f32 bits of c / (2^n − 1).
    pub y: Signal<Out, Bits<32>>,
    lzc: Lzc<16>,
    /// c masked to n bits.
    cm: Signal<Local, Bits<16>>,
    /// 2^n − 1.
    mask: Signal<Local, Bits<16>>,
    /// c in the top n bits of a 32-bit word.
    top: Signal<Local, Bits<32>>,
    /// c rotated by its leading zeros, in the top n bits.
    head: Signal<Local, Bits<32>>,
    /// `head`'s n bits repeated from bit 31 down.
    pat: Signal<Local, Bits<32>>,
    expo: Signal<Local, Bits<32>>,
    res: Signal<Local, Bits<32>>,
}
}

impl Logic for UnormToF32 {
    #[hdl_gen]
    fn update(&mut self) {
        self.mask.next = bits::<16>(0);
        self.cm.next = bits::<16>(0);
        self.top.next = bits::<32>(0);
        match self.width.val().index() {
            1 => {
                self.mask.next = bits::<16>(0x3);
                self.cm.next = self.c.val() & bits::<16>(0x3);
                self.top.next = bit_cast::<32, 16>(self.cm.val()) << 30;
            }
            2 => {
                self.mask.next = bits::<16>(0x1f);
                self.cm.next = self.c.val() & bits::<16>(0x1f);
                self.top.next = bit_cast::<32, 16>(self.cm.val()) << 27;
            }
            3 => {
                self.mask.next = bits::<16>(0x3f);
                self.cm.next = self.c.val() & bits::<16>(0x3f);
                self.top.next = bit_cast::<32, 16>(self.cm.val()) << 26;
            }
            4 => {
                self.mask.next = bits::<16>(0x7f);
                self.cm.next = self.c.val() & bits::<16>(0x7f);
                self.top.next = bit_cast::<32, 16>(self.cm.val()) << 25;
            }
            5 => {
                self.mask.next = bits::<16>(0xff);
                self.cm.next = self.c.val() & bits::<16>(0xff);
                self.top.next = bit_cast::<32, 16>(self.cm.val()) << 24;
            }
            6 => {
                self.mask.next = bits::<16>(0x3ff);
                self.cm.next = self.c.val() & bits::<16>(0x3ff);
                self.top.next = bit_cast::<32, 16>(self.cm.val()) << 22;
            }
            7 => {
                self.mask.next = bits::<16>(0xffff);
                self.cm.next = self.c.val();
                self.top.next = bit_cast::<32, 16>(self.cm.val()) << 16;
            }
            _ => {}
        }
        // Leading zeros of c within its n bits (c ≠ 0: at most 15); c rotated left by them (its
        // top lz bits are zeros) is the period of the expansion from its leading one.
        self.lzc.a.next = self.top.val().get_bits::<16>(16);
        self.head.next = self.top.val() << bit_cast::<32, 7>(self.lzc.count.val());
        // That period repeated from bit 31 down: hidden bit 31, fraction 30…8, round bit 7.
        self.pat.next = self.head.val();
        match self.width.val().index() {
            1 => {
                self.pat.next = self.head.val() | (self.head.val() >> 2);
                self.pat.next = self.pat.val() | (self.pat.val() >> 4);
                self.pat.next = self.pat.val() | (self.pat.val() >> 8);
                self.pat.next = self.pat.val() | (self.pat.val() >> 16);
            }
            2 => {
                self.pat.next = self.head.val() | (self.head.val() >> 5);
                self.pat.next = self.pat.val() | (self.pat.val() >> 10);
                self.pat.next = self.pat.val() | (self.pat.val() >> 20);
            }
            3 => {
                self.pat.next = self.head.val() | (self.head.val() >> 6);
                self.pat.next = self.pat.val() | (self.pat.val() >> 12);
                self.pat.next = self.pat.val() | (self.pat.val() >> 24);
            }
            4 => {
                self.pat.next = self.head.val() | (self.head.val() >> 7);
                self.pat.next = self.pat.val() | (self.pat.val() >> 14);
                self.pat.next = self.pat.val() | (self.pat.val() >> 28);
            }
            5 => {
                self.pat.next = self.head.val() | (self.head.val() >> 8);
                self.pat.next = self.pat.val() | (self.pat.val() >> 16);
            }
            6 => {
                self.pat.next = self.head.val() | (self.head.val() >> 10);
                self.pat.next = self.pat.val() | (self.pat.val() >> 20);
            }
            7 => {
                self.pat.next = self.head.val() | (self.head.val() >> 16);
            }
            _ => {}
        }
        self.expo.next = bits::<32>(126) - bit_cast::<32, 7>(self.lzc.count.val());
        self.res.next = (self.expo.val() << 23)
            + ((self.pat.val() >> 8) & bits::<32>(0x007f_ffff))
            + ((self.pat.val() >> 7) & bits::<32>(1));
        if self.cm.val() == self.mask.val() {
            self.res.next = bits::<32>(0x3f80_0000);
        }
        if !self.cm.val().any() {
            self.res.next = bits::<32>(0);
        }
        self.y.next = self.res.val();
    }
}
