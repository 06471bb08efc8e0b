//! One child's ray/box slab test (docs/units/bvh.md §6, bit for bit as stated in `texpix_tb::bvh`).
//!
//! # Ports
//! `o_x/y/z` ray origin, `inv_x/y/z` inverse direction, `lo_x/y/z` and `hi_x/y/z` the box's min and
//! max corner, `extent` (all f32 bits), `grow` (box_grow, ULPs), `heur` (box sorting heuristic:
//! 0 closest first, 1 largest first, 2 closest midpoint, 3 as 0) → `hit`, `key` (the sort key:
//! min_t; min_t − max_t before growing; near + far).
//! Ports are scalar so that the block can live in an array (rust-hdl exports an array port of an
//! array of blocks wrongly).
//!
//! # Arithmetic
//! Per axis `t = (plane − origin)·inv` (an f32 subtract and an f32 multiply, round to nearest even,
//! denormals kept); the sign bit of `inv` picks near/far; near = maxNum of the three near planes,
//! far = minNum of the far ones (a NaN operand is ignored); NaN near or far ⇒ miss;
//! min_t = maxNum(near, +0), max_t = minNum(far, extent); a positive finite max_t grows by `grow`
//! ULPs (saturating at +Inf); hit iff min_t ≤ max_t. The key of heuristics 1 and 2 is one more f32
//! addition (round to nearest even). 7 adders, 6 multipliers, 7 comparators.
//!
//! # Pipeline
//! Combinational (latency 0) when built by `default()`. [`BoxSlab::new`] takes a [`SlabPlan`]:
//! register stages inside the subtractions and the products ([`FpAddP`], [`FpMulP`]), cut A after
//! the near/far selection, cuts C1, C2 and C3 after each of the three comparison levels (the
//! x/y comparisons, the z comparisons, the clamps; the key addition's operands are chosen before
//! C3, so that its first piece starts at a register), and stages inside the key's addition; the hit
//! decision's path gets as many as the key's (its first one, cut C4, between the growing and the
//! last comparison). The stages advance together, in five groups with an enable each (`en_x`,
//! `en_y`, `en_z`: each axis's two subtractions and two products; `en_cut`: cuts A to C3 and
//! the delay lines beside the products; `en_key`: cut C4 and the key's addition), which the user
//! drives with the same value: [`crate::bvh::BvhUnit`] drives each from its own register, so that
//! no one net reaches every flip-flop. Latency [`SlabPlan::latency`], one test per enabled clock,
//! the same results at every plan.

use crate::common::fp::{FpAddP, FpCmp, FpMulP, Retime};
use rust_hdl::prelude::*;

/// Where a [`BoxSlab`] puts its register stages (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SlabPlan {
    /// Stages of the plane − origin subtractions ([`FpAddP`]).
    pub sub: usize,
    /// Stages of the products by the inverse direction ([`FpMulP`]).
    pub mul: usize,
    /// Cut A (0 or 1), after the near/far selection.
    pub a: usize,
    /// Cut C1 (0 or 1), after the x/y comparisons.
    pub c1: usize,
    /// Cut C2 (0 or 1), after the z comparisons.
    pub c2: usize,
    /// Cut C3 (0 or 1), after the clamps.
    pub c3: usize,
    /// Stages of the key's addition ([`FpAddP`]) and of the hit decision beside it.
    pub key: usize,
}

impl SlabPlan {
    /// Register stages from the inputs to `hit` and `key`.
    pub fn latency(&self) -> usize {
        self.sub + self.mul + self.a + self.c1 + self.c2 + self.c3 + self.key
    }
}

crate::settled_block! {
/// The slab test. See the module documentation.
#[derive(Clone, Debug)]
pub struct BoxSlab {
    /// Clock (used only with register stages, see [`BoxSlab::new`]).
    pub clock: Signal<In, Clock>,
    /// Advance the x axis's subtractions, products and the inverse direction beside them.
    pub en_x: Signal<In, Bit>,
    /// Advance the y axis's (as `en_x`).
    pub en_y: Signal<In, Bit>,
    /// Advance the z axis's (as `en_x`).
    pub en_z: Signal<In, Bit>,
    /// Advance the side delay lines and cuts A, C1, C2 and C3.
    pub en_cut: Signal<In, Bit>,
    /// Advance cut C4, the key's addition and what waits beside it.
    pub en_key: Signal<In, Bit>,
    /// Origin x.
    pub o_x: Signal<In, Bits<32>>,
    /// Origin y.
    pub o_y: Signal<In, Bits<32>>,
    /// Origin z.
    pub o_z: Signal<In, Bits<32>>,
    /// Inverse direction x.
    pub inv_x: Signal<In, Bits<32>>,
    /// Inverse direction y.
    pub inv_y: Signal<In, Bits<32>>,
    /// Inverse direction z.
    pub inv_z: Signal<In, Bits<32>>,
    /// Box min x.
    pub lo_x: Signal<In, Bits<32>>,
    /// Box min y.
    pub lo_y: Signal<In, Bits<32>>,
    /// Box min z.
    pub lo_z: Signal<In, Bits<32>>,
    /// Box max x.
    pub hi_x: Signal<In, Bits<32>>,
    /// Box max y.
    pub hi_y: Signal<In, Bits<32>>,
    /// Box max z.
    pub hi_z: Signal<In, Bits<32>>,
    /// Ray extent.
    pub extent: Signal<In, Bits<32>>,
    /// Box growing, ULPs.
    pub grow: Signal<In, Bits<8>>,
    /// Box sorting heuristic.
    pub heur: Signal<In, Bits<2>>,
    /// The ray hits the box.
    pub hit: Signal<Out, Bit>,
    /// The sort key (f32 bits).
    pub key: Signal<Out, Bits<32>>,
    sub_lo: [FpAddP; 3],
    sub_hi: [FpAddP; 3],
    mul_lo: [FpMulP; 3],
    mul_hi: [FpMulP; 3],
    /// The inverse direction beside the subtractions.
    p_inv: [Retime<Bits<32>>; 3],
    /// The inverse direction's signs beside the products.
    p_sign: Retime<Bits<3>>,
    /// {heur [41:40], grow [39:32], extent [31:0]} beside the subtractions and the products.
    p_side: Retime<Bits<42>>,
    /// Cut A: near (0…2) and far (3…5) plane distances.
    ca: [Retime<Bits<32>>; 6],
    ca_side: Retime<Bits<42>>,
    near_xy: FpCmp,
    far_xy: FpCmp,
    /// Cut C1: max(near x, near y), near z, min(far x, far y), far z.
    c1: [Retime<Bits<32>>; 4],
    c1_side: Retime<Bits<42>>,
    near_xyz: FpCmp,
    far_xyz: FpCmp,
    /// Cut C2: near, far.
    c2: [Retime<Bits<32>>; 2],
    c2_side: Retime<Bits<42>>,
    clamp_min: FpCmp,
    clamp_max: FpCmp,
    /// Cut C3: min_t, max_t before growing, and the key addition's operands.
    c3: [Retime<Bits<32>>; 4],
    c3_miss: Retime<Bit>,
    /// {key subtracts [10], heur [9:8], grow [7:0]}.
    c3_side: Retime<Bits<11>>,
    /// Cut C4 (the first of the key's stages, on the hit path): min_t, grown max_t.
    c4: [Retime<Bits<32>>; 2],
    c4_miss: Retime<Bit>,
    decide: FpCmp,
    /// The rest of the key's stages on the hit path.
    p_hit: Retime<Bit>,
    kadd: FpAddP,
    /// min_t and the heuristic beside the key's addition.
    p_kmin: Retime<Bits<32>>,
    p_heur: Retime<Bits<2>>,
    o: [Signal<Local, Bits<32>>; 3],
    inv: [Signal<Local, Bits<32>>; 3],
    lo: [Signal<Local, Bits<32>>; 3],
    hi: [Signal<Local, Bits<32>>; 3],
    near: [Signal<Local, Bits<32>>; 3],
    far: [Signal<Local, Bits<32>>; 3],
    sign: Signal<Local, Bits<3>>,
    tmax: Signal<Local, Bits<32>>,
    grow3: Signal<Local, Bits<8>>,
    grown: Signal<Local, Bits<32>>,
    heur3: Signal<Local, Bits<2>>,
    miss: Signal<Local, Bit>,
    ka: Signal<Local, Bits<32>>,
    kb: Signal<Local, Bits<32>>,
    ksub: Signal<Local, Bit>,
    kside: Signal<Local, Bits<11>>,
    /// The axes' enables.
    en: [Signal<Local, Bit>; 3],
}
}

impl Default for BoxSlab {
    fn default() -> Self {
        Self::new(SlabPlan::default())
    }
}

impl BoxSlab {
    /// The test with the register stages of `plan`: latency `plan.latency()`.
    pub fn new(plan: SlabPlan) -> Self {
        use std::array::from_fn;
        for (name, cut) in [
            ("A", plan.a),
            ("C1", plan.c1),
            ("C2", plan.c2),
            ("C3", plan.c3),
        ] {
            assert!(cut <= 1, "slab test: cut {name} has {cut} stages (0 or 1)");
        }
        let c4 = plan.key.min(1);
        Self {
            settle: crate::common::settle::SettleState::new(plan.latency() > 0),
            clock: Default::default(),
            en_x: Default::default(),
            en_y: Default::default(),
            en_z: Default::default(),
            en_cut: Default::default(),
            en_key: Default::default(),
            o_x: Default::default(),
            o_y: Default::default(),
            o_z: Default::default(),
            inv_x: Default::default(),
            inv_y: Default::default(),
            inv_z: Default::default(),
            lo_x: Default::default(),
            lo_y: Default::default(),
            lo_z: Default::default(),
            hi_x: Default::default(),
            hi_y: Default::default(),
            hi_z: Default::default(),
            extent: Default::default(),
            grow: Default::default(),
            heur: Default::default(),
            hit: Default::default(),
            key: Default::default(),
            sub_lo: from_fn(|_| FpAddP::new(plan.sub)),
            sub_hi: from_fn(|_| FpAddP::new(plan.sub)),
            mul_lo: from_fn(|_| FpMulP::new(plan.mul)),
            mul_hi: from_fn(|_| FpMulP::new(plan.mul)),
            p_inv: from_fn(|_| Retime::new(plan.sub)),
            p_sign: Retime::new(plan.mul),
            p_side: Retime::new(plan.sub + plan.mul),
            ca: from_fn(|_| Retime::new(plan.a)),
            ca_side: Retime::new(plan.a),
            near_xy: Default::default(),
            far_xy: Default::default(),
            c1: from_fn(|_| Retime::new(plan.c1)),
            c1_side: Retime::new(plan.c1),
            near_xyz: Default::default(),
            far_xyz: Default::default(),
            c2: from_fn(|_| Retime::new(plan.c2)),
            c2_side: Retime::new(plan.c2),
            clamp_min: Default::default(),
            clamp_max: Default::default(),
            c3: from_fn(|_| Retime::new(plan.c3)),
            c3_miss: Retime::new(plan.c3),
            c3_side: Retime::new(plan.c3),
            c4: from_fn(|_| Retime::new(c4)),
            c4_miss: Retime::new(c4),
            decide: Default::default(),
            p_hit: Retime::new(plan.key - c4),
            kadd: FpAddP::new(plan.key),
            p_kmin: Retime::new(plan.key),
            p_heur: Retime::new(plan.key),
            o: Default::default(),
            inv: Default::default(),
            lo: Default::default(),
            hi: Default::default(),
            near: Default::default(),
            far: Default::default(),
            sign: Default::default(),
            tmax: Default::default(),
            grow3: Default::default(),
            grown: Default::default(),
            heur3: Default::default(),
            miss: Default::default(),
            ka: Default::default(),
            kb: Default::default(),
            ksub: Default::default(),
            kside: Default::default(),
            en: Default::default(),
        }
    }
}

impl Logic for BoxSlab {
    #[hdl_gen]
    fn update(&mut self) {
        self.o[0].next = self.o_x.val();
        self.o[1].next = self.o_y.val();
        self.o[2].next = self.o_z.val();
        self.inv[0].next = self.inv_x.val();
        self.inv[1].next = self.inv_y.val();
        self.inv[2].next = self.inv_z.val();
        self.lo[0].next = self.lo_x.val();
        self.lo[1].next = self.lo_y.val();
        self.lo[2].next = self.lo_z.val();
        self.hi[0].next = self.hi_x.val();
        self.hi[1].next = self.hi_y.val();
        self.hi[2].next = self.hi_z.val();
        self.en[0].next = self.en_x.val();
        self.en[1].next = self.en_y.val();
        self.en[2].next = self.en_z.val();
        // Plane distances t = (plane − origin)·inv; the inverse direction waits beside the
        // subtractions, its signs beside the products, the other inputs beside both.
        for k in 0..3 {
            self.sub_lo[k].clock.next = self.clock.val();
            self.sub_lo[k].en.next = self.en[k].val();
            self.sub_lo[k].a.next = self.lo[k].val();
            self.sub_lo[k].b.next = self.o[k].val();
            self.sub_lo[k].sub.next = true;
            self.sub_hi[k].clock.next = self.clock.val();
            self.sub_hi[k].en.next = self.en[k].val();
            self.sub_hi[k].a.next = self.hi[k].val();
            self.sub_hi[k].b.next = self.o[k].val();
            self.sub_hi[k].sub.next = true;
            self.p_inv[k].clock.next = self.clock.val();
            self.p_inv[k].en.next = self.en[k].val();
            self.p_inv[k].d.next = self.inv[k].val();
            self.mul_lo[k].clock.next = self.clock.val();
            self.mul_lo[k].en.next = self.en[k].val();
            self.mul_lo[k].a.next = self.sub_lo[k].y.val();
            self.mul_lo[k].b.next = self.p_inv[k].q.val();
            self.mul_hi[k].clock.next = self.clock.val();
            self.mul_hi[k].en.next = self.en[k].val();
            self.mul_hi[k].a.next = self.sub_hi[k].y.val();
            self.mul_hi[k].b.next = self.p_inv[k].q.val();
        }
        self.p_sign.clock.next = self.clock.val();
        self.p_sign.en.next = self.en_cut.val();
        self.p_sign.d.next = bit_cast::<3, 1>(self.p_inv[0].q.val().get_bits::<1>(31))
            | (bit_cast::<3, 1>(self.p_inv[1].q.val().get_bits::<1>(31)) << 1)
            | (bit_cast::<3, 1>(self.p_inv[2].q.val().get_bits::<1>(31)) << 2);
        self.p_side.clock.next = self.clock.val();
        self.p_side.en.next = self.en_cut.val();
        self.p_side.d.next = bit_cast::<42, 32>(self.extent.val())
            | (bit_cast::<42, 8>(self.grow.val()) << 32)
            | (bit_cast::<42, 2>(self.heur.val()) << 40);
        // The sign of inv picks near and far.
        self.sign.next = self.p_sign.q.val();
        for k in 0..3 {
            self.near[k].next = self.mul_lo[k].y.val();
            self.far[k].next = self.mul_hi[k].y.val();
            if self.sign.val().get_bit(k) {
                self.near[k].next = self.mul_hi[k].y.val();
                self.far[k].next = self.mul_lo[k].y.val();
            }
        }
        // Cut A.
        for i in 0..6 {
            self.ca[i].clock.next = self.clock.val();
            self.ca[i].en.next = self.en_cut.val();
        }
        for k in 0..3 {
            self.ca[k].d.next = self.near[k].val();
            self.ca[3 + k].d.next = self.far[k].val();
        }
        self.ca_side.clock.next = self.clock.val();
        self.ca_side.en.next = self.en_cut.val();
        self.ca_side.d.next = self.p_side.q.val();
        // near = maxNum of the near planes, far = minNum of the far ones, x and y first.
        self.near_xy.a.next = self.ca[0].q.val();
        self.near_xy.b.next = self.ca[1].q.val();
        self.far_xy.a.next = self.ca[3].q.val();
        self.far_xy.b.next = self.ca[4].q.val();
        // Cut C1.
        for i in 0..4 {
            self.c1[i].clock.next = self.clock.val();
            self.c1[i].en.next = self.en_cut.val();
        }
        self.c1[0].d.next = self.near_xy.max.val();
        self.c1[1].d.next = self.ca[2].q.val();
        self.c1[2].d.next = self.far_xy.min.val();
        self.c1[3].d.next = self.ca[5].q.val();
        self.c1_side.clock.next = self.clock.val();
        self.c1_side.en.next = self.en_cut.val();
        self.c1_side.d.next = self.ca_side.q.val();
        self.near_xyz.a.next = self.c1[0].q.val();
        self.near_xyz.b.next = self.c1[1].q.val();
        self.far_xyz.a.next = self.c1[2].q.val();
        self.far_xyz.b.next = self.c1[3].q.val();
        // Cut C2.
        for i in 0..2 {
            self.c2[i].clock.next = self.clock.val();
            self.c2[i].en.next = self.en_cut.val();
        }
        self.c2[0].d.next = self.near_xyz.max.val();
        self.c2[1].d.next = self.far_xyz.min.val();
        self.c2_side.clock.next = self.clock.val();
        self.c2_side.en.next = self.en_cut.val();
        self.c2_side.d.next = self.c1_side.q.val();
        // min_t = maxNum(near, +0); max_t = minNum(far, extent); NaN near or far (all three
        // planes NaN) ⇒ miss.
        self.clamp_min.a.next = self.c2[0].q.val();
        self.clamp_min.b.next = bits::<32>(0);
        self.clamp_max.a.next = self.c2[1].q.val();
        self.clamp_max.b.next = self.c2_side.q.val().get_bits::<32>(0);
        self.miss.next = ((self.c2[0].q.val().get_bits::<8>(23) == bits::<8>(0xFF))
            & self.c2[0].q.val().get_bits::<23>(0).any())
            | ((self.c2[1].q.val().get_bits::<8>(23) == bits::<8>(0xFF))
                & self.c2[1].q.val().get_bits::<23>(0).any());
        // The key addition's operands, chosen before cut C3: min_t − max_t before growing (1),
        // near + far (2).
        self.ka.next = self.clamp_min.max.val();
        self.kb.next = self.clamp_max.min.val();
        self.ksub.next = true;
        if self.c2_side.q.val().get_bits::<2>(40) == 2 {
            self.ka.next = self.c2[0].q.val();
            self.kb.next = self.c2[1].q.val();
            self.ksub.next = false;
        }
        // Cut C3.
        for i in 0..4 {
            self.c3[i].clock.next = self.clock.val();
            self.c3[i].en.next = self.en_cut.val();
        }
        self.c3[0].d.next = self.clamp_min.max.val();
        self.c3[1].d.next = self.clamp_max.min.val();
        self.c3[2].d.next = self.ka.val();
        self.c3[3].d.next = self.kb.val();
        self.c3_miss.clock.next = self.clock.val();
        self.c3_miss.en.next = self.en_cut.val();
        self.c3_miss.d.next = self.miss.val();
        self.c3_side.clock.next = self.clock.val();
        self.c3_side.en.next = self.en_cut.val();
        self.kside.next = bit_cast::<11, 10>(self.c2_side.q.val().get_bits::<10>(32));
        if self.ksub.val() {
            self.kside.next = self.kside.val() | bits::<11>(0x400);
        }
        self.c3_side.d.next = self.kside.val();
        self.grow3.next = self.c3_side.q.val().get_bits::<8>(0);
        self.heur3.next = self.c3_side.q.val().get_bits::<2>(8);
        // Growing: positive finite max_t gains `grow` ULPs, saturating at +Inf.
        self.tmax.next = self.c3[1].q.val();
        self.grown.next = self.tmax.val();
        if !self.tmax.val().get_bit(31)
            & self.tmax.val().any()
            & (self.tmax.val() < bits::<32>(0x7F80_0000_u64))
        {
            self.grown.next = self.tmax.val() + bit_cast::<32, 8>(self.grow3.val());
            if self.grown.val() > bits::<32>(0x7F80_0000_u64) {
                self.grown.next = bits::<32>(0x7F80_0000_u64);
            }
        }
        // Cut C4, then hit iff min_t ≤ max_t, then the rest of the key's stages.
        for i in 0..2 {
            self.c4[i].clock.next = self.clock.val();
            self.c4[i].en.next = self.en_key.val();
        }
        self.c4[0].d.next = self.c3[0].q.val();
        self.c4[1].d.next = self.grown.val();
        self.c4_miss.clock.next = self.clock.val();
        self.c4_miss.en.next = self.en_key.val();
        self.c4_miss.d.next = self.c3_miss.q.val();
        self.decide.a.next = self.c4[0].q.val();
        self.decide.b.next = self.c4[1].q.val();
        self.p_hit.clock.next = self.clock.val();
        self.p_hit.en.next = self.en_key.val();
        self.p_hit.d.next = !self.c4_miss.q.val() & (self.decide.lt.val() | self.decide.eq.val());
        self.hit.next = self.p_hit.q.val();
        // Sort key: min_t (0, 3); min_t − max_t before growing (1); near + far (2).
        self.kadd.clock.next = self.clock.val();
        self.kadd.en.next = self.en_key.val();
        self.kadd.a.next = self.c3[2].q.val();
        self.kadd.b.next = self.c3[3].q.val();
        self.kadd.sub.next = self.c3_side.q.val().get_bit(10);
        self.p_kmin.clock.next = self.clock.val();
        self.p_kmin.en.next = self.en_key.val();
        self.p_kmin.d.next = self.c3[0].q.val();
        self.p_heur.clock.next = self.clock.val();
        self.p_heur.en.next = self.en_key.val();
        self.p_heur.d.next = self.heur3.val();
        self.key.next = self.p_kmin.q.val();
        if (self.p_heur.q.val() == 1) | (self.p_heur.q.val() == 2) {
            self.key.next = self.kadd.y.val();
        }
    }
}
