//! The watertight ray/triangle test (docs/units/bvh.md §8a, bit for bit as stated in
//! `texpix_tb::bvh::tri_values_watertight`), selected per instruction by T# bit 121.
//!
//! # Ports
//! As [`super::TriTest`]: `clock`, `en` (used only with register stages), `a_*`, `b_*`, `c_*` the
//! vertices, `o_*` the origin, `d_*` the direction (f32 bits), `tri_id`, `mode`
//! (triangle_return_mode) → `d_0…d_3`, encoded as the plain test's results.
//!
//! # Arithmetic
//! kz = the axis of the largest |d| (sign-cleared bit patterns, ties to x then y), kx = kz + 1,
//! ky = kz + 2 (mod 3), dZ = d[kz]. Per vertex p' = p − o (three subtracters), then the shear
//! scaled by dZ: X = p'[kx]·dZ − d[kx]·p'[kz], Y = p'[ky]·dZ − d[ky]·p'[kz] (two products and a
//! subtraction each). Edge functions U = C.X·B.Y − C.Y·B.X, V = A.X·C.Y − A.Y·C.X,
//! W = B.X·A.Y − B.Y·A.X; det = (U + V) + W; t_num = (U·A.z + V·B.z) + W·C.z (z = p'[kz]);
//! t_denom = dZ·det, I = dZ·V, J = dZ·W; a negative t_denom flips all four signs. Hit iff U, V, W
//! are all ≥ 0 or all ≤ 0 (NaN fails), t_denom > 0 and t_num ≥ 0. Every operation rounds to
//! nearest even with denormals kept. 24 multipliers, 20 adders.
//!
//! # Timing
//! Combinational (latency 0) when built by `default()`; [`TriWatertight::new`] places up to two
//! register stages advancing with `en`, as [`super::TriTest`] does: cut A after the sheared
//! vertices, cut B after t_num, t_denom, I, J and the edge functions.

use crate::common::fp::{FpAdd, FpMul, Retime};
use rust_hdl::prelude::*;

crate::settled_block! {
/// The watertight triangle test. See the module documentation.
#[derive(Clone, Debug)]
pub struct TriWatertight {
    /// Clock (used only with register stages).
    pub clock: Signal<In, Clock>,
    /// Advance the register stages.
    pub en: Signal<In, Bit>,
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
    /// p' = p − o: vertex k (a, b, c), axis j at 3k + j.
    rel: [FpAdd; 9],
    /// Shear products of vertex k: 4k p'x·dZ, 4k+1 dX·p'z, 4k+2 p'y·dZ, 4k+3 dY·p'z.
    smul: [FpMul; 12],
    /// Sheared X (2k) and Y (2k + 1) of vertex k.
    ssub: [FpAdd; 6],
    /// Cut A: X, Y of a, b, c (0…5), z of a, b, c (6…8), dZ (9).
    ca: [Retime<Bits<32>>; 10],
    /// tri_id and mode through cuts A and B.
    cab_id: Retime<Bits<32>>,
    cab_mode: Retime<Bit>,
    /// Edge-function products: 2e and 2e + 1 for U, V, W.
    emul: [FpMul; 6],
    /// U, V, W.
    esub: [FpAdd; 3],
    /// U + V, then + W.
    dadd: [FpAdd; 2],
    /// U·A.z, V·B.z, W·C.z.
    tmul: [FpMul; 3],
    /// The t_num sums.
    tadd: [FpAdd; 2],
    /// dZ·det, dZ·V, dZ·W.
    qmul: [FpMul; 3],
    /// Cut B: t_num, t_denom, I, J, U, V, W.
    cb: [Retime<Bits<32>>; 7],
    mag: [Signal<Local, Bits<32>>; 3],
    kz: Signal<Local, Bits<2>>,
    dxs: Signal<Local, Bits<32>>,
    dys: Signal<Local, Bits<32>>,
    dzs: Signal<Local, Bits<32>>,
    px: [Signal<Local, Bits<32>>; 3],
    py: [Signal<Local, Bits<32>>; 3],
    pz: [Signal<Local, Bits<32>>; 3],
    tn: Signal<Local, Bits<32>>,
    td: Signal<Local, Bits<32>>,
    bi: Signal<Local, Bits<32>>,
    bj: Signal<Local, Bits<32>>,
    ev: [Signal<Local, Bits<32>>; 3],
    ge0: [Signal<Local, Bit>; 3],
    le0: [Signal<Local, Bit>; 3],
    h: Signal<Local, Bit>,
    r0: Signal<Local, Bits<32>>,
    r1: Signal<Local, Bits<32>>,
    r2: Signal<Local, Bits<32>>,
    r3: Signal<Local, Bits<32>>,
}
}

impl Default for TriWatertight {
    fn default() -> Self {
        Self::new(0)
    }
}

impl TriWatertight {
    /// The test with `depth` (0…2) register stages (cut A from depth 1, cut B at depth 2).
    pub fn new(depth: usize) -> Self {
        use std::array::from_fn;
        assert!(depth <= 2, "watertight triangle test: depth {depth} (0…2)");
        let a = usize::from(depth >= 1);
        let b = usize::from(depth >= 2);
        Self {
            settle: crate::common::settle::SettleState::new(true),
            clock: Default::default(),
            en: Default::default(),
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
            rel: Default::default(),
            smul: Default::default(),
            ssub: Default::default(),
            ca: from_fn(|_| Retime::new(a)),
            cab_id: Retime::new(a + b),
            cab_mode: Retime::new(a + b),
            emul: Default::default(),
            esub: Default::default(),
            dadd: Default::default(),
            tmul: Default::default(),
            tadd: Default::default(),
            qmul: Default::default(),
            cb: from_fn(|_| Retime::new(b)),
            mag: Default::default(),
            kz: Default::default(),
            dxs: Default::default(),
            dys: Default::default(),
            dzs: Default::default(),
            px: Default::default(),
            py: Default::default(),
            pz: Default::default(),
            tn: Default::default(),
            td: Default::default(),
            bi: Default::default(),
            bj: Default::default(),
            ev: Default::default(),
            ge0: Default::default(),
            le0: Default::default(),
            h: Default::default(),
            r0: Default::default(),
            r1: Default::default(),
            r2: Default::default(),
            r3: Default::default(),
        }
    }
}

impl Logic for TriWatertight {
    #[hdl_gen]
    fn update(&mut self) {
        // The dominant axis kz (ties to x, then y).
        self.mag[0].next = self.d_x.val() & bits::<32>(0x7FFF_FFFF);
        self.mag[1].next = self.d_y.val() & bits::<32>(0x7FFF_FFFF);
        self.mag[2].next = self.d_z.val() & bits::<32>(0x7FFF_FFFF);
        self.kz.next = bits::<2>(2);
        if self.mag[1].val() >= self.mag[2].val() {
            self.kz.next = bits::<2>(1);
        }
        if (self.mag[0].val() >= self.mag[1].val()) & (self.mag[0].val() >= self.mag[2].val()) {
            self.kz.next = bits::<2>(0);
        }
        // p' = p − o.
        self.rel[0].a.next = self.a_x.val();
        self.rel[1].a.next = self.a_y.val();
        self.rel[2].a.next = self.a_z.val();
        self.rel[3].a.next = self.b_x.val();
        self.rel[4].a.next = self.b_y.val();
        self.rel[5].a.next = self.b_z.val();
        self.rel[6].a.next = self.c_x.val();
        self.rel[7].a.next = self.c_y.val();
        self.rel[8].a.next = self.c_z.val();
        for k in 0..3 {
            self.rel[3 * k].b.next = self.o_x.val();
            self.rel[3 * k + 1].b.next = self.o_y.val();
            self.rel[3 * k + 2].b.next = self.o_z.val();
        }
        for i in 0..9 {
            self.rel[i].sub.next = true;
        }
        // Axis selection: (kx, ky, kz) = (1, 2, 0), (2, 0, 1) or (0, 1, 2).
        match self.kz.val().index() {
            0 => {
                self.dxs.next = self.d_y.val();
                self.dys.next = self.d_z.val();
                self.dzs.next = self.d_x.val();
                for k in 0..3 {
                    self.px[k].next = self.rel[3 * k + 1].y.val();
                    self.py[k].next = self.rel[3 * k + 2].y.val();
                    self.pz[k].next = self.rel[3 * k].y.val();
                }
            }
            1 => {
                self.dxs.next = self.d_z.val();
                self.dys.next = self.d_x.val();
                self.dzs.next = self.d_y.val();
                for k in 0..3 {
                    self.px[k].next = self.rel[3 * k + 2].y.val();
                    self.py[k].next = self.rel[3 * k].y.val();
                    self.pz[k].next = self.rel[3 * k + 1].y.val();
                }
            }
            _ => {
                self.dxs.next = self.d_x.val();
                self.dys.next = self.d_y.val();
                self.dzs.next = self.d_z.val();
                for k in 0..3 {
                    self.px[k].next = self.rel[3 * k].y.val();
                    self.py[k].next = self.rel[3 * k + 1].y.val();
                    self.pz[k].next = self.rel[3 * k + 2].y.val();
                }
            }
        }
        // Shear scaled by dZ.
        for k in 0..3 {
            self.smul[4 * k].a.next = self.px[k].val();
            self.smul[4 * k].b.next = self.dzs.val();
            self.smul[4 * k + 1].a.next = self.dxs.val();
            self.smul[4 * k + 1].b.next = self.pz[k].val();
            self.smul[4 * k + 2].a.next = self.py[k].val();
            self.smul[4 * k + 2].b.next = self.dzs.val();
            self.smul[4 * k + 3].a.next = self.dys.val();
            self.smul[4 * k + 3].b.next = self.pz[k].val();
            self.ssub[2 * k].a.next = self.smul[4 * k].y.val();
            self.ssub[2 * k].b.next = self.smul[4 * k + 1].y.val();
            self.ssub[2 * k].sub.next = true;
            self.ssub[2 * k + 1].a.next = self.smul[4 * k + 2].y.val();
            self.ssub[2 * k + 1].b.next = self.smul[4 * k + 3].y.val();
            self.ssub[2 * k + 1].sub.next = true;
        }

        // Cut A (a wire at depth 0).
        for i in 0..10 {
            self.ca[i].clock.next = self.clock.val();
            self.ca[i].en.next = self.en.val();
        }
        for i in 0..6 {
            self.ca[i].d.next = self.ssub[i].y.val();
        }
        for k in 0..3 {
            self.ca[6 + k].d.next = self.pz[k].val();
        }
        self.ca[9].d.next = self.dzs.val();
        self.cab_id.clock.next = self.clock.val();
        self.cab_id.en.next = self.en.val();
        self.cab_id.d.next = self.tri_id.val();
        self.cab_mode.clock.next = self.clock.val();
        self.cab_mode.en.next = self.en.val();
        self.cab_mode.d.next = self.mode.val();

        // Edge functions (A.X = ca[0], A.Y = ca[1], B.X = ca[2], B.Y = ca[3], C.X = ca[4],
        // C.Y = ca[5]): U = C.X·B.Y − C.Y·B.X, V = A.X·C.Y − A.Y·C.X, W = B.X·A.Y − B.Y·A.X.
        self.emul[0].a.next = self.ca[4].q.val();
        self.emul[0].b.next = self.ca[3].q.val();
        self.emul[1].a.next = self.ca[5].q.val();
        self.emul[1].b.next = self.ca[2].q.val();
        self.emul[2].a.next = self.ca[0].q.val();
        self.emul[2].b.next = self.ca[5].q.val();
        self.emul[3].a.next = self.ca[1].q.val();
        self.emul[3].b.next = self.ca[4].q.val();
        self.emul[4].a.next = self.ca[2].q.val();
        self.emul[4].b.next = self.ca[1].q.val();
        self.emul[5].a.next = self.ca[3].q.val();
        self.emul[5].b.next = self.ca[0].q.val();
        for e in 0..3 {
            self.esub[e].a.next = self.emul[2 * e].y.val();
            self.esub[e].b.next = self.emul[2 * e + 1].y.val();
            self.esub[e].sub.next = true;
        }
        // det = (U + V) + W.
        self.dadd[0].a.next = self.esub[0].y.val();
        self.dadd[0].b.next = self.esub[1].y.val();
        self.dadd[0].sub.next = false;
        self.dadd[1].a.next = self.dadd[0].y.val();
        self.dadd[1].b.next = self.esub[2].y.val();
        self.dadd[1].sub.next = false;
        // t_num = (U·A.z + V·B.z) + W·C.z.
        for e in 0..3 {
            self.tmul[e].a.next = self.esub[e].y.val();
            self.tmul[e].b.next = self.ca[6 + e].q.val();
        }
        self.tadd[0].a.next = self.tmul[0].y.val();
        self.tadd[0].b.next = self.tmul[1].y.val();
        self.tadd[0].sub.next = false;
        self.tadd[1].a.next = self.tadd[0].y.val();
        self.tadd[1].b.next = self.tmul[2].y.val();
        self.tadd[1].sub.next = false;
        // t_denom = dZ·det, I = dZ·V, J = dZ·W.
        self.qmul[0].a.next = self.ca[9].q.val();
        self.qmul[0].b.next = self.dadd[1].y.val();
        self.qmul[1].a.next = self.ca[9].q.val();
        self.qmul[1].b.next = self.esub[1].y.val();
        self.qmul[2].a.next = self.ca[9].q.val();
        self.qmul[2].b.next = self.esub[2].y.val();

        // Cut B (a wire below depth 2).
        for i in 0..7 {
            self.cb[i].clock.next = self.clock.val();
            self.cb[i].en.next = self.en.val();
        }
        self.cb[0].d.next = self.tadd[1].y.val();
        self.cb[1].d.next = self.qmul[0].y.val();
        self.cb[2].d.next = self.qmul[1].y.val();
        self.cb[3].d.next = self.qmul[2].y.val();
        for e in 0..3 {
            self.cb[4 + e].d.next = self.esub[e].y.val();
        }

        // Sign correction and decision.
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
        // x ≥ 0: +0 … +Inf or −0; x ≤ 0: −0 … −Inf or +0 (NaN fails both).
        for e in 0..3 {
            self.ev[e].next = self.cb[4 + e].q.val();
            self.ge0[e].next = (!self.ev[e].val().get_bit(31)
                & (self.ev[e].val() <= bits::<32>(0x7F80_0000_u64)))
                | (self.ev[e].val() == bits::<32>(0x8000_0000_u64));
            self.le0[e].next = (self.ev[e].val().get_bit(31)
                & (self.ev[e].val() <= bits::<32>(0xFF80_0000_u64)))
                | (self.ev[e].val() == bits::<32>(0));
        }
        // Hit: consistent edge signs, t_denom > 0 (sign clear, non-zero, not NaN), t_num ≥ 0.
        self.h.next = ((self.ge0[0].val() & self.ge0[1].val() & self.ge0[2].val())
            | (self.le0[0].val() & self.le0[1].val() & self.le0[2].val()))
            & !self.td.val().get_bit(31)
            & self.td.val().any()
            & (self.td.val() <= bits::<32>(0x7F80_0000_u64))
            & ((!self.tn.val().get_bit(31) & (self.tn.val() <= bits::<32>(0x7F80_0000_u64)))
                | (self.tn.val() == bits::<32>(0x8000_0000_u64)));
        self.r0.next = bits::<32>(0x7F80_0000_u64);
        self.r1.next = bits::<32>(0x3F80_0000_u64);
        self.r2.next = self.cab_id.q.val();
        self.r3.next = bits::<32>(0);
        if self.cab_mode.q.val() {
            self.r2.next = bits::<32>(0);
        }
        if self.h.val() {
            self.r0.next = self.tn.val();
            self.r1.next = self.td.val();
            self.r3.next = bits::<32>(1);
            if self.cab_mode.q.val() {
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
