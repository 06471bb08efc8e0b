//! Property tests of the BVH intersector: proptest-generated streams through the RTL (random memory
//! latency, memory stalls and back-pressure) against the golden model. Coordinates come from a pool
//! that puts the edge cases first: ±0, ±Inf, NaN, denormals, ±f32::MAX, and small integers
//! so that rays run axis-parallel along box faces, edges and corners and triangle edges (grazing
//! hits); directions have zero components (inverse ±Inf), rays start inside boxes or behind them;
//! boxes are degenerate (min = max), inverted or huge.

use proptest::prelude::*;
use texpix_sim::StreamConfig;
use texpix_tb::bvh::dut::{self, MemConfig};
use texpix_tb::bvh::Bvh;
use texpix_tb::bvh::{
    f32_to_f16, golden, txn_json, BvhTxn, Descriptor, Instr, Node, Ray, TRI_VERTS,
};
use texpix_tb::unit::Unit;

/// An f32 coordinate: special values, small integers (exact grid: grazing cases), or any value.
fn coord() -> impl Strategy<Value = u32> {
    prop_oneof![
        2 => prop::sample::select(vec![
            0u32, 0x8000_0000, 0x7FC0_0000, 0x7F80_0000, 0xFF80_0000, 1, 0x8000_0001,
            0x007F_FFFF, 0x7F7F_FFFF, 0xFF7F_FFFF, 0x3F80_0000, 0xBF80_0000,
        ]),
        6 => (-4i32..=4).prop_map(|k| (k as f32).to_bits()),
        3 => (-100.0f32..100.0).prop_map(f32::to_bits),
        1 => any::<u32>(),
    ]
}

/// A direction component: often exactly ±0 (axis-parallel rays) or ±1.
fn dir() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => prop::sample::select(vec![0u32, 0x8000_0000, 0x3F80_0000, 0xBF80_0000]),
        1 => Just(0x7FC0_0000u32),
        1 => Just(1u32),
        4 => (-3.0f32..3.0).prop_map(f32::to_bits),
        1 => any::<u32>(),
    ]
}

/// A ray whose inverse direction is the f32 reciprocal (±Inf for ±0), sometimes an unrelated value.
fn ray() -> impl Strategy<Value = Ray> {
    (
        [coord(), coord(), coord()],
        [dir(), dir(), dir()],
        prop_oneof![
            4 => Just(None),
            1 => [coord(), coord(), coord()].prop_map(Some),
        ],
        prop::sample::select(vec![
            0x7F80_0000u32, // +Inf
            0x4120_0000,    // 10
            0x3F80_0000,    // 1
            0,              // 0: only t = 0 hits
            0x7FC0_0000,    // NaN
            0xBF80_0000,    // -1
        ]),
    )
        .prop_map(|(origin, dir, inv, extent)| Ray {
            origin,
            dir,
            inv_dir: inv.unwrap_or(dir.map(|d| (1.0 / f32::from_bits(d)).to_bits())),
            extent,
        })
}

/// A box `[min xyz, max xyz]`: ordered, degenerate (min = max), inverted or arbitrary.
fn aabb() -> impl Strategy<Value = [u32; 6]> {
    (
        [coord(), coord(), coord()],
        [coord(), coord(), coord()],
        0u8..4,
    )
        .prop_map(|(a, b, how)| {
            let (fa, fb) = (a.map(f32::from_bits), b.map(f32::from_bits));
            let pick = |k: usize, lo: bool| {
                let (x, y) = (fa[k], fb[k]);
                if (x <= y) == lo {
                    a[k]
                } else {
                    b[k]
                }
            };
            match how {
                0 | 1 => [
                    pick(0, true),
                    pick(1, true),
                    pick(2, true),
                    pick(0, false),
                    pick(1, false),
                    pick(2, false),
                ],
                2 => [a[0], a[1], a[2], a[0], a[1], a[2]],
                _ => [a[0], a[1], a[2], b[0], b[1], b[2]],
            }
        })
}

/// A point on the ray (origin + t·dir in f32, t ∈ {0, ½, 1, 2, 5}), or the origin if that is not
/// finite: geometry placed around it is hit, grazed or just missed.
fn anchor(ray: &Ray) -> impl Strategy<Value = [f32; 3]> {
    let (o, d) = (ray.origin.map(f32::from_bits), ray.dir.map(f32::from_bits));
    prop::sample::select(vec![0.0f32, 0.5, 1.0, 2.0, 5.0]).prop_map(move |t| {
        let p = [0, 1, 2].map(|k| o[k] + t * d[k]);
        if p.iter().all(|x| x.is_finite()) {
            p
        } else {
            [0, 1, 2].map(|k| if o[k].is_finite() { o[k] } else { 0.0 })
        }
    })
}

/// A box around the ray's anchor, its faces 0, ½, 1 or 2 away (0: the ray grazes a face, edge or
/// corner), or an arbitrary box.
fn aimed_aabb(ray: &Ray) -> impl Strategy<Value = [u32; 6]> {
    let reach = || prop::sample::select(vec![0.0f32, 0.5, 1.0, 2.0]);
    prop_oneof![
        2 => (anchor(ray), [reach(), reach(), reach()], [reach(), reach(), reach()]).prop_map(
            |(p, lo, hi)| {
                let b = [0, 1, 2, 3, 4, 5].map(|i| if i < 3 { p[i] - lo[i] } else { p[i - 3] + hi[i - 3] });
                b.map(f32::to_bits)
            }
        ),
        1 => aabb(),
    ]
}

/// A triangle vertex near the ray's anchor (integer offsets: edges and vertices lie on the ray
/// often), or an arbitrary one.
fn aimed_vertex(ray: &Ray) -> impl Strategy<Value = [u32; 3]> {
    prop_oneof![
        3 => (anchor(ray), [-2i8..=2, -2i8..=2, -2i8..=2])
            .prop_map(|(p, off)| [0, 1, 2].map(|k| (p[k] + f32::from(off[k])).to_bits())),
        1 => [coord(), coord(), coord()],
    ]
}

/// Half the time, a triangle whose centroid is the ray's anchor (vertices p + u, p + v,
/// p − u − v for integer u, v), so the ray passes through it unless it is parallel or degenerate.
fn around(ray: &Ray) -> impl Strategy<Value = Option<[[u32; 3]; 3]>> {
    let int3 = || [-2i8..=2, -2i8..=2, -2i8..=2];
    prop_oneof![
        1 => Just(None),
        1 => (anchor(ray), int3(), int3()).prop_map(|(p, u, v)| {
            let at = |w: [i8; 3]| [0, 1, 2].map(|k| (p[k] + f32::from(w[k])).to_bits());
            let w = [0, 1, 2].map(|k| -u[k] - v[k]);
            Some([at(u), at(v), at(w)])
        }),
    ]
}

fn node(ray: &Ray) -> impl Strategy<Value = (u64, Node)> {
    let children = [any::<u32>(), any::<u32>(), any::<u32>(), any::<u32>()];
    let boxes = || {
        [
            aimed_aabb(ray),
            aimed_aabb(ray),
            aimed_aabb(ray),
            aimed_aabb(ray),
        ]
    };
    prop_oneof![
        (children, boxes()).prop_map(|(children, boxes)| { (5, Node::Box32 { children, boxes }) }),
        (children, boxes()).prop_map(|(children, boxes)| {
            let boxes = boxes.map(|b| b.map(f32_to_f16));
            (4, Node::Box16 { children, boxes })
        }),
        (
            0u64..4,
            prop::collection::vec(aimed_vertex(ray), 5),
            around(ray),
            any::<u32>()
        )
            .prop_map(|(ty, mut verts, around, tri_id)| {
                if let Some(abc) = around {
                    for (slot, v) in TRI_VERTS[ty as usize].iter().zip(abc) {
                        verts[*slot] = v;
                    }
                }
                (ty, Node::Tri { verts, tri_id })
            }),
    ]
}

fn txn() -> impl Strategy<Value = BvhTxn> {
    (
        ray().prop_flat_map(|r| (Just(r), node(&r))),
        0u64..64,
        (0u32..=255, any::<bool>(), 0u32..2),
        prop_oneof![9 => Just(false), 1 => Just(true)],
        prop_oneof![19 => Just(false), 1 => Just(true)],
    )
        .prop_map(
            |((ray, (ty, node)), index, (grow, sort, mode), a16, bvh64)| {
                let mut ray = ray;
                if a16 {
                    ray.dir = ray.dir.map(|d| u32::from(f32_to_f16(d)));
                    ray.inv_dir = ray.inv_dir.map(|d| u32::from(f32_to_f16(d)));
                }
                let desc = Descriptor {
                    box_grow: grow,
                    box_sort: sort,
                    return_mode: mode,
                    ..Descriptor::default()
                };
                BvhTxn {
                    ray,
                    a16,
                    bvh64,
                    desc,
                    node_ptr: (index << 3) | ty,
                    node: Some(node),
                    instr: Instr::default(),
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn rtl_equals_golden_on_generated_streams(
        vectors in prop::collection::vec(txn(), 1..60),
        stall in prop_oneof![Just(0u32), 100u32..700],
        latency in (1u64..30, 0u64..30),
        mem_stall in prop_oneof![Just(0u32), 0u32..500],
        seed in any::<u64>(),
    ) {
        let mut sim = Bvh::new_sim().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let cfg = StreamConfig {
            in_idle_permille: stall,
            out_stall_permille: stall,
            seed,
            max_idle_cycles: 1000,
        };
        let mem = MemConfig {
            min_latency: latency.0,
            max_latency: latency.0 + latency.1,
            stall_permille: mem_stall,
        };
        let (results, _, _) = dut::run_with_memory(&mut sim, &vectors, &cfg, &mem)
            .map_err(TestCaseError::fail)?;
        prop_assert_eq!(results.len(), vectors.len());
        for (k, (t, r)) in vectors.iter().zip(&results).enumerate() {
            prop_assert_eq!(
                r.out,
                golden(t),
                "vector {} at cycle {}: input {}",
                k,
                r.cycle_out,
                txn_json(t)
            );
        }
    }
}

/// The generator is worth its cases: box children and triangles both hit and miss often.
#[test]
fn generated_nodes_both_hit_and_miss() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = txn();
    let (mut box_hits, mut box_misses, mut tri_hits, mut tri_misses) = (0, 0, 0, 0);
    for _ in 0..4000 {
        let t = strategy.new_tree(&mut runner).expect("tree").current();
        let r = golden(&t).expect("legal instruction");
        match t.node {
            Some(Node::Tri { .. }) => {
                // A miss returns t_num = +Inf.
                if r[0] == 0x7F80_0000 {
                    tri_misses += 1
                } else {
                    tri_hits += 1
                }
            }
            _ => {
                let hits = r.iter().filter(|&&c| c != u32::MAX).count();
                box_hits += hits;
                box_misses += 4 - hits;
            }
        }
    }
    println!("box children hit {box_hits} missed {box_misses}; triangles hit {tri_hits} missed {tri_misses}");
    for (what, n) in [
        ("box hits", box_hits),
        ("box misses", box_misses),
        ("triangle hits", tri_hits),
        ("triangle misses", tri_misses),
    ] {
        assert!(n >= 200, "only {n} {what} in 4000 generated vectors");
    }
}
