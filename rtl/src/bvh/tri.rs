//! The ray/triangle test (docs/units/bvh.md §8, bit for bit as stated in `texpix_tb::bvh`): no
//! divider, the shader divides.
//!
//! # Ports
//! `a_*`, `b_*`, `c_*` the vertices, `o_*` the origin, `d_*` the direction (f32 bits), `tri_id`,
//! `mode` (triangle_return_mode) → `d_0…d_3` the four returned dwords.
//!
//! # Arithmetic
//! e1 = b − a, e2 = c − a, e3 = o − a; s1 = dir × e2, s2 = e3 × e1 ([`Cross3`]);
//! t_num = e2·s2, t_denom = s1·e1, I = e3·s1, J = dir·s2 ([`Dot3`]); a negative t_denom (sign bit)
//! flips all four signs; hit iff t_denom > 0, I ≥ 0, J ≥ 0, I + J ≤ t_denom and t_num ≥ 0 (IEEE
//! comparisons, so NaN ⇒ miss). Mode 0 returns {t_num, t_denom, tri_id, 1}, a miss
//! {+Inf, 1.0, tri_id, 0}; mode 1 returns {t_num, t_denom, I, J}, a miss {+Inf, 1.0, 0, 0}.
//! 24 multipliers, 24 adders, 1 comparator.
//!
//! # Pipeline
//! Combinational (latency 0) when built by `default()`. [`TriTest::new`] takes a [`TriPlan`]:
//! `fp` register stages inside every f32 operator ([`FpAddP`], [`FpMulP`]; seven operators in
//! series: the differences, the cross products' products and subtractions, the dot products'
//! products and two additions, and I + J), `mul` more inside every multiplier (two in series),
//! cut A after the differences and cross products, cut B after the dot products and cut C after
//! the hit decision (the compare of I + J with t_denom; the returned dwords' select comes after
//! it). Operands that skip an operator wait beside it in delay lines.
//! The stages advance together. The stall comes in as `adv_next` (the advance of the next clock,
//! [`crate::bvh::BvhUnit`]'s skid control) and is registered in an [`EnableCopy`] per operator
//! and per delay line (the cross and dot products hold theirs; the long lines one per
//! [`TriTest::LINE_GROUP`] stages, [`SpreadRetime`]), so that no enable net spans the test;
//! latency [`TriPlan::latency`], one test per enabled clock.

use super::vec3::{Cross3, Dot3};
use crate::common::fp::{FpAddP, FpCmp, Retime, SpreadRetime};
use crate::common::EnableCopy;
use rust_hdl::prelude::*;

/// Where a [`TriTest`] puts its register stages (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TriPlan {
    /// Stages inside every f32 operator.
    pub fp: usize,
    /// More stages inside every multiplier (two in series on the longest path: the cross
    /// products' and the dot products').
    pub mul: usize,
    /// Cut A (0 or 1), after the differences and cross products.
    pub a: usize,
    /// Cut B (0 or 1), after the dot products.
    pub b: usize,
    /// Cut C (0 or 1), after the hit decision, in front of the returned dwords' select.
    pub c: usize,
}

impl TriPlan {
    /// f32 operators on the longest path (difference, product, subtraction, product, two
    /// additions, I + J).
    pub const OPS_IN_SERIES: usize = 7;

    /// Multipliers on the longest path.
    pub const MULS_IN_SERIES: usize = 2;

    /// Register stages from the inputs to the results.
    pub fn latency(&self) -> usize {
        Self::OPS_IN_SERIES * self.fp + Self::MULS_IN_SERIES * self.mul + self.a + self.b + self.c
    }
}

crate::settled_block! {
/// The triangle test. See the module documentation.
#[derive(Clone, Debug)]
pub struct TriTest {
    /// Clock (used only with register stages, see [`TriTest::new`]).
    pub clock: Signal<In, Clock>,
    /// Advance every register stage in the next clock (registered per operator and delay line).
    pub adv_next: Signal<In, Bit>,
    /// Vertex a.x
    pub a_x: Signal<In, Bits<32>>,
    /// Vertex a.y
    pub a_y: Signal<In, Bits<32>>,
    /// Vertex a.z
    pub a_z: Signal<In, Bits<32>>,
    /// Vertex b.x
    pub b_x: Signal<In, Bits<32>>,
    /// Vertex b.y
    pub b_y: Signal<In, Bits<32>>,
    /// Vertex b.z
    pub b_z: Signal<In, Bits<32>>,
    /// Vertex c.x
    pub c_x: Signal<In, Bits<32>>,
    /// Vertex c.y
    pub c_y: Signal<In, Bits<32>>,
    /// Vertex c.z
    pub c_z: Signal<In, Bits<32>>,
    /// Origin x
    pub o_x: Signal<In, Bits<32>>,
    /// Origin y
    pub o_y: Signal<In, Bits<32>>,
    /// Origin z
    pub o_z: Signal<In, Bits<32>>,
    /// Direction x
    pub d_x: Signal<In, Bits<32>>,
    /// Direction y
    pub d_y: Signal<In, Bits<32>>,
    /// Direction z
    pub d_z: Signal<In, Bits<32>>,
    /// Triangle id.
    pub tri_id: Signal<In, Bits<32>>,
    /// triangle_return_mode.
    pub mode: Signal<In, Bit>,
    /// Result dword 0.
    pub d_0: Signal<Out, Bits<32>>,
    /// Result dword 1.
    pub d_1: Signal<Out, Bits<32>>,
    /// Result dword 2.
    pub d_2: Signal<Out, Bits<32>>,
    /// Result dword 3.
    pub d_3: Signal<Out, Bits<32>>,
    /// e1 (0…2), e2 (3…5), e3 (6…8).
    diffs: [FpAddP; 9],
    /// The direction beside the differences.
    p_dir: [Retime<Bits<32>>; 3],
    s1: Cross3,
    s2: Cross3,
    /// e1, e2, e3 (0…8) and the direction (9…11) beside the cross products, an enable copy per
    /// [`TriTest::LINE_GROUP`] stages.
    p_cross: [SpreadRetime<Bits<32>>; 12],
    /// Cut A: e1, e2, e3 (0…8), s1 (9…11), s2 (12…14), dir (15…17).
    ca: [Retime<Bits<32>>; 18],
    /// tri_id and mode beside everything, an enable copy per [`TriTest::LINE_GROUP`] stages.
    cab_id: SpreadRetime<Bits<32>>,
    cab_mode: SpreadRetime<Bit>,
    /// t_num, t_denom, I, J.
    dot: [Dot3; 4],
    /// Cut B: the four dot products.
    cb: [Retime<Bits<32>>; 4],
    ij: FpAddP,
    /// t_num, t_denom, I, J (sign-corrected) beside I + J.
    p_ij: [Retime<Bits<32>>; 4],
    /// The sign tests, made before I + J and carried beside it: {t_denom > 0, t_num, I, J ≥ 0}.
    p_ok: Retime<Bits<2>>,
    le: FpCmp,
    /// Cut C: the hit and the four values the dwords select from.
    cc_hit: Retime<Bit>,
    cc: [Retime<Bits<32>>; 4],
    /// The advance of each difference; of the direction beside them; of cut A; of I + J; of cut
    /// B and the words beside I + J.
    e_diff: [EnableCopy; 9],
    e_pdir: EnableCopy,
    e_ca: EnableCopy,
    e_ij: EnableCopy,
    e_tail: EnableCopy,
    tn: Signal<Local, Bits<32>>,
    td: Signal<Local, Bits<32>>,
    bi: Signal<Local, Bits<32>>,
    bj: Signal<Local, Bits<32>>,
    tn2: Signal<Local, Bits<32>>,
    td2: Signal<Local, Bits<32>>,
    bi2: Signal<Local, Bits<32>>,
    bj2: Signal<Local, Bits<32>>,
    ge0: Signal<Local, Bit>,
    ok: Signal<Local, Bits<2>>,
    h: Signal<Local, Bit>,
    r0: Signal<Local, Bits<32>>,
    r1: Signal<Local, Bits<32>>,
    r2: Signal<Local, Bits<32>>,
    r3: Signal<Local, Bits<32>>,
}
}

impl Default for TriTest {
    fn default() -> Self {
        Self::new(TriPlan::default())
    }
}

impl TriTest {
    /// Stages per enable copy in the long delay lines (beside the cross products, and tri_id
    /// and mode beside the whole test).
    pub const LINE_GROUP: usize = 4;

    /// The test with the register stages of `plan`: latency `plan.latency()`.
    pub fn new(plan: TriPlan) -> Self {
        use std::array::from_fn;
        assert!(
            plan.a <= 1 && plan.b <= 1 && plan.c <= 1,
            "triangle test: {plan:?} (cuts A, B and C: 0 or 1)"
        );
        let (k, m, a, b, c) = (plan.fp, plan.fp + plan.mul, plan.a, plan.b, plan.c);
        Self {
            settle: crate::common::settle::SettleState::new(plan.latency() > 0),
            clock: Default::default(),
            adv_next: Default::default(),
            e_diff: Default::default(),
            e_pdir: Default::default(),
            e_ca: Default::default(),
            e_ij: Default::default(),
            e_tail: Default::default(),
            a_x: Default::default(),
            a_y: Default::default(),
            a_z: Default::default(),
            b_x: Default::default(),
            b_y: Default::default(),
            b_z: Default::default(),
            c_x: Default::default(),
            c_y: Default::default(),
            c_z: Default::default(),
            o_x: Default::default(),
            o_y: Default::default(),
            o_z: Default::default(),
            d_x: Default::default(),
            d_y: Default::default(),
            d_z: Default::default(),
            tri_id: Default::default(),
            mode: Default::default(),
            d_0: Default::default(),
            d_1: Default::default(),
            d_2: Default::default(),
            d_3: Default::default(),
            diffs: from_fn(|_| FpAddP::new(k)),
            p_dir: from_fn(|_| Retime::new(k)),
            s1: Cross3::new(m, k),
            s2: Cross3::new(m, k),
            p_cross: from_fn(|_| SpreadRetime::new(m + k, Self::LINE_GROUP)),
            ca: from_fn(|_| Retime::new(a)),
            cab_id: SpreadRetime::new(plan.latency(), Self::LINE_GROUP),
            cab_mode: SpreadRetime::new(plan.latency(), Self::LINE_GROUP),
            dot: from_fn(|_| Dot3::new(m, k)),
            cb: from_fn(|_| Retime::new(b)),
            ij: FpAddP::new(k),
            p_ij: from_fn(|_| Retime::new(k)),
            p_ok: Retime::new(k),
            le: Default::default(),
            cc_hit: Retime::new(c),
            cc: from_fn(|_| Retime::new(c)),
            tn: Default::default(),
            td: Default::default(),
            bi: Default::default(),
            bj: Default::default(),
            tn2: Default::default(),
            td2: Default::default(),
            bi2: Default::default(),
            bj2: Default::default(),
            ge0: Default::default(),
            ok: Default::default(),
            h: Default::default(),
            r0: Default::default(),
            r1: Default::default(),
            r2: Default::default(),
            r3: Default::default(),
        }
    }
}

impl Logic for TriTest {
    #[hdl_gen]
    fn update(&mut self) {
        self.e_pdir.clock.next = self.clock.val();
        self.e_pdir.d.next = self.adv_next.val();
        self.e_ca.clock.next = self.clock.val();
        self.e_ca.d.next = self.adv_next.val();
        self.e_ij.clock.next = self.clock.val();
        self.e_ij.d.next = self.adv_next.val();
        self.e_tail.clock.next = self.clock.val();
        self.e_tail.d.next = self.adv_next.val();
        // e1 = b − a, e2 = c − a, e3 = o − a.
        self.diffs[0].a.next = self.b_x.val();
        self.diffs[1].a.next = self.b_y.val();
        self.diffs[2].a.next = self.b_z.val();
        self.diffs[3].a.next = self.c_x.val();
        self.diffs[4].a.next = self.c_y.val();
        self.diffs[5].a.next = self.c_z.val();
        self.diffs[6].a.next = self.o_x.val();
        self.diffs[7].a.next = self.o_y.val();
        self.diffs[8].a.next = self.o_z.val();
        for g in 0..3 {
            self.diffs[3 * g].b.next = self.a_x.val();
            self.diffs[3 * g + 1].b.next = self.a_y.val();
            self.diffs[3 * g + 2].b.next = self.a_z.val();
        }
        for i in 0..9 {
            self.diffs[i].clock.next = self.clock.val();
            self.e_diff[i].clock.next = self.clock.val();
            self.e_diff[i].d.next = self.adv_next.val();
            self.diffs[i].en.next = self.e_diff[i].q.val();
            self.diffs[i].sub.next = true;
        }
        for i in 0..3 {
            self.p_dir[i].clock.next = self.clock.val();
            self.p_dir[i].en.next = self.e_pdir.q.val();
        }
        self.p_dir[0].d.next = self.d_x.val();
        self.p_dir[1].d.next = self.d_y.val();
        self.p_dir[2].d.next = self.d_z.val();
        // s1 = dir × e2, s2 = e3 × e1.
        self.s1.clock.next = self.clock.val();
        self.s1.adv_next.next = self.adv_next.val();
        self.s2.clock.next = self.clock.val();
        self.s2.adv_next.next = self.adv_next.val();
        self.s1.ux.next = self.p_dir[0].q.val();
        self.s1.uy.next = self.p_dir[1].q.val();
        self.s1.uz.next = self.p_dir[2].q.val();
        self.s1.vx.next = self.diffs[3].y.val();
        self.s1.vy.next = self.diffs[4].y.val();
        self.s1.vz.next = self.diffs[5].y.val();
        self.s2.ux.next = self.diffs[6].y.val();
        self.s2.uy.next = self.diffs[7].y.val();
        self.s2.uz.next = self.diffs[8].y.val();
        self.s2.vx.next = self.diffs[0].y.val();
        self.s2.vy.next = self.diffs[1].y.val();
        self.s2.vz.next = self.diffs[2].y.val();
        // Cut A (a wire at depth 0).
        for i in 0..18 {
            self.ca[i].clock.next = self.clock.val();
            self.ca[i].en.next = self.e_ca.q.val();
        }
        for i in 0..12 {
            self.p_cross[i].clock.next = self.clock.val();
            self.p_cross[i].adv_next.next = self.adv_next.val();
        }
        for i in 0..9 {
            self.p_cross[i].d.next = self.diffs[i].y.val();
            self.ca[i].d.next = self.p_cross[i].q.val();
        }
        for i in 0..3 {
            self.p_cross[9 + i].d.next = self.p_dir[i].q.val();
            self.ca[15 + i].d.next = self.p_cross[9 + i].q.val();
        }
        self.ca[9].d.next = self.s1.wx.val();
        self.ca[10].d.next = self.s1.wy.val();
        self.ca[11].d.next = self.s1.wz.val();
        self.ca[12].d.next = self.s2.wx.val();
        self.ca[13].d.next = self.s2.wy.val();
        self.ca[14].d.next = self.s2.wz.val();
        self.cab_id.clock.next = self.clock.val();
        self.cab_id.adv_next.next = self.adv_next.val();
        self.cab_id.d.next = self.tri_id.val();
        self.cab_mode.clock.next = self.clock.val();
        self.cab_mode.adv_next.next = self.adv_next.val();
        self.cab_mode.d.next = self.mode.val();
        for i in 0..4 {
            self.dot[i].clock.next = self.clock.val();
            self.dot[i].adv_next.next = self.adv_next.val();
        }
        // t_num = e2·s2.
        self.dot[0].ux.next = self.ca[3].q.val();
        self.dot[0].uy.next = self.ca[4].q.val();
        self.dot[0].uz.next = self.ca[5].q.val();
        self.dot[0].vx.next = self.ca[12].q.val();
        self.dot[0].vy.next = self.ca[13].q.val();
        self.dot[0].vz.next = self.ca[14].q.val();
        // t_denom = s1·e1.
        self.dot[1].ux.next = self.ca[9].q.val();
        self.dot[1].uy.next = self.ca[10].q.val();
        self.dot[1].uz.next = self.ca[11].q.val();
        self.dot[1].vx.next = self.ca[0].q.val();
        self.dot[1].vy.next = self.ca[1].q.val();
        self.dot[1].vz.next = self.ca[2].q.val();
        // I = e3·s1.
        self.dot[2].ux.next = self.ca[6].q.val();
        self.dot[2].uy.next = self.ca[7].q.val();
        self.dot[2].uz.next = self.ca[8].q.val();
        self.dot[2].vx.next = self.ca[9].q.val();
        self.dot[2].vy.next = self.ca[10].q.val();
        self.dot[2].vz.next = self.ca[11].q.val();
        // J = dir·s2.
        self.dot[3].ux.next = self.ca[15].q.val();
        self.dot[3].uy.next = self.ca[16].q.val();
        self.dot[3].uz.next = self.ca[17].q.val();
        self.dot[3].vx.next = self.ca[12].q.val();
        self.dot[3].vy.next = self.ca[13].q.val();
        self.dot[3].vz.next = self.ca[14].q.val();
        // Cut B (a wire below depth 2).
        for k in 0..4 {
            self.cb[k].clock.next = self.clock.val();
            self.cb[k].en.next = self.e_tail.q.val();
            self.cb[k].d.next = self.dot[k].s.val();
        }
        // Sign correction: a negative t_denom flips all four signs.
        self.tn.next = self.cb[0].q.val();
        self.td.next = self.cb[1].q.val();
        self.bi.next = self.cb[2].q.val();
        self.bj.next = self.cb[3].q.val();
        if self.cb[1].q.val().get_bit(31) {
            self.tn.next = self.tn.val() ^ bits::<32>(0x8000_0000_u64);
            self.td.next = self.td.val() ^ bits::<32>(0x8000_0000_u64);
            self.bi.next = self.bi.val() ^ bits::<32>(0x8000_0000_u64);
            self.bj.next = self.bj.val() ^ bits::<32>(0x8000_0000_u64);
        }
        self.ij.clock.next = self.clock.val();
        self.ij.en.next = self.e_ij.q.val();
        self.ij.a.next = self.bi.val();
        self.ij.b.next = self.bj.val();
        self.ij.sub.next = false;
        // The corrected values beside I + J.
        for i in 0..4 {
            self.p_ij[i].clock.next = self.clock.val();
            self.p_ij[i].en.next = self.e_tail.q.val();
        }
        self.p_ij[0].d.next = self.tn.val();
        self.p_ij[1].d.next = self.td.val();
        self.p_ij[2].d.next = self.bi.val();
        self.p_ij[3].d.next = self.bj.val();
        // x ≥ 0 for a non-NaN x: sign clear (+0 … +Inf) or −0. NaN (sign clear, above +Inf) fails.
        // The tests are made here and wait beside I + J, so that the last stage holds only the
        // compare of I + J with t_denom and the select of the returned words.
        self.ge0.next = ((!self.bi.val().get_bit(31)
            & (self.bi.val() <= bits::<32>(0x7F80_0000_u64)))
            | (self.bi.val() == bits::<32>(0x8000_0000_u64)))
            & ((!self.bj.val().get_bit(31) & (self.bj.val() <= bits::<32>(0x7F80_0000_u64)))
                | (self.bj.val() == bits::<32>(0x8000_0000_u64)))
            & ((!self.tn.val().get_bit(31) & (self.tn.val() <= bits::<32>(0x7F80_0000_u64)))
                | (self.tn.val() == bits::<32>(0x8000_0000_u64)));
        // t_denom > 0: sign clear, non-zero, not NaN.
        self.ok.next = bits::<2>(0).replace_bit(0, self.ge0.val()).replace_bit(
            1,
            !self.td.val().get_bit(31)
                & self.td.val().any()
                & (self.td.val() <= bits::<32>(0x7F80_0000_u64)),
        );
        self.p_ok.clock.next = self.clock.val();
        self.p_ok.en.next = self.e_tail.q.val();
        self.p_ok.d.next = self.ok.val();
        self.tn2.next = self.p_ij[0].q.val();
        self.td2.next = self.p_ij[1].q.val();
        self.bi2.next = self.p_ij[2].q.val();
        self.bj2.next = self.p_ij[3].q.val();
        self.le.a.next = self.ij.y.val();
        self.le.b.next = self.td2.val();
        self.h.next = self.p_ok.q.val().all() & (self.le.lt.val() | self.le.eq.val());
        // Cut C (a wire below the deepest plan).
        self.cc_hit.clock.next = self.clock.val();
        self.cc_hit.en.next = self.e_tail.q.val();
        self.cc_hit.d.next = self.h.val();
        for i in 0..4 {
            self.cc[i].clock.next = self.clock.val();
            self.cc[i].en.next = self.e_tail.q.val();
        }
        self.cc[0].d.next = self.tn2.val();
        self.cc[1].d.next = self.td2.val();
        self.cc[2].d.next = self.bi2.val();
        self.cc[3].d.next = self.bj2.val();
        self.r0.next = bits::<32>(0x7F80_0000_u64);
        self.r1.next = bits::<32>(0x3F80_0000_u64);
        self.r2.next = self.cab_id.q.val();
        self.r3.next = bits::<32>(0);
        if self.cab_mode.q.val() {
            self.r2.next = bits::<32>(0);
        }
        if self.cc_hit.q.val() {
            self.r0.next = self.cc[0].q.val();
            self.r1.next = self.cc[1].q.val();
            self.r3.next = bits::<32>(1);
            if self.cab_mode.q.val() {
                self.r2.next = self.cc[2].q.val();
                self.r3.next = self.cc[3].q.val();
            }
        }
        self.d_0.next = self.r0.val();
        self.d_1.next = self.r1.val();
        self.d_2.next = self.r2.val();
        self.d_3.next = self.r3.val();
    }
}
