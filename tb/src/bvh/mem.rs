//! A sparse, byte-addressed, little-endian memory of 64-byte lines (unwritten bytes read 0;
//! addresses wrap modulo 2^64), and the BVH node layouts (docs/units/bvh.md §5) written into and
//! read from it.
//!
//! | node | bytes | layout |
//! |---|---|---|
//! | box32 | 128 | child pointers at 0, 4, 8, 12; child i's min xyz at 16 + 24i, max xyz at 28 + 24i (f32) |
//! | box16 | 64 | child pointers at 0…15; box i at 16 + 12i as `minx \| miny<<16`, `minz \| maxx<<16`, `maxy \| maxz<<16` (f16) |
//! | triangle | 64 | v0…v4 at 0, 12, 24, 36, 48 (xyz f32); triangle id at 60 |

use super::Node;
use std::collections::HashMap;

/// Bytes per line.
pub const LINE: u64 = 64;

/// Sparse memory of 64-byte lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    lines: HashMap<u64, [u8; 64]>,
}

impl Memory {
    pub fn new() -> Self {
        Self::default()
    }

    /// One byte.
    pub fn read_u8(&self, addr: u64) -> u8 {
        self.lines
            .get(&(addr / LINE))
            .map_or(0, |l| l[(addr % LINE) as usize])
    }

    /// Writes one byte.
    pub fn write_u8(&mut self, addr: u64, v: u8) {
        self.lines.entry(addr / LINE).or_insert([0; 64])[(addr % LINE) as usize] = v;
    }

    /// A little-endian dword at any byte address.
    pub fn read_u32(&self, addr: u64) -> u32 {
        u32::from_le_bytes(std::array::from_fn(|k| {
            self.read_u8(addr.wrapping_add(k as u64))
        }))
    }

    /// Writes a little-endian dword at any byte address.
    pub fn write_u32(&mut self, addr: u64, v: u32) {
        for (k, b) in v.to_le_bytes().into_iter().enumerate() {
            self.write_u8(addr.wrapping_add(k as u64), b);
        }
    }

    /// The 64-byte line holding `addr` (what a memory port returns for a request at `addr`).
    pub fn read_line(&self, addr: u64) -> [u8; 64] {
        self.lines.get(&(addr / LINE)).copied().unwrap_or([0; 64])
    }

    /// The line as sixteen little-endian dwords.
    pub fn read_line_dwords(&self, addr: u64) -> [u32; 16] {
        let l = self.read_line(addr);
        std::array::from_fn(|k| {
            u32::from_le_bytes([l[4 * k], l[4 * k + 1], l[4 * k + 2], l[4 * k + 3]])
        })
    }

    /// Number of lines ever written.
    pub fn lines(&self) -> usize {
        self.lines.len()
    }
}

fn a(base: u64, off: u64) -> u64 {
    base.wrapping_add(off)
}

/// Writes `node` with its first byte at `addr` (the layouts above).
pub fn write_node(m: &mut Memory, addr: u64, node: &Node) {
    match node {
        Node::Box32 { children, boxes } => {
            for i in 0..4 {
                m.write_u32(a(addr, 4 * i as u64), children[i]);
                for k in 0..3 {
                    m.write_u32(a(addr, 16 + 24 * i as u64 + 4 * k as u64), boxes[i][k]);
                    m.write_u32(a(addr, 28 + 24 * i as u64 + 4 * k as u64), boxes[i][k + 3]);
                }
            }
        }
        Node::Box16 { children, boxes } => {
            for i in 0..4 {
                m.write_u32(a(addr, 4 * i as u64), children[i]);
                let b = boxes[i].map(u32::from);
                let dw = [b[0] | b[1] << 16, b[2] | b[3] << 16, b[4] | b[5] << 16];
                for (k, d) in dw.into_iter().enumerate() {
                    m.write_u32(a(addr, 16 + 12 * i as u64 + 4 * k as u64), d);
                }
            }
        }
        Node::Tri { verts, tri_id } => {
            for (v, xyz) in verts.iter().enumerate() {
                for (k, c) in xyz.iter().enumerate() {
                    m.write_u32(a(addr, 12 * v as u64 + 4 * k as u64), *c);
                }
            }
            m.write_u32(a(addr, 60), *tri_id);
        }
    }
}

/// Reads a box32 node: child pointers and f32 boxes `[minx, miny, minz, maxx, maxy, maxz]`.
pub fn read_box32(m: &Memory, addr: u64) -> ([u32; 4], [[u32; 6]; 4]) {
    let children = std::array::from_fn(|i| m.read_u32(a(addr, 4 * i as u64)));
    let boxes = std::array::from_fn(|i| {
        std::array::from_fn(|c| {
            let off = if c < 3 { 16 + 4 * c } else { 28 + 4 * (c - 3) };
            m.read_u32(a(addr, (24 * i + off) as u64))
        })
    });
    (children, boxes)
}

/// Reads a box16 node: child pointers and f16 boxes `[minx, miny, minz, maxx, maxy, maxz]`.
pub fn read_box16(m: &Memory, addr: u64) -> ([u32; 4], [[u16; 6]; 4]) {
    let children = std::array::from_fn(|i| m.read_u32(a(addr, 4 * i as u64)));
    let boxes = std::array::from_fn(|i| {
        let dw: [u32; 3] =
            std::array::from_fn(|k| m.read_u32(a(addr, (16 + 12 * i + 4 * k) as u64)));
        std::array::from_fn(|c| (dw[c / 2] >> (16 * (c % 2))) as u16)
    });
    (children, boxes)
}

/// Reads a triangle node: all five vertex slots and the triangle id.
pub fn read_tri(m: &Memory, addr: u64) -> ([[u32; 3]; 5], u32) {
    let v = std::array::from_fn(|v| {
        std::array::from_fn(|k| m.read_u32(a(addr, (12 * v + 4 * k) as u64)))
    });
    (v, m.read_u32(a(addr, 60)))
}
