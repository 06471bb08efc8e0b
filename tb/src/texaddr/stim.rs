//! Random and edge-case stimulus for the texture address unit.
//!
//! [`TexAddrStim::txn`] first returns the fixed vectors of [`edge_cases`]: every wrap mode ×
//! nearest/linear × normalized/unnormalized on a 5×3 texture with coordinates exactly at and one
//! or two ULPs around texel and half-texel boundaries (k/(2n)), negative and huge coordinates, ±0,
//! ±Inf, NaN, denormals and the largest finite values, extreme offsets (−8, 7); 1×1, odd,
//! non-power-of-two and 32768-texel textures at their first and last levels; every bpp; every
//! dimension (3D/cube ones give `reserved_param_a`); array layers in and out of range; TXQ at levels
//! in and out of range; trilinear; levels beyond the last; sparse textures whose non-resident tiles
//! are hit; a base that wraps past 2^48; then TXD instructions: every combination of
//! bindless/.LC/.AOFFI × the eight paramA codes × OpenGL mode × the legacy {tid, smp} or ts_idx
//! spelling (256 vectors), header and sampler pointers one below, at and one above MaximumIndex
//! (with and without OpenGL mode), unbound headers (absent, null), bad descriptors (bpp_log2
//! 5…7, wrap codes 5…7 on either axis) and type mismatches.
//!
//! Random vectors then mix both forms (about 30 % TXD), all dimensions, sizes (1, small odd,
//! powers of two, any size up to 32768), levels, bpp, layers (15 % of array indices out of range),
//! wrap modes per axis, filters, normalization, offsets, trilinear (25 %), TXQ (5 %), sparse
//! textures (12 %), λ and LOD warnings, pointer values and decoy pool entries, and about 10 %
//! faulting quads. Coordinates: a third on texel / half-texel boundaries ± 0…2 ULPs, some special
//! values and huge magnitudes, the rest spread over a few texture widths; half of the quads are
//! coherent (lanes one or a few texels apart). Bases keep base + texture size < 2^48 except for
//! 3 %, which wrap.
//!
//! Sparse textures get non-resident tiles chosen from the golden model's own tap addresses of the
//! vector: each lane is picked to fail with probability 0.4 (lanes with only border taps cannot
//! fail, so about a third of the sparse lanes fail) and one of its tiles, preferably one no
//! other lane touches, is made non-resident, beside decoy tiles nobody touches.
//!
//! [`lanes_for_wrap`] generates vectors for the golden-versus-ideal comparison: one wrap mode on
//! both axes, direct form, finite coordinates with |u| < 2^20 texels (most inside the texture).

use crate::draw::Draw;
use crate::texaddr::{
    golden, ideal, pack_lane, Dim, Form, Header, HeaderFields, Lane, LaneOps, Op, SamplerDesc,
    TexAddrTxn, TexDesc, Txd, Wrap, ADDR_MASK, TILE_SHIFT,
};
use texpix_sim::SplitMix64;

const NAN: u32 = 0x7FC0_0000;
const INF: u32 = 0x7F80_0000;
const NEG_INF: u32 = 0xFF80_0000;

/// Special f32 coordinates.
pub const SPECIAL: [u32; 18] = [
    0x0000_0000, // +0
    0x8000_0000, // -0
    NAN,
    0xFFC0_0001, // negative NaN with payload
    INF,
    NEG_INF,
    0x0000_0001, // smallest denormal
    0x8000_0001,
    0x007F_FFFF, // largest denormal
    0x807F_FFFF,
    0x0080_0000, // smallest normal
    0x7F7F_FFFF, // largest finite
    0xFF7F_FFFF,
    0x3F80_0000, // 1
    0xBF80_0000, // -1
    0x3F00_0000, // 0.5
    0x4B80_0001, // 2^24 + 2
    0xCE80_0000, // -2^30
];

const BPPS: [u32; 5] = [1, 2, 4, 8, 16];
const POOL_MAX: u32 = (1 << 20) - 1;
/// The largest sampler pointer a handle can carry (12 bits).
const SMP_PTR_MAX: u32 = 4095;

fn next_ulps(x: f32, d: i32) -> f32 {
    let mut y = x;
    for _ in 0..d.unsigned_abs() {
        y = if d > 0 { y.next_up() } else { y.next_down() };
    }
    y
}

/// Levels of a full mip chain of a w×h texture.
fn full_levels(w: u32, h: u32) -> u32 {
    32 - w.max(h).leading_zeros()
}

/// A texture at base 0 (size computed later).
fn tex(w: u32, h: u32, layers: u32, levels: u32, bpp: u32, dim: Dim) -> TexDesc {
    TexDesc {
        width: w,
        height: h,
        layers,
        levels,
        bpp,
        base: 0,
        dim,
        sparse: false,
    }
}

/// Bytes of all levels of `t`.
pub fn texture_bytes(t: &TexDesc) -> u128 {
    let t0 = TexDesc {
        base: 0,
        ..t.clone()
    };
    ideal::level_start(&t0, t.levels)
}

fn sampler(wrap_s: Wrap, wrap_t: Wrap, linear: bool, unnormalized: bool) -> SamplerDesc {
    SamplerDesc {
        wrap_s,
        wrap_t,
        linear,
        unnormalized,
    }
}

fn direct(tex: TexDesc, smp: SamplerDesc, lanes: [Lane; 4], level: u32) -> TexAddrTxn {
    TexAddrTxn {
        form: Form::Direct {
            tex,
            nonresident: Vec::new(),
            sampler: smp,
            lanes,
        },
        op: Op::Sample,
        level,
        mip: None,
        lambda: [0; 4],
        lod_warning: [false; 4],
    }
}

fn lane(s: u32, t: u32, layer: u32, offset: [i32; 2]) -> Lane {
    Lane {
        s,
        t,
        layer,
        offset,
    }
}

/// Coordinates at and around the texel and half-texel boundaries k/(2n) of an n-texel axis (k/2
/// texels unnormalized), −2n … 4n, with ±1 ULP, and the special values.
fn boundary_list(n: u32, unnormalized: bool) -> Vec<u32> {
    let mut v = Vec::new();
    let scale = if unnormalized {
        2.0
    } else {
        2.0 * f64::from(n)
    };
    for k in -(2 * n as i64)..=(4 * n as i64) {
        let x = (k as f64 / scale) as f32;
        for d in [-1, 0, 1] {
            v.push(next_ulps(x, d).to_bits());
        }
    }
    v.extend(SPECIAL);
    v.extend([1e7f32, -1e7, 12345.678, -9876.5, 3.0e38, -3.0e38].map(f32::to_bits));
    v
}

/// What a TXD vector is meant to hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    Valid,
    Reserved,
    HeaderPtr,
    SamplerPtr,
    Unbound,
    BadBpp,
    BadWrap,
    Mismatch,
}

/// Pool sizes and pointers of a TXD vector.
#[derive(Clone, Copy, Debug)]
struct Ptrs {
    header_max: u32,
    sampler_max: u32,
    hdr: u32,
    /// The handle's sampler field (ignored in OpenGL mode).
    smp: u32,
}

/// The TXD spelling of a vector.
#[derive(Clone, Copy, Debug)]
struct Shape {
    bindless: bool,
    lc: bool,
    aoffi: bool,
    ogl: bool,
    legacy: bool,
    param_a: u32,
}

/// A deterministic texture-address vector generator: the edge cases, then random vectors.
#[derive(Clone, Debug)]
pub struct TexAddrStim {
    rng: SplitMix64,
    edge: std::vec::IntoIter<TexAddrTxn>,
}

/// `n` vectors from seed `seed` (the edge cases first).
pub fn random(seed: u64, n: usize) -> Vec<TexAddrTxn> {
    let mut s = TexAddrStim::new(seed);
    (0..n).map(|_| s.txn()).collect()
}

impl Draw for TexAddrStim {
    fn rng(&mut self) -> &mut SplitMix64 {
        &mut self.rng
    }
}

impl TexAddrStim {
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
    pub fn txn(&mut self) -> TexAddrTxn {
        self.edge.next().unwrap_or_else(|| self.random_txn())
    }

    fn urange(&mut self, lo: u32, hi: u32) -> u32 {
        self.range(i64::from(lo), i64::from(hi)) as u32
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 1000 < percent * 10
    }

    fn sign(&mut self) -> f64 {
        if self.chance(50) {
            -1.0
        } else {
            1.0
        }
    }

    /// A texture dimension (texels).
    fn size(&mut self) -> u32 {
        match self.range(0, 19) {
            0 => 1,
            1 => self.pick(&[32767, 32768, 16384, 4097]),
            2..=4 => self.pick(&[2, 3, 5, 7, 9, 13, 31, 33]),
            5..=9 => 1 << self.range(0, 12),
            _ => self.urange(1, 2048),
        }
    }

    fn wrap(&mut self) -> Wrap {
        self.pick(&Wrap::ALL).0
    }

    fn dim(&mut self) -> Dim {
        match self.range(0, 99) {
            0..=14 => Dim::D1,
            15..=49 => Dim::D2,
            50..=64 => Dim::Array1D,
            _ => Dim::Array2D,
        }
    }

    /// A random texture of dimension `dim` with its base placed (mostly) below 2^48.
    fn texture(&mut self, dim: Dim) -> TexDesc {
        let one_d = dim.coords() == 1;
        let width = self.size();
        let height = if one_d && self.chance(60) {
            1
        } else {
            self.size()
        };
        let layers = if dim.is_array() {
            match self.range(0, 9) {
                0 => 1,
                1 => self.pick(&[65536, 2048, 300, 4097]),
                _ => self.urange(2, 12),
            }
        } else if self.chance(80) {
            1
        } else {
            self.urange(1, 4)
        };
        let eff_h = if one_d { 1 } else { height };
        let full = full_levels(width, eff_h);
        let levels = if self.chance(85) {
            self.urange(1, full)
        } else {
            self.urange(1, 16)
        };
        let mut t = tex(width, height, layers, levels, self.pick(&BPPS), dim);
        t.sparse = self.chance(12);
        while texture_bytes(&t) >= 1 << 44 && t.layers > 1 {
            t.layers = (t.layers / 8).max(1);
        }
        self.place(&mut t);
        t
    }

    /// A base address: below 2^48 − size (256-aligned mostly), or 3 % wrapping past 2^48.
    fn place(&mut self, t: &mut TexDesc) {
        let size = texture_bytes(t) as u64;
        if self.chance(3) {
            t.base = ADDR_MASK - (self.next() % size.max(1));
            return;
        }
        let room = (1u64 << 48) - size;
        let b = self.next() % room;
        t.base = match self.range(0, 9) {
            0 => b,
            1 | 2 => b & !3,
            _ => b & !255,
        };
    }

    fn sampler_desc(&mut self) -> SamplerDesc {
        sampler(self.wrap(), self.wrap(), self.chance(50), self.chance(20))
    }

    /// A coordinate for an n-texel axis.
    fn coord(&mut self, n: u32, unnormalized: bool) -> u32 {
        let nf = if unnormalized { 1.0 } else { f64::from(n) };
        let val = |u: f64| (u / nf) as f32;
        match self.range(0, 99) {
            // Texel and half-texel boundaries, ± 0…2 ULPs.
            0..=32 => {
                let k = match self.range(0, 3) {
                    0 => self.range(-4, 4),
                    1 => 2 * i64::from(n) + self.range(-4, 4),
                    2 => self.range(-4 * i64::from(n), 6 * i64::from(n)),
                    _ => self.range(-(1 << 21), 1 << 21),
                };
                let d = self.pick(&[-2, -1, -1, 0, 0, 1, 1, 2]);
                next_ulps(val(k as f64 / 2.0), d).to_bits()
            }
            33..=40 => self.pick(&SPECIAL),
            41..=44 => {
                let e = self.range(10, 127) as i32;
                let x = self.sign() * 2f64.powi(e) * (1.0 + self.unit());
                (x as f32).to_bits()
            }
            45 | 46 => self.next() as u32,
            _ => val((self.unit() * 4.0 - 1.5) * f64::from(n)).to_bits(),
        }
    }

    fn offset(&mut self) -> [i32; 2] {
        if self.chance(50) {
            [0, 0]
        } else {
            [self.range(-8, 7) as i32, self.range(-8, 7) as i32]
        }
    }

    /// Four lanes for `tex` at `level`.
    fn lanes(&mut self, tex: &TexDesc, smp: &SamplerDesc, level: u32) -> [Lane; 4] {
        let (w, h) = ideal::level_size(tex, level.min(tex.levels - 1));
        let (w, h) = (w as u32, h as u32);
        let un = smp.unnormalized;
        let coherent = self.chance(50);
        let step = |s: &mut Self, n: u32| -> f32 {
            let texels =
                s.pick(&[0.0, 0.25, 1.0, 1.0, 3.5]) * if s.chance(50) { -1.0 } else { 1.0 };
            (if un { texels } else { texels / f64::from(n) }) as f32
        };
        let (dx, dy) = (step(self, w), step(self, h));
        let mut lanes = [Lane::default(); 4];
        for l in 0..4 {
            let (s, t) = if coherent && l > 0 {
                let (x, y) = ((l & 1) as f32, (l >> 1) as f32);
                (
                    (f32::from_bits(lanes[0].s) + x * dx).to_bits(),
                    (f32::from_bits(lanes[0].t) + y * dy).to_bits(),
                )
            } else {
                (self.coord(w, un), self.coord(h, un))
            };
            let layers = if tex.dim.is_array() { tex.layers } else { 1 };
            let layer = if self.chance(15) {
                self.urange(layers.min(65535), 65535)
            } else {
                self.urange(0, layers.min(65536) - 1)
            };
            lanes[l] = lane(s, t, layer, self.offset());
        }
        lanes
    }

    /// A λ·256 and warning per lane.
    fn lod_extras(&mut self, t: &mut TexAddrTxn) {
        if self.chance(60) {
            t.lambda = [0; 4].map(|_: i32| self.range(-16 * 256, 16 * 256) as i32);
        }
        if self.chance(40) {
            t.lod_warning = [false; 4].map(|_| self.chance(40));
        }
    }

    fn choose_ptrs(&mut self, want: Want, ogl: bool) -> Ptrs {
        let mut header_max = match self.range(0, 9) {
            0 => 0,
            1 => POOL_MAX,
            2 => self.urange(1, POOL_MAX - 1),
            _ => self.urange(1, 64),
        };
        let mut sampler_max = match self.range(0, 9) {
            0 => 0,
            1 => SMP_PTR_MAX,
            2 => POOL_MAX,
            _ => self.urange(1, 64),
        };
        let mut hdr = if self.chance(20) {
            header_max
        } else {
            self.urange(0, header_max)
        };
        let smp_top = sampler_max.min(SMP_PTR_MAX);
        let mut smp = if self.chance(20) {
            smp_top
        } else {
            self.urange(0, smp_top)
        };
        match want {
            Want::HeaderPtr => {
                if header_max == POOL_MAX {
                    header_max = self.urange(0, 64);
                }
                hdr = if self.chance(50) {
                    header_max + 1
                } else {
                    self.urange(header_max + 1, POOL_MAX)
                };
            }
            Want::SamplerPtr if ogl => {
                if header_max == 0 {
                    header_max = self.urange(1, 64);
                }
                sampler_max = self.urange(0, header_max - 1);
                hdr = if self.chance(50) {
                    sampler_max + 1
                } else {
                    self.urange(sampler_max + 1, header_max)
                };
            }
            Want::SamplerPtr => {
                if sampler_max >= SMP_PTR_MAX {
                    sampler_max = self.urange(0, 64);
                }
                smp = if self.chance(50) {
                    sampler_max + 1
                } else {
                    self.urange(sampler_max + 1, SMP_PTR_MAX)
                };
            }
            _ => {
                if ogl && hdr > sampler_max {
                    sampler_max = (hdr + self.urange(0, 2)).min(POOL_MAX);
                }
            }
        }
        Ptrs {
            header_max,
            sampler_max,
            hdr,
            smp,
        }
    }

    /// A TXD instruction addressing `tex` with `smp_desc` and the lanes' operands.
    fn make_txd(
        &mut self,
        tex: &TexDesc,
        smp_desc: &SamplerDesc,
        lanes: &[Lane; 4],
        shape: Shape,
        want: Want,
        p: Ptrs,
    ) -> Txd {
        let Shape {
            bindless,
            lc,
            aoffi,
            ogl,
            legacy,
            param_a,
        } = shape;
        let smp_field = if ogl {
            // Garbage: OpenGL mode reads the sampler at the header pointer.
            self.urange(0, SMP_PTR_MAX)
        } else {
            p.smp
        };
        let smp_ptr = if ogl { p.hdr } else { p.smp };
        let handle = smp_field << 20 | p.hdr;
        // Header pool.
        let mut headers = Vec::new();
        if self.chance(40) {
            let dim = self.dim();
            let d = self.texture(dim);
            headers.push((
                p.hdr ^ 1,
                Header {
                    words: d.to_words(),
                    nonresident: Vec::new(),
                },
            ));
        }
        let mut words = tex.to_words();
        if want == Want::BadBpp {
            words[1] = (words[1] & !(7 << 16)) | self.urange(5, 7) << 16;
        }
        match want {
            Want::Unbound if self.chance(50) => {}
            Want::Unbound => headers.push((p.hdr, Header::default())),
            _ => headers.push((
                p.hdr,
                Header {
                    words,
                    nonresident: Vec::new(),
                },
            )),
        }
        // Sampler pool: the sampler at its pointer, a decoy where the other mode would look.
        let mut sw = smp_desc.to_word();
        if want == Want::BadWrap {
            let shift = self.pick(&[0, 3]);
            sw = (sw & !(7 << shift)) | self.urange(5, 7) << shift;
        }
        let mut samplers = vec![(smp_ptr, sw)];
        let decoy = if ogl { smp_field } else { p.hdr };
        if decoy != smp_ptr && self.chance(60) {
            let d = self.sampler_desc().to_word();
            samplers.insert(self.urange(0, 1) as usize, (decoy, d));
        }
        // Constant bank.
        let ts_idx = self.urange(0, 8191);
        let (tid, smpi) = (ts_idx & 0xFF, ts_idx >> 8);
        let mut cbank = Vec::new();
        if !bindless || self.chance(50) {
            let entry = if bindless { self.next() as u32 } else { handle };
            cbank.push((ts_idx, entry));
            for idx in [ts_idx ^ 1, (tid << 5 | smpi) & 0x1FFF] {
                if idx != ts_idx && self.chance(50) {
                    cbank.push((idx, self.next() as u32));
                }
            }
        }
        // Registers.
        let dim = Dim::from_code(param_a);
        let used = usize::from(bindless)
            + 1
            + usize::from(dim.coords() == 2)
            + usize::from(lc || aoffi || dim.is_array());
        let mut ra = [[0u32; 4]; 4];
        for (l, ln) in lanes.iter().enumerate() {
            let h = if l == 0 || self.chance(80) {
                handle
            } else {
                self.next() as u32
            };
            let ops = LaneOps {
                s: ln.s,
                t: ln.t,
                array: ln.layer,
                offset: ln.offset,
                lod_clamp: if self.chance(30) {
                    self.pick(&[0, 0xFFF])
                } else {
                    self.urange(0, 0xFFF)
                },
            };
            ra[l] = pack_lane(bindless, lc, aoffi, dim, h, &ops);
            if self.chance(50) {
                for r in ra[l].iter_mut().skip(used) {
                    *r = self.next() as u32;
                }
            }
        }
        Txd {
            bindless,
            lc,
            aoffi,
            param_a,
            ts_idx,
            legacy: legacy.then_some((tid, smpi)),
            ogl,
            ra,
            cbank,
            header_max: p.header_max,
            sampler_max: p.sampler_max,
            headers,
            samplers,
        }
    }

    /// paramA for a texture of dimension `dim`: same coordinate count, array-ness usually the
    /// texture's (either is legal).
    fn param_for(&mut self, dim: Dim) -> u32 {
        let coords = match dim.coords() {
            0 => self.urange(1, 2),
            c => c,
        };
        let arr = if self.chance(70) {
            dim.is_array()
        } else {
            !dim.is_array()
        };
        match (coords, arr) {
            (1, false) => 0,
            (2, false) => 1,
            (1, true) => 4,
            _ => 5,
        }
    }

    fn random_shape(&mut self, param_a: u32) -> Shape {
        let bindless = self.chance(50);
        Shape {
            bindless,
            lc: self.chance(50),
            aoffi: self.chance(60),
            ogl: self.chance(25),
            legacy: self.chance(if bindless { 10 } else { 35 }),
            param_a,
        }
    }

    /// One random vector.
    pub fn random_txn(&mut self) -> TexAddrTxn {
        let as_txd = self.chance(30);
        let want = if as_txd && self.chance(28) {
            self.pick(&[
                Want::Reserved,
                Want::HeaderPtr,
                Want::SamplerPtr,
                Want::Unbound,
                Want::BadBpp,
                Want::BadWrap,
                Want::Mismatch,
            ])
        } else {
            Want::Valid
        };
        let mut dim = if !as_txd && self.chance(2) {
            self.pick(&[Dim::D3, Dim::Cube, Dim::Array3D, Dim::ArrayCube])
        } else {
            self.dim()
        };
        if want == Want::Mismatch && self.chance(30) {
            dim = self.pick(&[Dim::D3, Dim::Cube, Dim::Array3D, Dim::ArrayCube]);
        }
        let tx = self.texture(dim);
        let smp = self.sampler_desc();
        let level = if self.chance(5) {
            self.urange(tx.levels.min(15), 15)
        } else {
            self.urange(0, tx.levels - 1)
        };
        let lanes = self.lanes(&tx, &smp, level);
        let mut t = direct(tx.clone(), smp, lanes, level);
        if self.chance(25) {
            let l1 = if self.chance(70) {
                (level + 1).min(15)
            } else {
                self.urange(0, 15)
            };
            let frac = match self.range(0, 4) {
                0 => self.pick(&[0, 1, 128, 255]),
                _ => self.urange(0, 255),
            };
            t.mip = Some((l1, frac));
        }
        if self.chance(5) {
            t.op = Op::Txq;
            t.level = if self.chance(70) {
                self.urange(0, tx.levels - 1)
            } else {
                self.urange(tx.levels.min(15), 15)
            };
            if !as_txd && self.chance(50) {
                if let Form::Direct { lanes, .. } = &mut t.form {
                    *lanes = [Lane::default(); 4];
                }
            }
        }
        self.lod_extras(&mut t);
        if as_txd {
            let mut param_a = self.param_for(tx.dim);
            match want {
                Want::Reserved => param_a = self.pick(&[2, 3, 6, 7]),
                Want::Mismatch if tx.dim.coords() != 0 => param_a ^= 1,
                _ => {}
            }
            let shape = self.random_shape(param_a);
            let p = self.choose_ptrs(want, shape.ogl);
            t.form = Form::Txd(self.make_txd(&tx, &smp, &lanes, shape, want, p));
        }
        self.add_residency(&mut t);
        t
    }

    /// Makes tiles of a sparse texture non-resident: for each lane picked to fail (1/3), a tile
    /// its taps touch (preferably one no other lane touches); plus decoy tiles nobody touches.
    fn add_residency(&mut self, t: &mut TexAddrTxn) {
        let txd = t.lower();
        let (hdr, _) = txd.pointers();
        let h = HeaderFields::from_words(&txd.header(hdr).words);
        if !h.sparse {
            return;
        }
        let r = golden(t);
        let tiles: Vec<Vec<(u32, u64)>> = r
            .lanes
            .iter()
            .map(|l| {
                l.taps
                    .iter()
                    .filter(|tp| !tp.border)
                    .map(|tp| {
                        let off = tp.addr.wrapping_sub(h.level_start(tp.level)) & ADDR_MASK;
                        (tp.level, off >> TILE_SHIFT)
                    })
                    .collect()
            })
            .collect();
        let fail: Vec<bool> = (0..4).map(|_| self.chance(40)).collect();
        let mut nonres: Vec<(u32, u64)> = Vec::new();
        for l in 0..4 {
            if !fail[l] || tiles[l].is_empty() {
                continue;
            }
            let own: Vec<(u32, u64)> = tiles[l]
                .iter()
                .filter(|x| (0..4).all(|m| fail[m] || !tiles[m].contains(x)))
                .copied()
                .collect();
            let pool = if !own.is_empty() {
                own
            } else if self.chance(30) {
                tiles[l].clone()
            } else {
                continue;
            };
            let x = self.pick(&pool);
            if !nonres.contains(&x) {
                nonres.push(x);
            }
        }
        for _ in 0..self.range(0, 2) {
            let x = (self.urange(0, 15), self.next() % 64);
            if tiles.iter().all(|ts| !ts.contains(&x)) && !nonres.contains(&x) {
                nonres.push(x);
            }
        }
        match &mut t.form {
            Form::Direct { nonresident, .. } => *nonresident = nonres,
            Form::Txd(x) => {
                if let Some(e) = x.headers.iter_mut().rev().find(|e| e.0 == hdr) {
                    e.1.nonresident = nonres;
                }
            }
        }
    }
}

/// The fixed edge cases (the first vectors of every stimulus stream).
pub fn edge_cases() -> Vec<TexAddrTxn> {
    let mut s = TexAddrStim::random_only(0x7E7_ADD2);
    let mut v = Vec::new();
    let z = [0, 0];
    // Every wrap × filter × normalization on a 5×3 texture, boundary coordinates on both axes.
    for (mode, _) in Wrap::ALL {
        for linear in [false, true] {
            for un in [false, true] {
                let mut t5 = tex(5, 3, 1, 1, 4, Dim::D2);
                t5.base = 0x1000;
                let smp = sampler(mode, mode, linear, un);
                let us = boundary_list(5, un);
                let mut vs = boundary_list(3, un);
                vs.reverse();
                let n = us.len().max(vs.len());
                for (c, k) in (0..n).step_by(4).enumerate() {
                    let lanes: [Lane; 4] = std::array::from_fn(|l| {
                        let q = k + l;
                        let off = if c % 3 == 2 {
                            [(q % 16) as i32 - 8, 7 - (q % 16) as i32]
                        } else {
                            z
                        };
                        lane(us[q % us.len()], vs[q % vs.len()], 0, off)
                    });
                    v.push(direct(t5.clone(), smp, lanes, 0));
                }
            }
        }
    }
    // Sizes: 1×1, odd, non-powers of two, 32768, at the first, last and beyond-last levels.
    let sizes = [
        (1, 1, Dim::D2),
        (1, 1, Dim::D1),
        (3, 7, Dim::D2),
        (1000, 1, Dim::D1),
        (4097, 3, Dim::Array2D),
        (32768, 32768, Dim::D2),
        (32768, 1, Dim::D1),
        (1, 32768, Dim::D2),
        (32767, 32767, Dim::Array1D),
    ];
    for (w, h, dim) in sizes {
        let full = full_levels(w, if dim.coords() == 1 { 1 } else { h });
        for levels in [1, full, 16] {
            for (mode, _) in Wrap::ALL {
                let linear = s.chance(50);
                let mut t = tex(w, h, 2, levels, s.pick(&BPPS), dim);
                s.place(&mut t);
                let smp = sampler(mode, s.wrap(), linear, s.chance(20));
                for level in [0, levels - 1, 15] {
                    let lanes = s.lanes(&t, &smp, level);
                    v.push(direct(t.clone(), smp, lanes, level));
                }
            }
        }
    }
    // Every bpp and every dimension (3D/cube ones: reserved paramA).
    for bpp in BPPS {
        for (dim, _) in Dim::ALL {
            let mut t = tex(37, 21, 5, 6, bpp, dim);
            s.place(&mut t);
            let smp = s.sampler_desc();
            let lanes = s.lanes(&t, &smp, 2);
            v.push(direct(t, smp, lanes, 2));
        }
    }
    // Layers in and out of range; extreme offsets.
    for (layers, dim) in [
        (6, Dim::Array2D),
        (65536, Dim::Array1D),
        (1, Dim::Array2D),
        (6, Dim::D2),
    ] {
        let mut t = tex(16, 8, layers, 3, 4, dim);
        t.base = 1 << 20;
        let smp = sampler(Wrap::ClampToEdge, Wrap::Repeat, true, false);
        let h = 0.5f32.to_bits();
        let lanes = [
            lane(h, h, 0, [-8, -8]),
            lane(h, h, layers.min(65536) - 1, [7, 7]),
            lane(h, h, layers.min(65535), [-8, 7]),
            lane(h, h, 65535, [7, -8]),
        ];
        v.push(direct(t, smp, lanes, 0));
    }
    // TXQ at levels in and out of range, 1D / 2D / array.
    for dim in [Dim::D1, Dim::D2, Dim::Array1D, Dim::Array2D, Dim::D3] {
        let t = tex(100, 36, 9, 7, 2, dim);
        for level in [0, 3, 6, 7, 15] {
            let mut x = direct(t.clone(), s.sampler_desc(), [Lane::default(); 4], level);
            x.op = Op::Txq;
            v.push(x);
        }
    }
    // Trilinear: the next level, a clamped one, fractions 0 / 128 / 255.
    for (level, l1, frac) in [(0, 1, 0), (2, 3, 128), (4, 5, 255), (5, 9, 77), (9, 12, 1)] {
        let mut t = tex(64, 48, 3, 7, 8, Dim::Array2D);
        s.place(&mut t);
        let smp = sampler(s.wrap(), s.wrap(), true, false);
        let lanes = s.lanes(&t, &smp, level);
        let mut x = direct(t, smp, lanes, level);
        x.mip = Some((l1, frac));
        v.push(x);
    }
    // Sparse textures with non-resident tiles that are hit (λ and warnings for the status word).
    for k in 0..24 {
        let mut t = tex(
            s.pick(&[256, 1024, 4096]),
            s.pick(&[1, 256, 512]),
            s.urange(1, 4),
            s.urange(1, 6),
            s.pick(&BPPS),
            s.dim(),
        );
        t.sparse = true;
        s.place(&mut t);
        let smp = s.sampler_desc();
        let lanes = s.lanes(&t, &smp, 0);
        let mut x = direct(t, smp, lanes, 0);
        if k % 2 == 1 {
            x.mip = Some((1, 100));
        }
        x.lambda = [-512, 0, 300, 4095];
        x.lod_warning = [true, k % 3 == 0, false, true];
        s.add_residency(&mut x);
        v.push(x);
    }
    // A base that wraps past 2^48.
    let mut t = tex(256, 256, 1, 9, 16, Dim::D2);
    t.base = ADDR_MASK - 4095;
    let smp = sampler(Wrap::Repeat, Wrap::Repeat, true, false);
    let lanes = s.lanes(&t, &smp, 0);
    v.push(direct(t, smp, lanes, 0));

    // TXD: every flag combination × paramA × OpenGL mode × spelling of the pointer index.
    for bindless in [false, true] {
        for lc in [false, true] {
            for aoffi in [false, true] {
                for param_a in 0..8u32 {
                    for ogl in [false, true] {
                        for legacy in [false, true] {
                            let pd = Dim::from_code(param_a);
                            let (want, dim) = match pd.coords() {
                                0 => (Want::Reserved, s.dim()),
                                1 => (Want::Valid, s.pick(&[Dim::D1, Dim::Array1D])),
                                _ => (Want::Valid, s.pick(&[Dim::D2, Dim::Array2D])),
                            };
                            let shape = Shape {
                                bindless,
                                lc,
                                aoffi,
                                ogl,
                                legacy,
                                param_a,
                            };
                            v.push(s.txd_vector(dim, shape, want, None));
                        }
                    }
                }
            }
        }
    }
    // Pointers one below, at and one above MaximumIndex.
    for ogl in [false, true] {
        for (hmax, smax) in [
            (0, 0),
            (5, 7),
            (6, 5),
            (POOL_MAX, SMP_PTR_MAX),
            (40, POOL_MAX),
        ] {
            let hs = [hmax.saturating_sub(1), hmax, hmax + 1];
            let mut ss: Vec<u32> = [smax.saturating_sub(1), smax, smax + 1]
                .into_iter()
                .filter(|&p| p <= SMP_PTR_MAX)
                .collect();
            if ss.is_empty() {
                ss = vec![SMP_PTR_MAX - 1, SMP_PTR_MAX];
            }
            for hdr in hs.into_iter().filter(|&h| h <= POOL_MAX) {
                for &smp in &ss {
                    let p = Ptrs {
                        header_max: hmax,
                        sampler_max: smax,
                        hdr,
                        smp,
                    };
                    let shape = s.random_shape(1);
                    let shape = Shape { ogl, ..shape };
                    v.push(s.txd_vector(Dim::D2, shape, Want::Valid, Some(p)));
                }
            }
        }
    }
    // Unbound, bad descriptors, type mismatches.
    for want in [Want::Unbound, Want::BadBpp, Want::BadWrap, Want::Mismatch] {
        for k in 0..6 {
            let dim = if want == Want::Mismatch && k >= 3 {
                s.pick(&[Dim::D3, Dim::Cube, Dim::Array3D, Dim::ArrayCube])
            } else {
                s.dim()
            };
            let mut pa = s.param_for(dim);
            if want == Want::Mismatch && dim.coords() != 0 {
                pa ^= 1;
            }
            let shape = s.random_shape(pa);
            v.push(s.txd_vector(dim, shape, want, None));
        }
    }
    v
}

impl TexAddrStim {
    /// A TXD vector on a random texture of dimension `dim`.
    fn txd_vector(&mut self, dim: Dim, shape: Shape, want: Want, p: Option<Ptrs>) -> TexAddrTxn {
        let tx = self.texture(dim);
        let smp = self.sampler_desc();
        let level = self.urange(0, tx.levels - 1);
        let lanes = self.lanes(&tx, &smp, level);
        let p = p.unwrap_or_else(|| self.choose_ptrs(want, shape.ogl));
        let mut t = direct(tx.clone(), smp, lanes, level);
        self.lod_extras(&mut t);
        t.form = Form::Txd(self.make_txd(&tx, &smp, &lanes, shape, want, p));
        self.add_residency(&mut t);
        t
    }
}

/// Vectors for the golden-versus-ideal comparison of one wrap mode (on both axes): direct form,
/// random sizes (non-powers of two included, up to 32768), dimensions, levels, bpp, layers,
/// nearest/linear, normalized/unnormalized, offsets, trilinear (20 %), finite coordinates with
/// |u| < 2^20 texels (a fifth on texel / half-texel boundaries ± 0…2 ULPs, 5 % ±0, denormals and
/// tiny values, 55 % inside the texture, 20 % of any magnitude from 1/8 texel to 2^20).
/// `n` lanes: ⌈n/4⌉ vectors.
pub fn lanes_for_wrap(seed: u64, wrap: Wrap, n: usize) -> impl Iterator<Item = TexAddrTxn> {
    let mut s = TexAddrStim::random_only(seed ^ ((wrap as u64) << 56));
    (0..n.div_ceil(4)).map(move |_| s.wrap_txn(wrap))
}

impl TexAddrStim {
    /// A finite coordinate with |u| < 2^20 texels on an n-texel axis.
    fn bounded_coord(&mut self, n: u32, unnormalized: bool) -> u32 {
        let nf = if unnormalized { 1.0 } else { f64::from(n) };
        let limit = (1 << 20) as f64;
        let x = match self.range(0, 99) {
            // Texel and half-texel boundaries ± 0…2 ULPs.
            0..=19 => {
                let k = match self.range(0, 3) {
                    0 => self.range(-8, 8),
                    1 => 2 * i64::from(n) + self.range(-8, 8),
                    2 => self.range(-i64::from(n), 3 * i64::from(n)),
                    _ => self.range(-(1 << 21) + 1, (1 << 21) - 1),
                };
                let d = self.pick(&[-2, -1, 0, 1, 2]);
                next_ulps((k as f64 / 2.0 / nf) as f32, d)
            }
            // ±0, denormals, tiny values.
            20..=22 => f32::from_bits(self.pick(&[
                0,
                0x8000_0000,
                1,
                0x8000_0001,
                0x007F_FFFF,
                0x807F_FFFF,
            ])),
            23 | 24 => {
                let e = self.range(-140, -1) as i32;
                (self.sign() * 2f64.powi(e) * (1.0 + self.unit())) as f32
            }
            // Mostly inside the texture.
            25..=79 => ((self.unit() * 1.2 - 0.1) * f64::from(n) / nf) as f32,
            // Any magnitude from 1/8 texel to 2^20 texels.
            _ => {
                let e = self.range(-3, 19) as i32;
                (self.sign() * 2f64.powi(e) * (1.0 + self.unit()) / nf) as f32
            }
        };
        if (f64::from(x) * nf).abs() < limit {
            x.to_bits()
        } else {
            0
        }
    }

    fn wrap_txn(&mut self, wrap: Wrap) -> TexAddrTxn {
        let dim = match self.range(0, 9) {
            0 => Dim::D1,
            1 => Dim::Array1D,
            2..=6 => Dim::D2,
            _ => Dim::Array2D,
        };
        let mut tx = self.texture(dim);
        tx.sparse = false;
        let smp = sampler(wrap, wrap, self.chance(50), self.chance(25));
        let level = self.urange(0, tx.levels - 1);
        let (w, h) = ideal::level_size(&tx, level);
        let lanes = std::array::from_fn(|_| Lane {
            s: self.bounded_coord(w as u32, smp.unnormalized),
            t: self.bounded_coord(h as u32, smp.unnormalized),
            layer: if self.chance(10) {
                self.urange(0, 65535)
            } else {
                self.urange(0, tx.layers.min(65536) - 1)
            },
            offset: self.offset(),
        });
        let mut t = direct(tx, smp, lanes, level);
        if self.chance(20) {
            // Level 1 at or above level 0 (coordinates stay within 2^20 texels).
            t.mip = Some(((level + self.urange(0, 2)).min(15), self.urange(0, 255)));
        }
        t
    }
}
