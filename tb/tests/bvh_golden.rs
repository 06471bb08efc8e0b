//! BVH intersector golden model: special values (hand-derived expectations), the conformance
//! examples (an independent source), the golden model against the ideal f64 reference on over a
//! million random box and triangle nodes (the ideal reference shares no rule with the golden model,
//! rejections included), the sorter and the instruction restrictions exhaustively against their
//! documented definitions, and the descriptor, memory layout and parser.
//!
//! Tolerances (derived in the comments of `check_box` / `check_tri`, measured in
//! `golden_agrees_with_ideal_on_a_million_random_nodes`, run it with `--nocapture` for the table):
//! - Box, per child: the golden hit/miss may differ from the ideal only where the ideal slab
//!   interval is within `2^-21·s + 2^-148` of the decision (s = max(|min_t|, |max_t|); each plane
//!   t is two roundings, ≤ 2^-23 relative, so min_t and max_t each move ≤ 2^-23·s), widened on the
//!   hit side by the growing margin `box_grow·2^-23·s` (+ `box_grow·2^-149` for denormals): growing
//!   may turn an ideal miss into a hit, never a hit into a miss. Two hit children may come out of the
//!   sort in the other order only if their ideal keys are within `2^-21·max + 2^-148`. Where an
//!   exact plane distance or t exceeds f32's range (the f32 test overflows to ±Inf) disagreements
//!   are counted, not failed.
//! - Triangle: each of t_num, t_denom, I, J and t_denom − (I + J) differs from the ideal by at most
//!   its a-priori forward error bound (a running error analysis of the golden operation order:
//!   2^-24 of each operation's magnitude plus 2^-150; see `texpix_tb::bvh::Bounded`) — asserted for
//!   every triangle whose intermediates stay in f32's range. Hence hit/miss may differ only where a
//!   decision quantity is within its bound of 0 (asserted), and for hits t = t_num/t_denom has a
//!   relative error ≤ (err_num/|t_num| + err_den/|t_denom|)/(1 − err_den/|t_denom|) (asserted; the
//!   table gives the measured maximum per condition class).

use serde_json::Value;
use texpix_tb::bvh::stim::{edge_cases, BvhStim, Want};
use texpix_tb::bvh::{
    self, box_child, box_detail, box_test, check_instr, closest_first, golden, golden_with_memory,
    ideal, ideal_instr, ideal_key, mem, memory_of, node_fetch, parse_line, result_json, sort_key,
    sort_order, tri_test, tri_values, tri_values_watertight, txn_json, widen_boxes, Bounded,
    BvhTxn, Descriptor, Ideal, IdealSlab, Instr, InstrError, Memory, Node, NodeKind, Ray, F32_INF,
    F32_ONE, INVALID, TRI_VERTS,
};
use texpix_tb::vectors::{parse_object, read_jsonl, FieldError};

fn fb(x: f32) -> u32 {
    x.to_bits()
}

fn f(b: u32) -> f64 {
    f32::from_bits(b) as f64
}

const NAN: u32 = 0x7FC0_0000;
const POS_INF: f32 = f32::INFINITY;

/// A ray with explicit inverse direction (f32 values).
fn ray(o: [f32; 3], d: [f32; 3], inv: [f32; 3], extent: f32) -> Ray {
    Ray {
        origin: o.map(fb),
        dir: d.map(fb),
        inv_dir: inv.map(fb),
        extent: fb(extent),
    }
}

fn boxes(b: [[f32; 6]; 4]) -> [[u32; 6]; 4] {
    b.map(|b| b.map(fb))
}

const CH: [u32; 4] = [0x100, 0x200, 0x300, 0x400];
const UNIT: [f32; 6] = [0.0, 0.0, 0.0, 1.0, 1.0, 1.0];
const FAR: [f32; 6] = [1000.0, 1000.0, 1000.0, 1001.0, 1001.0, 1001.0];
const ALL: [f32; 6] = [
    f32::NEG_INFINITY,
    f32::NEG_INFINITY,
    f32::NEG_INFINITY,
    POS_INF,
    POS_INF,
    POS_INF,
];

// ------------------------------------------------------------------------------------------------
// Special values (expectations derived by hand from docs/units/bvh.md §6–§8)
// ------------------------------------------------------------------------------------------------

#[test]
fn nan_ray_misses_every_box_and_triangle() {
    let bx = boxes([UNIT, ALL, UNIT, FAR]);
    // A NaN in every axis (origin or inverse direction): near is NaN ⇒ every child misses.
    let mut r = ray(
        [0.5, 0.5, -1.0],
        [0.0, 0.0, 1.0],
        [POS_INF, POS_INF, 1.0],
        POS_INF,
    );
    r.origin = [NAN; 3];
    for sort in [false, true] {
        assert_eq!(box_test(&r, CH, &bx, 0, sort, 0), [INVALID; 4]);
        assert_eq!(box_test(&r, CH, &bx, 255, sort, 0), [INVALID; 4]);
    }
    let mut r2 = ray([0.5, 0.5, -1.0], [0.0, 0.0, 1.0], [1.0; 3], POS_INF);
    r2.inv_dir = [NAN; 3];
    assert_eq!(box_test(&r2, CH, &bx, 0, true, 0), [INVALID; 4]);
    // A NaN in one axis only: that axis's plane distances are NaN and ignored (maxNum/minNum), the
    // other two decide. Origin (NaN, 0.5, −1), direction +z: UNIT enters at t = 1, ALL at t = 0
    // (min_t clamps −Inf to 0), FAR never (y slab +Inf away). Sorted: ALL (0), UNIT (1), UNIT (1),
    // miss.
    let mut r3 = ray(
        [0.5, 0.5, -1.0],
        [0.0, 0.0, 1.0],
        [POS_INF, POS_INF, 1.0],
        POS_INF,
    );
    r3.origin[0] = NAN;
    assert_eq!(
        box_test(&r3, CH, &boxes([UNIT, ALL, FAR, UNIT]), 0, true, 0),
        [CH[1], CH[0], CH[3], INVALID]
    );
    // Triangles: any NaN operand ⇒ miss, in both return modes.
    let tri = [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]].map(|v| v.map(fb));
    let good = ray(
        [0.25, 0.25, -1.0],
        [0.0, 0.0, 1.0],
        [POS_INF, POS_INF, 1.0],
        POS_INF,
    );
    assert_eq!(
        tri_test(&good, tri[0], tri[1], tri[2], 7, 0),
        [fb(1.0), fb(1.0), 7, 1]
    );
    for k in 0..9 {
        let mut r = good;
        let mut t = tri;
        match k {
            0..=2 => r.origin[k] = NAN,
            3..=5 => r.dir[k - 3] = NAN,
            _ => t[k - 6][k - 6] = NAN,
        }
        assert_eq!(
            tri_test(&r, t[0], t[1], t[2], 7, 0),
            [F32_INF, F32_ONE, 7, 0],
            "{k}"
        );
        assert_eq!(
            tri_test(&r, t[0], t[1], t[2], 7, 1),
            [F32_INF, F32_ONE, 0, 0]
        );
    }
}

#[test]
fn origin_on_a_slab_plane_with_zero_direction() {
    // Ray along +z with dir.x = dir.y = 0 (inverse +Inf). On the plane x = 0 of UNIT:
    // t_lo,x = (0 − 0)·∞ = NaN (ignored), t_hi,x = ∞; y: −∞, ∞; z: 1, 2 ⇒ near 1, far 2: a hit.
    let r = ray(
        [0.0, 0.5, -1.0],
        [0.0, 0.0, 1.0],
        [POS_INF, POS_INF, 1.0],
        POS_INF,
    );
    let c = box_child(&r, &UNIT.map(fb), 0);
    assert_eq!(
        (c.near, c.far, c.min_t, c.max_t, c.hit),
        (fb(1.0), fb(2.0), fb(1.0), fb(2.0), true)
    );
    // On the plane x = 1: t_hi,x = NaN, t_lo,x = −∞ ⇒ the same interval.
    let r1 = ray(
        [1.0, 0.5, -1.0],
        [0.0, 0.0, 1.0],
        [POS_INF, POS_INF, 1.0],
        POS_INF,
    );
    assert!(box_child(&r1, &UNIT.map(fb), 0).hit);
    // dir.x = −0 (inverse −Inf): near/far swap, the NaN moves to far_x and is ignored.
    let r2 = ray(
        [0.0, 0.5, -1.0],
        [-0.0, 0.0, 1.0],
        [f32::NEG_INFINITY, POS_INF, 1.0],
        POS_INF,
    );
    let c2 = box_child(&r2, &UNIT.map(fb), 0);
    assert_eq!((c2.near, c2.far, c2.hit), (fb(1.0), fb(2.0), true));
    // Parallel outside the slab (x = −0.5): t_x = +∞ both ⇒ near = +∞ > far ⇒ miss.
    let r3 = ray(
        [-0.5, 0.5, -1.0],
        [0.0, 0.0, 1.0],
        [POS_INF, POS_INF, 1.0],
        POS_INF,
    );
    assert!(!box_child(&r3, &UNIT.map(fb), 0).hit);
    // Zero direction at a corner: every t_lo is NaN ⇒ near NaN ⇒ miss; a box around it:
    // near = −∞, far = +∞ ⇒ hit with min_t = +0 and max_t = extent.
    let r4 = ray([0.0; 3], [0.0; 3], [POS_INF; 3], 5.0);
    assert!(!box_child(&r4, &UNIT.map(fb), 0).hit);
    let c4 = box_child(&r4, &[-1.0, -1.0, -1.0, 1.0, 1.0, 1.0].map(fb), 0);
    assert_eq!((c4.min_t, c4.max_t, c4.hit), (0, fb(5.0), true));
    // min_t is never −0: a near of −0 (origin on the min plane, moving away from it is +0; here a
    // near of −0 from (−0 − 0)·1) gives +0.
    let r5 = ray([0.0; 3], [1.0; 3], [1.0; 3], 5.0);
    let c5 = box_child(&r5, &[-0.0, -0.0, -0.0, 1.0, 1.0, 1.0].map(fb), 0);
    assert_eq!((c5.near, c5.min_t), (fb(-0.0), 0));
    // The ideal follows the same conventions.
    let s = texpix_tb::bvh::ideal_slab(&r, &UNIT.map(fb));
    assert_eq!((s.near, s.far, s.hit), (1.0, 2.0, true));
    assert!(!texpix_tb::bvh::ideal_slab(&r4, &UNIT.map(fb)).hit);
}

#[test]
fn min_t_equal_to_max_t_is_a_hit() {
    let r = ray([0.0; 3], [1.0; 3], [1.0; 3], POS_INF);
    // A point box on the ray: near = far = 1.
    let c = box_child(&r, &[1.0, 1.0, 1.0, 1.0, 1.0, 1.0].map(fb), 0);
    assert_eq!((c.min_t, c.max_t, c.hit), (fb(1.0), fb(1.0), true));
    // Entry exactly at the extent: hit; one ULP short: miss, and one ULP of growing restores it.
    let b = [2.0f32, 2.0, 2.0, 3.0, 3.0, 3.0].map(fb);
    let at = |e: u32, g: u32| box_child(&Ray { extent: e, ..r }, &b, g).hit;
    assert!(at(fb(2.0), 0));
    assert!(!at(fb(2.0) - 1, 0));
    assert!(at(fb(2.0) - 1, 1));
    assert!(!at(fb(2.0) - 2, 1));
    // An extent of +0 or below is never grown: near = 2^-149 stays a miss even with 255 ULPs.
    let tiny = [f32::from_bits(1), 0.0, 0.0, 1.0, 1.0, 1.0].map(fb);
    for e in [0u32, 0x8000_0000, fb(-1.0)] {
        assert!(
            !box_child(&Ray { extent: e, ..r }, &tiny, 255).hit,
            "{e:#x}"
        );
    }
    // A positive denormal max_t is grown: extent 2^-149, near 3·2^-149 needs two ULPs.
    let near3 = [f32::from_bits(3), 0.0, 0.0, 1.0, 1.0, 1.0].map(fb);
    assert!(!box_child(&Ray { extent: 1, ..r }, &near3, 1).hit);
    assert!(box_child(&Ray { extent: 1, ..r }, &near3, 2).hit);
    // The same ties in the sorter: equal keys keep their order.
    let slab = |z: f32| [0.0, 0.0, z, 1.0, 1.0, z + 1.0];
    let rz = ray(
        [0.5, 0.5, -10.0],
        [0.0, 0.0, 1.0],
        [POS_INF, POS_INF, 1.0],
        POS_INF,
    );
    assert_eq!(
        box_test(
            &rz,
            CH,
            &boxes([slab(2.0), FAR, slab(2.0), slab(1.0)]),
            0,
            true,
            0
        ),
        [CH[3], CH[0], CH[2], INVALID]
    );
}

#[test]
fn grown_max_t_saturates_at_infinity() {
    // x: (+Inf − 0)·1 = +Inf for both planes ⇒ near = +Inf = min_t. y: far = B = 0x7F7FFFF0.
    // max_t = min(B, +Inf) = B. B + 15 ULPs = 0x7F7FFFFF (finite) < +Inf: miss; + 16 = +Inf: hit;
    // + 255 saturates at +Inf (0x7F8000EF would be a NaN): hit.
    let r = ray([0.0; 3], [1.0; 3], [1.0; 3], POS_INF);
    let b = [
        POS_INF,
        0.0,
        0.0,
        POS_INF,
        f32::from_bits(0x7F7F_FFF0),
        POS_INF,
    ]
    .map(fb);
    assert_eq!(box_child(&r, &b, 0).min_t, F32_INF);
    assert_eq!(box_child(&r, &b, 0).max_t, 0x7F7F_FFF0);
    assert_eq!(box_child(&r, &b, 15).max_t, 0x7F7F_FFFF);
    assert!(!box_child(&r, &b, 15).hit);
    assert_eq!(box_child(&r, &b, 16).max_t, F32_INF);
    assert!(box_child(&r, &b, 16).hit);
    assert_eq!(box_child(&r, &b, 255).max_t, F32_INF);
    assert!(box_child(&r, &b, 255).hit);
    // +Inf itself is not grown (not finite), nor is a NaN extent used (ignored by minNum).
    let c = box_child(&Ray { extent: NAN, ..r }, &UNIT.map(fb), 255);
    assert_eq!((c.max_t, c.hit), (fb(1.0) + 255, true));
}

#[test]
fn triangles_by_hand() {
    // Triangle (0,0,0), (1,0,0), (0,1,0); ray from z = −1 along +z. Raw t_denom = −1 ⇒ all signs
    // flipped: t_num = t_denom = 1, I and J the barycentrics of b and c.
    let r = |x: f32, y: f32, z: f32, dz: f32| {
        ray(
            [x, y, z],
            [0.0, 0.0, dz],
            [POS_INF, POS_INF, 1.0 / dz],
            POS_INF,
        )
    };
    let [a, b, c] = [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]].map(|v| v.map(fb));
    let t = |ray: Ray, mode| tri_test(&ray, a, b, c, 0xABCD, mode);
    let (one, q, h) = (fb(1.0), fb(0.25), fb(0.5));
    assert_eq!(t(r(0.25, 0.25, -1.0, 1.0), 0), [one, one, 0xABCD, 1]);
    assert_eq!(t(r(0.25, 0.25, -1.0, 1.0), 1), [one, one, q, q]);
    // On the hypotenuse: I + J = t_denom exactly ⇒ hit.
    assert_eq!(t(r(0.5, 0.5, -1.0, 1.0), 1), [one, one, h, h]);
    // On the vertex a: I = J = +0 raw, −0 after the flip; −0 ≥ 0 ⇒ hit.
    assert_eq!(
        t(r(0.0, 0.0, -1.0, 1.0), 1),
        [one, one, 0x8000_0000, 0x8000_0000]
    );
    // Outside (I + J = 1.5): miss.
    assert_eq!(
        t(r(0.75, 0.75, -1.0, 1.0), 0),
        [F32_INF, F32_ONE, 0xABCD, 0]
    );
    assert_eq!(t(r(0.75, 0.75, -1.0, 1.0), 1), [F32_INF, F32_ONE, 0, 0]);
    // Beyond the hypotenuse by 2^-23 in y: I + J = 1 + 2^-23 > 1, a miss. By 2^-24 (one ULP of
    // 0.5) the exact sum 1 + 2^-24 is a tie that fp_add rounds to even, 1.0: a (rounding) hit.
    assert_eq!(t(r(0.5, f32::from_bits(h + 2), -1.0, 1.0), 0)[3], 0);
    assert_eq!(t(r(0.5, f32::from_bits(h + 1), -1.0, 1.0), 0)[3], 1);
    // Behind the origin (t = −1): miss. From above, going down: raw t_denom = +1, hit at t = 1.
    assert_eq!(t(r(0.25, 0.25, 1.0, 1.0), 0)[3], 0);
    assert_eq!(t(r(0.25, 0.25, 1.0, -1.0), 1), [one, one, q, q]);
    // Origin on the plane: raw t_num = +0 ⇒ −0 after the flip: a hit at t = 0.
    assert_eq!(t(r(0.25, 0.25, 0.0, 1.0), 0), [0x8000_0000, one, 0xABCD, 1]);
    // Parallel ray in the plane: t_denom = 0 ⇒ miss. The extent is not checked.
    let par = ray(
        [0.25, 0.25, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, POS_INF, POS_INF],
        POS_INF,
    );
    assert_eq!(tri_test(&par, a, b, c, 1, 0), [F32_INF, F32_ONE, 1, 0]);
    let short = Ray {
        extent: fb(0.5),
        ..r(0.25, 0.25, -1.0, 1.0)
    };
    assert_eq!(tri_test(&short, a, b, c, 1, 0)[3], 1);
    // Degenerate (collinear) triangle: miss.
    let c2 = [0.5f32, 0.0, 0.0].map(fb);
    assert_eq!(tri_test(&r(0.25, 0.0, -1.0, 1.0), a, b, c2, 1, 0)[3], 0);
}

/// The vertices (a, b, c) each triangle node type tests, typed in from docs/units/bvh.md §8:
/// 0 (v0, v1, v2); 1 (v1, v3, v2); 2 (v2, v3, v4); 3 (v2, v4, v0).
const DOC_TRI_VERTS: [[usize; 3]; 4] = [[0, 1, 2], [1, 3, 2], [2, 3, 4], [2, 4, 0]];

/// A triangle vector of node type `ty` whose tested triple is (a, b, c) by the documented vertex
/// order, the other vertices decoys at (9, 9, 9); the ray goes down +z through (0.25, 0.5).
fn tri_vector(ty: u32, abc: [[f32; 3]; 3], mode: u32) -> BvhTxn {
    let mut verts = vec![[fb(9.0), fb(9.0), fb(9.0)]; 5];
    for (slot, v) in DOC_TRI_VERTS[ty as usize].iter().zip(abc) {
        verts[*slot] = v.map(fb);
    }
    BvhTxn {
        ray: ray(
            [0.25, 0.5, -1.0],
            [0.0, 0.0, 1.0],
            [POS_INF, POS_INF, 1.0],
            POS_INF,
        ),
        a16: false,
        bvh64: false,
        desc: Descriptor {
            return_mode: mode,
            ..Descriptor::default()
        },
        node_ptr: (3 << 3) | u64::from(ty),
        node: Some(Node::Tri {
            verts,
            tri_id: 0x55,
        }),
        instr: Instr::default(),
    }
}

#[test]
fn triangle_node_types_select_their_vertices() {
    // The ray hits (0.25, 0.5) of the triangle a = 0, b = x, c = y: I = 0.25 is b's barycentric
    // numerator, J = 0.5 c's (t_denom = 1), so a vertex taken from the wrong slot or in the wrong
    // order changes the result.
    let tri = [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    for ty in 0..4 {
        let t = tri_vector(ty, tri, 1);
        assert_eq!(
            golden(&t),
            Ok([fb(1.0), fb(1.0), fb(0.25), fb(0.5)]),
            "type {ty}"
        );
        assert_eq!(
            golden(&tri_vector(ty, tri, 0)),
            Ok([fb(1.0), fb(1.0), 0x55, 1])
        );
        // Swapping b and c mirrors the triangle: I and J swap roles, raw t_denom = +1.
        let mirrored = [tri[0], tri[2], tri[1]];
        assert_eq!(
            golden(&tri_vector(ty, mirrored, 1)),
            Ok([fb(1.0), fb(1.0), fb(0.5), fb(0.25)]),
            "type {ty}"
        );
    }
    // Type 1 is (v1, v3, v2): putting the triangle in (v0, v1, v2) instead misses (decoy v3).
    let mut t = tri_vector(0, tri, 0);
    t.node_ptr = (t.node_ptr & !7) | 1;
    assert_eq!(golden(&t), Ok([F32_INF, F32_ONE, 0x55, 0]));
}

/// The T#'s box sorting heuristics (docs/units/bvh.md §7) on three boxes whose three orders all
/// differ. The ray runs up +z from z = −10 (t = z + 10; the x and y slabs span ±∞): A covers
/// t ∈ [0.5, 50], B [1, 2], C [2, 200], D misses. Closest first (min_t 0.5, 1, 2): A B C; largest
/// first (min_t − max_t = −49.5, −1, −198): C A B; closest midpoint (near + far = 50.5, 3, 202):
/// B A C; heuristic 3 sorts as 0. Every key here is exact in f32.
#[test]
fn sorting_heuristics_order_closest_largest_and_midpoint() {
    let rz = ray(
        [0.5, 0.5, -10.0],
        [0.0, 0.0, 1.0],
        [POS_INF, POS_INF, 1.0],
        POS_INF,
    );
    let z = |lo: f32, hi: f32| [0.0, 0.0, lo - 10.0, 1.0, 1.0, hi - 10.0];
    let b = boxes([z(0.5, 50.0), z(1.0, 2.0), z(2.0, 200.0), FAR]);
    let want = [
        [CH[0], CH[1], CH[2], INVALID],
        [CH[2], CH[0], CH[1], INVALID],
        [CH[1], CH[0], CH[2], INVALID],
        [CH[0], CH[1], CH[2], INVALID],
    ];
    for (h, w) in want.iter().enumerate() {
        assert_eq!(
            box_test(&rz, CH, &b, 0, true, h as u32),
            *w,
            "heuristic {h}"
        );
        // Without box_sort_en the heuristic changes nothing.
        assert_eq!(
            box_test(&rz, CH, &b, 0, false, h as u32),
            [CH[0], CH[1], CH[2], INVALID]
        );
    }
    // The same through the whole model, the T# carrying the heuristic, and the ideal reference.
    for h in 0..4u32 {
        let t = BvhTxn {
            ray: rz,
            a16: false,
            bvh64: false,
            desc: Descriptor {
                box_sort: true,
                heuristic: h,
                ..Descriptor::default()
            },
            node_ptr: (7 << 3) | 5,
            node: Some(Node::Box32 {
                children: CH,
                boxes: b,
            }),
            instr: Instr::default(),
        };
        assert_eq!(golden(&t), Ok(want[h as usize]), "heuristic {h}");
        let Ideal::Box(id) = ideal(&t) else {
            panic!("not a box")
        };
        assert_eq!(id.d, want[h as usize], "ideal, heuristic {h}");
    }
    // Largest first breaks an exact tie by the network (equal keys never swap): B and a copy.
    let tie = boxes([z(1.0, 2.0), z(3.0, 4.0), z(1.0, 2.0), FAR]);
    assert_eq!(
        box_test(&rz, CH, &tie, 0, true, 1),
        [CH[0], CH[1], CH[2], INVALID]
    );
}

#[test]
fn sorting_network_orders_by_entry_and_packs_misses() {
    let rz = ray(
        [0.5, 0.5, -10.0],
        [0.0, 0.0, 1.0],
        [POS_INF, POS_INF, 1.0],
        POS_INF,
    );
    let slab = |z: f32| [0.0, 0.0, z, 1.0, 1.0, z + 1.0];
    // Keys 14, 13, 12, 11 (entry at z): sorted closest first.
    let b = boxes([slab(4.0), slab(3.0), slab(2.0), slab(1.0)]);
    assert_eq!(
        box_test(&rz, CH, &b, 0, true, 0),
        [CH[3], CH[2], CH[1], CH[0]]
    );
    assert_eq!(box_test(&rz, CH, &b, 0, false, 0), CH);
    // Misses in slots 0 and 2: packed last when sorting, in place otherwise.
    let b = boxes([FAR, slab(3.0), FAR, slab(1.0)]);
    assert_eq!(
        box_test(&rz, CH, &b, 0, true, 0),
        [CH[3], CH[1], INVALID, INVALID]
    );
    assert_eq!(
        box_test(&rz, CH, &b, 0, false, 0),
        [INVALID, CH[1], INVALID, CH[3]]
    );
    // Origin inside a box: key 0 sorts first.
    let b = boxes([slab(1.0), [0.0, 0.0, -20.0, 1.0, 1.0, 100.0], FAR, FAR]);
    assert_eq!(
        box_test(&rz, CH, &b, 0, true, 0),
        [CH[1], CH[0], INVALID, INVALID]
    );
    // Every permutation of four distinct keys comes out sorted, with misses mixed in.
    let zs = [1.0f32, 2.0, 3.0, 4.0];
    let mut perm = [0usize, 1, 2, 3];
    for _ in 0..24 {
        for miss in 0..16u32 {
            let bx: [[f32; 6]; 4] = std::array::from_fn(|i| {
                if miss >> i & 1 == 1 {
                    FAR
                } else {
                    slab(zs[perm[i]])
                }
            });
            let got = box_test(&rz, CH, &boxes(bx), 0, true, 0);
            let mut want: Vec<(usize, u32)> = (0..4)
                .filter(|i| miss >> i & 1 == 0)
                .map(|i| (perm[i], CH[i]))
                .collect();
            want.sort();
            let mut w: Vec<u32> = want.into_iter().map(|p| p.1).collect();
            w.resize(4, INVALID);
            assert_eq!(got.to_vec(), w, "perm {perm:?} misses {miss:#b}");
        }
        next_permutation(&mut perm);
    }
}

/// The golden model's sorter (`sort_order`, keys as f32 bits under an IEEE `<`) against the sort
/// docs/units/bvh.md §7 defines, exhaustively: every hit pattern and every assignment of four keys
/// from nine values (ties, ±0, ±Inf, NaN, a denormal, negatives). Checked against
/// - the brute-force definition of closest first: the output is one of the 24 orders that put
///   every hit before every miss with the hit keys non-decreasing (the only one when the hit keys
///   differ);
/// - the documented tie rule, the compare-exchange network as the ideal reference writes it out
///   (`closest_first`): among equal keys the order is the network's, not a stable sort's;
/// - a missed child's key never matters: replacing it by NaN gives the same order.
#[test]
fn sort_order_is_closest_first_with_the_documented_tie_rule() {
    let pool: [f32; 9] = [
        0.0,
        -0.0,
        f32::from_bits(1),
        1.0,
        2.0,
        POS_INF,
        f32::NEG_INFINITY,
        -1.0,
        f32::NAN,
    ];
    let mut orders = Vec::new();
    let mut perm = [0usize, 1, 2, 3];
    for _ in 0..24 {
        orders.push(perm);
        next_permutation(&mut perm);
    }
    let golden_sort = |hit: [bool; 4], key: [f32; 4]| {
        sort_order(hit, key.map(fb), |a, b| {
            f32::from_bits(a) < f32::from_bits(b)
        })
    };
    let (mut cases, mut tie_cases, mut unstable) = (0u64, 0u64, 0u64);
    for hits in 0..16u32 {
        let hit: [bool; 4] = std::array::from_fn(|i| hits >> i & 1 == 1);
        for code in 0..9u32.pow(4) {
            let key: [f32; 4] =
                std::array::from_fn(|i| pool[(code / 9u32.pow(i as u32) % 9) as usize]);
            let got = golden_sort(hit, key);
            cases += 1;
            // Hit keys in the hardware's domain: non-negative, not NaN (docs §6: min_t ≥ +0).
            let domain = (0..4).all(|i| !hit[i] || (key[i] >= 0.0 && !key[i].is_nan()));
            if domain {
                let sorted = |p: &[usize; 4]| {
                    let n = hit.iter().filter(|&&h| h).count();
                    p[..n].iter().all(|&i| hit[i])
                        && p[..n].windows(2).all(|w| key[w[0]] <= key[w[1]])
                };
                let valid: Vec<&[usize; 4]> = orders.iter().filter(|p| sorted(p)).collect();
                assert!(
                    valid.contains(&&got),
                    "hits {hit:?} keys {key:?}: {got:?} is not closest first"
                );
                if valid.len() > 1 {
                    tie_cases += 1;
                    let n = hit.iter().filter(|&&h| h).count();
                    let mut stable: Vec<usize> = (0..4).filter(|&i| hit[i]).collect();
                    stable.sort_by(|&a, &b| {
                        key[a]
                            .partial_cmp(&key[b])
                            .expect("domain keys are not NaN")
                    });
                    unstable += u64::from(got[..n] != stable[..]);
                }
            }
            assert_eq!(
                got,
                closest_first(hit, key.map(f64::from)),
                "hits {hit:?} keys {key:?}: not the documented network"
            );
            let nan_misses = std::array::from_fn(|i| if hit[i] { key[i] } else { f32::NAN });
            assert_eq!(
                got,
                golden_sort(hit, nan_misses),
                "hits {hit:?} keys {key:?}"
            );
        }
    }
    // The tie rule matters: some ties come out in an order a stable sort would not give.
    assert!(tie_cases > 0 && unstable > 0, "{tie_cases} {unstable}");
    println!("{cases} cases, {tie_cases} with tied hit keys, {unstable} of them not stable");
}

/// The instruction restrictions, typed in from docs/units/bvh.md §2 (field, the one legal value,
/// the field's width): every field at its legal value, at each neighbour, at the top of its width
/// and beyond it, through the golden model's `check_instr` and the ideal reference's own rule.
#[test]
fn every_instruction_restriction_at_and_beyond_its_boundary() {
    type Set = fn(&mut Instr, u32);
    let doc: [(&str, Set, u32, u32); 8] = [
        ("dmask", |i, v| i.dmask = v, 0xF, 4),
        ("d16", |i, v| i.d16 = v, 0, 1),
        ("r128", |i, v| i.r128 = v, 1, 1),
        ("unrm", |i, v| i.unrm = v, 1, 1),
        ("dim", |i, v| i.dim = v, 0, 3),
        ("lwe", |i, v| i.lwe = v, 0, 1),
        ("tfe", |i, v| i.tfe = v, 0, 1),
        ("ssamp", |i, v| i.ssamp = v, 0, 5),
    ];
    let legal = Instr {
        dmask: 0xF,
        d16: 0,
        r128: 1,
        unrm: 1,
        dim: 0,
        lwe: 0,
        tfe: 0,
        ssamp: 0,
    };
    assert_eq!(Instr::default(), legal);
    assert_eq!(check_instr(&legal), Ok(()));
    assert_eq!(ideal_instr(&legal), Ok(()));
    // The parser's ranges and the check order come from `Instr::LEGAL`.
    let table: Vec<(&str, u32, u32)> = doc.iter().map(|d| (d.0, d.2, d.3)).collect();
    assert_eq!(Instr::LEGAL.to_vec(), table);
    let mut checked = 0;
    for (name, set, required, width) in doc {
        let top = (1u32 << width) - 1;
        let mut values = vec![
            0,
            1,
            required.wrapping_sub(1),
            required,
            required + 1,
            top,
            top + 1,
        ];
        values.extend([u32::MAX, 0x8000_0000 | required]);
        values.sort_unstable();
        values.dedup();
        for value in values {
            let mut i = legal;
            set(&mut i, value);
            let want = if value == required {
                Ok(())
            } else {
                Err(InstrError {
                    field: name,
                    value,
                    required,
                })
            };
            assert_eq!(check_instr(&i), want, "{name} = {value:#x}");
            assert_eq!(ideal_instr(&i), want, "{name} = {value:#x} (ideal)");
            checked += 1;
        }
    }
    // Two broken fields: the one earlier in the documented order is reported.
    for (a, (name, set_a, required_a, _)) in doc.iter().enumerate() {
        for (set_b, required_b) in doc[a + 1..].iter().map(|d| (d.1, d.2)) {
            let mut i = legal;
            set_a(&mut i, required_a ^ 1);
            set_b(&mut i, required_b ^ 1);
            assert_eq!(check_instr(&i).map_err(|e| e.field), Err(*name));
            assert_eq!(ideal_instr(&i).map_err(|e| e.field), Err(*name));
            checked += 1;
        }
    }
    println!("{checked} instructions");
}

fn next_permutation(p: &mut [usize; 4]) {
    let Some(i) = (0..3).rev().find(|&i| p[i] < p[i + 1]) else {
        p.reverse();
        return;
    };
    let j = (i + 1..4).rev().find(|&j| p[j] > p[i]).expect("successor");
    p.swap(i, j);
    p[i + 1..].reverse();
}

// ------------------------------------------------------------------------------------------------
// Conformance examples
// ------------------------------------------------------------------------------------------------

fn examples() -> (Vec<BvhTxn>, Vec<Option<[u32; 4]>>) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let v = read_jsonl(&dir.join("bvh.jsonl"), parse_line).expect("vectors");
    let e = read_jsonl(&dir.join("bvh.expected.jsonl"), |l| {
        let o = parse_object(l)?;
        let d = o.get("d").ok_or_else(|| FieldError::new("d", "missing"))?;
        if d.is_null() {
            return Ok(None);
        }
        let a = d
            .as_array()
            .ok_or_else(|| FieldError::new("d", "not an array"))?;
        let w: Vec<u32> = a
            .iter()
            .map(|x| x.as_u64().unwrap_or(u64::MAX) as u32)
            .collect();
        Ok(Some(
            w.try_into().map_err(|_| FieldError::new("d", "not 4"))?,
        ))
    })
    .expect("expected");
    (v, e)
}

#[test]
fn conformance_examples_are_reproduced_exactly() {
    let (vectors, expected) = examples();
    assert_eq!(vectors.len(), expected.len());
    assert!(vectors.len() >= 30);
    let (mut exact, mut tri_hits, mut ideal_agree) = (0, 0, 0);
    for (k, (t, want)) in vectors.iter().zip(&expected).enumerate() {
        let want = want.expect("every example has a result");
        let got = golden(t).expect("legal instruction");
        let line = k + 1;
        let is_tri = matches!(t.node, Some(Node::Tri { .. }));
        let tri_hit = is_tri && !(want[0] == F32_INF && want[1] == F32_ONE);
        if tri_hit {
            // Hits depend on the f32 operation order: compare with the ideal instead.
            tri_hits += 1;
            let Ideal::Tri { tri, .. } = ideal(t) else {
                panic!("line {line}")
            };
            assert!(tri.hit, "line {line}: the file hits, the ideal misses");
            let t_file = f(want[0]) / f(want[1]);
            assert!((t_file - tri.t).abs() <= 1e-5 * tri.t.abs(), "line {line}");
            continue;
        }
        assert_eq!(
            got, want,
            "line {line}: golden {got:?} vs expected {want:?}"
        );
        exact += 1;
        // The ideal reference, an independent computation, agrees on these away-from-tie lines.
        let id = match ideal(t) {
            Ideal::Box(b) => b.d,
            Ideal::Tri {
                tri,
                tri_id,
                return_mode,
            } => {
                assert!(!tri.hit, "line {line}: ideal hit, expected a miss");
                if return_mode == 0 {
                    [F32_INF, F32_ONE, tri_id, 0]
                } else {
                    [F32_INF, F32_ONE, 0, 0]
                }
            }
            other => panic!("line {line}: {other:?}"),
        };
        if id == want {
            ideal_agree += 1;
        }
    }
    println!("examples: {exact} exact, {tri_hits} triangle hits checked against the ideal, ideal agrees on {ideal_agree}");
    assert_eq!(exact + tri_hits, vectors.len());
    assert_eq!(ideal_agree, exact);
}

// ------------------------------------------------------------------------------------------------
// Golden against ideal
// ------------------------------------------------------------------------------------------------

const U23: f64 = 1.0 / (1u64 << 23) as f64;
/// 2^-148: twice the denormal half-ULP of the two rounded operations of a plane t.
const ABS_T: f64 = 2.0 * 1.401298464324817e-45;
/// 2^-100: above it the absolute denormal term (2^-148) is negligible next to 2^-23·s.
const MIN_NORMAL: f64 = 7.888609052210118e-31;

#[derive(Default, Debug)]
struct BoxReport {
    nodes: u64,
    box16: u64,
    children: u64,
    child_hits: u64,
    d_equal_ideal: u64,
    /// Golden miss / ideal hit within the rounding tolerance.
    rounding_misses: u64,
    /// Golden hit / ideal miss: by rounding alone (gap ≤ 2^-21·s) or needing the growing margin.
    rounding_hits: u64,
    grown_hits: u64,
    /// Rounding disagreements where s < 2^-100 (the absolute denormal term may decide).
    rounding_denormal: u64,
    /// Rounding disagreements with box_grow = 0: golden hit / golden miss. One-sided in practice:
    /// they come from point boxes on the ray (min = max on every axis), where near ≥ far always and
    /// the golden model hits only when the three rounded plane distances coincide.
    rounding_grow0: (u64, u64),
    /// Largest |min_t − max_t| / s at a rounding disagreement with s ≥ 2^-100 (tolerance 2^-21).
    max_rounding_gap: f64,
    /// Largest (gap − rounding tolerance) / growing margin at a growth-only hit (must be ≤ 1).
    max_grow_gap_fraction: f64,
    order_swaps_near_tie: u64,
    /// Largest key difference / max key at an order swap with keys ≥ 2^-100 (tolerance 2^-21).
    max_swap_gap: f64,
    /// Sorted box nodes per heuristic 0…3, and among them nodes whose order differs from the
    /// order heuristic 0 would give.
    sorted_per_heuristic: [u64; 4],
    reordered_per_heuristic: [u64; 4],
    /// Sorted nodes with a hit child whose key is NaN (∞ − ∞, −∞ + ∞) in both models: the
    /// pairwise order is not checked there.
    nan_key_nodes: u64,
    /// Largest key gap / its tolerance at an order swap under heuristics 1 and 2 (must be ≤ 1).
    max_swap_over_tol_h12: f64,
    overflow_disagreements: u64,
}

// Children are addressed by index in both models and in the messages.
#[allow(clippy::needless_range_loop)]
fn check_box(t: &BvhTxn, r: &mut BoxReport) -> Result<(), String> {
    let Ideal::Box(id) = ideal(t) else {
        return Err("ideal is not a box".into());
    };
    let g = golden(t).map_err(|e| e.to_string())?;
    // The per-child detail from the vector's own node (the golden result went through memory).
    let (children, bx) = match t.node.as_ref().expect("box") {
        Node::Box32 { children, boxes } => (*children, *boxes),
        Node::Box16 { children, boxes } => {
            r.box16 += 1;
            (*children, widen_boxes(boxes))
        }
        Node::Tri { .. } => unreachable!(),
    };
    let ray = t.ray_f32();
    let h = t.desc.heuristic;
    let (gc, order) = box_detail(&ray, &bx, t.desc.box_grow, t.desc.box_sort, h);
    if g != box_test(&ray, children, &bx, t.desc.box_grow, t.desc.box_sort, h) {
        return Err("memory round trip changed the result".into());
    }
    r.nodes += 1;
    if g == id.d {
        r.d_equal_ideal += 1;
    }
    let grow = t.desc.box_grow as f64;
    for i in 0..4 {
        r.children += 1;
        r.child_hits += u64::from(gc[i].hit);
        let s = &id.slabs[i];
        if gc[i].hit == s.hit {
            continue;
        }
        if s.overflow {
            r.overflow_disagreements += 1;
            continue;
        }
        if s.near.is_nan() || s.far.is_nan() {
            return Err(format!(
                "child {i}: ideal NaN slab, golden hit {:?} {s:?}",
                gc[i]
            ));
        }
        // Each of min_t, max_t is within 2^-23·|x| + 2^-149 of the ideal (two roundings), so a
        // rounding-only disagreement has |gap| ≤ 2^-22·s + 2^-148; the tolerance is twice that.
        let scale = s.min_t.abs().max(s.max_t.abs());
        let gap = s.min_t - s.max_t;
        let rel = gap.abs() / scale;
        let tol_round = 2.0 * U23 * scale + ABS_T;
        let rounding = |r: &mut BoxReport| {
            if scale < MIN_NORMAL {
                r.rounding_denormal += 1;
            } else {
                r.max_rounding_gap = r.max_rounding_gap.max(rel);
            }
        };
        if gc[i].hit {
            // Growing adds box_grow ULPs of max_t: ≤ box_grow·2^-23·|max_t| (+ box_grow·2^-149).
            let margin = grow * U23 * s.max_t.abs() + grow * ABS_T / 2.0;
            if gap <= tol_round {
                r.rounding_hits += 1;
                r.rounding_grow0.0 += u64::from(grow == 0.0);
                rounding(r);
            } else if gap <= tol_round + margin * (1.0 + 1e-9) {
                r.grown_hits += 1;
                r.max_grow_gap_fraction = r.max_grow_gap_fraction.max((gap - tol_round) / margin);
            } else {
                return Err(format!(
                    "child {i}: golden hit, ideal miss by {gap} (relative {rel:e}), grow {grow}: {:?} {s:?}",
                    gc[i]
                ));
            }
        } else if -gap <= tol_round {
            // Growing never turns a hit into a miss: only rounding.
            r.rounding_misses += 1;
            r.rounding_grow0.1 += u64::from(grow == 0.0);
            rounding(r);
        } else {
            return Err(format!(
                "child {i}: golden miss, ideal hit by {} (relative {rel:e}): {:?} {s:?}",
                -gap, gc[i]
            ));
        }
    }
    if t.desc.box_sort && matches!(h, 1 | 2) {
        // Heuristics 1 and 2: the keys are a difference or sum of two rounded values. The
        // golden key is within e = 2^-23·(|a| + |b|) + 2^-24·|key| + 2·2^-149 of the ideal
        // (a, b the two ideal operands, each within 2^-23·|x| + 2^-149 after two roundings, plus
        // the key's own rounding).
        r.sorted_per_heuristic[h as usize] += 1;
        if order != box_detail(&ray, &bx, t.desc.box_grow, true, 0).1 {
            r.reordered_per_heuristic[h as usize] += 1;
        }
        let bound = |s: &IdealSlab| {
            let (a, b) = if h == 1 {
                (s.min_t, s.max_t)
            } else {
                (s.near, s.far)
            };
            let k = ideal_key(s, h);
            (U23 + U23 * U23) * (a.abs() + b.abs()) + U23 / 2.0 * k.abs() + 3.0 * ABS_T
        };
        // A NaN key (∞ − ∞, −∞ + ∞) of a hit child stops the network from moving entries past
        // it, so the output is then not sorted pairwise: such nodes only check that the golden
        // and ideal keys are NaN for the same children (where both hit without overflow).
        let mut nan_node = false;
        for i in 0..4 {
            let (g_nan, i_nan) = (
                f32::from_bits(sort_key(&gc[i], h)).is_nan(),
                ideal_key(&id.slabs[i], h).is_nan(),
            );
            nan_node |= (gc[i].hit && g_nan) || (id.slabs[i].hit && i_nan);
            if gc[i].hit && id.slabs[i].hit && g_nan != i_nan && !id.slabs[i].overflow {
                return Err(format!(
                    "heuristic {h}: child {i}'s key is NaN in one model only: golden {:e}, \
                     ideal {:e}",
                    f32::from_bits(sort_key(&gc[i], h)),
                    ideal_key(&id.slabs[i], h)
                ));
            }
        }
        if nan_node {
            r.nan_key_nodes += 1;
        }
        for p in 0..4 {
            for q in p + 1..4 {
                let (i, j) = (order[p], order[q]);
                let (si, sj) = (&id.slabs[i], &id.slabs[j]);
                if nan_node || !(gc[i].hit && gc[j].hit && si.hit && sj.hit) {
                    continue;
                }
                let (ki, kj) = (ideal_key(si, h), ideal_key(sj, h));
                if kj < ki {
                    if si.overflow || sj.overflow {
                        r.overflow_disagreements += 1;
                        continue;
                    }
                    let tol = bound(si) + bound(sj);
                    let gap = ki - kj;
                    if gap > tol {
                        return Err(format!(
                            "heuristic {h}: children {i} before {j}, ideal keys {ki} > {kj} \
                             (gap {gap:e}, tolerance {tol:e})"
                        ));
                    }
                    r.order_swaps_near_tie += 1;
                    r.max_swap_over_tol_h12 = r.max_swap_over_tol_h12.max(gap / tol);
                }
            }
        }
    } else if t.desc.box_sort {
        r.sorted_per_heuristic[h as usize] += 1;
        // Output order: for every pair the golden puts i before j, the ideal must not have
        // key_j < key_i by more than the rounding tolerance.
        for p in 0..4 {
            for q in p + 1..4 {
                let (i, j) = (order[p], order[q]);
                if !(gc[i].hit && gc[j].hit && id.slabs[i].hit && id.slabs[j].hit) {
                    continue;
                }
                let (ki, kj) = (id.slabs[i].min_t, id.slabs[j].min_t);
                if kj < ki {
                    if id.slabs[i].overflow || id.slabs[j].overflow {
                        r.overflow_disagreements += 1;
                        continue;
                    }
                    let rel = (ki - kj) / ki.max(kj);
                    if ki - kj > 2.0 * U23 * ki.max(kj) + ABS_T {
                        return Err(format!(
                            "children {i} before {j}, ideal keys {ki} > {kj} (relative {rel:e})"
                        ));
                    }
                    r.order_swaps_near_tie += 1;
                    if kj >= MIN_NORMAL {
                        r.max_swap_gap = r.max_swap_gap.max(rel);
                    }
                }
            }
        }
    } else if order != [0, 1, 2, 3] {
        return Err("order without sorting".into());
    }
    Ok(())
}

#[derive(Default, Debug)]
struct TriReport {
    nodes: u64,
    /// Nodes tested with the watertight option.
    watertight: u64,
    in_range: u64,
    hits_both: u64,
    misses_both: u64,
    disagree_near_boundary: u64,
    disagree_out_of_range: u64,
    nan_operand_misses: u64,
    /// Largest |golden − ideal| / bound over t_num, t_denom, I, J, slack (must be ≤ 1).
    max_err_over_bound: f64,
    /// Largest relative error of t at a common hit, overall and per condition class
    /// κ = a-priori relative bound / 2^-24: ≤ 2^2, ≤ 2^4, ≤ 2^8, ≤ 2^12, larger.
    max_t_rel: f64,
    t_rel_by_kappa: [(u64, f64); 5],
    /// Largest |t error| / its a-priori bound (must be ≤ 1).
    max_t_err_over_bound: f64,
    /// At hit/miss disagreements: the smallest |quantity| / bound over the decision quantities.
    max_boundary_ratio: f64,
}

const U24: f64 = 1.0 / (1u64 << 24) as f64;

fn check_tri(t: &BvhTxn, r: &mut TriReport) -> Result<(), String> {
    let Ideal::Tri {
        tri: id,
        tri_id,
        return_mode,
    } = ideal(t)
    else {
        return Err("ideal is not a triangle".into());
    };
    let d = golden(t).map_err(|e| e.to_string())?;
    let ray = t.ray_f32();
    let Some(Node::Tri { verts, .. }) = &t.node else {
        return Err("no triangle".into());
    };
    let [a, b, c] = TRI_VERTS[(t.node_ptr & 3) as usize].map(|k| verts[k]);
    let gv = if t.desc.watertight {
        r.watertight += 1;
        tri_values_watertight(&ray, a, b, c)
    } else {
        tri_values(&ray, a, b, c)
    };
    r.nodes += 1;
    let nan = |v: &[u32]| v.iter().any(|&x| x & 0x7FFF_FFFF > 0x7F80_0000);
    if nan(&ray.origin) || nan(&ray.dir) || nan(&a) || nan(&b) || nan(&c) {
        // docs/units/bvh.md §8: any NaN makes a compare false ⇒ miss.
        if gv.hit {
            return Err("a NaN operand hit".into());
        }
        r.nan_operand_misses += 1;
    }
    // The returned dwords: misses in the encoding of docs/units/bvh.md §8; hits carry the values
    // checked below.
    let values = if gv.hit {
        if return_mode == 0 {
            if d[2..] != [tri_id, 1] {
                return Err(format!("hit encoding {d:?}"));
            }
            [d[0], d[1], gv.i, gv.j]
        } else {
            d
        }
    } else {
        let miss = if return_mode == 0 {
            [F32_INF, F32_ONE, tri_id, 0]
        } else {
            [F32_INF, F32_ONE, 0, 0]
        };
        if d != miss {
            return Err(format!("miss encoding {d:?}"));
        }
        [gv.t_num, gv.t_denom, gv.i, gv.j]
    };
    if id.in_range() {
        r.in_range += 1;
        // Every quantity within its a-priori bound (compare raw, before the sign correction).
        let sg = if gv.flipped { -1.0 } else { 1.0 };
        let si = if id.flipped { -1.0 } else { 1.0 };
        let q: [(u32, Bounded, &str); 4] = [
            (values[0], id.t_num, "t_num"),
            (values[1], id.t_denom, "t_denom"),
            (values[2], id.i, "I"),
            (values[3], id.j, "J"),
        ];
        for (gbits, b, name) in q {
            let e = (sg * f(gbits) - si * b.v).abs();
            if e.is_nan() || e > b.err {
                return Err(format!(
                    "{name}: golden {} vs ideal {} (error {e:e} > bound {:e})",
                    sg * f(gbits),
                    si * b.v,
                    b.err
                ));
            }
            r.max_err_over_bound =
                r.max_err_over_bound
                    .max(if b.err > 0.0 { e / b.err } else { 0.0 });
        }
        if gv.flipped == id.flipped {
            let gs = f(gv.t_denom) - f(texpix_tb::fpmodel::fp_add(gv.i, gv.j, false));
            let e = (gs - id.slack.v).abs();
            if e.is_nan() || e > id.slack.err {
                return Err(format!(
                    "slack: golden {gs} vs ideal {} (bound {:e})",
                    id.slack.v, id.slack.err
                ));
            }
        }
    }
    match (gv.hit, id.hit) {
        (true, true) => {
            r.hits_both += 1;
            let tg = f(gv.t_num) / f(gv.t_denom);
            let err = (tg - id.t).abs();
            let rel = if id.t != 0.0 { err / id.t.abs() } else { err };
            let (en, ed) = (
                id.t_num.err / id.t_num.v.abs(),
                id.t_denom.err / id.t_denom.v.abs(),
            );
            let bound = if id.t_num.v == 0.0 {
                // t = 0 exactly: the golden t is at most err_num / (|t_denom| − err_den).
                id.t_num.err / (id.t_denom.v - id.t_denom.err)
            } else {
                (en + ed) / (1.0 - ed)
            };
            if id.in_range() && ed < 1.0 {
                if rel.is_nan() || rel > bound * (1.0 + 1e-9) {
                    return Err(format!(
                        "t: golden {tg} ideal {} relative {rel:e} > bound {bound:e}",
                        id.t
                    ));
                }
                r.max_t_err_over_bound =
                    r.max_t_err_over_bound
                        .max(if bound > 0.0 { rel / bound } else { 0.0 });
                r.max_t_rel = r.max_t_rel.max(rel);
                let kappa = bound / U24;
                let k = [4.0, 16.0, 256.0, 4096.0]
                    .iter()
                    .position(|&x| kappa <= x)
                    .unwrap_or(4);
                r.t_rel_by_kappa[k].0 += 1;
                r.t_rel_by_kappa[k].1 = r.t_rel_by_kappa[k].1.max(rel);
            }
        }
        (false, false) => r.misses_both += 1,
        _ => {
            if !id.in_range() {
                r.disagree_out_of_range += 1;
            } else if id.near_boundary() {
                r.disagree_near_boundary += 1;
                let ratio = [id.t_denom, id.i, id.j, id.slack, id.t_num]
                    .iter()
                    .map(|b| b.v.abs() / b.err)
                    .fold(f64::INFINITY, f64::min);
                r.max_boundary_ratio = r.max_boundary_ratio.max(ratio);
            } else {
                return Err(format!(
                    "golden hit {} ideal hit {} away from every boundary: {id:?} golden {gv:?}",
                    gv.hit, id.hit
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn golden_agrees_with_ideal_on_a_million_random_nodes() {
    let mut s = BvhStim::new(2027);
    let (mut br, mut tr) = (BoxReport::default(), TriReport::default());
    let (mut other, mut rejected, mut a16, mut bvh64, mut oob) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let edges = edge_cases().len();
    let mut k = 0usize;
    while br.nodes + tr.nodes < 1_000_000 {
        let t = s.txn();
        k += 1;
        a16 += u64::from(t.a16);
        bvh64 += u64::from(t.bvh64);
        let res = match ideal(&t) {
            Ideal::Rejected(e) => {
                // The ideal's restrictions are its own (ideal_instr), not the golden check_instr.
                rejected += 1;
                if golden(&t) != Err(e) {
                    Err(format!("rejection {e:?} vs {:?}", golden(&t)))
                } else {
                    Ok(())
                }
            }
            Ideal::NoNode => {
                other += 1;
                oob += u64::from(t.node_ptr & 7 < 6);
                if golden(&t) != Ok([INVALID; 4]) || bvh::fetch(&t).is_some() {
                    Err(format!("no-node result {:?}", golden(&t)))
                } else {
                    Ok(())
                }
            }
            Ideal::Box(_) => check_box(&t, &mut br),
            Ideal::Tri { .. } => check_tri(&t, &mut tr),
        };
        if let Err(e) = res {
            panic!(
                "vector {k} ({}): {e}\n{}",
                if k <= edges { "edge case" } else { "random" },
                txn_json(&t)
            );
        }
    }
    println!("{k} vectors ({edges} edge cases first): {} box nodes, {} triangle nodes, {other} without a node ({oob} out of bounds), {rejected} rejected, {a16} A16, {bvh64} BVH64", br.nodes, tr.nodes);
    println!("{br:#?}");
    println!("{tr:#?}");
    println!("| figure | measured | bound |");
    println!("|---|---|---|");
    println!(
        "| box nodes with d = ideal d | {:.4} % | — |",
        100.0 * br.d_equal_ideal as f64 / br.nodes as f64
    );
    println!(
        "| box rounding disagreements: golden hit / golden miss; of them at box_grow 0; s < 2^-100 | {} / {}; {} / {}; {} | — |",
        br.rounding_hits, br.rounding_misses, br.rounding_grow0.0, br.rounding_grow0.1, br.rounding_denormal
    );
    println!(
        "| max \\|min_t − max_t\\|/s at a rounding disagreement | {:.3}·2^-23 | 2·2^-23 |",
        br.max_rounding_gap / U23
    );
    println!(
        "| growth-only hits; max (gap − rounding tolerance) / growing margin | {}; {:.4} | 1 |",
        br.grown_hits, br.max_grow_gap_fraction
    );
    println!(
        "| sort swaps near ties; max key gap | {}; {:.3}·2^-23 | 2·2^-23 |",
        br.order_swaps_near_tie,
        br.max_swap_gap / U23
    );
    println!(
        "| sorted box nodes per heuristic 0…3; reordered vs closest first; NaN-key nodes; max swap gap / tolerance (heuristics 1, 2) | {:?}; {:?}; {}; {:.4} | 1 |",
        br.sorted_per_heuristic,
        br.reordered_per_heuristic,
        br.nan_key_nodes,
        br.max_swap_over_tol_h12
    );
    // Every heuristic is exercised, and 1 and 2 really order differently from closest first.
    assert!(
        br.sorted_per_heuristic.iter().all(|&n| n > 10_000),
        "{br:?}"
    );
    assert!(
        br.reordered_per_heuristic[1] > 1_000 && br.reordered_per_heuristic[2] > 1_000,
        "{br:?}"
    );
    println!(
        "| box disagreements where f32 overflows | {} | counted |",
        br.overflow_disagreements
    );
    println!(
        "| triangle hit/miss disagreements near a boundary; out of range | {}; {} | — |",
        tr.disagree_near_boundary, tr.disagree_out_of_range
    );
    println!(
        "| max \\|golden − ideal\\| / bound (t_num, t_denom, I, J) | {:.4} | 1 |",
        tr.max_err_over_bound
    );
    println!(
        "| max t error / its a-priori bound | {:.4} | 1 |",
        tr.max_t_err_over_bound
    );
    for (i, name) in ["κ ≤ 4", "κ ≤ 16", "κ ≤ 256", "κ ≤ 4096", "κ > 4096"]
        .iter()
        .enumerate()
    {
        let (n, m) = tr.t_rel_by_kappa[i];
        println!(
            "| t relative error, {name} ({n} hits) | {:.3}·2^-24 | κ·2^-24 (κ: a-priori bound / 2^-24; κ > 4096: t ≈ 0 or grazing) |",
            m / U24
        );
    }
    // The stimulus must reach the interesting cases.
    assert!(br.nodes > 400_000 && tr.nodes > 300_000);
    assert!(
        tr.watertight > 80_000,
        "watertight nodes: {}",
        tr.watertight
    );
    assert!(
        br.child_hits > br.children / 5,
        "too few box hits: {}",
        br.child_hits
    );
    assert!(
        tr.hits_both > tr.nodes / 5,
        "too few triangle hits: {}",
        tr.hits_both
    );
    assert!(br.grown_hits > 0 && br.rounding_hits + br.rounding_misses > 0);
    assert!(tr.disagree_near_boundary > 0 || tr.hits_both > 0);
    assert!(
        br.box16 > 50_000 && a16 > 50_000 && bvh64 > 50_000 && rejected > 10_000 && oob > 10_000
    );
    assert!(br.max_rounding_gap <= 2.0 * U23 && br.max_swap_gap <= 2.0 * U23);
    assert!(tr.max_err_over_bound <= 1.0 && tr.max_t_err_over_bound <= 1.0);
    // Well-conditioned hits (κ ≤ 16) are accurate to 16·2^-24 = 2^-20.
    assert!(tr.t_rel_by_kappa[0].1 <= 4.0 * U24 && tr.t_rel_by_kappa[1].1 <= 16.0 * U24);
    // The golden model agrees with the ideal on nearly every box node.
    assert!(br.d_equal_ideal as f64 >= 0.99 * br.nodes as f64);
}

#[test]
fn random_vectors_of_each_kind_round_trip_through_json() {
    let mut s = BvhStim::random_only(5);
    for want in [Want::Box, Want::Box32, Want::Box16, Want::Tri, Want::Any] {
        for _ in 0..5000 {
            let t = s.random_txn(want);
            let line = txn_json(&t).to_string();
            let back = parse_line(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
            assert_eq!(back, t, "{line}");
            match want {
                Want::Box => assert!(matches!(
                    t.node,
                    Some(Node::Box32 { .. } | Node::Box16 { .. })
                )),
                Want::Box32 => assert!(matches!(t.node, Some(Node::Box32 { .. }))),
                Want::Box16 => assert!(matches!(t.node, Some(Node::Box16 { .. }))),
                Want::Tri => assert!(matches!(t.node, Some(Node::Tri { .. }))),
                Want::Any => {}
            }
        }
    }
    for t in edge_cases() {
        let line = txn_json(&t).to_string();
        assert_eq!(
            parse_line(&line).unwrap_or_else(|e| panic!("{e}: {line}")),
            t
        );
    }
}

// ------------------------------------------------------------------------------------------------
// Descriptor, memory layout, fetch
// ------------------------------------------------------------------------------------------------

#[test]
fn descriptor_fields_sit_at_the_spec_bit_positions() {
    let d = Descriptor {
        base: 0xAB_CDEF_0123,
        heuristic: 0,
        box_grow: 0xA5,
        box_sort: true,
        size: Some(0x2_3456_789A),
        return_mode: 1,
        watertight: true,
        rtype: 8,
    };
    // dword0 = base[31:0]; dword1 = base[39:32] | grow << 23 | sort << 31;
    // dword2 = size[31:0]; dword3 = size[41:32] | return_mode << 24 | watertight << 25 | type << 28.
    assert_eq!(
        d.to_bits(),
        [0xCDEF_0123, 0xD280_00AB, 0x3456_789A, 0x8300_0002]
    );
    assert_eq!(Descriptor::from_bits(d.to_bits()), d);
    // Heuristic at [54:53] = dword1 bits 21, 22; size all ones = no limit; other bits ignored.
    let e = Descriptor::from_bits([0, 0x0060_0000 | 0x001F_FF00, 0xFFFF_FFFF, 0x0C00_03FF]);
    assert_eq!(e.heuristic, 3);
    assert_eq!(e.size, None);
    assert_eq!(
        (
            e.base,
            e.box_grow,
            e.box_sort,
            e.return_mode,
            e.watertight,
            e.rtype
        ),
        (0, 0, false, 0, false, 0)
    );
    assert_eq!(
        Descriptor::default().to_bits(),
        [0, 0, 0xFFFF_FFFF, 0x8000_03FF]
    );
    // Round trips on random values: fields ⇄ bits (masked to the modelled bits).
    const MASK: [u32; 4] = [0xFFFF_FFFF, 0xFFE0_00FF, 0xFFFF_FFFF, 0xF300_03FF];
    let mut rng = texpix_sim::SplitMix64::new(9);
    for _ in 0..10_000 {
        let b: [u32; 4] = std::array::from_fn(|_| rng.next_u64() as u32);
        let d = Descriptor::from_bits(b);
        let masked: [u32; 4] = std::array::from_fn(|k| b[k] & MASK[k]);
        assert_eq!(d.to_bits(), masked);
        assert_eq!(Descriptor::from_bits(d.to_bits()), d);
        let x = rng.next_u64();
        let size = x >> 22;
        assert_eq!(
            Descriptor::from_bits(
                Descriptor {
                    size: (size != bvh::SIZE_NO_LIMIT).then_some(size),
                    ..d
                }
                .to_bits()
            )
            .size,
            (size != bvh::SIZE_NO_LIMIT).then_some(size)
        );
    }
}

#[test]
fn node_fetch_address_type_and_bounds() {
    let d = Descriptor {
        base: 0x12,
        size: Some(9),
        ..Descriptor::default()
    };
    // base·256 + index·64.
    let f5 = node_fetch(&d, (5 << 3) | 5).expect("fetch");
    assert_eq!(
        (f5.kind, f5.addr, f5.bytes),
        (NodeKind::Box32, 0x1200 + 5 * 64, 128)
    );
    let f4 = node_fetch(&d, (9 << 3) | 4).expect("index = size is in bounds");
    assert_eq!(
        (f4.kind, f4.addr, f4.bytes),
        (NodeKind::Box16, 0x1200 + 9 * 64, 64)
    );
    assert_eq!(
        node_fetch(&d, (10 << 3) | 4),
        None,
        "index = size + 1 is out of bounds"
    );
    assert_eq!(node_fetch(&d, 2).map(|f| f.kind), Some(NodeKind::Tri(2)));
    assert_eq!(node_fetch(&d, (1 << 3) | 6), None);
    assert_eq!(node_fetch(&d, (1 << 3) | 7), None);
    // BVH64: the whole pointer counts; addresses wrap modulo 2^64.
    let big = Descriptor::default();
    let p = 0xFFFF_FFFF_FFFF_FFF5u64;
    assert_eq!(
        node_fetch(&big, p).map(|f| f.addr),
        Some(0xFFFF_FFFF_FFFF_FF80)
    );
    let based = Descriptor {
        base: 0xFF_FFFF_FFFF,
        ..big
    };
    assert_eq!(
        node_fetch(&based, 5).map(|f| f.addr),
        Some(0xFFFF_FFFF_FF00)
    );
    // Out of bounds and instance nodes return four 0xFFFFFFFF without a fetch.
    let mut t = tri_vector(0, [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], 0);
    t.desc.size = Some(2);
    assert_eq!(golden(&t), Ok([INVALID; 4]));
    assert_eq!(bvh::fetch(&t), None);
    t.desc.size = Some(3);
    assert_eq!(golden(&t).map(|d| d[3]), Ok(1));
    assert!(bvh::fetch(&t).is_some());
}

#[test]
fn memory_layout_matches_the_spec_and_round_trips() {
    let mut m = Memory::new();
    let a = 0x1_0000_0040u64;
    let b32: [[u32; 6]; 4] =
        std::array::from_fn(|i| std::array::from_fn(|c| 0x1000 * i as u32 + c as u32));
    let n32 = Node::Box32 {
        children: CH,
        boxes: b32,
    };
    mem::write_node(&mut m, a, &n32);
    // Children at 0,4,8,12; child i's min xyz at 16 + 24i, max xyz at 28 + 24i.
    assert_eq!(m.read_u32(a + 8), CH[2]);
    assert_eq!(m.read_u32(a + 16 + 24 + 4), 0x1001); // box 1 min y
    assert_eq!(m.read_u32(a + 28 + 72 + 8), 0x3005); // box 3 max z
    assert_eq!(
        m.read_u32(a + 112),
        0,
        "bytes 112…127 of a box32 node are not written"
    );
    assert_eq!(m.read_u8(a + 12), 0x00);
    assert_eq!(m.read_u8(a + 13), 0x04); // little-endian 0x400
    assert_eq!(mem::read_box32(&m, a), (CH, b32));
    // box16: box i's dwords (minx|miny<<16), (minz|maxx<<16), (maxy|maxz<<16) at 16 + 12i.
    let b16: [[u16; 6]; 4] =
        std::array::from_fn(|i| std::array::from_fn(|c| (0x100 * i + c + 1) as u16));
    let a16 = 0x8000u64;
    mem::write_node(
        &mut m,
        a16,
        &Node::Box16 {
            children: CH,
            boxes: b16,
        },
    );
    assert_eq!(m.read_u32(a16 + 16 + 24), 0x0202_0201); // box 2: minx 0x201, miny 0x202
    assert_eq!(m.read_u32(a16 + 16 + 24 + 4), 0x0204_0203); // minz 0x203, maxx 0x204
    assert_eq!(m.read_u32(a16 + 16 + 36 + 8), 0x0306_0305); // box 3: maxy, maxz
    assert_eq!(mem::read_box16(&m, a16), (CH, b16));
    // Triangle: v0…v4 at 0, 12, 24, 36, 48; triangle id at 60.
    let verts: Vec<[u32; 3]> = (0..5)
        .map(|v| std::array::from_fn(|k| 10 * v + k as u32))
        .collect();
    let at = 0xC0u64;
    mem::write_node(
        &mut m,
        at,
        &Node::Tri {
            verts: verts.clone(),
            tri_id: 0xDEAD_BEEF,
        },
    );
    assert_eq!(m.read_u32(at + 36 + 4), 31); // v3.y
    assert_eq!(m.read_u32(at + 48), 40); // v4.x
    assert_eq!(m.read_u32(at + 60), 0xDEAD_BEEF);
    assert_eq!(m.read_line_dwords(at)[15], 0xDEAD_BEEF);
    let (v, id) = mem::read_tri(&m, at);
    assert_eq!((v.to_vec(), id), (verts, 0xDEAD_BEEF));
    // A node across the top of the address space wraps to 0.
    let top = u64::MAX - 63;
    mem::write_node(&mut m, top, &n32);
    assert_eq!(m.read_u32(108 - 64), 0x3005); // box 3 max z at top + 108 = 44
    assert_eq!(mem::read_box32(&m, top), (CH, b32));
}

#[test]
fn golden_reads_the_node_from_memory() {
    let mut t = tri_vector(2, [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], 0);
    t.desc.base = 0x77;
    let mut m = memory_of(&t);
    let addr = 0x77 * 256 + 3 * 64;
    assert_eq!(m.read_u32(addr + 60), 0x55);
    assert_eq!(golden_with_memory(&t, &m), golden(&t));
    assert_eq!(golden(&t), Ok([fb(1.0), fb(1.0), 0x55, 1]));
    // Change the triangle id and move v2 (type 2 tests v2, v3, v4; v2 is a) in memory only.
    m.write_u32(addr + 60, 0x66);
    assert_eq!(golden_with_memory(&t, &m), Ok([fb(1.0), fb(1.0), 0x66, 1]));
    m.write_u32(addr + 24, fb(5.0));
    assert_eq!(golden_with_memory(&t, &m), Ok([F32_INF, F32_ONE, 0x66, 0]));
    // An empty memory reads zeros: a zero triangle is degenerate (miss, id 0).
    assert_eq!(
        golden_with_memory(&t, &Memory::new()),
        Ok([F32_INF, F32_ONE, 0, 0])
    );
}

#[test]
fn rejected_instructions_report_the_field_and_value() {
    let base = tri_vector(0, [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], 0);
    assert!(golden(&base).is_ok());
    for (k, (name, legal, width)) in Instr::LEGAL.iter().enumerate() {
        let mut t = base.clone();
        let bad = if *width == 1 {
            1 - legal
        } else {
            (legal + 1) % (1 << width)
        };
        t.instr.set(k, bad);
        let e = golden(&t).expect_err("rejected");
        assert_eq!((e.field, e.value, e.required), (*name, bad, *legal));
        assert_eq!(bvh::fetch(&t), None);
        let j = result_json(&golden(&t));
        assert!(j["d"].is_null());
        let msg = j["error"].as_str().expect("error text");
        assert!(
            msg.contains(&format!("instr.{name}")) && msg.contains(&format!("{bad:#x}")),
            "{msg}"
        );
    }
    // The first violation in the documented order wins.
    let mut t = base;
    t.instr.ssamp = 3;
    t.instr.d16 = 1;
    assert_eq!(golden(&t).expect_err("rejected").field, "d16");
    assert_eq!(
        result_json(&Ok([1, 2, 3, 4])),
        serde_json::json!({"d": [1, 2, 3, 4]})
    );
}

// ------------------------------------------------------------------------------------------------
// Parser
// ------------------------------------------------------------------------------------------------

const RAY: &str = r#""ray": {"origin": [0, 0, 0], "dir": [0, 0, 1065353216], "inv_dir": [2139095040, 2139095040, 1065353216], "extent": "inf"}"#;
const BOX: &str = r#""node": {"type": "box32", "children": [1, 2, 3, 4], "boxes": [[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,0,0,0]]}"#;
const TRI: &str =
    r#""node": {"type": "tri", "verts": [[0,0,0],[1065353216,0,0],[0,1065353216,0]], "tri_id": 9}"#;

fn line(parts: &[&str]) -> String {
    format!("{{{}}}", parts.join(", "))
}

#[test]
fn parser_accepts_the_spec_forms() {
    let t = parse_line(&line(&[
        RAY,
        r#""desc": {"box_grow": 3, "box_sort": true}"#,
        r#""node_ptr": 5"#,
        BOX,
    ]))
    .expect("box32");
    assert_eq!(
        (t.desc.box_grow, t.desc.box_sort, t.desc.size, t.desc.rtype),
        (3, true, None, 8)
    );
    assert_eq!(t.ray.extent, F32_INF);
    // desc_bits decodes to the same descriptor.
    let bits = t.desc.to_bits();
    let l = line(&[
        RAY,
        &format!(r#""desc_bits": {}"#, serde_json::json!(bits)),
        r#""node_ptr": 5"#,
        BOX,
    ]);
    assert_eq!(parse_line(&l).expect("desc_bits").desc, t.desc);
    // A16: f16 bit patterns or exactly representable values; widened exactly.
    let a16 = r#""ray": {"origin": [0, 0, 0], "dir": [0, "-0.0", 0.5], "inv_dir": [31744, 64512, 2.0], "extent": 1.0}"#;
    let t = parse_line(&line(&[
        a16,
        r#""a16": true"#,
        r#""desc": {}"#,
        r#""node_ptr": 0"#,
        TRI,
    ]))
    .expect("a16");
    assert_eq!(t.ray.dir, [0, 0x8000, 0x3800]);
    assert_eq!(t.ray_f32().dir, [0, 0x8000_0000, fb(0.5)]);
    assert_eq!(t.ray_f32().inv_dir, [F32_INF, 0xFF80_0000, fb(2.0)]);
    assert_eq!(
        t.address_vgprs(),
        vec![0, fb(1.0), 0, 0, 0, 0x7C00_0000, 0xFC00_8000, 0x4000_3800]
    );
    // BVH64 pointer, instance node without `node`, an instr field.
    let t = parse_line(&line(&[
        RAY,
        r#""desc": {"size": 7}"#,
        r#""bvh64": true"#,
        r#""node_ptr": 18446744073709551614"#,
        r#""instr": {"dmask": 15, "tfe": true}"#,
    ]))
    .expect("bvh64");
    assert_eq!(
        (t.node_ptr, t.desc.size, t.instr.tfe),
        (u64::MAX - 1, Some(7), 1)
    );
    assert_eq!(golden(&t).expect_err("tfe").field, "tfe");
    // Out of bounds: `node` may be omitted.
    assert!(parse_line(&line(&[RAY, r#""desc": {"size": 0}"#, r#""node_ptr": 13"#])).is_ok());
}

#[test]
fn parser_errors_name_the_field() {
    let d = r#""desc": {}"#;
    let p5 = r#""node_ptr": 5"#;
    let cases: Vec<(String, &str, &str)> = vec![
        (
            line(&[RAY, d, p5, BOX, r#""colour": 1"#]),
            "colour",
            "unknown",
        ),
        (line(&[d, p5, BOX]), "ray", "missing"),
        (
            line(&[&RAY.replace("[0, 0, 0]", "[0, 0]"), d, p5, BOX]),
            "ray.origin",
            "3 elements",
        ),
        (
            line(&[
                &RAY.replace(r#""extent": "inf""#, r#""extent": "far""#),
                d,
                p5,
                BOX,
            ]),
            "ray.extent",
            "far",
        ),
        (
            line(&[
                &RAY.replace("[0, 0, 1065353216]", "[0, 0, 70000]"),
                r#""a16": true"#,
                d,
                p5,
                BOX,
            ]),
            "ray.dir[2]",
            "0..=65535",
        ),
        (
            line(&[
                &RAY.replace("[0, 0, 1065353216]", "[0, 0, 0.1]"),
                r#""a16": true"#,
                d,
                p5,
                BOX,
            ]),
            "ray.dir[2]",
            "not exactly representable",
        ),
        (line(&[RAY, p5, BOX]), "desc", "missing"),
        (
            line(&[RAY, d, r#""desc_bits": [0, 0, 0, 0]"#, p5, BOX]),
            "desc_bits",
            "not both",
        ),
        (
            line(&[RAY, r#""desc": {"box_grow": 256}"#, p5, BOX]),
            "desc.box_grow",
            "0..=255",
        ),
        (
            line(&[RAY, r#""desc": {"base": 1099511627776}"#, p5, BOX]),
            "desc.base",
            "0..=",
        ),
        (
            line(&[RAY, r#""desc": {"size": 4398046511103}"#, p5, BOX]),
            "desc.size",
            "0..=",
        ),
        (
            line(&[RAY, r#""desc": {"heuristic": 4}"#, p5, BOX]),
            "desc.heuristic",
            "0..=3",
        ),
        (
            line(&[RAY, r#""desc": {"box_sort": 1}"#, p5, BOX]),
            "desc.box_sort",
            "true or false",
        ),
        (
            line(&[RAY, r#""desc": {"return_mode": 2}"#, p5, BOX]),
            "desc.return_mode",
            "0..=1",
        ),
        (
            line(&[RAY, r#""desc": {"colour": 2}"#, p5, BOX]),
            "desc.colour",
            "unknown",
        ),
        (
            line(&[RAY, r#""desc_bits": [0, 0, 0]"#, p5, BOX]),
            "desc_bits",
            "4 elements",
        ),
        (
            line(&[RAY, d, r#""node_ptr": 4294967301"#, BOX]),
            "node_ptr",
            "bvh64",
        ),
        (
            line(&[RAY, d, r#""node_ptr": -5"#, BOX]),
            "node_ptr",
            "0..=",
        ),
        (line(&[RAY, d, BOX]), "node_ptr", "missing"),
        (line(&[RAY, d, p5]), "node", "fetches a node"),
        (
            line(&[RAY, d, r#""node_ptr": 6"#, BOX]),
            "node",
            "fetches no node",
        ),
        (
            line(&[RAY, d, r#""node_ptr": 7"#, TRI]),
            "node",
            "procedural",
        ),
        (line(&[RAY, d, p5, TRI]), "node.type", "disagrees"),
        (
            line(&[RAY, d, r#""node_ptr": 4"#, BOX]),
            "node.type",
            "disagrees",
        ),
        (
            line(&[RAY, d, r#""node_ptr": 2"#, BOX]),
            "node.type",
            "disagrees",
        ),
        (
            line(&[RAY, d, p5, &BOX.replace("box32", "box64")]),
            "node.type",
            "box64",
        ),
        (
            line(&[RAY, d, r#""node_ptr": 1"#, TRI]),
            "node.verts",
            "4…5",
        ),
        (
            line(&[RAY, d, r#""node_ptr": 3"#, TRI]),
            "node.verts",
            "5…5",
        ),
        (
            line(&[
                RAY,
                d,
                r#""node_ptr": 0"#,
                &TRI.replace(r#"[0,0,0],[1065353216"#, r#"[0,0],[1065353216"#),
            ]),
            "node.verts[0]",
            "3 elements",
        ),
        (
            line(&[
                RAY,
                d,
                r#""node_ptr": 0"#,
                &TRI.replace(r#", "tri_id": 9"#, ""),
            ]),
            "node.tri_id",
            "missing",
        ),
        (
            line(&[
                RAY,
                d,
                r#""node_ptr": 0"#,
                &TRI.replace("9}", "4294967296}"),
            ]),
            "node.tri_id",
            "0..=",
        ),
        (
            line(&[RAY, d, p5, &BOX.replace("[1, 2, 3, 4]", "[1, 2, -3, 4]")]),
            "node.children[2]",
            "0..=",
        ),
        (
            line(&[
                RAY,
                d,
                p5,
                r#""node": {"type": "box32", "children": [1, 2, 3, 4], "boxes": [[0,0,0,0,0,0],[0,0,0,0,0,0],[0,0,0,"x",0,0],[0,0,0,0,0,0]]}"#,
            ]),
            "node.boxes[2][3]",
            "x",
        ),
        (
            line(&[
                RAY,
                d,
                r#""node_ptr": 4"#,
                &BOX.replace("box32", "box16")
                    .replace("[[0,0,0,0,0,0],", "[[0,0,0,0,0,65536],"),
            ]),
            "node.boxes[0][5]",
            "0..=65535",
        ),
        (
            line(&[RAY, d, p5, BOX, r#""instr": {"dmask": 16}"#]),
            "instr.dmask",
            "0..=15",
        ),
        (
            line(&[RAY, d, p5, BOX, r#""instr": {"dim": 8}"#]),
            "instr.dim",
            "0..=7",
        ),
        (
            line(&[RAY, d, p5, BOX, r#""instr": {"glc": 1}"#]),
            "instr.glc",
            "unknown",
        ),
        (
            line(&[RAY, d, p5, BOX, r#""a16": 1"#]),
            "a16",
            "true or false",
        ),
        ("[1]".to_string(), "", "JSON object"),
        ("{\"ray\": ".to_string(), "", "bad JSON"),
    ];
    for (l, field, needle) in cases {
        let e = parse_line(&l).expect_err(&l);
        assert_eq!(e.field, field, "{l}: {e}");
        assert!(e.message.contains(needle), "{l}: {e} (wanted `{needle}`)");
    }
}

/// The vector JSON the examples use parses and prints back to the same vector.
#[test]
fn example_lines_round_trip() {
    let (vectors, _) = examples();
    for t in vectors {
        let v: Value = txn_json(&t);
        assert_eq!(parse_line(&v.to_string()).expect("reparse"), t);
    }
}

/// The f32 → f16 conversion the parser and stimulus use: exact on every f16 value, ties to even.
#[test]
fn f32_to_f16_is_exact_on_f16_values_and_rounds_ties_to_even() {
    use texpix_tb::bvh::f32_to_f16;
    use texpix_tb::fpmodel::f16_to_f32;
    for h in 0..=u16::MAX {
        if h & 0x7C00 == 0x7C00 && h & 0x3FF != 0 {
            // NaN: stays a NaN of the same sign.
            let back = f32_to_f16(f16_to_f32(h));
            assert!(back & 0x7C00 == 0x7C00 && back & 0x3FF != 0 && back >> 15 == h >> 15);
            continue;
        }
        assert_eq!(f32_to_f16(f16_to_f32(h)), h, "{h:#06x}");
    }
    let h = |x: f32| f32_to_f16(x.to_bits());
    assert_eq!(h(1.0 + 2f32.powi(-11)), 0x3C00); // tie between 1 and 1 + 2^-10: even
    assert_eq!(h(1.0 + 3.0 * 2f32.powi(-11)), 0x3C02); // tie: rounds up to the even 1 + 2^-9
    assert_eq!(h(1.0 + 2f32.powi(-11) + 2f32.powi(-20)), 0x3C01); // above the tie
    assert_eq!(h(65519.0), 0x7BFF); // below the tie with 65536: 65504
    assert_eq!(h(65520.0), 0x7C00); // tie: to even (2^16, i.e. +Inf)
    assert_eq!(h(-1e9), 0xFC00);
    assert_eq!(h(2f32.powi(-25)), 0x0000); // half the smallest denormal: even (0)
    assert_eq!(h(3.0 * 2f32.powi(-25)), 0x0002); // 1.5 denormal steps: even (2)
    assert_eq!(h(2f32.powi(-14) - 2f32.powi(-25)), 0x0400); // tie at the top of the denormals
    assert_eq!(h(-0.0), 0x8000);
    assert_eq!(h(1e-30), 0x0000);
}

// ------------------------------------------------------------------------------------------------
// Watertight triangle test
// ------------------------------------------------------------------------------------------------

/// Node types 0 (v0, v1, v2) and 1 (v1, v3, v2) of one triangle node share the edge v1–v2. Rays
/// from random origins aimed at points on that edge (the aim point rounded to f32, so it lies a
/// hair to either side), where the two triangles lie on either side of the edge as the ray sees
/// them: with the watertight option (T# bit 121) at least one of the two
/// triangles reports a hit every time — the two edge functions of the shared edge are exact
/// negations — while the plain test lets some rays through both. Both go through the whole golden
/// model (T# decode, memory, vertex selection). `-- --nocapture` prints the counts.
#[test]
fn watertight_test_leaves_no_gap_on_a_shared_edge() {
    let mut rng = texpix_sim::SplitMix64::new(77);
    let mut uni = move |lo: f32, hi: f32| {
        lo + (hi - lo) * ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32)
    };
    let (mut rays, mut folds, mut plain_gaps, mut wt_double) = (0u32, 0u32, 0u32, 0u32);
    for _ in 0..20_000 {
        // A random, convex-enough quad v0, v1, v3, v2 around the origin, scaled up to 2^±20.
        let scale = 2f32.powi(uni(-20.0, 20.0) as i32);
        let mut p = |cx: f32, cy: f32| {
            [
                (cx + uni(-0.3, 0.3)) * scale,
                (cy + uni(-0.3, 0.3)) * scale,
                uni(-0.2, 0.2) * scale,
            ]
        };
        let v0 = p(-1.0, -1.0);
        let v1 = p(1.0, -1.0);
        let v2 = p(-1.0, 1.0);
        let v3 = p(1.0, 1.0);
        let s = uni(0.1, 0.9);
        let aim: [f32; 3] = std::array::from_fn(|k| v1[k] + s * (v2[k] - v1[k]));
        let o = [
            uni(-3.0, 3.0) * scale,
            uni(-3.0, 3.0) * scale,
            uni(2.0, 6.0) * scale * if uni(0.0, 1.0) < 0.5 { 1.0 } else { -1.0 },
        ];
        let d: [f32; 3] = std::array::from_fn(|k| aim[k] - o[k]);
        let r = ray(o, d, d.map(|x| 1.0 / x), POS_INF);
        let verts = vec![v0.map(fb), v1.map(fb), v2.map(fb), v3.map(fb), [0; 3]];
        let hit = |ty: u64, watertight: bool| {
            let t = BvhTxn {
                ray: r,
                a16: false,
                bvh64: false,
                desc: Descriptor {
                    return_mode: 1,
                    watertight,
                    ..Descriptor::default()
                },
                node_ptr: (5 << 3) | ty,
                node: Some(Node::Tri {
                    verts: verts.clone(),
                    tri_id: 1,
                }),
                instr: Instr::default(),
            };
            golden(&t).expect("legal")[0] != F32_INF
        };
        // The far vertices v0 and v3 on opposite sides of the plane through the ray and the shared
        // edge (exactly, in f64: every input is an f32): the two triangles lie on either side of
        // the edge as the ray sees them. Otherwise (a fold seen edge-on) the ray may pass both.
        let e = |v: [f32; 3]| v.map(f64::from);
        let (o64, d64, e1, e2) = (e(o), e(d), e(v1), e(v2));
        let ed: [f64; 3] = std::array::from_fn(|k| e2[k] - e1[k]);
        let n = [
            d64[1] * ed[2] - d64[2] * ed[1],
            d64[2] * ed[0] - d64[0] * ed[2],
            d64[0] * ed[1] - d64[1] * ed[0],
        ];
        let side = |v: [f32; 3]| {
            let v = e(v);
            (0..3).map(|k| n[k] * (v[k] - o64[k])).sum::<f64>()
        };
        if side(v0) * side(v3) >= 0.0 {
            folds += 1;
            continue;
        }
        rays += 1;
        let (p0, p1) = (hit(0, false), hit(1, false));
        let (w0, w1) = (hit(0, true), hit(1, true));
        plain_gaps += u32::from(!p0 && !p1);
        wt_double += u32::from(w0 && w1);
        assert!(
            w0 || w1,
            "ray {rays}: origin {o:?} dir {d:?} verts {v0:?} {v1:?} {v2:?} {v3:?} through the shared edge misses both triangles"
        );
    }
    println!(
        "{rays} rays at a shared edge ({folds} more skipped: the quad folds towards the ray): plain \
         test misses both triangles {plain_gaps} times, the watertight test never (both hit \
         {wt_double} times)"
    );
    assert!(rays > 15_000, "{rays} rays");
    assert!(
        wt_double > 0,
        "the aim points fall on both sides and on the edge"
    );
}
