//! Random and edge-case stimulus for the BVH intersector.
//!
//! [`BvhStim::txn`] first returns the fixed edge cases of [`edge_cases`] (NaN rays, zero direction
//! components with ±Inf inverses, origins inside boxes and exactly on slab planes where 0·∞ = NaN,
//! degenerate, inverted, huge and infinite boxes, ±0, grazing hits on edges and corners, t exactly
//! at the extent, growing at 0, 1, 255 ULPs and saturating at +Inf, sorting on and off, all four
//! triangle node types in both return modes with hits inside, on edges and on vertices, parallel
//! and degenerate triangles, t = 0 and behind the origin, A16, BVH64 pointers, the size boundary,
//! instance and procedural nodes, every instruction restriction, denormal coordinates), then random
//! vectors. Random vectors aim most boxes and triangles at the ray (about half hit), use an exact
//! "grid" geometry a quarter of the time (small integers and power-of-two directions, so ties —
//! near = far, near = extent, a ray through an edge or vertex — are exact), and mix in special
//! values, denormal and huge scales, inconsistent inverse directions, A16 (10 %), BVH64 (10 %),
//! bounded descriptors, instance/procedural pointers (4 %) and instruction violations (3 %).

use crate::bvh::{f32_to_f16, BvhTxn, Descriptor, Instr, Node, Ray, TRI_VERTS};
use crate::draw::Draw;
use crate::fpmodel::f16_to_f32;
use texpix_sim::SplitMix64;

const NAN: u32 = 0x7FC0_0000;
const INF: u32 = 0x7F80_0000;
const NEG_INF: u32 = 0xFF80_0000;

/// Special f32 values mixed into operands.
const SPECIAL: [u32; 12] = [
    0x0000_0000, // +0
    0x8000_0000, // -0
    NAN,
    INF,
    NEG_INF,
    0x0000_0001, // smallest denormal
    0x807F_FFFF, // largest negative denormal
    0x0080_0000, // smallest normal
    0x7F7F_FFFF, // largest finite
    0xFF7F_FFFF, // most negative finite
    0x3F80_0000, // 1
    0xBF80_0000, // -1
];

fn fb(x: f32) -> u32 {
    x.to_bits()
}

fn inv(d: u32) -> u32 {
    (1.0 / f32::from_bits(d)).to_bits()
}

/// A ray with inv_dir = 1/dir (f32), as f32 bits.
fn ray_of(o: [f32; 3], d: [f32; 3], extent: f32) -> Ray {
    let dir = d.map(fb);
    Ray {
        origin: o.map(fb),
        dir,
        inv_dir: dir.map(inv),
        extent: fb(extent),
    }
}

fn base_txn(ray: Ray, node_ptr: u64, node: Option<Node>) -> BvhTxn {
    BvhTxn {
        ray,
        a16: false,
        bvh64: false,
        desc: Descriptor::default(),
        node_ptr,
        node,
        instr: Instr::default(),
    }
}

const CHILDREN: [u32; 4] = [0x0000_1005, 0x0000_2004, 0x0000_3000, 0x0000_4003];

fn box_txn(ray: Ray, boxes: [[f32; 6]; 4], grow: u32, sort: bool) -> BvhTxn {
    let mut t = base_txn(
        ray,
        (7 << 3) | 5,
        Some(Node::Box32 {
            children: CHILDREN,
            boxes: boxes.map(|b| b.map(fb)),
        }),
    );
    t.desc.box_grow = grow;
    t.desc.box_sort = sort;
    t
}

fn tri_txn(ray: Ray, abc: [[f32; 3]; 3], ty: u32, mode: u32) -> BvhTxn {
    // The tested triple goes in the slots the type selects; the others hold decoys.
    let mut verts = vec![[fb(100.0), fb(200.0), fb(300.0)]; 5];
    for (slot, v) in TRI_VERTS[ty as usize].iter().zip(abc) {
        verts[*slot] = v.map(fb);
    }
    let mut t = base_txn(
        ray,
        (11 << 3) | u64::from(ty),
        Some(Node::Tri {
            verts,
            tri_id: 0xC0DE_0000 | ty,
        }),
    );
    t.desc.return_mode = mode;
    t
}

/// A box far from everything.
const FAR_BOX: [f32; 6] = [1000.0, 1000.0, 1000.0, 1001.0, 1001.0, 1001.0];
/// The unit cube.
const UNIT: [f32; 6] = [0.0, 0.0, 0.0, 1.0, 1.0, 1.0];

/// The fixed edge cases (the first vectors of every stimulus stream).
pub fn edge_cases() -> Vec<BvhTxn> {
    let mut v = Vec::new();
    let inf = f32::INFINITY;
    let big = f32::MAX;
    let z = [0.0f32, 0.0, 1.0];
    // NaN rays: origin, dir, inv_dir.
    for k in 0..3 {
        let mut r = ray_of([0.5, 0.5, -1.0], z, inf);
        match k {
            0 => r.origin[0] = NAN,
            1 => r.dir[2] = NAN,
            _ => r.inv_dir = [NAN; 3],
        }
        v.push(box_txn(
            r,
            [UNIT, [-inf, -inf, -inf, inf, inf, inf], UNIT, UNIT],
            0,
            true,
        ));
        v.push(tri_txn(
            r,
            [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            0,
            1,
        ));
    }
    // Zero direction components (+0 ⇒ +Inf, −0 ⇒ −Inf inverse), origin on slab planes (0·∞).
    for dz in [0.0f32, -0.0] {
        for ox in [0.0f32, 1.0, 0.5, -0.5] {
            let r = ray_of([ox, 0.5, -1.0], [dz, dz, 1.0], 10.0);
            v.push(box_txn(
                r,
                [
                    UNIT,
                    [0.0, 0.5, 0.0, 1.0, 0.5, 1.0],
                    FAR_BOX,
                    [ox, 0.0, 0.0, ox, 1.0, 1.0],
                ],
                0,
                true,
            ));
        }
        // All three components zero: every plane distance through the corner is NaN.
        let r = ray_of([0.0, 0.0, 0.0], [dz, dz, dz], inf);
        v.push(box_txn(
            r,
            [
                UNIT,
                [-1.0, -1.0, -1.0, 1.0, 1.0, 1.0],
                [0.0; 6],
                [1.0, 1.0, 1.0, 2.0, 2.0, 2.0],
            ],
            0,
            true,
        ));
    }
    // Origin inside, behind the origin, degenerate, inverted, huge and infinite boxes, ±0.
    let r = ray_of([0.25, 0.5, 0.75], [0.6, -0.8, 0.0], 100.0);
    v.push(box_txn(
        r,
        [
            UNIT,
            [-3.0, 0.0, 0.0, -2.0, 1.0, 1.0],
            [0.25, 0.5, 0.75, 0.25, 0.5, 0.75],
            [1.0, 1.0, 1.0, 0.0, 0.0, 0.0],
        ],
        0,
        true,
    ));
    v.push(box_txn(
        r,
        [
            [-big, -big, -big, big, big, big],
            [-inf, -inf, -inf, inf, inf, inf],
            [-0.0, -0.0, -0.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, -0.0, -0.0, -0.0],
        ],
        0,
        true,
    ));
    let r = ray_of([-big, 0.5, 0.5], [1.0, 0.0, 0.0], inf);
    v.push(box_txn(
        r,
        [
            [big, 0.0, 0.0, big, 1.0, 1.0],
            UNIT,
            [-big, 0.0, 0.0, big, 1.0, 1.0],
            [inf, 0.0, 0.0, inf, 1.0, 1.0],
        ],
        0,
        true,
    ));
    // Grazing: a ray through a box corner and along an edge (near = far), and t exactly at the
    // extent (hit) and one ULP short of it (miss).
    let r = ray_of([0.0, 0.0, 0.0], [1.0, 2.0, 4.0], inf);
    v.push(box_txn(
        r,
        [
            [1.0, 2.0, 4.0, 3.0, 5.0, 6.0],
            [0.0, -1.0, 3.0, 1.0, 2.0, 4.0],
            [1.0, 2.0, 4.0, 1.0, 2.0, 4.0],
            [2.0, 2.0, 4.0, 3.0, 3.0, 5.0],
        ],
        0,
        true,
    ));
    for extent in [2.0f32, f32::from_bits(fb(2.0) - 1), 0.0, -0.0, -1.0] {
        let r = ray_of([0.0, 0.0, 0.0], [1.0, 1.0, 1.0], extent);
        v.push(box_txn(
            r,
            [
                [2.0, 2.0, 2.0, 3.0, 3.0, 3.0],
                [-1.0, -1.0, -1.0, 0.0, 0.0, 0.0],
                UNIT,
                [0.5, 0.5, 0.5, 2.0, 2.0, 2.0],
            ],
            0,
            false,
        ));
    }
    // Growing: min_t above max_t by 3 ULPs (hit with grow ≥ 3), and saturation at +Inf.
    let m = f32::from_bits(fb(2.0) + 3);
    for grow in [0, 1, 2, 3, 255] {
        let r = ray_of([0.0, 0.0, 0.0], [1.0, 1.0, 1.0], inf);
        v.push(box_txn(
            r,
            [
                [m, 0.0, 0.0, 3.0, 2.0, 3.0],
                [m, 0.0, 0.0, 3.0, 3.0, 3.0],
                UNIT,
                [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            ],
            grow,
            true,
        ));
        let big2 = f32::from_bits(0x7F7F_FFF0);
        v.push(box_txn(
            r,
            [
                [inf, 0.0, 0.0, inf, big2, inf],
                UNIT,
                [inf, 0.0, 0.0, inf, big, inf],
                FAR_BOX,
            ],
            grow,
            true,
        ));
    }
    // Sorting on and off with every child hit in reverse order, and equal keys.
    for sort in [false, true] {
        let r = ray_of([0.5, 0.5, -10.0], [0.0, 0.0, 1.0], inf);
        let slab = |z0: f32| [0.0, 0.0, z0, 1.0, 1.0, z0 + 1.0];
        v.push(box_txn(
            r,
            [slab(4.0), slab(3.0), slab(2.0), slab(1.0)],
            0,
            sort,
        ));
        v.push(box_txn(
            r,
            [slab(2.0), FAR_BOX, slab(2.0), slab(1.0)],
            0,
            sort,
        ));
        v.push(box_txn(
            r,
            [FAR_BOX, slab(2.0), FAR_BOX, slab(2.0)],
            0,
            sort,
        ));
    }
    // Triangles: every node type, both modes; inside, on an edge, on a vertex, outside.
    let tri = [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    for ty in 0..4 {
        for mode in 0..2 {
            for (x, y) in [
                (0.25f32, 0.25f32),
                (0.5, 0.5),
                (0.0, 0.0),
                (0.5, 0.0),
                (0.75, 0.75),
                (1.0, 0.0),
            ] {
                v.push(tri_txn(ray_of([x, y, -1.0], z, inf), tri, ty, mode));
                v.push(tri_txn(
                    ray_of([x, y, 2.0], [0.0, 0.0, -1.0], inf),
                    tri,
                    ty,
                    mode,
                ));
            }
        }
    }
    for mode in 0..2 {
        // Parallel ray, degenerate triangles, t = 0, behind, extent ignored, ±0 and denormals.
        v.push(tri_txn(
            ray_of([0.25, 0.25, 0.0], [1.0, 0.0, 0.0], inf),
            tri,
            0,
            mode,
        ));
        v.push(tri_txn(
            ray_of([0.25, 0.25, -1.0], [1.0, 1.0, 0.0], inf),
            tri,
            0,
            mode,
        ));
        v.push(tri_txn(
            ray_of([0.25, 0.0, -1.0], z, inf),
            [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 0.0, 0.0]],
            0,
            mode,
        ));
        v.push(tri_txn(
            ray_of([0.0, 0.0, -1.0], z, inf),
            [[0.0, 0.0, 0.0]; 3],
            0,
            mode,
        ));
        v.push(tri_txn(ray_of([0.25, 0.25, 0.0], z, inf), tri, 0, mode));
        v.push(tri_txn(
            ray_of([0.25, 0.25, -0.0], [0.0, 0.0, -1.0], inf),
            tri,
            0,
            mode,
        ));
        v.push(tri_txn(ray_of([0.25, 0.25, 1.0], z, inf), tri, 0, mode));
        v.push(tri_txn(ray_of([0.25, 0.25, -100.0], z, 1.0), tri, 0, mode));
        let d = f32::from_bits(0x0000_0100);
        v.push(tri_txn(
            ray_of([0.25 * d, 0.25 * d, -d], z, inf),
            [[0.0, 0.0, 0.0], [d, 0.0, 0.0], [0.0, d, 0.0]],
            0,
            mode,
        ));
        v.push(tri_txn(
            ray_of([0.25, 0.25, -1.0], z, inf),
            [[0.0, 0.0, 0.0], [inf, 0.0, 0.0], [0.0, 1.0, 0.0]],
            0,
            mode,
        ));
        v.push(tri_txn(
            ray_of([0.25, 0.25, -1.0], z, inf),
            [[0.0, 0.0, 0.0], [big, 0.0, 0.0], [0.0, big, 0.0]],
            0,
            mode,
        ));
    }
    // Denormal boxes.
    let d = f32::from_bits(0x0000_0400);
    v.push(box_txn(
        ray_of([0.0, 0.0, 0.0], [1.0, 1.0, 1.0], inf),
        [
            [d, d, d, 2.0 * d, 2.0 * d, 2.0 * d],
            [-d, -d, -d, 0.0, 0.0, 0.0],
            [d, 0.0, 0.0, 3.0 * d, d, d],
            FAR_BOX,
        ],
        0,
        true,
    ));
    // A16 rays (f16 dir/inv_dir) on box32, box16 and triangles.
    let half = |x: f32| u32::from(f32_to_f16(fb(x)));
    let a16 = |mut t: BvhTxn, d: [f32; 3]| {
        t.a16 = true;
        t.ray.dir = d.map(half);
        t.ray.inv_dir = d.map(|x| half(1.0 / x));
        t
    };
    let r = ray_of([0.5, 0.5, -10.0], [0.0; 3], inf);
    v.push(a16(
        box_txn(
            r,
            [UNIT, FAR_BOX, [0.0, 0.0, 2.0, 1.0, 1.0, 3.0], UNIT],
            0,
            true,
        ),
        [0.0, 0.0, 1.0],
    ));
    v.push(a16(
        box_txn(
            r,
            [UNIT, FAR_BOX, [0.0, 0.0, 2.0, 1.0, 1.0, 3.0], UNIT],
            0,
            true,
        ),
        [0.1, -0.0, 0.7],
    ));
    v.push(a16(
        tri_txn(ray_of([0.25, 0.25, -1.0], [0.0; 3], inf), tri, 2, 1),
        [0.0, 0.0, 1.0],
    ));
    let mut t = box_txn(ray_of([0.5, 0.5, -10.0], z, inf), [UNIT; 4], 0, true);
    let h = |b: [f32; 6]| b.map(|x| f32_to_f16(fb(x)));
    t.node_ptr = (t.node_ptr & !7) | 4;
    t.node = Some(Node::Box16 {
        children: CHILDREN,
        boxes: [
            h(UNIT),
            h(FAR_BOX),
            h([0.0, 0.0, -65504.0, 1.0, 1.0, 65504.0]),
            h([0.0, 0.0, 2.0, 1.0, 1.0, 3.0]),
        ],
    });
    v.push(t.clone());
    v.push(a16(t, [0.0, 0.0, 1.0]));
    // BVH64 pointers, base, and the size boundary (index = size in bounds, size + 1 out).
    let mut t = box_txn(ray_of([0.5, 0.5, -10.0], z, inf), [UNIT; 4], 0, true);
    t.bvh64 = true;
    t.node_ptr = (0x1234_5678_9ABC_DEF0 & !7) | 5;
    t.desc.base = 0xAB_CDEF_0123;
    v.push(t.clone());
    t.node_ptr = (0x3_0000_1234 << 3) | 5;
    for below in [0u64, 1] {
        let mut u = t.clone();
        u.desc.size = Some((u.node_ptr >> 3) - below);
        v.push(u);
    }
    let mut u = tri_txn(ray_of([0.25, 0.25, -1.0], z, inf), tri, 1, 0);
    u.desc.size = Some(10);
    v.push(u.clone());
    u.desc.size = Some(11);
    v.push(u);
    // Instance and procedural nodes.
    for ty in [6u64, 7] {
        v.push(base_txn(ray_of([0.0; 3], z, inf), (3 << 3) | ty, None));
    }
    // Every instruction restriction violated once (and dmask 0x7, dim 1 …).
    for (k, (_, legal, width)) in Instr::LEGAL.iter().enumerate() {
        let mut t = box_txn(ray_of([0.5, 0.5, -10.0], z, inf), [UNIT; 4], 0, true);
        let bad = if *width == 1 {
            1 - legal
        } else {
            (legal + 1) & ((1 << width) - 1)
        };
        t.instr.set(k, bad);
        v.push(t);
    }
    v
}

/// A deterministic BVH vector generator: the edge cases, then random vectors.
#[derive(Clone, Debug)]
pub struct BvhStim {
    rng: SplitMix64,
    edge: std::vec::IntoIter<BvhTxn>,
}

/// `n` vectors from seed `seed`.
pub fn random(seed: u64, n: usize) -> Vec<BvhTxn> {
    let mut s = BvhStim::new(seed);
    (0..n).map(|_| s.txn()).collect()
}

/// `n` random vectors from seed `seed`, all testing a node of kind `want` (no edge cases).
pub fn random_of(seed: u64, n: usize, want: Want) -> Vec<BvhTxn> {
    let mut s = BvhStim::random_only(seed);
    (0..n).map(|_| s.random_txn(want)).collect()
}

/// Which node a random vector tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// A box32 or box16 node.
    Box,
    /// A box32 node.
    Box32,
    /// A box16 node.
    Box16,
    /// A triangle node (types 0–3).
    Tri,
    /// Any node, instance/user nodes included.
    Any,
}

impl Draw for BvhStim {
    fn rng(&mut self) -> &mut SplitMix64 {
        &mut self.rng
    }
}

impl BvhStim {
    pub fn new(seed: u64) -> Self {
        Self {
            rng: SplitMix64::new(seed),
            edge: edge_cases().into_iter(),
        }
    }

    /// Random vectors only (no edge cases first).
    pub fn random_only(seed: u64) -> Self {
        Self {
            rng: SplitMix64::new(seed),
            edge: Vec::new().into_iter(),
        }
    }

    /// The next vector: the edge cases first, then random ones.
    pub fn txn(&mut self) -> BvhTxn {
        self.edge
            .next()
            .unwrap_or_else(|| self.random_txn(Want::Any))
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 1000 < percent * 10
    }

    fn permille(&mut self, p: u64) -> bool {
        self.next() % 1000 < p
    }

    /// Uniform in [-1, 1).
    fn sym(&mut self) -> f64 {
        2.0 * self.unit() - 1.0
    }

    /// 2^u with u uniform in [lo, hi).
    fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        (lo + (hi - lo) * self.unit()).exp2()
    }

    /// A ray and its geometry mode.
    fn ray(&mut self, grid: bool, scale: f64) -> Ray {
        if grid {
            let o = [0; 3].map(|_: u8| self.range(-8, 8) as f32 * self.pick(&[1.0, 1.0, 0.5]));
            let d = [0; 3].map(|_: u8| {
                self.pick(&[
                    0.0f32, -0.0, 0.25, -0.25, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0,
                ])
            });
            let extent = match self.range(0, 4) {
                0 | 1 => f32::INFINITY,
                2 => self.range(0, 12) as f32,
                3 => self.range(0, 24) as f32 * 0.25,
                _ => 1e30,
            };
            return ray_of(o, d, extent);
        }
        let o = [0; 3].map(|_: u8| (scale * self.sym()) as f32);
        let mut d = [0; 3].map(|_: u8| self.sym() as f32);
        if self.chance(12) {
            let k = self.range(0, 2) as usize;
            d[k] = self.pick(&[0.0, -0.0]);
            if self.chance(25) {
                d[(k + 1) % 3] = self.pick(&[0.0, -0.0]);
            }
        }
        let extent = match self.range(0, 9) {
            0..=3 => f32::INFINITY,
            4 | 5 => (scale * 8.0 * self.unit()) as f32,
            6 => 1e30,
            7 => self.pick(&[0.0, -0.0, -1.0, f32::MIN_POSITIVE, 1e-30]),
            8 => f32::from_bits(self.pick(&SPECIAL)),
            _ => (scale * self.unit()) as f32,
        };
        let mut r = ray_of(o, d, extent);
        if self.chance(4) {
            // An inverse direction that does not match the direction.
            let k = self.range(0, 2) as usize;
            r.inv_dir[k] = fb((self.sym() * 4.0) as f32);
        }
        r
    }

    /// Replaces a few operands of the ray by special values or denormal scales.
    fn spoil_ray(&mut self, r: &mut Ray) {
        if self.chance(4) {
            let k = self.range(0, 2) as usize;
            let x = self.pick(&SPECIAL);
            match self.range(0, 2) {
                0 => r.origin[k] = x,
                1 => r.dir[k] = x,
                _ => r.inv_dir[k] = x,
            }
        }
        if self.permille(5) {
            r.origin[self.range(0, 2) as usize] = self.next() as u32;
        }
    }

    /// A point on the ray at parameter t, in f64.
    fn at(r: &Ray, t: f64) -> [f64; 3] {
        std::array::from_fn(|k| {
            f32::from_bits(r.origin[k]) as f64 + t * f32::from_bits(r.dir[k]) as f64
        })
    }

    /// One child box for ray `r` (f32 values).
    fn child_box(&mut self, r: &Ray, grid: bool, scale: f64) -> [f32; 6] {
        let f = |b: u32| f32::from_bits(b) as f64;
        if grid {
            // Integer / half-integer planes, often through the ray's grid points.
            let t = self.range(-2, 8) as f64 * self.pick(&[1.0, 0.5, 0.25]);
            let p = Self::at(r, t);
            let mut b = [0f32; 6];
            for k in 0..3 {
                let lo = (p[k] - self.range(0, 3) as f64 * self.pick(&[1.0, 0.5])) as f32;
                let hi = (p[k] + self.range(0, 3) as f64 * self.pick(&[1.0, 0.5])) as f32;
                b[k] = lo;
                b[k + 3] = hi;
            }
            if self.chance(30) {
                // Shift one axis so the ray only touches a face, edge or corner.
                let k = self.range(0, 2) as usize;
                let w = b[k + 3] - b[k];
                let s = if self.chance(50) { w } else { -w };
                b[k] += s;
                b[k + 3] += s;
            }
            return b;
        }
        match self.range(0, 19) {
            // Around the origin (inside or just outside).
            0 | 1 => {
                let s = scale * self.log_uniform(-6.0, 1.0);
                std::array::from_fn(|c| {
                    let k = c % 3;
                    let o = f(r.origin[k]);
                    let h = s * self.unit();
                    (if c < 3 { o - h } else { o + h }) as f32
                })
            }
            // Degenerate: zero extent on one axis or a point, on the ray.
            2 => {
                let t = scale * self.sym() * 2.0;
                let p = Self::at(r, t);
                let s = scale * self.log_uniform(-8.0, 0.0);
                let flat = self.range(0, 3) as usize;
                std::array::from_fn(|c| {
                    let k = c % 3;
                    if flat == 3 || flat == k {
                        p[k] as f32
                    } else if c < 3 {
                        (p[k] - s * self.unit()) as f32
                    } else {
                        (p[k] + s * self.unit()) as f32
                    }
                })
            }
            // Huge, infinite or special planes.
            3 => std::array::from_fn(|c| {
                let v = f32::from_bits(self.pick(&SPECIAL));
                match self.range(0, 3) {
                    0 => v,
                    1 => (if c < 3 { -f32::MAX } else { f32::MAX }) * self.pick(&[1.0, 0.5, 1e-10]),
                    _ => (scale * self.sym()) as f32,
                }
            }),
            // Inverted on one axis.
            4 => {
                let mut b = self.aimed_box(r, scale);
                let k = self.range(0, 2) as usize;
                b.swap(k, k + 3);
                b
            }
            // Slab plane through the origin on an axis.
            5 => {
                let mut b = self.aimed_box(r, scale);
                let k = self.range(0, 2) as usize;
                b[k + 3 * self.range(0, 1) as usize] = f32::from_bits(r.origin[k]);
                b
            }
            // Random box anywhere.
            6 => std::array::from_fn(|c| {
                let v = (scale * 4.0 * self.sym()) as f32;
                if c < 3 {
                    v
                } else {
                    v.abs()
                }
            }),
            // Arbitrary bit patterns.
            7 if self.chance(20) => [0; 6].map(|_: u8| self.next() as u32).map(f32::from_bits),
            _ => self.aimed_box(r, scale),
        }
    }

    /// A box around a point of the ray (t from behind the origin to far ahead), jittered so about
    /// half hit.
    fn aimed_box(&mut self, r: &Ray, scale: f64) -> [f32; 6] {
        let t = scale * (self.unit() * 5.0 - 1.0);
        let p = Self::at(r, t);
        let s = scale * self.log_uniform(-10.0, 0.0);
        let mut b = [0f32; 6];
        for k in 0..3 {
            let c = p[k] + s * 1.2 * self.sym();
            let h = s * self.unit();
            b[k] = (c - h) as f32;
            b[k + 3] = (c + h) as f32;
        }
        b
    }

    /// A triangle (a, b, c) for ray `r`.
    fn triangle(&mut self, r: &Ray, grid: bool, scale: f64) -> [[f32; 3]; 3] {
        let f = |b: u32| f32::from_bits(b) as f64;
        if grid {
            // Integer vertices around a grid point of the ray: hits on edges and vertices exact.
            let t = self.range(-2, 8) as f64 * self.pick(&[1.0, 0.5]);
            let p = Self::at(r, t);
            return [0; 3].map(|_: u8| {
                std::array::from_fn(|k| {
                    (p[k] + self.range(-2, 2) as f64 * self.pick(&[1.0, 0.5])) as f32
                })
            });
        }
        match self.range(0, 15) {
            // Degenerate: repeated or collinear vertices.
            0 => {
                let a = self.aimed_point(r, scale);
                let b = self.aimed_point(r, scale);
                let w = self.pick(&[0.0, 0.5, 2.0, -1.0]);
                let c = std::array::from_fn(|k| a[k] + w * (b[k] - a[k]));
                [a, b, c].map(|v| v.map(|x| x as f32))
            }
            // Parallel to the ray: the plane contains the direction.
            1 => {
                let a = self.aimed_point(r, scale);
                let b = self.aimed_point(r, scale);
                let s = scale * self.sym();
                let c = std::array::from_fn(|k| a[k] + s * f(r.dir[k]));
                [a, b, c].map(|v| v.map(|x| x as f32))
            }
            // The origin on the triangle's plane (t = 0): one vertex at the origin.
            2 => {
                let o = r.origin.map(f);
                let b = self.aimed_point(r, scale);
                let c = self.aimed_point(r, scale);
                let mut v = [o, b, c].map(|v| v.map(|x| x as f32));
                let k = self.range(0, 2) as usize;
                v.swap(0, k);
                v
            }
            // Special values and arbitrary bits.
            3 => std::array::from_fn(|_| {
                std::array::from_fn(|_| {
                    if self.chance(30) {
                        f32::from_bits(self.pick(&SPECIAL))
                    } else if self.chance(10) {
                        f32::from_bits(self.next() as u32)
                    } else {
                        (scale * self.sym()) as f32
                    }
                })
            }),
            // Through a vertex or along an edge of a triangle around an exact ray point.
            4 => {
                let p = Self::at(r, scale * self.unit() * 3.0);
                let a = p.map(|x| x as f32);
                let b = self.aimed_point(r, scale).map(|x| x as f32);
                let c = self.aimed_point(r, scale).map(|x| x as f32);
                let mut v = [a, b, c];
                v.rotate_left(self.range(0, 2) as usize);
                v
            }
            5..=8 => {
                // Random vertices around a point of the ray (a quarter of them contain it).
                let t = scale * (self.unit() * 5.0 - 1.0);
                let p = Self::at(r, t);
                let s = scale * self.log_uniform(-8.0, 1.0);
                [0; 3].map(|_: u8| std::array::from_fn(|k| (p[k] + s * self.sym()) as f32))
            }
            _ => {
                // A triangle with a point P of the ray at barycentric weights (wa, wb, wc): inside
                // when all are positive (mostly), just outside an edge otherwise.
                let t = scale * (self.unit() * 5.0 - 0.5);
                let p = Self::at(r, t);
                let s = scale * self.log_uniform(-8.0, 1.0);
                let mut w = [0; 3].map(|_: u8| 0.02 + self.unit());
                if self.chance(20) {
                    w[self.range(0, 2) as usize] *= -0.1;
                }
                let u: [f64; 3] = std::array::from_fn(|_| s * self.sym());
                let v: [f64; 3] = std::array::from_fn(|_| s * self.sym());
                // a = P + u, b = P + v, c = P − (wa·u + wb·v)/wc.
                let c: [f64; 3] =
                    std::array::from_fn(|k| p[k] - (w[0] * u[k] + w[1] * v[k]) / w[2]);
                [
                    std::array::from_fn(|k| (p[k] + u[k]) as f32),
                    std::array::from_fn(|k| (p[k] + v[k]) as f32),
                    c.map(|x| x as f32),
                ]
            }
        }
    }

    fn aimed_point(&mut self, r: &Ray, scale: f64) -> [f64; 3] {
        let t = scale * (self.unit() * 5.0 - 1.0);
        let p = Self::at(r, t);
        let s = scale * self.log_uniform(-6.0, 0.0);
        p.map(|x| x + s * self.sym())
    }

    /// One random vector testing a node of the wanted kind.
    pub fn random_txn(&mut self, want: Want) -> BvhTxn {
        let grid = self.chance(25);
        let scale = match self.range(0, 9) {
            0 => self.log_uniform(-140.0, -120.0), // denormal coordinates
            1 => self.log_uniform(20.0, 120.0),    // huge coordinates
            2 => 1.0,
            3 => 1000.0,
            _ => self.log_uniform(-4.0, 8.0),
        };
        let mut ray = self.ray(grid, scale);
        self.spoil_ray(&mut ray);
        let instance = want == Want::Any && self.chance(4);
        let is_tri = match want {
            Want::Box | Want::Box32 | Want::Box16 => false,
            Want::Tri => true,
            Want::Any => self.chance(45),
        };
        let box16 = match want {
            Want::Box16 => true,
            Want::Box32 => false,
            _ => !is_tri && self.chance(20),
        };
        let a16 = self.chance(10);
        if a16 || box16 {
            // Keep the geometry within f16's range most of the time.
            if !grid && self.chance(80) {
                ray = self.ray(false, scale.min(1000.0));
            }
        }
        let ty = if instance {
            self.range(6, 7) as u64
        } else if is_tri {
            self.range(0, 3) as u64
        } else if box16 {
            4
        } else {
            5
        };
        let node = if instance {
            None
        } else if is_tri {
            let abc = self.triangle(&ray, grid, scale);
            let need = [3, 4, 5, 5][ty as usize];
            let n = if self.chance(70) {
                5
            } else {
                self.range(need, 5) as usize
            };
            let mut verts: Vec<[u32; 3]> = (0..n)
                .map(|_| {
                    let p = self.aimed_point(&ray, scale);
                    p.map(|x| fb(x as f32))
                })
                .collect();
            for (slot, v) in TRI_VERTS[ty as usize].iter().zip(abc) {
                verts[*slot] = v.map(fb);
            }
            Some(Node::Tri {
                verts,
                tri_id: self.next() as u32,
            })
        } else {
            let boxes: [[f32; 6]; 4] = [0; 4].map(|_: u8| self.child_box(&ray, grid, scale));
            let children = [0; 4].map(|_: u8| self.next() as u32);
            Some(if box16 {
                Node::Box16 {
                    children,
                    boxes: boxes.map(|b| b.map(|x| f32_to_f16(fb(x)))),
                }
            } else {
                Node::Box32 {
                    children,
                    boxes: boxes.map(|b| b.map(fb)),
                }
            })
        };
        if a16 {
            // f16 direction and its f16 reciprocal (occasionally an unrelated f16 value).
            let d = ray.dir.map(f32_to_f16);
            let i = d.map(|h| f32_to_f16(inv(f16_to_f32(h))));
            ray.dir = d.map(u32::from);
            ray.inv_dir = i.map(u32::from);
            if self.chance(5) {
                ray.inv_dir[self.range(0, 2) as usize] = self.next() as u32 & 0xFFFF;
            }
        }
        let bvh64 = self.chance(10);
        let index = if bvh64 {
            self.next() >> self.range(3, 40)
        } else {
            (self.next() & 0xFFFF_FFFF) >> self.range(3, 28)
        };
        let node_ptr = (index << 3) | ty;
        let mut desc = Descriptor {
            base: if self.chance(30) {
                0
            } else {
                self.next() & ((1 << 40) - 1)
            },
            box_grow: match self.range(0, 9) {
                0..=3 => 0,
                4 | 5 => self.range(1, 8) as u32,
                6 | 7 => 255,
                _ => self.range(0, 255) as u32,
            },
            box_sort: self.chance(75),
            return_mode: self.range(0, 1) as u32,
            heuristic: self.range(0, 3) as u32,
            watertight: self.chance(35),
            ..Descriptor::default()
        };
        let size = match self.range(0, 19) {
            0..=11 => None,
            12..=14 => Some(index + self.range(0, 1000) as u64),
            15 | 16 => Some(index),
            17 => Some(index.saturating_sub(1)),
            _ => Some(index / 2),
        };
        desc.size = size.map(|s| s.min(crate::bvh::SIZE_NO_LIMIT - 1));
        let mut instr = Instr::default();
        if self.chance(3) {
            let k = self.range(0, 7) as usize;
            let (_, legal, width) = Instr::LEGAL[k];
            let mut bad = self.range(0, (1 << width) - 1) as u32;
            if bad == legal {
                bad = (legal + 1) & ((1 << width) - 1);
            }
            instr.set(k, bad);
        }
        BvhTxn {
            ray,
            a16,
            bvh64,
            desc,
            node_ptr,
            node,
            instr,
        }
    }
}
