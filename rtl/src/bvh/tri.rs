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
//! Combinational, latency 0: 24 multipliers, 24 adders, 1 comparator.

use super::vec3::{Cross3, Dot3};
use crate::common::fp::{FpAdd, FpCmp};
use rust_hdl::prelude::*;

/// The triangle test. See the module documentation.
#[derive(Clone, Debug, LogicBlock, Default)]
pub struct TriTest {
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
    diffs: [FpAdd; 9],
    s1: Cross3,
    s2: Cross3,
    /// t_num, t_denom, I, J.
    dot: [Dot3; 4],
    ij: FpAdd,
    le: FpCmp,
    tn: Signal<Local, Bits<32>>,
    td: Signal<Local, Bits<32>>,
    bi: Signal<Local, Bits<32>>,
    bj: Signal<Local, Bits<32>>,
    ge0: Signal<Local, Bit>,
    h: Signal<Local, Bit>,
    r0: Signal<Local, Bits<32>>,
    r1: Signal<Local, Bits<32>>,
    r2: Signal<Local, Bits<32>>,
    r3: Signal<Local, Bits<32>>,
}

impl Logic for TriTest {
    #[hdl_gen]
    fn update(&mut self) {
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
            self.diffs[i].sub.next = true;
        }
        // s1 = dir × e2, s2 = e3 × e1.
        self.s1.ux.next = self.d_x.val();
        self.s1.uy.next = self.d_y.val();
        self.s1.uz.next = self.d_z.val();
        self.s1.vx.next = self.diffs[3].y.val();
        self.s1.vy.next = self.diffs[4].y.val();
        self.s1.vz.next = self.diffs[5].y.val();
        self.s2.ux.next = self.diffs[6].y.val();
        self.s2.uy.next = self.diffs[7].y.val();
        self.s2.uz.next = self.diffs[8].y.val();
        self.s2.vx.next = self.diffs[0].y.val();
        self.s2.vy.next = self.diffs[1].y.val();
        self.s2.vz.next = self.diffs[2].y.val();
        // t_num = e2·s2.
        self.dot[0].ux.next = self.diffs[3].y.val();
        self.dot[0].uy.next = self.diffs[4].y.val();
        self.dot[0].uz.next = self.diffs[5].y.val();
        self.dot[0].vx.next = self.s2.wx.val();
        self.dot[0].vy.next = self.s2.wy.val();
        self.dot[0].vz.next = self.s2.wz.val();
        // t_denom = s1·e1.
        self.dot[1].ux.next = self.s1.wx.val();
        self.dot[1].uy.next = self.s1.wy.val();
        self.dot[1].uz.next = self.s1.wz.val();
        self.dot[1].vx.next = self.diffs[0].y.val();
        self.dot[1].vy.next = self.diffs[1].y.val();
        self.dot[1].vz.next = self.diffs[2].y.val();
        // I = e3·s1.
        self.dot[2].ux.next = self.diffs[6].y.val();
        self.dot[2].uy.next = self.diffs[7].y.val();
        self.dot[2].uz.next = self.diffs[8].y.val();
        self.dot[2].vx.next = self.s1.wx.val();
        self.dot[2].vy.next = self.s1.wy.val();
        self.dot[2].vz.next = self.s1.wz.val();
        // J = dir·s2.
        self.dot[3].ux.next = self.d_x.val();
        self.dot[3].uy.next = self.d_y.val();
        self.dot[3].uz.next = self.d_z.val();
        self.dot[3].vx.next = self.s2.wx.val();
        self.dot[3].vy.next = self.s2.wy.val();
        self.dot[3].vz.next = self.s2.wz.val();
        // Sign correction: a negative t_denom flips all four signs.
        self.tn.next = self.dot[0].s.val();
        self.td.next = self.dot[1].s.val();
        self.bi.next = self.dot[2].s.val();
        self.bj.next = self.dot[3].s.val();
        if self.dot[1].s.val().get_bit(31) {
            self.tn.next = self.tn.val() ^ bits::<32>(0x8000_0000_u64);
            self.td.next = self.td.val() ^ bits::<32>(0x8000_0000_u64);
            self.bi.next = self.bi.val() ^ bits::<32>(0x8000_0000_u64);
            self.bj.next = self.bj.val() ^ bits::<32>(0x8000_0000_u64);
        }
        self.ij.a.next = self.bi.val();
        self.ij.b.next = self.bj.val();
        self.ij.sub.next = false;
        self.le.a.next = self.ij.y.val();
        self.le.b.next = self.td.val();
        // x ≥ 0 for a non-NaN x: sign clear (+0 … +Inf) or −0. NaN (sign clear, above +Inf) fails.
        self.ge0.next = ((!self.bi.val().get_bit(31)
            & (self.bi.val() <= bits::<32>(0x7F80_0000_u64)))
            | (self.bi.val() == bits::<32>(0x8000_0000_u64)))
            & ((!self.bj.val().get_bit(31) & (self.bj.val() <= bits::<32>(0x7F80_0000_u64)))
                | (self.bj.val() == bits::<32>(0x8000_0000_u64)))
            & ((!self.tn.val().get_bit(31) & (self.tn.val() <= bits::<32>(0x7F80_0000_u64)))
                | (self.tn.val() == bits::<32>(0x8000_0000_u64)));
        // t_denom > 0: sign clear, non-zero, not NaN.
        self.h.next = self.ge0.val()
            & !self.td.val().get_bit(31)
            & self.td.val().any()
            & (self.td.val() <= bits::<32>(0x7F80_0000_u64))
            & (self.le.lt.val() | self.le.eq.val());
        self.r0.next = bits::<32>(0x7F80_0000_u64);
        self.r1.next = bits::<32>(0x3F80_0000_u64);
        self.r2.next = self.tri_id.val();
        self.r3.next = bits::<32>(0);
        if self.mode.val() {
            self.r2.next = bits::<32>(0);
        }
        if self.h.val() {
            self.r0.next = self.tn.val();
            self.r1.next = self.td.val();
            self.r3.next = bits::<32>(1);
            if self.mode.val() {
                self.r2.next = self.bi.val();
                self.r3.next = self.bj.val();
            }
        }
        self.d_0.next = self.r0.val();
        self.d_1.next = self.r1.val();
        self.d_2.next = self.r2.val();
        self.d_3.next = self.r3.val();
    }
}
