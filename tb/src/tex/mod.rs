//! The texture unit's transactions and its bit-accurate golden model (docs/units/tex.md): one
//! quad sampling instruction in, four filtered four-vectors out, built from the LOD unit
//! ([`crate::lod::golden`]) and the texture address pipeline ([`crate::texaddr::golden`]) plus
//! the texel cache, format conversion, depth compare and filtering ([`texel`]).
//!
//! # The hardware algorithm (the RTL computes exactly this)
//! **0. Descriptors.** The instruction carries its texture descriptor (T#) and sampler (S#), as an
//! AMD MIMG instruction carries them in scalar registers: the texture `unit` of the vector picks
//! one of `textures`; an index past the list reads an all-zero header (unbound). The header is the
//! address pipeline's four words plus the format code and swizzle; the sampler adds to the address
//! pipeline's wraps the min/mag/mip filters, bias, LOD clamps, compare function and border colour.
//!
//! **0'. Inert ops.** `nop` and `kill_lt_0` (ATI CTM) touch neither the texture nor the LOD unit:
//! no fault, no memory request, write mask 0, λ and status 0; `kill_lt_0` returns the lane mask
//! of [`kill_mask`]. The CTM `unscaled` bit sets the sampler's `unnormalized`; `lookup` is `tex`,
//! `lookup_proj` is `txp`, and `lookup_uncached` is `tex` whose fetch (step 5) goes past the cache.
//! The semaphore bits change no result (one instruction at a time: see docs/units/tex.md §3).
//!
//! **0a. Projection** (`txp`): s, t and r of every lane are divided by its q (IEEE f32 division,
//! correctly rounded, NaN canonical; the array layer coordinate too), and the instruction then
//! runs as `tex` on the quotients (implicit LOD from the divided coordinates).
//!
//! **0b. Cube textures** (`cube`, `cube_array`; [`cube_txn`]): the instruction runs on the 2D
//! array of the texture's faces (6 per cube, face k of cube i at layer 6·i + k) with clamp to
//! edge and normalized coordinates. Sampling ops first replace each lane's (s, t, r) by the face
//! coordinates ((sc/|ma| + 1)/2, (tc/|ma| + 1)/2) of the face [`cube_face`] picks and the layer
//! 6·i + face (i the cube index q, rounded and clamped to the array); `txf` and `txq` address the
//! face array directly. Implicit LOD comes from the face coordinates; `txd`'s gradients are taken
//! as face-space gradients. A cube array of more than [`MAX_CUBES`] cubes is `bad_descriptor`.
//!
//! **0d. 3D textures** (`3d`, `depth` in the header's layer field, at most [`MAX_DEPTH`]): level
//! l holds d_l = max(1, depth >> l) slices ([`texaddr::HeaderFields::level_layers`]) and is
//! addressed as a one-level 2D array of them ([`slice_array`]). The LOD is isotropic, from
//! (s, t). Each pass key runs as one address pass per (level, slice) *plane* ([`planes`]): the
//! r axis by [`texaddr::axis`] at d_l with `wrap_r` and dw; a border slice reads the border
//! colour, fetches nothing and cannot fail. Each plane is filtered as a 2D lookup (steps 5–8)
//! and the planes are summed in the probe accumulator with weights W_p = f_l·f_r
//! ([`ProbeAcc::accumulate`], [`ProbeAcc::scaled`], S3 = 8·(trilinear + linear); one plane passes
//! unchanged). `txf` reads slice k + dw of its level, `txq` answers d_l ([`query_array`]);
//! `gather4` and deeper textures are `bad_descriptor`.
//!
//! **0m. MIMG address** ([`mimg_operands`]): an instruction with a `mimg` address block takes
//! each lane's operands from its address dwords ([`mimg::unpack`], laid out for the bound
//! texture's dimension).
//!
//! **1. LOD.** Every op goes through the LOD unit: `tex`/`txp`/`sample_c`/`lodq` implicit (lanes' (s, t); t = 0
//! for 1D), `txb` bias, `txl` explicit LOD, `txd` gradients (the t derivatives 0 for 1D), `sample_c_lz`/`gather4` level zero;
//! `txf` and `txq` take their level from the instruction instead (and report λ = 0). The LOD unit
//! sees the base level's size, the level count, base level 0, no .LC clamp and no LOD warning.
//!
//! **2. Per lane filter and levels.** filter = mag_filter if the LOD unit says magnify, else
//! min_filter; gather4 always takes the bilinear footprint of level 0; txf and txq are nearest
//! at the instruction's level. The lane blends two levels (trilinear) iff mip_filter is linear and
//! the LOD fraction is not 0 (level1 is then level0 + 1: no fetch is spent on a zero weight).
//!
//! **3. Passes.** The address pipeline addresses a quad at one level (pair) and one filter, so the
//! unit sends it one *pass* per distinct key (level0, level1, trilinear, linear) among the lanes,
//! in the order of each key's first lane; a pass's other lanes are ignored downstream. Most quads
//! need one pass.
//!
//! **3a. Anisotropic probes** (sampler `max_aniso` > 1). Lane l takes N_l probes, N_l = the LOD
//! unit's probe count for `tex`, `txb`, `txd` and `sample_c` on a non-integer format, else 1
//! (with `max_aniso` the LOD unit's λ is already the anisotropic one, log2(ρmax/η)). Probe p
//! (0 ≤ p < N) samples at s_p = s + (du·k_p), t_p = t + (dv·k_p) (f32 multiply and add, each
//! rounded to nearest even; 1D textures keep t), with (du, dv) the derivatives of the LOD unit's
//! major axis (x: (∂s/∂x, ∂t/∂x), y: (∂s/∂y, ∂t/∂y), the ones it computed — coarse differences or
//! `txd`'s gradients) and k_p = (2p + 1 − N)/(2N) rounded to f32 ([`probe_step`]): N points
//! evenly spaced across the footprint's major axis, centred on the lane. The unit runs steps 3–8
//! once per probe, p = 0, 1, … up to the largest N_l, each over the lanes with p < N_l (a lane
//! with N_l = 1 takes part in probe 0 only, at its own coordinates). N = 1 passes the probe's
//! value unchanged; otherwise each component of the lane's pre-swizzle values v_p (step 8, for
//! depth compare (p, p, p, 1.0)) is summed in probe order in a block-floating-point accumulator
//! ([`ProbeAcc`]: the largest exponent so far, G = 3 guard bits, realignment and alignment
//! truncating toward zero — exact while the exponents agree) and the mean is the sum times
//! R_N = round(2^30/N) rounded once to f32 ([`ProbeAcc::mean`]). A constant stays exactly itself
//! and the mean never overflows. A lane with TEXEL_FAIL in any probe returns zeros, its status
//! carrying the bit.
//!
//! **4. Addressing** is the address pipeline's ([`crate::texaddr`]) on the lane's s, t and layer
//! (array layer = the f32 coordinate t (1D array) or r (2D array) rounded to nearest even and
//! clamped to 0…65535, NaN ⇒ 0), offsets (du, dv), wraps and unnormalized flag. `txf` addresses
//! texel (i + du, j + dv) of layer k at `level` as the unnormalized nearest coordinate
//! (i + du) + 0.5 with clamp to edge, after checking i + du < w_l, j + dv < h_l (1D: no j),
//! k < layers (arrays only), level < levels, all as signed integers ≥ 0: a lane that fails any
//! check returns (0, 0, 0, 0) and fetches nothing. `txq` is the address pipeline's TXQ of the
//! lane's `lod` (an integer) and returns [w_l, h_l, layers, levels] as integers.
//!
//! **5. Fetch.** The pass's memory taps (the address pipeline's `req` bits) are visited in slot
//! order s = 8·lane + 4·level + k; each distinct 64-byte line, in order of first appearance within
//! the pass, is one cache access ([`Cache`]): 64 sets × 4 ways in four banks (bank = the XOR of
//! the line address's 2-bit groups, set = 16·bank + line bits 5:2), first invalid way else tree
//! pseudo-LRU victim, allocate on miss. The lines are looked up in rounds ([`lookup_rounds`]):
//! round r takes, in bank order, the r-th line of each bank (in order of first appearance), and
//! the accesses happen in that order (round by round, bank by bank); a pass needs as many rounds
//! as its busiest bank has lines. A miss sends the line's address to memory; the list of those
//! requests, in order, is the golden model's line list. With the cache disabled every access misses and nothing is allocated, so each line
//! of a pass's footprint is requested exactly once; `lookup_uncached` does the same for its own
//! lines (each requested, counted as a miss, nothing looked up or allocated). The cache is invalidated by an instruction's
//! `flush` bit; the test bench sets it whenever a vector's textures differ from the previous
//! vector's (memory changed).
//!
//! **6. Texels.** Memory byte a is the byte of the last texture in `textures` whose mip chain
//! covers a: from its `data`, or from the `fill` hash rule; 0 elsewhere. Each tap's bytes convert
//! to four components by [`texel::convert`]; a border tap reads the sampler's border colour
//! instead (four f32 with denormals flushed to signed zero, as every texel's are, or integers for
//! integer formats), as the converted four-vector.
//!
//! **7. Depth compare** (`sample_c`, `sample_c_lz`): reference = [`texel::compare_ref`] of the
//! lane's `ref`; every tap becomes [`texel::compare_tap`] of its component 0, and the filtered
//! value p returns as (p, p, p, 1.0) before the swizzle.
//!
//! **8. Filter.** Per component, [`texel::blend`] of the lane's taps with the weights
//! W = (256 − α or α) per linear axis times (256 − frac or frac) across levels (S = 8 per linear
//! axis plus 8 for a trilinear lane); a single tap (nearest, one level) passes unchanged.
//! `gather4` returns component `gather_comp` of taps (i0,j1), (i1,j1), (i1,j0), (i0,j0) as x, y,
//! z, w (1D: (i0), (i1), (i1), (i0)) with no swizzle. Integer formats never blend.
//!
//! **9. Output.** The descriptor swizzle (r g b a 0 1 per component; 1 is 1.0, or 1 for integer
//! formats) is applied to the filtered vector (not to gather4 or txq). A lane whose tap hit a
//! non-resident tile (TEXEL_FAIL) returns zeros; `status` is the address pipeline's TFE word;
//! `lambda` the LOD unit's λ·256 (0 for txf, txq and faults). `lodq` fetches nothing: its one
//! pass is the address pipeline's TXQ at level 0 (descriptor faults as for `txq`), and each lane
//! returns (λ, λ', 0, 0) as f32 — the clamped λ and the LOD unit's λ' before the min/max clamps
//! ([`lod_query`]; NaN λ' ⇒ the canonical NaN). Write mask: a four-vector is always
//! produced; masked components are reported as null.
//!
//! **10. MIMG result** ([`execute`]): the reported components are the write mask ANDed with
//! DMASK; with `mimg`, `d16`, `tfe` or `lwe` each lane's returned dwords are
//! [`mimg::pack_result`] of its four-vector (integers for integer formats except `lodq`, and for
//! `txq`), the reported mask and its status word.
//!
//! **Faults** (zeros for every lane, no fetch): the address pipeline's (unbound, bad descriptor,
//! type mismatch), and `bad_descriptor` for an integer format with a linear min, mag or mip filter
//! or with depth compare in a sampling op.

pub mod cache;
pub mod dut;
pub mod ideal;
pub mod io;
pub mod mimg;
pub mod stim;
pub mod texel;
mod unit;

pub use cache::Cache;
pub use texel::{Compare, Family, Format};
pub use unit::Tex;

use crate::fpmodel::{fp_add, fp_div, fp_mul, fp_to_fixed};
use crate::lod::{self, LodMode, LodSampler, LodTex, LodTxn, MipFilter};
use crate::texaddr::{self, Dim, Fault, Lane, SamplerDesc, TexAddrTxn, TexDesc, Wrap};

/// Bytes per cache line (and per memory request).
pub const LINE_BYTES: u64 = 64;

/// Operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexOp {
    Tex = 0,
    Txb = 1,
    Txl = 2,
    Txd = 3,
    Txf = 4,
    Txq = 5,
    Gather4 = 6,
    SampleC = 7,
    SampleCLz = 8,
    Txp = 9,
    Lodq = 10,
    Nop = 11,
    LookupUncached = 12,
    KillLt0 = 13,
}

impl TexOp {
    /// Every op with its vector name.
    pub const ALL: [(TexOp, &'static str); 14] = [
        (TexOp::Tex, "tex"),
        (TexOp::Txb, "txb"),
        (TexOp::Txl, "txl"),
        (TexOp::Txd, "txd"),
        (TexOp::Txf, "txf"),
        (TexOp::Txq, "txq"),
        (TexOp::Gather4, "gather4"),
        (TexOp::SampleC, "sample_c"),
        (TexOp::SampleCLz, "sample_c_lz"),
        (TexOp::Txp, "txp"),
        (TexOp::Lodq, "lodq"),
        (TexOp::Nop, "nop"),
        (TexOp::LookupUncached, "lookup_uncached"),
        (TexOp::KillLt0, "kill_lt_0"),
    ];
    /// Other names a vector may use (ATI CTM's): `lookup` is `tex`, `lookup_proj` is `txp`.
    pub const ALIASES: [(TexOp, &'static str); 2] =
        [(TexOp::Tex, "lookup"), (TexOp::Txp, "lookup_proj")];
    /// The vector name.
    pub fn name(self) -> &'static str {
        Self::ALL[self as usize].1
    }
    /// From the 4-bit code.
    pub fn from_code(c: u32) -> Option<TexOp> {
        Self::ALL.get(c as usize).map(|o| o.0)
    }
    /// The LOD unit's mode for this op.
    pub fn lod_mode(self) -> LodMode {
        match self {
            TexOp::Tex | TexOp::SampleC | TexOp::Txp | TexOp::Lodq | TexOp::LookupUncached => {
                LodMode::Implicit
            }
            TexOp::Txb => LodMode::Bias,
            TexOp::Txl => LodMode::Lod,
            TexOp::Txd => LodMode::Grad,
            _ => LodMode::Lz,
        }
    }
    /// A filtered sampling op (the ones an integer format may not filter).
    pub fn filters(self) -> bool {
        !matches!(
            self,
            TexOp::Txf | TexOp::Txq | TexOp::Gather4 | TexOp::Lodq | TexOp::Nop | TexOp::KillLt0
        )
    }
    /// Touches neither the texture nor the LOD unit (`nop`, `kill_lt_0`): no fault, nothing
    /// written, no memory request.
    pub fn inert(self) -> bool {
        matches!(self, TexOp::Nop | TexOp::KillLt0)
    }
    /// A query that fetches nothing: its one pass is the address pipeline's TXQ (descriptor
    /// checks and sizes).
    pub fn queries(self) -> bool {
        matches!(self, TexOp::Txq | TexOp::Lodq)
    }
    /// Depth compare.
    pub fn compares(self) -> bool {
        matches!(self, TexOp::SampleC | TexOp::SampleCLz)
    }
}

/// Texture data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TexData {
    /// The mip chain's bytes from `base` (missing bytes read 0).
    Bytes(Vec<u8>),
    /// The hash rule with this seed (byte a = byte a mod 8 of splitmix64(seed ⊕ ⌊a/8⌋)).
    Hash(u64),
}

/// A descriptor swizzle selector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swz {
    R = 0,
    G = 1,
    B = 2,
    A = 3,
    Zero = 4,
    One = 5,
}

impl Swz {
    /// Every selector with its letter.
    pub const ALL: [(Swz, char); 6] = [
        (Swz::R, 'r'),
        (Swz::G, 'g'),
        (Swz::B, 'b'),
        (Swz::A, 'a'),
        (Swz::Zero, '0'),
        (Swz::One, '1'),
    ];
    /// From the 3-bit code (6, 7 read as 0).
    pub fn from_code(c: u32) -> Swz {
        Self::ALL.get(c as usize).map_or(Swz::Zero, |s| s.0)
    }
    /// The letter.
    pub fn letter(self) -> char {
        Self::ALL[self as usize].1
    }
}

/// The identity swizzle.
pub const IDENTITY: [Swz; 4] = [Swz::R, Swz::G, Swz::B, Swz::A];

/// A texture: the address pipeline's fields plus format, swizzle, residency map and data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Texture {
    /// Size, levels, layers, base, dimension, sparse; `bpp` is the format's.
    pub desc: TexDesc,
    pub format: Format,
    pub swizzle: [Swz; 4],
    /// Non-resident (level, 64 KiB tile) pairs of a sparse texture.
    pub nonresident: Vec<(u32, u64)>,
    pub data: TexData,
}

impl Texture {
    /// The header words the unit receives: the address pipeline's four, then
    /// format | swizzle[k] << (5 + 3k).
    pub fn header(&self) -> [u32; 5] {
        let w = self.desc.to_words();
        let mut x = self.format as u32;
        for (k, s) in self.swizzle.iter().enumerate() {
            x |= (*s as u32) << (5 + 3 * k);
        }
        [w[0], w[1], w[2], w[3], x]
    }
    /// Bytes of the whole mip chain (aligned levels).
    pub fn chain_bytes(&self) -> u64 {
        let h = texaddr::HeaderFields::from_words(&self.desc.to_words());
        h.level_start(h.levels).wrapping_sub(h.base) & texaddr::ADDR_MASK
    }
    /// Byte at absolute address `a`, if this texture's chain covers it.
    pub fn byte(&self, a: u64) -> Option<u8> {
        let off = a.wrapping_sub(self.desc.base) & texaddr::ADDR_MASK;
        if off >= self.chain_bytes() {
            return None;
        }
        Some(match &self.data {
            TexData::Bytes(d) => d.get(off as usize).copied().unwrap_or(0),
            TexData::Hash(seed) => (splitmix64(seed ^ (a / 8)) >> (8 * (a % 8))) as u8,
        })
    }
}

/// splitmix64 (the `fill` hash rule).
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Texture minification/magnification filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    Nearest = 0,
    Linear = 1,
}

/// A sampler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexSampler {
    pub wrap_s: Wrap,
    pub wrap_t: Wrap,
    /// The r axis of a 3D texture.
    pub wrap_r: Wrap,
    pub min_filter: Filter,
    pub mag_filter: Filter,
    pub mip_filter: MipFilter,
    pub unnormalized: bool,
    /// Bias·256 (−4096…4096).
    pub bias: i32,
    /// min_lod·256, max_lod·256 (u4.8).
    pub min_lod: u32,
    pub max_lod: u32,
    pub compare: Compare,
    /// Border colour (f32 bits, or integers for integer formats).
    pub border: [u32; 4],
    /// Max anisotropy, 1…16 (1 = isotropic).
    pub max_aniso: u32,
}

impl Default for TexSampler {
    fn default() -> Self {
        Self {
            wrap_s: Wrap::Repeat,
            wrap_t: Wrap::Repeat,
            wrap_r: Wrap::Repeat,
            min_filter: Filter::Nearest,
            mag_filter: Filter::Nearest,
            mip_filter: MipFilter::None,
            unnormalized: false,
            bias: 0,
            min_lod: 0,
            max_lod: 15 * 256,
            compare: Compare::Never,
            border: [0; 4],
            max_aniso: 1,
        }
    }
}

/// One quad instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct TexTxn {
    pub op: TexOp,
    pub textures: Vec<Texture>,
    pub sampler: TexSampler,
    /// Index into `textures`.
    pub unit: u32,
    /// Per lane s, t, r, q (f32 bits; `txf`: integers i, j, k, level).
    pub coords: [[u32; 4]; 4],
    /// Per lane dsdx, dsdy, dtdx, dtdy (`txd`).
    pub grad: [[u32; 4]; 4],
    /// Per lane shader bias (`txb`), f32.
    pub bias: [u32; 4],
    /// Per lane explicit LOD (`txl`, f32) or level (`txq`, integer).
    pub lod: [u32; 4],
    /// Per lane depth reference (`sample_c*`), f32.
    pub reference: [u32; 4],
    /// Per lane texel offset (du, dv, dw), −8…7 (dw moves only a 3D texture's r).
    pub offset: [[i32; 3]; 4],
    /// Write mask (bit k: component k is written).
    pub wmask: u32,
    /// Component `gather4` gathers (0…3).
    pub gather_comp: u32,
    /// CTM `unscaled`: the coordinates are unnormalized (as the sampler's `unnormalized`).
    pub unscaled: bool,
    /// Texture semaphore: wait for the outstanding acquire before issue; acquire.
    pub sem_wait: bool,
    pub sem_acquire: bool,
    /// AMD MIMG instruction bits and address block.
    pub mimg: MimgBits,
}

/// AMD MIMG instruction bits (docs/units/tex.md §12).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MimgBits {
    /// DMASK: the components returned (bit k: component k), in order; `gather4` takes its
    /// component from a one-bit DMASK when the vector is read, leaving 15 here.
    pub dmask: u32,
    /// D16: components returned as 16 bits, two per dword.
    pub d16: bool,
    /// TFE, LWE: the status dword follows the data (LWE: a failed lane's data is 0).
    pub tfe: bool,
    pub lwe: bool,
    /// A16, G16: 16-bit address components, 16-bit derivatives (only with `address`).
    pub a16: bool,
    pub g16: bool,
    /// The address dwords; `None`: the operands are the vector's own fields.
    pub address: Option<MimgAddress>,
}

impl Default for MimgBits {
    fn default() -> Self {
        Self {
            dmask: 15,
            d16: false,
            tfe: false,
            lwe: false,
            a16: false,
            g16: false,
            address: None,
        }
    }
}

impl MimgBits {
    /// The result carries `vdata`, the dwords the shader's VGPRs receive.
    pub fn returns_vdata(&self) -> bool {
        self.address.is_some() || self.d16 || self.tfe || self.lwe
    }
}

/// One instruction's MIMG address: per lane the dwords {offset}{bias}{z-compare}{derivatives}
/// {body} ([`mimg::unpack`]); `nsa` (non-sequential address registers) does not change them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MimgAddress {
    pub vaddr: [Vec<u32>; 4],
    pub nsa: bool,
    /// The form carries the offset dword (the `_O` variants).
    pub offset: bool,
}

/// One quad's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TexResult {
    /// Per lane x, y, z, w (f32 bits or integers).
    pub rgba: [[u32; 4]; 4],
    /// The instruction's write mask (components not written are reported as null).
    pub wmask: u32,
    /// Per lane TFE status word.
    pub status: [u32; 4],
    pub fault: Fault,
    /// Per lane λ·256.
    pub lambda: [i32; 4],
    /// Memory requests (line addresses, bytes / 64), in order.
    pub lines: Vec<u64>,
    /// `kill_lt_0`'s mask (bit l: lane l killed); 0 for every other op.
    pub kill: u32,
    /// Per lane the returned dwords ([`mimg::pack_result`]) when [`MimgBits::returns_vdata`].
    pub vdata: Option<[Vec<u32>; 4]>,
    /// Per lane the D16-packed data dwords (`vdata` without the status dword) when `d16`.
    pub d16: Option<[Vec<u32>; 4]>,
}

impl TexResult {
    /// Sets `vdata` (and `d16`) from the lanes' returned dwords for an instruction with MIMG
    /// bits `m`.
    pub fn set_vdata(&mut self, m: &MimgBits, vdata: [Vec<u32>; 4]) {
        let status = usize::from(m.tfe || m.lwe);
        if m.d16 {
            self.d16 = Some(std::array::from_fn(|l| {
                vdata[l][..vdata[l].len() - status].to_vec()
            }));
        }
        self.vdata = Some(vdata);
    }
}

/// Texel-cache parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheConfig {
    /// False: every access misses and nothing is allocated.
    pub enabled: bool,
}

impl Default for CacheConfig {
    fn default() -> Self {
        Self { enabled: true }
    }
}

/// The texture and header the instruction reads (all-zero header when `unit` is out of range).
pub fn bound_texture(t: &TexTxn) -> Option<&Texture> {
    t.textures.get(t.unit as usize)
}

/// Memory byte at `a` (see step 6).
pub fn memory_byte(textures: &[Texture], a: u64) -> u8 {
    textures.iter().rev().find_map(|x| x.byte(a)).unwrap_or(0)
}

/// A 64-byte line of memory (byte k of the line at bits 8k…).
pub fn memory_line(textures: &[Texture], line: u64) -> [u8; 64] {
    std::array::from_fn(|k| memory_byte(textures, line * LINE_BYTES + k as u64))
}

/// The layer index of an f32 array coordinate: round to nearest even, clamp 0…65535, NaN ⇒ 0.
pub fn layer_index(x: u32) -> u32 {
    let c = fp_to_fixed(x, 0);
    if c.nan {
        0
    } else {
        c.y.clamp(0, 65535) as u32
    }
}

/// Probe p's position k_p = (2p + 1 − n)/(2n) along the major axis, f32 bits (step 3a).
pub fn probe_step(n: u32, p: u32) -> u32 {
    (((2.0 * f64::from(p) + 1.0 - f64::from(n)) / (2.0 * f64::from(n))) as f32).to_bits()
}

/// Step 3a: each lane's probe count N_l.
pub fn probe_counts(t: &TexTxn, tex: &Texture, lod: &lod::LodResult) -> [u32; 4] {
    let aniso_op = matches!(
        t.op,
        TexOp::Tex | TexOp::Txb | TexOp::Txd | TexOp::SampleC | TexOp::Txp | TexOp::LookupUncached
    );
    std::array::from_fn(|l| {
        if aniso_op && !tex.format.is_integer() {
            lod[l].probes
        } else {
            1
        }
    })
}

/// Step 3a: the plan of probe `p` — each lane with N_l > 1 moved to its probe position.
pub fn probe_plan(
    t: &TexTxn,
    tex: &Texture,
    plan: &[LanePlan; 4],
    lod: &lod::LodResult,
    n: &[u32; 4],
    p: u32,
) -> [LanePlan; 4] {
    let lt = lod_txn(t, &tex.desc);
    let one_d = tex.desc.dim.coords() == 1;
    std::array::from_fn(|l| {
        let mut q = plan[l];
        if n[l] > 1 {
            let d = lod::lane_derivatives(&lt, l);
            let (du, dv) = if lod[l].major_y {
                (d[1], d[3])
            } else {
                (d[0], d[2])
            };
            let k = probe_step(n[l], p);
            q.lane.s = fp_add(q.lane.s, fp_mul(du, k), false);
            if !one_d {
                q.lane.t = fp_add(q.lane.t, fp_mul(dv, k), false);
            }
        }
        q
    })
}

/// The LOD unit's request for an instruction.
pub fn lod_txn(t: &TexTxn, tex: &TexDesc) -> LodTxn {
    let one_d = tex.dim.coords() == 1;
    let s = &t.sampler;
    LodTxn {
        tex: LodTex {
            width: tex.width,
            height: if one_d { 1 } else { tex.height },
            levels: tex.levels,
            base_level: 0,
        },
        sampler: LodSampler {
            bias: s.bias,
            min_lod: s.min_lod,
            max_lod: s.max_lod,
            mip_filter: s.mip_filter,
            // A 3D texture is sampled isotropically (step 0d).
            max_aniso: if tex.dim == Dim::D3 { 1 } else { s.max_aniso },
        },
        mode: t.op.lod_mode(),
        coords: std::array::from_fn(|l| [t.coords[l][0], if one_d { 0 } else { t.coords[l][1] }]),
        // A 1D texture has no t axis: its t derivatives count for nothing.
        grad: std::array::from_fn(|l| {
            let g = t.grad[l];
            if one_d {
                [g[0], g[1], 0, 0]
            } else {
                g
            }
        }),
        lod: t.lod,
        bias: t.bias,
        lod_clamp: 0,
        min_lod_warning: 0,
        fine: false,
        maxabs: false,
    }
}

/// A pass key: (level0, level1, trilinear, linear).
pub type PassKey = (u32, u32, bool, bool);

/// Per lane: the pass key and the lane's address-pipeline lane (s, t, layer, offset) plus
/// whether it fetches (txf range check).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LanePlan {
    pub key: PassKey,
    pub lane: Lane,
    pub active: bool,
}

/// f32 bits of a non-negative integer below 2^24, plus 0.5.
fn int_plus_half(i: u32) -> u32 {
    (i as f32 + 0.5).to_bits()
}

/// Step 2 and 4's per-lane plan.
pub fn plan(t: &TexTxn, tex: &Texture, lod: &lod::LodResult) -> [LanePlan; 4] {
    let d = &tex.desc;
    let s = &t.sampler;
    std::array::from_fn(|l| {
        let c = t.coords[l];
        let layer_coord = if d.dim == Dim::Array1D { c[1] } else { c[2] };
        let layer = if d.dim.is_array() {
            layer_index(layer_coord)
        } else {
            0
        };
        let mut lane = Lane {
            s: c[0],
            t: c[1],
            layer,
            offset: [t.offset[l][0], t.offset[l][1]],
        };
        match t.op {
            TexOp::Txf => {
                let level = c[3] as i32;
                let one_d = d.dim.coords() == 1;
                let i = (c[0] as i32).wrapping_add(t.offset[l][0]);
                let j = if one_d {
                    0
                } else {
                    (c[1] as i32).wrapping_add(t.offset[l][1])
                };
                let volume = d.dim == Dim::D3;
                let k = if volume {
                    (c[2] as i32).wrapping_add(t.offset[l][2])
                } else if d.dim.is_array() {
                    c[2] as i32
                } else {
                    0
                };
                let mut active = level >= 0 && level < d.levels as i32;
                if active {
                    let layers = if volume {
                        (d.layers >> level).max(1) as i32
                    } else if d.dim.is_array() {
                        d.layers as i32
                    } else {
                        1
                    };
                    let w = (d.width >> level).max(1) as i32;
                    let h = if one_d {
                        1
                    } else {
                        (d.height >> level).max(1) as i32
                    };
                    active = (0..w).contains(&i) && (0..h).contains(&j) && (0..layers).contains(&k);
                }
                let lv = if active { level as u32 } else { 0 };
                lane = Lane {
                    s: int_plus_half(if active { i as u32 } else { 0 }),
                    t: int_plus_half(if active { j as u32 } else { 0 }),
                    layer: if active { k as u32 } else { 0 },
                    offset: [0, 0],
                };
                LanePlan {
                    key: (lv, lv, false, false),
                    lane,
                    active,
                }
            }
            TexOp::Lodq => LanePlan {
                key: (0, 0, false, false),
                lane,
                active: false,
            },
            TexOp::Txq => {
                let lv = t.lod[l];
                LanePlan {
                    key: (lv, lv, false, false),
                    lane,
                    active: false,
                }
            }
            TexOp::Gather4 => LanePlan {
                key: (0, 0, false, true),
                lane,
                active: true,
            },
            _ => {
                let r = lod[l];
                let f = if r.magnify {
                    s.mag_filter
                } else {
                    s.min_filter
                };
                let tri = s.mip_filter == MipFilter::Linear && r.frac != 0;
                let level1 = if tri { r.level1 } else { r.level0 };
                LanePlan {
                    key: (r.level0, level1, tri, f == Filter::Linear),
                    lane,
                    active: true,
                }
            }
        }
    })
}

/// Step 3: passes over the lanes of `lanes` (a 4-bit mask) as (key, lane mask), in order of each
/// key's first lane.
pub fn passes(plan: &[LanePlan; 4], lanes: u32) -> Vec<(PassKey, u32)> {
    let mut out: Vec<(PassKey, u32)> = Vec::new();
    for (l, p) in plan.iter().enumerate() {
        if lanes & (1 << l) == 0 {
            continue;
        }
        match out.iter_mut().find(|e| e.0 == p.key) {
            Some(e) => e.1 |= 1 << l,
            None => out.push((p.key, 1 << l)),
        }
    }
    out
}

/// The address pipeline's transaction for one pass.
pub fn pass_txn(
    t: &TexTxn,
    tex: &Texture,
    plan: &[LanePlan; 4],
    key: PassKey,
    lod: &lod::LodResult,
) -> TexAddrTxn {
    let s = &t.sampler;
    let txf = t.op == TexOp::Txf;
    let sampler = SamplerDesc {
        wrap_s: if txf { Wrap::ClampToEdge } else { s.wrap_s },
        wrap_t: if txf { Wrap::ClampToEdge } else { s.wrap_t },
        linear: key.3,
        unnormalized: txf || s.unnormalized,
    };
    let no_lod = matches!(t.op, TexOp::Txf | TexOp::Txq | TexOp::Lodq);
    TexAddrTxn {
        form: texaddr::Form::Direct {
            tex: tex.desc.clone(),
            nonresident: tex.nonresident.clone(),
            sampler,
            lanes: std::array::from_fn(|l| plan[l].lane),
        },
        op: if t.op.queries() {
            texaddr::Op::Txq
        } else {
            texaddr::Op::Sample
        },
        level: key.0,
        mip: key.2.then_some((key.1, 0)),
        lambda: std::array::from_fn(|l| if no_lod { 0 } else { lod[l].lambda }),
        lod_warning: std::array::from_fn(|l| !no_lod && lod[l].lod_warning),
    }
}

/// The golden model with its cache state: results of consecutive instructions.
#[derive(Clone, Debug, Default)]
pub struct TexModel {
    pub cache: Cache,
    /// Textures of the previous instruction (a change flushes the cache).
    last: Option<Vec<Texture>>,
}

impl TexModel {
    /// A cold model with these cache parameters.
    pub fn new(cfg: CacheConfig) -> Self {
        Self {
            cache: Cache::new(cfg),
            last: None,
        }
    }

    /// Whether the test bench flushes before `t` (its textures differ from the previous one's).
    pub fn needs_flush(&self, t: &TexTxn) -> bool {
        self.last.as_ref() != Some(&t.textures)
    }

    /// Executes one instruction.
    pub fn step(&mut self, t: &TexTxn) -> TexResult {
        if self.needs_flush(t) {
            self.cache.flush();
            self.last = Some(t.textures.clone());
        }
        execute(t, &mut self.cache)
    }

    /// Results of a sequence from a cold cache.
    pub fn batch(v: &[TexTxn], cfg: CacheConfig) -> Vec<TexResult> {
        let mut m = Self::new(cfg);
        v.iter().map(|t| m.step(t)).collect()
    }
}

/// The bit-accurate results of a sequence through one unit (cache on, cold at the start).
pub fn golden_batch(v: &[TexTxn]) -> Vec<TexResult> {
    TexModel::batch(v, CacheConfig::default())
}

/// The bit-accurate result of one instruction on a cold cache.
pub fn golden(t: &TexTxn) -> TexResult {
    TexModel::new(CacheConfig::default()).step(t)
}

/// The descriptor fault of step 9 beyond the address pipeline's.
pub fn format_fault(t: &TexTxn, tex: &Texture) -> bool {
    let s = &t.sampler;
    tex.format.is_integer()
        && t.op.filters()
        && (s.min_filter == Filter::Linear
            || s.mag_filter == Filter::Linear
            || s.mip_filter == MipFilter::Linear
            || t.op.compares())
}

/// Step 0a, `txp`: s, t and r divided by q (IEEE f32 division, nearest even, NaN canonical); the
/// instruction then runs as `tex` on the quotients.
pub fn project(t: &TexTxn) -> TexTxn {
    let mut p = t.clone();
    p.op = TexOp::Tex;
    for c in &mut p.coords {
        let q = c[3];
        for x in c.iter_mut().take(3) {
            *x = fp_div(*x, q);
        }
    }
    p
}

/// `lodq`'s four-vector: (λ, λ' before the clamps, 0, 0) as f32 (exact: both are multiples of
/// 1/256 below 2^20; λ' NaN ⇒ the canonical NaN).
pub fn lod_query(l: &lod::LodLane) -> [u32; 4] {
    let f = |v: i32| (v as f32 / 256.0).to_bits();
    [
        f(l.lambda),
        l.unclamped.map_or(texel::CANONICAL_NAN, f),
        0,
        0,
    ]
}

/// The most cubes a cube array may have: its 6·cubes faces must fit the header's 16-bit layer
/// field (more is a `bad_descriptor` fault).
pub const MAX_CUBES: u32 = 10_922;

/// One face coordinate of step 0b: (a/|ma| + 1)/2 — the division (IEEE f32, nearest even) and
/// the addition of 1.0 (nearest even) each rounded, the halving exact (the sum is 0, NaN or in
/// [2^−24, 2], so it is the exponent lowered by one; 0 and NaN stay themselves).
pub fn cube_coord(a: u32, ma: u32) -> u32 {
    let v = fp_add(fp_div(a, ma), texel::ONE, false);
    let e = (v >> 23) & 0xFF;
    if e == 0 || e == 0xFF {
        v
    } else {
        v - (1 << 23)
    }
}

/// `t` on the 2D array of the bound cube texture's faces (6·`cubes` layers), sampled with clamp
/// to edge on both axes and normalized coordinates; the coordinates are left as they are.
pub fn cube_face_array(t: &TexTxn, cubes: u32) -> TexTxn {
    let mut c = t.clone();
    let d = &mut c.textures[t.unit as usize].desc;
    d.dim = Dim::Array2D;
    d.layers = 6 * cubes;
    c.sampler.wrap_s = Wrap::ClampToEdge;
    c.sampler.wrap_t = Wrap::ClampToEdge;
    c.sampler.unnormalized = false;
    c.unscaled = false;
    c
}

/// Step 0b, cube textures: the instruction on the bound `cube` or `cube_array` texture as an
/// instruction on a 2D array of its faces (layers 6·cubes, face k of cube i at layer 6·i + k;
/// a `cube` has one cube, a `cube_array` `layers` cubes), sampled with clamp to edge on both axes
/// and normalized coordinates. Sampling ops (all but `txf` and `txq`, which address the face
/// array directly) replace each lane's (s, t, r, q) by ([`cube_coord`] of sc and tc, the face
/// layer as an f32, q): the face from [`cube_face`] of (s, t, r), the layer 6·i + face with the
/// cube index i = the array coordinate q rounded as an array layer ([`layer_index`]) and clamped
/// to cubes − 1 (0 for a `cube`). Derivatives (`txd`) are used as given, as face-space
/// gradients. `None` when the texture is not a cube; more than [`MAX_CUBES`] cubes ⇒
/// `bad_descriptor`.
pub fn cube_txn(t: &TexTxn) -> Option<Result<TexTxn, Fault>> {
    let tex = bound_texture(t)?;
    let cubes = match tex.desc.dim {
        Dim::Cube => 1,
        Dim::ArrayCube => tex.desc.layers,
        _ => return None,
    };
    if cubes > MAX_CUBES {
        return Some(Err(Fault::BadDescriptor));
    }
    let mut c = cube_face_array(t, cubes);
    if !matches!(t.op, TexOp::Txf | TexOp::Txq) {
        for lane in &mut c.coords {
            let (face, sc, tc, ma) = cube_face(lane[0], lane[1], lane[2]);
            let index = layer_index(lane[3]).min(cubes - 1);
            lane[0] = cube_coord(sc, ma);
            lane[1] = cube_coord(tc, ma);
            lane[2] = ((6 * index + face) as f32).to_bits();
        }
    }
    Some(Ok(c))
}

/// Cube-map face selection (step 0b): (face, sc, tc, |ma|) of the direction (x, y, z), f32 bits. Magnitudes compare as
/// the unsigned bit patterns with the sign cleared (a NaN ranks above +Inf, NaNs by payload);
/// the major axis is z
/// if |z| ≥ |y|, |x|, else y if |y| ≥ |x|, else x; face = 2·axis + sign bit; sc, tc from the
/// Vulkan / Direct3D table, negation flipping the sign bit.
pub fn cube_face(x: u32, y: u32, z: u32) -> (u32, u32, u32, u32) {
    const M: u32 = 0x7FFF_FFFF;
    let neg = |v: u32| v ^ 0x8000_0000;
    let (ax, ay, az) = (x & M, y & M, z & M);
    if az >= ay && az >= ax {
        if z >> 31 == 0 {
            (4, x, neg(y), az)
        } else {
            (5, neg(x), neg(y), az)
        }
    } else if ay >= ax {
        if y >> 31 == 0 {
            (2, x, z, ay)
        } else {
            (3, x, neg(z), ay)
        }
    } else if x >> 31 == 0 {
        (0, neg(z), neg(y), ax)
    } else {
        (1, z, neg(y), ax)
    }
}

/// The deepest 3D texture: the r axis scales by the level's depth through the address
/// pipeline's 16-bit axis, as s and t scale by width and height (deeper is `bad_descriptor`).
pub const MAX_DEPTH: u32 = 32_768;

/// Step 0d: level `l` of a 3D texture as the address pipeline addresses it — a one-level 2D
/// array of the level's d_l slices (w_l × h_l, starting at the level's first byte), with the
/// level's non-resident tiles as level 0's (tiles count from the level's start either way).
pub fn slice_array(tex: &Texture, l: u32) -> Texture {
    let h = texaddr::HeaderFields::from_words(&tex.desc.to_words());
    let (width, height) = h.level_size(l);
    Texture {
        desc: TexDesc {
            width,
            height,
            layers: h.level_layers(l),
            levels: 1,
            base: h.level_start(l),
            dim: Dim::Array2D,
            ..tex.desc.clone()
        },
        nonresident: tex
            .nonresident
            .iter()
            .filter(|e| e.0 == l)
            .map(|e| (0, e.1))
            .collect(),
        ..tex.clone()
    }
}

/// Step 0d, `txq` and `lodq` on a 3D texture: the descriptor whose TXQ of level `l` answers
/// [w_l, h_l, d_l, levels] — the texture as a 2D array of d_l layers (1 past the last level,
/// where the sizes read 0 anyway).
pub fn query_array(tex: &Texture, l: u32) -> Texture {
    let mut q = tex.clone();
    q.desc.dim = Dim::Array2D;
    q.desc.layers = if l < tex.desc.levels {
        (tex.desc.layers >> l).max(1)
    } else {
        1
    };
    q
}

/// One address-pipeline pass (step 3): the whole pass for most textures, one (level, slice)
/// plane of it for a 3D texture (step 0d).
#[derive(Clone, Debug)]
pub struct Plane {
    /// The texture the address pipeline sees.
    pub tex: Texture,
    /// The lanes it addresses (a 3D plane sets each lane's layer to its slice).
    pub lanes: [LanePlan; 4],
    /// The key the address pipeline runs with.
    pub key: PassKey,
    /// Lanes whose slice is a clamp-to-border slice: every tap reads the border colour, nothing
    /// is fetched and nothing can fail.
    pub border: u32,
    /// Per lane the plane's weight W_p = f_l · f_r (1 for a whole pass).
    pub weight: [u32; 4],
}

/// Step 0d: the planes of pass `key` over the lanes of `mask`. For a 3D texture's sampling op:
/// for each level L of the key (level0, then level1 when trilinear) and each slice of the r
/// footprint at L (k0, then k1 when linear), one plane on [`slice_array`] of L at texaddr level
/// 0 without mip blend, each lane's layer its slice clamped to 0…d_L − 1. The slices and the r
/// weight wr come from the address pipeline's own axis rule ([`texaddr::axis`]: r scaled by
/// d_L, 16.8 fixed point, half-texel shift when linear, `wrap_r`, no offset). W_p =
/// f_l · f_r with f_l = 256 − frac or frac (trilinear) else 1, f_r = 256 − wr or wr (linear)
/// else 1, so Σ W_p = 2^S3, S3 = 8·(trilinear + linear). `txf` addresses [`slice_array`] of its
/// level with layer k; `txq` and `lodq` query [`query_array`].
pub fn planes(
    t: &TexTxn,
    tex: &Texture,
    lanes: &[LanePlan; 4],
    key: PassKey,
    mask: u32,
    lod: &lod::LodResult,
) -> Vec<Plane> {
    let whole = |tex: Texture, key: PassKey| Plane {
        tex,
        lanes: *lanes,
        key,
        border: 0,
        weight: [1; 4],
    };
    if tex.desc.dim != Dim::D3 {
        return vec![whole(tex.clone(), key)];
    }
    match t.op {
        TexOp::Txq | TexOp::Lodq => return vec![whole(query_array(tex, key.0), key)],
        TexOp::Txf => return vec![whole(slice_array(tex, key.0), (0, 0, false, false))],
        _ => {}
    }
    let (tri, linear) = (key.2, key.3);
    let s = &t.sampler;
    let mut out = Vec::new();
    for a in 0..1 + u32::from(tri) {
        let level = if a == 0 { key.0 } else { key.1 };
        let slices = slice_array(tex, level);
        let depth = slices.desc.layers;
        for b in 0..1 + u32::from(linear) {
            let mut p = whole(slices.clone(), (0, 0, false, linear));
            for l in (0..4).filter(|&l| mask & (1 << l) != 0) {
                let r = t.coords[l][2];
                let dw = t.offset[l][2];
                let (k0, k1, wr) = texaddr::axis(r, depth, s.wrap_r, linear, s.unnormalized, dw);
                let (k, border) = if b == 0 { k0 } else { k1 };
                p.lanes[l].lane.layer = k.clamp(0, depth as i32 - 1) as u32;
                p.border |= u32::from(border) << l;
                let f_l = match (tri, a) {
                    (false, _) => 1,
                    (true, 0) => 256 - lod[l].frac,
                    (true, _) => lod[l].frac,
                };
                let f_r = match (linear, b) {
                    (false, _) => 1,
                    (true, 0) => 256 - wr,
                    (true, _) => wr,
                };
                p.weight[l] = f_l * f_r;
            }
            out.push(p);
        }
    }
    out
}

/// An f32 below zero: −0 and NaN are not.
pub fn less_than_zero(x: u32) -> bool {
    x >> 31 != 0 && x & 0x7FFF_FFFF != 0 && x & 0x7FFF_FFFF <= 0x7F80_0000
}

/// `kill_lt_0`'s mask: lane l is killed when a component its write mask examines is below 0.
pub fn kill_mask(t: &TexTxn) -> u32 {
    (0..4).fold(0, |m, l| {
        let killed = (0..4).any(|c| t.wmask >> c & 1 != 0 && less_than_zero(t.coords[l][c]));
        m | u32::from(killed) << l
    })
}

/// The dimension code a MIMG address is laid out for: the bound texture's (2D when unbound).
pub fn mimg_dim(t: &TexTxn) -> u32 {
    bound_texture(t).map_or(Dim::D2 as u32, |x| x.desc.dim as u32)
}

/// Step 0m: the instruction with the operands its MIMG address block gives ([`mimg::unpack`]
/// per lane: coordinates, gradients, bias, LOD or level, reference, offsets).
pub fn mimg_operands(t: &TexTxn) -> TexTxn {
    let mut u = t.clone();
    if let Some(a) = &t.mimg.address {
        let (m, dim) = (&t.mimg, mimg_dim(t));
        let sext4 = |v: u16| (i32::from(v & 15) ^ 8) - 8;
        for l in 0..4 {
            let x = mimg::unpack(t.op as u32, dim, a.offset, m.a16, m.g16, &a.vaddr[l]);
            u.coords[l] = x.coord;
            u.grad[l] = x.grad;
            u.bias[l] = x.bias;
            u.lod[l] = x.lod;
            u.reference[l] = x.zref;
            u.offset[l] = [sext4(x.off), sext4(x.off >> 4), sext4(x.off >> 8)];
        }
        u.mimg.address = None;
    }
    u
}

/// Executes `t` against `cache`: the operands of a MIMG address (step 0m), steps 0–9, then the
/// returned dwords of a MIMG form (step 10).
pub fn execute(t: &TexTxn, cache: &mut Cache) -> TexResult {
    let mut r = execute_operands(&mimg_operands(t), cache);
    r.wmask &= t.mimg.dmask;
    if t.mimg.returns_vdata() {
        let m = &t.mimg;
        let integer = bound_texture(t).is_some_and(|x| x.format.is_integer())
            && t.op != TexOp::Lodq
            || t.op == TexOp::Txq;
        let v = std::array::from_fn(|l| {
            mimg::pack_result(
                r.rgba[l],
                integer,
                r.wmask,
                m.d16,
                m.tfe,
                m.lwe,
                r.status[l],
            )
        });
        r.set_vdata(m, v);
    }
    r
}

/// Steps 0–9 on the instruction's own operands.
fn execute_operands(t: &TexTxn, cache: &mut Cache) -> TexResult {
    let mut r = TexResult {
        rgba: [[0; 4]; 4],
        wmask: t.wmask & 15,
        status: [0; 4],
        fault: Fault::Unbound,
        lambda: [0; 4],
        lines: Vec::new(),
        kill: 0,
        vdata: None,
        d16: None,
    };
    if t.op.inert() {
        r.wmask = 0;
        r.fault = Fault::None;
        if t.op == TexOp::KillLt0 {
            r.kill = kill_mask(t);
        }
        return r;
    }
    if t.op == TexOp::Txp {
        return execute_operands(&project(t), cache);
    }
    if t.unscaled && !t.sampler.unnormalized {
        let mut u = t.clone();
        u.sampler.unnormalized = true;
        return execute_operands(&u, cache);
    }
    match cube_txn(t) {
        Some(Ok(c)) => return execute_operands(&c, cache),
        Some(Err(f)) => {
            r.fault = f;
            return r;
        }
        None => {}
    }
    let Some(tex) = bound_texture(t) else {
        return r;
    };
    if tex.desc.dim == Dim::D3 && (tex.desc.layers > MAX_DEPTH || t.op == TexOp::Gather4) {
        r.fault = Fault::BadDescriptor;
        return r;
    }
    let lod = lod::golden(&lod_txn(t, &tex.desc));
    let plan = plan(t, tex, &lod);
    let n = probe_counts(t, tex, &lod);
    // Per lane: the last probe's (pre-swizzle) value, the probes' sums, whether a probe failed.
    let mut last: [Option<[u32; 4]>; 4] = [None; 4];
    let mut acc = [[ProbeAcc::default(); 4]; 4];
    // Per lane the 3D weight scale S3 (step 0d; 0: one plane, passed unchanged).
    let mut s3 = [0u32; 4];
    let mut failed = [false; 4];
    let mut fault = Fault::None;
    'probes: for p in 0..n.iter().copied().max().unwrap_or(1) {
        let lanes = (0..4).filter(|&l| p < n[l]).fold(0, |m, l| m | 1 << l);
        let probe = probe_plan(t, tex, &plan, &lod, &n, p);
        for (key, mask) in passes(&probe, lanes) {
            for plane in planes(t, tex, &probe, key, mask, &lod) {
                let mut a =
                    texaddr::golden(&pass_txn(t, &plane.tex, &plane.lanes, plane.key, &lod));
                fault = a.fault;
                if fault == Fault::None && format_fault(t, tex) {
                    fault = Fault::BadDescriptor;
                }
                if fault != Fault::None {
                    break 'probes;
                }
                for l in (0..4).filter(|&l| plane.border & (1 << l) != 0) {
                    let lane = &mut a.lanes[l];
                    lane.taps.iter_mut().for_each(|tap| tap.border = true);
                    lane.req = 0;
                    lane.fail = false;
                    lane.status &= !1;
                }
                let uncached = t.op == TexOp::LookupUncached;
                fetch(&plane.lanes, &a, mask, cache, uncached, &mut r.lines);
                for l in (0..4).filter(|&l| mask & (1 << l) != 0) {
                    let lane = &a.lanes[l];
                    if t.op == TexOp::Txq {
                        r.rgba[l] = a.size;
                        continue;
                    }
                    if t.op == TexOp::Lodq {
                        r.rgba[l] = lod_query(&lod[l]);
                        r.lambda[l] = lod[l].lambda;
                        continue;
                    }
                    if t.op != TexOp::Txf {
                        r.lambda[l] = lod[l].lambda;
                    }
                    if !plane.lanes[l].active {
                        continue;
                    }
                    r.status[l] = lane.status | (r.status[l] & 1);
                    failed[l] |= lane.fail;
                    if failed[l] {
                        continue;
                    }
                    let texels = lane_texels(t, tex.format, lane);
                    let v = filter_lane(t, &plane.tex, lane, &texels, plane.key, lod[l].frac, l);
                    last[l] = Some(v);
                    for c in 0..4 {
                        acc[l][c] = acc[l][c].accumulate(v[c], plane.weight[l]);
                    }
                    if tex.desc.dim == Dim::D3 {
                        s3[l] = 8 * (u32::from(key.2) + u32::from(key.3));
                    }
                }
            }
        }
    }
    for l in 0..4 {
        if let (Some(v), false) = (last[l], failed[l]) {
            let v = if n[l] > 1 {
                acc[l].map(|a| a.mean(n[l]))
            } else if s3[l] > 0 {
                acc[l].map(|a| a.scaled(s3[l]))
            } else {
                v
            };
            r.rgba[l] = swizzle(t, tex, v);
        }
    }
    if fault != Fault::None {
        r.status = [0; 4];
        r.rgba = [[0; 4]; 4];
        r.lambda = [0; 4];
    }
    r.fault = fault;
    r
}

/// Guard bits of the probe accumulator (step 3a).
pub const PROBE_GUARD: u32 = 3;

/// Fraction bits of the probe average's reciprocal R_N = round(2^30 / N) (step 3a).
pub const PROBE_RECIP_BITS: u32 = 30;

/// One component's running probe sum (step 3a): a block-floating-point accumulator. `e` is the
/// block's biased exponent (0 while empty), `acc` the signed sum in units of 2^(e − 150 − G).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProbeAcc {
    pub e: u32,
    pub acc: i64,
    pub nan: bool,
    pub pinf: bool,
    pub ninf: bool,
}

impl ProbeAcc {
    /// Adds one value (f32 bits) with integer weight `w` (1 for a probe, a 3D plane's W_p
    /// ≤ 2^16): a NaN or infinity sets its flag; a finite value's significand (denormals at
    /// exponent 1, no hidden bit) times w with G guard bits joins the block — if its exponent is
    /// larger the block is realigned first — each shift truncating the magnitude (toward zero).
    /// A weight of 0 adds nothing, not even a special.
    pub fn accumulate(mut self, x: u32, w: u32) -> Self {
        if w == 0 {
            return self;
        }
        let exp = (x >> 23) & 0xFF;
        let neg = x >> 31 != 0;
        if exp == 0xFF {
            if x & 0x7F_FFFF != 0 {
                self.nan = true;
            } else if neg {
                self.ninf = true;
            } else {
                self.pinf = true;
            }
            return self;
        }
        let sig = i64::from(x & 0x7F_FFFF | if exp != 0 { 0x80_0000 } else { 0 });
        if sig == 0 {
            return self;
        }
        let e = exp.max(1);
        let shr = |v: i64, sh: u32| {
            if sh >= 63 {
                0
            } else {
                v.signum() * (v.abs() >> sh)
            }
        };
        if e > self.e {
            self.acc = shr(self.acc, e - self.e);
            self.e = e;
        }
        let a = shr((sig * i64::from(w)) << PROBE_GUARD, self.e - e);
        self.acc += if neg { -a } else { a };
        self
    }

    /// The average of `n` values: specials as the blend's (NaN, or both infinities ⇒ NaN; an
    /// infinity ⇒ itself), else acc · R_N · 2^(e − 150 − G − 30) rounded once to f32 (nearest
    /// even, denormals kept; an all-zero sum is +0).
    pub fn mean(&self, n: u32) -> u32 {
        self.times(probe_recip(n))
    }

    /// The weighted sum of a 3D lookup's planes (step 0d), Σ W_p·v_p / 2^s: the mean's
    /// arithmetic with R = 2^(30 − s) (exact), s ≤ 16.
    pub fn scaled(&self, s: u32) -> u32 {
        self.times(1 << (PROBE_RECIP_BITS - s))
    }

    /// Specials as the blend's, else acc · r · 2^(e − 150 − G − 30) rounded once to f32.
    fn times(&self, r: u32) -> u32 {
        if self.nan || (self.pinf && self.ninf) {
            return texel::CANONICAL_NAN;
        }
        if self.pinf || self.ninf {
            return if self.pinf { 0x7F80_0000 } else { 0xFF80_0000 };
        }
        texel::round_scaled(
            self.acc * i64::from(r),
            self.e as i32 - 150 - PROBE_GUARD as i32 - PROBE_RECIP_BITS as i32,
        )
    }
}

/// R_N = round(2^30 / n) (step 3a).
pub fn probe_recip(n: u32) -> u32 {
    let one = 1u64 << PROBE_RECIP_BITS;
    ((one + u64::from(n) / 2) / u64::from(n)) as u32
}

/// Step 5: the pass's distinct lines, in slot order, through the cache (or past it, `uncached`:
/// each line requested and nothing allocated); misses are appended to `lines`.
fn fetch(
    plan: &[LanePlan; 4],
    a: &texaddr::TexAddrResult,
    mask: u32,
    cache: &mut Cache,
    uncached: bool,
    lines: &mut Vec<u64>,
) {
    let mut seen: Vec<u64> = Vec::new();
    for (l, (p, lane)) in plan.iter().zip(&a.lanes).enumerate() {
        if mask & (1 << l) == 0 || !p.active {
            continue;
        }
        for (k, tap) in lane.taps.iter().enumerate() {
            if lane.req & (1 << k) == 0 {
                continue;
            }
            let line = tap.addr / LINE_BYTES;
            if !seen.contains(&line) {
                seen.push(line);
            }
        }
    }
    // Slot order = lane, then level, then k: the texaddr tap list is already in that order
    // per lane, and lanes ascend, so `seen` is in slot order. Rounds: round r looks up, in
    // bank order, the r-th line of each bank in `seen`'s order.
    for line in lookup_rounds(&seen).into_iter().flatten() {
        if uncached {
            cache.bypass();
            lines.push(line);
        } else if !cache.access(line) {
            lines.push(line);
        }
    }
}

/// Step 5's lookup rounds of a pass's distinct `lines` (in slot order): round r holds, in bank
/// order, the r-th line of each bank ([`cache::bank`]) that has one.
pub fn lookup_rounds(lines: &[u64]) -> Vec<Vec<u64>> {
    let mut per_bank: [Vec<u64>; cache::BANKS] = Default::default();
    for &l in lines {
        per_bank[cache::bank(l)].push(l);
    }
    let n = per_bank.iter().map(Vec::len).max().unwrap_or(0);
    (0..n)
        .map(|r| per_bank.iter().filter_map(|v| v.get(r).copied()).collect())
        .collect()
}

/// Step 6: a lane's taps as converted four-vectors (border taps read the border colour).
pub fn lane_texels(t: &TexTxn, fmt: Format, lane: &texaddr::LaneResult) -> Vec<[u32; 4]> {
    lane.taps
        .iter()
        .map(|tap| {
            if tap.border && fmt.is_integer() {
                t.sampler.border
            } else if tap.border {
                t.sampler.border.map(texel::flush)
            } else {
                let raw = (0..fmt.bpp()).rev().fold(0u128, |acc, b| {
                    acc << 8 | u128::from(memory_byte(&t.textures, tap.addr + u64::from(b)))
                });
                texel::convert(fmt, raw)
            }
        })
        .collect()
}

/// The weights of a lane's taps (step 8) and S.
pub fn tap_weights(
    lane: &texaddr::LaneResult,
    key: PassKey,
    one_d: bool,
    frac: u32,
) -> (Vec<u32>, u32) {
    let (tri, linear) = (key.2, key.3);
    let axis = |w: u32, hi: bool| if hi { w } else { 256 - w };
    let mut ws = Vec::new();
    for level in 0..if tri { 2 } else { 1 } {
        let (wu, wv) = if level == 0 {
            (lane.wu, lane.wv)
        } else {
            (lane.wu1, lane.wv1)
        };
        let wl = if !tri {
            1
        } else if level == 0 {
            256 - frac
        } else {
            frac
        };
        if !linear {
            ws.push(wl);
        } else if one_d {
            ws.push(axis(wu, false) * wl);
            ws.push(axis(wu, true) * wl);
        } else {
            for k in 0..4 {
                ws.push(axis(wu, k & 1 == 1) * axis(wv, k >= 2) * wl);
            }
        }
    }
    let s = 8
        * (u32::from(tri)
            + if linear {
                if one_d {
                    1
                } else {
                    2
                }
            } else {
                0
            });
    (ws, s)
}

/// Steps 7–8 for one lane: compare, filter (or gather); the value before the swizzle.
fn filter_lane(
    t: &TexTxn,
    tex: &Texture,
    lane: &texaddr::LaneResult,
    texels: &[[u32; 4]],
    key: PassKey,
    frac: u32,
    l: usize,
) -> [u32; 4] {
    let fmt = tex.format;
    let one_d = tex.desc.dim.coords() == 1;
    if t.op == TexOp::Gather4 {
        let c = (t.gather_comp & 3) as usize;
        let g = |k: usize| texels.get(k).map_or(0, |x| x[c]);
        return if one_d {
            [g(0), g(1), g(1), g(0)]
        } else {
            [g(2), g(3), g(1), g(0)]
        };
    }
    let (ws, s) = tap_weights(lane, key, one_d, frac);
    let vec: [u32; 4] = if t.op.compares() {
        let reference = texel::compare_ref(fmt, t.reference[l]);
        let taps: Vec<(u32, u32)> = texels
            .iter()
            .zip(&ws)
            .map(|(x, &w)| (texel::compare_tap(t.sampler.compare, reference, x[0]), w))
            .collect();
        let p = blend_or_pass(&taps, s);
        [p, p, p, texel::ONE]
    } else if fmt.is_integer() {
        texels[0]
    } else {
        std::array::from_fn(|c| {
            let taps: Vec<(u32, u32)> = texels.iter().zip(&ws).map(|(x, &w)| (x[c], w)).collect();
            blend_or_pass(&taps, s)
        })
    };
    vec
}

/// Step 9: the descriptor swizzle of a lane's value (gather4 passes unchanged).
pub fn swizzle(t: &TexTxn, tex: &Texture, vec: [u32; 4]) -> [u32; 4] {
    if t.op == TexOp::Gather4 {
        return vec;
    }
    let one = if tex.format.is_integer() {
        1
    } else {
        texel::ONE
    };
    std::array::from_fn(|c| match tex.swizzle[c] {
        Swz::Zero => 0,
        Swz::One => one,
        sw => vec[sw as usize],
    })
}

/// A single tap passes unchanged; otherwise [`texel::blend`].
fn blend_or_pass(taps: &[(u32, u32)], s: u32) -> u32 {
    if s == 0 {
        taps[0].0
    } else {
        texel::blend(taps, s)
    }
}
