//! Fixed-point log2 of an IEEE-754 binary32 value.
//!
//! Ports: `a: Bits<32>` (f32 bit pattern) → `y: Bits<32>` (two's complement, 16 fraction bits:
//! `y / 65536 ≈ log2|a|`), flags `zero`, `inf`, `nan`, `neg: Bit`. The core is
//! [`super::FpLog2P`] (combinational at 0 stages, registers between its pieces from 1), built of
//! six pieces in a row: [`FpLog2Class`] (classes, the fraction's leading-zero count),
//! [`FpLog2Norm`] (denormal normalisation, exponent), [`FpLog2Rom`] (the ROM), the 16 × 17
//! interpolation product (a [`super::MulUReg`] leaf), [`FpLog2Interp`] (interpolation) and
//! [`FpLog2Round`] (rounding, exponent, specials).
//!
//! Special inputs (flags are independent outputs; `y` as listed):
//! - `zero` — `a` is ±0: `y = i32::MIN` (0x8000_0000);
//! - `inf` — `a` is ±Inf: `y = i32::MAX` (0x7FFF_FFFF);
//! - `nan` — `a` is a NaN (quiet or signalling): `y = 0`;
//! - `neg` — the sign bit is set and `a` is neither ±0 nor NaN (so −Inf sets `inf` and `neg`):
//!   `y = log2|a|`, computed like the positive value.
//!
//! Method (a hardware designer's log): `a = 2^E · (1 + f)`, `log2 a = E + log2(1 + f)`.
//! Denormal inputs are normalised with a [`Lzc`] (`E = −127 − lz`), so `log2` of the smallest
//! denormal is exactly −149. `f`'s top 6 bits select one of 64 segments of a ROM of
//! `T[i] = round(log2(1 + i/64) · 2^20)` ([`log2_table`], 65 entries, 20 fraction bits, stored as
//! `T[i]` and `T[i+1] − T[i]`); the remaining 17 bits `r` interpolate linearly,
//! `T[i] + round((T[i+1] − T[i]) · r / 2^17)` (one 16 × 17 multiply), and the
//! result is rounded to 16
//! fraction bits (ties up) and added to `E · 2^16`. Exact powers of two give exact results
//! (`y = E · 65536`).
//!
//! Accuracy, measured exhaustively by `tb/tests/fp_blocks.rs` with the bit-exact model
//! `texpix_tb::fpmodel::fp_log2` (which the RTL matches bit for bit) against f64 `log2`:
//! - every one of the 2^23 mantissas of exponent 0 (`a ∈ [1, 2)`): max |y/65536 − log2 a| =
//!   5.0666e-5 ≈ 2^-14.27 (at `a = 0x3F80FE17`); every exponent has the same fraction error
//!   because `E` is added exactly;
//! - every one of the 2^23 − 1 positive denormals: max 5.0655e-5 ≈ 2^-14.27 (at `0x00407FEB`).
//!
//! The test asserts max error < 5.1e-5 (target: 2^-13 = 1.22e-4). Contributions: linear
//! interpolation ≤ (1/64)²/8 / ln 2 = 4.40e-5, output rounding ≤ 2^-17 = 7.6e-6, table and
//! interpolation-product rounding ≤ 2^-20.

use super::lzc::{Lzc, LZC_BITS};
use rust_hdl::prelude::*;

/// Segments of the log2 table (indexed by the top fraction bits).
pub const LOG2_SEGMENTS: usize = 64;
/// Fraction bits of the table entries.
pub const LOG2_TABLE_FRAC: u32 = 20;
/// Fraction bits of [`super::FpLog2P::y`].
pub const LOG2_OUT_FRAC: u32 = 16;

/// `T[i] = round(log2(1 + i/64) · 2^20)` for `i = 0 … 64` (`T[64] = 2^20`). The one definition of
/// the table: the RTL ROM and the golden model both use it.
pub fn log2_table() -> [u32; LOG2_SEGMENTS + 1] {
    std::array::from_fn(|i| {
        let v = (1.0 + i as f64 / LOG2_SEGMENTS as f64).log2();
        (v * f64::from(1u32 << LOG2_TABLE_FRAC)).round() as u32
    })
}

crate::settled_block! {
/// Piece 1: classes and the leading-zero count of the fraction. `a` → `fm` (the 23 stored
/// fraction bits), `eb` (the exponent field less 127, 16-bit two's complement), `den` (the
/// exponent field is 0), `lz` (the leading zeros of `fm`), `cls` (bit 0 zero, 1 inf, 2 nan,
/// 3 neg). All zeros on these outputs (a pipeline register at power-up) read as 1.0.
#[derive(Clone, Debug, Default)]
pub struct FpLog2Class {
    /// f32 bits.
    pub a: Signal<In, Bits<32>>,
    /// Stored fraction.
    pub fm: Signal<Out, Bits<23>>,
    /// Exponent field less 127.
    pub eb: Signal<Out, Bits<16>>,
    /// Denormal or zero (exponent field 0).
    pub den: Signal<Out, Bit>,
    /// Leading zeros of `fm`.
    pub lz: Signal<Out, Bits<LZC_BITS>>,
    /// Classes: zero, inf, nan, neg.
    pub cls: Signal<Out, Bits<4>>,
    lzc: Lzc<23>,
    exp: Signal<Local, Bits<8>>,
    fr: Signal<Local, Bits<23>>,
    is_zero: Signal<Local, Bit>,
    is_inf: Signal<Local, Bit>,
    is_nan: Signal<Local, Bit>,
}
}

impl Logic for FpLog2Class {
    #[hdl_gen]
    fn update(&mut self) {
        self.exp.next = self.a.val().get_bits::<8>(23);
        self.fr.next = self.a.val().get_bits::<23>(0);
        self.is_zero.next = !self.exp.val().any() & !self.fr.val().any();
        self.is_inf.next = (self.exp.val() == 0xff) & !self.fr.val().any();
        self.is_nan.next = (self.exp.val() == 0xff) & self.fr.val().any();
        self.lzc.a.next = self.fr.val();
        self.fm.next = self.fr.val();
        self.eb.next = bit_cast::<16, 8>(self.exp.val()) - bits::<16>(127);
        self.den.next = !self.exp.val().any();
        self.lz.next = self.lzc.count.val();
        self.cls.next = bit_cast::<4, 1>(self.is_zero.val().into())
            | (bit_cast::<4, 1>(self.is_inf.val().into()) << 1)
            | (bit_cast::<4, 1>(self.is_nan.val().into()) << 2)
            | (bit_cast::<4, 1>(
                (self.a.val().get_bit(31) & !self.is_zero.val() & !self.is_nan.val()).into(),
            ) << 3);
    }
}

crate::settled_block! {
/// Piece 2: denormal normalisation and the exponent. `fm`, `eb`, `den`, `lz` → `f` (the 23
/// fraction bits after the hidden one), `ex` (the low 16 bits of `E`, two's complement).
#[derive(Clone, Debug, Default)]
pub struct FpLog2Norm {
    /// Stored fraction.
    pub fm: Signal<In, Bits<23>>,
    /// Exponent field less 127.
    pub eb: Signal<In, Bits<16>>,
    /// Denormal or zero.
    pub den: Signal<In, Bit>,
    /// Leading zeros of `fm`.
    pub lz: Signal<In, Bits<LZC_BITS>>,
    /// Normalised fraction.
    pub f: Signal<Out, Bits<23>>,
    /// `E`'s low 16 bits.
    pub ex: Signal<Out, Bits<16>>,
    lzd: Signal<Local, Bits<16>>,
}
}

impl Logic for FpLog2Norm {
    #[hdl_gen]
    fn update(&mut self) {
        // Denormal: shift the leading one out (lz + 1 places: by lz's five bits, lz ≤ 23, then
        // by one more in the wiring, no adder in front of the shifter), exponent -127 - lz.
        self.f.next = self.fm.val();
        self.lzd.next = bits::<16>(0);
        if self.den.val() {
            self.f.next = (self.fm.val() << self.lz.val().get_bits::<5>(0)) << 1;
            self.lzd.next = bit_cast::<16, LZC_BITS>(self.lz.val());
        }
        // E = e - 127 - lz in 16-bit two's complement (only E's low 16 bits reach the result).
        self.ex.next = self.eb.val() - self.lzd.val();
    }
}

/// Piece 3, the ROM: `f` → `tv` = `T[i]`, `dv` = `T[i+1] − T[i]` for the segment `i` = `f`'s top
/// 6 bits, and the interpolation fraction `r17` (`f`'s low 17 bits); a leaf with a real memory,
/// read combinationally or through a read register.
///
/// Ports: `clock`, `en`, `f: Bits<23>` → `tv: Bits<24>`, `dv: Bits<16>` (the table words of
/// segment `f[22:17]`), `r17: Bits<17>` (`f[16:0]`, always combinational). Registered
/// ([`FpLog2Rom::new`]`(true)`): `tv` and `dv` are the words of the index presented one enabled
/// edge earlier (latency 1; the register powers up at zero and is not reset) — a synchronous
/// ROM, which synthesis puts in block RAM (`rom_style = "block"`: one ECP5 `DP16KD`, as 36 of
/// the 40 bits are not constant), so the index drives one RAM's address port, not the ~370
/// LUT4s of a ROM in logic (measured in the whole LOD unit). Not registered:
/// latency 0, `clock` and `en` unused, and the ROM is logic (`rom_style = "logic"`).
/// The Verilog holds the 64 words `{T[i], T[i+1] − T[i]}` in a memory initialised from
/// [`log2_table`].
#[derive(Clone, Debug, LogicBlock)]
pub struct FpLog2Rom {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance the read register (holds while low).
    pub en: Signal<In, Bit>,
    /// Normalised fraction.
    pub f: Signal<In, Bits<23>>,
    /// `T[i]`.
    pub tv: Signal<Out, Bits<24>>,
    /// `T[i+1] − T[i]`.
    pub dv: Signal<Out, Bits<16>>,
    /// `f`'s bits 16…0.
    pub r17: Signal<Out, Bits<17>>,
    /// The read register is built.
    _registered: bool,
    /// The 64 words `T[i] << 16 | (T[i+1] − T[i])`.
    _words: Vec<u64>,
    /// The read register.
    _word: u64,
}

impl FpLog2Rom {
    /// The ROM with (`true`) or without its read register.
    pub fn new(registered: bool) -> Self {
        let t = log2_table();
        Self {
            clock: Default::default(),
            en: Default::default(),
            f: Default::default(),
            tv: Default::default(),
            dv: Default::default(),
            r17: Default::default(),
            _registered: registered,
            _words: (0..LOG2_SEGMENTS)
                .map(|i| u64::from(t[i]) << 16 | u64::from(t[i + 1] - t[i]))
                .collect(),
            _word: 0,
        }
    }

    /// Register stages (the latency in enabled clocks): 1 or 0.
    pub fn stages(&self) -> usize {
        usize::from(self._registered)
    }
}

impl Logic for FpLog2Rom {
    fn update(&mut self) {
        let word = self._words[self.f.val().get_bits::<6>(17).index()];
        if !self._registered || (self.clock.pos_edge() && self.en.val()) {
            self._word = word;
        }
        self.tv.next = (self._word >> 16).to_bits();
        self.dv.next = (self._word & 0xffff).to_bits();
        self.r17.next = self.f.val().get_bits::<17>(0);
    }
    fn connect(&mut self) {
        self.tv.connect();
        self.dv.connect();
        self.r17.connect();
    }
    fn hdl(&self) -> Verilog {
        let init: String = self
            ._words
            .iter()
            .enumerate()
            .map(|(i, w)| format!("   rom[{i}] = 40'h{w:010x};\n"))
            .collect();
        let (style, read) = if self._registered {
            (
                "block",
                "reg [39:0] word;\ninitial word = 0;\nalways @(posedge clock) begin\n   if (en) word <= rom[f[22:17]];\nend\n",
            )
        } else {
            (
                "logic",
                "wire [39:0] word = rom[f[22:17]];\n/* verilator lint_off UNUSEDSIGNAL */\nwire unused_ok = &{1'b0, clock, en};\n/* verilator lint_on UNUSEDSIGNAL */\n",
            )
        };
        Verilog::Custom(format!(
            "(* rom_style = \"{style}\" *)\nreg [39:0] rom [0:63];\ninitial begin\n{init}end\n{read}always @(*) begin\n   tv = word[39:16];\n   dv = word[15:0];\n   r17 = f[16:0];\nend\n"
        ))
    }
}

crate::settled_block! {
/// Piece 5: the interpolation, `l20 = T[i] + round(p17 / 2^17)` (ties up): log2(1 + f) with 20
/// fraction bits.
#[derive(Clone, Debug, Default)]
pub struct FpLog2Interp {
    /// `dv · r17`.
    pub p17: Signal<In, Bits<32>>,
    /// `T[i]`.
    pub tv: Signal<In, Bits<24>>,
    /// log2(1 + f) · 2^20.
    pub l20: Signal<Out, Bits<32>>,
    step: Signal<Local, Bits<32>>,
}
}

impl Logic for FpLog2Interp {
    #[hdl_gen]
    fn update(&mut self) {
        self.step.next = (self.p17.val() + bits::<32>(0x1_0000)) >> 17;
        self.l20.next = bit_cast::<32, 24>(self.tv.val()) + self.step.val();
    }
}

crate::settled_block! {
/// Piece 6: rounding to 16 fraction bits (ties up), the exponent and the special values.
/// `l20`, `ex`, `cls` → `y`, `zero`, `inf`, `nan`, `neg`.
#[derive(Clone, Debug, Default)]
pub struct FpLog2Round {
    /// log2(1 + f) · 2^20.
    pub l20: Signal<In, Bits<32>>,
    /// `E`'s low 16 bits.
    pub ex: Signal<In, Bits<16>>,
    /// Classes: zero, inf, nan, neg.
    pub cls: Signal<In, Bits<4>>,
    /// log2|a| · 65536.
    pub y: Signal<Out, Bits<32>>,
    /// `a` is ±0.
    pub zero: Signal<Out, Bit>,
    /// `a` is ±Inf.
    pub inf: Signal<Out, Bit>,
    /// `a` is NaN.
    pub nan: Signal<Out, Bit>,
    /// `a` is negative (not ±0, not NaN).
    pub neg: Signal<Out, Bit>,
    frac16: Signal<Local, Bits<32>>,
    res: Signal<Local, Bits<32>>,
}
}

impl Logic for FpLog2Round {
    #[hdl_gen]
    fn update(&mut self) {
        self.frac16.next = (self.l20.val() + bits::<32>(8)) >> 4;
        // y = (E << 16) + frac16 (wraps in 32 bits: E's low 16 bits suffice).
        self.res.next = (bit_cast::<32, 16>(self.ex.val()) << 16) + self.frac16.val();
        if self.cls.val().get_bit(0) {
            self.res.next = bits::<32>(0x8000_0000_u64);
        }
        if self.cls.val().get_bit(1) {
            self.res.next = bits::<32>(0x7fff_ffff);
        }
        if self.cls.val().get_bit(2) {
            self.res.next = bits::<32>(0);
        }
        self.y.next = self.res.val();
        self.zero.next = self.cls.val().get_bit(0);
        self.inf.next = self.cls.val().get_bit(1);
        self.nan.next = self.cls.val().get_bit(2);
        self.neg.next = self.cls.val().get_bit(3);
    }
}
