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
//! addition (round to nearest even). 7 adders, 6 multipliers, 7 comparators. Combinational
//! (latency 0) when built by `default()`; [`BoxSlab::new`]`(1)` registers the plane distances
//! (cut A, advancing with `en`) before the comparisons: latency 1.

use crate::common::fp::{FpAdd, FpCmp, FpMul, Retime};
use rust_hdl::prelude::*;

crate::settled_block! {
/// The slab test. See the module documentation.
#[derive(Clone, Debug)]
pub struct BoxSlab {
    /// Clock (used only with a register stage, see [`BoxSlab::new`]).
    pub clock: Signal<In, Clock>,
    /// Advance the register stage.
    pub en: Signal<In, Bit>,
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
    kadd: FpAdd,
    sub_lo: [FpAdd; 3],
    sub_hi: [FpAdd; 3],
    mul_lo: [FpMul; 3],
    mul_hi: [FpMul; 3],
    /// Cut A: near (0…2) and far (3…5) plane distances, extent (6).
    ca: [Retime<Bits<32>>; 7],
    ca_grow: Retime<Bits<8>>,
    ca_heur: Retime<Bits<2>>,
    near_xy: FpCmp,
    near_xyz: FpCmp,
    far_xy: FpCmp,
    far_xyz: FpCmp,
    clamp_min: FpCmp,
    clamp_max: FpCmp,
    decide: FpCmp,
    o: [Signal<Local, Bits<32>>; 3],
    inv: [Signal<Local, Bits<32>>; 3],
    lo: [Signal<Local, Bits<32>>; 3],
    hi: [Signal<Local, Bits<32>>; 3],
    near: [Signal<Local, Bits<32>>; 3],
    far: [Signal<Local, Bits<32>>; 3],
    tmax: Signal<Local, Bits<32>>,
    grown: Signal<Local, Bits<32>>,
    miss: Signal<Local, Bit>,
}
}

impl Default for BoxSlab {
    fn default() -> Self {
        Self::new(0)
    }
}

impl BoxSlab {
    /// The test with `stages` (0 or 1) register stages: cut A after the plane distances (the
    /// subtract–multiply), before the comparisons. Latency `stages`.
    pub fn new(stages: usize) -> Self {
        use std::array::from_fn;
        assert!(stages <= 1, "slab test: {stages} stages (0 or 1)");
        Self {
            settle: crate::common::settle::SettleState::new(true),
            clock: Default::default(),
            en: Default::default(),
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
            kadd: Default::default(),
            sub_lo: Default::default(),
            sub_hi: Default::default(),
            mul_lo: Default::default(),
            mul_hi: Default::default(),
            ca: from_fn(|_| Retime::new(stages)),
            ca_grow: Retime::new(stages),
            ca_heur: Retime::new(stages),
            near_xy: Default::default(),
            near_xyz: Default::default(),
            far_xy: Default::default(),
            far_xyz: Default::default(),
            clamp_min: Default::default(),
            clamp_max: Default::default(),
            decide: Default::default(),
            o: Default::default(),
            inv: Default::default(),
            lo: Default::default(),
            hi: Default::default(),
            near: Default::default(),
            far: Default::default(),
            tmax: Default::default(),
            grown: Default::default(),
            miss: Default::default(),
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
        for k in 0..3 {
            self.sub_lo[k].a.next = self.lo[k].val();
            self.sub_lo[k].b.next = self.o[k].val();
            self.sub_lo[k].sub.next = true;
            self.sub_hi[k].a.next = self.hi[k].val();
            self.sub_hi[k].b.next = self.o[k].val();
            self.sub_hi[k].sub.next = true;
            self.mul_lo[k].a.next = self.sub_lo[k].y.val();
            self.mul_lo[k].b.next = self.inv[k].val();
            self.mul_hi[k].a.next = self.sub_hi[k].y.val();
            self.mul_hi[k].b.next = self.inv[k].val();
            self.near[k].next = self.mul_lo[k].y.val();
            self.far[k].next = self.mul_hi[k].y.val();
            if self.inv[k].val().get_bit(31) {
                self.near[k].next = self.mul_hi[k].y.val();
                self.far[k].next = self.mul_lo[k].y.val();
            }
        }
        // Cut A (a wire at 0 stages).
        for i in 0..7 {
            self.ca[i].clock.next = self.clock.val();
            self.ca[i].en.next = self.en.val();
        }
        for k in 0..3 {
            self.ca[k].d.next = self.near[k].val();
            self.ca[3 + k].d.next = self.far[k].val();
        }
        self.ca[6].d.next = self.extent.val();
        self.ca_grow.clock.next = self.clock.val();
        self.ca_grow.en.next = self.en.val();
        self.ca_grow.d.next = self.grow.val();
        self.ca_heur.clock.next = self.clock.val();
        self.ca_heur.en.next = self.en.val();
        self.ca_heur.d.next = self.heur.val();
        self.near_xy.a.next = self.ca[0].q.val();
        self.near_xy.b.next = self.ca[1].q.val();
        self.near_xyz.a.next = self.near_xy.max.val();
        self.near_xyz.b.next = self.ca[2].q.val();
        self.far_xy.a.next = self.ca[3].q.val();
        self.far_xy.b.next = self.ca[4].q.val();
        self.far_xyz.a.next = self.far_xy.min.val();
        self.far_xyz.b.next = self.ca[5].q.val();
        // min_t = maxNum(near, +0); max_t = minNum(far, extent).
        self.clamp_min.a.next = self.near_xyz.max.val();
        self.clamp_min.b.next = bits::<32>(0);
        self.clamp_max.a.next = self.far_xyz.min.val();
        self.clamp_max.b.next = self.ca[6].q.val();
        // Growing: positive finite max_t gains `grow` ULPs, saturating at +Inf.
        self.tmax.next = self.clamp_max.min.val();
        self.grown.next = self.tmax.val();
        if !self.tmax.val().get_bit(31)
            & self.tmax.val().any()
            & (self.tmax.val() < bits::<32>(0x7F80_0000_u64))
        {
            self.grown.next = self.tmax.val() + bit_cast::<32, 8>(self.ca_grow.q.val());
            if self.grown.val() > bits::<32>(0x7F80_0000_u64) {
                self.grown.next = bits::<32>(0x7F80_0000_u64);
            }
        }
        self.decide.a.next = self.clamp_min.max.val();
        self.decide.b.next = self.grown.val();
        // NaN near or far (all three planes NaN) ⇒ miss.
        self.miss.next = ((self.near_xyz.max.val().get_bits::<8>(23) == bits::<8>(0xFF))
            & self.near_xyz.max.val().get_bits::<23>(0).any())
            | ((self.far_xyz.min.val().get_bits::<8>(23) == bits::<8>(0xFF))
                & self.far_xyz.min.val().get_bits::<23>(0).any());
        self.hit.next = !self.miss.val() & (self.decide.lt.val() | self.decide.eq.val());
        // Sort key: min_t (0, 3); min_t − max_t before growing (1); near + far (2).
        self.kadd.a.next = self.clamp_min.max.val();
        self.kadd.b.next = self.tmax.val();
        self.kadd.sub.next = true;
        if self.ca_heur.q.val() == 2 {
            self.kadd.a.next = self.near_xyz.max.val();
            self.kadd.b.next = self.far_xyz.min.val();
            self.kadd.sub.next = false;
        }
        self.key.next = self.clamp_min.max.val();
        if (self.ca_heur.q.val() == 1) | (self.ca_heur.q.val() == 2) {
            self.key.next = self.kadd.y.val();
        }
    }
}
