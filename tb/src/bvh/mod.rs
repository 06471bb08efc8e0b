//! The BVH box/triangle intersector's transactions, its bit-accurate golden model, the memory it
//! reads nodes from, and the ideal f64 reference (docs/units/bvh.md: IMAGE_BVH_INTERSECT_RAY and
//! IMAGE_BVH64_INTERSECT_RAY).
//!
//! # The hardware algorithm (the RTL computes exactly this)
//! All f32 arithmetic is the shared fp32 library ([`crate::fpmodel`]: round to nearest even,
//! denormals kept, a NaN result is the canonical NaN 0x7FC00000), each operation rounded, in the
//! order written.
//!
//! **0. Instruction.** The decoder checks the AMD RDNA ISA's restrictions for image_bvh*:
//! DMASK = 0xf, D16 = 0, R128 = 1, UNRM = 1, DIM = 0, LWE = 0, TFE = 0, SSAMP = 0, in that order;
//! the first violation rejects the instruction ([`InstrError`], no memory fetch, no `d`).
//!
//! **1. Ray.** [`Ray`]`{origin, dir, inv_dir, extent}` as f32 bits. With A16 the vector's `dir` and
//! `inv_dir` are f16 bits (VGPR packing `dx | ix<<16`, `dy | iy<<16`, `dz | iz<<16`), widened
//! exactly ([`crate::fpmodel::f16_to_f32`]) before anything else; origin and extent stay f32.
//!
//! **2. Node pointer and fetch.** node type = `ptr[2:0]`, node index = `ptr >> 3` (BVH64: a 64-bit
//! pointer), byte address = `base·256 + index·64` (modulo 2^64). Types 0–3 triangle (64 bytes),
//! 4 box16 (64 bytes), 5 box32 (128 bytes), 6 instance/user and 7 procedural: no fetch, result
//! four 0xFFFFFFFF (documented choice for 7: this unit has no procedural test). If the descriptor's
//! `size` field is not all ones and `index > size`, the node is out of bounds: no fetch, result four
//! 0xFFFFFFFF (only the node's first 64-byte index is checked, also for 128-byte box32 nodes).
//! [`node_fetch`] says whether a fetch happens and where.
//!
//! **3. Box node** (box16: the 24 f16 coordinates widened exactly first). Per child i with box
//! `[minx, miny, minz, maxx, maxy, maxz]`, per axis k:
//! `t_lo = fp_mul(fp_add(min_k, origin_k, sub), inv_dir_k)`,
//! `t_hi = fp_mul(fp_add(max_k, origin_k, sub), inv_dir_k)`; inv_dir_k's sign bit clear ⇒
//! `near_k = t_lo, far_k = t_hi`, set ⇒ swapped.
//! `near = maxNum(maxNum(near_x, near_y), near_z)`, `far = minNum(minNum(far_x, far_y), far_z)`
//! (fp_cmp's max/min: a NaN operand is ignored, both NaN ⇒ NaN, −0 < +0).
//! near or far NaN ⇒ miss. `min_t = maxNum(near, +0)` (never −0), `max_t = minNum(far, extent)`
//! (so a NaN extent is ignored). Growing: if `max_t` is positive (> 0, denormals included) and
//! finite, `max_t_bits = min(max_t_bits + box_grow, 0x7F800000)`. Hit iff `min_t ≤ max_t` (IEEE
//! compare; equality is a hit). Entry i = (valid = hit, key, ptr = child i), the key by the T#'s
//! box sorting heuristic ([`sort_key`]): 0 (and 3) closest first, `min_t`; 1 largest first,
//! `fp_add(min_t, max_t before growing, sub)`; 2 closest midpoint, `fp_add(near, far)`.
//! Sorting (box_sort_en): the compare-exchange network (0,2), (1,3), (0,1), (2,3), (1,2) swaps
//! entries A, B iff `(B.valid && key_B < key_A) || !A.valid` (IEEE `<`: a NaN key compares false,
//! −0 equals +0); then every invalid entry's pointer becomes 0xFFFFFFFF (misses end up last).
//! Without sorting, misses become 0xFFFFFFFF in place.
//!
//! **4. Triangle node.** (a, b, c) by node type: 0 (v0, v1, v2); 1 (v1, v3, v2); 2 (v2, v3, v4);
//! 3 (v2, v4, v0). `e1 = b − a`, `e2 = c − a`, `e3 = origin − a` (per component);
//! `cross(u, v) = (u.y·v.z − u.z·v.y, u.z·v.x − u.x·v.z, u.x·v.y − u.y·v.x)` (two rounded products,
//! one rounded subtraction per component); `dot(u, v) = (u.x·v.x + u.y·v.y) + u.z·v.z`.
//! `s1 = cross(dir, e2)`, `s2 = cross(e3, e1)`; `t_num = dot(e2, s2)`, `t_denom = dot(s1, e1)`,
//! `I = dot(e3, s1)`, `J = dot(dir, s2)`. Sign correction: if t_denom's sign bit is set, the sign
//! bits of t_num, t_denom, I and J are flipped. Hit iff `t_denom > 0 && I ≥ 0 && J ≥ 0 &&
//! fp_add(I, J) ≤ t_denom && t_num ≥ 0` (IEEE compares: a NaN makes a compare false, −0 ≥ 0).
//! The extent is not checked. return_mode 0: hit ⇒ `[t_num, t_denom, tri_id, 1]`, miss ⇒
//! `[+Inf, 1.0, tri_id, 0]`; return_mode 1: hit ⇒ `[t_num, t_denom, I, J]`, miss ⇒
//! `[+Inf, 1.0, 0, 0]` (hit values sign-corrected). The shader divides: t = t_num/t_denom,
//! barycentrics I/t_denom, J/t_denom.
//!
//! # Descriptor (T#, 128 bits, [`Descriptor`])
//! `[39:0]` base (256-byte units), `[54:53]` box sorting heuristic (0 closest, 1 largest, 2
//! closest midpoint first; 3 as 0), `[62:55]` box_grow, `[63]` box_sort_en, `[105:64]` size (number of
//! 64-byte nodes − 1; all ones = no limit, which is also the default, as AMD's drivers set it to
//! cover all memory), `[120]` triangle_return_mode, `[127:124]` type (8 for a BVH resource, the
//! default; carried, not checked by the intersector). Other bits (big_page, llc_noalloc, …) do not
//! affect the result and are not modelled: [`Descriptor::from_bits`] ignores them.
//!
//! # Memory ([`mem`])
//! A sparse little-endian byte memory. box32 (128 bytes): child pointers at bytes 0, 4, 8, 12,
//! child i's min xyz at 16 + 24i, max xyz at 28 + 24i. box16 (64 bytes): child pointers at 0…15,
//! box i as the dwords `minx | miny<<16`, `minz | maxx<<16`, `maxy | maxz<<16` at 16 + 12i.
//! Triangle (64 bytes): v0…v4 at 0, 12, 24, 36, 48 (xyz f32), triangle id at 60. [`golden`] writes
//! the vector's node into a fresh memory at the address the pointer and descriptor give and reads it
//! back from there ([`golden_with_memory`] takes a memory the caller filled).

pub mod dut;
pub mod mem;
pub mod stim;
mod unit;

mod ideal;
mod io;

pub use ideal::{
    closest_first, ideal, ideal_box, ideal_instr, ideal_json, ideal_key, ideal_slab, ideal_tri,
    ideal_tri_watertight, tri_vertices, Bounded, Ideal, IdealBoxNode, IdealSlab, IdealTri,
};
pub use io::{parse_line, result_json, txn_json};
pub use mem::Memory;
pub use unit::Bvh;

use crate::fpmodel::{f16_to_f32, fp_add, fp_cmp, fp_mul, is_nan};
use std::fmt;

/// +Inf, f32 bits.
pub const F32_INF: u32 = 0x7F80_0000;
/// 1.0, f32 bits.
pub const F32_ONE: u32 = 0x3F80_0000;
/// An invalid child pointer / the "no node" result word.
pub const INVALID: u32 = 0xFFFF_FFFF;
/// The size field's all-ones value: no limit.
pub const SIZE_NO_LIMIT: u64 = (1 << 42) - 1;
/// The T# type of a BVH resource.
pub const BVH_RSRC_TYPE: u32 = 8;
/// Sorting network of the box test: the compare-exchange pairs in order.
pub const SORT_NETWORK: [(usize, usize); 5] = [(0, 2), (1, 3), (0, 1), (2, 3), (1, 2)];
/// Vertex indices (a, b, c) tested by triangle node types 0…3.
pub const TRI_VERTS: [[usize; 3]; 4] = [[0, 1, 2], [1, 3, 2], [2, 3, 4], [2, 4, 0]];

/// A ray: f32 bit patterns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ray {
    pub origin: [u32; 3],
    pub dir: [u32; 3],
    pub inv_dir: [u32; 3],
    pub extent: u32,
}

/// The fields of the 128-bit BVH descriptor (T#) the intersector uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Descriptor {
    /// `[39:0]` base address in 256-byte units.
    pub base: u64,
    /// `[54:53]` box sorting heuristic: 0 closest first, 1 largest first, 2 closest midpoint, 3 as
    /// 0 ([`sort_key`]).
    pub heuristic: u32,
    /// `[62:55]` box growing, in units in the last place of max_t (0…255).
    pub box_grow: u32,
    /// `[63]` box_sort_en.
    pub box_sort: bool,
    /// `[105:64]` number of 64-byte nodes − 1; `None` = all ones = no limit.
    pub size: Option<u64>,
    /// `[120]` triangle_return_mode (0 or 1).
    pub return_mode: u32,
    /// `[121]` watertight triangle test ([`tri_values_watertight`]); a texpix extension, the bit is
    /// reserved in AMD's T#.
    pub watertight: bool,
    /// `[127:124]` resource type (8 = BVH).
    pub rtype: u32,
}

impl Default for Descriptor {
    fn default() -> Self {
        Self {
            base: 0,
            heuristic: 0,
            box_grow: 0,
            box_sort: false,
            size: None,
            return_mode: 0,
            watertight: false,
            rtype: BVH_RSRC_TYPE,
        }
    }
}

impl Descriptor {
    /// Decodes the T# (four dwords, low dword first); unmodelled bits are ignored.
    pub fn from_bits(d: [u32; 4]) -> Self {
        let lo = u64::from(d[0]) | (u64::from(d[1]) << 32);
        let hi = u64::from(d[2]) | (u64::from(d[3]) << 32);
        let size = hi & SIZE_NO_LIMIT;
        Self {
            base: lo & ((1 << 40) - 1),
            heuristic: ((lo >> 53) & 3) as u32,
            box_grow: ((lo >> 55) & 0xFF) as u32,
            box_sort: lo >> 63 == 1,
            size: (size != SIZE_NO_LIMIT).then_some(size),
            return_mode: ((hi >> 56) & 1) as u32,
            watertight: (hi >> 57) & 1 == 1,
            rtype: (hi >> 60) as u32,
        }
    }

    /// Encodes the T# (four dwords, low dword first); unmodelled bits are zero. Fields are masked
    /// to their widths.
    pub fn to_bits(&self) -> [u32; 4] {
        let lo = (self.base & ((1 << 40) - 1))
            | (u64::from(self.heuristic & 3) << 53)
            | (u64::from(self.box_grow & 0xFF) << 55)
            | (u64::from(self.box_sort) << 63);
        let hi = (self.size.unwrap_or(SIZE_NO_LIMIT) & SIZE_NO_LIMIT)
            | (u64::from(self.return_mode & 1) << 56)
            | (u64::from(self.watertight) << 57)
            | (u64::from(self.rtype & 0xF) << 60);
        [lo as u32, (lo >> 32) as u32, hi as u32, (hi >> 32) as u32]
    }

    /// True if node `index` lies beyond `size`.
    pub fn out_of_bounds(&self, index: u64) -> bool {
        self.size.is_some_and(|s| index > s)
    }

    /// Byte address of node `index` (modulo 2^64).
    pub fn node_addr(&self, index: u64) -> u64 {
        (self.base << 8).wrapping_add(index.wrapping_mul(64))
    }
}

/// The instruction fields the decoder checks (the AMD RDNA ISA's restrictions for image_bvh*).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instr {
    pub dmask: u32,
    pub d16: u32,
    pub r128: u32,
    pub unrm: u32,
    pub dim: u32,
    pub lwe: u32,
    pub tfe: u32,
    pub ssamp: u32,
}

impl Instr {
    /// The only legal values, in check order: (name, required value, field width in bits).
    pub const LEGAL: [(&'static str, u32, u32); 8] = [
        ("dmask", 0xF, 4),
        ("d16", 0, 1),
        ("r128", 1, 1),
        ("unrm", 1, 1),
        ("dim", 0, 3),
        ("lwe", 0, 1),
        ("tfe", 0, 1),
        ("ssamp", 0, 5),
    ];

    /// The fields in [`Instr::LEGAL`] order.
    pub fn values(&self) -> [u32; 8] {
        [
            self.dmask, self.d16, self.r128, self.unrm, self.dim, self.lwe, self.tfe, self.ssamp,
        ]
    }

    /// Sets field `k` (in [`Instr::LEGAL`] order).
    pub fn set(&mut self, k: usize, v: u32) {
        let f = [
            &mut self.dmask,
            &mut self.d16,
            &mut self.r128,
            &mut self.unrm,
            &mut self.dim,
            &mut self.lwe,
            &mut self.tfe,
            &mut self.ssamp,
        ];
        *f.into_iter().nth(k).expect("field index") = v;
    }
}

impl Default for Instr {
    fn default() -> Self {
        let mut i = Instr {
            dmask: 0,
            d16: 0,
            r128: 0,
            unrm: 0,
            dim: 0,
            lwe: 0,
            tfe: 0,
            ssamp: 0,
        };
        for (k, l) in Instr::LEGAL.iter().enumerate() {
            i.set(k, l.1);
        }
        i
    }
}

/// A rejected instruction: the first field (in [`Instr::LEGAL`] order) with an illegal value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InstrError {
    pub field: &'static str,
    pub value: u32,
    pub required: u32,
}

impl fmt::Display for InstrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "instr.{} = {:#x}: image_bvh*_intersect_ray requires {} = {:#x}",
            self.field, self.value, self.field, self.required
        )
    }
}

/// Step 0: the decoder's restriction check.
pub fn check_instr(i: &Instr) -> Result<(), InstrError> {
    for (l, v) in Instr::LEGAL.iter().zip(i.values()) {
        if v != l.1 {
            return Err(InstrError {
                field: l.0,
                value: v,
                required: l.1,
            });
        }
    }
    Ok(())
}

/// A BVH node as a vector gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// 128 bytes: four child pointers, four f32 boxes `[minx, miny, minz, maxx, maxy, maxz]`.
    Box32 {
        children: [u32; 4],
        boxes: [[u32; 6]; 4],
    },
    /// 64 bytes: four child pointers, four f16 boxes.
    Box16 {
        children: [u32; 4],
        boxes: [[u16; 6]; 4],
    },
    /// 64 bytes: three to five vertices (xyz f32 bits) and the triangle id.
    Tri { verts: Vec<[u32; 3]>, tri_id: u32 },
}

impl Node {
    /// The vector's name of the node type.
    pub fn type_name(&self) -> &'static str {
        match self {
            Node::Box32 { .. } => "box32",
            Node::Box16 { .. } => "box16",
            Node::Tri { .. } => "tri",
        }
    }

    /// True if a pointer of type `ptr_type` (ptr[2:0]) addresses a node of this kind.
    pub fn matches(&self, ptr_type: u32) -> bool {
        match self {
            Node::Box32 { .. } => ptr_type == 5,
            Node::Box16 { .. } => ptr_type == 4,
            Node::Tri { .. } => ptr_type < 4,
        }
    }
}

/// One intersection instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BvhTxn {
    /// The ray operands as the vector gives them: with `a16`, `dir` and `inv_dir` hold f16 bits.
    pub ray: Ray,
    pub a16: bool,
    pub bvh64: bool,
    pub desc: Descriptor,
    /// The node pointer (< 2^32 unless `bvh64`).
    pub node_ptr: u64,
    /// The node the vector places in memory (none for types 6/7 or out-of-bounds pointers).
    pub node: Option<Node>,
    pub instr: Instr,
}

impl BvhTxn {
    /// The ray in f32 (A16 components widened exactly).
    pub fn ray_f32(&self) -> Ray {
        if !self.a16 {
            return self.ray;
        }
        let w = |v: [u32; 3]| v.map(|h| f16_to_f32(h as u16));
        Ray {
            dir: w(self.ray.dir),
            inv_dir: w(self.ray.inv_dir),
            ..self.ray
        }
    }

    /// The address VGPRs in order (the AMD RDNA ISA's NSA groups): node pointer (1 dword, 2 for
    /// BVH64, low first), extent, origin xyz, then dir xyz and inv_dir xyz, or with A16 the three
    /// dwords `dir_k | inv_dir_k << 16`.
    pub fn address_vgprs(&self) -> Vec<u32> {
        let mut v = vec![self.node_ptr as u32];
        if self.bvh64 {
            v.push((self.node_ptr >> 32) as u32);
        }
        v.push(self.ray.extent);
        v.extend(self.ray.origin);
        if self.a16 {
            v.extend((0..3).map(|k| (self.ray.dir[k] & 0xFFFF) | (self.ray.inv_dir[k] << 16)));
        } else {
            v.extend(self.ray.dir);
            v.extend(self.ray.inv_dir);
        }
        v
    }
}

/// The instruction's result: the four returned dwords, or the decoder's rejection.
pub type BvhResult = Result<[u32; 4], InstrError>;

/// What a node pointer fetches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// Triangle node, type 0…3.
    Tri(u32),
    Box16,
    Box32,
}

impl NodeKind {
    /// Bytes fetched.
    pub fn bytes(self) -> u32 {
        match self {
            NodeKind::Box32 => 128,
            _ => 64,
        }
    }
}

/// A node fetch: kind, byte address of its first byte, and length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fetch {
    pub kind: NodeKind,
    pub addr: u64,
    pub bytes: u32,
}

/// Step 2: the node fetch a pointer causes, or `None` (type 6/7, out of bounds).
pub fn node_fetch(desc: &Descriptor, ptr: u64) -> Option<Fetch> {
    let kind = match ptr & 7 {
        t @ 0..=3 => NodeKind::Tri(t as u32),
        4 => NodeKind::Box16,
        5 => NodeKind::Box32,
        _ => return None,
    };
    let index = ptr >> 3;
    if desc.out_of_bounds(index) {
        return None;
    }
    Some(Fetch {
        kind,
        addr: desc.node_addr(index),
        bytes: kind.bytes(),
    })
}

/// The fetch an instruction makes (none if the decoder rejects it).
pub fn fetch(t: &BvhTxn) -> Option<Fetch> {
    check_instr(&t.instr).ok()?;
    node_fetch(&t.desc, t.node_ptr)
}

fn le(a: u32, b: u32) -> bool {
    let c = fp_cmp(a, b);
    c.lt || c.eq
}

fn lt(a: u32, b: u32) -> bool {
    fp_cmp(a, b).lt
}

/// One child's box test (step 3 up to the hit decision).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoxChild {
    pub near: u32,
    pub far: u32,
    pub min_t: u32,
    /// max_t before growing, minNum(far, extent).
    pub tmax: u32,
    /// max_t after growing.
    pub max_t: u32,
    pub hit: bool,
}

/// The sort key of a child under box sorting heuristic `h` (T#[54:53], the keys of AMD's public
/// ray-tracing emulation): 0 closest first (and 3) min_t; 1 largest first min_t − max_t (the
/// negated interval before growing, f32 subtraction, so the longest interval sorts first);
/// 2 closest midpoint near + far (the unclamped interval's end points, f32 addition: twice the
/// midpoint, negative behind the origin). Keys compare by IEEE `<` (a NaN key never moves an
/// entry; −0 equals +0). A missed child's key is never compared.
pub fn sort_key(c: &BoxChild, h: u32) -> u32 {
    match h & 3 {
        1 => fp_add(c.min_t, c.tmax, true),
        2 => fp_add(c.near, c.far, false),
        _ => c.min_t,
    }
}

/// The slab test of one box (f32 bits, `[minx, miny, minz, maxx, maxy, maxz]`).
pub fn box_child(ray: &Ray, b: &[u32; 6], box_grow: u32) -> BoxChild {
    let mut near_k = [0u32; 3];
    let mut far_k = [0u32; 3];
    for k in 0..3 {
        let t_lo = fp_mul(fp_add(b[k], ray.origin[k], true), ray.inv_dir[k]);
        let t_hi = fp_mul(fp_add(b[k + 3], ray.origin[k], true), ray.inv_dir[k]);
        (near_k[k], far_k[k]) = if ray.inv_dir[k] >> 31 == 0 {
            (t_lo, t_hi)
        } else {
            (t_hi, t_lo)
        };
    }
    let near = fp_cmp(fp_cmp(near_k[0], near_k[1]).max, near_k[2]).max;
    let far = fp_cmp(fp_cmp(far_k[0], far_k[1]).min, far_k[2]).min;
    let mut r = BoxChild {
        near,
        far,
        min_t: 0,
        tmax: 0,
        max_t: 0,
        hit: false,
    };
    if is_nan(near) || is_nan(far) {
        return r;
    }
    r.min_t = fp_cmp(near, 0).max;
    let mut max_t = fp_cmp(far, ray.extent).min;
    r.tmax = max_t;
    if max_t >> 31 == 0 && max_t != 0 && max_t < F32_INF {
        max_t = (max_t + box_grow).min(F32_INF);
    }
    r.max_t = max_t;
    r.hit = le(r.min_t, max_t);
    r
}

/// The sorting network on (valid, key) entries; returns the child index in each output slot.
/// `less(a, b)` is `key_a < key_b`.
pub fn sort_order<K: Copy>(
    valid: [bool; 4],
    keys: [K; 4],
    less: impl Fn(K, K) -> bool,
) -> [usize; 4] {
    let mut slot = [0usize, 1, 2, 3];
    for (a, b) in SORT_NETWORK {
        let (ea, eb) = (slot[a], slot[b]);
        if (valid[eb] && less(keys[eb], keys[ea])) || !valid[ea] {
            slot.swap(a, b);
        }
    }
    slot
}

/// The box node's per-child tests and the child index in each output slot (identity without
/// sorting; with sorting, by heuristic `h`'s keys, [`sort_key`]).
pub fn box_detail(
    ray: &Ray,
    boxes: &[[u32; 6]; 4],
    box_grow: u32,
    sort: bool,
    h: u32,
) -> ([BoxChild; 4], [usize; 4]) {
    let c = std::array::from_fn(|i| box_child(ray, &boxes[i], box_grow));
    let order = if sort {
        sort_order(c.map(|c: BoxChild| c.hit), c.map(|c| sort_key(&c, h)), lt)
    } else {
        [0, 1, 2, 3]
    };
    (c, order)
}

/// Step 3: the four returned child pointers of a box node (f32 boxes; widen box16 first).
pub fn box_test(
    ray: &Ray,
    children: [u32; 4],
    boxes: &[[u32; 6]; 4],
    box_grow: u32,
    sort: bool,
    h: u32,
) -> [u32; 4] {
    let (c, order) = box_detail(ray, boxes, box_grow, sort, h);
    order.map(|i| if c[i].hit { children[i] } else { INVALID })
}

/// A box16 node's boxes widened to f32 exactly.
pub fn widen_boxes(b: &[[u16; 6]; 4]) -> [[u32; 6]; 4] {
    b.map(|b| b.map(f16_to_f32))
}

/// The intermediate values of the triangle test (sign-corrected), step 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TriValues {
    pub t_num: u32,
    pub t_denom: u32,
    pub i: u32,
    pub j: u32,
    /// The raw t_denom's sign bit was set (the four values were negated).
    pub flipped: bool,
    pub hit: bool,
}

type V3 = [u32; 3];

fn sub3(u: V3, v: V3) -> V3 {
    std::array::from_fn(|k| fp_add(u[k], v[k], true))
}

fn cross(u: V3, v: V3) -> V3 {
    let m = |a: u32, b: u32, c: u32, d: u32| fp_add(fp_mul(a, b), fp_mul(c, d), true);
    [
        m(u[1], v[2], u[2], v[1]),
        m(u[2], v[0], u[0], v[2]),
        m(u[0], v[1], u[1], v[0]),
    ]
}

fn dot(u: V3, v: V3) -> u32 {
    fp_add(
        fp_add(fp_mul(u[0], v[0]), fp_mul(u[1], v[1]), false),
        fp_mul(u[2], v[2]),
        false,
    )
}

/// `[t_num, t_denom, I, J]` with all four sign bits flipped if t_denom's is set, and whether they
/// were.
fn sign_corrected(v: [u32; 4]) -> ([u32; 4], bool) {
    let flipped = v[1] >> 31 == 1;
    (
        if flipped {
            v.map(|x| x ^ 0x8000_0000)
        } else {
            v
        },
        flipped,
    )
}

/// Step 4 up to the hit decision.
pub fn tri_values(ray: &Ray, a: V3, b: V3, c: V3) -> TriValues {
    let e1 = sub3(b, a);
    let e2 = sub3(c, a);
    let e3 = sub3(ray.origin, a);
    let s1 = cross(ray.dir, e2);
    let s2 = cross(e3, e1);
    let (v, flipped) = sign_corrected([dot(e2, s2), dot(s1, e1), dot(e3, s1), dot(ray.dir, s2)]);
    let [t_num, t_denom, i, j] = v;
    let hit =
        lt(0, t_denom) && le(0, i) && le(0, j) && le(fp_add(i, j, false), t_denom) && le(0, t_num);
    TriValues {
        t_num,
        t_denom,
        i,
        j,
        flipped,
        hit,
    }
}

/// The watertight triangle test (docs/units/bvh.md §8a), up to the hit decision: the same four
/// quantities as [`tri_values`] (t = t_num / t_denom, barycentrics I / t_denom and J / t_denom of
/// b and c), from edge functions of the vertices sheared into the ray's frame, whose signs alone
/// decide the hit, so that two triangles sharing an edge never both miss a ray through it.
///
/// kz = the axis of the largest |dir| (bit patterns with the sign cleared; ties to x, then y),
/// kx = kz + 1, ky = kz + 2 (mod 3). Per vertex p' = p − origin, and, scaled by dZ = dir[kz]
/// instead of divided by it, X = p'[kx]·dZ − dir[kx]·p'[kz], Y = p'[ky]·dZ − dir[ky]·p'[kz]
/// (each product rounded, then the difference). Edge functions U = C.X·B.Y − C.Y·B.X,
/// V = A.X·C.Y − A.Y·C.X, W = B.X·A.Y − B.Y·A.X (the same two-product form, so an edge shared by
/// two triangles gives them exactly negated values); det = (U + V) + W;
/// t_num = (U·A.z + V·B.z) + W·C.z with z = p'[kz]; t_denom = dZ·det; I = dZ·V; J = dZ·W; the
/// sign correction of t_denom as in the plain test. Hit iff U, V, W are all ≥ 0 or all ≤ 0
/// (IEEE: a NaN fails both), t_denom > 0 and t_num ≥ 0 after the correction.
pub fn tri_values_watertight(ray: &Ray, a: V3, b: V3, c: V3) -> TriValues {
    let m = |x: u32| x & 0x7FFF_FFFF;
    let d = ray.dir;
    let kz = if m(d[0]) >= m(d[1]) && m(d[0]) >= m(d[2]) {
        0
    } else if m(d[1]) >= m(d[2]) {
        1
    } else {
        2
    };
    let (kx, ky) = ((kz + 1) % 3, (kz + 2) % 3);
    let dz = d[kz];
    let shear = |p: V3| {
        let q = sub3(p, ray.origin);
        let xy = |k: usize| fp_add(fp_mul(q[k], dz), fp_mul(d[k], q[kz]), true);
        (xy(kx), xy(ky), q[kz])
    };
    let (pa, pb, pc) = (shear(a), shear(b), shear(c));
    let edge =
        |p: (u32, u32, u32), q: (u32, u32, u32)| fp_add(fp_mul(p.0, q.1), fp_mul(p.1, q.0), true);
    let u = edge(pc, pb);
    let v = edge(pa, pc);
    let w = edge(pb, pa);
    let det = fp_add(fp_add(u, v, false), w, false);
    let t_num = fp_add(
        fp_add(fp_mul(u, pa.2), fp_mul(v, pb.2), false),
        fp_mul(w, pc.2),
        false,
    );
    let (q, flipped) = sign_corrected([t_num, fp_mul(dz, det), fp_mul(dz, v), fp_mul(dz, w)]);
    let [t_num, t_denom, i, j] = q;
    let same_sign = (le(0, u) && le(0, v) && le(0, w)) || (le(u, 0) && le(v, 0) && le(w, 0));
    let hit = same_sign && lt(0, t_denom) && le(0, t_num);
    TriValues {
        t_num,
        t_denom,
        i,
        j,
        flipped,
        hit,
    }
}

/// Step 4: the four returned dwords of a (plain) triangle test.
pub fn tri_test(ray: &Ray, a: V3, b: V3, c: V3, tri_id: u32, return_mode: u32) -> [u32; 4] {
    tri_result(&tri_values(ray, a, b, c), tri_id, return_mode)
}

/// The four returned dwords of a triangle test's values `v` (docs/units/bvh.md §8).
pub fn tri_result(v: &TriValues, tri_id: u32, return_mode: u32) -> [u32; 4] {
    match (return_mode, v.hit) {
        (0, true) => [v.t_num, v.t_denom, tri_id, 1],
        (0, false) => [F32_INF, F32_ONE, tri_id, 0],
        (_, true) => [v.t_num, v.t_denom, v.i, v.j],
        (_, false) => [F32_INF, F32_ONE, 0, 0],
    }
}

/// The whole instruction on a memory the caller filled.
pub fn golden_with_memory(t: &BvhTxn, m: &Memory) -> BvhResult {
    check_instr(&t.instr)?;
    let Some(f) = node_fetch(&t.desc, t.node_ptr) else {
        return Ok([INVALID; 4]);
    };
    let ray = t.ray_f32();
    let d = &t.desc;
    Ok(match f.kind {
        NodeKind::Box32 => {
            let (children, boxes) = mem::read_box32(m, f.addr);
            box_test(&ray, children, &boxes, d.box_grow, d.box_sort, d.heuristic)
        }
        NodeKind::Box16 => {
            let (children, boxes) = mem::read_box16(m, f.addr);
            box_test(
                &ray,
                children,
                &widen_boxes(&boxes),
                d.box_grow,
                d.box_sort,
                d.heuristic,
            )
        }
        NodeKind::Tri(ty) => {
            let (v, tri_id) = mem::read_tri(m, f.addr);
            let [a, b, c] = TRI_VERTS[ty as usize].map(|k| v[k]);
            let v = if d.watertight {
                tri_values_watertight(&ray, a, b, c)
            } else {
                tri_values(&ray, a, b, c)
            };
            tri_result(&v, tri_id, d.return_mode)
        }
    })
}

/// The memory a vector describes: its node written at the address its pointer gives.
pub fn memory_of(t: &BvhTxn) -> Memory {
    let mut m = Memory::new();
    if let Some(n) = &t.node {
        mem::write_node(&mut m, t.desc.node_addr(t.node_ptr >> 3), n);
    }
    m
}

/// The bit-accurate result of one instruction (the node goes through the memory model).
pub fn golden(t: &BvhTxn) -> BvhResult {
    golden_with_memory(t, &memory_of(t))
}

/// f32 bits to f16 bits, round to nearest even (overflow ⇒ ±Inf, NaN ⇒ quiet NaN with the top
/// payload bits), for stimulus and vector values.
pub fn f32_to_f16(x: u32) -> u16 {
    let s = ((x >> 16) & 0x8000) as u16;
    let e = ((x >> 23) & 0xFF) as i32;
    let m = x & 0x7F_FFFF;
    if e == 0xFF {
        return if m == 0 {
            s | 0x7C00
        } else {
            s | 0x7E00 | (m >> 13) as u16
        };
    }
    // |x| = sig · 2^exp (sig with the implicit bit).
    let (sig, exp) = if e == 0 {
        (m, -149)
    } else {
        (m | 0x80_0000, e - 150)
    };
    if sig == 0 {
        return s;
    }
    let unbiased = exp + 31 - sig.leading_zeros() as i32; // floor(log2 |x|)
    let shift = if unbiased < -14 {
        // Denormal result: units of 2^-24.
        -(exp + 24)
    } else {
        // Normal: keep 11 significant bits.
        (unbiased - 10) - exp
    };
    let rounded = if shift <= 0 {
        u64::from(sig) << (-shift) as u32
    } else if shift >= 40 {
        0
    } else {
        let q = u64::from(sig) >> shift;
        let rem = u64::from(sig) & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        q + u64::from(rem > half || (rem == half && q & 1 == 1))
    };
    if unbiased < -14 {
        // rounded is the denormal mantissa (a carry into 0x400 is the smallest normal: same bits).
        return s | rounded as u16;
    }
    // rounded has 11 bits (or 12 after a carry).
    let (mant, ue) = if rounded >= 0x800 {
        (rounded >> 1, unbiased + 1)
    } else {
        (rounded, unbiased)
    };
    if ue > 15 {
        return s | 0x7C00;
    }
    s | (((ue + 15) as u16) << 10) | (mant as u16 & 0x3FF)
}
