//! IEEE-754 binary32 → signed 32-bit fixed point with `F` fraction bits.
//!
//! Ports: `a: Bits<32>` (f32 bit pattern) → `y: Bits<32>` (two's complement, value `y / 2^F`),
//! `nan: Bit`, `sat: Bit`. `F` is a const generic, `0 ≤ F ≤ 24`. Combinational core, latency 0
//! (see [`super::FpToFixedP`]).
//!
//! - Rounding: `a · 2^F` is rounded to the nearest integer, ties to even (`0.5 → 0`, `1.5 → 2`,
//!   `−2.5 → −2` for `F = 0`).
//! - Saturation: results above `i32::MAX` give `i32::MAX`, below `i32::MIN` give `i32::MIN`, with
//!   `sat = 1`; ±Inf saturate the same way. `sat` means "the rounded value was out of range":
//!   an exact `−2^31` (e.g. `−2147483648.0` with `F = 0`) is representable and gives `sat = 0`.
//! - NaN (quiet or signalling): `y = 0`, `nan = 1`, `sat = 0`.
//! - Denormals: converted exactly like normals (they round to 0 for every `F ≤ 24`, or to
//!   `−0 → 0`); ±0 → 0.
//!
//! Datapath: with significand `M` (24 bits) and effective exponent `E`, `a · 2^F = M · 2^(E + F − 150)`.
//! For `E + F ≥ 150` the result is `M << (E + F − 150)` (exact; a shift of 8 or more overflows). For
//! `E + F < 150` `M` is shifted right (guard and sticky bits collected, shifts above 31 clamped —
//! they round to 0 anyway) and rounded. A negative result is the two's complement of the
//! magnitude.

use rust_hdl::prelude::*;

/// f32 → fixed-point converter. See the module documentation.
#[derive(Clone, Debug, LogicBlock)]
pub struct FpToFixed<const F: usize> {
    /// f32 bits.
    pub a: Signal<In, Bits<32>>,
    /// Fixed-point result (two's complement, `F` fraction bits).
    pub y: Signal<Out, Bits<32>>,
    /// The input was NaN (`y = 0`).
    pub nan: Signal<Out, Bit>,
    /// The result saturated.
    pub sat: Signal<Out, Bit>,
    /// `F` as a constant signal (a localparam in the Verilog).
    frac: Constant<Bits<16>>,
    e: Signal<Local, Bits<16>>,
    fr: Signal<Local, Bits<32>>,
    mt: Signal<Local, Bits<32>>,
    t: Signal<Local, Bits<16>>,
    lsh: Signal<Local, Bits<16>>,
    rsh: Signal<Local, Bits<16>>,
    w: Signal<Local, Bits<32>>,
    ws: Signal<Local, Bits<32>>,
    back: Signal<Local, Bits<32>>,
    q: Signal<Local, Bits<32>>,
    rnd: Signal<Local, Bit>,
    qr: Signal<Local, Bits<32>>,
    over: Signal<Local, Bit>,
    mag: Signal<Local, Bits<32>>,
    negm: Signal<Local, Bits<32>>,
    is_nan: Signal<Local, Bit>,
    is_inf: Signal<Local, Bit>,
    satl: Signal<Local, Bit>,
    res: Signal<Local, Bits<32>>,
}

impl<const F: usize> Default for FpToFixed<F> {
    fn default() -> Self {
        assert!(F <= 24, "FpToFixed supports 0 ≤ F ≤ 24 fraction bits");
        Self {
            a: Default::default(),
            y: Default::default(),
            nan: Default::default(),
            sat: Default::default(),
            frac: Constant::new((F as u64).into()),
            e: Default::default(),
            fr: Default::default(),
            mt: Default::default(),
            t: Default::default(),
            lsh: Default::default(),
            rsh: Default::default(),
            w: Default::default(),
            ws: Default::default(),
            back: Default::default(),
            q: Default::default(),
            rnd: Default::default(),
            qr: Default::default(),
            over: Default::default(),
            mag: Default::default(),
            negm: Default::default(),
            is_nan: Default::default(),
            is_inf: Default::default(),
            satl: Default::default(),
            res: Default::default(),
        }
    }
}

impl<const F: usize> Logic for FpToFixed<F> {
    #[hdl_gen]
    fn update(&mut self) {
        self.e.next = bit_cast::<16, 8>(self.a.val().get_bits::<8>(23));
        self.fr.next = self.a.val() & bits::<32>(0x007f_ffff);
        self.is_nan.next = (self.e.val() == 0xff) & self.fr.val().any();
        self.is_inf.next = (self.e.val() == 0xff) & !self.fr.val().any();
        // Significand and effective exponent (denormals: exponent 1, no hidden bit).
        self.mt.next = self.fr.val();
        if self.e.val().any() {
            self.mt.next = self.fr.val() | bits::<32>(0x0080_0000);
        } else {
            self.e.next = bits::<16>(1);
        }
        self.t.next = self.e.val() + self.frac.val();
        // Left-shift path (exact): t >= 150.
        self.lsh.next = self.t.val() - bits::<16>(150);
        // Right-shift path: t < 150, shift 150 - t, clamped to 31.
        self.rsh.next = bits::<16>(150) - self.t.val();
        if self.t.val() < bits::<16>(119) {
            self.rsh.next = bits::<16>(31);
        }
        self.w.next = self.mt.val() << 8;
        self.ws.next = self.w.val() >> self.rsh.val();
        self.back.next = self.ws.val() << self.rsh.val();
        self.q.next = self.ws.val() >> 8;
        self.rnd.next = self.ws.val().get_bit(7)
            & ((self.ws.val() & bits::<32>(0x7f)).any()
                | (self.back.val() != self.w.val())
                | self.ws.val().get_bit(8));
        self.qr.next = self.q.val();
        if self.rnd.val() {
            self.qr.next = self.q.val() + bits::<32>(1);
        }
        self.over.next = false;
        if self.t.val() >= bits::<16>(150) {
            self.qr.next = self.mt.val() << self.lsh.val();
            // M >= 2^23 here (a normal), so a shift of 8 or more leaves the range.
            self.over.next = self.lsh.val() >= bits::<16>(8);
        }
        // Two's complement and saturation (only -2^31 exactly is representable past the top).
        self.mag.next = self.qr.val();
        self.satl.next = self.over.val() | self.is_inf.val();
        if self.satl.val() {
            self.mag.next = bits::<32>(0x7fff_ffff);
            if self.a.val().get_bit(31) {
                self.mag.next = bits::<32>(0x8000_0000_u64);
            }
        }
        if self.a.val().get_bit(31) & self.over.val() & (self.lsh.val() == 8) & (self.fr.val() == 0)
        {
            self.satl.next = false;
        }
        self.negm.next = bits::<32>(0) - self.mag.val();
        self.res.next = self.mag.val();
        if self.a.val().get_bit(31) {
            self.res.next = self.negm.val();
        }
        if self.is_nan.val() {
            self.res.next = bits::<32>(0);
            self.satl.next = false;
        }
        self.y.next = self.res.val();
        self.nan.next = self.is_nan.val();
        self.sat.next = self.satl.val();
    }
}
