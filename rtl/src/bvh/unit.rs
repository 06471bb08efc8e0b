//! The BVH intersector (docs/units/bvh.md): IMAGE_BVH_INTERSECT_RAY / IMAGE_BVH64_INTERSECT_RAY,
//! one node test per ray, node fetch through a request/response memory port, results in order.
//!
//! # Ports
//! Input stream (`in_valid`/`in_ready`): `in_tag`, `in_ptr_lo`/`in_ptr_hi` (node pointer; the high
//! word only with `in_bvh64`), `in_extent`, `in_o_*` origin, `in_d_*` direction and `in_i_*` inverse
//! direction (f32 bits; with `in_a16` the direction registers carry the f16 pairs `{d | inv << 16}`
//! and `in_i_*` is ignored), `in_desc[4]` (the 128-bit T#, low dword first), and the instruction
//! fields the restrictions name: `in_dmask`, `in_d16`, `in_r128`, `in_unrm`, `in_dim`, `in_lwe`,
//! `in_tfe`, `in_ssamp`.
//! Memory request (`mem_req_valid`/`mem_req_ready`): `mem_req_addr_lo/hi` (byte address
//! base·256 + (ptr >> 3)·64, modulo 2^64; a node index above the T#'s size is out of bounds and
//! fetches nothing, a size field of all ones meaning no limit), `mem_req_len128` (a box32 node is 128 bytes, others 64).
//! Memory response (`mem_resp_valid`/`mem_resp_ready`, in request order): `mem_resp_data[32]`, the
//! node's dwords (the first 16 for a 64-byte node).
//! Output stream (`out_valid`/`out_ready`): `out_tag`, `out_d[4]`, `out_err` (the instruction broke a
//! restriction: nothing was fetched, `out_d` reads 0).
//!
//! # Timing
//! A request is issued in the cycle the ray is accepted; the ray waits in an in-order
//! [`RayQueue`](super::RayQueue) ([`QUEUE`] = 8 rays in flight by default, any count with
//! [`BvhUnit::with_queue`]; throughput falls below one ray per clock once the memory latency
//! exceeds about the queue's length) until its node arrives, then the node test runs combinationally into the
//! output register. Rays that fetch nothing (out of bounds, instance/procedural node, rejected
//! instruction) pass through the same queue, so results stay in order. Throughput: one node test per
//! clock while responses keep up; latency 1 + memory latency. Pipeline depth 1…[`MAX_DEPTH`]
//! ([`BvhUnit::new`]) adds register stages to the node test. Back-pressure stalls them, the queue
//! head and the memory response together, decided a clock ahead: behind the output registers sits
//! a skid register of one result, which takes the output registers' result when the output refuses
//! it while the pipeline advances; the pipeline advances in exactly the clocks in which the skid
//! register is empty, so every enable is a register ([`EnableCopy`], one per group of registers)
//! and `out_valid` is `skid valid || output valid`, the skid's result first. On the box path depth `d`
//! places the first `d` of [`BOX_STAGES`]: the slab test's stages ([`SlabPlan`]: inside the
//! subtractions, the products and the key's addition, and cuts A, C1, C2 and C3 between its
//! comparison levels) and cut B between the slab tests and the sort (beyond 26, more stages at
//! cut B). On the triangle path [`TriTest`] takes the stages of [`tri_plan`] (cut A after the
//! differences and cross products, cut B after the dot products, then stages inside each of its
//! f32 operators, then more inside its multipliers) and [`TriWatertight`] cuts A and B only; each test's result waits out the rest
//! of the depth in a delay line. Latency 1 + memory latency + depth, one node test per clock, the
//! same results.
//!
//! # Arithmetic
//! [`BoxSlab`] ×4 and [`ChildSort`] for box nodes (box16 corners widened exactly from f16),
//! [`TriTest`] for triangles, or [`TriWatertight`] when T#[121] asks for the watertight test; A16
//! directions are widened exactly ([`F16ToF32`]).

use super::queue::{RayQueue, RAY_FIELDS};
use super::{BoxSlab, ChildSort, SlabPlan, TriPlan, TriTest, TriWatertight};
use crate::common::fp::{F16ToF32, Retime, ValidRetime};
use crate::common::{EnableCopy, SkidControl};
use rust_hdl::prelude::*;

/// Rays in flight by default ([`BvhUnit::with_queue`] sets another count).
pub const QUEUE: usize = 8;

/// One register stage of the box path (see [`BOX_STAGES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoxStage {
    /// A stage inside the slab test's subtractions ([`SlabPlan::sub`]).
    Sub,
    /// A stage inside the slab test's products ([`SlabPlan::mul`]).
    Mul,
    /// A stage inside the key's addition and the hit decision ([`SlabPlan::key`]).
    Key,
    /// The slab test's cut A ([`SlabPlan::a`]).
    A,
    /// The slab test's cut C1 ([`SlabPlan::c1`]).
    C1,
    /// The slab test's cut C2 ([`SlabPlan::c2`]).
    C2,
    /// The slab test's cut C3 ([`SlabPlan::c3`]).
    C3,
    /// Cut B, between the slab tests and the sort.
    B,
}

/// The box path's register stages in the order the depth adds them: depth `d` places the first
/// `d`. Cuts A and B come first (the unit's depths 1 and 2 before the slab test had stages of its
/// own), then stages inside the floating-point operators, longest paths first, and the comparison
/// levels' cuts. The products' seventh stage (their every boundary cut, [`MUL_CUTS`]) comes next:
/// at depth 23 the worst path of the slab test placed alone on the ECP5-85F was a product's
/// classification and normalising shift (84.7 MHz, docs/fpga.md). Their eighth and ninth stages
/// come last: the transport registers in front of and behind the DSP products, at nine stages
/// with the DSP slice's own operand and product registers ([`mul_dsp_registers`]).
///
/// [`MUL_CUTS`]: crate::common::fp::pipe::MUL_CUTS
/// [`mul_dsp_registers`]: crate::common::fp::pipe::mul_dsp_registers
pub const BOX_STAGES: [BoxStage; 26] = {
    use BoxStage::*;
    [
        A, B, Sub, Mul, Key, C2, Sub, Mul, Key, C1, C3, Sub, Mul, Key, Sub, Mul, Key, Sub, Mul,
        Key, Sub, Mul, Key, Mul, Mul, Mul,
    ]
};

/// Stages inside each f32 operator of the triangle test at the deepest pipeline (as many as the
/// slab test's, where the pipelined adder and multiplier pass 100 MHz on the ECP5-85F).
pub const TRI_FP_STAGES: usize = 6;

/// Stages the triangle test's multipliers take beyond [`TRI_FP_STAGES`] at the deepest pipeline:
/// the seventh cuts the classification from the alignment, the eighth and ninth are the transport
/// registers beside the DSP products, with the slices' own registers (as the slab test's products
/// at depth 26; [`crate::common::fp::pipe::MUL_CUTS`]), and the tenth is a private copy of the
/// operands in front of each multiplier ([`crate::common::fp::pipe::mul_front`]: every operand of
/// the cross and dot products feeds two multipliers).
pub const TRI_MUL_EXTRA: usize = 4;

/// The deepest pipeline [`BvhUnit::new`] builds: the plain triangle test's cuts A, B and C,
/// [`TRI_FP_STAGES`] stages in each of its seven f32 operators in series and [`TRI_MUL_EXTRA`]
/// more in each of its two multipliers in series.
pub const MAX_DEPTH: usize =
    TriPlan::OPS_IN_SERIES * TRI_FP_STAGES + TriPlan::MULS_IN_SERIES * TRI_MUL_EXTRA + 3;

/// The slab test's plan and cut B's stages at `depth` (0…[`MAX_DEPTH`]): the first `depth` of
/// [`BOX_STAGES`], and beyond them more stages at cut B.
pub fn box_plan(depth: usize) -> (SlabPlan, usize) {
    assert!(
        depth <= MAX_DEPTH,
        "BVH: pipeline depth {depth} (0…{MAX_DEPTH})"
    );
    let mut plan = SlabPlan::default();
    let mut b = depth.saturating_sub(BOX_STAGES.len());
    for stage in &BOX_STAGES[..depth.min(BOX_STAGES.len())] {
        match stage {
            BoxStage::Sub => plan.sub += 1,
            BoxStage::Mul => plan.mul += 1,
            BoxStage::Key => plan.key += 1,
            BoxStage::A => plan.a += 1,
            BoxStage::C1 => plan.c1 += 1,
            BoxStage::C2 => plan.c2 += 1,
            BoxStage::C3 => plan.c3 += 1,
            BoxStage::B => b += 1,
        }
    }
    (plan, b)
}

/// The plain triangle test's plan at `depth` (0…[`MAX_DEPTH`]): cut A from depth 1, cut B from
/// depth 2, then one more stage in every f32 operator per seven clocks of depth up to
/// [`TRI_FP_STAGES`], then one more in every multiplier per two clocks up to [`TRI_MUL_EXTRA`],
/// then cut C at [`MAX_DEPTH`]. The watertight test takes cuts A and B only. What a test does not place waits in a delay line on its result.
pub fn tri_plan(depth: usize) -> TriPlan {
    assert!(
        depth <= MAX_DEPTH,
        "BVH: pipeline depth {depth} (0…{MAX_DEPTH})"
    );
    let a = depth.min(1);
    let b = depth.saturating_sub(1).min(1);
    let fp = ((depth - a - b) / TriPlan::OPS_IN_SERIES).min(TRI_FP_STAGES);
    let rest = depth - a - b - TriPlan::OPS_IN_SERIES * fp;
    let mul = if fp == TRI_FP_STAGES {
        (rest / TriPlan::MULS_IN_SERIES).min(TRI_MUL_EXTRA)
    } else {
        0
    };
    let c = usize::from(depth == MAX_DEPTH);
    TriPlan { fp, mul, a, b, c }
}

crate::settled_block! {
/// The intersector. See the module documentation.
#[derive(Clone, Debug)]
pub struct BvhUnit {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// Input valid.
    pub in_valid: Signal<In, Bit>,
    /// A ray is accepted this cycle.
    pub in_ready: Signal<Out, Bit>,
    /// Transaction id.
    pub in_tag: Signal<In, Bits<16>>,
    /// Node pointer, low word.
    pub in_ptr_lo: Signal<In, Bits<32>>,
    /// Node pointer, high word (BVH64).
    pub in_ptr_hi: Signal<In, Bits<32>>,
    /// 64-bit node pointer.
    pub in_bvh64: Signal<In, Bit>,
    /// f16 directions.
    pub in_a16: Signal<In, Bit>,
    /// Ray extent.
    pub in_extent: Signal<In, Bits<32>>,
    /// Origin x.
    pub in_o_x: Signal<In, Bits<32>>,
    /// Origin y.
    pub in_o_y: Signal<In, Bits<32>>,
    /// Origin z.
    pub in_o_z: Signal<In, Bits<32>>,
    /// Direction x (A16: {dx, ix}).
    pub in_d_x: Signal<In, Bits<32>>,
    /// Direction y (A16: {dy, iy}).
    pub in_d_y: Signal<In, Bits<32>>,
    /// Direction z (A16: {dz, iz}).
    pub in_d_z: Signal<In, Bits<32>>,
    /// Inverse direction x.
    pub in_i_x: Signal<In, Bits<32>>,
    /// Inverse direction y.
    pub in_i_y: Signal<In, Bits<32>>,
    /// Inverse direction z.
    pub in_i_z: Signal<In, Bits<32>>,
    /// The T#, low dword first.
    pub in_desc: [Signal<In, Bits<32>>; 4],
    /// DMASK (must be 0xf).
    pub in_dmask: Signal<In, Bits<4>>,
    /// D16 (must be 0).
    pub in_d16: Signal<In, Bit>,
    /// R128 (must be 1).
    pub in_r128: Signal<In, Bit>,
    /// UNRM (must be 1).
    pub in_unrm: Signal<In, Bit>,
    /// DIM (must be 0).
    pub in_dim: Signal<In, Bits<3>>,
    /// LWE (must be 0).
    pub in_lwe: Signal<In, Bit>,
    /// TFE (must be 0).
    pub in_tfe: Signal<In, Bit>,
    /// SSAMP (must be 0).
    pub in_ssamp: Signal<In, Bit>,
    /// Memory request valid.
    pub mem_req_valid: Signal<Out, Bit>,
    /// Memory accepts the request.
    pub mem_req_ready: Signal<In, Bit>,
    /// Byte address, low word.
    pub mem_req_addr_lo: Signal<Out, Bits<32>>,
    /// Byte address, high word.
    pub mem_req_addr_hi: Signal<Out, Bits<32>>,
    /// 128-byte request (box32).
    pub mem_req_len128: Signal<Out, Bit>,
    /// Memory response valid.
    pub mem_resp_valid: Signal<In, Bit>,
    /// The unit takes the response.
    pub mem_resp_ready: Signal<Out, Bit>,
    /// Node dwords.
    pub mem_resp_data: [Signal<In, Bits<32>>; 32],
    /// Output valid.
    pub out_valid: Signal<Out, Bit>,
    /// Downstream accepts.
    pub out_ready: Signal<In, Bit>,
    /// Transaction id.
    pub out_tag: Signal<Out, Bits<16>>,
    /// The four result dwords.
    pub out_d: [Signal<Out, Bits<32>>; 4],
    /// The instruction was rejected.
    pub out_err: Signal<Out, Bit>,

    // Decode.
    wide: [F16ToF32; 6],
    dx: [Signal<Local, Bits<32>>; 3],
    ix: [Signal<Local, Bits<32>>; 3],
    index: Signal<Local, Bits<64>>,
    size: Signal<Local, Bits<64>>,
    addr: Signal<Local, Bits<64>>,
    ntype: Signal<Local, Bits<3>>,
    kind: Signal<Local, Bits<2>>,
    ctl: Signal<Local, Bits<32>>,
    /// Sort mode (0 off, 1 closest, 2 largest, 3 midpoint) of the offered ray; the head ray's
    /// heuristic for the slabs (0 closest, 1 largest, 2 midpoint).
    smode: Signal<Local, Bits<2>>,
    hheur: Signal<Local, Bits<2>>,
    space: Signal<Local, Bit>,
    fetch: Signal<Local, Bit>,
    rdy: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    /// The stall, decided a clock ahead, and the skid register's valid bit.
    skid: SkidControl,
    /// Registered copies of the advance: the queue's pop, the control delay lines and the valid
    /// bits; each slab test's five groups (`5i + g`, with cut B beside its key group); the
    /// watertight test; the triangle results' delay lines; the output registers. The triangle
    /// test takes the advance itself (`adv_next`) and registers a copy per operator.
    e_ctl: EnableCopy,
    e_slab: [EnableCopy; 20],
    e_wtri: EnableCopy,
    e_pad: EnableCopy,
    e_out: EnableCopy,
    // Queue.
    queue: RayQueue,
    head: [Signal<Local, Bits<32>>; 11],
    hkind: Signal<Local, Bits<2>>,
    htype: Signal<Local, Bits<3>>,
    // Node tests.
    half: [F16ToF32; 24],
    slab: [BoxSlab; 4],
    // Pipeline depth: cut B between the slab tests and the sort, and what bypasses the cuts.
    cb_hit: [Retime<Bit>; 4],
    cb_key: [Retime<Bits<32>>; 4],
    cd_ptr: [Retime<Bits<32>>; 4],
    /// {smode[1] [22], kind [21:20], type [19:17], smode[0] [16], tag [15:0]} of the control word.
    cd_ctl: Retime<Bits<23>>,
    vpipe: ValidRetime,
    dctl: Signal<Local, Bits<23>>,
    dkind: Signal<Local, Bits<2>>,
    dtype: Signal<Local, Bits<3>>,
    order: ChildSort,
    tritest: TriTest,
    wtri: TriWatertight,
    /// The plain and the watertight triangle test's result through the rest of the depth.
    tpad: [Retime<Bits<32>>; 4],
    wpad: [Retime<Bits<32>>; 4],
    corner: [Signal<Local, Bits<32>>; 24],
    vsel: [Signal<Local, Bits<32>>; 9],
    res: [Signal<Local, Bits<32>>; 4],
    // Output.
    ovalid: DFF<Bit>,
    o_tag: Retime<Bits<16>>,
    o_d: [Retime<Bits<32>>; 4],
    o_err: Retime<Bit>,
    // The skid register: the output registers' result, taken when `skid.load`.
    s_tag: Retime<Bits<16>>,
    s_d: [Retime<Bits<32>>; 4],
    s_err: Retime<Bit>,
}
}

impl Default for BvhUnit {
    fn default() -> Self {
        Self::new(0)
    }
}

impl BvhUnit {
    /// The pipeline depths the test bench runs (every depth 0…[`MAX_DEPTH`] builds).
    pub const DEPTHS: [usize; 3] = [0, 2, MAX_DEPTH];

    /// The unit with `depth` (0…[`MAX_DEPTH`]) register stages inside the node test (see the
    /// module documentation) and a [`QUEUE`]-entry ray queue: latency 1 + memory latency + `depth`.
    pub fn new(depth: usize) -> Self {
        Self::with_queue(depth, QUEUE)
    }

    /// [`BvhUnit::new`] with a `queue ≥ 1`-entry ray queue (rays in flight).
    pub fn with_queue(depth: usize, queue: usize) -> Self {
        use std::array::from_fn;
        let (plan, b) = box_plan(depth);
        let tri = tri_plan(depth);
        let wt = tri.a + tri.b;
        Self {
            settle: crate::common::settle::SettleState::new(true),
            skid: Default::default(),
            slab: from_fn(|_| BoxSlab::new(plan)),
            tritest: TriTest::new(tri),
            wtri: TriWatertight::new(wt),
            tpad: from_fn(|_| Retime::new(depth - tri.latency())),
            wpad: from_fn(|_| Retime::new(depth - wt)),
            cb_hit: from_fn(|_| Retime::new(b)),
            cb_key: from_fn(|_| Retime::new(b)),
            cd_ptr: from_fn(|_| Retime::new(depth)),
            cd_ctl: Retime::new(depth),
            vpipe: ValidRetime::new(depth),
            dctl: Default::default(),
            dkind: Default::default(),
            dtype: Default::default(),
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_tag: Default::default(),
            in_ptr_lo: Default::default(),
            in_ptr_hi: Default::default(),
            in_bvh64: Default::default(),
            in_a16: Default::default(),
            in_extent: Default::default(),
            in_o_x: Default::default(),
            in_o_y: Default::default(),
            in_o_z: Default::default(),
            in_d_x: Default::default(),
            in_d_y: Default::default(),
            in_d_z: Default::default(),
            in_i_x: Default::default(),
            in_i_y: Default::default(),
            in_i_z: Default::default(),
            in_desc: Default::default(),
            in_dmask: Default::default(),
            in_d16: Default::default(),
            in_r128: Default::default(),
            in_unrm: Default::default(),
            in_dim: Default::default(),
            in_lwe: Default::default(),
            in_tfe: Default::default(),
            in_ssamp: Default::default(),
            mem_req_valid: Default::default(),
            mem_req_ready: Default::default(),
            mem_req_addr_lo: Default::default(),
            mem_req_addr_hi: Default::default(),
            mem_req_len128: Default::default(),
            mem_resp_valid: Default::default(),
            mem_resp_ready: Default::default(),
            mem_resp_data: from_fn(|_| Default::default()),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_tag: Default::default(),
            out_d: Default::default(),
            out_err: Default::default(),
            wide: Default::default(),
            dx: Default::default(),
            ix: Default::default(),
            index: Default::default(),
            size: Default::default(),
            addr: Default::default(),
            ntype: Default::default(),
            kind: Default::default(),
            ctl: Default::default(),
            smode: Default::default(),
            hheur: Default::default(),
            space: Default::default(),
            fetch: Default::default(),
            rdy: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            e_ctl: Default::default(),
            e_slab: from_fn(|_| Default::default()),
            e_wtri: Default::default(),
            e_pad: Default::default(),
            e_out: Default::default(),
            queue: RayQueue::new(queue),
            head: Default::default(),
            hkind: Default::default(),
            htype: Default::default(),
            half: from_fn(|_| Default::default()),
            order: Default::default(),
            corner: from_fn(|_| Default::default()),
            vsel: Default::default(),
            res: Default::default(),
            ovalid: Default::default(),
            o_tag: Retime::new(1),
            o_d: from_fn(|_| Retime::new(1)),
            o_err: Retime::new(1),
            s_tag: Retime::new(1),
            s_d: from_fn(|_| Retime::new(1)),
            s_err: Retime::new(1),
        }
    }
}

const _: () = assert!(RAY_FIELDS == 11);

impl Logic for BvhUnit {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ovalid);

        // ---------------- advance, decided a clock ahead ----------------
        // The pipeline advances in a clock exactly when the skid register is empty then, so the
        // advance is a register (copied per group of registers), not a function of `out_ready`.
        // A result that the output refuses while the pipeline advances moves into the skid
        // register, which then stalls the pipeline until the output takes it.
        self.skid.clock.next = self.clock.val();
        self.skid.reset.next = self.reset.val();
        self.skid.full.next = self.ovalid.q.val();
        self.skid.out_ready.next = self.out_ready.val();
        self.e_ctl.clock.next = self.clock.val();
        self.e_ctl.d.next = self.skid.adv_next.val();
        for i in 0..20 {
            self.e_slab[i].clock.next = self.clock.val();
            self.e_slab[i].d.next = self.skid.adv_next.val();
        }
        self.e_wtri.clock.next = self.clock.val();
        self.e_wtri.d.next = self.skid.adv_next.val();
        self.e_pad.clock.next = self.clock.val();
        self.e_pad.d.next = self.skid.adv_next.val();
        self.e_out.clock.next = self.clock.val();
        self.e_out.d.next = self.skid.adv_next.val();

        // ---------------- decode ----------------
        // A16: {d | inv << 16} per axis, widened exactly.
        self.wide[0].a.next = self.in_d_x.val().get_bits::<16>(0);
        self.wide[1].a.next = self.in_d_y.val().get_bits::<16>(0);
        self.wide[2].a.next = self.in_d_z.val().get_bits::<16>(0);
        self.wide[3].a.next = self.in_d_x.val().get_bits::<16>(16);
        self.wide[4].a.next = self.in_d_y.val().get_bits::<16>(16);
        self.wide[5].a.next = self.in_d_z.val().get_bits::<16>(16);
        self.dx[0].next = self.in_d_x.val();
        self.dx[1].next = self.in_d_y.val();
        self.dx[2].next = self.in_d_z.val();
        self.ix[0].next = self.in_i_x.val();
        self.ix[1].next = self.in_i_y.val();
        self.ix[2].next = self.in_i_z.val();
        if self.in_a16.val() {
            for k in 0..3 {
                self.dx[k].next = self.wide[k].y.val();
                self.ix[k].next = self.wide[3 + k].y.val();
            }
        }
        // Node index and bounds: index = ptr >> 3; size = T#[105:64].
        self.index.next = bit_cast::<64, 32>(self.in_ptr_lo.val());
        if self.in_bvh64.val() {
            self.index.next = self.index.val() | (bit_cast::<64, 32>(self.in_ptr_hi.val()) << 32);
        }
        self.index.next = self.index.val() >> 3;
        self.size.next = bit_cast::<64, 32>(self.in_desc[2].val())
            | (bit_cast::<64, 10>(self.in_desc[3].val().get_bits::<10>(0)) << 32);
        // Byte address: base·256 + index·64, base = T#[39:0].
        self.addr.next = ((bit_cast::<64, 32>(self.in_desc[0].val())
            | (bit_cast::<64, 8>(self.in_desc[1].val().get_bits::<8>(0)) << 32))
            << 8)
            + (self.index.val() << 6);
        self.ntype.next = self.in_ptr_lo.val().get_bits::<3>(0);
        // kind: 0 fetch, 1 no fetch (all ones), 2 rejected instruction.
        self.kind.next = bits::<2>(0);
        // A size field of all ones (2^42 − 1) means "no limit" (BVH64 indices can exceed it).
        if ((self.index.val() > self.size.val())
            & (self.size.val() != bits::<64>(0x3FF_FFFF_FFFF_u64)))
            | (self.ntype.val() >= bits::<3>(6))
        {
            self.kind.next = bits::<2>(1);
        }
        if (self.in_dmask.val() != bits::<4>(0xF))
            | self.in_d16.val()
            | !self.in_r128.val()
            | !self.in_unrm.val()
            | self.in_dim.val().any()
            | self.in_lwe.val()
            | self.in_tfe.val()
            | self.in_ssamp.val()
        {
            self.kind.next = bits::<2>(2);
        }
        // Sort mode from box_sort_en (T#[63]) and the heuristic (T#[54:53]): 0 no sorting,
        // 1 closest first (heuristics 0 and 3), 2 largest first, 3 closest midpoint.
        self.smode.next = bits::<2>(0);
        if self.in_desc[1].val().get_bit(31) {
            self.smode.next = bits::<2>(1);
            if self.in_desc[1].val().get_bits::<2>(21) == bits::<2>(1) {
                self.smode.next = bits::<2>(2);
            }
            if self.in_desc[1].val().get_bits::<2>(21) == bits::<2>(2) {
                self.smode.next = bits::<2>(3);
            }
        }
        // A triangle node has no child order: its smode field carries the watertight-test flag
        // (T#[121]) instead, in bit 0.
        if self.ntype.val() < bits::<3>(4) {
            self.smode.next = bit_cast::<2, 1>(self.in_desc[3].val().get_bits::<1>(25));
        }
        // Control word: {smode[1] [31], kind[30:29], type[28:26], mode[25], smode[0] [24],
        // grow[23:16], tag[15:0]}.
        self.ctl.next = bit_cast::<32, 16>(self.in_tag.val())
            | (bit_cast::<32, 8>(self.in_desc[1].val().get_bits::<8>(23)) << 16)
            | (bit_cast::<32, 1>(self.smode.val().get_bits::<1>(0)) << 24)
            | (bit_cast::<32, 1>(self.in_desc[3].val().get_bits::<1>(24)) << 25)
            | (bit_cast::<32, 3>(self.ntype.val()) << 26)
            | (bit_cast::<32, 2>(self.kind.val()) << 29)
            | (bit_cast::<32, 1>(self.smode.val().get_bits::<1>(1)) << 31);

        // ---------------- handshakes ----------------
        self.space.next = !self.queue.full.val();
        self.fetch.next = self.kind.val() == bits::<2>(0);
        self.rdy.next = self.space.val() & (!self.fetch.val() | self.mem_req_ready.val());
        self.push.next = self.in_valid.val() & self.rdy.val();
        self.in_ready.next = self.rdy.val();
        self.mem_req_valid.next = self.in_valid.val() & self.space.val() & self.fetch.val();
        self.mem_req_addr_lo.next = self.addr.val().get_bits::<32>(0);
        self.mem_req_addr_hi.next = self.addr.val().get_bits::<32>(32);
        self.mem_req_len128.next = self.ntype.val() == bits::<3>(5);

        // ---------------- queue ----------------
        self.queue.clock.next = self.clock.val();
        self.queue.reset.next = self.reset.val();
        self.queue.push.next = self.push.val();
        self.queue.d[0].next = self.in_o_x.val();
        self.queue.d[1].next = self.in_o_y.val();
        self.queue.d[2].next = self.in_o_z.val();
        self.queue.d[3].next = self.dx[0].val();
        self.queue.d[4].next = self.dx[1].val();
        self.queue.d[5].next = self.dx[2].val();
        self.queue.d[6].next = self.ix[0].val();
        self.queue.d[7].next = self.ix[1].val();
        self.queue.d[8].next = self.ix[2].val();
        self.queue.d[9].next = self.in_extent.val();
        self.queue.d[10].next = self.ctl.val();
        for f in 0..11 {
            self.head[f].next = self.queue.q[f].val();
        }
        self.hkind.next = self.head[10].val().get_bits::<2>(29);
        self.htype.next = self.head[10].val().get_bits::<3>(26);
        self.hheur.next = bits::<2>(0);
        if self.head[10].val().get_bit(31) {
            self.hheur.next = bits::<2>(1);
            if self.head[10].val().get_bit(24) {
                self.hheur.next = bits::<2>(2);
            }
        }
        self.mem_resp_ready.next =
            !self.queue.empty.val() & (self.hkind.val() == bits::<2>(0)) & self.e_ctl.q.val();
        self.pop.next = !self.queue.empty.val()
            & self.e_ctl.q.val()
            & ((self.hkind.val() != bits::<2>(0)) | self.mem_resp_valid.val());
        self.queue.pop.next = self.pop.val();

        // ---------------- node tests ----------------
        // Box corners: box32 f32 dwords (min at 4 + 6i, max at 7 + 6i), box16 f16 halves of the
        // dwords at 4 + 3i: (minx | miny), (minz | maxx), (maxy | maxz).
        for i in 0..4 {
            self.half[6 * i].a.next = self.mem_resp_data[4 + 3 * i].val().get_bits::<16>(0);
            self.half[6 * i + 1].a.next = self.mem_resp_data[4 + 3 * i].val().get_bits::<16>(16);
            self.half[6 * i + 2].a.next = self.mem_resp_data[5 + 3 * i].val().get_bits::<16>(0);
            self.half[6 * i + 3].a.next = self.mem_resp_data[5 + 3 * i].val().get_bits::<16>(16);
            self.half[6 * i + 4].a.next = self.mem_resp_data[6 + 3 * i].val().get_bits::<16>(0);
            self.half[6 * i + 5].a.next = self.mem_resp_data[6 + 3 * i].val().get_bits::<16>(16);
            for k in 0..6 {
                self.corner[6 * i + k].next = self.mem_resp_data[4 + 6 * i + k].val();
                if self.htype.val() == bits::<3>(4) {
                    self.corner[6 * i + k].next = self.half[6 * i + k].y.val();
                }
            }
            self.slab[i].o_x.next = self.head[0].val();
            self.slab[i].o_y.next = self.head[1].val();
            self.slab[i].o_z.next = self.head[2].val();
            self.slab[i].inv_x.next = self.head[6].val();
            self.slab[i].inv_y.next = self.head[7].val();
            self.slab[i].inv_z.next = self.head[8].val();
            self.slab[i].lo_x.next = self.corner[6 * i].val();
            self.slab[i].lo_y.next = self.corner[6 * i + 1].val();
            self.slab[i].lo_z.next = self.corner[6 * i + 2].val();
            self.slab[i].hi_x.next = self.corner[6 * i + 3].val();
            self.slab[i].hi_y.next = self.corner[6 * i + 4].val();
            self.slab[i].hi_z.next = self.corner[6 * i + 5].val();
            self.slab[i].extent.next = self.head[9].val();
            self.slab[i].grow.next = self.head[10].val().get_bits::<8>(16);
            self.slab[i].heur.next = self.hheur.val();
        }
        // The node test's register stages advance with the output; what bypasses them is delayed
        // by the same depth (wires at depth 0).
        for i in 0..4 {
            self.slab[i].clock.next = self.clock.val();
            self.slab[i].en_x.next = self.e_slab[5 * i].q.val();
            self.slab[i].en_y.next = self.e_slab[5 * i + 1].q.val();
            self.slab[i].en_z.next = self.e_slab[5 * i + 2].q.val();
            self.slab[i].en_cut.next = self.e_slab[5 * i + 3].q.val();
            self.slab[i].en_key.next = self.e_slab[5 * i + 4].q.val();
            self.cb_hit[i].clock.next = self.clock.val();
            self.cb_hit[i].en.next = self.e_slab[5 * i + 4].q.val();
            self.cb_hit[i].d.next = self.slab[i].hit.val();
            self.cb_key[i].clock.next = self.clock.val();
            self.cb_key[i].en.next = self.e_slab[5 * i + 4].q.val();
            self.cb_key[i].d.next = self.slab[i].key.val();
            self.cd_ptr[i].clock.next = self.clock.val();
            self.cd_ptr[i].en.next = self.e_ctl.q.val();
            self.cd_ptr[i].d.next = self.mem_resp_data[i].val();
        }
        self.cd_ctl.clock.next = self.clock.val();
        self.cd_ctl.en.next = self.e_ctl.q.val();
        self.cd_ctl.d.next = bit_cast::<23, 16>(self.head[10].val().get_bits::<16>(0))
            | (bit_cast::<23, 1>(self.head[10].val().get_bits::<1>(24)) << 16)
            | (bit_cast::<23, 5>(self.head[10].val().get_bits::<5>(26)) << 17)
            | (bit_cast::<23, 1>(self.head[10].val().get_bits::<1>(31)) << 22);
        self.vpipe.clock.next = self.clock.val();
        self.vpipe.reset.next = self.reset.val();
        self.vpipe.en.next = self.e_ctl.q.val();
        self.vpipe.d.next = self.pop.val();
        self.dctl.next = self.cd_ctl.q.val();
        self.dkind.next = self.dctl.val().get_bits::<2>(20);
        self.dtype.next = self.dctl.val().get_bits::<3>(17);
        self.order.ptr_0.next = self.cd_ptr[0].q.val();
        self.order.ptr_1.next = self.cd_ptr[1].q.val();
        self.order.ptr_2.next = self.cd_ptr[2].q.val();
        self.order.ptr_3.next = self.cd_ptr[3].q.val();
        self.order.key_0.next = self.cb_key[0].q.val();
        self.order.key_1.next = self.cb_key[1].q.val();
        self.order.key_2.next = self.cb_key[2].q.val();
        self.order.key_3.next = self.cb_key[3].q.val();
        self.order.hit_0.next = self.cb_hit[0].q.val();
        self.order.hit_1.next = self.cb_hit[1].q.val();
        self.order.hit_2.next = self.cb_hit[2].q.val();
        self.order.hit_3.next = self.cb_hit[3].q.val();
        self.order.sort.next = self.dctl.val().get_bit(16) | self.dctl.val().get_bit(22);
        // Triangle vertex triple by node type: 0 (v0,v1,v2), 1 (v1,v3,v2), 2 (v2,v3,v4),
        // 3 (v2,v4,v0); vertex k is dwords 3k…3k+2.
        for c in 0..3 {
            self.vsel[c].next = self.mem_resp_data[c].val();
            self.vsel[3 + c].next = self.mem_resp_data[3 + c].val();
            self.vsel[6 + c].next = self.mem_resp_data[6 + c].val();
        }
        match self.htype.val().index() {
            1 => {
                for c in 0..3 {
                    self.vsel[c].next = self.mem_resp_data[3 + c].val();
                    self.vsel[3 + c].next = self.mem_resp_data[9 + c].val();
                    self.vsel[6 + c].next = self.mem_resp_data[6 + c].val();
                }
            }
            2 => {
                for c in 0..3 {
                    self.vsel[c].next = self.mem_resp_data[6 + c].val();
                    self.vsel[3 + c].next = self.mem_resp_data[9 + c].val();
                    self.vsel[6 + c].next = self.mem_resp_data[12 + c].val();
                }
            }
            3 => {
                for c in 0..3 {
                    self.vsel[c].next = self.mem_resp_data[6 + c].val();
                    self.vsel[3 + c].next = self.mem_resp_data[12 + c].val();
                    self.vsel[6 + c].next = self.mem_resp_data[c].val();
                }
            }
            _ => {}
        }
        self.tritest.a_x.next = self.vsel[0].val();
        self.tritest.a_y.next = self.vsel[1].val();
        self.tritest.a_z.next = self.vsel[2].val();
        self.tritest.b_x.next = self.vsel[3].val();
        self.tritest.b_y.next = self.vsel[4].val();
        self.tritest.b_z.next = self.vsel[5].val();
        self.tritest.c_x.next = self.vsel[6].val();
        self.tritest.c_y.next = self.vsel[7].val();
        self.tritest.c_z.next = self.vsel[8].val();
        self.tritest.o_x.next = self.head[0].val();
        self.tritest.o_y.next = self.head[1].val();
        self.tritest.o_z.next = self.head[2].val();
        self.tritest.d_x.next = self.head[3].val();
        self.tritest.d_y.next = self.head[4].val();
        self.tritest.d_z.next = self.head[5].val();
        self.tritest.tri_id.next = self.mem_resp_data[15].val();
        self.tritest.mode.next = self.head[10].val().get_bit(25);
        self.tritest.clock.next = self.clock.val();
        self.tritest.adv_next.next = self.skid.adv_next.val();
        self.wtri.a_x.next = self.vsel[0].val();
        self.wtri.a_y.next = self.vsel[1].val();
        self.wtri.a_z.next = self.vsel[2].val();
        self.wtri.b_x.next = self.vsel[3].val();
        self.wtri.b_y.next = self.vsel[4].val();
        self.wtri.b_z.next = self.vsel[5].val();
        self.wtri.c_x.next = self.vsel[6].val();
        self.wtri.c_y.next = self.vsel[7].val();
        self.wtri.c_z.next = self.vsel[8].val();
        self.wtri.o_x.next = self.head[0].val();
        self.wtri.o_y.next = self.head[1].val();
        self.wtri.o_z.next = self.head[2].val();
        self.wtri.d_x.next = self.head[3].val();
        self.wtri.d_y.next = self.head[4].val();
        self.wtri.d_z.next = self.head[5].val();
        self.wtri.tri_id.next = self.mem_resp_data[15].val();
        self.wtri.mode.next = self.head[10].val().get_bit(25);
        self.wtri.clock.next = self.clock.val();
        self.wtri.en.next = self.e_wtri.q.val();
        // The triangle results through the rest of the depth.
        for j in 0..4 {
            self.tpad[j].clock.next = self.clock.val();
            self.tpad[j].en.next = self.e_pad.q.val();
            self.wpad[j].clock.next = self.clock.val();
            self.wpad[j].en.next = self.e_pad.q.val();
        }
        self.tpad[0].d.next = self.tritest.d_0.val();
        self.tpad[1].d.next = self.tritest.d_1.val();
        self.tpad[2].d.next = self.tritest.d_2.val();
        self.tpad[3].d.next = self.tritest.d_3.val();
        self.wpad[0].d.next = self.wtri.d_0.val();
        self.wpad[1].d.next = self.wtri.d_1.val();
        self.wpad[2].d.next = self.wtri.d_2.val();
        self.wpad[3].d.next = self.wtri.d_3.val();
        // Result by kind and node type.
        for j in 0..4 {
            self.res[j].next = self.tpad[j].q.val();
            if self.dctl.val().get_bit(16) {
                self.res[j].next = self.wpad[j].q.val();
            }
        }
        if self.dtype.val() >= bits::<3>(4) {
            self.res[0].next = self.order.d_0.val();
            self.res[1].next = self.order.d_1.val();
            self.res[2].next = self.order.d_2.val();
            self.res[3].next = self.order.d_3.val();
        }
        for j in 0..4 {
            if self.dkind.val() == bits::<2>(1) {
                self.res[j].next = bits::<32>(0xFFFF_FFFF_u64);
            }
            if self.dkind.val() == bits::<2>(2) {
                self.res[j].next = bits::<32>(0);
            }
        }

        // ---------------- output register ----------------
        if self.e_out.q.val() {
            self.ovalid.d.next = self.vpipe.q.val();
        }
        if self.reset.val() {
            self.ovalid.d.next = false;
        }
        self.o_tag.clock.next = self.clock.val();
        self.o_tag.en.next = self.e_out.q.val() & self.vpipe.q.val();
        self.o_tag.d.next = self.dctl.val().get_bits::<16>(0);
        self.o_err.clock.next = self.clock.val();
        self.o_err.en.next = self.e_out.q.val() & self.vpipe.q.val();
        self.o_err.d.next = self.dkind.val() == bits::<2>(2);
        for j in 0..4 {
            self.o_d[j].clock.next = self.clock.val();
            self.o_d[j].en.next = self.e_out.q.val() & self.vpipe.q.val();
            self.o_d[j].d.next = self.res[j].val();
        }

        // ---------------- skid register and outputs ----------------
        self.s_tag.clock.next = self.clock.val();
        self.s_tag.en.next = self.skid.load.val();
        self.s_tag.d.next = self.o_tag.q.val();
        self.s_err.clock.next = self.clock.val();
        self.s_err.en.next = self.skid.load.val();
        self.s_err.d.next = self.o_err.q.val();
        for j in 0..4 {
            self.s_d[j].clock.next = self.clock.val();
            self.s_d[j].en.next = self.skid.load.val();
            self.s_d[j].d.next = self.o_d[j].q.val();
        }
        // The skid register holds the older result.
        self.out_valid.next = self.skid.valid.val() | self.ovalid.q.val();
        self.out_tag.next = self.o_tag.q.val();
        self.out_err.next = self.o_err.q.val();
        for j in 0..4 {
            self.out_d[j].next = self.o_d[j].q.val();
        }
        if self.skid.valid.val() {
            self.out_tag.next = self.s_tag.q.val();
            self.out_err.next = self.s_err.q.val();
            for j in 0..4 {
                self.out_d[j].next = self.s_d[j].q.val();
            }
        }
    }
}
