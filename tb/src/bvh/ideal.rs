//! Ideal BVH reference: f64 geometry on the exact input values (docs/units/bvh.md §6–§8), with the
//! same conventions as the hardware (maxNum/minNum ignoring a NaN plane distance, NaN near/far ⇒
//! miss, min_t = max(near, 0), max_t = min(far, extent), equality is a hit, sign-corrected triangle
//! tests) but none of its arithmetic: no f32 rounding and no box growing. It reads the node from
//! the vector's struct, not from the memory model. It shares no rule with the golden model either:
//! the instruction restrictions ([`ideal_instr`], §2), the vertices each triangle node type tests
//! ([`tri_vertices`], §8) and the child order ([`closest_first`], §7) are written out here again
//! from docs/units/bvh.md, so a wrong entry in the golden model's tables disagrees with them.
//!
//! Besides the decisions it reports what a test needs to judge a disagreement with the golden
//! model: each child's slab interval (distance of min_t to max_t), whether an exact intermediate of
//! the box test leaves f32's range, and for triangles each decision quantity with an a-priori
//! bound on the golden model's error ([`Bounded`]): a running forward error analysis of exactly the
//! golden model's operation order (each f32 operation adds at most 2^-24 of the magnitude of its
//! exact result plus 2^-150 for the denormal range; the f64 evaluation here adds a 2^-48 relative
//! allowance per operation for its own rounding).

use super::{BvhTxn, Instr, InstrError, Node, Ray, INVALID};
use crate::fpmodel::f16_to_f32;

fn f(bits: u32) -> f64 {
    f32::from_bits(bits) as f64
}

/// Largest finite f32 as f64.
const F32_MAX: f64 = f32::MAX as f64;

/// One child's ideal slab test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IdealSlab {
    /// Slab entry and exit (NaN when every axis gave NaN).
    pub near: f64,
    pub far: f64,
    /// max(near, 0) and min(far, extent) (meaningful when neither near nor far is NaN).
    pub min_t: f64,
    pub max_t: f64,
    pub hit: bool,
    /// An exact plane distance or t of this box exceeds f32's range (the f32 test overflows).
    pub overflow: bool,
}

/// maxNum / minNum: a NaN operand is ignored.
fn max_num(a: f64, b: f64) -> f64 {
    a.max(b)
}

fn min_num(a: f64, b: f64) -> f64 {
    a.min(b)
}

/// The ideal slab test of one box (f32 bits) against a ray (f32 bits).
pub fn ideal_slab(ray: &Ray, b: &[u32; 6]) -> IdealSlab {
    let (mut near, mut far) = (f64::NAN, f64::NAN);
    let mut overflow = false;
    for k in 0..3 {
        let o = f(ray.origin[k]);
        let inv = f(ray.inv_dir[k]);
        let mut t = [0.0; 2];
        for (s, p) in [b[k], b[k + 3]].into_iter().enumerate() {
            let d = f(p) - o;
            t[s] = d * inv;
            overflow |=
                (d.is_finite() && d.abs() > F32_MAX) || (t[s].is_finite() && t[s].abs() > F32_MAX);
        }
        let (n, fa) = if ray.inv_dir[k] >> 31 == 0 {
            (t[0], t[1])
        } else {
            (t[1], t[0])
        };
        near = max_num(near, n);
        far = min_num(far, fa);
    }
    let mut r = IdealSlab {
        near,
        far,
        min_t: f64::NAN,
        max_t: f64::NAN,
        hit: false,
        overflow,
    };
    if near.is_nan() || far.is_nan() {
        return r;
    }
    r.min_t = max_num(near, 0.0);
    r.max_t = min_num(far, f(ray.extent));
    r.hit = r.min_t <= r.max_t;
    r
}

/// Child order with sorting (docs/units/bvh.md §7): the compare-exchange network (0,2), (1,3),
/// (0,1), (2,3), (1,2) over (hit, key) entries, exchanging entries A, B iff B hit with
/// key_B < key_A, or A missed. Returns the child index in each output slot: hits first, closest
/// first; a missed child's key is never compared.
pub fn closest_first(hit: [bool; 4], key: [f64; 4]) -> [usize; 4] {
    let mut slot = [0, 1, 2, 3];
    for (a, b) in [(0, 2), (1, 3), (0, 1), (2, 3), (1, 2)] {
        let (x, y) = (slot[a], slot[b]);
        let exchange = !hit[x] || (hit[y] && key[y] < key[x]);
        if exchange {
            slot.swap(a, b);
        }
    }
    slot
}

/// The instruction restrictions (docs/units/bvh.md §2, the RDNA ISA's for image_bvh*), in the
/// documented check order: DMASK = 0xf, D16 = 0, R128 = 1, UNRM = 1, DIM = 0, LWE = 0, TFE = 0,
/// SSAMP = 0. The first field that breaks its rule rejects the instruction.
pub fn ideal_instr(i: &Instr) -> Result<(), InstrError> {
    let rules = [
        ("dmask", i.dmask, 0xF),
        ("d16", i.d16, 0),
        ("r128", i.r128, 1),
        ("unrm", i.unrm, 1),
        ("dim", i.dim, 0),
        ("lwe", i.lwe, 0),
        ("tfe", i.tfe, 0),
        ("ssamp", i.ssamp, 0),
    ];
    match rules
        .into_iter()
        .find(|&(_, value, required)| value != required)
    {
        Some((field, value, required)) => Err(InstrError {
            field,
            value,
            required,
        }),
        None => Ok(()),
    }
}

/// The triangle (a, b, c) node type `ty` (0…3) tests among the node's vertices v0…v4
/// (docs/units/bvh.md §8): 0 (v0, v1, v2); 1 (v1, v3, v2); 2 (v2, v3, v4); 3 (v2, v4, v0).
pub fn tri_vertices(ty: u64, v: &[[u32; 3]]) -> [[u32; 3]; 3] {
    match ty {
        0 => [v[0], v[1], v[2]],
        1 => [v[1], v[3], v[2]],
        2 => [v[2], v[3], v[4]],
        3 => [v[2], v[4], v[0]],
        _ => panic!("node type {ty} is not a triangle"),
    }
}

/// A box node's ideal result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IdealBoxNode {
    pub slabs: [IdealSlab; 4],
    /// Child index in each output slot (identity without sorting).
    pub order: [usize; 4],
    /// The four returned pointers.
    pub d: [u32; 4],
}

/// The exact sort key of a slab under box sorting heuristic `h` (docs/units/bvh.md §7): 0 and 3
/// min_t; 1 min_t − max_t (largest interval first); 2 near + far (twice the midpoint).
pub fn ideal_key(s: &IdealSlab, h: u32) -> f64 {
    match h & 3 {
        1 => s.min_t - s.max_t,
        2 => s.near + s.far,
        _ => s.min_t,
    }
}

/// The ideal box node test (boxes as f32 bits), sorted by heuristic `h`'s exact keys.
pub fn ideal_box(
    ray: &Ray,
    children: [u32; 4],
    boxes: &[[u32; 6]; 4],
    sort: bool,
    h: u32,
) -> IdealBoxNode {
    let slabs: [IdealSlab; 4] = std::array::from_fn(|i| ideal_slab(ray, &boxes[i]));
    let order = if sort {
        closest_first(slabs.map(|s| s.hit), slabs.map(|s| ideal_key(&s, h)))
    } else {
        [0, 1, 2, 3]
    };
    IdealBoxNode {
        slabs,
        order,
        d: order.map(|i| if slabs[i].hit { children[i] } else { INVALID }),
    }
}

/// An ideal value with an a-priori bound on the golden model's error `|golden − v|`, and whether
/// every golden intermediate it depends on is certainly inside f32's finite range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounded {
    pub v: f64,
    pub err: f64,
    pub in_range: bool,
}

const U: f64 = 1.0 / (1u64 << 24) as f64;
const ETA: f64 = f64::from_bits(0x3690_0000_0000_0000); // 2^-150
const F64_SLOP: f64 = 1.0 / (1u64 << 48) as f64;

fn rnd(m: f64) -> f64 {
    (U + F64_SLOP) * m + ETA
}

impl Bounded {
    fn exact(bits: u32) -> Self {
        let v = f(bits);
        Self {
            v,
            err: 0.0,
            in_range: v.is_finite(),
        }
    }

    fn fin(v: f64, err: f64, m: f64, a: &Self, b: &Self) -> Self {
        Self {
            v,
            err,
            in_range: a.in_range && b.in_range && m.is_finite() && m <= F32_MAX * (1.0 - U),
        }
    }

    fn add(&self, o: &Self, sub: bool) -> Self {
        let v = if sub { self.v - o.v } else { self.v + o.v };
        let m = v.abs() + self.err + o.err;
        Self::fin(v, self.err + o.err + rnd(m), m, self, o)
    }

    fn mul(&self, o: &Self) -> Self {
        let v = self.v * o.v;
        let m = (self.v.abs() + self.err) * (o.v.abs() + o.err);
        let prop = self.v.abs() * o.err + o.v.abs() * self.err + self.err * o.err;
        Self::fin(v, prop + rnd(m), m, self, o)
    }

    fn neg(&self) -> Self {
        Self {
            v: -self.v,
            ..*self
        }
    }

    /// True if the golden value may lie on the other side of `threshold` (or equal it) than the
    /// ideal one: `|v − threshold| ≤ err`.
    pub fn near(&self, threshold: f64) -> bool {
        (self.v - threshold).abs() <= self.err
    }
}

type B3 = [Bounded; 3];

fn sub3(u: &B3, v: &B3) -> B3 {
    std::array::from_fn(|k| u[k].add(&v[k], true))
}

fn cross(u: &B3, v: &B3) -> B3 {
    let m = |a: &Bounded, b: &Bounded, c: &Bounded, d: &Bounded| a.mul(b).add(&c.mul(d), true);
    [
        m(&u[1], &v[2], &u[2], &v[1]),
        m(&u[2], &v[0], &u[0], &v[2]),
        m(&u[0], &v[1], &u[1], &v[0]),
    ]
}

fn dot(u: &B3, v: &B3) -> Bounded {
    u[0].mul(&v[0])
        .add(&u[1].mul(&v[1]), false)
        .add(&u[2].mul(&v[2]), false)
}

/// A triangle's ideal test: sign-corrected decision quantities with the golden model's error
/// bounds, the decision, and the shader's quotients.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IdealTri {
    pub t_num: Bounded,
    pub t_denom: Bounded,
    pub i: Bounded,
    pub j: Bounded,
    /// `t_denom − (I + J)` (the golden model compares `fp_add(I, J) ≤ t_denom`).
    pub slack: Bounded,
    /// The exact t_denom was negative (the four values were negated).
    pub flipped: bool,
    /// The watertight test's edge functions U, V, W (their signs decide its hit); `None` for the
    /// plain test.
    pub edges: Option<[Bounded; 3]>,
    pub hit: bool,
    /// t = t_num / t_denom and the barycentrics I / t_denom, J / t_denom.
    pub t: f64,
    pub u: f64,
    pub v: f64,
}

impl IdealTri {
    /// From the raw `[t_num, t_denom, I, J]` (before the sign correction) and, for the watertight
    /// test, its edge functions: the correction, the slack and the exact hit decision — §8's
    /// inequalities for the plain test, consistent edge signs with t_denom > 0 and t_num ≥ 0 for
    /// the watertight one.
    fn from_values(mut q: [Bounded; 4], edges: Option<[Bounded; 3]>) -> Self {
        let flipped = q[1].v < 0.0;
        if flipped {
            q = q.map(|b| b.neg());
        }
        let [t_num, t_denom, i, j] = q;
        let sum = i.add(&j, false);
        let slack = Bounded {
            v: t_denom.v - sum.v,
            err: t_denom.err + sum.err,
            in_range: t_denom.in_range && sum.in_range,
        };
        let inside = match edges {
            None => i.v >= 0.0 && j.v >= 0.0 && i.v + j.v <= t_denom.v,
            Some(e) => e.iter().all(|b| b.v >= 0.0) || e.iter().all(|b| b.v <= 0.0),
        };
        Self {
            t_num,
            t_denom,
            i,
            j,
            slack,
            flipped,
            edges,
            hit: inside && t_denom.v > 0.0 && t_num.v >= 0.0,
            t: t_num.v / t_denom.v,
            u: i.v / t_denom.v,
            v: j.v / t_denom.v,
        }
    }

    /// True if some decision quantity is within its error bound of its threshold (the golden
    /// decision may legitimately differ).
    pub fn near_boundary(&self) -> bool {
        self.edges.is_some_and(|e| e.iter().any(|b| b.near(0.0)))
            || self.t_denom.near(0.0)
            || self.i.near(0.0)
            || self.j.near(0.0)
            || self.slack.near(0.0)
            || self.t_num.near(0.0)
    }

    /// True if every golden intermediate is certainly finite (no f32 overflow, finite inputs).
    pub fn in_range(&self) -> bool {
        [self.t_num, self.t_denom, self.i, self.j, self.slack]
            .iter()
            .chain(self.edges.iter().flatten())
            .all(|b| b.in_range)
    }
}

/// The ideal triangle test (same formulas as the hardware, in f64).
pub fn ideal_tri(ray: &Ray, a: [u32; 3], b: [u32; 3], c: [u32; 3]) -> IdealTri {
    let x = |v: [u32; 3]| v.map(Bounded::exact);
    let (a, b, c) = (x(a), x(b), x(c));
    let (o, d) = (x(ray.origin), x(ray.dir));
    let e1 = sub3(&b, &a);
    let e2 = sub3(&c, &a);
    let e3 = sub3(&o, &a);
    let s1 = cross(&d, &e2);
    let s2 = cross(&e3, &e1);
    IdealTri::from_values(
        [dot(&e2, &s2), dot(&s1, &e1), dot(&e3, &s1), dot(&d, &s2)],
        None,
    )
}

/// The ideal watertight triangle test (docs/units/bvh.md §8a): the golden model's formulas and
/// axis choice in f64 with error bounds; the hit from the exact edge-function signs.
pub fn ideal_tri_watertight(ray: &Ray, a: [u32; 3], b: [u32; 3], c: [u32; 3]) -> IdealTri {
    let x = |v: [u32; 3]| v.map(Bounded::exact);
    let mag = ray.dir.map(|d| d & 0x7FFF_FFFF);
    let kz = if mag[0] >= mag[1] && mag[0] >= mag[2] {
        0
    } else if mag[1] >= mag[2] {
        1
    } else {
        2
    };
    let (kx, ky) = ((kz + 1) % 3, (kz + 2) % 3);
    let (o, d) = (x(ray.origin), x(ray.dir));
    let dz = d[kz];
    let shear = |p: [u32; 3]| {
        let q = sub3(&x(p), &o);
        let xy = |k: usize| q[k].mul(&dz).add(&d[k].mul(&q[kz]), true);
        (xy(kx), xy(ky), q[kz])
    };
    let (pa, pb, pc) = (shear(a), shear(b), shear(c));
    let edge = |p: &(Bounded, Bounded, Bounded), q: &(Bounded, Bounded, Bounded)| {
        p.0.mul(&q.1).add(&p.1.mul(&q.0), true)
    };
    let (u, v, w) = (edge(&pc, &pb), edge(&pa, &pc), edge(&pb, &pa));
    let det = u.add(&v, false).add(&w, false);
    let t_num = u
        .mul(&pa.2)
        .add(&v.mul(&pb.2), false)
        .add(&w.mul(&pc.2), false);
    IdealTri::from_values(
        [t_num, dz.mul(&det), dz.mul(&v), dz.mul(&w)],
        Some([u, v, w]),
    )
}

/// The ideal outcome of one instruction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ideal {
    /// The decoder rejects the instruction.
    Rejected(InstrError),
    /// No node is tested (instance, procedural or out of bounds): four 0xFFFFFFFF.
    NoNode,
    Box(IdealBoxNode),
    Tri {
        tri: IdealTri,
        tri_id: u32,
        return_mode: u32,
    },
}

/// The ideal result of a vector (node from the vector, not from memory).
pub fn ideal(t: &BvhTxn) -> Ideal {
    if let Err(e) = ideal_instr(&t.instr) {
        return Ideal::Rejected(e);
    }
    let ptr_type = t.node_ptr & 7;
    let index = t.node_ptr >> 3;
    if ptr_type >= 6 || t.desc.size.is_some_and(|s| index > s) {
        return Ideal::NoNode;
    }
    let ray = t.ray_f32();
    match t.node.as_ref().expect("a fetching pointer has a node") {
        Node::Box32 { children, boxes } => Ideal::Box(ideal_box(
            &ray,
            *children,
            boxes,
            t.desc.box_sort,
            t.desc.heuristic,
        )),
        Node::Box16 { children, boxes } => {
            let b = boxes.map(|b| b.map(f16_to_f32));
            Ideal::Box(ideal_box(
                &ray,
                *children,
                &b,
                t.desc.box_sort,
                t.desc.heuristic,
            ))
        }
        Node::Tri { verts, tri_id } => {
            let [a, b, c] = tri_vertices(ptr_type, verts);
            Ideal::Tri {
                tri: if t.desc.watertight {
                    ideal_tri_watertight(&ray, a, b, c)
                } else {
                    ideal_tri(&ray, a, b, c)
                },
                tri_id: *tri_id,
                return_mode: t.desc.return_mode,
            }
        }
    }
}

/// The ideal reference as JSON: `{"debug": text}`, the [`Ideal`] outcome's debug text (it has no
/// structured JSON form yet).
pub fn ideal_json(t: &BvhTxn) -> Result<serde_json::Value, String> {
    Ok(serde_json::json!({ "debug": format!("{:?}", ideal(t)) }))
}
