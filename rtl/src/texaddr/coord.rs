//! One texture-coordinate axis: f32 coordinate → fixed point → texel pair, weight and wrap (see
//! `docs/units/texaddr.md`; the algorithm is stated bit for bit in the golden model,
//! `texpix_tb::texaddr`, step 4).
//!
//! [`ScaledFloor`] computes c = ⌊256·n·s⌋ exactly (a 24 × 16 mantissa product, then a shift with a
//! sticky bit for the floor of negative values), either clamped to [−2^30, 2^30 − 1] (24.8 fixed
//! point) or, for the periodic wraps of normalized coordinates, reduced modulo 256·P·n by first
//! dropping the mantissa bits worth P or more (s mod P is exact in the mantissa), so any f32
//! wraps exactly. [`Axis`] adds the half-texel shift and the texel offset, splits integer and
//! 8-bit weight, takes i0 mod P·n with [`ModP`] (i1's remainder follows from it) and wraps both
//! texels with [`Wrap1`]. Both are combinational by default; [`Axis::new`] places up to
//! [`Axis::MAX_CUTS`] registers on the way ([`AXIS_PLAN`]: inside [`ScaledFloor`], inside
//! [`ModP`], after the wraps), and the signals beside them wait in step.

use super::{ModP, Wrap1};
use crate::common::fp::{MulU, Retime};
use rust_hdl::prelude::*;

crate::settled_block! {
/// c = ⌊256·n·s⌋ (clamped), or ⌊256·n·s⌋ mod 256·P·n when `periodic` (P = 2 with `period2`).
///
/// Ports: `s` (f32 bits; denormals read as ±0, NaN as 0, ±Inf saturate or, periodic, give 0),
/// `n` (1…65535), `periodic`, `period2`, `clock`, `en` (advance) → `c` (two's complement),
/// [`ScaledFloor::stages`] clocks later ([`ScaledFloor::new`]: 0; 1, cut M after the mantissa
/// product; 2, also cut C on `c`; 3, also cut K on the product's operands; 4, also cut S after
/// the shift). The floor's sticky bit (a negative value with bits below the
/// binary point) is p & low_mask(rsh) ≠ 0, the mask made before cut M, beside the shift rather
/// than after it.
#[derive(Clone, Debug)]
pub struct ScaledFloor {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance.
    pub en: Signal<In, Bit>,
    /// Coordinate, f32 bits.
    pub s: Signal<In, Bits<32>>,
    /// Scale (texels per unit coordinate).
    pub n: Signal<In, Bits<16>>,
    /// Reduce modulo 256·P·n.
    pub periodic: Signal<In, Bit>,
    /// P = 2 (else 1).
    pub period2: Signal<In, Bit>,
    /// Result.
    pub c: Signal<Out, Bits<32>>,
    mul: MulU<24, 16, 40>,
    e: Signal<Local, Bits<16>>,
    fr: Signal<Local, Bits<24>>,
    m: Signal<Local, Bits<24>>,
    /// The mantissa bits worth less than 1 (P = 1) and less than 2 (P = 2).
    mask: Signal<Local, Bits<24>>,
    mask2: Signal<Local, Bits<24>>,
    kk5: Signal<Local, Bits<5>>,
    neg: Signal<Local, Bit>,
    inf: Signal<Local, Bit>,
    nan: Signal<Local, Bit>,
    e6: Signal<Local, Bits<6>>,
    kov: Signal<Local, Bits<6>>,
    rsh6: Signal<Local, Bits<6>>,
    lsh: Signal<Local, Bits<6>>,
    rsh: Signal<Local, Bits<6>>,
    q: Signal<Local, Bits<40>>,
    low: Signal<Local, Bits<40>>,
    sticky: Signal<Local, Bit>,
    over: Signal<Local, Bit>,
    inc: Signal<Local, Bit>,
    inc_n: Signal<Local, Bit>,
    ninc: Signal<Local, Bits<32>>,
    negm: Signal<Local, Bits<32>>,
    wrapm: Signal<Local, Bits<32>>,
    span: Signal<Local, Bits<32>>,
    res: Signal<Local, Bits<32>>,
    /// Cut K: the product's operands.
    k_a: Retime<Bits<24>>,
    k_b: Retime<Bits<16>>,
    /// Cut M: the product and what the shift and the final select need (these since cut K).
    m_p: Retime<Bits<40>>,
    m_lsh: Retime<Bits<6>>,
    m_rsh: Retime<Bits<6>>,
    m_span: Retime<Bits<32>>,
    m_low: Retime<Bits<40>>,
    /// The bits of the product that overflow the 30-bit range after a left shift (those at
    /// 30 − lsh and above): made before cut M from the exponent, so that the overflow test
    /// after it is one AND and an OR beside the shifter instead of a second shifter behind it.
    m_ovm: Retime<Bits<40>>,
    /// Cut S: the shifted value's low 32 bits, {periodic, neg, over, sticky} (bits 3…0), span.
    s_q: Retime<Bits<32>>,
    s_flags: Retime<Bits<4>>,
    s_span: Retime<Bits<32>>,
    sfl: Signal<Local, Bits<4>>,
    /// Cut C.
    c_out: Retime<Bits<32>>,
    /// {e ≥ 142, periodic, inf, neg} (bits 3…0): the shift's select is decided before cut M,
    /// beside the product, so that no compare runs in front of the shifters.
    m_flags: Retime<Bits<4>>,
    fl: Signal<Local, Bits<4>>,
    ovm: Signal<Local, Bits<40>>,
    left_q: Signal<Local, Bit>,
    p: Signal<Local, Bits<40>>,
    lsh_q: Signal<Local, Bits<6>>,
    rsh_q: Signal<Local, Bits<6>>,
    neg_q: Signal<Local, Bit>,
    inf_q: Signal<Local, Bit>,
    periodic_q: Signal<Local, Bit>,
}
}

impl Default for ScaledFloor {
    fn default() -> Self {
        Self::new(0)
    }
}

impl ScaledFloor {
    /// With `cuts` registers: 0, 1 (cut M), 2 (cuts M and C), 3 (cuts K, M and C) or 4 (cuts
    /// K, M, S and C).
    pub fn new(cuts: usize) -> Self {
        assert!(cuts <= 4, "ScaledFloor: {cuts} cuts (0…4)");
        let (m, c) = (usize::from(cuts >= 1), usize::from(cuts >= 2));
        let (k, sh) = (usize::from(cuts >= 3), usize::from(cuts >= 4));
        Self {
            settle: crate::common::settle::SettleState::new(true),
            clock: Default::default(),
            en: Default::default(),
            s: Default::default(),
            n: Default::default(),
            periodic: Default::default(),
            period2: Default::default(),
            c: Default::default(),
            mul: Default::default(),
            e: Default::default(),
            fr: Default::default(),
            m: Default::default(),
            mask: Default::default(),
            mask2: Default::default(),
            kk5: Default::default(),
            neg: Default::default(),
            inf: Default::default(),
            nan: Default::default(),
            e6: Default::default(),
            kov: Default::default(),
            rsh6: Default::default(),
            lsh: Default::default(),
            rsh: Default::default(),
            q: Default::default(),
            low: Default::default(),
            sticky: Default::default(),
            over: Default::default(),
            inc: Default::default(),
            inc_n: Default::default(),
            ninc: Default::default(),
            negm: Default::default(),
            wrapm: Default::default(),
            span: Default::default(),
            res: Default::default(),
            k_a: Retime::new(k),
            k_b: Retime::new(k),
            m_p: Retime::new(m),
            m_lsh: Retime::new(k + m),
            m_rsh: Retime::new(k + m),
            m_span: Retime::new(k + m),
            m_low: Retime::new(k + m),
            m_ovm: Retime::new(k + m),
            s_q: Retime::new(sh),
            s_flags: Retime::new(sh),
            s_span: Retime::new(sh),
            sfl: Default::default(),
            c_out: Retime::new(c),
            m_flags: Retime::new(k + m),
            fl: Default::default(),
            ovm: Default::default(),
            left_q: Default::default(),
            p: Default::default(),
            lsh_q: Default::default(),
            rsh_q: Default::default(),
            neg_q: Default::default(),
            inf_q: Default::default(),
            periodic_q: Default::default(),
        }
    }

    /// Register stages (the latency in enabled clocks).
    pub fn stages(&self) -> usize {
        self.k_a.stages() + self.m_p.stages() + self.s_q.stages() + self.c_out.stages()
    }
}

impl Logic for ScaledFloor {
    #[hdl_gen]
    fn update(&mut self) {
        self.e.next = bit_cast::<16, 8>(self.s.val().get_bits::<8>(23));
        self.fr.next = bit_cast::<24, 23>(self.s.val().get_bits::<23>(0));
        self.nan.next = (self.e.val() == 0xff) & self.fr.val().any();
        self.inf.next = (self.e.val() == 0xff) & !self.fr.val().any();
        self.neg.next = self.s.val().get_bit(31) & !self.nan.val();
        // Significand; denormals flush, NaN and Inf carry no mantissa.
        self.m.next = self.fr.val() | bits::<24>(0x80_0000);
        if (self.e.val() == 0) | (self.e.val() == 0xff) {
            self.m.next = bits::<24>(0);
        }
        // Periodic: keep the mantissa bits worth less than P (bit b is worth 2^(e − 150 + b)):
        // the 150 − e low bits for P = 1 and one more for P = 2, both made from e alone and
        // selected by the wrap mode last (the mode arrives later than the exponent).
        // 150 − e is below 24 exactly when e ≥ 127, and then it is (22 − e) mod 32: a five-bit
        // subtract and constant compares, no 16-bit subtract in front of the mask.
        self.kk5.next = bits::<5>(22) - self.e.val().get_bits::<5>(0);
        self.mask.next = bits::<24>(0xff_ffff);
        if self.e.val() >= bits::<16>(127) {
            self.mask.next = !(bits::<24>(0xff_ffff) << self.kk5.val());
        }
        if self.e.val() >= bits::<16>(150) {
            self.mask.next = bits::<24>(0);
        }
        self.mask2.next = (self.mask.val() << 1) | bits::<24>(1);
        if self.e.val() >= bits::<16>(151) {
            self.mask2.next = bits::<24>(0);
        }
        if self.periodic.val() {
            if self.period2.val() {
                self.m.next = self.m.val() & self.mask2.val();
            } else {
                self.m.next = self.m.val() & self.mask.val();
            }
        }
        self.k_a.clock.next = self.clock.val();
        self.k_a.en.next = self.en.val();
        self.k_a.d.next = self.m.val();
        self.k_b.clock.next = self.clock.val();
        self.k_b.en.next = self.en.val();
        self.k_b.d.next = self.n.val();
        self.mul.a.next = self.k_a.q.val();
        self.mul.b.next = self.k_b.q.val();
        // value = p · 2^(e − 142). The shift amounts and the masks are made from the exponent's
        // low six bits (a six-bit subtract from a constant, since 142 ≡ 14 and 172 ≡ 44 mod 64),
        // with the out-of-range cases decided by constant compares on e beside them: no 16-bit
        // subtract, no compare after it, in front of the masks. lsh = min(e − 142, 40) (valid
        // when e ≥ 142), rsh = min(142 − e, 40) (valid when e ≤ 142); the side a value is not
        // used on is clamped to 40 as well.
        self.e6.next = self.e.val().get_bits::<6>(0);
        self.lsh.next = self.e6.val() - bits::<6>(14);
        if (self.e.val() > bits::<16>(182)) | (self.e.val() < bits::<16>(142)) {
            self.lsh.next = bits::<6>(40);
        }
        self.rsh6.next = bits::<6>(14) - self.e6.val();
        self.rsh.next = self.rsh6.val();
        if (self.e.val() < bits::<16>(102)) | (self.e.val() > bits::<16>(142)) {
            self.rsh.next = bits::<6>(40);
        }
        // Periodic: a negative s maps to 256·P·n − ⌈256·n·(|s| mod P)⌉.
        self.span.next = bit_cast::<32, 16>(self.n.val()) << 8;
        if self.period2.val() {
            self.span.next = bit_cast::<32, 16>(self.n.val()) << 9;
        }
        // Overflow mask of a left shift (a right shift's overflow is its result's bits 30 and
        // up): the bits at 30 − lsh = 172 − e and above, all of them once e ≥ 173. Used only
        // when e ≥ 142 (below, its value is not looked at).
        // (The six-bit amounts go through signals of their own: in an expression the Verilog
        // would take the constant's 32 bits and not wrap the subtract modulo 64.)
        self.kov.next = bits::<6>(44) - self.e6.val();
        self.ovm.next = bits::<40>(0xff_ffff_ffff_u64) << self.kov.val();
        if self.e.val() >= bits::<16>(173) {
            self.ovm.next = bits::<40>(0xff_ffff_ffff_u64);
        }
        // Cut M (wires without it).
        self.fl.next = bits::<4>(0);
        if self.neg.val() {
            self.fl.next = self.fl.val() | bits::<4>(1);
        }
        if self.inf.val() {
            self.fl.next = self.fl.val() | bits::<4>(2);
        }
        if self.periodic.val() {
            self.fl.next = self.fl.val() | bits::<4>(4);
        }
        if self.e.val() >= bits::<16>(142) {
            self.fl.next = self.fl.val() | bits::<4>(8);
        }
        self.m_ovm.clock.next = self.clock.val();
        self.m_ovm.en.next = self.en.val();
        self.m_ovm.d.next = self.ovm.val();
        self.m_p.clock.next = self.clock.val();
        self.m_p.en.next = self.en.val();
        self.m_p.d.next = self.mul.p.val();
        self.m_lsh.clock.next = self.clock.val();
        self.m_lsh.en.next = self.en.val();
        self.m_lsh.d.next = self.lsh.val();
        self.m_rsh.clock.next = self.clock.val();
        self.m_rsh.en.next = self.en.val();
        self.m_rsh.d.next = self.rsh.val();
        self.m_span.clock.next = self.clock.val();
        self.m_span.en.next = self.en.val();
        self.m_span.d.next = self.span.val();
        // The bits a right shift by rsh drops (all of them once e < 102; used only when e < 142).
        self.low.next = !(bits::<40>(0xff_ffff_ffff_u64) << self.rsh6.val());
        if self.e.val() < bits::<16>(102) {
            self.low.next = bits::<40>(0xff_ffff_ffff_u64);
        }
        self.m_low.clock.next = self.clock.val();
        self.m_low.en.next = self.en.val();
        self.m_low.d.next = self.low.val();
        self.m_flags.clock.next = self.clock.val();
        self.m_flags.en.next = self.en.val();
        self.m_flags.d.next = self.fl.val();
        self.p.next = self.m_p.q.val();
        self.lsh_q.next = self.m_lsh.q.val();
        self.rsh_q.next = self.m_rsh.q.val();
        self.neg_q.next = self.m_flags.q.val().get_bit(0);
        self.inf_q.next = self.m_flags.q.val().get_bit(1);
        self.periodic_q.next = self.m_flags.q.val().get_bit(2);
        self.left_q.next = self.m_flags.q.val().get_bit(3);
        if self.left_q.val() {
            self.q.next = self.p.val() << self.lsh_q.val();
            self.sticky.next = false;
            self.over.next = (self.p.val() & self.m_ovm.q.val()).any();
        } else {
            self.q.next = self.p.val() >> self.rsh_q.val();
            self.sticky.next = (self.p.val() & self.m_low.q.val()).any();
            self.over.next = (self.q.val() >> 30).any();
        }
        if self.inf_q.val() {
            self.over.next = true;
        }
        // Cut S (wires without it).
        self.sfl.next = bits::<4>(0);
        if self.sticky.val() {
            self.sfl.next = self.sfl.val() | bits::<4>(1);
        }
        if self.over.val() {
            self.sfl.next = self.sfl.val() | bits::<4>(2);
        }
        if self.neg_q.val() {
            self.sfl.next = self.sfl.val() | bits::<4>(4);
        }
        if self.periodic_q.val() {
            self.sfl.next = self.sfl.val() | bits::<4>(8);
        }
        self.s_q.clock.next = self.clock.val();
        self.s_q.en.next = self.en.val();
        self.s_q.d.next = self.q.val().get_bits::<32>(0);
        self.s_flags.clock.next = self.clock.val();
        self.s_flags.en.next = self.en.val();
        self.s_flags.d.next = self.sfl.val();
        self.s_span.clock.next = self.clock.val();
        self.s_span.en.next = self.en.val();
        self.s_span.d.next = self.m_span.q.val();
        // The floor of a negative value adds inc = sticky to the magnitude q; its negation and
        // the periodic span − (q + inc) are each one add, !q + !inc and span + !q + !inc (the
        // one-bit term goes in as the carry), instead of the + 1 and then the subtract.
        self.inc.next = self.s_flags.q.val().get_bit(2) & self.s_flags.q.val().get_bit(0);
        // (!inc through a one-bit signal: inverted inside the cast, the Verilog would widen inc
        // to 32 bits first and invert all of them.)
        self.inc_n.next = !self.inc.val();
        self.ninc.next = bit_cast::<32, 1>(self.inc_n.val().into());
        self.negm.next = !self.s_q.q.val() + self.ninc.val();
        self.wrapm.next = self.s_span.q.val() + !self.s_q.q.val() + self.ninc.val();
        if self.s_flags.q.val().get_bit(3) {
            self.res.next = self.s_q.q.val();
            if self.s_flags.q.val().get_bit(2) & (self.s_q.q.val().any() | self.inc.val()) {
                self.res.next = self.wrapm.val();
            }
        } else if self.s_flags.q.val().get_bit(1) {
            self.res.next = bits::<32>(0x3fff_ffff);
            if self.s_flags.q.val().get_bit(2) {
                self.res.next = bits::<32>(0xc000_0000_u64);
            }
        } else {
            self.res.next = self.s_q.q.val();
            if self.s_flags.q.val().get_bit(2) {
                self.res.next = self.negm.val();
            }
        }
        self.c_out.clock.next = self.clock.val();
        self.c_out.en.next = self.en.val();
        self.c_out.d.next = self.res.val();
        self.c.next = self.c_out.q.val();
    }
}

/// Where an [`Axis`] with `c` registers puts them ([`AXIS_PLAN`]`[c]`): [`ScaledFloor`]'s
/// registers (1: cut M after the mantissa product; 2: also cut C on its result; 3: also cut K
/// before the product; 4: also cut S after the shift), the [`ModP`] boundaries, cut R (between the remainders and the wraps)
/// and cut W on the
/// outputs (after the wraps). Chosen from the path pieces of one axis placed alone on the ECP5
/// (docs/fpga.md): the coordinate datapath up to the remainder unit about 54 ns (21 of them up to
/// cut M), each group of three remainder steps about 12.5, the sign fix and wraps about 22, and
/// the tap addresses that follow in [`super::AddrStage`]. The [`ModP`] boundaries are step
/// numbers (0…24); up to entry 15 they are every third one (the remainder in groups of three
/// steps). Entries 9…11 fill in the remaining multiples of three one at a time on the way to 12:
/// the worst remainder piece stays two groups until the last one is cut. 13 adds cut K, 14 cut R,
/// 15 cut S. Entries 16…23 split each group of three into two and one steps (the worst piece is
/// three steps until the last of them), and 24…31 cut the remaining boundaries, so that at 31
/// every remainder step has a clock of its own.
pub const AXIS_PLAN: [(usize, &[usize], bool, bool); 32] = [
    (0, &[], false, false),
    (0, &[12], false, false),
    (0, &[6, 21], false, false),
    (0, &[3, 15], false, true),
    (0, &[0, 9, 18], false, true),
    (1, &[0, 9, 18], false, true),
    (1, &[0, 9, 18, 24], false, true),
    (1, &[0, 6, 12, 18, 24], false, true),
    (2, &[0, 6, 12, 18, 24], false, true),
    (2, &[0, 3, 6, 12, 18, 24], false, true),
    (2, &[0, 3, 6, 9, 12, 18, 24], false, true),
    (2, &[0, 3, 6, 9, 12, 15, 18, 24], false, true),
    (2, &[0, 3, 6, 9, 12, 15, 18, 21, 24], false, true),
    (3, &[0, 3, 6, 9, 12, 15, 18, 21, 24], false, true),
    (3, &[0, 3, 6, 9, 12, 15, 18, 21, 24], true, true),
    (4, &[0, 3, 6, 9, 12, 15, 18, 21, 24], true, true),
    (4, &[0, 2, 3, 6, 9, 12, 15, 18, 21, 24], true, true),
    (4, &[0, 2, 3, 5, 6, 9, 12, 15, 18, 21, 24], true, true),
    (4, &[0, 2, 3, 5, 6, 8, 9, 12, 15, 18, 21, 24], true, true),
    (
        4,
        &[0, 2, 3, 5, 6, 8, 9, 11, 12, 15, 18, 21, 24],
        true,
        true,
    ),
    (
        4,
        &[0, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 18, 21, 24],
        true,
        true,
    ),
    (
        4,
        &[0, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 21, 24],
        true,
        true,
    ),
    (
        4,
        &[0, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 24],
        true,
        true,
    ),
    (
        4,
        &[0, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 23, 24],
        true,
        true,
    ),
    (
        4,
        &[
            0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 23, 24,
        ],
        true,
        true,
    ),
    (
        4,
        &[
            0, 1, 2, 3, 4, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 23, 24,
        ],
        true,
        true,
    ),
    (
        4,
        &[
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 23, 24,
        ],
        true,
        true,
    ),
    (
        4,
        &[
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 17, 18, 20, 21, 23, 24,
        ],
        true,
        true,
    ),
    (
        4,
        &[
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 20, 21, 23, 24,
        ],
        true,
        true,
    ),
    (
        4,
        &[
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20, 21, 23, 24,
        ],
        true,
        true,
    ),
    (
        4,
        &[
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 23, 24,
        ],
        true,
        true,
    ),
    (
        4,
        &[
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
            24,
        ],
        true,
        true,
    ),
];

crate::settled_block! {
/// One axis of one lane at one level.
///
/// Ports: `s` (f32 bits), `n` (level size, 1…32768), `mode` (sampler wrap code 0…4), `linear`,
/// `unnorm` (unnormalized coordinates: scale 1, clamped to the 24.8 range before any wrap),
/// `off` (4-bit two's complement texel offset), `clock`, `en` (advance) → `i0`, `i1` (wrapped
/// texels, two's complement), `b0`, `b1` (border), `w` (weight α·256 of i1; 0 for nearest),
/// [`Axis::stages`] clocks after the inputs ([`AXIS_PLAN`]).
#[derive(Clone, Debug)]
pub struct Axis {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance.
    pub en: Signal<In, Bit>,
    /// Coordinate, f32 bits.
    pub s: Signal<In, Bits<32>>,
    /// Level size.
    pub n: Signal<In, Bits<16>>,
    /// Wrap mode code.
    pub mode: Signal<In, Bits<3>>,
    /// Linear filter.
    pub linear: Signal<In, Bit>,
    /// Unnormalized coordinates.
    pub unnorm: Signal<In, Bit>,
    /// Texel offset, 4-bit two's complement.
    pub off: Signal<In, Bits<4>>,
    /// First texel.
    pub i0: Signal<Out, Bits<32>>,
    /// Second texel.
    pub i1: Signal<Out, Bits<32>>,
    /// First texel is border.
    pub b0: Signal<Out, Bit>,
    /// Second texel is border.
    pub b1: Signal<Out, Bit>,
    /// Weight (0…255).
    pub w: Signal<Out, Bits<32>>,
    sf: ScaledFloor,
    modp: ModP,
    wr0: Wrap1,
    wr1: Wrap1,
    per: Signal<Local, Bit>,
    pn: Signal<Local, Bits<17>>,
    offx: Signal<Local, Bits<16>>,
    adj: Signal<Local, Bits<16>>,
    adjx: Signal<Local, Bits<32>>,
    t: Signal<Local, Bits<32>>,
    i0l: Signal<Local, Bits<32>>,
    i1l: Signal<Local, Bits<32>>,
    scale: Signal<Local, Bits<16>>,
    wl: Signal<Local, Bits<8>>,
    /// Beside cuts M and C: level size, mode, offset, linear.
    m_n: Retime<Bits<16>>,
    m_mode: Retime<Bits<3>>,
    m_adj: Retime<Bits<16>>,
    m_linear: Retime<Bit>,
    /// Beside the remainder's registers: first texel, level size, mode, weight.
    d_i0: Retime<Bits<32>>,
    d_n: Retime<Bits<16>>,
    d_mode: Retime<Bits<3>>,
    d_w: Retime<Bits<8>>,
    /// Cut R: the remainders and what the wraps need.
    r_r0: Retime<Bits<32>>,
    r_r1: Retime<Bits<32>>,
    r_i0: Retime<Bits<32>>,
    r_i1: Retime<Bits<32>>,
    r_n: Retime<Bits<16>>,
    r_mode: Retime<Bits<3>>,
    r_w: Retime<Bits<8>>,
    /// Cut W.
    w_i0: Retime<Bits<32>>,
    w_i1: Retime<Bits<32>>,
    w_b0: Retime<Bit>,
    w_b1: Retime<Bit>,
    w_w: Retime<Bits<8>>,
}
}

impl Default for Axis {
    fn default() -> Self {
        Self::new(0)
    }
}

impl Axis {
    /// Most registers [`Axis::new`] places.
    pub const MAX_CUTS: usize = AXIS_PLAN.len() - 1;

    /// The axis with `cuts` (0…[`Axis::MAX_CUTS`]) registers placed by [`AXIS_PLAN`]: latency
    /// `cuts`.
    pub fn new(cuts: usize) -> Self {
        assert!(
            cuts <= Self::MAX_CUTS,
            "Axis: {cuts} cuts (0…{})",
            Self::MAX_CUTS
        );
        let (sf, at, cut_r, cut_w) = AXIS_PLAN[cuts];
        let (d, r, w) = (at.len(), usize::from(cut_r), usize::from(cut_w));
        let placed = sf + d + r + w;
        assert_eq!(placed, cuts, "AXIS_PLAN[{cuts}] places {placed} registers");
        Self {
            settle: crate::common::settle::SettleState::new(true),
            clock: Default::default(),
            en: Default::default(),
            s: Default::default(),
            n: Default::default(),
            mode: Default::default(),
            linear: Default::default(),
            unnorm: Default::default(),
            off: Default::default(),
            i0: Default::default(),
            i1: Default::default(),
            b0: Default::default(),
            b1: Default::default(),
            w: Default::default(),
            sf: ScaledFloor::new(sf),
            modp: ModP::new(at),
            wr0: Default::default(),
            wr1: Default::default(),
            per: Default::default(),
            pn: Default::default(),
            offx: Default::default(),
            adj: Default::default(),
            adjx: Default::default(),
            t: Default::default(),
            i0l: Default::default(),
            i1l: Default::default(),
            scale: Default::default(),
            wl: Default::default(),
            m_n: Retime::new(sf),
            m_mode: Retime::new(sf),
            m_adj: Retime::new(sf),
            m_linear: Retime::new(sf),
            d_i0: Retime::new(d),
            d_n: Retime::new(d),
            d_mode: Retime::new(d),
            d_w: Retime::new(d),
            r_r0: Retime::new(r),
            r_r1: Retime::new(r),
            r_i0: Retime::new(r),
            r_i1: Retime::new(r),
            r_n: Retime::new(r),
            r_mode: Retime::new(r),
            r_w: Retime::new(r),
            w_i0: Retime::new(w),
            w_i1: Retime::new(w),
            w_b0: Retime::new(w),
            w_b1: Retime::new(w),
            w_w: Retime::new(w),
        }
    }

    /// Register stages (the latency in enabled clocks).
    pub fn stages(&self) -> usize {
        self.sf.stages() + self.modp.stages() + self.r_r0.stages() + self.w_i0.stages()
    }
}

impl Logic for Axis {
    #[hdl_gen]
    fn update(&mut self) {
        self.per.next = !self.unnorm.val() & (self.mode.val() < bits::<3>(2));
        self.scale.next = self.n.val();
        if self.unnorm.val() {
            self.scale.next = bits::<16>(1);
        }
        self.sf.clock.next = self.clock.val();
        self.sf.en.next = self.en.val();
        self.sf.s.next = self.s.val();
        self.sf.n.next = self.scale.val();
        self.sf.periodic.next = self.per.val();
        self.sf.period2.next = self.mode.val() == bits::<3>(1);
        // Beside cut M.
        self.m_n.clock.next = self.clock.val();
        self.m_n.en.next = self.en.val();
        self.m_n.d.next = self.n.val();
        self.m_mode.clock.next = self.clock.val();
        self.m_mode.en.next = self.en.val();
        self.m_mode.d.next = self.mode.val();
        // The offset term 256·off (− 128 when linear) is formed before the cut, so that after it
        // t is one add: adj is 16-bit two's complement (−2176…1792).
        self.offx.next = bit_cast::<16, 4>(self.off.val());
        if self.off.val().get_bit(3) {
            self.offx.next = bit_cast::<16, 4>(self.off.val()) | bits::<16>(0xfff0);
        }
        self.adj.next = self.offx.val() << 8;
        if self.linear.val() {
            self.adj.next = (self.offx.val() << 8) - bits::<16>(128);
        }
        self.m_adj.clock.next = self.clock.val();
        self.m_adj.en.next = self.en.val();
        self.m_adj.d.next = self.adj.val();
        self.m_linear.clock.next = self.clock.val();
        self.m_linear.en.next = self.en.val();
        self.m_linear.d.next = self.linear.val();
        // Offset, half-texel shift, integer texel and weight.
        self.adjx.next = bit_cast::<32, 16>(self.m_adj.q.val());
        if self.m_adj.q.val().get_bit(15) {
            self.adjx.next = bit_cast::<32, 16>(self.m_adj.q.val()) | bits::<32>(0xffff_0000_u64);
        }
        self.t.next = self.sf.c.val() + self.adjx.val();
        self.i0l.next = self.t.val() >> 8;
        if self.t.val().get_bit(31) {
            self.i0l.next = (self.t.val() >> 8) | bits::<32>(0xff00_0000_u64);
        }
        self.wl.next = bits::<8>(0);
        if self.m_linear.q.val() {
            self.wl.next = self.t.val().get_bits::<8>(0);
        }
        // Periodic modes: i0 mod P·n, and i1's remainder from it.
        self.pn.next = bit_cast::<17, 16>(self.m_n.q.val());
        if self.m_mode.q.val() == bits::<3>(1) {
            self.pn.next = bit_cast::<17, 16>(self.m_n.q.val()) << 1;
        }
        self.modp.clock.next = self.clock.val();
        self.modp.en.next = self.en.val();
        self.modp.i.next = self.i0l.val().get_bits::<24>(0);
        self.modp.pn.next = self.pn.val();
        // The rest waits beside the remainder's registers.
        self.d_i0.clock.next = self.clock.val();
        self.d_i0.en.next = self.en.val();
        self.d_i0.d.next = self.i0l.val();
        self.d_n.clock.next = self.clock.val();
        self.d_n.en.next = self.en.val();
        self.d_n.d.next = self.m_n.q.val();
        self.d_mode.clock.next = self.clock.val();
        self.d_mode.en.next = self.en.val();
        self.d_mode.d.next = self.m_mode.q.val();
        self.d_w.clock.next = self.clock.val();
        self.d_w.en.next = self.en.val();
        self.d_w.d.next = self.wl.val();
        self.i1l.next = self.d_i0.q.val() + bits::<32>(1);
        // Cut R.
        self.r_r0.clock.next = self.clock.val();
        self.r_r0.en.next = self.en.val();
        self.r_r0.d.next = self.modp.r.val();
        self.r_r1.clock.next = self.clock.val();
        self.r_r1.en.next = self.en.val();
        self.r_r1.d.next = self.modp.r1.val();
        self.r_i0.clock.next = self.clock.val();
        self.r_i0.en.next = self.en.val();
        self.r_i0.d.next = self.d_i0.q.val();
        self.r_i1.clock.next = self.clock.val();
        self.r_i1.en.next = self.en.val();
        self.r_i1.d.next = self.i1l.val();
        self.r_n.clock.next = self.clock.val();
        self.r_n.en.next = self.en.val();
        self.r_n.d.next = self.d_n.q.val();
        self.r_mode.clock.next = self.clock.val();
        self.r_mode.en.next = self.en.val();
        self.r_mode.d.next = self.d_mode.q.val();
        self.r_w.clock.next = self.clock.val();
        self.r_w.en.next = self.en.val();
        self.r_w.d.next = self.d_w.q.val();
        self.wr0.i.next = self.r_i0.q.val();
        self.wr0.r.next = self.r_r0.q.val();
        self.wr0.n.next = self.r_n.q.val();
        self.wr0.mode.next = self.r_mode.q.val();
        self.wr1.i.next = self.r_i1.q.val();
        self.wr1.r.next = self.r_r1.q.val();
        self.wr1.n.next = self.r_n.q.val();
        self.wr1.mode.next = self.r_mode.q.val();
        // Cut W.
        self.w_i0.clock.next = self.clock.val();
        self.w_i0.en.next = self.en.val();
        self.w_i0.d.next = self.wr0.coord.val();
        self.w_i1.clock.next = self.clock.val();
        self.w_i1.en.next = self.en.val();
        self.w_i1.d.next = self.wr1.coord.val();
        self.w_b0.clock.next = self.clock.val();
        self.w_b0.en.next = self.en.val();
        self.w_b0.d.next = self.wr0.border.val();
        self.w_b1.clock.next = self.clock.val();
        self.w_b1.en.next = self.en.val();
        self.w_b1.d.next = self.wr1.border.val();
        self.w_w.clock.next = self.clock.val();
        self.w_w.en.next = self.en.val();
        self.w_w.d.next = self.r_w.q.val();
        self.i0.next = self.w_i0.q.val();
        self.i1.next = self.w_i1.q.val();
        self.b0.next = self.w_b0.q.val();
        self.b1.next = self.w_b1.q.val();
        self.w.next = bit_cast::<32, 8>(self.w_w.q.val());
    }
}
