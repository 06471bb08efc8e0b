//! Random and edge-case stimulus for the texture unit.
//!
//! Vectors come in *runs* that share their `textures` list (one to three textures), so the
//! texel cache sees reuse within a run and a flush between runs; a run is 1…24 vectors long.
//!
//! - Textures: every format (the descriptor's `bpp` is the format's), dimensions 1d, 2d, 1d_array,
//!   2d_array, cube and cube_array (mostly square faces, 1…3 cubes) and, rarely, 3d (the address
//!   pipeline's `reserved_param_a` fault); sizes 1, small odd,
//!   powers of two and up to 300 texels; full or partial mip chains; 1…5 layers; bases that are
//!   256-aligned, odd multiples of the texel size, or near 2^40; texel data from the `fill` hash
//!   rule (which puts NaNs, infinities and denormals into float formats) or explicit bytes of
//!   edge values (zeros, all ones, ±0, ±Inf, NaN, f16/f32 denormals); random swizzles (a third);
//!   sparse textures (8 %) with non-resident tiles.
//! - Samplers: every wrap mode per axis, nearest/linear min and mag filters, the three mip
//!   filters, unnormalized coordinates (10 %), bias, LOD clamps, every compare function and a
//!   random or special border colour.
//! - Instructions: every op; integer formats mostly with nearest filters (about 20 % of their
//!   filtered ops fault with `bad_descriptor`); an out-of-range `unit` (unbound) in 3 %.
//!   Coordinates: a coherent quad (lanes a scaled texel step apart, so implicit LOD varies from
//!   magnified to minified) in most vectors, independent lanes or special values (±0, ±Inf, NaN,
//!   denormals, huge) in the rest; cube directions near a random axis (coherent quads, exact
//!   ties between axes, ±0 components) and cube indices in and out of range; array layers in and
//!   out of range; `txf` texels and levels in
//!   range with 15 % out of range; random gradients, biases, LODs, references (with specials and
//!   values outside [0, 1]), offsets (−8…7), write masks and gather components.

use super::{
    mimg, Compare, Filter, Format, MimgAddress, MimgBits, Swz, TexData, TexOp, TexSampler, TexTxn,
    Texture, IDENTITY,
};
use crate::draw::Draw;
use crate::fpmodel::{f16_to_f32, f32_to_f16};
use crate::lod::MipFilter;
use crate::texaddr::{Dim, TexDesc, Wrap};
use texpix_sim::SplitMix64;

const SPECIAL: [u32; 14] = [
    0x0000_0000,
    0x8000_0000,
    0x7FC0_0000,
    0xFFC0_0001,
    0x7F80_0000,
    0xFF80_0000,
    0x0000_0001,
    0x807F_FFFF,
    0x0080_0000,
    0x7F7F_FFFF,
    0x3F80_0000,
    0xBF80_0000,
    0x3F00_0000,
    0x4F00_0000,
];

/// Edge-value texel bytes (each repeated to fill a texel).
const EDGE_BYTES: [&[u8]; 8] = [
    &[0x00],
    &[0xFF],
    &[0x00, 0x80],             // f16 −0 / bytes 0, 128
    &[0x00, 0x7C],             // f16 +Inf
    &[0x01, 0x7E],             // f16 NaN
    &[0x01, 0x00],             // f16 smallest denormal
    &[0x01, 0x00, 0x00, 0x00], // f32 denormal
    &[0x00, 0x00, 0x80, 0x7F], // f32 +Inf
];

/// `n` vectors: random runs (see the module documentation).
pub fn random(seed: u64, n: usize) -> Vec<TexTxn> {
    let mut g = TexStim::new(seed);
    let mut v = Vec::with_capacity(n);
    while v.len() < n {
        let textures = g.textures();
        let run = g.range(1, 24) as usize;
        for _ in 0..run.min(n - v.len()) {
            v.push(g.txn(&textures));
        }
    }
    v
}

/// The stimulus generator.
pub struct TexStim {
    rng: SplitMix64,
}

impl Draw for TexStim {
    fn rng(&mut self) -> &mut SplitMix64 {
        &mut self.rng
    }
}

impl TexStim {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: SplitMix64::new(seed ^ 0x7465_785f_7374_696d),
        }
    }

    fn chance(&mut self, percent: i64) -> bool {
        self.range(0, 99) < percent
    }

    fn size(&mut self) -> u32 {
        match self.range(0, 9) {
            0 => 1,
            1..=4 => self.range(2, 9) as u32,
            5..=7 => 1 << self.range(1, 6),
            _ => self.range(10, 300) as u32,
        }
    }

    /// A random texture.
    pub fn texture(&mut self) -> Texture {
        let format = Format::ALL[self.range(0, Format::ALL.len() as i64 - 1) as usize].0;
        let dim = match self.range(0, 49) {
            0..=7 => Dim::D1,
            8..=25 => Dim::D2,
            26..=31 => Dim::Array1D,
            32..=38 => Dim::Array2D,
            39..=41 => Dim::Cube,
            42..=44 => Dim::ArrayCube,
            _ => Dim::D3,
        };
        let cube = matches!(dim, Dim::Cube | Dim::ArrayCube);
        let width = self.size();
        let height = if matches!(dim, Dim::D1 | Dim::Array1D) {
            1
        } else if cube && self.chance(90) {
            width
        } else {
            self.size()
        };
        // A 3D texture's depth (held in the header's layer field).
        let depth = if dim == Dim::D3 {
            self.size().min(64)
        } else {
            1
        };
        let full = 32 - width.max(height).max(depth).leading_zeros();
        let levels = if self.chance(70) {
            full
        } else {
            self.range(1, i64::from(full)) as u32
        };
        let layers = if dim == Dim::ArrayCube {
            self.range(1, 3) as u32
        } else if dim.is_array() {
            self.range(1, 5) as u32
        } else {
            depth
        };
        let bpp = format.bpp();
        let base = match self.range(0, 9) {
            0..=5 => (self.range(0, 1 << 16) as u64) << 8,
            6..=8 => self.range(0, 1 << 20) as u64 * u64::from(bpp),
            _ => (1u64 << 40) - ((self.range(1, 64) as u64) << 8),
        };
        let sparse = self.chance(8);
        let desc = TexDesc {
            width,
            height,
            layers,
            levels,
            bpp,
            base,
            dim,
            sparse,
        };
        let swizzle = if self.chance(33) {
            std::array::from_fn(|_| Swz::ALL[self.range(0, 5) as usize].0)
        } else {
            IDENTITY
        };
        let mut tex = Texture {
            desc,
            format,
            swizzle,
            nonresident: Vec::new(),
            data: TexData::Hash(self.next()),
        };
        let bytes = tex.chain_bytes();
        if self.chance(25) && bytes <= 1 << 16 {
            let mut d = Vec::with_capacity(bytes as usize);
            while (d.len() as u64) < bytes {
                if self.chance(50) {
                    let e = self.pick(&EDGE_BYTES);
                    for _ in 0..bpp.div_ceil(e.len() as u32).max(1) {
                        d.extend_from_slice(e);
                    }
                } else {
                    d.push(self.next() as u8);
                }
            }
            d.truncate(bytes as usize);
            tex.data = TexData::Bytes(d);
        }
        if sparse {
            let tiles = (bytes >> 16) + 1;
            for _ in 0..self.range(1, 3) {
                let level = self.range(0, i64::from(levels) - 1) as u32;
                let first = (base >> 16) + self.range(0, tiles as i64) as u64;
                tex.nonresident.push((level, first));
            }
        }
        tex
    }

    /// One to three textures.
    pub fn textures(&mut self) -> Vec<Texture> {
        (0..self.range(1, 3)).map(|_| self.texture()).collect()
    }

    fn wrap(&mut self) -> Wrap {
        Wrap::ALL[self.range(0, 4) as usize].0
    }

    fn f32_any(&mut self) -> u32 {
        if self.chance(50) {
            self.pick(&SPECIAL)
        } else {
            self.next() as u32
        }
    }

    /// A random sampler for `tex` (integer formats mostly get nearest filters).
    pub fn sampler(&mut self, tex: Option<&Texture>) -> TexSampler {
        let int = tex.is_some_and(|t| t.format.is_integer()) && !self.chance(20);
        let filter = |g: &mut Self| {
            if int || g.chance(45) {
                Filter::Nearest
            } else {
                Filter::Linear
            }
        };
        let min_filter = filter(self);
        let mag_filter = filter(self);
        let mip_filter = if int {
            self.pick(&[MipFilter::None, MipFilter::Nearest])
        } else {
            MipFilter::ALL[self.range(0, 2) as usize].0
        };
        let border = if tex.is_some_and(|t| t.format.is_integer()) {
            std::array::from_fn(|_| self.range(0, 300) as u32)
        } else {
            std::array::from_fn(|_| {
                if self.chance(70) {
                    (self.unit() as f32).to_bits()
                } else {
                    self.f32_any()
                }
            })
        };
        let min_lod = if self.chance(80) {
            0
        } else {
            self.range(0, 4 * 256) as u32
        };
        TexSampler {
            wrap_s: self.wrap(),
            wrap_t: self.wrap(),
            wrap_r: self.wrap(),
            min_filter,
            mag_filter,
            mip_filter,
            unnormalized: self.chance(10),
            bias: if self.chance(70) {
                0
            } else {
                self.range(-4 * 256, 4 * 256) as i32
            },
            min_lod,
            max_lod: if self.chance(80) {
                15 * 256
            } else {
                self.range(i64::from(min_lod), 4095) as u32
            },
            compare: Compare::ALL[self.range(0, 7) as usize].0,
            border,
            // Anisotropic 30 % of the time, with few or many probes (each costs a pass).
            max_aniso: if self.chance(70) {
                1
            } else if self.chance(40) {
                self.range(2, 4) as u32
            } else {
                self.range(5, 16) as u32
            },
        }
    }

    fn op(&mut self) -> TexOp {
        TexOp::ALL[self.range(0, TexOp::ALL.len() as i64 - 1) as usize].0
    }

    /// A coordinate pair per lane: a coherent quad, independent lanes or specials.
    fn coords(&mut self, tex: Option<&Texture>, unnormalized: bool) -> [[u32; 4]; 4] {
        if let Some(t) = tex.filter(|t| matches!(t.desc.dim, Dim::Cube | Dim::ArrayCube)) {
            if self.chance(90) {
                return self.directions(t);
            }
        }
        let (w, h, layers) =
            tex.map_or((4, 4, 1), |t| (t.desc.width, t.desc.height, t.desc.layers));
        let volume = tex.is_some_and(|t| t.desc.dim == Dim::D3);
        let (sw, sh) = (
            if unnormalized {
                1.0
            } else {
                1.0 / f64::from(w)
            },
            if unnormalized {
                1.0
            } else {
                1.0 / f64::from(h)
            },
        );
        let layer = |g: &mut Self| {
            if volume {
                // r across the volume and a little past it (normalized unless `unnormalized`).
                let scale = if unnormalized { f64::from(layers) } else { 1.0 };
                return (((g.unit() * 1.4 - 0.2) * scale) as f32).to_bits();
            }
            let r = g.range(-1, i64::from(layers));
            let f = r as f64 + if g.chance(30) { g.unit() - 0.5 } else { 0.0 };
            (f as f32).to_bits()
        };
        let mut c = [[0u32; 4]; 4];
        match self.range(0, 9) {
            0..=6 => {
                // Coherent: lane steps of 2^k texels, k in −4…5.
                let step = 2f64.powi(self.range(-4, 5) as i32);
                let (s0, t0) = (
                    (self.unit() * 1.4 - 0.2) * if unnormalized { f64::from(w) } else { 1.0 },
                    (self.unit() * 1.4 - 0.2) * if unnormalized { f64::from(h) } else { 1.0 },
                );
                let (ax, ay) = (self.unit() * 2.0 - 1.0, self.unit() * 2.0 - 1.0);
                // Half the quads stretched along x by 1…32: anisotropic footprints.
                let stretch = if self.chance(50) {
                    2f64.powf(self.unit() * 5.0)
                } else {
                    1.0
                };
                let r0 = layer(self);
                for (l, lane) in c.iter_mut().enumerate() {
                    // A volume's lanes each take their own r (slices and weights differ).
                    let r = if volume { layer(self) } else { r0 };
                    let (dx, dy) = ((l & 1) as f64, (l >> 1) as f64);
                    let s = s0 + step * sw * (dx * stretch + ax * dy);
                    let t = t0 + step * sh * (dy + ay * dx);
                    *lane = [(s as f32).to_bits(), (t as f32).to_bits(), r, 0x3F80_0000];
                }
            }
            7 | 8 => {
                for lane in c.iter_mut() {
                    let s =
                        (self.unit() * 3.0 - 1.0) * if unnormalized { f64::from(w) } else { 1.0 };
                    let t =
                        (self.unit() * 3.0 - 1.0) * if unnormalized { f64::from(h) } else { 1.0 };
                    *lane = [(s as f32).to_bits(), (t as f32).to_bits(), layer(self), 0];
                }
            }
            _ => {
                for lane in c.iter_mut() {
                    *lane = std::array::from_fn(|_| {
                        if self.chance(60) {
                            self.pick(&SPECIAL)
                        } else {
                            (self.unit() as f32).to_bits()
                        }
                    });
                }
            }
        }
        c
    }

    /// Cube directions (s, t, r) and the cube index q: a coherent quad around a random direction
    /// (lanes a scaled texel step apart on the face, so that implicit LOD varies), with exact
    /// ties between axes, ±0 components and directions that straddle face edges.
    fn directions(&mut self, tex: &Texture) -> [[u32; 4]; 4] {
        let w = f64::from(tex.desc.width);
        let cubes = if tex.desc.dim == Dim::ArrayCube {
            tex.desc.layers
        } else {
            1
        };
        let index = |g: &mut Self| {
            let r = g.range(-1, i64::from(cubes));
            let f = r as f64 + if g.chance(30) { g.unit() - 0.5 } else { 0.0 };
            (f as f32).to_bits()
        };
        let major = self.range(0, 2) as usize;
        let scale = 2f64.powi(self.range(-3, 3) as i32) * if self.chance(50) { 1.0 } else { -1.0 };
        let mut base = [0.0f64; 3];
        for (k, b) in base.iter_mut().enumerate() {
            *b = if k == major {
                scale
            } else if self.chance(15) {
                // An exact tie with the major axis (a face edge or corner).
                if self.chance(50) {
                    scale
                } else {
                    -scale
                }
            } else if self.chance(10) {
                0.0
            } else {
                (self.unit() * 2.4 - 1.2) * scale
            };
        }
        let step = 2f64.powi(self.range(-4, 5) as i32) / w * 2.0 * scale.abs();
        let (a, b) = ((major + 1) % 3, (major + 2) % 3);
        let coherent = self.chance(85);
        let q = index(self);
        let mut c = [[0u32; 4]; 4];
        for (l, lane) in c.iter_mut().enumerate() {
            let mut d = base;
            if coherent {
                d[a] += step * (l & 1) as f64;
                d[b] += step * (l >> 1) as f64;
            } else {
                d[a] += step * (self.unit() * 8.0 - 4.0);
                d[b] += step * (self.unit() * 8.0 - 4.0);
            }
            let q = if coherent { q } else { index(self) };
            *lane = [
                (d[0] as f32).to_bits(),
                (d[1] as f32).to_bits(),
                (d[2] as f32).to_bits(),
                q,
            ];
        }
        c
    }

    /// `txf` integer coordinates (i, j, k, level), mostly in range.
    fn txf_coords(&mut self, tex: Option<&Texture>) -> [[u32; 4]; 4] {
        let (w, h, layers, levels) = tex.map_or((4, 4, 1, 1), |t| {
            let layers = match t.desc.dim {
                Dim::Cube => 6,
                Dim::ArrayCube => 6 * t.desc.layers,
                _ => t.desc.layers,
            };
            (t.desc.width, t.desc.height, layers, t.desc.levels)
        });
        let volume = tex.is_some_and(|t| t.desc.dim == Dim::D3);
        std::array::from_fn(|_| {
            let level = if self.chance(90) {
                self.range(0, i64::from(levels) - 1)
            } else {
                self.pick(&[-1, i64::from(levels), 1 << 31, 100])
            };
            let layers = if volume {
                (layers >> level.clamp(0, 15)).max(1)
            } else {
                layers
            };
            let lw = (w >> level.clamp(0, 15)).max(1);
            let lh = (h >> level.clamp(0, 15)).max(1);
            let out = self.chance(15);
            let i = if out {
                self.pick(&[-1, i64::from(lw), -100_000, i64::from(u32::MAX)])
            } else {
                self.range(0, i64::from(lw) - 1)
            };
            let j = if out && self.chance(50) {
                i64::from(lh)
            } else {
                self.range(0, i64::from(lh) - 1)
            };
            let k = if self.chance(90) {
                self.range(0, i64::from(layers) - 1)
            } else {
                i64::from(layers)
            };
            [i as u32, j as u32, k as u32, level as u32]
        })
    }

    /// `txp`: each lane's (s, t, r) times a q (per quad mostly one q, sometimes per lane; now
    /// and then a special q: ±0, ±Inf, NaN, denormal), so that s/q … land where `coords` aimed.
    fn homogeneous(&mut self, coords: &mut [[u32; 4]; 4]) {
        let quad_q = 2f64.powf(self.unit() * 4.0 - 2.0) * if self.chance(10) { -1.0 } else { 1.0 };
        let per_lane = self.chance(30);
        for c in coords.iter_mut() {
            let q = if self.chance(4) {
                f64::from(f32::from_bits(self.pick(&SPECIAL)))
            } else if per_lane {
                2f64.powf(self.unit() * 4.0 - 2.0)
            } else {
                quad_q
            };
            for x in c.iter_mut().take(3) {
                *x = ((f64::from(f32::from_bits(*x)) * q) as f32).to_bits();
            }
            c[3] = (q as f32).to_bits();
        }
    }

    /// One instruction on `textures`.
    pub fn txn(&mut self, textures: &[Texture]) -> TexTxn {
        let unit = if self.chance(3) {
            textures.len() as u32 + self.range(0, 2) as u32
        } else {
            self.range(0, textures.len() as i64 - 1) as u32
        };
        let tex = textures.get(unit as usize);
        let sampler = self.sampler(tex);
        let op = self.op();
        let mut coords = match op {
            TexOp::Txf => self.txf_coords(tex),
            _ => self.coords(tex, sampler.unnormalized),
        };
        if op == TexOp::Txp {
            self.homogeneous(&mut coords);
        }
        let levels = tex.map_or(1, |t| t.desc.levels);
        let grad_scale = 2f64.powi(self.range(-10, 2) as i32);
        let grad = std::array::from_fn(|_| {
            std::array::from_fn(|_| {
                if self.chance(3) {
                    self.pick(&SPECIAL)
                } else {
                    (((self.unit() * 2.0 - 1.0) * grad_scale) as f32).to_bits()
                }
            })
        });
        let lod = std::array::from_fn(|_| match op {
            TexOp::Txq => {
                if self.chance(85) {
                    self.range(0, i64::from(levels) - 1) as u32
                } else {
                    self.pick(&[levels, 15, 16, 0xFFFF_FFFF])
                }
            }
            _ => {
                if self.chance(5) {
                    self.pick(&SPECIAL)
                } else {
                    ((self.unit() * 8.0 - 1.5) as f32).to_bits()
                }
            }
        });
        let bias = std::array::from_fn(|_| {
            if self.chance(5) {
                self.pick(&SPECIAL)
            } else {
                ((self.unit() * 6.0 - 3.0) as f32).to_bits()
            }
        });
        let reference = std::array::from_fn(|_| {
            if self.chance(15) {
                self.pick(&SPECIAL)
            } else {
                ((self.unit() * 1.4 - 0.2) as f32).to_bits()
            }
        });
        let offsets = self.chance(30);
        // dw (the r offset) only moves 3D textures; other dimensions ignore it.
        let offset = std::array::from_fn(|_| {
            if offsets {
                [
                    self.range(-8, 7) as i32,
                    self.range(-8, 7) as i32,
                    self.range(-8, 7) as i32,
                ]
            } else {
                [0, 0, 0]
            }
        });
        let mut t = TexTxn {
            op,
            textures: textures.to_vec(),
            sampler,
            unit,
            coords,
            grad,
            bias,
            lod,
            reference,
            offset,
            wmask: if self.chance(80) {
                15
            } else {
                self.range(0, 15) as u32
            },
            gather_comp: self.range(0, 3) as u32,
            unscaled: self.chance(8),
            sem_wait: self.chance(20),
            sem_acquire: self.chance(20),
            mimg: MimgBits::default(),
        };
        self.mimg_bits(&mut t);
        t
    }

    /// AMD MIMG bits on a third of the instructions: DMASK, D16, TFE, LWE, and on most of those
    /// with a MIMG form the operands moved into address dwords (A16 and G16 at random, the
    /// operands first rounded to what 16 bits hold; junk in the unused bits).
    fn mimg_bits(&mut self, t: &mut TexTxn) {
        if !self.chance(33) {
            return;
        }
        let m = &mut t.mimg;
        if t.op != TexOp::Gather4 {
            m.dmask = if self.chance(40) {
                15
            } else {
                self.range(0, 15) as u32
            };
        }
        m.d16 = self.chance(50);
        m.tfe = self.chance(40);
        m.lwe = self.chance(25);
        let has_form = !matches!(
            t.op,
            TexOp::Txp | TexOp::Nop | TexOp::LookupUncached | TexOp::KillLt0
        );
        if !has_form || !self.chance(75) {
            return;
        }
        let a16 = self.chance(30);
        let g16 = t.op == TexOp::Txd && self.chance(50);
        let integer = matches!(t.op, TexOp::Txf | TexOp::Txq);
        let half = |x: u32| f16_to_f32(f32_to_f16(x));
        let short = |x: u32| if integer { x & 0xFFFF } else { half(x) };
        let has_off = t.offset != [[0; 3]; 4] || self.chance(20);
        let dim = super::mimg_dim(t);
        let mut vaddr: [Vec<u32>; 4] = Default::default();
        for (l, lane) in vaddr.iter_mut().enumerate() {
            let mut u = mimg::Unpacked {
                coord: t.coords[l],
                lod: t.lod[l],
                bias: t.bias[l],
                zref: t.reference[l],
                grad: t.grad[l],
                off: ((t.offset[l][0] & 15)
                    | (t.offset[l][1] & 15) << 4
                    | (t.offset[l][2] & 15) << 8) as u16,
                count: 0,
            };
            if a16 {
                u.coord = u.coord.map(short);
                u.lod = short(u.lod);
                u.bias = half(u.bias);
            }
            if g16 {
                u.grad = u.grad.map(half);
            }
            let mut junk = || self.next() as u32;
            *lane = mimg::pack_address(t.op as u32, dim, has_off, a16, g16, &u, &mut junk);
        }
        t.coords = [[0; 4]; 4];
        t.grad = [[0; 4]; 4];
        t.bias = [0; 4];
        t.lod = [0; 4];
        t.reference = [0; 4];
        t.offset = [[0; 3]; 4];
        let m = &mut t.mimg;
        m.a16 = a16;
        m.g16 = g16;
        m.address = Some(MimgAddress {
            vaddr,
            nsa: self.chance(50),
            offset: has_off,
        });
    }
}

/// The standard sweep's texture: 512×512 `rgba8`, full mip chain (10 levels), hash-filled, at 0.
pub fn sweep_texture() -> Texture {
    Texture {
        desc: TexDesc {
            width: 512,
            height: 512,
            layers: 1,
            levels: 10,
            bpp: 4,
            base: 0,
            dim: Dim::D2,
            sparse: false,
        },
        format: Format::Rgba8,
        swizzle: IDENTITY,
        nonresident: Vec::new(),
        data: TexData::Hash(0x5EED),
    }
}

/// A screen-space sweep: `qx`×`qy` quads in raster order (quad rows top to bottom), pixel (x, y)
/// sampling `tex` (implicit LOD, bilinear min/mag, linear mip, repeat) at
/// s = (x + 0.5)·`texels_per_pixel` / 512, likewise t: 0.5 magnifies 2×, 1 is 1:1, 4 minifies 4:1.
pub fn sweep(texels_per_pixel: f64, qx: u32, qy: u32) -> Vec<TexTxn> {
    sweep_xy(texels_per_pixel, texels_per_pixel, 1, qx, qy)
}

/// [`sweep`] with separate texels per pixel along x (`sx`) and y (`sy`) and the sampler's
/// `max_aniso`: sx = 4, sy = 1 with max_aniso ≥ 4 takes four probes per lane at level 0.
pub fn sweep_xy(sx: f64, sy: f64, max_aniso: u32, qx: u32, qy: u32) -> Vec<TexTxn> {
    let textures = vec![sweep_texture()];
    let sampler = TexSampler {
        min_filter: Filter::Linear,
        mag_filter: Filter::Linear,
        mip_filter: MipFilter::Linear,
        max_aniso,
        ..TexSampler::default()
    };
    let mut v = Vec::with_capacity((qx * qy) as usize);
    for y in 0..qy {
        for x in 0..qx {
            let coords = std::array::from_fn(|l| {
                let px = f64::from(2 * x + (l as u32 & 1)) + 0.5;
                let py = f64::from(2 * y + (l as u32 >> 1)) + 0.5;
                let s = px * sx / 512.0;
                let t = py * sy / 512.0;
                [(s as f32).to_bits(), (t as f32).to_bits(), 0, 0x3F80_0000]
            });
            v.push(TexTxn {
                op: TexOp::Tex,
                textures: textures.clone(),
                sampler,
                unit: 0,
                coords,
                grad: [[0; 4]; 4],
                bias: [0; 4],
                lod: [0; 4],
                reference: [0; 4],
                offset: [[0; 3]; 4],
                wmask: 15,
                gather_comp: 0,
                unscaled: false,
                sem_wait: false,
                sem_acquire: false,
                mimg: MimgBits::default(),
            });
        }
    }
    v
}

/// [`sweep`] over a tile of `tile`×`tile` quads repeated across `qx`×`qy` quads (quad (x, y)
/// samples as the tile's quad (x mod tile, y mod tile)): once the tile's lines are in the cache
/// every lookup hits, so the run measures the hit throughput at that footprint.
pub fn sweep_tiled(texels_per_pixel: f64, tile: u32, qx: u32, qy: u32) -> Vec<TexTxn> {
    let t = sweep(texels_per_pixel, tile, tile);
    let mut v = Vec::with_capacity((qx * qy) as usize);
    for y in 0..qy {
        for x in 0..qx {
            v.push(t[((y % tile) * tile + x % tile) as usize].clone());
        }
    }
    v
}

/// The standard sweep of the bench: magnified (2×), 1:1 and 4:1-minified passes of 32×32 quads
/// (64×64 pixels) each, in that order, over one texture (the cache is flushed once, at the start).
pub fn standard_sweep() -> Vec<(&'static str, Vec<TexTxn>)> {
    vec![
        ("magnified 2x", sweep(0.5, 32, 32)),
        ("1:1", sweep(1.0, 32, 32)),
        ("minified 4:1", sweep(4.0, 32, 32)),
    ]
}
