//! The texture unit (described in `docs/units/tex.md`): one quad sampling instruction in, four
//! filtered four-vectors out. It instantiates the LOD unit ([`LodUnit`]) and the texture address
//! pipeline ([`TexAddrUnit`]) and adds the texel cache ([`TexelCache`]), the memory port, format
//! conversion, depth compare, filtering and the swizzle ([`FilterLane`]).
//!
//! # Ports
//! Input stream (`in_valid`/`in_ready`, transfer on a rising edge with both high): `in_tag`
//! (returned unchanged), `in_op` (the `TexOp` code: tex, txb, txl, txd, txf, txq, gather4,
//! sample_c, sample_c_lz, txp, lodq, and ATI CTM's nop, lookup_uncached, kill_lt_0), `in_flush` (invalidate the cache first), the texture descriptor
//! `in_hdr[0..4]` (the address pipeline's four header words; all zero = unbound) and `in_hdr[4]`
//! (format code [4:0], swizzle 3 bits per component from bit 5), the sampler: `in_wrap`
//! (wrap_s [2:0], wrap_t [5:3], wrap_r [8:6]), `in_min_lin`, `in_mag_lin`, `in_mip` (0 none, 1 nearest,
//! 2 linear), `in_unnorm`, `in_bias` (·256), `in_min_lod`, `in_max_lod` (·256), `in_compare`,
//! `in_border[4]`, `in_aniso` (max anisotropy 1…16; 0 and 17…31 act as 1); per lane (`4·lane + k`) `in_coord` (s, t, r, q f32, or txf's i, j, k, level),
//! `in_grad` (dsdx, dsdy, dtdx, dtdy), per lane `in_lbias`, `in_lod` (f32, or txq's level),
//! `in_ref`, `in_off` ({dw[11:8], dv[7:4], du[3:0]}, 4-bit two's complement; dw moves a 3D
//! texture's r); `in_wmask`, `in_gcomp`.
//! `cache_en`: the cache is used (low: every line is fetched, nothing allocated; so for one
//! `lookup_uncached`). ATI CTM bits: `in_unscaled` (unnormalized coordinates), `in_sem_wait`,
//! `in_sem_acquire` (texture semaphore; `sem_busy` out: an acquire is outstanding — from its
//! instruction's accept until its result leaves — and neither a waiting nor an acquiring
//! instruction is accepted meanwhile, so two acquires never overlap).
//! Residency port (forwarded from the address pipeline, same protocol): `res_rd`, `res_tag` (the
//! instruction's tag), `res_level0`, `res_level1`, `res_tile[32]` → `res_ok[32]`.
//! Memory port: `mem_req_valid`/`mem_req_ready`, `mem_req_line` (byte address / 64),
//! `mem_req_tag` (the tag of the instruction whose pass requests it: the fetch may run ahead of
//! a result waiting for `out_ready`);
//! `mem_resp_valid` with `mem_resp_data[8]` (line bytes 8k…8k+7), in order, any latency, up to
//! 16 requests outstanding.
//! Output stream (`out_valid`/`out_ready`): `out_tag`, `out_rgba[4·lane + c]`, `out_status[lane]`
//! (TFE word), `out_lambda[lane]` (λ·256, 16-bit two's complement), `out_fault` (the address
//! pipeline's fault codes; 5 also for an integer format that would be filtered), `out_wmask`,
//! `out_lines` (memory requests of this instruction), `out_kill` (`kill_lt_0`'s lane mask);
//! `cnt_hits`, `cnt_misses`, `cnt_rounds` (cache counters: hits, misses, lookup rounds). `nop` and `kill_lt_0` go from accept straight to
//! the result (write mask 0, no fault, no fetch).
//! AMD MIMG forms: with `in_mimg` each lane's operands come from its twelve address dwords
//! `in_vaddr0…3` ([`MimgUnpack`]: `in_moff`, `in_a16`, `in_g16`); `in_dmask` (ANDed into the
//! write mask), `in_d16`, `in_tfe`, `in_lwe` shape `out_vdata[5·lane + k]` and `out_vcount`, the
//! dwords each lane's VGPRs receive ([`MimgPack`]).
//!
//! # Structure and timing
//! Machines in order, connected by queues. The *front* accepts an instruction
//! (descriptor, sampler and operands into its `f_` registers), for `txp` runs the projective
//! divide (s, t and r of each lane by its q in a pipelined [`FpDiv`]: twelve divisions issued one
//! per clock, quotients written back over the coordinates, 12 + 14 clocks), for a cube texture
//! (sampling ops) each lane's face by [`CubeFace`] and its face coordinates (sc/|ma| + 1)/2,
//! (tc/|ma| + 1)/2 through the same divider and an [`FpAdd`] (8 + 14 clocks; the descriptor is
//! rewritten at accept into the 2D array of the faces, 6·cubes layers, clamp to edge, and
//! [`LanePrep`] makes the layer 6·index + face), and issues it to the LOD unit (one clock, then
//! its 5), moving the instruction into the eight-entry instruction queue (`g_`) where it waits
//! for B1, so the front accepts the next one meanwhile (a `nop` or `kill_lt_0` goes there without
//! the LOD unit). *B1*, once free, takes the queue's oldest instruction with its LOD answer (into
//! its `p_` registers)
//! and issues its passes into the address pipeline, one per clock: for each
//! anisotropic probe (one unless a lane has N > 1: then first 4 clocks of probe coordinates,
//! one lane per clock) one *pass* per distinct (level pair, filter) key among the probe's lanes
//! (a 3D texture: per plane). Each pass also goes into an eight-entry pass queue (lanes, key,
//! weights, flags, and what B2 needs of the instruction: format, swizzle, border colour, depth
//! references, LOD fractions, probe counts, λ; the address pipeline carries the entry index as
//! its tag, so its descriptor and residency reads find the pass's header words and plane
//! level), and B1 takes the next instruction after the last pass. B2 is three stages in order.
//! *F* takes each address result (3 clocks after the issue, popping it, so the address pipeline
//! moves on) into its tap-address registers and X's registers, and fetches: each distinct line of
//! the pass's taps through the cache, the first looked up in the clock it takes the result, one
//! clock per hit, streamed, 3 + memory latency per miss (`txq` and `lodq` fetch nothing); F
//! takes a result only when X is free, so the slot registers hold X's texels until X has
//! filtered them (or in the clock it hands its pass over, when X is sure to filter that pass in
//! the next clock). *X*, the clock after the last line returns: one clock of four
//! [`FilterLane`]s, one per lane (`lodq`: each lane's λ and λ' through two [`Fix8ToF32`]),
//! into the result registers (the instruction's first pass clears them and copies its tag and
//! MIMG bits from the queue entry), when the result register is free or leaving; after the
//! instruction's last pass the result is valid. *R*: the result register → output, held until
//! `out_ready`; F and X go on with the next passes meanwhile (memory requests carry their
//! instruction's tag, `mem_req_tag`). `nop` and `kill_lt_0` go from B1 to R once F, X and the
//! pass queue are empty. A faulting pass zeroes the result and F drains the instruction's later
//! passes (no fetch). Latency about 14 clocks plus one per line (txp 26 more, cube 22 more); a
//! one-pass quad whose L lines hit occupies F for L clocks (F takes the next address result in
//! the clock its pass's last line returns, keeping the result's fields for X in its own copy).
//! `reset` (synchronous, active high) returns to idle and clears the counters and the cache.

use super::{CubeFace, FilterLane, LanePrep, MimgPack, MimgUnpack, ProbeStepRom, TexelCache};
use crate::common::fp::MulU;
use crate::common::fp::{FpAdd, FpDiv, FpMul};
use crate::common::Fix8ToF32;
use crate::lod::LodUnit;
use crate::texaddr::{Axis, LevelLayout, LevelOnes, TexAddrUnit};
use rust_hdl::prelude::*;

/// The texture unit. See the module documentation. (Not `Clone`: the cache's RAMs are not.)
#[derive(LogicBlock, Default)]
pub struct TexUnit {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// Input valid.
    pub in_valid: Signal<In, Bit>,
    /// An instruction is accepted this cycle.
    pub in_ready: Signal<Out, Bit>,
    /// Transaction id.
    pub in_tag: Signal<In, Bits<16>>,
    /// Operation code.
    pub in_op: Signal<In, Bits<4>>,
    /// Invalidate the cache before this instruction.
    pub in_flush: Signal<In, Bit>,
    /// Header words 0…3 and the format/swizzle word.
    pub in_hdr: [Signal<In, Bits<32>>; 5],
    /// wrap_s [2:0], wrap_t [5:3], wrap_r [8:6].
    pub in_wrap: Signal<In, Bits<9>>,
    /// Linear minification.
    pub in_min_lin: Signal<In, Bit>,
    /// Linear magnification.
    pub in_mag_lin: Signal<In, Bit>,
    /// Mip filter.
    pub in_mip: Signal<In, Bits<2>>,
    /// Unnormalized coordinates.
    pub in_unnorm: Signal<In, Bit>,
    /// Sampler bias·256.
    pub in_bias: Signal<In, Bits<16>>,
    /// min_lod·256.
    pub in_min_lod: Signal<In, Bits<12>>,
    /// max_lod·256.
    pub in_max_lod: Signal<In, Bits<12>>,
    /// Compare function.
    pub in_compare: Signal<In, Bits<3>>,
    /// Border colour.
    pub in_border: [Signal<In, Bits<32>>; 4],
    /// Max anisotropy (1…16).
    pub in_aniso: Signal<In, Bits<5>>,
    /// Coordinates, `4·lane + k`.
    pub in_coord: [Signal<In, Bits<32>>; 16],
    /// Gradients, `4·lane + k`.
    pub in_grad: [Signal<In, Bits<32>>; 16],
    /// Shader bias per lane.
    pub in_lbias: [Signal<In, Bits<32>>; 4],
    /// Explicit LOD (txl) or level (txq) per lane.
    pub in_lod: [Signal<In, Bits<32>>; 4],
    /// Depth reference per lane.
    pub in_ref: [Signal<In, Bits<32>>; 4],
    /// Texel offset per lane.
    pub in_off: [Signal<In, Bits<12>>; 4],
    /// Write mask.
    pub in_wmask: Signal<In, Bits<4>>,
    /// gather4 component.
    pub in_gcomp: Signal<In, Bits<2>>,
    /// Cache on.
    pub cache_en: Signal<In, Bit>,
    /// CTM `unscaled`: unnormalized coordinates.
    pub in_unscaled: Signal<In, Bit>,
    /// Texture semaphore: wait for the outstanding acquire before issue.
    pub in_sem_wait: Signal<In, Bit>,
    /// Texture semaphore: acquire.
    pub in_sem_acquire: Signal<In, Bit>,
    /// An acquire is outstanding.
    pub sem_busy: Signal<Out, Bit>,
    /// AMD MIMG: the operands come from `in_vaddr0…3` through [`MimgUnpack`].
    pub in_mimg: Signal<In, Bit>,
    /// MIMG: the address carries the offset dword.
    pub in_moff: Signal<In, Bit>,
    /// MIMG A16: 16-bit address components.
    pub in_a16: Signal<In, Bit>,
    /// MIMG G16: 16-bit derivatives.
    pub in_g16: Signal<In, Bit>,
    /// Lane 0's address dwords.
    pub in_vaddr0: [Signal<In, Bits<32>>; 12],
    /// Lane 1's address dwords.
    pub in_vaddr1: [Signal<In, Bits<32>>; 12],
    /// Lane 2's address dwords.
    pub in_vaddr2: [Signal<In, Bits<32>>; 12],
    /// Lane 3's address dwords.
    pub in_vaddr3: [Signal<In, Bits<32>>; 12],
    /// MIMG DMASK: the components returned (ANDed into the write mask).
    pub in_dmask: Signal<In, Bits<4>>,
    /// MIMG D16: 16-bit results, two per dword.
    pub in_d16: Signal<In, Bit>,
    /// MIMG TFE: the status dword follows the data.
    pub in_tfe: Signal<In, Bit>,
    /// MIMG LWE: the status dword follows; a failed lane's data is 0.
    pub in_lwe: Signal<In, Bit>,
    /// Residency read.
    pub res_rd: Signal<Out, Bit>,
    /// Tag of the instruction reading residency.
    pub res_tag: Signal<Out, Bits<16>>,
    /// Level of slots 8·lane + 0…3.
    pub res_level0: Signal<Out, Bits<4>>,
    /// Level of slots 8·lane + 4…7.
    pub res_level1: Signal<Out, Bits<4>>,
    /// Tile per slot.
    pub res_tile: [Signal<Out, Bits<32>>; 32],
    /// Resident per slot.
    pub res_ok: [Signal<In, Bit>; 32],
    /// Memory request valid.
    pub mem_req_valid: Signal<Out, Bit>,
    /// Memory accepts the request.
    pub mem_req_ready: Signal<In, Bit>,
    /// Requested line.
    pub mem_req_line: Signal<Out, Bits<42>>,
    /// The instruction (its `in_tag`) the requested line is for.
    pub mem_req_tag: Signal<Out, Bits<16>>,
    /// Memory response valid.
    pub mem_resp_valid: Signal<In, Bit>,
    /// Response bytes 8k…8k+7.
    pub mem_resp_data: [Signal<In, Bits<64>>; 8],
    /// Output valid.
    pub out_valid: Signal<Out, Bit>,
    /// Downstream accepts.
    pub out_ready: Signal<In, Bit>,
    /// Transaction id.
    pub out_tag: Signal<Out, Bits<16>>,
    /// Results, `4·lane + c`.
    pub out_rgba: [Signal<Out, Bits<32>>; 16],
    /// TFE status per lane.
    pub out_status: [Signal<Out, Bits<32>>; 4],
    /// λ·256 per lane.
    pub out_lambda: [Signal<Out, Bits<16>>; 4],
    /// Fault code.
    pub out_fault: Signal<Out, Bits<3>>,
    /// Write mask.
    pub out_wmask: Signal<Out, Bits<4>>,
    /// kill_lt_0's mask (bit l: lane l killed; 0 for every other op).
    pub out_kill: Signal<Out, Bits<4>>,
    /// Memory requests of this instruction.
    pub out_lines: Signal<Out, Bits<16>>,
    /// Cache hits.
    pub cnt_hits: Signal<Out, Bits<32>>,
    /// Cache misses.
    pub cnt_misses: Signal<Out, Bits<32>>,
    /// Cache lookup rounds (up to one line per bank each; hits + misses over rounds is the
    /// mean lines looked up per clock of lookup).
    pub cnt_rounds: Signal<Out, Bits<32>>,
    /// The dwords each lane's VGPRs receive (`5·lane + k`, [`MimgPack`]).
    pub out_vdata: [Signal<Out, Bits<32>>; 20],
    /// Dwords per lane in `out_vdata`.
    pub out_vcount: Signal<Out, Bits<3>>,

    /// The front (accept, txp divide, cube faces, issue to the LOD unit): 0 idle, 9 projective
    /// divide, 10 cube face coordinates, 8 issue to the LOD unit, 12 nop or kill_lt_0 waiting
    /// for room in the instruction queue. It holds one instruction in the `f_` registers.
    fst: DFF<Bits<4>>,
    /// B1: 0 idle (waiting for the front), 2 passes into the address pipeline, 7 probe
    /// coordinates (one lane per clock), 14 a nop or kill_lt_0 waiting for B2 (literals in the
    /// code: rust-hdl does not export Rust constants). Op codes
    /// as `in_op`: 1 txb, 2 txl, 3 txd, 4 txf, 5 txq, 6 gather4, 7 sample_c, 8 sample_c_lz,
    /// 9 txp, 10 lodq.
    state: DFF<Bits<4>>,
    // The front's instruction (the `p_` registers are the back's copy).
    f_tag: DFF<Bits<16>>,
    f_op: DFF<Bits<4>>,
    f_wrap: DFF<Bits<9>>,
    f_minlin: DFF<Bit>,
    f_maglin: DFF<Bit>,
    f_mip: DFF<Bits<2>>,
    f_unnorm: DFF<Bit>,
    f_acq: DFF<Bit>,
    f_cmp: DFF<Bits<3>>,
    f_sbias: DFF<Bits<16>>,
    f_minlod: DFF<Bits<12>>,
    f_maxlod: DFF<Bits<12>>,
    f_aniso: DFF<Bits<5>>,
    f_wmask: DFF<Bits<4>>,
    f_d16: DFF<Bit>,
    f_tfe: DFF<Bit>,
    f_lwe: DFF<Bit>,
    f_gcomp: DFF<Bits<2>>,
    f_cube: DFF<Bit>,
    f_ncube: DFF<Bits<16>>,
    f_vol: DFF<Bit>,
    f_hdr: [DFF<Bits<32>>; 5],
    f_coord: [DFF<Bits<32>>; 16],
    f_grad: [DFF<Bits<32>>; 16],
    f_bcol: [DFF<Bits<32>>; 4],
    f_lod: [DFF<Bits<32>>; 4],
    f_lbias: [DFF<Bits<32>>; 4],
    f_ref: [DFF<Bits<32>>; 4],
    f_off: [DFF<Bits<12>>; 4],
    f_face: [DFF<Bits<3>>; 4],
    f_kill: DFF<Bits<4>>,
    f_flush: DFF<Bit>,
    /// The instruction queue between the front and B1: up to eight instructions issued to the
    /// LOD unit (whose answers wait there in order), each entry the front's instruction as it
    /// was issued (`g_misc` packs the scalar fields, see `f_misc`; nop and kill_lt_0, which skip
    /// the LOD unit, are flagged in its bit 0). `g_n` entries from `g_rd`; the front writes at
    /// `g_wr`; the `gh_` signals are the head entry, which B1 takes. Eight entries: an
    /// instruction stays about six clocks (the LOD unit's latency), so fewer would stop the front
    /// before one instruction per clock.
    g_n: DFF<Bits<4>>,
    g_wr: DFF<Bits<3>>,
    g_rd: DFF<Bits<3>>,

    g_misc0: [DFF<Bits<55>>; 8],
    g_misc1: [DFF<Bits<61>>; 8],
    /// The entry holds an instruction (written by the front, not yet taken by B1).
    g_live: [DFF<Bit>; 8],
    /// The per-lane operands of entry e, lane k at 4e + k: border colour, `txl` LOD, LOD bias,
    /// depth reference, offsets, cube face.
    g_bcol: [DFF<Bits<32>>; 32],
    g_lod: [DFF<Bits<32>>; 32],
    g_lbias: [DFF<Bits<32>>; 32],
    g_ref: [DFF<Bits<32>>; 32],
    g_off: [DFF<Bits<12>>; 32],
    g_face: [DFF<Bits<3>>; 32],
    // Entry e's header words, coordinates and gradients: per-entry arrays (`[T; N]: Default`
    // stops at 32 elements, so 8 × 16 coordinates cannot be one flat array).
    g0_hdr: [DFF<Bits<32>>; 5],
    g0_coord: [DFF<Bits<32>>; 16],
    g0_grad: [DFF<Bits<32>>; 16],
    g1_hdr: [DFF<Bits<32>>; 5],
    g1_coord: [DFF<Bits<32>>; 16],
    g1_grad: [DFF<Bits<32>>; 16],
    g2_hdr: [DFF<Bits<32>>; 5],
    g2_coord: [DFF<Bits<32>>; 16],
    g2_grad: [DFF<Bits<32>>; 16],
    g3_hdr: [DFF<Bits<32>>; 5],
    g3_coord: [DFF<Bits<32>>; 16],
    g3_grad: [DFF<Bits<32>>; 16],
    g4_hdr: [DFF<Bits<32>>; 5],
    g4_coord: [DFF<Bits<32>>; 16],
    g4_grad: [DFF<Bits<32>>; 16],
    g5_hdr: [DFF<Bits<32>>; 5],
    g5_coord: [DFF<Bits<32>>; 16],
    g5_grad: [DFF<Bits<32>>; 16],
    g6_hdr: [DFF<Bits<32>>; 5],
    g6_coord: [DFF<Bits<32>>; 16],
    g6_grad: [DFF<Bits<32>>; 16],
    g7_hdr: [DFF<Bits<32>>; 5],
    g7_coord: [DFF<Bits<32>>; 16],
    g7_grad: [DFF<Bits<32>>; 16],
    f_misc0: Signal<Local, Bits<55>>,
    gh_misc0: Signal<Local, Bits<55>>,
    f_misc1: Signal<Local, Bits<61>>,
    gh_misc1: Signal<Local, Bits<61>>,
    gh_nop: Signal<Local, Bit>,
    gh_tag: Signal<Local, Bits<16>>,
    gh_op: Signal<Local, Bits<4>>,
    gh_wrap: Signal<Local, Bits<9>>,
    gh_minlin: Signal<Local, Bit>,
    gh_maglin: Signal<Local, Bit>,
    gh_mip: Signal<Local, Bits<2>>,
    gh_unnorm: Signal<Local, Bit>,
    gh_acq: Signal<Local, Bit>,
    gh_cmp: Signal<Local, Bits<3>>,
    gh_sbias: Signal<Local, Bits<16>>,
    gh_minlod: Signal<Local, Bits<12>>,
    gh_maxlod: Signal<Local, Bits<12>>,
    gh_aniso: Signal<Local, Bits<5>>,
    gh_wmask: Signal<Local, Bits<4>>,
    gh_d16: Signal<Local, Bit>,
    gh_tfe: Signal<Local, Bit>,
    gh_lwe: Signal<Local, Bit>,
    gh_gcomp: Signal<Local, Bits<2>>,
    gh_cube: Signal<Local, Bit>,
    gh_ncube: Signal<Local, Bits<16>>,
    gh_vol: Signal<Local, Bit>,
    gh_kill: Signal<Local, Bits<4>>,
    gh_flush: Signal<Local, Bit>,
    gh_hdr: [Signal<Local, Bits<32>>; 5],
    gh_coord: [Signal<Local, Bits<32>>; 16],
    gh_grad: [Signal<Local, Bits<32>>; 16],
    gh_bcol: [Signal<Local, Bits<32>>; 4],
    gh_lod: [Signal<Local, Bits<32>>; 4],
    gh_lbias: [Signal<Local, Bits<32>>; 4],
    gh_ref: [Signal<Local, Bits<32>>; 4],
    gh_off: [Signal<Local, Bits<12>>; 4],
    gh_face: [Signal<Local, Bits<3>>; 4],
    g_acqs: Signal<Local, Bit>,
    // The back's instruction (copied from the front's at the hand-over).
    p_tag: DFF<Bits<16>>,
    p_op: DFF<Bits<4>>,
    p_hdr: [DFF<Bits<32>>; 5],
    p_wrap: DFF<Bits<9>>,
    p_minlin: DFF<Bit>,
    p_maglin: DFF<Bit>,
    p_mip: DFF<Bits<2>>,
    p_unnorm: DFF<Bit>,
    p_cmp: DFF<Bits<3>>,
    p_bcol: [DFF<Bits<32>>; 4],
    p_coord: [DFF<Bits<32>>; 16],
    p_grad: [DFF<Bits<32>>; 16],
    p_lod: [DFF<Bits<32>>; 4],
    p_ref: [DFF<Bits<32>>; 4],
    p_off: [DFF<Bits<12>>; 4],
    p_wmask: DFF<Bits<4>>,
    p_gcomp: DFF<Bits<2>>,
    p_sbias: DFF<Bits<16>>,
    p_minlod: DFF<Bits<12>>,
    p_maxlod: DFF<Bits<12>>,
    p_aniso: DFF<Bits<5>>,
    p_lbias: [DFF<Bits<32>>; 4],
    /// The instruction acquired the texture semaphore.
    p_acq: DFF<Bit>,
    /// A cube or cube-array texture (addressed as the 2D array of its faces), its last cube
    /// index (0 for a cube) and each lane's face.
    p_cube: DFF<Bit>,
    p_ncube: DFF<Bits<16>>,
    p_face: [DFF<Bits<3>>; 4],
    /// A 3D texture: each level is addressed as a 2D array of its slices, one pass per (level,
    /// slice) plane of a pass key; `pl` the plane ({level [1], slice [0]}), per lane its weight
    /// W_p and whether its slice is a border slice.
    p_vol: DFF<Bit>,
    pl: DFF<Bits<2>>,
    /// MIMG D16, TFE, LWE.
    p_d16: DFF<Bit>,
    p_tfe: DFF<Bit>,
    p_lwe: DFF<Bit>,
    r_kill: DFF<Bits<4>>,
    /// txp: the next division to issue and the next quotient to write back (lane·3 + component).
    dv_issue: DFF<Bits<4>>,
    dv_ret: DFF<Bits<4>>,
    /// λ'·256 before the clamps (the LOD unit's `out_unclamped`), for lodq.
    l_unc: [DFF<Bits<24>>; 4],
    // The LOD unit's answer.
    l_lambda: [DFF<Bits<16>>; 4],
    l_lv0: [DFF<Bits<5>>; 4],
    l_lv1: [DFF<Bits<5>>; 4],
    l_frac: [DFF<Bits<8>>; 4],
    l_mag: [DFF<Bit>; 4],
    l_warn: DFF<Bits<4>>,
    /// Anisotropic probes: per lane N and major axis (1 = y), the probe index, the probe's
    /// coordinates per lane and each lane's running probe sums (4·lane + c).
    l_n: [DFF<Bits<5>>; 4],
    l_major: DFF<Bits<4>>,
    pidx: DFF<Bits<4>>,
    ps: [DFF<Bits<32>>; 4],
    pt: [DFF<Bits<32>>; 4],
    sum_e: [DFF<Bits<8>>; 16],
    sum_acc: [DFF<Bits<45>>; 16],
    sum_fl: [DFF<Bits<3>>; 16],
    // Passes and fetch.
    remaining: DFF<Bits<4>>,
    pending: DFF<Bits<32>>,
    /// Slots whose line has not been looked up yet.
    unlk: DFF<Bits<32>>,
    /// Each slot's cache bank (`line_bank` of its line), taken when F starts the pass.
    fa_bank: [DFF<Bits<3>>; 32],
    /// Lookup rounds issued (one to four lines each), wrapping, cleared by reset.
    rounds: DFF<Bits<32>>,
    slo: [DFF<Bits<64>>; 32],
    shi: [DFF<Bits<64>>; 32],
    blane: DFF<Bits<2>>,
    /// The back: B1 (`state`) takes an instruction from the instruction queue and issues its
    /// passes into the address pipeline; B2 fetches (F, `b2st`: 0 waiting for a pass, 4
    /// fetching), filters (X) and returns the result (R). B2 reads the instruction from its
    /// passes' queue entries, so B1 takes the next instruction as soon as it has issued the last
    /// pass. `p_first`: B1 has not issued its first pass yet; `p_kill`, `p_flush`: B1's copies of
    /// the front's kill mask and flush bit.
    p_first: DFF<Bit>,
    p_kill: DFF<Bits<4>>,
    p_flush: DFF<Bit>,
    b2st: DFF<Bits<3>>,
    /// X: the pass F handed over (its texels in the slot registers), kind 0 fetched, 1 the
    /// faulting pass (`x_fault`), 2 drained; the address result's weights, border and fail bits,
    /// statuses and sizes, and the lines F requested for it (`b_lines` counts them in F).
    x_valid: DFF<Bit>,
    /// F's pass, taken from the address pipeline when it starts: its queue entry and its tap
    /// addresses (`ca`: the lines to look up, the address pipeline's in the clock F starts).
    f_ent: DFF<Bits<3>>,
    fa_addr: [DFF<Bits<48>>; 32],
    x_kind: DFF<Bits<2>>,
    x_fault: DFF<Bits<3>>,
    x_lines: DFF<Bits<16>>,
    b_lines: DFF<Bits<16>>,
    x_wu: [DFF<Bits<8>>; 4],
    x_wv: [DFF<Bits<8>>; 4],
    x_wu1: [DFF<Bits<8>>; 4],
    x_wv1: [DFF<Bits<8>>; 4],
    x_border: DFF<Bits<32>>,
    x_fail: DFF<Bits<4>>,
    x_status: [DFF<Bits<32>>; 4],
    x_size: [DFF<Bits<32>>; 4],
    /// F's copy of its pass's address result for X (moved into X's registers at the hand-over;
    /// F may take the next result in the clock it hands a pass over).
    y_wu: [DFF<Bits<8>>; 4],
    y_wv: [DFF<Bits<8>>; 4],
    y_wu1: [DFF<Bits<8>>; 4],
    y_wv1: [DFF<Bits<8>>; 4],
    y_border: DFF<Bits<32>>,
    y_fail: DFF<Bits<4>>,
    y_status: [DFF<Bits<32>>; 4],
    y_size: [DFF<Bits<32>>; 4],
    /// R: the result register holds a result (`out_valid`).
    r_valid: DFF<Bit>,
    /// The later passes of a faulting instruction are drained (`dead`, F's).
    dead: DFF<Bit>,
    // B2's copy of the instruction, taken with its first pass.
    q_tag: DFF<Bits<16>>,
    q_op: DFF<Bits<4>>,
    q_wmask: DFF<Bits<4>>,
    q_d16: DFF<Bit>,
    q_tfe: DFF<Bit>,
    q_lwe: DFF<Bit>,
    q_acq: DFF<Bit>,
    q_isint: DFF<Bit>,
    /// The pass queue: one entry per pass between B1 and B2, written when the address pipeline
    /// takes the pass, whose tag is the entry's index (so the descriptor and residency reads of
    /// the pass in stage 1 or 2 find its header words, sampler, plane level and instruction
    /// tag), and read by B2 at the head: lanes of the pass, their `LanePrep` active bits, border
    /// slices, key bits {linear [2], trilinear [1], txq level ≥ 16 [0]}, plane weights and flags
    /// {first pass of the instruction [3], last [2], 3D planes [1], first probe or plane [0]};
    /// `pq_rv`: the pass's residency reads take its plane level `pq_rlev`. Eight entries: a pass
    /// stays about six clocks (address pipeline, lookup, line, filter), so fewer would stop B1
    /// before one pass per clock.
    pq_wr: DFF<Bits<3>>,
    pq_rd: DFF<Bits<3>>,
    pq_n: DFF<Bits<4>>,
    pq_hdr: [DFF<Bits<32>>; 32],
    pq_smp: [DFF<Bits<8>>; 8],
    pq_rlev: [DFF<Bits<4>>; 8],
    pq_itag: [DFF<Bits<16>>; 8],
    pq_mask: [DFF<Bits<4>>; 8],
    pq_act: [DFF<Bits<4>>; 8],
    pq_bord: [DFF<Bits<4>>; 8],
    pq_key: [DFF<Bits<3>>; 8],
    pq_pw: [DFF<Bits<17>>; 32],
    pq_fl: [DFF<Bits<4>>; 8],
    /// Per entry, the instruction as B2 needs it (read with its first pass): {flush [24],
    /// kill [23:20], integer format [19], acquire [18], lwe [17], tfe [16], d16 [15], write mask
    /// [14:11], format fault [10], gather component [9:8], compare [7:5], 1D [4], op [3:0]}, the
    /// format and swizzle, and per lane (4·entry + lane) border colour, depth reference, LOD
    /// fraction, probe count, λ·256 and λ'·256.
    pq_misc: [DFF<Bits<23>>; 8],
    /// F's bits of each entry: {flush [1], integer format filtered (a fault) [0]}.
    pq_ff: [DFF<Bits<2>>; 8],
    pq_fs: [DFF<Bits<17>>; 8],
    pq_bcol: [DFF<Bits<32>>; 32],
    pq_ref: [DFF<Bits<32>>; 32],
    pq_frac: [DFF<Bits<8>>; 32],
    pq_np: [DFF<Bits<5>>; 32],
    pq_lam: [DFF<Bits<16>>; 32],
    pq_unc: [DFF<Bits<24>>; 32],
    pq_rv: [DFF<Bit>; 8],
    /// The entry holds a pass (written by B1, not yet popped by X).
    pq_live: [DFF<Bit>; 8],
    // Result.
    r_rgba: [DFF<Bits<32>>; 16],
    r_status: [DFF<Bits<32>>; 4],
    r_lambda: [DFF<Bits<16>>; 4],
    r_fault: DFF<Bits<3>>,
    r_lines: DFF<Bits<16>>,

    lod: LodUnit,
    /// txp's divider (s, t, r by q: twelve divisions, one per clock), also the cube's sc/|ma|
    /// and tc/|ma| (eight).
    div: FpDiv,
    /// Cube face selection of the lane being issued to the divider.
    cubef: CubeFace,
    /// Cube: quotient + 1.0 (then halved: the face coordinate).
    cb_add: FpAdd,
    /// MIMG address dwords → operands, per lane; returned dwords, per lane (named instances:
    /// rust-hdl's Verilog does not index an array port of an arrayed sub-block).
    unpk0: MimgUnpack,
    unpk1: MimgUnpack,
    unpk2: MimgUnpack,
    unpk3: MimgUnpack,
    pack0: MimgPack,
    pack1: MimgPack,
    pack2: MimgPack,
    pack3: MimgPack,
    /// lodq: λ and λ' of the lane in the blend stage to f32.
    cv_lam0: Fix8ToF32,
    cv_unc0: Fix8ToF32,
    cv_lam1: Fix8ToF32,
    cv_unc1: Fix8ToF32,
    cv_lam2: Fix8ToF32,
    cv_unc2: Fix8ToF32,
    cv_lam3: Fix8ToF32,
    cv_unc3: Fix8ToF32,
    addr: TexAddrUnit,
    /// 3D: the volume's level layout (the plane's level: size, depth, first byte) and each
    /// lane's r axis at that level (the address pipeline's own blocks), W_p = f_l · f_r.
    vlay: LevelLayout,
    /// The volume layout's level-size clamps of width, height and depth.
    vones: [LevelOnes; 3],
    rax: [Axis; 4],
    wmul: [MulU<9, 9, 17>; 4],
    cache: TexelCache,
    /// One filter datapath per lane (named instances: rust-hdl's Verilog does not index an array
    /// port of an arrayed sub-block).
    lane0: FilterLane,
    lane1: FilterLane,
    lane2: FilterLane,
    lane3: FilterLane,
    /// Per lane: address operands and pass key.
    prep: [LanePrep; 4],
    /// Probe positions, one lane per clock: derivatives, times k_p, plus the coordinate.
    step_rom: ProbeStepRom,
    d_s: FpAdd,
    d_t: FpAdd,
    m_s: FpMul,
    m_t: FpMul,
    a_s: FpAdd,
    a_t: FpAdd,

    accept: Signal<Local, Bit>,
    /// B2 takes B1's instruction (with its first pass, or a nop / kill_lt_0).
    /// B2 takes a nop or kill_lt_0 from B1 (B2 and the queue are empty).
    tnop: Signal<Local, Bit>,
    /// B1 writes a pass into the queue; B2 releases the head pass; the head pass's fields.
    push: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    h_mask: Signal<Local, Bits<4>>,
    h_act: Signal<Local, Bits<4>>,
    h_bord: Signal<Local, Bits<4>>,
    h_key: Signal<Local, Bits<3>>,
    h_pw: [Signal<Local, Bits<17>>; 4],
    h_fl: Signal<Local, Bits<4>>,
    h_misc: Signal<Local, Bits<23>>,
    h_itag: Signal<Local, Bits<16>>,
    h_fs: Signal<Local, Bits<17>>,
    h_bcol: [Signal<Local, Bits<32>>; 4],
    h_ref: [Signal<Local, Bits<32>>; 4],
    h_frac: [Signal<Local, Bits<8>>; 4],
    h_np: [Signal<Local, Bits<5>>; 4],
    h_lam: [Signal<Local, Bits<16>>; 4],
    h_unc: [Signal<Local, Bits<24>>; 4],
    /// The instruction word written into the pass's queue entry.
    misc_now: Signal<Local, Bits<23>>,
    ff_now: Signal<Local, Bits<2>>,
    /// Queue entries holding a pass of an acquiring instruction.
    q_acqs: Signal<Local, Bit>,
    /// The pass's lanes' active bits at issue; its flags; the remaining lanes after it.
    act_now: Signal<Local, Bits<4>>,
    fl_now: Signal<Local, Bits<4>>,
    /// The pass's residency reads take the plane level from the queue.
    rv_now: Signal<Local, Bit>,
    rem_after: Signal<Local, Bits<4>>,
    /// The descriptor and residency reads' queue entries.
    d_idx: Signal<Local, Bits<16>>,
    r_idx: Signal<Local, Bits<16>>,
    /// B2: the op as the datapath sees it; the pass faults (B1's format check for a first pass).
    x_op: Signal<Local, Bits<4>>,
    x_eop: Signal<Local, Bits<4>>,
    /// F's pass: its queue entry (the address pipeline's head tag) and that entry's flags,
    /// instruction bits, lanes, active and border-slice bits.
    f_idx: Signal<Local, Bits<3>>,
    fh_first: Signal<Local, Bit>,
    fh_op: Signal<Local, Bits<4>>,
    fh_ff: Signal<Local, Bits<2>>,
    fh_mask: Signal<Local, Bits<4>>,
    fh_act: Signal<Local, Bits<4>>,
    fh_bord: Signal<Local, Bits<4>>,
    /// The pass F is fetching: its entry's instruction bits and tag.
    fc_op: Signal<Local, Bits<4>>,
    fc_itag: Signal<Local, Bits<16>>,
    /// F's pass's slots still to look up; R holds a result on the next edge; the head result
    /// would be fetched; F takes the head result in the clock it hands a pass over.
    rv_next: Signal<Local, Bit>,
    ffetch: Signal<Local, Bit>,
    fchain: Signal<Local, Bit>,
    /// X filters its pass on this edge; X can take a pass on this edge; F's pass is drained;
    /// F starts its head result; a miss returns to F; F's lines are all in; F hands its pass
    /// to X; X's pass is its instruction's first.
    xgo: Signal<Local, Bit>,
    xfree: Signal<Local, Bit>,
    fdead: Signal<Local, Bit>,
    fgo: Signal<Local, Bit>,
    fmiss: Signal<Local, Bit>,
    fdone: Signal<Local, Bit>,
    hand: Signal<Local, Bit>,
    xfirst: Signal<Local, Bit>,
    /// The status of each lane before X's pass (0 before the instruction's first pass).
    rs_prev: [Signal<Local, Bits<32>>; 4],
    /// The address result's border and fail bits, packed for X.
    xb: Signal<Local, Bits<32>>,
    ca: [Signal<Local, Bits<42>>; 32],
    xf: Signal<Local, Bits<4>>,
    b2fault: Signal<Local, Bit>,
    /// The back takes the front's instruction (`take_lod`: with the LOD unit's answer).
    take: Signal<Local, Bit>,
    take_lod: Signal<Local, Bit>,
    b1_free: Signal<Local, Bit>,
    /// The front moves its instruction into the `g_` slot (free, or taken by B1 this clock).
    gmove: Signal<Local, Bit>,
    gfree: Signal<Local, Bit>,
    /// The front instruction's dimension, 1D, level count, size and op as the datapath sees it.
    f_dimc: Signal<Local, Bits<3>>,
    f_one_d: Signal<Local, Bit>,
    f_levels: Signal<Local, Bits<5>>,
    f_width: Signal<Local, Bits<16>>,
    f_height: Signal<Local, Bits<16>>,
    g_eop: Signal<Local, Bits<4>>,
    /// The offered texture's dimension code; it is a cube or cube array.
    in_dim: Signal<Local, Bits<3>>,
    in_cube: Signal<Local, Bit>,
    /// The offered cube array's last cube index.
    in_ncube: Signal<Local, Bits<16>>,
    /// Cube: the lane being issued to the divider; (quotient + 1)/2.
    cb_lane: Signal<Local, Bits<2>>,
    cb_half: Signal<Local, Bits<32>>,
    /// The result is integers (integer format and not lodq, or txq).
    int_res: Signal<Local, Bit>,
    /// The op as the datapath sees it: txp runs as tex (0), lodq as txq (5).
    eop: Signal<Local, Bits<4>>,
    busy: Signal<Local, Bit>,
    kmask: Signal<Local, Bits<4>>,
    dv_a: Signal<Local, Bits<32>>,
    dv_b: Signal<Local, Bits<32>>,
    /// lodq: each lane's λ' as f32.
    unc_f: [Signal<Local, Bits<32>>; 4],
    dimc: Signal<Local, Bits<3>>,
    one_d: Signal<Local, Bit>,
    levels: Signal<Local, Bits<5>>,
    width: Signal<Local, Bits<16>>,
    height: Signal<Local, Bits<16>>,
    layers: Signal<Local, Bits<17>>,
    is_int: Signal<Local, Bit>,
    samp: Signal<Local, Bit>,
    fmt_fault: Signal<Local, Bit>,
    // Passes.
    kfirst: Signal<Local, Bits<12>>,
    found: Signal<Local, Bit>,
    mask: Signal<Local, Bits<4>>,
    // Fetch.
    /// Per bank: the first available slot's line (`pfound[b]`: there is one).
    pfound: [Signal<Local, Bit>; 8],
    pick: [Signal<Local, Bits<42>>; 8],
    /// Pending slots not waiting on a line in flight.
    avail: Signal<Local, Bits<32>>,
    /// The bank of `ca[s]`: the XOR of its 3-bit groups.
    cbank: [Signal<Local, Bits<3>>; 32],
    /// Per slot: its bank's line in flight, that bank's lookup is in flight, returns now.
    sline: [Signal<Local, Bits<42>>; 32],
    sret: [Signal<Local, Bit>; 32],
    /// Slots whose line is looked up in this clock.
    lkmask: Signal<Local, Bits<32>>,
    /// X holds a pass on the next edge.
    xv_next: Signal<Local, Bit>,
    /// The line looked up in slot s's bank in this clock.
    lkline: [Signal<Local, Bits<42>>; 32],
    /// Slots whose line returns in this clock.
    retmask: Signal<Local, Bits<32>>,
    /// Every lookup in flight returns in this clock (or none is in flight).
    /// Every bank a round would use accepts a lookup; the round goes to the cache.
    allready: Signal<Local, Bit>,
    anyfound: Signal<Local, Bit>,
    issue: Signal<Local, Bit>,
    /// Banks returning a line, banks taking a lookup, in this clock.
    /// The address pipeline's result starts a fetch (no fault) in this clock.
    fstart: Signal<Local, Bit>,
    fsh: [Signal<Local, Bits<6>>; 32],
    /// The slot's word in its line (byte address bits 5:3).
    sword: [Signal<Local, Bits<3>>; 32],
    /// The slot's word and the next one, from the line its bank returns.
    swlo: [Signal<Local, Bits<64>>; 32],
    swhi: [Signal<Local, Bits<64>>; 32],
    lane_on: Signal<Local, Bits<4>>,
    pinit: Signal<Local, Bits<32>>,
    warn: Signal<Local, Bits<4>>,
    smp: Signal<Local, Bits<8>>,
    boh: Signal<Local, Bits<4>>,
    aniso_op: Signal<Local, Bit>,
    nmax: Signal<Local, Bits<5>>,
    pmask_next: Signal<Local, Bits<4>>,
    pidx5: Signal<Local, Bits<5>>,
    pidx_next: Signal<Local, Bits<5>>,
    cur_n: Signal<Local, Bits<5>>,
    cur_major: Signal<Local, Bit>,
    nm1: Signal<Local, Bits<5>>,
    major: Signal<Local, Bits<4>>,
    multi: Signal<Local, Bit>,
    /// The lane returns zeros (TEXEL_FAIL in this or an earlier probe).
    bfail: [Signal<Local, Bit>; 4],
    /// The filter lanes' shared controls: mode, first probe or plane, the 3D planes' scale.
    lmode: Signal<Local, Bits<2>>,
    lfirst: Signal<Local, Bit>,
    ls3: Signal<Local, Bits<5>>,
    /// 3D: a sampling op on a volume; the plane's level and the key's trilinear and linear bits
    /// (from the key being issued in state 2, else from the pass's key); last plane of the key;
    /// the next plane; the rewritten header words; per lane the slice and its factors.
    vsamp: Signal<Local, Bit>,
    vlev: Signal<Local, Bits<4>>,
    vtri: Signal<Local, Bit>,
    vlin: Signal<Local, Bit>,
    pl_last: Signal<Local, Bit>,
    pl_next: Signal<Local, Bits<2>>,
    vhdr: [Signal<Local, Bits<32>>; 4],
    vdm1: Signal<Local, Bits<17>>,
    vsl: [Signal<Local, Bits<32>>; 4],
    vbord: Signal<Local, Bits<4>>,
    fl: [Signal<Local, Bits<9>>; 4],
    fr: [Signal<Local, Bits<9>>; 4],
}

impl TexUnit {
    /// Pipeline depths the test bench builds and checks (every depth 0…[`TexUnit::MAX_DEPTH`] is
    /// accepted by [`TexUnit::new`]).
    pub const DEPTHS: [usize; 3] = [0, 1, TexUnit::MAX_DEPTH];

    /// Deepest pipeline: the address pipeline's ([`TexAddrUnit::MAX_DEPTH`], the larger of the two
    /// sub-units' deepest).
    pub const MAX_DEPTH: usize = TexAddrUnit::MAX_DEPTH;

    /// The sub-units' depths at depth `depth`: (LOD unit, address pipeline), each `depth` up to
    /// its own deepest ([`LodUnit::MAX_DEPTH`], [`TexAddrUnit::MAX_DEPTH`]).
    pub fn sub_depths(depth: usize) -> (usize, usize) {
        (
            depth.min(LodUnit::MAX_DEPTH),
            depth.min(TexAddrUnit::MAX_DEPTH),
        )
    }

    /// The unit with its LOD unit and address pipeline built at [`TexUnit::sub_depths`]`(depth)`
    /// (0…[`TexUnit::MAX_DEPTH`]); depth 0 is [`TexUnit::default`]. The machines around them
    /// wait on their valid/ready handshakes, so results are the same at every depth; an
    /// instruction's latency grows by the two sub-units' extra stages.
    pub fn new(depth: usize) -> Self {
        assert!(
            depth <= Self::MAX_DEPTH,
            "tex: pipeline depth {depth} (0…{})",
            Self::MAX_DEPTH
        );
        let (lod, addr) = Self::sub_depths(depth);
        Self {
            lod: LodUnit::new(lod),
            addr: TexAddrUnit::new(addr),
            ..Default::default()
        }
    }
}

impl Logic for TexUnit {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, g_n, g_wr, g_rd, fst, f_kill, f_flush, f_tag, f_op, f_wrap, f_minlin,
            f_maglin, f_mip, f_unnorm, f_acq, f_cmp, f_sbias, f_minlod, f_maxlod, f_aniso, f_wmask,
            f_d16, f_tfe, f_lwe, f_gcomp, f_cube, f_ncube, f_vol, state, p_tag, p_op, p_wrap,
            p_minlin, p_maglin, p_mip, p_unnorm, p_cmp, p_wmask, p_gcomp, p_sbias, p_minlod,
            p_maxlod, p_aniso, p_acq, p_cube, p_ncube, p_d16, p_tfe, p_lwe, p_vol, pl, r_kill,
            dv_issue, dv_ret, l_warn, l_major, pidx, remaining, pending, unlk, rounds, blane,
            r_fault, r_lines, p_first, p_kill, p_flush, b2st, dead, q_tag, q_op, q_wmask, q_d16,
            q_tfe, q_lwe, q_acq, q_isint, pq_wr, pq_rd, pq_n, x_valid, x_kind, x_fault, x_lines,
            b_lines, x_border, x_fail, r_valid, f_ent, y_border, y_fail
        );
        for l in 0..4 {
            self.x_wu[l].clock.next = self.clock.val();
            self.x_wu[l].d.next = self.x_wu[l].q.val();
            self.x_wv[l].clock.next = self.clock.val();
            self.x_wv[l].d.next = self.x_wv[l].q.val();
            self.x_wu1[l].clock.next = self.clock.val();
            self.x_wu1[l].d.next = self.x_wu1[l].q.val();
            self.x_wv1[l].clock.next = self.clock.val();
            self.x_wv1[l].d.next = self.x_wv1[l].q.val();
            self.x_status[l].clock.next = self.clock.val();
            self.x_status[l].d.next = self.x_status[l].q.val();
            self.x_size[l].clock.next = self.clock.val();
            self.x_size[l].d.next = self.x_size[l].q.val();
        }
        for l in 0..4 {
            self.y_wu[l].clock.next = self.clock.val();
            self.y_wu[l].d.next = self.y_wu[l].q.val();
            self.y_wv[l].clock.next = self.clock.val();
            self.y_wv[l].d.next = self.y_wv[l].q.val();
            self.y_wu1[l].clock.next = self.clock.val();
            self.y_wu1[l].d.next = self.y_wu1[l].q.val();
            self.y_wv1[l].clock.next = self.clock.val();
            self.y_wv1[l].d.next = self.y_wv1[l].q.val();
            self.y_status[l].clock.next = self.clock.val();
            self.y_status[l].d.next = self.y_status[l].q.val();
            self.y_size[l].clock.next = self.clock.val();
            self.y_size[l].d.next = self.y_size[l].q.val();
        }
        for k in 0..32 {
            self.fa_addr[k].clock.next = self.clock.val();
            self.fa_addr[k].d.next = self.fa_addr[k].q.val();
        }
        for k in 0..5 {
            self.p_hdr[k].clock.next = self.clock.val();
            self.p_hdr[k].d.next = self.p_hdr[k].q.val();
        }
        for k in 0..16 {
            self.p_grad[k].clock.next = self.clock.val();
            self.p_grad[k].d.next = self.p_grad[k].q.val();
            self.sum_e[k].clock.next = self.clock.val();
            self.sum_e[k].d.next = self.sum_e[k].q.val();
            self.sum_acc[k].clock.next = self.clock.val();
            self.sum_acc[k].d.next = self.sum_acc[k].q.val();
            self.sum_fl[k].clock.next = self.clock.val();
            self.sum_fl[k].d.next = self.sum_fl[k].q.val();
            self.p_coord[k].clock.next = self.clock.val();
            self.p_coord[k].d.next = self.p_coord[k].q.val();
            self.r_rgba[k].clock.next = self.clock.val();
            self.r_rgba[k].d.next = self.r_rgba[k].q.val();
        }
        for l in 0..4 {
            self.p_bcol[l].clock.next = self.clock.val();
            self.p_bcol[l].d.next = self.p_bcol[l].q.val();
            self.p_face[l].clock.next = self.clock.val();
            self.p_face[l].d.next = self.p_face[l].q.val();
            self.p_lod[l].clock.next = self.clock.val();
            self.p_lod[l].d.next = self.p_lod[l].q.val();
            self.p_lbias[l].clock.next = self.clock.val();
            self.p_lbias[l].d.next = self.p_lbias[l].q.val();
            self.l_unc[l].clock.next = self.clock.val();
            self.l_unc[l].d.next = self.l_unc[l].q.val();
            self.p_ref[l].clock.next = self.clock.val();
            self.p_ref[l].d.next = self.p_ref[l].q.val();
            self.p_off[l].clock.next = self.clock.val();
            self.p_off[l].d.next = self.p_off[l].q.val();
            self.l_lambda[l].clock.next = self.clock.val();
            self.l_lambda[l].d.next = self.l_lambda[l].q.val();
            self.l_lv0[l].clock.next = self.clock.val();
            self.l_lv0[l].d.next = self.l_lv0[l].q.val();
            self.l_lv1[l].clock.next = self.clock.val();
            self.l_lv1[l].d.next = self.l_lv1[l].q.val();
            self.l_frac[l].clock.next = self.clock.val();
            self.l_frac[l].d.next = self.l_frac[l].q.val();
            self.l_mag[l].clock.next = self.clock.val();
            self.l_mag[l].d.next = self.l_mag[l].q.val();
            self.r_status[l].clock.next = self.clock.val();
            self.r_status[l].d.next = self.r_status[l].q.val();
            self.r_lambda[l].clock.next = self.clock.val();
            self.r_lambda[l].d.next = self.r_lambda[l].q.val();
            self.l_n[l].clock.next = self.clock.val();
            self.l_n[l].d.next = self.l_n[l].q.val();
            self.ps[l].clock.next = self.clock.val();
            self.ps[l].d.next = self.ps[l].q.val();
            self.pt[l].clock.next = self.clock.val();
            self.pt[l].d.next = self.pt[l].q.val();
        }
        for s in 0..32 {
            self.fa_bank[s].clock.next = self.clock.val();
            self.fa_bank[s].d.next = self.fa_bank[s].q.val();
            self.slo[s].clock.next = self.clock.val();
            self.slo[s].d.next = self.slo[s].q.val();
            self.shi[s].clock.next = self.clock.val();
            self.shi[s].d.next = self.shi[s].q.val();
        }

        for k in 0..5 {
            self.f_hdr[k].clock.next = self.clock.val();
            self.f_hdr[k].d.next = self.f_hdr[k].q.val();
        }
        for k in 0..16 {
            self.f_coord[k].clock.next = self.clock.val();
            self.f_coord[k].d.next = self.f_coord[k].q.val();
        }
        for k in 0..16 {
            self.f_grad[k].clock.next = self.clock.val();
            self.f_grad[k].d.next = self.f_grad[k].q.val();
        }
        for k in 0..4 {
            self.f_bcol[k].clock.next = self.clock.val();
            self.f_bcol[k].d.next = self.f_bcol[k].q.val();
        }
        for k in 0..4 {
            self.f_lod[k].clock.next = self.clock.val();
            self.f_lod[k].d.next = self.f_lod[k].q.val();
        }
        for k in 0..4 {
            self.f_lbias[k].clock.next = self.clock.val();
            self.f_lbias[k].d.next = self.f_lbias[k].q.val();
        }
        for k in 0..4 {
            self.f_ref[k].clock.next = self.clock.val();
            self.f_ref[k].d.next = self.f_ref[k].q.val();
        }
        for k in 0..4 {
            self.f_off[k].clock.next = self.clock.val();
            self.f_off[k].d.next = self.f_off[k].q.val();
        }
        for k in 0..4 {
            self.f_face[k].clock.next = self.clock.val();
            self.f_face[k].d.next = self.f_face[k].q.val();
        }
        for k in 0..32 {
            self.pq_hdr[k].clock.next = self.clock.val();
            self.pq_hdr[k].d.next = self.pq_hdr[k].q.val();
        }
        for k in 0..8 {
            self.pq_smp[k].clock.next = self.clock.val();
            self.pq_smp[k].d.next = self.pq_smp[k].q.val();
        }
        for k in 0..8 {
            self.pq_rlev[k].clock.next = self.clock.val();
            self.pq_rlev[k].d.next = self.pq_rlev[k].q.val();
        }
        for k in 0..8 {
            self.pq_itag[k].clock.next = self.clock.val();
            self.pq_itag[k].d.next = self.pq_itag[k].q.val();
        }
        for k in 0..8 {
            self.pq_mask[k].clock.next = self.clock.val();
            self.pq_mask[k].d.next = self.pq_mask[k].q.val();
        }
        for k in 0..8 {
            self.pq_act[k].clock.next = self.clock.val();
            self.pq_act[k].d.next = self.pq_act[k].q.val();
        }
        for k in 0..8 {
            self.pq_bord[k].clock.next = self.clock.val();
            self.pq_bord[k].d.next = self.pq_bord[k].q.val();
        }
        for k in 0..8 {
            self.pq_key[k].clock.next = self.clock.val();
            self.pq_key[k].d.next = self.pq_key[k].q.val();
        }
        for k in 0..32 {
            self.pq_pw[k].clock.next = self.clock.val();
            self.pq_pw[k].d.next = self.pq_pw[k].q.val();
        }
        for k in 0..8 {
            self.pq_fl[k].clock.next = self.clock.val();
            self.pq_fl[k].d.next = self.pq_fl[k].q.val();
            self.pq_rv[k].clock.next = self.clock.val();
            self.pq_rv[k].d.next = self.pq_rv[k].q.val();
            self.pq_live[k].clock.next = self.clock.val();
            self.pq_live[k].d.next = self.pq_live[k].q.val();
        }
        for k in 0..5 {
            self.g0_hdr[k].clock.next = self.clock.val();
            self.g0_hdr[k].d.next = self.g0_hdr[k].q.val();
        }
        for k in 0..5 {
            self.g1_hdr[k].clock.next = self.clock.val();
            self.g1_hdr[k].d.next = self.g1_hdr[k].q.val();
        }
        for k in 0..5 {
            self.g2_hdr[k].clock.next = self.clock.val();
            self.g2_hdr[k].d.next = self.g2_hdr[k].q.val();
        }
        for k in 0..5 {
            self.g3_hdr[k].clock.next = self.clock.val();
            self.g3_hdr[k].d.next = self.g3_hdr[k].q.val();
        }
        for k in 0..5 {
            self.g4_hdr[k].clock.next = self.clock.val();
            self.g4_hdr[k].d.next = self.g4_hdr[k].q.val();
        }
        for k in 0..5 {
            self.g5_hdr[k].clock.next = self.clock.val();
            self.g5_hdr[k].d.next = self.g5_hdr[k].q.val();
        }
        for k in 0..5 {
            self.g6_hdr[k].clock.next = self.clock.val();
            self.g6_hdr[k].d.next = self.g6_hdr[k].q.val();
        }
        for k in 0..5 {
            self.g7_hdr[k].clock.next = self.clock.val();
            self.g7_hdr[k].d.next = self.g7_hdr[k].q.val();
        }
        for k in 0..16 {
            self.g0_coord[k].clock.next = self.clock.val();
            self.g0_coord[k].d.next = self.g0_coord[k].q.val();
        }
        for k in 0..16 {
            self.g1_coord[k].clock.next = self.clock.val();
            self.g1_coord[k].d.next = self.g1_coord[k].q.val();
        }
        for k in 0..16 {
            self.g2_coord[k].clock.next = self.clock.val();
            self.g2_coord[k].d.next = self.g2_coord[k].q.val();
        }
        for k in 0..16 {
            self.g3_coord[k].clock.next = self.clock.val();
            self.g3_coord[k].d.next = self.g3_coord[k].q.val();
        }
        for k in 0..16 {
            self.g4_coord[k].clock.next = self.clock.val();
            self.g4_coord[k].d.next = self.g4_coord[k].q.val();
        }
        for k in 0..16 {
            self.g5_coord[k].clock.next = self.clock.val();
            self.g5_coord[k].d.next = self.g5_coord[k].q.val();
        }
        for k in 0..16 {
            self.g6_coord[k].clock.next = self.clock.val();
            self.g6_coord[k].d.next = self.g6_coord[k].q.val();
        }
        for k in 0..16 {
            self.g7_coord[k].clock.next = self.clock.val();
            self.g7_coord[k].d.next = self.g7_coord[k].q.val();
        }
        for k in 0..16 {
            self.g0_grad[k].clock.next = self.clock.val();
            self.g0_grad[k].d.next = self.g0_grad[k].q.val();
        }
        for k in 0..16 {
            self.g1_grad[k].clock.next = self.clock.val();
            self.g1_grad[k].d.next = self.g1_grad[k].q.val();
        }
        for k in 0..16 {
            self.g2_grad[k].clock.next = self.clock.val();
            self.g2_grad[k].d.next = self.g2_grad[k].q.val();
        }
        for k in 0..16 {
            self.g3_grad[k].clock.next = self.clock.val();
            self.g3_grad[k].d.next = self.g3_grad[k].q.val();
        }
        for k in 0..16 {
            self.g4_grad[k].clock.next = self.clock.val();
            self.g4_grad[k].d.next = self.g4_grad[k].q.val();
        }
        for k in 0..16 {
            self.g5_grad[k].clock.next = self.clock.val();
            self.g5_grad[k].d.next = self.g5_grad[k].q.val();
        }
        for k in 0..16 {
            self.g6_grad[k].clock.next = self.clock.val();
            self.g6_grad[k].d.next = self.g6_grad[k].q.val();
        }
        for k in 0..16 {
            self.g7_grad[k].clock.next = self.clock.val();
            self.g7_grad[k].d.next = self.g7_grad[k].q.val();
        }
        for i in 0..32 {
            self.g_bcol[i].clock.next = self.clock.val();
            self.g_bcol[i].d.next = self.g_bcol[i].q.val();
            self.g_lod[i].clock.next = self.clock.val();
            self.g_lod[i].d.next = self.g_lod[i].q.val();
            self.g_lbias[i].clock.next = self.clock.val();
            self.g_lbias[i].d.next = self.g_lbias[i].q.val();
            self.g_ref[i].clock.next = self.clock.val();
            self.g_ref[i].d.next = self.g_ref[i].q.val();
            self.g_off[i].clock.next = self.clock.val();
            self.g_off[i].d.next = self.g_off[i].q.val();
            self.g_face[i].clock.next = self.clock.val();
            self.g_face[i].d.next = self.g_face[i].q.val();
        }
        for k in 0..8 {
            self.g_misc0[k].clock.next = self.clock.val();
            self.g_misc0[k].d.next = self.g_misc0[k].q.val();
        }
        for k in 0..8 {
            self.g_misc1[k].clock.next = self.clock.val();
            self.g_misc1[k].d.next = self.g_misc1[k].q.val();
        }
        for k in 0..8 {
            self.g_live[k].clock.next = self.clock.val();
            self.g_live[k].d.next = self.g_live[k].q.val();
        }
        for k in 0..8 {
            self.pq_misc[k].clock.next = self.clock.val();
            self.pq_misc[k].d.next = self.pq_misc[k].q.val();
            self.pq_ff[k].clock.next = self.clock.val();
            self.pq_ff[k].d.next = self.pq_ff[k].q.val();
        }
        for k in 0..8 {
            self.pq_fs[k].clock.next = self.clock.val();
            self.pq_fs[k].d.next = self.pq_fs[k].q.val();
        }
        for k in 0..32 {
            self.pq_bcol[k].clock.next = self.clock.val();
            self.pq_bcol[k].d.next = self.pq_bcol[k].q.val();
        }
        for k in 0..32 {
            self.pq_ref[k].clock.next = self.clock.val();
            self.pq_ref[k].d.next = self.pq_ref[k].q.val();
        }
        for k in 0..32 {
            self.pq_frac[k].clock.next = self.clock.val();
            self.pq_frac[k].d.next = self.pq_frac[k].q.val();
        }
        for k in 0..32 {
            self.pq_np[k].clock.next = self.clock.val();
            self.pq_np[k].d.next = self.pq_np[k].q.val();
        }
        for k in 0..32 {
            self.pq_lam[k].clock.next = self.clock.val();
            self.pq_lam[k].d.next = self.pq_lam[k].q.val();
        }
        for k in 0..32 {
            self.pq_unc[k].clock.next = self.clock.val();
            self.pq_unc[k].d.next = self.pq_unc[k].q.val();
        }
        // ---------------- accept: operands into registers ----------------
        // Texture semaphore: an acquire is outstanding from its instruction's accept until its
        // result has left (the front, the g_ slot, B1, the pass queue and B2 hold instructions
        // in order, so every earlier instruction has returned by then); a waiting instruction is not
        // accepted meanwhile, nor is an acquiring one (so two acquires never overlap and the
        // `sem_overlap` fault cannot arise: the second acquire waits instead).
        // Passes waiting in the queue keep their instruction's acquire outstanding.
        self.q_acqs.next = false;
        for e in 0..8 {
            if self.pq_live[e].q.val() & self.pq_misc[e].q.val().get_bit(17) {
                self.q_acqs.next = true;
            }
        }
        self.g_acqs.next = false;
        for e in 0..8 {
            if self.g_live[e].q.val() & self.g_misc0[e].q.val().get_bit(35) {
                self.g_acqs.next = true;
            }
        }
        self.busy.next = (self.q_acq.q.val() & self.r_valid.q.val())
            | (self.p_acq.q.val() & (self.state.q.val() != 0))
            | self.q_acqs.val()
            | self.g_acqs.val()
            | (self.f_acq.q.val() & (self.fst.q.val() != 0));
        self.sem_busy.next = self.busy.val();
        // kill_lt_0: lane l is killed when a component its write mask examines is below 0 (−0
        // and NaN are not).
        self.kmask.next = 0.into();
        for l in 0..4 {
            for c in 0..4 {
                if self.in_wmask.val().get_bit(c)
                    & self.in_coord[4 * l + c].val().get_bit(31)
                    & ((self.in_coord[4 * l + c].val() & bits::<32>(0x7FFF_FFFF)) != bits::<32>(0))
                    & ((self.in_coord[4 * l + c].val() & bits::<32>(0x7FFF_FFFF))
                        <= bits::<32>(0x7F80_0000))
                {
                    self.kmask.next = self.kmask.val().replace_bit(l, true);
                }
            }
        }
        // A cube texture runs as the 2D array of its faces: dimension 2D array, 6·cubes layers,
        // clamp to edge, normalized; a cube array of more than 10 922 cubes (6·cubes would not fit
        // the layer field) gets an invalid bytes-per-texel field: bad_descriptor.
        self.in_dim.next = self.in_hdr[1].val().get_bits::<3>(19);
        self.in_cube.next = (self.in_dim.val() == 3) | (self.in_dim.val() == 7);
        self.in_ncube.next = 0.into();
        if self.in_dim.val() == 7 {
            self.in_ncube.next = self.in_hdr[3].val().get_bits::<16>(0);
        }
        self.unpk0.op.next = self.in_op.val();
        self.unpk0.dim.next = self.in_dim.val();
        self.unpk0.has_off.next = self.in_moff.val();
        self.unpk0.a16.next = self.in_a16.val();
        self.unpk0.g16.next = self.in_g16.val();
        self.unpk1.op.next = self.in_op.val();
        self.unpk1.dim.next = self.in_dim.val();
        self.unpk1.has_off.next = self.in_moff.val();
        self.unpk1.a16.next = self.in_a16.val();
        self.unpk1.g16.next = self.in_g16.val();
        self.unpk2.op.next = self.in_op.val();
        self.unpk2.dim.next = self.in_dim.val();
        self.unpk2.has_off.next = self.in_moff.val();
        self.unpk2.a16.next = self.in_a16.val();
        self.unpk2.g16.next = self.in_g16.val();
        self.unpk3.op.next = self.in_op.val();
        self.unpk3.dim.next = self.in_dim.val();
        self.unpk3.has_off.next = self.in_moff.val();
        self.unpk3.a16.next = self.in_a16.val();
        self.unpk3.g16.next = self.in_g16.val();
        for k in 0..12 {
            self.unpk0.vaddr[k].next = self.in_vaddr0[k].val();
            self.unpk1.vaddr[k].next = self.in_vaddr1[k].val();
            self.unpk2.vaddr[k].next = self.in_vaddr2[k].val();
            self.unpk3.vaddr[k].next = self.in_vaddr3[k].val();
        }
        self.eop.next = self.p_op.q.val();
        if self.p_op.q.val() == 9 {
            self.eop.next = 0.into();
        }
        if self.p_op.q.val() == 10 {
            self.eop.next = 5.into();
        }
        if self.p_op.q.val() == 12 {
            self.eop.next = 0.into();
        }

        // ---------------- txp: s, t, r of each lane divided by its q, one division per clock ----
        self.dv_a.next = self.f_coord[0].q.val();
        self.dv_b.next = self.f_coord[3].q.val();
        match self.dv_issue.q.val().index() {
            1 => {
                self.dv_a.next = self.f_coord[1].q.val();
            }
            2 => {
                self.dv_a.next = self.f_coord[2].q.val();
            }
            3 => {
                self.dv_a.next = self.f_coord[4].q.val();
                self.dv_b.next = self.f_coord[7].q.val();
            }
            4 => {
                self.dv_a.next = self.f_coord[5].q.val();
                self.dv_b.next = self.f_coord[7].q.val();
            }
            5 => {
                self.dv_a.next = self.f_coord[6].q.val();
                self.dv_b.next = self.f_coord[7].q.val();
            }
            6 => {
                self.dv_a.next = self.f_coord[8].q.val();
                self.dv_b.next = self.f_coord[11].q.val();
            }
            7 => {
                self.dv_a.next = self.f_coord[9].q.val();
                self.dv_b.next = self.f_coord[11].q.val();
            }
            8 => {
                self.dv_a.next = self.f_coord[10].q.val();
                self.dv_b.next = self.f_coord[11].q.val();
            }
            9 => {
                self.dv_a.next = self.f_coord[12].q.val();
                self.dv_b.next = self.f_coord[15].q.val();
            }
            10 => {
                self.dv_a.next = self.f_coord[13].q.val();
                self.dv_b.next = self.f_coord[15].q.val();
            }
            11 => {
                self.dv_a.next = self.f_coord[14].q.val();
                self.dv_b.next = self.f_coord[15].q.val();
            }
            _ => {}
        }
        self.div.clock.next = self.clock.val();
        self.div.reset.next = self.reset.val();
        if self.fst.q.val() == 10 {
            self.dv_a.next = self.cubef.sc.val();
            if self.dv_issue.q.val().get_bit(0) {
                self.dv_a.next = self.cubef.tc.val();
            }
            self.dv_b.next = self.cubef.ma.val();
        }
        self.div.in_valid.next = ((self.fst.q.val() == 9) & (self.dv_issue.q.val() < 12))
            | ((self.fst.q.val() == 10) & (self.dv_issue.q.val() < 8));
        self.div.a.next = self.dv_a.val();
        self.div.b.next = self.dv_b.val();
        if self.div.in_valid.val() {
            self.dv_issue.d.next = self.dv_issue.q.val() + 1;
        }
        if (self.fst.q.val() == 9) & self.div.out_valid.val() {
            self.dv_ret.d.next = self.dv_ret.q.val() + 1;
            match self.dv_ret.q.val().index() {
                0 => {
                    self.f_coord[0].d.next = self.div.y.val();
                }
                1 => {
                    self.f_coord[1].d.next = self.div.y.val();
                }
                2 => {
                    self.f_coord[2].d.next = self.div.y.val();
                }
                3 => {
                    self.f_coord[4].d.next = self.div.y.val();
                }
                4 => {
                    self.f_coord[5].d.next = self.div.y.val();
                }
                5 => {
                    self.f_coord[6].d.next = self.div.y.val();
                }
                6 => {
                    self.f_coord[8].d.next = self.div.y.val();
                }
                7 => {
                    self.f_coord[9].d.next = self.div.y.val();
                }
                8 => {
                    self.f_coord[10].d.next = self.div.y.val();
                }
                9 => {
                    self.f_coord[12].d.next = self.div.y.val();
                }
                10 => {
                    self.f_coord[13].d.next = self.div.y.val();
                }
                _ => {
                    self.f_coord[14].d.next = self.div.y.val();
                }
            }
            if self.dv_ret.q.val() == 11 {
                self.fst.d.next = 8.into();
                if self.f_cube.q.val() {
                    self.fst.d.next = 10.into();
                    self.dv_issue.d.next = 0.into();
                    self.dv_ret.d.next = 0.into();
                }
            }
        }

        // ---------------- cube: each lane's face and face coordinates ----------------
        // Division k = 2·lane + c (c = 0: sc, 1: tc) by |ma|, one per clock; each quotient q comes
        // back as (q + 1.0)/2 over s or t (the halving is exact: q + 1 is 0, NaN or in
        // [2^-24, 2]), the face into p_face at the lane's first issue.
        self.cb_lane.next = self.dv_issue.q.val().get_bits::<2>(1);
        self.cubef.x.next = self.f_coord[0].q.val();
        self.cubef.y.next = self.f_coord[1].q.val();
        self.cubef.z.next = self.f_coord[2].q.val();
        if self.cb_lane.val() == 1 {
            self.cubef.x.next = self.f_coord[4].q.val();
            self.cubef.y.next = self.f_coord[5].q.val();
            self.cubef.z.next = self.f_coord[6].q.val();
        }
        if self.cb_lane.val() == 2 {
            self.cubef.x.next = self.f_coord[8].q.val();
            self.cubef.y.next = self.f_coord[9].q.val();
            self.cubef.z.next = self.f_coord[10].q.val();
        }
        if self.cb_lane.val() == 3 {
            self.cubef.x.next = self.f_coord[12].q.val();
            self.cubef.y.next = self.f_coord[13].q.val();
            self.cubef.z.next = self.f_coord[14].q.val();
        }
        self.cb_add.a.next = self.div.y.val();
        self.cb_add.b.next = 0x3F80_0000_u64.into();
        self.cb_add.sub.next = false;
        self.cb_half.next = self.cb_add.y.val() - 0x80_0000_u64;
        if (self.cb_add.y.val().get_bits::<8>(23) == 0)
            | (self.cb_add.y.val().get_bits::<8>(23) == 0xFF)
        {
            self.cb_half.next = self.cb_add.y.val();
        }
        if (self.fst.q.val() == 10) & (self.dv_issue.q.val() < 8) {
            self.dv_issue.d.next = self.dv_issue.q.val() + 1;
            match self.dv_issue.q.val().index() {
                0 => {
                    self.f_face[0].d.next = self.cubef.face.val();
                }
                2 => {
                    self.f_face[1].d.next = self.cubef.face.val();
                }
                4 => {
                    self.f_face[2].d.next = self.cubef.face.val();
                }
                6 => {
                    self.f_face[3].d.next = self.cubef.face.val();
                }
                _ => {}
            }
        }
        if (self.fst.q.val() == 10) & self.div.out_valid.val() {
            self.dv_ret.d.next = self.dv_ret.q.val() + 1;
            match self.dv_ret.q.val().index() {
                0 => {
                    self.f_coord[0].d.next = self.cb_half.val();
                }
                1 => {
                    self.f_coord[1].d.next = self.cb_half.val();
                }
                2 => {
                    self.f_coord[4].d.next = self.cb_half.val();
                }
                3 => {
                    self.f_coord[5].d.next = self.cb_half.val();
                }
                4 => {
                    self.f_coord[8].d.next = self.cb_half.val();
                }
                5 => {
                    self.f_coord[9].d.next = self.cb_half.val();
                }
                6 => {
                    self.f_coord[12].d.next = self.cb_half.val();
                }
                _ => {
                    self.f_coord[13].d.next = self.cb_half.val();
                }
            }
            if self.dv_ret.q.val() == 7 {
                self.fst.d.next = 8.into();
            }
        }

        // ---------------- the held instruction's descriptor ----------------
        self.dimc.next = self.p_hdr[1].q.val().get_bits::<3>(19);
        self.one_d.next = (self.dimc.val() == 0) | (self.dimc.val() == 4);
        self.levels.next = bit_cast::<5, 4>(self.p_hdr[1].q.val().get_bits::<4>(24)) + 1;
        self.width.next = bit_cast::<16, 15>(self.p_hdr[2].q.val().get_bits::<15>(0)) + 1;
        self.height.next = bit_cast::<16, 15>(self.p_hdr[2].q.val().get_bits::<15>(16)) + 1;
        if self.one_d.val() {
            self.height.next = 1.into();
        }
        self.layers.next = bit_cast::<17, 16>(self.p_hdr[3].q.val().get_bits::<16>(0)) + 1;
        if !self.dimc.val().get_bit(2) & (self.dimc.val() != 2) {
            self.layers.next = 1.into();
        }
        self.is_int.next = (self.p_hdr[4].q.val().get_bits::<5>(0) == 17)
            | (self.p_hdr[4].q.val().get_bits::<5>(0) == 18);
        self.samp.next = (self.eop.val() <= 3) | (self.eop.val() == 7) | (self.eop.val() == 8);
        self.fmt_fault.next = self.is_int.val()
            & self.samp.val()
            & (self.p_minlin.q.val()
                | self.p_maglin.q.val()
                | (self.p_mip.q.val() == 2)
                | (self.eop.val() >= 7));

        // The front's instruction: its size for the LOD unit, its op as the datapath sees it and
        // whether it takes anisotropic probes (tex, txb, txd, sample_c on a non-integer format).
        self.f_dimc.next = self.f_hdr[1].q.val().get_bits::<3>(19);
        self.f_one_d.next = (self.f_dimc.val() == 0) | (self.f_dimc.val() == 4);
        self.f_levels.next = bit_cast::<5, 4>(self.f_hdr[1].q.val().get_bits::<4>(24)) + 1;
        self.f_width.next = bit_cast::<16, 15>(self.f_hdr[2].q.val().get_bits::<15>(0)) + 1;
        self.f_height.next = bit_cast::<16, 15>(self.f_hdr[2].q.val().get_bits::<15>(16)) + 1;
        if self.f_one_d.val() {
            self.f_height.next = 1.into();
        }
        // The front's instruction packed for the queue (bit 0: a nop or kill_lt_0).
        self.f_misc0.next = bit_cast::<55, 1>((self.fst.q.val() == 12).into())
            | (bit_cast::<55, 16>(self.f_tag.q.val()) << 1)
            | (bit_cast::<55, 4>(self.f_op.q.val()) << 17)
            | (bit_cast::<55, 9>(self.f_wrap.q.val()) << 21)
            | (bit_cast::<55, 1>(self.f_minlin.q.val().into()) << 30)
            | (bit_cast::<55, 1>(self.f_maglin.q.val().into()) << 31)
            | (bit_cast::<55, 2>(self.f_mip.q.val()) << 32)
            | (bit_cast::<55, 1>(self.f_unnorm.q.val().into()) << 34)
            | (bit_cast::<55, 1>(self.f_acq.q.val().into()) << 35)
            | (bit_cast::<55, 3>(self.f_cmp.q.val()) << 36)
            | (bit_cast::<55, 16>(self.f_sbias.q.val()) << 39);
        self.f_misc1.next = (bit_cast::<61, 12>(self.f_minlod.q.val()))
            | (bit_cast::<61, 12>(self.f_maxlod.q.val()) << 12)
            | (bit_cast::<61, 5>(self.f_aniso.q.val()) << 24)
            | (bit_cast::<61, 4>(self.f_wmask.q.val()) << 29)
            | (bit_cast::<61, 1>(self.f_d16.q.val().into()) << 33)
            | (bit_cast::<61, 1>(self.f_tfe.q.val().into()) << 34)
            | (bit_cast::<61, 1>(self.f_lwe.q.val().into()) << 35)
            | (bit_cast::<61, 2>(self.f_gcomp.q.val()) << 36)
            | (bit_cast::<61, 1>(self.f_cube.q.val().into()) << 38)
            | (bit_cast::<61, 16>(self.f_ncube.q.val()) << 39)
            | (bit_cast::<61, 1>(self.f_vol.q.val().into()) << 55)
            | (bit_cast::<61, 4>(self.f_kill.q.val()) << 56)
            | (bit_cast::<61, 1>(self.f_flush.q.val().into()) << 60);
        // The queue's head entry.
        for k in 0..4 {
            self.gh_bcol[k].next = self.g_bcol[k].q.val();
            self.gh_lod[k].next = self.g_lod[k].q.val();
            self.gh_lbias[k].next = self.g_lbias[k].q.val();
            self.gh_ref[k].next = self.g_ref[k].q.val();
            self.gh_off[k].next = self.g_off[k].q.val();
            self.gh_face[k].next = self.g_face[k].q.val();
        }
        for e in 1..8 {
            if self.g_rd.q.val().index() == e {
                for k in 0..4 {
                    self.gh_bcol[k].next = self.g_bcol[4 * e + k].q.val();
                    self.gh_lod[k].next = self.g_lod[4 * e + k].q.val();
                    self.gh_lbias[k].next = self.g_lbias[4 * e + k].q.val();
                    self.gh_ref[k].next = self.g_ref[4 * e + k].q.val();
                    self.gh_off[k].next = self.g_off[4 * e + k].q.val();
                    self.gh_face[k].next = self.g_face[4 * e + k].q.val();
                }
            }
        }
        match self.g_rd.q.val().index() {
            0 => {
                self.gh_misc0.next = self.g_misc0[0].q.val();
                self.gh_misc1.next = self.g_misc1[0].q.val();
                for k in 0..5 {
                    self.gh_hdr[k].next = self.g0_hdr[k].q.val();
                }
                for k in 0..16 {
                    self.gh_coord[k].next = self.g0_coord[k].q.val();
                }
                for k in 0..16 {
                    self.gh_grad[k].next = self.g0_grad[k].q.val();
                }
            }
            1 => {
                self.gh_misc0.next = self.g_misc0[1].q.val();
                self.gh_misc1.next = self.g_misc1[1].q.val();
                for k in 0..5 {
                    self.gh_hdr[k].next = self.g1_hdr[k].q.val();
                }
                for k in 0..16 {
                    self.gh_coord[k].next = self.g1_coord[k].q.val();
                }
                for k in 0..16 {
                    self.gh_grad[k].next = self.g1_grad[k].q.val();
                }
            }
            2 => {
                self.gh_misc0.next = self.g_misc0[2].q.val();
                self.gh_misc1.next = self.g_misc1[2].q.val();
                for k in 0..5 {
                    self.gh_hdr[k].next = self.g2_hdr[k].q.val();
                }
                for k in 0..16 {
                    self.gh_coord[k].next = self.g2_coord[k].q.val();
                }
                for k in 0..16 {
                    self.gh_grad[k].next = self.g2_grad[k].q.val();
                }
            }
            3 => {
                self.gh_misc0.next = self.g_misc0[3].q.val();
                self.gh_misc1.next = self.g_misc1[3].q.val();
                for k in 0..5 {
                    self.gh_hdr[k].next = self.g3_hdr[k].q.val();
                }
                for k in 0..16 {
                    self.gh_coord[k].next = self.g3_coord[k].q.val();
                }
                for k in 0..16 {
                    self.gh_grad[k].next = self.g3_grad[k].q.val();
                }
            }
            4 => {
                self.gh_misc0.next = self.g_misc0[4].q.val();
                self.gh_misc1.next = self.g_misc1[4].q.val();
                for k in 0..5 {
                    self.gh_hdr[k].next = self.g4_hdr[k].q.val();
                }
                for k in 0..16 {
                    self.gh_coord[k].next = self.g4_coord[k].q.val();
                }
                for k in 0..16 {
                    self.gh_grad[k].next = self.g4_grad[k].q.val();
                }
            }
            5 => {
                self.gh_misc0.next = self.g_misc0[5].q.val();
                self.gh_misc1.next = self.g_misc1[5].q.val();
                for k in 0..5 {
                    self.gh_hdr[k].next = self.g5_hdr[k].q.val();
                }
                for k in 0..16 {
                    self.gh_coord[k].next = self.g5_coord[k].q.val();
                }
                for k in 0..16 {
                    self.gh_grad[k].next = self.g5_grad[k].q.val();
                }
            }
            6 => {
                self.gh_misc0.next = self.g_misc0[6].q.val();
                self.gh_misc1.next = self.g_misc1[6].q.val();
                for k in 0..5 {
                    self.gh_hdr[k].next = self.g6_hdr[k].q.val();
                }
                for k in 0..16 {
                    self.gh_coord[k].next = self.g6_coord[k].q.val();
                }
                for k in 0..16 {
                    self.gh_grad[k].next = self.g6_grad[k].q.val();
                }
            }
            _ => {
                self.gh_misc0.next = self.g_misc0[7].q.val();
                self.gh_misc1.next = self.g_misc1[7].q.val();
                for k in 0..5 {
                    self.gh_hdr[k].next = self.g7_hdr[k].q.val();
                }
                for k in 0..16 {
                    self.gh_coord[k].next = self.g7_coord[k].q.val();
                }
                for k in 0..16 {
                    self.gh_grad[k].next = self.g7_grad[k].q.val();
                }
            }
        }
        self.gh_nop.next = self.gh_misc0.val().get_bit(0);
        self.gh_tag.next = self.gh_misc0.val().get_bits::<16>(1);
        self.gh_op.next = self.gh_misc0.val().get_bits::<4>(17);
        self.gh_wrap.next = self.gh_misc0.val().get_bits::<9>(21);
        self.gh_minlin.next = self.gh_misc0.val().get_bit(30);
        self.gh_maglin.next = self.gh_misc0.val().get_bit(31);
        self.gh_mip.next = self.gh_misc0.val().get_bits::<2>(32);
        self.gh_unnorm.next = self.gh_misc0.val().get_bit(34);
        self.gh_acq.next = self.gh_misc0.val().get_bit(35);
        self.gh_cmp.next = self.gh_misc0.val().get_bits::<3>(36);
        self.gh_sbias.next = self.gh_misc0.val().get_bits::<16>(39);
        self.gh_minlod.next = self.gh_misc1.val().get_bits::<12>(0);
        self.gh_maxlod.next = self.gh_misc1.val().get_bits::<12>(12);
        self.gh_aniso.next = self.gh_misc1.val().get_bits::<5>(24);
        self.gh_wmask.next = self.gh_misc1.val().get_bits::<4>(29);
        self.gh_d16.next = self.gh_misc1.val().get_bit(33);
        self.gh_tfe.next = self.gh_misc1.val().get_bit(34);
        self.gh_lwe.next = self.gh_misc1.val().get_bit(35);
        self.gh_gcomp.next = self.gh_misc1.val().get_bits::<2>(36);
        self.gh_cube.next = self.gh_misc1.val().get_bit(38);
        self.gh_ncube.next = self.gh_misc1.val().get_bits::<16>(39);
        self.gh_vol.next = self.gh_misc1.val().get_bit(55);
        self.gh_kill.next = self.gh_misc1.val().get_bits::<4>(56);
        self.gh_flush.next = self.gh_misc1.val().get_bit(60);
        self.g_eop.next = self.gh_op.val();
        if (self.gh_op.val() == 9) | (self.gh_op.val() == 12) {
            self.g_eop.next = 0.into();
        }
        if self.gh_op.val() == 10 {
            self.g_eop.next = 5.into();
        }
        self.aniso_op.next = ((self.g_eop.val() == 0)
            | (self.g_eop.val() == 1)
            | (self.g_eop.val() == 3)
            | (self.g_eop.val() == 7))
            & (self.gh_hdr[4].val().get_bits::<5>(0) != 17)
            & (self.gh_hdr[4].val().get_bits::<5>(0) != 18);

        // ---------------- the LOD unit, from the registered instruction ----------------
        self.lod.clock.next = self.clock.val();
        self.lod.reset.next = self.reset.val();
        self.lod.in_tag.next = self.f_tag.q.val();
        self.lod.in_width.next = self.f_width.val();
        self.lod.in_height.next = self.f_height.val();
        self.lod.in_levels.next = self.f_levels.val();
        self.lod.in_base.next = 0.into();
        self.lod.in_sbias.next = self.f_sbias.q.val();
        self.lod.in_min_lod.next = self.f_minlod.q.val();
        self.lod.in_max_lod.next = self.f_maxlod.q.val();
        self.lod.in_lod_clamp.next = 0.into();
        self.lod.in_warn.next = 0.into();
        self.lod.in_mip.next = self.f_mip.q.val();
        self.lod.in_aniso.next = self.f_aniso.q.val();
        self.lod.in_fine.next = false;
        self.lod.in_maxabs.next = false;
        // Modes: 0 implicit (tex, sample_c, txp, lodq, lookup_uncached), 1 grad, 2 lod, 3 bias, 4 lz.
        self.lod.in_mode.next = 4.into();
        if (self.f_op.q.val() == 0)
            | (self.f_op.q.val() == 7)
            | (self.f_op.q.val() == 9)
            | (self.f_op.q.val() == 10)
            | (self.f_op.q.val() == 12)
        {
            self.lod.in_mode.next = 0.into();
        }
        if self.f_op.q.val() == 1 {
            self.lod.in_mode.next = 3.into();
        }
        if self.f_op.q.val() == 2 {
            self.lod.in_mode.next = 2.into();
        }
        if self.f_op.q.val() == 3 {
            self.lod.in_mode.next = 1.into();
        }
        for l in 0..4 {
            self.lod.in_op[4 * l].next = self.f_coord[4 * l].q.val();
            self.lod.in_op[4 * l + 1].next = self.f_coord[4 * l + 1].q.val();
            if self.f_one_d.val() {
                self.lod.in_op[4 * l + 1].next = 0.into();
            }
            self.lod.in_op[4 * l + 2].next = self.f_lbias[l].q.val();
            self.lod.in_op[4 * l + 3].next = 0.into();
            if self.f_op.q.val() == 2 {
                self.lod.in_op[4 * l].next = self.f_lod[l].q.val();
                self.lod.in_op[4 * l + 1].next = 0.into();
                self.lod.in_op[4 * l + 2].next = 0.into();
            }
            if self.f_op.q.val() == 3 {
                self.lod.in_op[4 * l].next = self.f_grad[4 * l].q.val();
                self.lod.in_op[4 * l + 1].next = self.f_grad[4 * l + 1].q.val();
                self.lod.in_op[4 * l + 2].next = self.f_grad[4 * l + 2].q.val();
                self.lod.in_op[4 * l + 3].next = self.f_grad[4 * l + 3].q.val();
                if self.f_one_d.val() {
                    // A 1D texture has no t axis.
                    self.lod.in_op[4 * l + 2].next = 0.into();
                    self.lod.in_op[4 * l + 3].next = 0.into();
                }
            }
        }
        // ---------------- per lane: operands and pass keys ----------------
        for l in 0..4 {
            self.prep[l].op.next = self.eop.val();
            self.prep[l].cs.next = self.ps[l].q.val();
            self.prep[l].ct.next = self.pt[l].q.val();
            self.prep[l].cr.next = self.p_coord[4 * l + 2].q.val();
            self.prep[l].cq.next = self.p_coord[4 * l + 3].q.val();
            self.prep[l].off.next = self.p_off[l].q.val();
            self.prep[l].lod.next = self.p_lod[l].q.val();
            if self.p_op.q.val() == 10 {
                // lodq's pass is a TXQ of level 0 (descriptor checks only).
                self.prep[l].lod.next = 0.into();
            }
            self.prep[l].dimc.next = self.dimc.val();
            self.prep[l].cube.next = self.p_cube.q.val();
            self.prep[l].face.next = self.p_face[l].q.val();
            self.prep[l].ncube.next = self.p_ncube.q.val();
            self.prep[l].width.next = self.width.val();
            self.prep[l].height.next = self.height.val();
            self.prep[l].layers.next = self.layers.val();
            self.prep[l].levels.next = self.levels.val();
            self.prep[l].mip.next = self.p_mip.q.val();
            self.prep[l].min_lin.next = self.p_minlin.q.val();
            self.prep[l].mag_lin.next = self.p_maglin.q.val();
            self.prep[l].lambda.next = self.l_lambda[l].q.val();
            self.prep[l].lv0.next = self.l_lv0[l].q.val();
            self.prep[l].lv1.next = self.l_lv1[l].q.val();
            self.prep[l].frac.next = self.l_frac[l].q.val();
            self.prep[l].mag.next = self.l_mag[l].q.val();
        }

        // ---------------- LOD answer ----------------
        self.warn.next = 0.into();
        for l in 0..4 {
            if self.lod.out_lod_warning[l].val() {
                self.warn.next = self.warn.val().replace_bit(l, true);
            }
        }
        self.nmax.next = bits::<5>(1);
        for l in 0..4 {
            if self.l_n[l].q.val() > self.nmax.val() {
                self.nmax.next = self.l_n[l].q.val();
            }
        }
        self.major.next = 0.into();
        self.multi.next = false;
        for l in 0..4 {
            if self.lod.out_major_y[l].val() {
                self.major.next = self.major.val().replace_bit(l, true);
            }
            if self.lod.out_probes[l].val() > bits::<5>(1) {
                self.multi.next = true;
            }
        }
        // ---------------- probe positions, one lane per clock ----------------
        self.boh.next = bits::<4>(1) << self.blane.q.val();
        // (d_s, d_t) = the major axis's derivatives: coarse differences (implicit and bias modes)
        // or txd's gradients; p = coordinate + derivative·k_p (1D keeps t).
        match self.blane.q.val().index() {
            0 => {
                self.cur_n.next = self.l_n[0].q.val();
                self.a_s.a.next = self.p_coord[0].q.val();
                self.a_t.a.next = self.p_coord[1].q.val();
                self.m_s.a.next = self.p_grad[0].q.val();
                self.m_t.a.next = self.p_grad[2].q.val();
                self.cur_major.next = self.l_major.q.val().get_bit(0);
                if self.cur_major.val() {
                    self.m_s.a.next = self.p_grad[1].q.val();
                    self.m_t.a.next = self.p_grad[3].q.val();
                }
            }
            1 => {
                self.cur_n.next = self.l_n[1].q.val();
                self.a_s.a.next = self.p_coord[4].q.val();
                self.a_t.a.next = self.p_coord[5].q.val();
                self.m_s.a.next = self.p_grad[4].q.val();
                self.m_t.a.next = self.p_grad[6].q.val();
                self.cur_major.next = self.l_major.q.val().get_bit(1);
                if self.cur_major.val() {
                    self.m_s.a.next = self.p_grad[5].q.val();
                    self.m_t.a.next = self.p_grad[7].q.val();
                }
            }
            2 => {
                self.cur_n.next = self.l_n[2].q.val();
                self.a_s.a.next = self.p_coord[8].q.val();
                self.a_t.a.next = self.p_coord[9].q.val();
                self.m_s.a.next = self.p_grad[8].q.val();
                self.m_t.a.next = self.p_grad[10].q.val();
                self.cur_major.next = self.l_major.q.val().get_bit(2);
                if self.cur_major.val() {
                    self.m_s.a.next = self.p_grad[9].q.val();
                    self.m_t.a.next = self.p_grad[11].q.val();
                }
            }
            _ => {
                self.cur_n.next = self.l_n[3].q.val();
                self.a_s.a.next = self.p_coord[12].q.val();
                self.a_t.a.next = self.p_coord[13].q.val();
                self.m_s.a.next = self.p_grad[12].q.val();
                self.m_t.a.next = self.p_grad[14].q.val();
                self.cur_major.next = self.l_major.q.val().get_bit(3);
                if self.cur_major.val() {
                    self.m_s.a.next = self.p_grad[13].q.val();
                    self.m_t.a.next = self.p_grad[15].q.val();
                }
            }
        }
        self.d_s.a.next = self.p_coord[4].q.val();
        self.d_t.a.next = self.p_coord[5].q.val();
        if self.cur_major.val() {
            self.d_s.a.next = self.p_coord[8].q.val();
            self.d_t.a.next = self.p_coord[9].q.val();
        }
        self.d_s.b.next = self.p_coord[0].q.val();
        self.d_t.b.next = self.p_coord[1].q.val();
        self.d_s.sub.next = true;
        self.d_t.sub.next = true;
        if self.eop.val() != 3 {
            self.m_s.a.next = self.d_s.y.val();
            self.m_t.a.next = self.d_t.y.val();
        }
        self.nm1.next = self.cur_n.val() - 1;
        self.step_rom.a.next =
            (bit_cast::<8, 5>(self.nm1.val()) << 4) | bit_cast::<8, 4>(self.pidx.q.val());
        self.m_s.b.next = self.step_rom.y.val();
        self.m_t.b.next = self.step_rom.y.val();
        self.a_s.b.next = self.m_s.y.val();
        self.a_t.b.next = self.m_t.y.val();
        self.a_s.sub.next = false;
        self.a_t.sub.next = false;
        if self.state.q.val() == 7 {
            self.blane.d.next = self.blane.q.val() + 1;
            for l in 0..4 {
                if self.boh.val().get_bit(l) & (self.l_n[l].q.val() > bits::<5>(1)) {
                    self.ps[l].d.next = self.a_s.y.val();
                    if !self.one_d.val() {
                        self.pt[l].d.next = self.a_t.y.val();
                    }
                }
            }
            if self.blane.q.val() == 3 {
                self.state.d.next = 2.into();
            }
        }

        // ---------------- passes into the address pipeline ----------------
        self.found.next = false;
        self.kfirst.next = 0.into();
        for l in 0..4 {
            if self.remaining.q.val().get_bit(l) & !self.found.val() {
                self.kfirst.next = self.prep[l].key.val();
                self.found.next = true;
            }
        }
        self.mask.next = 0.into();
        for l in 0..4 {
            if self.remaining.q.val().get_bit(l) & (self.prep[l].key.val() == self.kfirst.val()) {
                self.mask.next = self.mask.val().replace_bit(l, true);
            }
        }

        // ---------------- 3D: the plane of the pass key ----------------
        // A sampling op on a volume runs its key once per plane (level a = pl[1], slice b =
        // pl[0]; a up to the key's trilinear bit, b up to its linear bit) on the level as a
        // one-level 2D array of its slices; txf addresses its level the same way, txq and lodq
        // query the texture as a 2D array of the level's depth.
        self.vsamp.next = self.p_vol.q.val() & self.samp.val();
        self.vtri.next = self.kfirst.val().get_bit(10);
        self.vlin.next = self.kfirst.val().get_bit(11);
        self.vlev.next = self.kfirst.val().get_bits::<4>(0);
        if self.pl.q.val().get_bit(1) {
            self.vlev.next = self.kfirst.val().get_bits::<4>(5);
        }
        self.pl_last.next = !self.vsamp.val()
            | ((self.pl.q.val().get_bit(0) == self.vlin.val())
                & (self.pl.q.val().get_bit(1) == self.vtri.val()));
        self.pl_next.next = 2.into();
        if !self.pl.q.val().get_bit(0) & self.vlin.val() {
            self.pl_next.next = self.pl.q.val() | 1;
        }
        self.vlay.clock.next = self.clock.val();
        self.vlay.adv_next.next = true;
        self.vlay.width.next = self.width.val();
        self.vlay.height.next = self.height.val();
        self.vlay.layers.next = self.layers.val();
        self.vlay.halve.next = true;
        self.vones[0].size.next = bit_cast::<17, 16>(self.width.val());
        self.vones[1].size.next = bit_cast::<17, 16>(self.height.val());
        self.vones[2].size.next = self.layers.val();
        self.vlay.ones_w.next = self.vones[0].ones.val();
        self.vlay.ones_h.next = self.vones[1].ones.val();
        self.vlay.ones_d.next = self.vones[2].ones.val();
        self.vlay.bpp_log2.next = self.p_hdr[1].q.val().get_bits::<3>(16);
        self.vlay.base.next = bit_cast::<48, 32>(self.p_hdr[0].q.val())
            | (bit_cast::<48, 16>(self.p_hdr[1].q.val().get_bits::<16>(0)) << 32);
        self.vlay.l0.next = self.vlev.val();
        self.vlay.l1.next = 0.into();
        // Header words: dimension 2D array (5), one level at the level's first byte, the level's
        // size and depth (bytes per texel, sparse and the valid bit kept); txq/lodq keep base,
        // size and level count and take the level's depth as the layers.
        self.vhdr[0].next = self.vlay.start0.val().get_bits::<32>(0);
        self.vhdr[1].next = (self.p_hdr[1].q.val() & 0xF0C7_0000_u64)
            | 0x28_0000_u64
            | bit_cast::<32, 16>(self.vlay.start0.val().get_bits::<16>(32));
        self.vhdr[2].next = bit_cast::<32, 16>(self.vlay.w0.val() - 1)
            | (bit_cast::<32, 16>(self.vlay.h0.val() - 1) << 16);
        if self.eop.val() == 5 {
            self.vhdr[0].next = self.p_hdr[0].q.val();
            self.vhdr[1].next = (self.p_hdr[1].q.val() & 0xFFC7_FFFF_u64) | 0x28_0000_u64;
            self.vhdr[2].next = self.p_hdr[2].q.val();
        }
        self.vdm1.next = self.vlay.d0.val() - 1;
        self.vhdr[3].next = (self.p_hdr[3].q.val() & 0xFFFF_0000_u64)
            | bit_cast::<32, 16>(self.vdm1.val().get_bits::<16>(0));
        // Each lane's slice of this plane (clamped into the level; a border slice is flagged)
        // and its weight W_p = f_l · f_r.
        self.fl[0].next = bits::<9>(256) - bit_cast::<9, 8>(self.l_frac[0].q.val());
        self.fl[1].next = bits::<9>(256) - bit_cast::<9, 8>(self.l_frac[1].q.val());
        self.fl[2].next = bits::<9>(256) - bit_cast::<9, 8>(self.l_frac[2].q.val());
        self.fl[3].next = bits::<9>(256) - bit_cast::<9, 8>(self.l_frac[3].q.val());
        if self.pl.q.val().get_bit(1) {
            self.fl[0].next = bit_cast::<9, 8>(self.l_frac[0].q.val());
            self.fl[1].next = bit_cast::<9, 8>(self.l_frac[1].q.val());
            self.fl[2].next = bit_cast::<9, 8>(self.l_frac[2].q.val());
            self.fl[3].next = bit_cast::<9, 8>(self.l_frac[3].q.val());
        }
        if !self.vtri.val() {
            self.fl[0].next = 1.into();
            self.fl[1].next = 1.into();
            self.fl[2].next = 1.into();
            self.fl[3].next = 1.into();
        }
        self.vbord.next = 0.into();
        for l in 0..4 {
            // The layer axis has no registers here (`Axis::new(0)`): its enable is tied high.
            self.rax[l].clock.next = self.clock.val();
            self.rax[l].en.next = true;
            self.rax[l].n.next = self.vlay.d0.val().get_bits::<16>(0);
            self.rax[l].mode.next = self.p_wrap.q.val().get_bits::<3>(6);
            self.rax[l].linear.next = self.vlin.val();
            self.rax[l].unnorm.next = self.p_unnorm.q.val();
            self.rax[l].off.next = self.p_off[l].q.val().get_bits::<4>(8);
            self.vsl[l].next = self.rax[l].i0.val();
            if self.pl.q.val().get_bit(0) {
                self.vsl[l].next = self.rax[l].i1.val();
            }
            if self.vsl[l].val().get_bit(31) {
                self.vsl[l].next = 0.into();
            } else if self.vsl[l].val() >= bit_cast::<32, 17>(self.vlay.d0.val()) {
                self.vsl[l].next = bit_cast::<32, 17>(self.vdm1.val());
            }
            if (!self.pl.q.val().get_bit(0) & self.rax[l].b0.val())
                | (self.pl.q.val().get_bit(0) & self.rax[l].b1.val())
            {
                self.vbord.next = self.vbord.val().replace_bit(l, true);
            }
            self.prep[l].slice.next = self.vsl[l].val().get_bits::<16>(0);
            self.fr[l].next = bits::<9>(256) - self.rax[l].w.val().get_bits::<9>(0);
            if self.pl.q.val().get_bit(0) {
                self.fr[l].next = self.rax[l].w.val().get_bits::<9>(0);
            }
            if !self.vlin.val() {
                self.fr[l].next = 1.into();
            }
            self.wmul[l].a.next = self.fl[l].val();
            self.wmul[l].b.next = self.fr[l].val();
        }
        self.rax[0].s.next = self.p_coord[2].q.val();
        self.rax[1].s.next = self.p_coord[6].q.val();
        self.rax[2].s.next = self.p_coord[10].q.val();
        self.rax[3].s.next = self.p_coord[14].q.val();
        self.addr.clock.next = self.clock.val();
        self.addr.reset.next = self.reset.val();
        self.addr.in_valid.next = (self.state.q.val() == 2) & (self.pq_n.q.val() < 8);
        self.addr.in_tag.next = bit_cast::<16, 3>(self.pq_wr.q.val());
        for l in 0..4 {
            self.addr.in_ra[4 * l].next = 0.into();
            self.addr.in_ra[4 * l + 1].next = self.prep[l].s.val();
            if self.one_d.val() {
                self.addr.in_ra[4 * l + 2].next = self.prep[l].word.val();
                self.addr.in_ra[4 * l + 3].next = 0.into();
            } else {
                self.addr.in_ra[4 * l + 2].next = self.prep[l].t.val();
                self.addr.in_ra[4 * l + 3].next = self.prep[l].word.val();
            }
            self.addr.in_lambda[l].next = self.prep[l].lambda32.val();
        }
        self.addr.in_warn.next = self.l_warn.q.val();
        if (self.eop.val() == 4) | (self.eop.val() == 5) {
            self.addr.in_warn.next = 0.into();
        }
        self.addr.in_bindless.next = true;
        self.addr.in_lc.next = false;
        self.addr.in_aoffi.next = true;
        self.addr.in_param_a.next = self.dimc.val();
        if self.p_vol.q.val() {
            self.addr.in_param_a.next = 5.into();
        }
        self.addr.in_ogl.next = false;
        self.addr.in_cbank.next = 0.into();
        self.addr.in_hdr_max.next = 0.into();
        self.addr.in_smp_max.next = 0.into();
        self.addr.in_txq.next = self.eop.val() == 5;
        self.addr.in_level.next = self.kfirst.val().get_bits::<4>(0);
        self.addr.in_level1.next = self.kfirst.val().get_bits::<4>(5);
        self.addr.in_tri.next = self.kfirst.val().get_bit(10);
        if self.p_vol.q.val() & (self.eop.val() != 5) {
            self.addr.in_level.next = 0.into();
            self.addr.in_level1.next = 0.into();
            self.addr.in_tri.next = false;
        }
        self.addr.in_frac.next = 0.into();
        // The descriptor read of the pass in stage 1: its queue entry (the tag).
        self.d_idx.next = self.addr.desc_tag.val();
        for k in 0..4 {
            self.addr.desc_hdr[k].next = self.pq_hdr[k].q.val();
        }
        self.addr.desc_smp.next = self.pq_smp[0].q.val();
        for e in 1..8 {
            if self.d_idx.val().index() == e {
                for k in 0..4 {
                    self.addr.desc_hdr[k].next = self.pq_hdr[4 * e + k].q.val();
                }
                self.addr.desc_smp.next = self.pq_smp[e].q.val();
            }
        }
        self.smp.next = bit_cast::<8, 6>(self.p_wrap.q.val().get_bits::<6>(0));
        if self.kfirst.val().get_bit(11) {
            self.smp.next = self.smp.val() | 0x40;
        }
        if self.p_unnorm.q.val() {
            self.smp.next = self.smp.val() | 0x80;
        }
        if self.eop.val() == 4 {
            self.smp.next = 0x92.into();
        }
        // Issue: the pass into the address pipeline and its queue entry; then the next pass of
        // the key (a volume's next plane) or of the probe, the next probe, or done.
        self.push.next =
            (self.state.q.val() == 2) & self.addr.in_valid.val() & self.addr.in_ready.val();
        self.act_now.next = 0.into();
        for l in 0..4 {
            if self.prep[l].active.val() {
                self.act_now.next = self.act_now.val().replace_bit(l, true);
            }
        }
        self.fl_now.next = 0.into();
        if self.p_first.q.val() {
            self.fl_now.next = self.fl_now.val() | 8;
        }
        if self.vsamp.val() {
            self.fl_now.next = self.fl_now.val() | 2;
            if !self.pl.q.val().any() {
                self.fl_now.next = self.fl_now.val() | 1;
            }
        } else if !self.pidx.q.val().any() {
            self.fl_now.next = self.fl_now.val() | 1;
        }
        self.rv_now.next = self.p_vol.q.val() & (self.eop.val() != 5);
        self.pidx5.next = bit_cast::<5, 4>(self.pidx.q.val());
        self.pidx_next.next = self.pidx5.val() + 1;
        self.pmask_next.next = 0.into();
        for l in 0..4 {
            if self.l_n[l].q.val() > self.pidx_next.val() {
                self.pmask_next.next = self.pmask_next.val().replace_bit(l, true);
            }
        }
        // A volume's key stays until its last plane is issued.
        self.rem_after.next = self.remaining.q.val();
        if self.pl_last.val() {
            self.rem_after.next = self.remaining.q.val() & !self.mask.val();
        }
        if !self.rem_after.val().any()
            & self.pl_last.val()
            & (self.pidx_next.val() >= self.nmax.val())
        {
            self.fl_now.next = self.fl_now.val() | 4;
        }
        self.misc_now.next = bit_cast::<23, 4>(self.p_op.q.val())
            | (bit_cast::<23, 1>(self.one_d.val().into()) << 4)
            | (bit_cast::<23, 3>(self.p_cmp.q.val()) << 5)
            | (bit_cast::<23, 2>(self.p_gcomp.q.val()) << 8)
            | (bit_cast::<23, 4>(self.p_wmask.q.val()) << 10)
            | (bit_cast::<23, 1>(self.p_d16.q.val().into()) << 14)
            | (bit_cast::<23, 1>(self.p_tfe.q.val().into()) << 15)
            | (bit_cast::<23, 1>(self.p_lwe.q.val().into()) << 16)
            | (bit_cast::<23, 1>(self.p_acq.q.val().into()) << 17)
            | (bit_cast::<23, 1>(self.is_int.val().into()) << 18)
            | (bit_cast::<23, 4>(self.p_kill.q.val()) << 19);
        self.ff_now.next = bit_cast::<2, 1>(self.fmt_fault.val().into())
            | (bit_cast::<2, 1>(self.p_flush.q.val().into()) << 1);
        if self.push.val() {
            self.p_first.d.next = false;
            self.remaining.d.next = self.rem_after.val();
            self.pl.d.next = 0.into();
            if !self.pl_last.val() {
                self.pl.d.next = self.pl_next.val();
            }
            if !self.rem_after.val().any() & self.pl_last.val() {
                self.state.d.next = 0.into();
                // The next probe, over the lanes that take it.
                if self.pidx_next.val() < self.nmax.val() {
                    self.pidx.d.next = self.pidx.q.val() + 1;
                    self.remaining.d.next = self.pmask_next.val();
                    self.state.d.next = 7.into();
                }
            }
            self.pq_wr.d.next = self.pq_wr.q.val() + 1;
            for e in 0..8 {
                if self.pq_wr.q.val().index() == e {
                    for k in 0..4 {
                        self.pq_hdr[4 * e + k].d.next = self.p_hdr[k].q.val();
                        if self.p_vol.q.val() {
                            self.pq_hdr[4 * e + k].d.next = self.vhdr[k].val();
                        }
                    }
                    for l in 0..4 {
                        self.pq_pw[4 * e + l].d.next = self.wmul[l].p.val();
                    }
                    // Sampler word: wrap_s [2:0], wrap_t [5:3], linear [6], unnormalized [7].
                    self.pq_smp[e].d.next = self.smp.val();
                    self.pq_rlev[e].d.next = self.vlev.val();
                    self.pq_itag[e].d.next = self.p_tag.q.val();
                    self.pq_mask[e].d.next = self.mask.val();
                    self.pq_act[e].d.next = self.act_now.val();
                    self.pq_bord[e].d.next = 0.into();
                    if self.vsamp.val() {
                        self.pq_bord[e].d.next = self.vbord.val();
                    }
                    self.pq_key[e].d.next = bit_cast::<3, 1>(self.kfirst.val().get_bits::<1>(4))
                        | (bit_cast::<3, 2>(self.kfirst.val().get_bits::<2>(10)) << 1);
                    self.pq_fl[e].d.next = self.fl_now.val();
                    self.pq_misc[e].d.next = self.misc_now.val();
                    self.pq_ff[e].d.next = self.ff_now.val();
                    self.pq_fs[e].d.next = self.p_hdr[4].q.val().get_bits::<17>(0);
                    for l in 0..4 {
                        self.pq_bcol[4 * e + l].d.next = self.p_bcol[l].q.val();
                        self.pq_ref[4 * e + l].d.next = self.p_ref[l].q.val();
                        self.pq_frac[4 * e + l].d.next = self.l_frac[l].q.val();
                        self.pq_np[4 * e + l].d.next = self.l_n[l].q.val();
                        self.pq_lam[4 * e + l].d.next = self.l_lambda[l].q.val();
                        self.pq_unc[4 * e + l].d.next = self.l_unc[l].q.val();
                    }
                    self.pq_rv[e].d.next = self.rv_now.val();
                    self.pq_live[e].d.next = true;
                }
            }
        }

        // ---------------- hand-overs: B1 takes the next instruction, the front moves on ----------------
        // B1 takes the oldest waiting instruction when idle or in the clock it issues the last
        // pass of the one it holds; the front issues into the LOD unit as its instruction moves
        // into the instruction queue, and accepts the next in the same clock. (A nop or kill_lt_0
        // skips the LOD unit; B1 takes it only to pass it on to B2, state 14.)
        self.b1_free.next = (self.state.q.val() == 0)
            | (self.push.val()
                & !self.rem_after.val().any()
                & self.pl_last.val()
                & (self.pidx_next.val() >= self.nmax.val()));
        self.take_lod.next = self.b1_free.val()
            & (self.g_n.q.val() != 0)
            & !self.gh_nop.val()
            & self.lod.out_valid.val();
        self.take.next = self.take_lod.val()
            | (self.b1_free.val() & (self.g_n.q.val() != 0) & self.gh_nop.val());
        self.lod.out_ready.next = self.take_lod.val();
        self.gfree.next = (self.g_n.q.val() < 8) | self.take.val();
        self.lod.in_valid.next = (self.fst.q.val() == 8) & self.gfree.val();
        self.gmove.next = (self.lod.in_valid.val() & self.lod.in_ready.val())
            | ((self.fst.q.val() == 12) & self.gfree.val());
        // The head leaves before the front writes (a full queue takes and writes one entry in
        // the same clock).
        for e in 0..8 {
            if self.take.val() & (self.g_rd.q.val().index() == e) {
                self.g_live[e].d.next = false;
            }
        }
        if self.gmove.val() {
            self.fst.d.next = 0.into();
            self.g_wr.d.next = self.g_wr.q.val() + 1;
            for e in 0..8 {
                if self.g_wr.q.val().index() == e {
                    for k in 0..4 {
                        self.g_bcol[4 * e + k].d.next = self.f_bcol[k].q.val();
                        self.g_lod[4 * e + k].d.next = self.f_lod[k].q.val();
                        self.g_lbias[4 * e + k].d.next = self.f_lbias[k].q.val();
                        self.g_ref[4 * e + k].d.next = self.f_ref[k].q.val();
                        self.g_off[4 * e + k].d.next = self.f_off[k].q.val();
                        self.g_face[4 * e + k].d.next = self.f_face[k].q.val();
                    }
                }
            }
            match self.g_wr.q.val().index() {
                0 => {
                    self.g_misc0[0].d.next = self.f_misc0.val();
                    self.g_live[0].d.next = true;
                    self.g_misc1[0].d.next = self.f_misc1.val();
                    for k in 0..5 {
                        self.g0_hdr[k].d.next = self.f_hdr[k].q.val();
                    }
                    for k in 0..16 {
                        self.g0_coord[k].d.next = self.f_coord[k].q.val();
                    }
                    for k in 0..16 {
                        self.g0_grad[k].d.next = self.f_grad[k].q.val();
                    }
                }
                1 => {
                    self.g_misc0[1].d.next = self.f_misc0.val();
                    self.g_live[1].d.next = true;
                    self.g_misc1[1].d.next = self.f_misc1.val();
                    for k in 0..5 {
                        self.g1_hdr[k].d.next = self.f_hdr[k].q.val();
                    }
                    for k in 0..16 {
                        self.g1_coord[k].d.next = self.f_coord[k].q.val();
                    }
                    for k in 0..16 {
                        self.g1_grad[k].d.next = self.f_grad[k].q.val();
                    }
                }
                2 => {
                    self.g_misc0[2].d.next = self.f_misc0.val();
                    self.g_live[2].d.next = true;
                    self.g_misc1[2].d.next = self.f_misc1.val();
                    for k in 0..5 {
                        self.g2_hdr[k].d.next = self.f_hdr[k].q.val();
                    }
                    for k in 0..16 {
                        self.g2_coord[k].d.next = self.f_coord[k].q.val();
                    }
                    for k in 0..16 {
                        self.g2_grad[k].d.next = self.f_grad[k].q.val();
                    }
                }
                3 => {
                    self.g_misc0[3].d.next = self.f_misc0.val();
                    self.g_live[3].d.next = true;
                    self.g_misc1[3].d.next = self.f_misc1.val();
                    for k in 0..5 {
                        self.g3_hdr[k].d.next = self.f_hdr[k].q.val();
                    }
                    for k in 0..16 {
                        self.g3_coord[k].d.next = self.f_coord[k].q.val();
                    }
                    for k in 0..16 {
                        self.g3_grad[k].d.next = self.f_grad[k].q.val();
                    }
                }
                4 => {
                    self.g_misc0[4].d.next = self.f_misc0.val();
                    self.g_live[4].d.next = true;
                    self.g_misc1[4].d.next = self.f_misc1.val();
                    for k in 0..5 {
                        self.g4_hdr[k].d.next = self.f_hdr[k].q.val();
                    }
                    for k in 0..16 {
                        self.g4_coord[k].d.next = self.f_coord[k].q.val();
                    }
                    for k in 0..16 {
                        self.g4_grad[k].d.next = self.f_grad[k].q.val();
                    }
                }
                5 => {
                    self.g_misc0[5].d.next = self.f_misc0.val();
                    self.g_live[5].d.next = true;
                    self.g_misc1[5].d.next = self.f_misc1.val();
                    for k in 0..5 {
                        self.g5_hdr[k].d.next = self.f_hdr[k].q.val();
                    }
                    for k in 0..16 {
                        self.g5_coord[k].d.next = self.f_coord[k].q.val();
                    }
                    for k in 0..16 {
                        self.g5_grad[k].d.next = self.f_grad[k].q.val();
                    }
                }
                6 => {
                    self.g_misc0[6].d.next = self.f_misc0.val();
                    self.g_live[6].d.next = true;
                    self.g_misc1[6].d.next = self.f_misc1.val();
                    for k in 0..5 {
                        self.g6_hdr[k].d.next = self.f_hdr[k].q.val();
                    }
                    for k in 0..16 {
                        self.g6_coord[k].d.next = self.f_coord[k].q.val();
                    }
                    for k in 0..16 {
                        self.g6_grad[k].d.next = self.f_grad[k].q.val();
                    }
                }
                _ => {
                    self.g_misc0[7].d.next = self.f_misc0.val();
                    self.g_live[7].d.next = true;
                    self.g_misc1[7].d.next = self.f_misc1.val();
                    for k in 0..5 {
                        self.g7_hdr[k].d.next = self.f_hdr[k].q.val();
                    }
                    for k in 0..16 {
                        self.g7_coord[k].d.next = self.f_coord[k].q.val();
                    }
                    for k in 0..16 {
                        self.g7_grad[k].d.next = self.f_grad[k].q.val();
                    }
                }
            }
        }
        self.g_n.d.next = self.g_n.q.val() + bit_cast::<4, 1>(self.gmove.val().into())
            - bit_cast::<4, 1>(self.take.val().into());
        self.in_ready.next = ((self.fst.q.val() == 0) | self.gmove.val())
            & !((self.in_sem_wait.val() | self.in_sem_acquire.val()) & self.busy.val());
        self.accept.next = self.in_ready.val() & self.in_valid.val();
        if self.accept.val() {
            self.f_tag.d.next = self.in_tag.val();
            self.f_op.d.next = self.in_op.val();
            for k in 0..5 {
                self.f_hdr[k].d.next = self.in_hdr[k].val();
            }
            self.f_wrap.d.next = self.in_wrap.val();
            self.f_minlin.d.next = self.in_min_lin.val();
            self.f_maglin.d.next = self.in_mag_lin.val();
            self.f_mip.d.next = self.in_mip.val();
            self.f_unnorm.d.next = self.in_unnorm.val() | self.in_unscaled.val();
            self.f_acq.d.next = self.in_sem_acquire.val();
            self.f_cmp.d.next = self.in_compare.val();
            self.f_sbias.d.next = self.in_bias.val();
            self.f_minlod.d.next = self.in_min_lod.val();
            self.f_maxlod.d.next = self.in_max_lod.val();
            // max_aniso 0 and 17…31 are isotropic (the probe loop counts up to 16).
            self.f_aniso.d.next = self.in_aniso.val();
            if self.in_aniso.val() > bits::<5>(16) {
                self.f_aniso.d.next = 1.into();
            }
            for k in 0..16 {
                self.f_coord[k].d.next = self.in_coord[k].val();
                self.f_grad[k].d.next = self.in_grad[k].val();
            }
            for l in 0..4 {
                self.f_bcol[l].d.next = self.in_border[l].val();
                self.f_lod[l].d.next = self.in_lod[l].val();
                self.f_lbias[l].d.next = self.in_lbias[l].val();
                self.f_ref[l].d.next = self.in_ref[l].val();
                self.f_off[l].d.next = self.in_off[l].val();
            }
            self.f_wmask.d.next = self.in_wmask.val() & self.in_dmask.val();
            self.f_d16.d.next = self.in_d16.val();
            self.f_tfe.d.next = self.in_tfe.val();
            self.f_lwe.d.next = self.in_lwe.val();
            if self.in_mimg.val() {
                for k in 0..4 {
                    self.f_coord[k].d.next = self.unpk0.coord[k].val();
                    self.f_grad[k].d.next = self.unpk0.grad[k].val();
                    self.f_coord[4 + k].d.next = self.unpk1.coord[k].val();
                    self.f_grad[4 + k].d.next = self.unpk1.grad[k].val();
                    self.f_coord[8 + k].d.next = self.unpk2.coord[k].val();
                    self.f_grad[8 + k].d.next = self.unpk2.grad[k].val();
                    self.f_coord[12 + k].d.next = self.unpk3.coord[k].val();
                    self.f_grad[12 + k].d.next = self.unpk3.grad[k].val();
                }
                self.f_lod[0].d.next = self.unpk0.lod.val();
                self.f_lbias[0].d.next = self.unpk0.bias.val();
                self.f_ref[0].d.next = self.unpk0.zref.val();
                self.f_off[0].d.next = self.unpk0.off.val();
                self.f_lod[1].d.next = self.unpk1.lod.val();
                self.f_lbias[1].d.next = self.unpk1.bias.val();
                self.f_ref[1].d.next = self.unpk1.zref.val();
                self.f_off[1].d.next = self.unpk1.off.val();
                self.f_lod[2].d.next = self.unpk2.lod.val();
                self.f_lbias[2].d.next = self.unpk2.bias.val();
                self.f_ref[2].d.next = self.unpk2.zref.val();
                self.f_off[2].d.next = self.unpk2.off.val();
                self.f_lod[3].d.next = self.unpk3.lod.val();
                self.f_lbias[3].d.next = self.unpk3.bias.val();
                self.f_ref[3].d.next = self.unpk3.zref.val();
                self.f_off[3].d.next = self.unpk3.off.val();
            }
            self.f_gcomp.d.next = self.in_gcomp.val();
            self.f_flush.d.next = self.in_flush.val();
            self.dv_issue.d.next = 0.into();
            self.dv_ret.d.next = 0.into();
            self.fst.d.next = 8.into();
            if self.in_op.val() == 9 {
                self.fst.d.next = 9.into();
            }
            self.f_cube.d.next = self.in_cube.val();
            self.f_ncube.d.next = self.in_ncube.val();
            // A 3D texture is sampled isotropically; gather4 on it, or a depth above 32 768 (the r
            // axis scales through 16 bits), gets an invalid bytes-per-texel field: bad_descriptor.
            self.f_vol.d.next = self.in_dim.val() == 2;
            if self.in_dim.val() == 2 {
                self.f_aniso.d.next = 1.into();
                if (self.in_op.val() == 6) | self.in_hdr[3].val().get_bit(15) {
                    self.f_hdr[1].d.next = self.in_hdr[1].val() | 0x7_0000_u64;
                }
            }
            if self.in_cube.val() {
                self.f_hdr[1].d.next = (self.in_hdr[1].val() & 0xFFC7_FFFF_u64) | 0x28_0000_u64;
                self.f_hdr[3].d.next = (self.in_hdr[3].val() & 0xFFFF_0000_u64)
                    | bit_cast::<32, 16>(
                        (self.in_ncube.val() << 2) + (self.in_ncube.val() << 1) + 5,
                    );
                if self.in_ncube.val() >= bits::<16>(10922) {
                    self.f_hdr[1].d.next = (self.in_hdr[1].val() & 0xFFC0_FFFF_u64) | 0x2F_0000_u64;
                }
                self.f_wrap.d.next = 0x12.into();
                self.f_unnorm.d.next = false;
                // Sampling ops first project the directions onto the faces (txp: after its
                // divide); txf and txq address the face array directly.
                if (self.in_op.val() != 4) & (self.in_op.val() != 5) & (self.in_op.val() != 9) {
                    self.fst.d.next = 10.into();
                }
            }
            // nop and kill_lt_0 write nothing and touch neither the texture nor the LOD unit.
            if (self.in_op.val() == 11) | (self.in_op.val() == 13) {
                self.f_wmask.d.next = 0.into();
                self.fst.d.next = 12.into();
            }
            self.f_kill.d.next = 0.into();
            if self.in_op.val() == 13 {
                self.f_kill.d.next = self.kmask.val();
            }
        }
        if self.take.val() {
            self.g_rd.d.next = self.g_rd.q.val() + 1;
            self.p_tag.d.next = self.gh_tag.val();
            self.p_op.d.next = self.gh_op.val();
            self.p_wrap.d.next = self.gh_wrap.val();
            self.p_minlin.d.next = self.gh_minlin.val();
            self.p_maglin.d.next = self.gh_maglin.val();
            self.p_mip.d.next = self.gh_mip.val();
            self.p_unnorm.d.next = self.gh_unnorm.val();
            self.p_acq.d.next = self.gh_acq.val();
            self.p_cmp.d.next = self.gh_cmp.val();
            self.p_sbias.d.next = self.gh_sbias.val();
            self.p_minlod.d.next = self.gh_minlod.val();
            self.p_maxlod.d.next = self.gh_maxlod.val();
            self.p_aniso.d.next = self.gh_aniso.val();
            self.p_wmask.d.next = self.gh_wmask.val();
            self.p_d16.d.next = self.gh_d16.val();
            self.p_tfe.d.next = self.gh_tfe.val();
            self.p_lwe.d.next = self.gh_lwe.val();
            self.p_gcomp.d.next = self.gh_gcomp.val();
            self.p_cube.d.next = self.gh_cube.val();
            self.p_ncube.d.next = self.gh_ncube.val();
            self.p_vol.d.next = self.gh_vol.val();
            for k in 0..5 {
                self.p_hdr[k].d.next = self.gh_hdr[k].val();
            }
            for k in 0..16 {
                self.p_coord[k].d.next = self.gh_coord[k].val();
            }
            for k in 0..16 {
                self.p_grad[k].d.next = self.gh_grad[k].val();
            }
            for k in 0..4 {
                self.p_bcol[k].d.next = self.gh_bcol[k].val();
            }
            for k in 0..4 {
                self.p_lod[k].d.next = self.gh_lod[k].val();
            }
            for k in 0..4 {
                self.p_lbias[k].d.next = self.gh_lbias[k].val();
            }
            for k in 0..4 {
                self.p_ref[k].d.next = self.gh_ref[k].val();
            }
            for k in 0..4 {
                self.p_off[k].d.next = self.gh_off[k].val();
            }
            for k in 0..4 {
                self.p_face[k].d.next = self.gh_face[k].val();
            }
            self.p_kill.d.next = self.gh_kill.val();
            self.p_flush.d.next = self.gh_flush.val();
            self.p_first.d.next = true;
            self.pl.d.next = 0.into();
            self.state.d.next = 14.into();
        }
        if self.take_lod.val() {
            self.pidx.d.next = 0.into();
            self.blane.d.next = 0.into();
            self.l_major.d.next = 0.into();
            for l in 0..4 {
                self.ps[l].d.next = self.gh_coord[4 * l].val();
                self.pt[l].d.next = self.gh_coord[4 * l + 1].val();
                self.l_n[l].d.next = 1.into();
                if self.aniso_op.val() {
                    self.l_n[l].d.next = self.lod.out_probes[l].val();
                }
            }
            for l in 0..4 {
                self.l_lambda[l].d.next = self.lod.out_lambda[l].val();
                self.l_lv0[l].d.next = self.lod.out_level0[l].val();
                self.l_lv1[l].d.next = self.lod.out_level1[l].val();
                self.l_frac[l].d.next = self.lod.out_frac[l].val();
                self.l_unc[l].d.next = self.lod.out_unclamped[l].val();
                self.l_mag[l].d.next = self.lod.out_magnify[l].val();
            }
            self.l_warn.d.next = self.warn.val();
            self.l_major.d.next = self.major.val();
            self.remaining.d.next = 0xF.into();
            // Probe positions first if any lane takes several probes.
            self.state.d.next = 2.into();
            if self.aniso_op.val() & self.multi.val() {
                self.state.d.next = 7.into();
            }
        }

        // Residency: forwarded.
        // Residency: forwarded, with the instruction's tag and a volume plane's level (the
        // address pipeline sees level 0 of it) from the pass's queue entry.
        self.res_rd.next = self.addr.res_rd.val();
        self.res_level0.next = self.addr.res_level0.val();
        self.res_level1.next = self.addr.res_level1.val();
        self.r_idx.next = self.addr.res_tag.val();
        self.res_tag.next = self.pq_itag[0].q.val();
        if self.pq_rv[0].q.val() & (self.r_idx.val() == 0) {
            self.res_level0.next = self.pq_rlev[0].q.val();
            self.res_level1.next = self.pq_rlev[0].q.val();
        }
        for e in 1..8 {
            if self.r_idx.val().index() == e {
                self.res_tag.next = self.pq_itag[e].q.val();
                if self.pq_rv[e].q.val() {
                    self.res_level0.next = self.pq_rlev[e].q.val();
                    self.res_level1.next = self.pq_rlev[e].q.val();
                }
            }
        }
        for s in 0..32 {
            self.res_tile[s].next = self.addr.res_tile[s].val();
            self.addr.res_ok[s].next = self.res_ok[s].val();
        }

        // ---------------- B2: the head pass of the queue ----------------
        self.h_mask.next = self.pq_mask[0].q.val();
        self.h_act.next = self.pq_act[0].q.val();
        self.h_bord.next = self.pq_bord[0].q.val();
        self.h_key.next = self.pq_key[0].q.val();
        self.h_fl.next = self.pq_fl[0].q.val();
        self.h_misc.next = self.pq_misc[0].q.val();
        self.h_itag.next = self.pq_itag[0].q.val();
        self.h_fs.next = self.pq_fs[0].q.val();
        for l in 0..4 {
            self.h_bcol[l].next = self.pq_bcol[l].q.val();
            self.h_ref[l].next = self.pq_ref[l].q.val();
            self.h_frac[l].next = self.pq_frac[l].q.val();
            self.h_np[l].next = self.pq_np[l].q.val();
            self.h_lam[l].next = self.pq_lam[l].q.val();
            self.h_unc[l].next = self.pq_unc[l].q.val();
        }
        for l in 0..4 {
            self.h_pw[l].next = self.pq_pw[l].q.val();
        }
        for e in 1..8 {
            if self.pq_rd.q.val().index() == e {
                self.h_mask.next = self.pq_mask[e].q.val();
                self.h_act.next = self.pq_act[e].q.val();
                self.h_bord.next = self.pq_bord[e].q.val();
                self.h_key.next = self.pq_key[e].q.val();
                self.h_fl.next = self.pq_fl[e].q.val();
                self.h_misc.next = self.pq_misc[e].q.val();
                self.h_itag.next = self.pq_itag[e].q.val();
                self.h_fs.next = self.pq_fs[e].q.val();
                for l in 0..4 {
                    self.h_bcol[l].next = self.pq_bcol[4 * e + l].q.val();
                    self.h_ref[l].next = self.pq_ref[4 * e + l].q.val();
                    self.h_frac[l].next = self.pq_frac[4 * e + l].q.val();
                    self.h_np[l].next = self.pq_np[4 * e + l].q.val();
                    self.h_lam[l].next = self.pq_lam[4 * e + l].q.val();
                    self.h_unc[l].next = self.pq_unc[4 * e + l].q.val();
                }
                for l in 0..4 {
                    self.h_pw[l].next = self.pq_pw[4 * e + l].q.val();
                }
            }
        }
        // X's instruction as the datapath sees it: txp and lookup_uncached filter as tex, lodq
        // answers as txq.
        self.x_op.next = self.h_misc.val().get_bits::<4>(0);
        self.x_eop.next = self.x_op.val();
        if (self.x_op.val() == 9) | (self.x_op.val() == 12) {
            self.x_eop.next = 0.into();
        }
        if self.x_op.val() == 10 {
            self.x_eop.next = 5.into();
        }
        // The address pipeline's head result's queue entry (the pass F takes next) and the
        // entry of the pass F fetches.
        self.fc_op.next = self.pq_misc[0].q.val().get_bits::<4>(0);
        self.fc_itag.next = self.pq_itag[0].q.val();
        for e in 1..8 {
            if self.f_ent.q.val().index() == e {
                self.fc_op.next = self.pq_misc[e].q.val().get_bits::<4>(0);
                self.fc_itag.next = self.pq_itag[e].q.val();
            }
        }
        self.f_idx.next = self.addr.out_tag.val().get_bits::<3>(0);
        self.fh_first.next = self.pq_fl[0].q.val().get_bit(3);
        self.fh_op.next = self.pq_misc[0].q.val().get_bits::<4>(0);
        self.fh_ff.next = self.pq_ff[0].q.val();
        self.fh_mask.next = self.pq_mask[0].q.val();
        self.fh_act.next = self.pq_act[0].q.val();
        self.fh_bord.next = self.pq_bord[0].q.val();
        for e in 1..8 {
            if self.f_idx.val().index() == e {
                self.fh_first.next = self.pq_fl[e].q.val().get_bit(3);
                self.fh_op.next = self.pq_misc[e].q.val().get_bits::<4>(0);
                self.fh_ff.next = self.pq_ff[e].q.val();
                self.fh_mask.next = self.pq_mask[e].q.val();
                self.fh_act.next = self.pq_act[e].q.val();
                self.fh_bord.next = self.pq_bord[e].q.val();
            }
        }
        // R leaves; X filters its pass when the result register is free or leaving (X writes
        // it); F may start a pass only when X can take its own on the same edge, so the slot
        // registers hold X's texels until X has filtered them.
        if self.r_valid.q.val() & self.out_ready.val() {
            self.r_valid.d.next = false;
        }
        self.xgo.next = self.x_valid.q.val() & (!self.r_valid.q.val() | self.out_ready.val());
        self.xfree.next = !self.x_valid.q.val() | self.xgo.val();
        self.pop.next = self.xgo.val();
        if self.xgo.val() {
            self.x_valid.d.next = false;
        }
        // A nop or kill_lt_0 comes over from B1 once F, X and the queue are empty, straight to
        // the result register: no fetch, write mask 0, λ 0.
        self.tnop.next = (self.state.q.val() == 14)
            & (self.b2st.q.val() == 0)
            & (self.pq_n.q.val() == 0)
            & !self.x_valid.q.val()
            & (!self.r_valid.q.val() | self.out_ready.val());
        if self.tnop.val() {
            self.q_tag.d.next = self.p_tag.q.val();
            self.q_op.d.next = self.p_op.q.val();
            self.q_wmask.d.next = self.p_wmask.q.val();
            self.q_d16.d.next = self.p_d16.q.val();
            self.q_tfe.d.next = self.p_tfe.q.val();
            self.q_lwe.d.next = self.p_lwe.q.val();
            self.q_acq.d.next = self.p_acq.q.val();
            self.q_isint.d.next = self.is_int.val();
            self.r_kill.d.next = self.p_kill.q.val();
            for l in 0..4 {
                self.r_status[l].d.next = 0.into();
                self.r_lambda[l].d.next = 0.into();
            }
            for k in 0..16 {
                self.r_rgba[k].d.next = 0.into();
            }
            self.r_fault.d.next = 0.into();
            self.r_lines.d.next = 0.into();
            self.state.d.next = 0.into();
            self.r_valid.d.next = true;
        }

        // ---------------- F: the pass's taps, faults, then fetch ----------------
        // A later pass of a faulting instruction is drained (no fetch); a fault (the address
        // pipeline's, or an integer format with a linear filter) zeroes the result.
        self.fdead.next = self.dead.q.val() & !self.fh_first.val();
        self.b2fault.next =
            (self.addr.out_fault.val().any() | self.fh_ff.val().get_bit(0)) & !self.fdead.val();
        // R holds a result on the next edge (X cannot filter then unless out_ready).
        self.rv_next.next = (self.r_valid.q.val() & !self.out_ready.val())
            | (self.xgo.val() & self.h_fl.val().get_bit(2));
        self.lane_on.next = self.fh_mask.val() & self.fh_act.val() & !self.fh_bord.val();
        self.pinit.next = 0.into();
        for l in 0..4 {
            for k in 0..8 {
                if self.addr.out_req[8 * l + k].val() & self.lane_on.val().get_bit(l) {
                    self.pinit.next = self.pinit.val().replace_bit(8 * l + k, true);
                }
            }
        }
        self.ffetch.next = !self.fdead.val() & !self.b2fault.val() & self.pinit.val().any();
        self.cache.clock.next = self.clock.val();
        self.cache.reset.next = self.reset.val();
        // The cache holds its answers while X holds a pass it does not filter (its texels are in
        // the slot registers) ...
        self.cache.hold.next = self.x_valid.q.val() & !self.xgo.val();
        self.cache.mem_req_ready.next = self.mem_req_ready.val();
        self.cache.mem_resp_valid.next = self.mem_resp_valid.val();
        for k in 0..8 {
            self.cache.mem_resp_data[k].next = self.mem_resp_data[k].val();
        }
        self.mem_req_valid.next = self.cache.mem_req_valid.val();
        self.mem_req_line.next = self.cache.mem_req_line.val();
        self.mem_req_tag.next = self.cache.mem_req_tag.val();
        self.cnt_hits.next = self.cache.cnt_hits.val();
        self.cnt_misses.next = self.cache.cnt_misses.val();
        self.cnt_rounds.next = self.rounds.q.val();
        // Each slot's bank: the line it returns now; a pending slot takes the line it waits for.
        self.retmask.next = 0.into();
        for s in 0..32 {
            self.fsh[s].next = (self.fa_addr[s].q.val().get_bits::<6>(0) & 7) << 3;
            self.sword[s].next = self.fa_addr[s].q.val().get_bits::<3>(3);
            self.sline[s].next = 0.into();
            self.sret[s].next = false;
            for b in 0..8 {
                if self.fa_bank[s].q.val().index() == b {
                    self.sline[s].next = self.cache.ln_line[b].val();
                    self.sret[s].next = self.cache.ln_valid[b].val();
                }
            }
            if self.pending.q.val().get_bit(s)
                & self.sret[s].val()
                & (self.fa_addr[s].q.val().get_bits::<42>(6) == self.sline[s].val())
            {
                self.retmask.next = self.retmask.val().replace_bit(s, true);
            }
        }
        // Rounds of lookups (at most one line per bank) go out one per clock, without waiting
        // for the lines: per bank the first slot not yet looked up. The cache answers in lookup
        // order; a pass's lines are distinct, so each returned line is the pending slots' own.
        // The pass's last line returns (its texels are in the slot registers on this edge).
        self.fdone.next =
            (self.b2st.q.val() == 4) & ((self.pending.q.val() & !self.retmask.val()) == 0);
        // F takes the head result when idle and X is free, or in the clock it hands its pass
        // over, for a pass it fetches (no flush, the same cache mode as the pass before); the
        // new pass's lines land in the slot registers only once X has filtered the handed pass
        // (the cache holds its answers until then).
        self.fchain.next = self.fdone.val()
            & self.ffetch.val()
            & !(self.fh_first.val() & self.fh_ff.val().get_bit(1))
            & ((self.fh_op.val() == 12) == (self.fc_op.val() == 12));
        self.fgo.next = self.addr.out_valid.val()
            & (((self.b2st.q.val() == 0) & self.xfree.val()) | self.fchain.val());
        // The fetch starts here: the first line is looked up in this clock.
        self.fstart.next = self.fgo.val() & self.ffetch.val();
        self.avail.next = self.unlk.q.val();
        if self.fstart.val() {
            self.avail.next = self.pinit.val();
        }
        for s in 0..32 {
            self.ca[s].next = self.fa_addr[s].q.val().get_bits::<42>(6);
            if self.fstart.val() {
                self.ca[s].next = self.addr.out_addr[s].val().get_bits::<42>(6);
            }
        }
        // The cache flush comes with the instruction's first pass, after every earlier fetch.
        self.cache.flush.next =
            (self.fgo.val() & self.fh_first.val() & self.fh_ff.val().get_bit(1))
                | (self.tnop.val() & self.p_flush.q.val());
        // lookup_uncached goes past the cache: every line requested, nothing allocated. The
        // cache answers F's current entry's lookups (a lookup F starts is answered from the next
        // clock on, when that entry is current).
        self.cache.enable.next = self.cache_en.val() & (self.fc_op.val() != 12);
        for s in 0..32 {
            self.cbank[s].next = 0.into();
            for g in 0..14 {
                self.cbank[s].next = self.cbank[s].val() ^ self.ca[s].val().get_bits::<3>(3 * g);
            }
        }
        for b in 0..8 {
            self.pfound[b].next = false;
            self.pick[b].next = 0.into();
        }
        for s in 0..32 {
            for b in 0..8 {
                if self.avail.val().get_bit(s)
                    & (self.cbank[s].val().index() == b)
                    & !self.pfound[b].val()
                {
                    self.pick[b].next = self.ca[s].val();
                    self.pfound[b].next = true;
                }
            }
        }
        self.allready.next = true;
        self.anyfound.next = false;
        for b in 0..8 {
            if self.pfound[b].val() {
                self.anyfound.next = true;
                if !self.cache.lk_ready[b].val() {
                    self.allready.next = false;
                }
            }
        }
        self.issue.next = ((self.b2st.q.val() == 4) | self.fstart.val())
            & self.allready.val()
            & self.anyfound.val();
        for b in 0..8 {
            self.cache.lk_valid[b].next = self.issue.val() & self.pfound[b].val();
            self.cache.lk_line[b].next = self.pick[b].val();
        }
        self.cache.req_tag.next = self.fc_itag.val();
        // Every slot of a line looked up now is looked up.
        self.lkmask.next = 0.into();
        for s in 0..32 {
            self.lkline[s].next = 0.into();
            for b in 0..8 {
                if self.cbank[s].val().index() == b {
                    self.lkline[s].next = self.pick[b].val();
                }
            }
            if self.issue.val()
                & self.avail.val().get_bit(s)
                & (self.ca[s].val() == self.lkline[s].val())
            {
                self.lkmask.next = self.lkmask.val().replace_bit(s, true);
            }
        }
        self.unlk.d.next = self.avail.val() & !self.lkmask.val();
        if self.issue.val() {
            self.rounds.d.next = self.rounds.q.val() + 1;
        }
        if self.fstart.val() {
            for s in 0..32 {
                self.fa_bank[s].d.next = self.cbank[s].val();
            }
        }
        self.pending.d.next = self.pending.q.val() & !self.retmask.val();
        for s in 0..32 {
            // The slot's word (line bytes 8w…8w+7) and the next one (the same at w = 7), chosen
            // from its bank's line; then shifted to the texel, one shifter per slot.
            self.swlo[s].next = 0.into();
            self.swhi[s].next = 0.into();
            for b in 0..4 {
                for w in 0..8 {
                    if (self.fa_bank[s].q.val().index() == b) & (self.sword[s].val().index() == w) {
                        self.swlo[s].next = self.cache.ln_data_lo[8 * b + w].val();
                        self.swhi[s].next = self.cache.ln_data_lo[8 * b + 7].val();
                    }
                    if (self.fa_bank[s].q.val().index() == b + 4)
                        & (self.sword[s].val().index() == w)
                    {
                        self.swlo[s].next = self.cache.ln_data_hi[8 * b + w].val();
                        self.swhi[s].next = self.cache.ln_data_hi[8 * b + 7].val();
                    }
                }
                for w in 0..7 {
                    if (self.fa_bank[s].q.val().index() == b) & (self.sword[s].val().index() == w) {
                        self.swhi[s].next = self.cache.ln_data_lo[8 * b + w + 1].val();
                    }
                    if (self.fa_bank[s].q.val().index() == b + 4)
                        & (self.sword[s].val().index() == w)
                    {
                        self.swhi[s].next = self.cache.ln_data_hi[8 * b + w + 1].val();
                    }
                }
            }
            if self.retmask.val().get_bit(s) {
                self.slo[s].d.next = self.swlo[s].val() >> self.fsh[s].val();
                self.shi[s].d.next = self.swhi[s].val();
            }
        }
        self.fmiss.next = false;
        for b in 0..8 {
            if (self.b2st.q.val() == 4) & self.cache.ln_valid[b].val() & !self.cache.ln_hit[b].val()
            {
                self.fmiss.next = true;
            }
        }
        if self.fmiss.val() {
            self.b_lines.d.next = self.b_lines.q.val() + 1;
        }
        // Hand-over to X: a faulting or drained pass, or one without memory taps, at once; a
        // fetched pass with its last line. X's registers took the pass's address result when F
        // started it (X was free then and stays free until this hand-over).
        self.hand.next =
            (self.fgo.val() & (self.b2st.q.val() == 0) & !self.ffetch.val()) | self.fdone.val();
        self.addr.out_ready.next = self.fgo.val();
        // ... and holds the queues when that may be so in the next cycle (X holds a pass then, and
        // R may still hold a result).
        self.xv_next.next = self.hand.val() | (self.x_valid.q.val() & !self.xgo.val());
        self.cache.hold_next.next = self.xv_next.val() & self.rv_next.val();
        self.xb.next = 0.into();
        for k in 0..32 {
            if self.addr.out_border[k].val() {
                self.xb.next = self.xb.val().replace_bit(k, true);
            }
        }
        self.xf.next = 0.into();
        for l in 0..4 {
            if self.addr.out_fail[l].val() {
                self.xf.next = self.xf.val().replace_bit(l, true);
            }
        }
        if self.fgo.val() {
            self.f_ent.d.next = self.f_idx.val();
            for k in 0..32 {
                self.fa_addr[k].d.next = self.addr.out_addr[k].val();
            }
            self.dead.d.next = self.fdead.val() | self.b2fault.val();
            self.y_border.d.next = self.xb.val();
            self.y_fail.d.next = self.xf.val();
            for l in 0..4 {
                self.y_wu[l].d.next = self.addr.out_wu[l].val();
                self.y_wv[l].d.next = self.addr.out_wv[l].val();
                self.y_wu1[l].d.next = self.addr.out_wu1[l].val();
                self.y_wv1[l].d.next = self.addr.out_wv1[l].val();
                self.y_status[l].d.next = self.addr.out_status[l].val();
                self.y_size[l].d.next = self.addr.out_size[l].val();
            }
        }
        if self.hand.val() {
            self.b2st.d.next = 0.into();
            self.x_valid.d.next = true;
            // A fetched pass: its address result from F's copy, its lines from F's count.
            self.x_kind.d.next = 0.into();
            self.x_lines.d.next = self.b_lines.q.val();
            if self.fmiss.val() {
                self.x_lines.d.next = self.b_lines.q.val() + 1;
            }
            self.x_border.d.next = self.y_border.q.val();
            self.x_fail.d.next = self.y_fail.q.val();
            for l in 0..4 {
                self.x_wu[l].d.next = self.y_wu[l].q.val();
                self.x_wv[l].d.next = self.y_wv[l].q.val();
                self.x_wu1[l].d.next = self.y_wu1[l].q.val();
                self.x_wv1[l].d.next = self.y_wv1[l].q.val();
                self.x_status[l].d.next = self.y_status[l].q.val();
                self.x_size[l].d.next = self.y_size[l].q.val();
            }
            if self.b2st.q.val() == 0 {
                // A pass that fetches nothing goes over in the clock F takes it.
                self.x_lines.d.next = 0.into();
                if self.b2fault.val() {
                    self.x_kind.d.next = 1.into();
                }
                if self.fdead.val() {
                    self.x_kind.d.next = 2.into();
                }
                self.x_fault.d.next = self.addr.out_fault.val();
                if !self.addr.out_fault.val().any() {
                    self.x_fault.d.next = 5.into();
                }
                self.x_border.d.next = self.xb.val();
                self.x_fail.d.next = self.xf.val();
                for l in 0..4 {
                    self.x_wu[l].d.next = self.addr.out_wu[l].val();
                    self.x_wv[l].d.next = self.addr.out_wv[l].val();
                    self.x_wu1[l].d.next = self.addr.out_wu1[l].val();
                    self.x_wv1[l].d.next = self.addr.out_wv1[l].val();
                    self.x_status[l].d.next = self.addr.out_status[l].val();
                    self.x_size[l].d.next = self.addr.out_size[l].val();
                }
            }
        }
        if self.fstart.val() {
            self.pending.d.next = self.pinit.val();
            self.b2st.d.next = 4.into();
            self.b_lines.d.next = 0.into();
        }

        // ---------------- X: the instruction's result registers ----------------
        self.xfirst.next = self.h_fl.val().get_bit(3);
        for l in 0..4 {
            self.rs_prev[l].next = self.r_status[l].q.val();
            if self.xfirst.val() {
                self.rs_prev[l].next = 0.into();
            }
        }
        if self.xgo.val() {
            if self.xfirst.val() {
                // The instruction's first pass: its result starts from zero.
                self.q_tag.d.next = self.h_itag.val();
                self.q_op.d.next = self.x_op.val();
                self.q_wmask.d.next = self.h_misc.val().get_bits::<4>(10);
                self.q_d16.d.next = self.h_misc.val().get_bit(14);
                self.q_tfe.d.next = self.h_misc.val().get_bit(15);
                self.q_lwe.d.next = self.h_misc.val().get_bit(16);
                self.q_acq.d.next = self.h_misc.val().get_bit(17);
                self.q_isint.d.next = self.h_misc.val().get_bit(18);
                self.r_kill.d.next = self.h_misc.val().get_bits::<4>(19);
                self.r_fault.d.next = 0.into();
                self.r_lines.d.next = self.x_lines.q.val();
                for l in 0..4 {
                    self.r_status[l].d.next = 0.into();
                    self.r_lambda[l].d.next = 0.into();
                    if (self.x_op.val() != 4) & (self.x_op.val() != 5) {
                        self.r_lambda[l].d.next = self.h_lam[l].val();
                    }
                }
                for k in 0..16 {
                    self.r_rgba[k].d.next = 0.into();
                }
            } else {
                self.r_lines.d.next = self.r_lines.q.val() + self.x_lines.q.val();
            }
            if self.x_kind.q.val() == 1 {
                self.r_fault.d.next = self.x_fault.q.val();
                for k in 0..16 {
                    self.r_rgba[k].d.next = 0.into();
                }
                for l in 0..4 {
                    self.r_status[l].d.next = 0.into();
                    self.r_lambda[l].d.next = 0.into();
                }
            }
            if self.h_fl.val().get_bit(2) {
                self.r_valid.d.next = true;
            }
        }
        // ---------------- filter: the four lanes in parallel, one clock per pass ----------------
        self.lmode.next = 0.into();
        if self.x_eop.val() >= 7 {
            self.lmode.next = 1.into();
        }
        if self.x_eop.val() == 6 {
            self.lmode.next = 2.into();
        }
        self.lfirst.next = self.h_fl.val().get_bit(0);
        self.ls3.next = 0.into();
        if self.h_fl.val().get_bit(1) {
            self.ls3.next = (bit_cast::<5, 1>(self.h_key.val().get_bits::<1>(1))
                + bit_cast::<5, 1>(self.h_key.val().get_bits::<1>(2)))
                << 3;
        }
        self.lane0.fmt.next = self.h_fs.val().get_bits::<5>(0);
        self.lane0.swz.next = self.h_fs.val().get_bits::<12>(5);
        for c in 0..4 {
            self.lane0.bcol[c].next = self.h_bcol[c].val();
            self.lane0.ps_e[c].next = self.sum_e[c].q.val();
            self.lane0.ps_acc[c].next = self.sum_acc[c].q.val();
            self.lane0.ps_fl[c].next = self.sum_fl[c].q.val();
        }
        self.lane0.trilinear.next = self.h_key.val().get_bit(1) & !self.h_fl.val().get_bit(1);
        self.lane0.linear.next = self.h_key.val().get_bit(2);
        self.lane0.one_d.next = self.h_misc.val().get_bit(4);
        self.lane0.mode.next = self.lmode.val();
        self.lane0.func.next = self.h_misc.val().get_bits::<3>(5);
        self.lane0.gcomp.next = self.h_misc.val().get_bits::<2>(8);
        self.lane0.first.next = self.lfirst.val();
        self.lane0.s3.next = self.ls3.val();
        self.lane0.pw.next = 1.into();
        if self.h_fl.val().get_bit(1) {
            self.lane0.pw.next = self.h_pw[0].val();
        }
        for k in 0..8 {
            self.lane0.lo[k].next = self.slo[k].q.val();
            self.lane0.hi[k].next = self.shi[k].q.val();
            self.lane0.border[k].next =
                self.x_border.q.val().get_bit(k) | self.h_bord.val().get_bit(0);
        }
        self.lane0.wu.next = self.x_wu[0].q.val();
        self.lane0.wv.next = self.x_wv[0].q.val();
        self.lane0.wu1.next = self.x_wu1[0].q.val();
        self.lane0.wv1.next = self.x_wv1[0].q.val();
        self.lane0.frac.next = self.h_frac[0].val();
        self.lane0.reference.next = self.h_ref[0].val();
        self.lane0.n.next = self.h_np[0].val();
        self.lane1.fmt.next = self.h_fs.val().get_bits::<5>(0);
        self.lane1.swz.next = self.h_fs.val().get_bits::<12>(5);
        for c in 0..4 {
            self.lane1.bcol[c].next = self.h_bcol[c].val();
            self.lane1.ps_e[c].next = self.sum_e[4 + c].q.val();
            self.lane1.ps_acc[c].next = self.sum_acc[4 + c].q.val();
            self.lane1.ps_fl[c].next = self.sum_fl[4 + c].q.val();
        }
        self.lane1.trilinear.next = self.h_key.val().get_bit(1) & !self.h_fl.val().get_bit(1);
        self.lane1.linear.next = self.h_key.val().get_bit(2);
        self.lane1.one_d.next = self.h_misc.val().get_bit(4);
        self.lane1.mode.next = self.lmode.val();
        self.lane1.func.next = self.h_misc.val().get_bits::<3>(5);
        self.lane1.gcomp.next = self.h_misc.val().get_bits::<2>(8);
        self.lane1.first.next = self.lfirst.val();
        self.lane1.s3.next = self.ls3.val();
        self.lane1.pw.next = 1.into();
        if self.h_fl.val().get_bit(1) {
            self.lane1.pw.next = self.h_pw[1].val();
        }
        for k in 0..8 {
            self.lane1.lo[k].next = self.slo[8 + k].q.val();
            self.lane1.hi[k].next = self.shi[8 + k].q.val();
            self.lane1.border[k].next =
                self.x_border.q.val().get_bit(8 + k) | self.h_bord.val().get_bit(1);
        }
        self.lane1.wu.next = self.x_wu[1].q.val();
        self.lane1.wv.next = self.x_wv[1].q.val();
        self.lane1.wu1.next = self.x_wu1[1].q.val();
        self.lane1.wv1.next = self.x_wv1[1].q.val();
        self.lane1.frac.next = self.h_frac[1].val();
        self.lane1.reference.next = self.h_ref[1].val();
        self.lane1.n.next = self.h_np[1].val();
        self.lane2.fmt.next = self.h_fs.val().get_bits::<5>(0);
        self.lane2.swz.next = self.h_fs.val().get_bits::<12>(5);
        for c in 0..4 {
            self.lane2.bcol[c].next = self.h_bcol[c].val();
            self.lane2.ps_e[c].next = self.sum_e[8 + c].q.val();
            self.lane2.ps_acc[c].next = self.sum_acc[8 + c].q.val();
            self.lane2.ps_fl[c].next = self.sum_fl[8 + c].q.val();
        }
        self.lane2.trilinear.next = self.h_key.val().get_bit(1) & !self.h_fl.val().get_bit(1);
        self.lane2.linear.next = self.h_key.val().get_bit(2);
        self.lane2.one_d.next = self.h_misc.val().get_bit(4);
        self.lane2.mode.next = self.lmode.val();
        self.lane2.func.next = self.h_misc.val().get_bits::<3>(5);
        self.lane2.gcomp.next = self.h_misc.val().get_bits::<2>(8);
        self.lane2.first.next = self.lfirst.val();
        self.lane2.s3.next = self.ls3.val();
        self.lane2.pw.next = 1.into();
        if self.h_fl.val().get_bit(1) {
            self.lane2.pw.next = self.h_pw[2].val();
        }
        for k in 0..8 {
            self.lane2.lo[k].next = self.slo[16 + k].q.val();
            self.lane2.hi[k].next = self.shi[16 + k].q.val();
            self.lane2.border[k].next =
                self.x_border.q.val().get_bit(16 + k) | self.h_bord.val().get_bit(2);
        }
        self.lane2.wu.next = self.x_wu[2].q.val();
        self.lane2.wv.next = self.x_wv[2].q.val();
        self.lane2.wu1.next = self.x_wu1[2].q.val();
        self.lane2.wv1.next = self.x_wv1[2].q.val();
        self.lane2.frac.next = self.h_frac[2].val();
        self.lane2.reference.next = self.h_ref[2].val();
        self.lane2.n.next = self.h_np[2].val();
        self.lane3.fmt.next = self.h_fs.val().get_bits::<5>(0);
        self.lane3.swz.next = self.h_fs.val().get_bits::<12>(5);
        for c in 0..4 {
            self.lane3.bcol[c].next = self.h_bcol[c].val();
            self.lane3.ps_e[c].next = self.sum_e[12 + c].q.val();
            self.lane3.ps_acc[c].next = self.sum_acc[12 + c].q.val();
            self.lane3.ps_fl[c].next = self.sum_fl[12 + c].q.val();
        }
        self.lane3.trilinear.next = self.h_key.val().get_bit(1) & !self.h_fl.val().get_bit(1);
        self.lane3.linear.next = self.h_key.val().get_bit(2);
        self.lane3.one_d.next = self.h_misc.val().get_bit(4);
        self.lane3.mode.next = self.lmode.val();
        self.lane3.func.next = self.h_misc.val().get_bits::<3>(5);
        self.lane3.gcomp.next = self.h_misc.val().get_bits::<2>(8);
        self.lane3.first.next = self.lfirst.val();
        self.lane3.s3.next = self.ls3.val();
        self.lane3.pw.next = 1.into();
        if self.h_fl.val().get_bit(1) {
            self.lane3.pw.next = self.h_pw[3].val();
        }
        for k in 0..8 {
            self.lane3.lo[k].next = self.slo[24 + k].q.val();
            self.lane3.hi[k].next = self.shi[24 + k].q.val();
            self.lane3.border[k].next =
                self.x_border.q.val().get_bit(24 + k) | self.h_bord.val().get_bit(3);
        }
        self.lane3.wu.next = self.x_wu[3].q.val();
        self.lane3.wv.next = self.x_wv[3].q.val();
        self.lane3.wu1.next = self.x_wu1[3].q.val();
        self.lane3.wv1.next = self.x_wv1[3].q.val();
        self.lane3.frac.next = self.h_frac[3].val();
        self.lane3.reference.next = self.h_ref[3].val();
        self.lane3.n.next = self.h_np[3].val();
        // lodq: each lane's λ and λ' as f32 (a NaN λ' is the canonical NaN).
        self.cv_lam0.a.next = bit_cast::<24, 16>(self.h_lam[0].val());
        self.cv_unc0.a.next = self.h_unc[0].val();
        self.unc_f[0].next = self.cv_unc0.y.val();
        if self.h_unc[0].val() == bits::<24>(0x80_0000) {
            self.unc_f[0].next = bits::<32>(0x7FC0_0000);
        }
        self.cv_lam1.a.next = bit_cast::<24, 16>(self.h_lam[1].val());
        self.cv_unc1.a.next = self.h_unc[1].val();
        self.unc_f[1].next = self.cv_unc1.y.val();
        if self.h_unc[1].val() == bits::<24>(0x80_0000) {
            self.unc_f[1].next = bits::<32>(0x7FC0_0000);
        }
        self.cv_lam2.a.next = bit_cast::<24, 16>(self.h_lam[2].val());
        self.cv_unc2.a.next = self.h_unc[2].val();
        self.unc_f[2].next = self.cv_unc2.y.val();
        if self.h_unc[2].val() == bits::<24>(0x80_0000) {
            self.unc_f[2].next = bits::<32>(0x7FC0_0000);
        }
        self.cv_lam3.a.next = bit_cast::<24, 16>(self.h_lam[3].val());
        self.cv_unc3.a.next = self.h_unc[3].val();
        self.unc_f[3].next = self.cv_unc3.y.val();
        if self.h_unc[3].val() == bits::<24>(0x80_0000) {
            self.unc_f[3].next = bits::<32>(0x7FC0_0000);
        }
        for l in 0..4 {
            self.bfail[l].next = false;
        }
        if self.xgo.val() & (self.x_kind.q.val() == 0) {
            if self.h_mask.val().get_bit(0) {
                if self.x_eop.val() == 5 {
                    for c in 0..4 {
                        self.r_rgba[c].d.next = self.x_size[c].q.val();
                    }
                    if self.h_key.val().get_bit(0) {
                        self.r_rgba[0].d.next = 0.into();
                        self.r_rgba[1].d.next = 0.into();
                        self.r_rgba[2].d.next = 0.into();
                    }
                    if self.x_op.val() == 10 {
                        self.r_rgba[0].d.next = self.cv_lam0.y.val();
                        self.r_rgba[1].d.next = self.unc_f[0].val();
                        self.r_rgba[2].d.next = 0.into();
                        self.r_rgba[3].d.next = 0.into();
                    }
                } else if self.h_act.val().get_bit(0) {
                    // TEXEL_FAIL in any probe zeroes the lane and stays in its status; a
                    // volume's border slice fetches nothing and cannot fail.
                    self.r_status[0].d.next =
                        self.x_status[0].q.val() | (self.rs_prev[0].val() & 1);
                    self.bfail[0].next =
                        self.x_fail.q.val().get_bit(0) | self.rs_prev[0].val().get_bit(0);
                    if self.h_bord.val().get_bit(0) {
                        self.r_status[0].d.next = (self.x_status[0].q.val() & 0xFFFF_FFFE_u64)
                            | (self.rs_prev[0].val() & 1);
                        self.bfail[0].next = self.rs_prev[0].val().get_bit(0);
                    }
                    for c in 0..4 {
                        self.r_rgba[c].d.next = self.lane0.rgba[c].val();
                        if self.bfail[0].val() {
                            self.r_rgba[c].d.next = 0.into();
                        }
                        self.sum_e[c].d.next = self.lane0.ns_e[c].val();
                        self.sum_acc[c].d.next = self.lane0.ns_acc[c].val();
                        self.sum_fl[c].d.next = self.lane0.ns_fl[c].val();
                    }
                }
            }
            if self.h_mask.val().get_bit(1) {
                if self.x_eop.val() == 5 {
                    for c in 0..4 {
                        self.r_rgba[4 + c].d.next = self.x_size[c].q.val();
                    }
                    if self.h_key.val().get_bit(0) {
                        self.r_rgba[4].d.next = 0.into();
                        self.r_rgba[5].d.next = 0.into();
                        self.r_rgba[6].d.next = 0.into();
                    }
                    if self.x_op.val() == 10 {
                        self.r_rgba[4].d.next = self.cv_lam1.y.val();
                        self.r_rgba[5].d.next = self.unc_f[1].val();
                        self.r_rgba[6].d.next = 0.into();
                        self.r_rgba[7].d.next = 0.into();
                    }
                } else if self.h_act.val().get_bit(1) {
                    // TEXEL_FAIL in any probe zeroes the lane and stays in its status; a
                    // volume's border slice fetches nothing and cannot fail.
                    self.r_status[1].d.next =
                        self.x_status[1].q.val() | (self.rs_prev[1].val() & 1);
                    self.bfail[1].next =
                        self.x_fail.q.val().get_bit(1) | self.rs_prev[1].val().get_bit(0);
                    if self.h_bord.val().get_bit(1) {
                        self.r_status[1].d.next = (self.x_status[1].q.val() & 0xFFFF_FFFE_u64)
                            | (self.rs_prev[1].val() & 1);
                        self.bfail[1].next = self.rs_prev[1].val().get_bit(0);
                    }
                    for c in 0..4 {
                        self.r_rgba[4 + c].d.next = self.lane1.rgba[c].val();
                        if self.bfail[1].val() {
                            self.r_rgba[4 + c].d.next = 0.into();
                        }
                        self.sum_e[4 + c].d.next = self.lane1.ns_e[c].val();
                        self.sum_acc[4 + c].d.next = self.lane1.ns_acc[c].val();
                        self.sum_fl[4 + c].d.next = self.lane1.ns_fl[c].val();
                    }
                }
            }
            if self.h_mask.val().get_bit(2) {
                if self.x_eop.val() == 5 {
                    for c in 0..4 {
                        self.r_rgba[8 + c].d.next = self.x_size[c].q.val();
                    }
                    if self.h_key.val().get_bit(0) {
                        self.r_rgba[8].d.next = 0.into();
                        self.r_rgba[9].d.next = 0.into();
                        self.r_rgba[10].d.next = 0.into();
                    }
                    if self.x_op.val() == 10 {
                        self.r_rgba[8].d.next = self.cv_lam2.y.val();
                        self.r_rgba[9].d.next = self.unc_f[2].val();
                        self.r_rgba[10].d.next = 0.into();
                        self.r_rgba[11].d.next = 0.into();
                    }
                } else if self.h_act.val().get_bit(2) {
                    // TEXEL_FAIL in any probe zeroes the lane and stays in its status; a
                    // volume's border slice fetches nothing and cannot fail.
                    self.r_status[2].d.next =
                        self.x_status[2].q.val() | (self.rs_prev[2].val() & 1);
                    self.bfail[2].next =
                        self.x_fail.q.val().get_bit(2) | self.rs_prev[2].val().get_bit(0);
                    if self.h_bord.val().get_bit(2) {
                        self.r_status[2].d.next = (self.x_status[2].q.val() & 0xFFFF_FFFE_u64)
                            | (self.rs_prev[2].val() & 1);
                        self.bfail[2].next = self.rs_prev[2].val().get_bit(0);
                    }
                    for c in 0..4 {
                        self.r_rgba[8 + c].d.next = self.lane2.rgba[c].val();
                        if self.bfail[2].val() {
                            self.r_rgba[8 + c].d.next = 0.into();
                        }
                        self.sum_e[8 + c].d.next = self.lane2.ns_e[c].val();
                        self.sum_acc[8 + c].d.next = self.lane2.ns_acc[c].val();
                        self.sum_fl[8 + c].d.next = self.lane2.ns_fl[c].val();
                    }
                }
            }
            if self.h_mask.val().get_bit(3) {
                if self.x_eop.val() == 5 {
                    for c in 0..4 {
                        self.r_rgba[12 + c].d.next = self.x_size[c].q.val();
                    }
                    if self.h_key.val().get_bit(0) {
                        self.r_rgba[12].d.next = 0.into();
                        self.r_rgba[13].d.next = 0.into();
                        self.r_rgba[14].d.next = 0.into();
                    }
                    if self.x_op.val() == 10 {
                        self.r_rgba[12].d.next = self.cv_lam3.y.val();
                        self.r_rgba[13].d.next = self.unc_f[3].val();
                        self.r_rgba[14].d.next = 0.into();
                        self.r_rgba[15].d.next = 0.into();
                    }
                } else if self.h_act.val().get_bit(3) {
                    // TEXEL_FAIL in any probe zeroes the lane and stays in its status; a
                    // volume's border slice fetches nothing and cannot fail.
                    self.r_status[3].d.next =
                        self.x_status[3].q.val() | (self.rs_prev[3].val() & 1);
                    self.bfail[3].next =
                        self.x_fail.q.val().get_bit(3) | self.rs_prev[3].val().get_bit(0);
                    if self.h_bord.val().get_bit(3) {
                        self.r_status[3].d.next = (self.x_status[3].q.val() & 0xFFFF_FFFE_u64)
                            | (self.rs_prev[3].val() & 1);
                        self.bfail[3].next = self.rs_prev[3].val().get_bit(0);
                    }
                    for c in 0..4 {
                        self.r_rgba[12 + c].d.next = self.lane3.rgba[c].val();
                        if self.bfail[3].val() {
                            self.r_rgba[12 + c].d.next = 0.into();
                        }
                        self.sum_e[12 + c].d.next = self.lane3.ns_e[c].val();
                        self.sum_acc[12 + c].d.next = self.lane3.ns_acc[c].val();
                        self.sum_fl[12 + c].d.next = self.lane3.ns_fl[c].val();
                    }
                }
            }
        }
        if self.pop.val() {
            self.pq_rd.d.next = self.pq_rd.q.val() + 1;
            for e in 0..8 {
                if self.pq_rd.q.val().index() == e {
                    self.pq_live[e].d.next = false;
                }
            }
        }
        self.pq_n.d.next = self.pq_n.q.val() + bit_cast::<4, 1>(self.push.val().into())
            - bit_cast::<4, 1>(self.pop.val().into());

        // ---------------- result ----------------
        self.out_valid.next = self.r_valid.q.val();
        self.out_tag.next = self.q_tag.q.val();
        for k in 0..16 {
            self.out_rgba[k].next = self.r_rgba[k].q.val();
        }
        for l in 0..4 {
            self.out_status[l].next = self.r_status[l].q.val();
            self.out_lambda[l].next = self.r_lambda[l].q.val();
        }
        self.out_fault.next = self.r_fault.q.val();
        self.out_wmask.next = self.q_wmask.q.val();
        // MIMG: the returned dwords (DMASK components, D16 packing, status dword).
        self.int_res.next =
            (self.q_isint.q.val() & (self.q_op.q.val() != 10)) | (self.q_op.q.val() == 5);
        self.pack0.int_result.next = self.int_res.val();
        self.pack0.dmask.next = self.q_wmask.q.val();
        self.pack0.d16.next = self.q_d16.q.val();
        self.pack0.tfe.next = self.q_tfe.q.val();
        self.pack0.lwe.next = self.q_lwe.q.val();
        self.pack0.status.next = self.r_status[0].q.val();
        self.pack1.int_result.next = self.int_res.val();
        self.pack1.dmask.next = self.q_wmask.q.val();
        self.pack1.d16.next = self.q_d16.q.val();
        self.pack1.tfe.next = self.q_tfe.q.val();
        self.pack1.lwe.next = self.q_lwe.q.val();
        self.pack1.status.next = self.r_status[1].q.val();
        self.pack2.int_result.next = self.int_res.val();
        self.pack2.dmask.next = self.q_wmask.q.val();
        self.pack2.d16.next = self.q_d16.q.val();
        self.pack2.tfe.next = self.q_tfe.q.val();
        self.pack2.lwe.next = self.q_lwe.q.val();
        self.pack2.status.next = self.r_status[2].q.val();
        self.pack3.int_result.next = self.int_res.val();
        self.pack3.dmask.next = self.q_wmask.q.val();
        self.pack3.d16.next = self.q_d16.q.val();
        self.pack3.tfe.next = self.q_tfe.q.val();
        self.pack3.lwe.next = self.q_lwe.q.val();
        self.pack3.status.next = self.r_status[3].q.val();
        for c in 0..4 {
            self.pack0.rgba[c].next = self.r_rgba[c].q.val();
            self.pack1.rgba[c].next = self.r_rgba[4 + c].q.val();
            self.pack2.rgba[c].next = self.r_rgba[8 + c].q.val();
            self.pack3.rgba[c].next = self.r_rgba[12 + c].q.val();
        }
        for k in 0..5 {
            self.out_vdata[k].next = self.pack0.dw[k].val();
            self.out_vdata[5 + k].next = self.pack1.dw[k].val();
            self.out_vdata[10 + k].next = self.pack2.dw[k].val();
            self.out_vdata[15 + k].next = self.pack3.dw[k].val();
        }
        self.out_vcount.next = self.pack0.count.val();
        self.out_kill.next = self.r_kill.q.val();
        self.out_lines.next = self.r_lines.q.val();
        if self.reset.val() {
            self.state.d.next = 0.into();
            self.fst.d.next = 0.into();
            self.g_n.d.next = 0.into();
            self.g_rd.d.next = 0.into();
            self.g_wr.d.next = 0.into();
            for e in 0..8 {
                self.g_live[e].d.next = false;
            }
            self.b2st.d.next = 0.into();
            self.x_valid.d.next = false;
            self.r_valid.d.next = false;
            self.dead.d.next = false;
            self.pq_n.d.next = 0.into();
            self.pq_rd.d.next = 0.into();
            self.pq_wr.d.next = 0.into();
            for e in 0..8 {
                self.pq_live[e].d.next = false;
            }
            self.rounds.d.next = 0.into();
        }
    }
}
