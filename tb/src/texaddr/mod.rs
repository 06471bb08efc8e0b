//! The texture address pipeline's transactions and its bit-accurate golden model
//! (docs/units/texaddr.md; NVIDIA's TXD, TGSI's TXQ, the AMD RDNA ISA's T# and sparse textures).
//!
//! # The hardware algorithm (the RTL computes exactly this)
//! **0. Lowering.** A vector comes either in the direct form (`tex`, `sampler`, `lanes`) or
//! as a TXD instruction ([`Txd`]: register payload, immediates, constant bank, header and sampler
//! pools). The direct form is lowered to a TXD instruction ([`TexAddrTxn::lower`]): bindless
//! (`.B`), handle 0 (header 0, sampler 0), pools holding just that texture and sampler, both
//! MaximumIndex 0, paramA = the texture's dimension, `.AOFFI` set and every lane's registers
//! packed as NVIDIA's TXD register packing says. Every transaction therefore goes through the
//! decoder.
//!
//! **1. Decode (NVIDIA's TXD).** paramA (3 bits) is the row of its paramA table: 0 1D, 1 2D, 2 3D,
//! 3 CUBE, 4 ARRAY_1D, 5 ARRAY_2D, 6 ARRAY_3D, 7 ARRAY_CUBE; 2, 3, 6 and 7 are RESERVED and the
//! decoder rejects them ([`Fault::ReservedParamA`]). The handle {samplerPtr[31:20] | headerPtr[19:0]}
//! is lane 0's Ra+0 with `.B` (a quad uses one texture: the hardware takes lane 0's handle; a shader
//! with divergent handles loops), else the constant-bank word at #tsPtrIdxU13 (the legacy form
//! {#smpU05, #tidU08} is folded into it: tsPtrIdx = smp·256 + tid). In OpenGL mode
//! (ViaHeaderBinding) the sampler pointer is the header pointer. Header pointer > header
//! MaximumIndex ⇒ [`Fault::HeaderPtr`]; sampler pointer > sampler MaximumIndex ⇒
//! [`Fault::SamplerPtr`]; neither fetches a descriptor. Per lane, Ra+0… hold, compacted upwards,
//! [handle (.B only)], s, [t (2D)], [the word (present iff .LC or .AOFFI or an ARRAY paramA)].
//! The word is {LodClamp[31:20] | toff[19:12] | array[11:0]} with .LC, {toff[27:16] | array[15:0]}
//! without; toff's low byte is `((v & 0xf) << 4) | (u & 0xf)`, 4-bit two's complement. Offsets
//! apply only with .AOFFI, the array index only with an ARRAY paramA, the clamp only with .LC.
//!
//! **2. Descriptors** (this model's layout; no public reference fixes it). Header, four words:
//! w0 = base[31:0]; w1 = base[47:32] | bpp_log2 << 16 (0…4) | dim << 19 (paramA's encoding) |
//! sparse << 22 | (levels − 1) << 24 | bound << 31; w2 = (width − 1) | (height − 1) << 16 (15 bits
//! each); w3 = layers − 1 (16 bits). All four words zero ⇒ unbound ([`Fault::Unbound`], as in the
//! AMD RDNA ISA); the encoder always sets the bound bit so that no real texture encodes as zero.
//! Sampler, one word: wrap_s[2:0] | wrap_t[5:3] (0 repeat, 1 mirrored repeat, 2 clamp to edge,
//! 3 clamp to border, 4 mirror clamp to edge) | linear << 6 | unnormalized << 7. bpp_log2 > 4 or
//! a wrap code > 4 ⇒ [`Fault::BadDescriptor`]. A texture dimension that is not 1D/2D (array or
//! not) or whose coordinate count differs from paramA's ⇒ [`Fault::TypeMismatch`] (array paramA
//! on a non-array texture and vice versa is allowed). Any fault: every lane returns no taps, zero
//! weights, no memory request; TXQ returns zeros.
//!
//! **3. Levels.** level0 = min(`level`, levels − 1); with `mip` (trilinear) level1 = min(level1,
//! levels − 1) and `frac` passes through. w_l = max(1, width >> l), h_l likewise (h = 1 for 1D);
//! layers = 1 for non-array textures; layer = min(array index, layers − 1).
//!
//! **4. Coordinates, per axis** (size n = w_l or h_l). Texture sampling flushes denormal
//! coordinates to ±0; NaN is read as 0. With repeat or mirrored repeat and normalized coordinates,
//! c = ⌊256·n·s⌋ mod (256·P·n), P = 1 (repeat) or 2 (mirrored), computed exactly (±Inf ⇒ c = 0, the
//! limit of large floats, which are even integers). Otherwise c = clamp(⌊256·scale·s⌋, −2^30,
//! 2^30 − 1), scale = n (normalized) or 1 (unnormalized), exact before the clamp (±Inf saturate).
//! For normalized coordinates the clamp never changes a result: every coordinate it touches lies
//! far outside any texture and those modes clamp. Unnormalized coordinates wrap with every mode
//! (as the conformance examples do; Vulkan forbids repeat there) within the 24.8 range: beyond
//! ±2^22 texels they are clamped first. Then t = c − 128·linear + 256·offset, i0 = ⌊t/256⌋,
//! weight = t mod 256 (α/256; 0 for nearest), i1 = i0 + 1. Each of i0, i1 wraps
//! (docs/units/texaddr.md §5): repeat i mod n; mirrored repeat (n−1) − mirror((i mod 2n) − n);
//! clamp to edge clamp(i, 0, n−1); clamp to border clamp(i, −1, n), border iff i < 0 or i ≥ n;
//! mirror clamp to edge clamp(mirror(i), 0, n−1); mirror(x) = x ≥ 0 ? x : −(1 + x).
//!
//! **5. Taps and addresses.** Linear: (i0,j0), (i1,j0), (i0,j1), (i1,j1); nearest: (i0,j0); 1D:
//! j = 0 and only the i taps. Trilinear appends level1's taps. Byte addresses are 48-bit (modulo
//! 2^48): level_start(l) = base + Σ_{k<l} align256(w_k·h_k·bpp·layers);
//! addr = level_start + layer·w_l·h_l·bpp + j·w_l·bpp + i·bpp. A border tap has `addr` 0 and no
//! memory request.
//!
//! **6. Sparse textures.** With the header's sparse bit, each non-border tap's 64 KiB tile,
//! tile = (addr − level_start(l)) >> 16, is looked up in the residency map of its level; a tap in a
//! non-resident tile fails the lane (TEXEL_FAIL): the lane issues no memory request (its taps are
//! still reported) and its status word is TEXEL_FAIL | LOD_WARNING << 1 | ⌊λ⌋ << 16
//! (docs/units/lod.md §3 step 8, with λ·256 and the warning from the LOD unit; TEXEL_FAIL takes
//! precedence over the warning).
//! `req` is the lane's memory-request mask, one bit per tap: not border, lane not failed.
//!
//! **7. TXQ** (`op` "txq"; TGSI, AMD RDNA ISA): [w_l, h_l, layers, levels] of `level` (not
//! clamped); a level ≥ levels gives [0, 0, 0, levels]. No taps, no memory request.

pub mod dut;
pub mod ideal;
mod io;
pub mod stim;
mod unit;

pub use ideal::{ideal_json, IdealAxis, IdealLane, IdealTap};
pub use io::{parse_line, result_json, txn_json};
pub use unit::TexAddr;

/// Addresses are this many bits wide (wrapping).
pub const ADDR_BITS: u32 = 48;
/// Mask of an address.
pub const ADDR_MASK: u64 = (1 << ADDR_BITS) - 1;
/// Bytes per residency tile.
pub const TILE_SHIFT: u32 = 16;
/// Coordinates clamp to this (24.8 fixed point, exclusive upper bound).
pub const COORD_LIMIT: i64 = 1 << 30;

/// paramA (in the order of NVIDIA TXD's paramA table), also the header's dimension code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    D1 = 0,
    D2 = 1,
    D3 = 2,
    Cube = 3,
    Array1D = 4,
    Array2D = 5,
    Array3D = 6,
    ArrayCube = 7,
}

impl Dim {
    /// Every code with its vector name.
    pub const ALL: [(Dim, &'static str); 8] = [
        (Dim::D1, "1d"),
        (Dim::D2, "2d"),
        (Dim::D3, "3d"),
        (Dim::Cube, "cube"),
        (Dim::Array1D, "1d_array"),
        (Dim::Array2D, "2d_array"),
        (Dim::Array3D, "3d_array"),
        (Dim::ArrayCube, "cube_array"),
    ];
    /// From the 3-bit code.
    pub fn from_code(c: u32) -> Dim {
        Self::ALL[(c & 7) as usize].0
    }
    /// The vector name.
    pub fn name(self) -> &'static str {
        Self::ALL[self as usize].1
    }
    /// Coordinates TXD reads: 1 or 2 (0 for the RESERVED 3D/CUBE forms).
    pub fn coords(self) -> u32 {
        match self {
            Dim::D1 | Dim::Array1D => 1,
            Dim::D2 | Dim::Array2D => 2,
            _ => 0,
        }
    }
    /// An array dimension.
    pub fn is_array(self) -> bool {
        (self as u32) & 4 != 0
    }
}

/// Wrap (address) mode of one axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrap {
    Repeat = 0,
    MirroredRepeat = 1,
    ClampToEdge = 2,
    ClampToBorder = 3,
    MirrorClampToEdge = 4,
}

impl Wrap {
    /// Every mode with its vector name.
    pub const ALL: [(Wrap, &'static str); 5] = [
        (Wrap::Repeat, "repeat"),
        (Wrap::MirroredRepeat, "mirrored_repeat"),
        (Wrap::ClampToEdge, "clamp_to_edge"),
        (Wrap::ClampToBorder, "clamp_to_border"),
        (Wrap::MirrorClampToEdge, "mirror_clamp_to_edge"),
    ];
    /// The vector name.
    pub fn name(self) -> &'static str {
        Self::ALL[self as usize].1
    }
    /// From the 3-bit code (`None` for 5…7).
    pub fn from_code(c: u32) -> Option<Wrap> {
        Self::ALL.get(c as usize).map(|w| w.0)
    }
}

/// A texture (the fields of its header).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TexDesc {
    pub width: u32,
    pub height: u32,
    pub layers: u32,
    pub levels: u32,
    /// Bytes per texel: 1, 2, 4, 8 or 16.
    pub bpp: u32,
    /// Byte address of level 0 (48 bits).
    pub base: u64,
    pub dim: Dim,
    /// Partially resident.
    pub sparse: bool,
}

impl TexDesc {
    /// The four header words (see the module documentation).
    pub fn to_words(&self) -> [u32; 4] {
        [
            self.base as u32,
            ((self.base >> 32) as u32 & 0xFFFF)
                | self.bpp.trailing_zeros() << 16
                | (self.dim as u32) << 19
                | u32::from(self.sparse) << 22
                | (self.levels - 1) << 24
                | 1 << 31,
            (self.width - 1) | (self.height - 1) << 16,
            self.layers - 1,
        ]
    }
}

/// A sampler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SamplerDesc {
    pub wrap_s: Wrap,
    pub wrap_t: Wrap,
    pub linear: bool,
    pub unnormalized: bool,
}

impl SamplerDesc {
    /// The sampler word.
    pub fn to_word(&self) -> u32 {
        self.wrap_s as u32
            | (self.wrap_t as u32) << 3
            | u32::from(self.linear) << 6
            | u32::from(self.unnormalized) << 7
    }
}

/// A header pool entry: its words and, for a sparse texture, the non-resident tiles
/// `(level, tile)` of its residency map.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Header {
    pub words: [u32; 4],
    pub nonresident: Vec<(u32, u64)>,
}

/// One lane of the direct form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Lane {
    /// f32 bits.
    pub s: u32,
    pub t: u32,
    /// Array index (u16).
    pub layer: u32,
    /// Texel offset (−8…7) per axis.
    pub offset: [i32; 2],
}

/// A TXD instruction with the state it reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Txd {
    /// `.B`: the handle is in Ra+0.
    pub bindless: bool,
    /// `.LC`.
    pub lc: bool,
    /// `.AOFFI`.
    pub aoffi: bool,
    /// paramA code (0…7).
    pub param_a: u32,
    /// #tsPtrIdxU13.
    pub ts_idx: u32,
    /// The legacy {#tidU08, #smpU05} spelling, if the vector used it (kept for printing).
    pub legacy: Option<(u32, u32)>,
    /// SetSamplerBinding.ViaHeaderBinding (OpenGL): the header pointer is the sampler pointer.
    pub ogl: bool,
    /// Ra+0…3 per lane.
    pub ra: [[u32; 4]; 4],
    /// Constant-bank words (index, value); others read as 0.
    pub cbank: Vec<(u32, u32)>,
    /// SetTexHeaderPoolC.MaximumIndex.
    pub header_max: u32,
    /// SetSamplerHeaderPoolC.MaximumIndex.
    pub sampler_max: u32,
    /// Header pool entries (index, header); others are all zero (unbound).
    pub headers: Vec<(u32, Header)>,
    /// Sampler pool entries (index, word); others are 0.
    pub samplers: Vec<(u32, u32)>,
}

impl Txd {
    /// The constant-bank word at `idx`.
    pub fn cbank_word(&self, idx: u32) -> u32 {
        self.cbank
            .iter()
            .rev()
            .find(|e| e.0 == idx)
            .map_or(0, |e| e.1)
    }
    /// The header at `idx` (all zero if absent).
    pub fn header(&self, idx: u32) -> Header {
        self.headers
            .iter()
            .rev()
            .find(|e| e.0 == idx)
            .map_or_else(Header::default, |e| e.1.clone())
    }
    /// The sampler word at `idx` (0 if absent).
    pub fn sampler(&self, idx: u32) -> u32 {
        self.samplers
            .iter()
            .rev()
            .find(|e| e.0 == idx)
            .map_or(0, |e| e.1)
    }
    /// The quad's handle: lane 0's Ra+0 with `.B`, else the constant-bank entry.
    pub fn handle(&self) -> u32 {
        if self.bindless {
            self.ra[0][0]
        } else {
            self.cbank_word(self.ts_idx)
        }
    }
    /// (header pointer, sampler pointer).
    pub fn pointers(&self) -> (u32, u32) {
        let h = self.handle();
        let hdr = h & 0xF_FFFF;
        (hdr, if self.ogl { hdr } else { h >> 20 })
    }
}

/// The form a vector came in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// The direct form's `tex`, `sampler`, `lanes` (with the texture's residency map).
    Direct {
        tex: TexDesc,
        nonresident: Vec<(u32, u64)>,
        sampler: SamplerDesc,
        lanes: [Lane; 4],
    },
    /// A TXD instruction.
    Txd(Txd),
}

/// Operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Address a sample (TXD and the sampling ops).
    Sample,
    /// TXQ size query.
    Txq,
}

/// One vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TexAddrTxn {
    pub form: Form,
    pub op: Op,
    /// Level (the LOD unit's level0; TXQ's level operand).
    pub level: u32,
    /// Trilinear: (level1, mip fraction 0…255).
    pub mip: Option<(u32, u32)>,
    /// λ·256 per lane (for the status word).
    pub lambda: [i32; 4],
    /// The LOD unit's warning per lane.
    pub lod_warning: [bool; 4],
}

/// Why a quad returned zeros.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    None = 0,
    ReservedParamA = 1,
    HeaderPtr = 2,
    SamplerPtr = 3,
    Unbound = 4,
    BadDescriptor = 5,
    TypeMismatch = 6,
}

impl Fault {
    /// Every code with its result name.
    pub const ALL: [(Fault, &'static str); 7] = [
        (Fault::None, "none"),
        (Fault::ReservedParamA, "reserved_param_a"),
        (Fault::HeaderPtr, "invalid_header_ptr"),
        (Fault::SamplerPtr, "invalid_sampler_ptr"),
        (Fault::Unbound, "unbound"),
        (Fault::BadDescriptor, "bad_descriptor"),
        (Fault::TypeMismatch, "type_mismatch"),
    ];
    /// From the 3-bit code (7 reads as none).
    pub fn from_code(c: u32) -> Fault {
        Self::ALL.get(c as usize).map_or(Fault::None, |f| f.0)
    }
    /// The result name.
    pub fn name(self) -> &'static str {
        Self::ALL[self as usize].1
    }
    /// No descriptor is fetched for this fault.
    pub fn before_fetch(self) -> bool {
        matches!(
            self,
            Fault::ReservedParamA | Fault::HeaderPtr | Fault::SamplerPtr
        )
    }
}

/// One texel tap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Tap {
    pub i: i32,
    pub j: i32,
    pub layer: u32,
    pub level: u32,
    pub addr: u64,
    pub border: bool,
}

/// One lane's result.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct LaneResult {
    pub taps: Vec<Tap>,
    /// Level 0's weights (α·256 along u and v).
    pub wu: u32,
    pub wv: u32,
    /// Level 1's weights (trilinear; else 0).
    pub wu1: u32,
    pub wv1: u32,
    /// Memory-request mask (bit k: tap k is fetched). The RTL reader sets bit 16 + slot for a
    /// request from a slot outside the footprint, so that the scoreboard reports it.
    pub req: u32,
    /// TEXEL_FAIL.
    pub fail: bool,
    /// TFE status word.
    pub status: u32,
    /// The decoded .LC clamp (u4.8; 0 without .LC).
    pub lod_clamp: u32,
}

/// One quad's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TexAddrResult {
    pub lanes: [LaneResult; 4],
    pub fault: Fault,
    /// Mip fraction (trilinear; else 0).
    pub frac: u32,
    /// TXQ: [width, height, layers, levels] (zeros for a sample op).
    pub size: [u32; 4],
}

/// Decoded per-lane operands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaneOps {
    pub s: u32,
    pub t: u32,
    pub array: u32,
    pub offset: [i32; 2],
    pub lod_clamp: u32,
}

/// A 4-bit two's complement field.
pub fn s4(x: u32) -> i32 {
    ((x & 0xF) as i32) << 28 >> 28
}

/// Packs a lane's registers for a TXD instruction (NVIDIA's TXD packing, compacted upwards).
pub fn pack_lane(
    bindless: bool,
    lc: bool,
    aoffi: bool,
    dim: Dim,
    handle: u32,
    ops: &LaneOps,
) -> [u32; 4] {
    let mut r = Vec::with_capacity(4);
    if bindless {
        r.push(handle);
    }
    r.push(ops.s);
    if dim.coords() == 2 {
        r.push(ops.t);
    }
    if lc || aoffi || dim.is_array() {
        let toff = ((ops.offset[1] as u32 & 0xF) << 4) | (ops.offset[0] as u32 & 0xF);
        r.push(if lc {
            (ops.lod_clamp & 0xFFF) << 20 | toff << 12 | (ops.array & 0xFFF)
        } else {
            toff << 16 | (ops.array & 0xFFFF)
        });
    }
    r.resize(4, 0);
    [r[0], r[1], r[2], r[3]]
}

/// Extracts a lane's operands from its registers (NVIDIA's TXD packing).
pub fn unpack_lane(txd: &Txd, ra: &[u32; 4]) -> LaneOps {
    let dim = Dim::from_code(txd.param_a);
    let mut k = usize::from(txd.bindless);
    let s = ra[k];
    k += 1;
    let mut t = 0;
    if dim.coords() == 2 {
        t = ra[k];
        k += 1;
    }
    let mut o = LaneOps {
        s,
        t,
        ..LaneOps::default()
    };
    if txd.lc || txd.aoffi || dim.is_array() {
        let w = ra[k.min(3)];
        let (lc, toff, array) = if txd.lc {
            (w >> 20, (w >> 12) & 0xFF, w & 0xFFF)
        } else {
            (0, (w >> 16) & 0xFF, w & 0xFFFF)
        };
        if txd.lc {
            o.lod_clamp = lc;
        }
        if txd.aoffi {
            o.offset = [s4(toff), s4(toff >> 4)];
        }
        if dim.is_array() {
            o.array = array;
        }
    }
    o
}

impl TexAddrTxn {
    /// The TXD instruction this vector is (see the module documentation, step 0).
    pub fn lower(&self) -> Txd {
        match &self.form {
            Form::Txd(t) => t.clone(),
            Form::Direct {
                tex,
                nonresident,
                sampler,
                lanes,
            } => {
                let ra = std::array::from_fn(|l| {
                    let ln = &lanes[l];
                    let ops = LaneOps {
                        s: ln.s,
                        t: ln.t,
                        array: ln.layer,
                        offset: ln.offset,
                        lod_clamp: 0,
                    };
                    pack_lane(true, false, true, tex.dim, 0, &ops)
                });
                Txd {
                    bindless: true,
                    lc: false,
                    aoffi: true,
                    param_a: tex.dim as u32,
                    ts_idx: 0,
                    legacy: None,
                    ogl: false,
                    ra,
                    cbank: Vec::new(),
                    header_max: 0,
                    sampler_max: 0,
                    headers: vec![(
                        0,
                        Header {
                            words: tex.to_words(),
                            nonresident: nonresident.clone(),
                        },
                    )],
                    samplers: vec![(0, sampler.to_word())],
                }
            }
        }
    }
}

/// A decoded header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeaderFields {
    pub base: u64,
    pub bpp_log2: u32,
    pub dim: Dim,
    pub sparse: bool,
    pub levels: u32,
    pub width: u32,
    pub height: u32,
    pub layers: u32,
}

impl HeaderFields {
    /// Field extraction (no validity checks).
    pub fn from_words(w: &[u32; 4]) -> Self {
        Self {
            base: u64::from(w[0]) | u64::from(w[1] & 0xFFFF) << 32,
            bpp_log2: (w[1] >> 16) & 7,
            dim: Dim::from_code(w[1] >> 19),
            sparse: (w[1] >> 22) & 1 != 0,
            levels: ((w[1] >> 24) & 0xF) + 1,
            width: (w[2] & 0x7FFF) + 1,
            height: ((w[2] >> 16) & 0x7FFF) + 1,
            layers: (w[3] & 0xFFFF) + 1,
        }
    }
    /// Height as addressed (1 for 1D).
    pub fn eff_height(&self) -> u32 {
        if self.dim.coords() == 1 {
            1
        } else {
            self.height
        }
    }
    /// Layers as stored (1 for non-array; a cube's six faces, a cube array's six per cube: the
    /// address pipeline rejects cubes, the texture unit addresses them as a 2D array of faces).
    pub fn eff_layers(&self) -> u32 {
        match self.dim {
            Dim::Cube => 6,
            Dim::ArrayCube => 6 * self.layers,
            d if d.is_array() => self.layers,
            _ => 1,
        }
    }
    /// Layers (slices) of level `l` as stored: a 3D texture's depth halves per level,
    /// max(1, depth >> l) with depth = `layers` (the address pipeline rejects 3D; the texture
    /// unit addresses each level as a 2D array of its slices); otherwise [`Self::eff_layers`].
    pub fn level_layers(&self, l: u32) -> u32 {
        if self.dim == Dim::D3 {
            (self.layers >> l).max(1)
        } else {
            self.eff_layers()
        }
    }
    /// Size of level `l` (w, h).
    pub fn level_size(&self, l: u32) -> (u32, u32) {
        ((self.width >> l).max(1), (self.eff_height() >> l).max(1))
    }
    /// Byte address of level `l`'s first texel (modulo 2^48).
    pub fn level_start(&self, l: u32) -> u64 {
        let mut a = self.base;
        for k in 0..l {
            let (w, h) = self.level_size(k);
            let sz =
                ((u64::from(w) * u64::from(h)) << self.bpp_log2) * u64::from(self.level_layers(k));
            a = a.wrapping_add((sz + 255) & !255);
        }
        a & ADDR_MASK
    }
}

/// Flushes a denormal to ±0 and reads NaN as +0 (texture coordinate rules).
pub fn sanitize(s: u32) -> u32 {
    let e = (s >> 23) & 0xFF;
    let f = s & 0x7F_FFFF;
    if e == 0 {
        s & 0x8000_0000
    } else if e == 0xFF && f != 0 {
        0
    } else {
        s
    }
}

/// ⌊256·scale·s⌋ exactly, as (sign, magnitude-rounded value) in i128, `None` for ±Inf or when the
/// magnitude exceeds 2^100 (callers saturate or reduce).
fn scaled_floor(s: u32, scale: u32) -> Option<i128> {
    let s = sanitize(s);
    let e = ((s >> 23) & 0xFF) as i32;
    if e == 0xFF {
        return None;
    }
    let neg = s >> 31 != 0;
    let m = if e == 0 {
        0
    } else {
        (s & 0x7F_FFFF) | 0x80_0000
    } as i128;
    let p = m * i128::from(scale);
    // value = p · 2^(e − 142)
    let k = e - 142;
    let v = if k >= 0 {
        if k > 60 {
            return None;
        }
        if neg {
            -(p << k)
        } else {
            p << k
        }
    } else {
        let sh = (-k).min(120) as u32;
        if neg {
            -((p + (1i128 << sh) - 1) >> sh)
        } else {
            p >> sh
        }
    };
    Some(v)
}

/// `a · 2^k mod m` for k ≥ 0 (m > 0).
fn mul_pow2_mod(a: i128, k: u32, m: i128) -> i128 {
    let mut r = a.rem_euclid(m);
    for _ in 0..k {
        r = (r * 2) % m;
    }
    r
}

/// The fixed-point coordinate c of step 4.
pub fn coord_fixed(s: u32, n: u32, wrap: Wrap, unnormalized: bool) -> i64 {
    let periodic = !unnormalized && matches!(wrap, Wrap::Repeat | Wrap::MirroredRepeat);
    if periodic {
        let period = if wrap == Wrap::MirroredRepeat { 2 } else { 1 };
        let m = 256 * period * i128::from(n);
        let s = sanitize(s);
        let e = ((s >> 23) & 0xFF) as i32;
        if e == 0xFF || e == 0 {
            return 0;
        }
        let k = e - 142;
        let c = if k > 60 {
            let mag = (i128::from((s & 0x7F_FFFF) | 0x80_0000)) * i128::from(n);
            let r = mul_pow2_mod(mag, k as u32, m);
            if s >> 31 != 0 {
                (-r).rem_euclid(m)
            } else {
                r
            }
        } else {
            scaled_floor(s, n).unwrap_or(0).rem_euclid(m)
        };
        c as i64
    } else {
        let scale = if unnormalized { 1 } else { n };
        let neg = sanitize(s) >> 31 != 0;
        let v = scaled_floor(s, scale).unwrap_or(if neg { i128::MIN } else { i128::MAX });
        v.clamp(-(COORD_LIMIT as i128), COORD_LIMIT as i128 - 1) as i64
    }
}

/// mirror(x) of docs/units/texaddr.md §5.
pub fn mirror(x: i64) -> i64 {
    if x >= 0 {
        x
    } else {
        -(1 + x)
    }
}

/// Wraps one integer coordinate: (coordinate, border).
pub fn wrap_coord(i: i64, n: u32, wrap: Wrap) -> (i32, bool) {
    let n = i64::from(n);
    let (c, b) = match wrap {
        Wrap::Repeat => (i.rem_euclid(n), false),
        Wrap::MirroredRepeat => ((n - 1) - mirror(i.rem_euclid(2 * n) - n), false),
        Wrap::ClampToEdge => (i.clamp(0, n - 1), false),
        Wrap::ClampToBorder => (i.clamp(-1, n), i < 0 || i >= n),
        Wrap::MirrorClampToEdge => (mirror(i).clamp(0, n - 1), false),
    };
    (c as i32, b)
}

/// One axis: (i0, border0), (i1, border1), weight.
pub fn axis(
    s: u32,
    n: u32,
    wrap: Wrap,
    linear: bool,
    unnormalized: bool,
    offset: i32,
) -> ((i32, bool), (i32, bool), u32) {
    let c = coord_fixed(s, n, wrap, unnormalized);
    let t = c - if linear { 128 } else { 0 } + 256 * i64::from(offset);
    let i0 = t.div_euclid(256);
    let w = if linear { t.rem_euclid(256) as u32 } else { 0 };
    (wrap_coord(i0, n, wrap), wrap_coord(i0 + 1, n, wrap), w)
}

/// The decoder's verdict before any descriptor fetch, and the pointers.
pub fn decode_fault(txd: &Txd) -> Fault {
    let (hdr, smp) = txd.pointers();
    if Dim::from_code(txd.param_a).coords() == 0 {
        Fault::ReservedParamA
    } else if hdr > txd.header_max {
        Fault::HeaderPtr
    } else if smp > txd.sampler_max {
        Fault::SamplerPtr
    } else {
        Fault::None
    }
}

/// The full fault check (decoder, then descriptors).
pub fn fault(txd: &Txd) -> Fault {
    let f = decode_fault(txd);
    if f != Fault::None {
        return f;
    }
    let (hdr, smp) = txd.pointers();
    let h = txd.header(hdr);
    if h.words == [0; 4] {
        return Fault::Unbound;
    }
    let hf = HeaderFields::from_words(&h.words);
    let sw = txd.sampler(smp);
    if hf.bpp_log2 > 4
        || Wrap::from_code(sw & 7).is_none()
        || Wrap::from_code((sw >> 3) & 7).is_none()
    {
        return Fault::BadDescriptor;
    }
    if hf.dim.coords() == 0 || hf.dim.coords() != Dim::from_code(txd.param_a).coords() {
        return Fault::TypeMismatch;
    }
    Fault::None
}

/// The bit-accurate result of a vector.
pub fn golden(t: &TexAddrTxn) -> TexAddrResult {
    let txd = t.lower();
    let f = fault(&txd);
    let mut r = TexAddrResult {
        lanes: Default::default(),
        fault: f,
        frac: 0,
        size: [0; 4],
    };
    if f != Fault::None {
        return r;
    }
    let (hdr, smp) = txd.pointers();
    let header = txd.header(hdr);
    let h = HeaderFields::from_words(&header.words);
    let sw = txd.sampler(smp);
    let wrap_s = Wrap::from_code(sw & 7).unwrap_or(Wrap::Repeat);
    let wrap_t = Wrap::from_code((sw >> 3) & 7).unwrap_or(Wrap::Repeat);
    let linear = sw & 0x40 != 0;
    let unnorm = sw & 0x80 != 0;
    if t.op == Op::Txq {
        r.size = if t.level < h.levels {
            let (w, hh) = h.level_size(t.level);
            [w, hh, h.eff_layers(), h.levels]
        } else {
            [0, 0, 0, h.levels]
        };
        return r;
    }
    let one_d = h.dim.coords() == 1;
    let mut levels = vec![t.level.min(h.levels - 1)];
    if let Some((l1, frac)) = t.mip {
        levels.push(l1.min(h.levels - 1));
        r.frac = frac & 0xFF;
    }
    for (l, lane) in r.lanes.iter_mut().enumerate() {
        let ops = unpack_lane(&txd, &txd.ra[l]);
        let layer = ops.array.min(h.eff_layers() - 1);
        lane.lod_clamp = ops.lod_clamp;
        for (k, &lv) in levels.iter().enumerate() {
            let (w, hh) = h.level_size(lv);
            let (iu0, iu1, wu) = axis(ops.s, w, wrap_s, linear, unnorm, ops.offset[0]);
            let (jv0, jv1, wv) = if one_d {
                ((0, false), (0, false), 0)
            } else {
                axis(ops.t, hh, wrap_t, linear, unnorm, ops.offset[1])
            };
            if k == 0 {
                (lane.wu, lane.wv) = (wu, wv);
            } else {
                (lane.wu1, lane.wv1) = (wu, wv);
            }
            let start = h.level_start(lv);
            let pitch = u64::from(w) << h.bpp_log2;
            let slice = pitch * u64::from(hh);
            let mut taps = vec![(iu0, jv0)];
            if linear {
                taps.push((iu1, jv0));
                if !one_d {
                    taps.push((iu0, jv1));
                    taps.push((iu1, jv1));
                }
            }
            for ((i, bi), (j, bj)) in taps {
                let border = bi || bj;
                let off = (u64::from(layer) * slice)
                    .wrapping_add(j as u64 * pitch)
                    .wrapping_add((i as u64) << h.bpp_log2)
                    & ADDR_MASK;
                let k = lane.taps.len();
                if !border {
                    lane.req |= 1 << k;
                    let tile = off >> TILE_SHIFT;
                    if h.sparse && header.nonresident.contains(&(lv, tile)) {
                        lane.fail = true;
                    }
                }
                lane.taps.push(Tap {
                    i,
                    j,
                    layer,
                    level: lv,
                    addr: if border {
                        0
                    } else {
                        start.wrapping_add(off) & ADDR_MASK
                    },
                    border,
                });
            }
        }
        if lane.fail {
            lane.req = 0;
        }
        let warn = t.lod_warning[l] && !lane.fail;
        lane.status = u32::from(lane.fail)
            | u32::from(warn) << 1
            | ((t.lambda[l] >> 8) as u32 & 0xFFFF) << 16;
    }
    r
}
