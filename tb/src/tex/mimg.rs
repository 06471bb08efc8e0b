//! Golden models of the AMD RDNA MIMG instruction forms (`texpix_rtl::tex::mimg`, whose module
//! documentation states the layout): [`unpack`] (one lane's address dwords → the unit's operands),
//! [`address_dwords`], [`pack_result`] (one lane's result → the data dwords), and
//! [`pack_address`], an encoder of the address dwords for tests and vector writers.

use crate::fpmodel::{f16_to_f32, f32_to_f16};

/// TexOp codes with a MIMG form (others decode as `tex`).
const TXB: u32 = 1;
const TXL: u32 = 2;
const TXD: u32 = 3;
const TXF: u32 = 4;
const TXQ: u32 = 5;
const SAMPLE_C: u32 = 7;
const SAMPLE_C_LZ: u32 = 8;

/// One lane's operands from its address dwords.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unpacked {
    /// s, t, r, q (f32 bits), or `txf`'s i, j, k, level.
    pub coord: [u32; 4],
    /// `txl`'s LOD (f32) or `txq`'s level (integer).
    pub lod: u32,
    /// `txb`'s bias (f32).
    pub bias: u32,
    /// `sample_c`'s reference (f32).
    pub zref: u32,
    /// dsdx, dsdy, dtdx, dtdy (f32).
    pub grad: [u32; 4],
    /// du in bits 3…0, dv in bits 7…4, dw in bits 11…8 (4-bit two's complement).
    pub off: u16,
    /// Address dwords of the form.
    pub count: u32,
}

/// Where a body component goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dest {
    Coord(usize),
    Lod,
}

/// The form's decoded op (codes without a MIMG form are `tex`, 0) and dimension (6 ⇒ 5).
fn decode(op: u32, dim: u32) -> (u32, u32) {
    let op = match op {
        0..=8 | 10 => op,
        _ => 0,
    };
    let dim = if dim & 7 == 6 { 5 } else { dim & 7 };
    (op, dim)
}

/// Coordinates of a sampler op's body (1d 1, 2d 2, 3d 3, cube 3, 1d_array 2, 2d_array 3,
/// cube_array 4).
fn sampler_coords(dim: u32) -> usize {
    [1, 2, 3, 3, 2, 3, 3, 4][dim as usize]
}

/// Coordinates per derivative direction (1d-like 1, 2d-like 2, 3d 3).
fn grad_axes(dim: u32) -> usize {
    match dim {
        0 | 4 => 1,
        2 => 3,
        _ => 2,
    }
}

/// The body's components in address order, with where each goes.
fn body(op: u32, dim: u32) -> Vec<Dest> {
    match op {
        TXQ => vec![Dest::Lod],
        TXF => match dim {
            0 => vec![Dest::Coord(0), Dest::Coord(3)],
            1 => vec![Dest::Coord(0), Dest::Coord(1), Dest::Coord(3)],
            4 => vec![Dest::Coord(0), Dest::Coord(2), Dest::Coord(3)],
            _ => (0..4).map(Dest::Coord).collect(),
        },
        _ => {
            let mut v: Vec<Dest> = (0..sampler_coords(dim)).map(Dest::Coord).collect();
            if op == TXL {
                v.push(Dest::Lod);
            }
            v
        }
    }
}

/// The number of address dwords of the form.
pub fn address_dwords(op: u32, dim: u32, has_off: bool, a16: bool, g16: bool) -> usize {
    let (op, dim) = decode(op, dim);
    let per_dir = grad_axes(dim);
    let grads = if op != TXD {
        0
    } else if g16 {
        2 * per_dir.div_ceil(2)
    } else {
        2 * per_dir
    };
    let n = body(op, dim).len();
    usize::from(has_off)
        + usize::from(op == TXB)
        + usize::from(op == SAMPLE_C || op == SAMPLE_C_LZ)
        + grads
        + if a16 { n.div_ceil(2) } else { n }
}

/// Reads the address dwords as a stream: whole dwords, or 16-bit halves (low half first; a
/// started dword's unused high half is skipped when a whole dword or a new section follows).
struct Reader<'a> {
    v: &'a [u32],
    pos: usize,
    high_next: bool,
}

impl Reader<'_> {
    fn dword(&mut self) -> u32 {
        self.align();
        let x = self.v.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        x
    }
    fn half(&mut self) -> u16 {
        let x = self.v.get(self.pos).copied().unwrap_or(0);
        if self.high_next {
            self.high_next = false;
            self.pos += 1;
            (x >> 16) as u16
        } else {
            self.high_next = true;
            x as u16
        }
    }
    fn align(&mut self) {
        if self.high_next {
            self.high_next = false;
            self.pos += 1;
        }
    }
}

/// One lane's operands from its address dwords `vaddr` (dwords past the slice read as 0; dwords
/// past the form are ignored).
pub fn unpack(op: u32, dim: u32, has_off: bool, a16: bool, g16: bool, vaddr: &[u32]) -> Unpacked {
    let (op, dim) = decode(op, dim);
    let mut u = Unpacked::default();
    let mut r = Reader {
        v: vaddr,
        pos: 0,
        high_next: false,
    };
    if has_off {
        let o = r.dword();
        u.off = ((o & 0xF) | ((o >> 8) & 0xF) << 4 | ((o >> 16) & 0xF) << 8) as u16;
    }
    if op == TXB {
        u.bias = if a16 {
            let h = r.half();
            r.align();
            f16_to_f32(h)
        } else {
            r.dword()
        };
    }
    if op == SAMPLE_C || op == SAMPLE_C_LZ {
        u.zref = r.dword();
    }
    if op == TXD {
        // Per direction: s, t, r derivatives; unit order dsdx, dsdy, dtdx, dtdy.
        let mut d = [[0u32; 3]; 2];
        for dir in &mut d {
            for x in dir.iter_mut().take(grad_axes(dim)) {
                *x = if g16 { f16_to_f32(r.half()) } else { r.dword() };
            }
            r.align();
        }
        u.grad = [d[0][0], d[1][0], d[0][1], d[1][1]];
    }
    let int = op == TXF || op == TXQ;
    for dest in body(op, dim) {
        let x = match (a16, int) {
            (false, _) => r.dword(),
            (true, true) => u32::from(r.half()),
            (true, false) => f16_to_f32(r.half()),
        };
        match dest {
            Dest::Coord(i) => u.coord[i] = x,
            Dest::Lod => u.lod = x,
        }
    }
    r.align();
    u.count = r.pos as u32;
    debug_assert_eq!(r.pos, address_dwords(op, dim, has_off, a16, g16));
    u
}

/// The address dwords that [`unpack`] turns into `u` (its `count` is ignored): an encoder for
/// tests and vector writers, built from the layout table directly. `junk` fills the bits the form
/// leaves unused (unused high halves, the offset dword's other bits). Panics if a value is not
/// representable: a 16-bit float not exactly an f16, a 16-bit integer above 0xFFFF.
pub fn pack_address(
    op: u32,
    dim: u32,
    has_off: bool,
    a16: bool,
    g16: bool,
    u: &Unpacked,
    junk: &mut dyn FnMut() -> u32,
) -> Vec<u32> {
    let (op, dim) = decode(op, dim);
    let f16 = |x: u32| -> u32 {
        let h = f32_to_f16(x);
        assert_eq!(f16_to_f32(h), x, "{x:08x} is not an f16 value");
        u32::from(h)
    };
    let int16 = |x: u32| -> u32 {
        assert!(x <= 0xFFFF, "{x} does not fit 16 bits");
        x
    };
    // Halves packed in pairs; an odd one gets junk above it.
    let pairs = |h: &[u32], junk: &mut dyn FnMut() -> u32| -> Vec<u32> {
        h.chunks(2)
            .map(|c| c[0] | (c.get(1).copied().unwrap_or(junk() & 0xFFFF) << 16))
            .collect()
    };
    let mut out = Vec::new();
    if has_off {
        // x = bits 5…0, y = 13…8, z = 21…16: the 4-bit offsets sign-extended to 6 bits; the rest
        // junk.
        let sx6 = |v: u32| if v & 8 != 0 { v | 0x30 } else { v };
        let du = sx6(u32::from(u.off) & 0xF);
        let dv = sx6((u32::from(u.off) >> 4) & 0xF);
        let dw = sx6((u32::from(u.off) >> 8) & 0xF);
        out.push(du | (dv << 8) | (dw << 16) | (junk() & 0xFFC0_C0C0));
    }
    match op {
        TXB if a16 => out.push(f16(u.bias) | (junk() & 0xFFFF_0000)),
        TXB => out.push(u.bias),
        SAMPLE_C | SAMPLE_C_LZ => out.push(u.zref),
        TXD => {
            let n = match dim {
                0 | 4 => 1,
                2 => 3,
                _ => 2,
            };
            // dsdx, dtdx, drdx (r derivative: not represented, 0); then the y direction.
            let x = [u.grad[0], u.grad[2], 0];
            let y = [u.grad[1], u.grad[3], 0];
            for dir in [x, y] {
                if g16 {
                    let h: Vec<u32> = dir[..n].iter().map(|&v| f16(v)).collect();
                    out.extend(pairs(&h, junk));
                } else {
                    out.extend_from_slice(&dir[..n]);
                }
            }
        }
        _ => {}
    }
    let values: Vec<u32> = body(op, dim)
        .into_iter()
        .map(|d| match d {
            Dest::Coord(i) => u.coord[i],
            Dest::Lod => u.lod,
        })
        .collect();
    if a16 {
        let int = op == TXF || op == TXQ;
        let h: Vec<u32> = values
            .iter()
            .map(|&v| if int { int16(v) } else { f16(v) })
            .collect();
        out.extend(pairs(&h, junk));
    } else {
        out.extend(values);
    }
    out
}

/// One lane's result dwords: the `dmask` components in order x, y, z, w, one dword each or with
/// `d16` two per dword (low half first, an odd last high half 0; f32 rounded by
/// [`f32_to_f16`], integers saturated to 0xFFFF), then with `tfe` or `lwe` the status dword;
/// with `lwe` and TEXEL_FAIL (status bit 0) the data dwords are 0.
pub fn pack_result(
    rgba: [u32; 4],
    int_result: bool,
    dmask: u32,
    d16: bool,
    tfe: bool,
    lwe: bool,
    status: u32,
) -> Vec<u32> {
    let comps = (0..4).filter(|k| dmask >> k & 1 != 0).map(|k| rgba[k]);
    let mut out: Vec<u32> = if d16 {
        let h: Vec<u32> = comps
            .map(|x| {
                if int_result {
                    x.min(0xFFFF)
                } else {
                    u32::from(f32_to_f16(x))
                }
            })
            .collect();
        h.chunks(2)
            .map(|c| c[0] | (c.get(1).copied().unwrap_or(0) << 16))
            .collect()
    } else {
        comps.collect()
    };
    if lwe && status & 1 != 0 {
        out.iter_mut().for_each(|x| *x = 0);
    }
    if tfe || lwe {
        out.push(status);
    }
    out
}
