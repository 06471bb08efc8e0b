//! One lane's fixed-point LOD back end: anisotropy, bias, rounding, clamps, level selection and
//! status (steps 4–8 of the algorithm in docs/units/lod.md §3 and `texpix_tb::lod`).
//!
//! # Ports
//! Inputs: `lx`/`ly` = log2(ρx²)/log2(ρy²)·2^16 (= λ·2^17, within ±2^28: the log's range is
//! ±150·2^16) with their zero/inf/nan flags, `lfix` (explicit LOD or shader bias, λ·2^17, any
//! 32-bit value) and `lnan`, and the quad's configuration: `mode` (0 implicit, 1 grad, 2 lod,
//! 3 bias, 4 lz), `sbias` (sampler bias·256, 16-bit two's complement), `aniso` (1…16), `lo` =
//! max(min_lod, .LC) and `hi` = max_lod (·256), `warn` (min_lod_warning·256), `levels` (1…16),
//! `base` (0…15), `mip` (0 none, 1 nearest, 2 linear).
//! Outputs: `lambda` (λ·256), `unclamped` (λ'·256 before the min/max clamps, for LOD queries;
//! [`UNCLAMPED_NAN`] for a NaN lane), `level0`, `level1`, `frac`, `magnify`, `lod_warning`,
//! `probes` (N = ⌈η⌉; 1 for lod, lz and NaN lanes), `major_y` (the footprint's major axis is y:
//! ρy > ρx; 0 on a tie and wherever `probes` is forced to 1), `status` (the TFE word without
//! TEXEL_FAIL).
//!
//! # Structure and timing
//! Five combinational pieces in a row, each one adder or comparator deep:
//! [`FinOrder`] (saturated logs, both differences, the anisotropy threshold, the lane operand),
//! [`FinSelect`] (major axis, threshold compare, base λ, bias offset), [`FinSum`] (λ' + ½, probe
//! count), [`FinClamp`] (rounding, min/max clamps) and [`FinLevels`] (levels, fraction, warning).
//! [`LodFinish`] puts `S ≥ 0` register stages between them ([`FINISH_CUTS`]; stages beyond four
//! follow the last piece): latency `S` enabled clocks, one lane per clock. At `S = 0` it is
//! combinational and settles within one simulation pass ([`crate::common::settle`]).
//!
//! # Arithmetic
//! 32-bit two's complement up to the clamps, 16-bit λ after them and 5-bit levels; signed
//! comparisons flip the sign bit and compare unsigned. The only rounding: λ'·2^17 → λ·2^8 is ⌊(x + 2^8)/2^9⌋ (half up),
//! after saturation to ±2^28. The hardware adds the ½ before it saturates and saturates the
//! rounded value to ±2^19 instead — the same result, because rounding is monotonic and maps ±2^28
//! to ±2^19 — and clamps λ to [lo, hi] without that saturation (lo and hi lie inside ±2^19). The
//! explicit LOD is saturated to ±2^28 first, so the ½ cannot overflow.

use super::aniso_log2_table;
use crate::common::fp::Retime;
use rust_hdl::prelude::*;

/// `unclamped` of a NaN lane: −2^23 in 24-bit two's complement (values stay within ±2^19).
pub const UNCLAMPED_NAN: u32 = 0x80_0000;

/// Piece 1: the saturated logs `vx`, `vy` (0 ⇒ −2^28, +Inf ⇒ +2^28), both differences
/// `dxy = vx − vy`, `dyx = vy − vx`, the anisotropy threshold `ta` = log2(aniso)·2^17 (0 for
/// `aniso` 0 and 17…31) and both axes less it (`xmt`, `ymt`), `iso` (aniso ≤ 1), and from the mode
/// the lane operand `lsel` (lod: `lfix` saturated to ±2^28; bias: `lfix` clamped to ±16·2^17;
/// else 0), the offset word `offb` (½·2^9 = 256, plus the sampler bias·2^9 unless lod or lz),
/// `lbz` (the base λ is replaced: lod, lz), `force1` (one probe on the x axis: lod, lz, NaN
/// lengths) and `nan` (the lane is NaN).
#[derive(Clone, Debug, LogicBlock)]
pub struct FinOrder {
    /// log2(ρx²)·2^16.
    pub lx: Signal<In, Bits<32>>,
    /// log2(ρy²)·2^16.
    pub ly: Signal<In, Bits<32>>,
    /// ρx² = 0.
    pub x_zero: Signal<In, Bit>,
    /// ρx² = +Inf.
    pub x_inf: Signal<In, Bit>,
    /// ρx² NaN.
    pub x_nan: Signal<In, Bit>,
    /// ρy² = 0.
    pub y_zero: Signal<In, Bit>,
    /// ρy² = +Inf.
    pub y_inf: Signal<In, Bit>,
    /// ρy² NaN.
    pub y_nan: Signal<In, Bit>,
    /// Explicit LOD or shader bias, λ·2^17.
    pub lfix: Signal<In, Bits<32>>,
    /// That operand was NaN.
    pub lnan: Signal<In, Bit>,
    /// LOD mode.
    pub mode: Signal<In, Bits<3>>,
    /// Sampler bias·256, two's complement.
    pub sbias: Signal<In, Bits<16>>,
    /// Max anisotropy.
    pub aniso: Signal<In, Bits<5>>,
    /// Saturated log2(ρx²)·2^16.
    pub vx: Signal<Out, Bits<32>>,
    /// Saturated log2(ρy²)·2^16.
    pub vy: Signal<Out, Bits<32>>,
    /// vx − vy.
    pub dxy: Signal<Out, Bits<32>>,
    /// vy − vx.
    pub dyx: Signal<Out, Bits<32>>,
    /// vx − ta.
    pub xmt: Signal<Out, Bits<32>>,
    /// vy − ta.
    pub ymt: Signal<Out, Bits<32>>,
    /// Anisotropy threshold.
    pub ta: Signal<Out, Bits<32>>,
    /// aniso ≤ 1.
    pub iso: Signal<Out, Bit>,
    /// Lane operand.
    pub lsel: Signal<Out, Bits<32>>,
    /// Offset word: 256 + sampler bias·2^9 (256 alone for lod and lz).
    pub offb: Signal<Out, Bits<32>>,
    /// The base λ is replaced by 0 (lod, lz).
    pub lbz: Signal<Out, Bit>,
    /// One probe on the x axis.
    pub force1: Signal<Out, Bit>,
    /// The lane is NaN.
    pub nan: Signal<Out, Bit>,
    /// round(log2(k)·2^17), k = 0…16.
    tab: [Constant<Bits<32>>; 17],
    /// k = 0…16 as 5-bit constants (loop-dependent literals must be constants in `#[hdl_gen]`).
    kval: [Constant<Bits<5>>; 17],
    lsat: Signal<Local, Bits<32>>,
    sb: Signal<Local, Bits<32>>,
    sb32: Signal<Local, Bits<32>>,
}

impl Default for FinOrder {
    fn default() -> Self {
        let t = aniso_log2_table();
        Self {
            lx: Default::default(),
            ly: Default::default(),
            x_zero: Default::default(),
            x_inf: Default::default(),
            x_nan: Default::default(),
            y_zero: Default::default(),
            y_inf: Default::default(),
            y_nan: Default::default(),
            lfix: Default::default(),
            lnan: Default::default(),
            mode: Default::default(),
            sbias: Default::default(),
            aniso: Default::default(),
            vx: Default::default(),
            vy: Default::default(),
            dxy: Default::default(),
            dyx: Default::default(),
            xmt: Default::default(),
            ymt: Default::default(),
            ta: Default::default(),
            iso: Default::default(),
            lsel: Default::default(),
            offb: Default::default(),
            lbz: Default::default(),
            force1: Default::default(),
            nan: Default::default(),
            tab: std::array::from_fn(|k| Constant::new((t[k] as u64).into())),
            kval: std::array::from_fn(|k| Constant::new((k as u64).into())),
            lsat: Default::default(),
            sb: Default::default(),
            sb32: Default::default(),
        }
    }
}

impl Logic for FinOrder {
    #[hdl_gen]
    fn update(&mut self) {
        self.vx.next = self.lx.val();
        if self.x_zero.val() {
            self.vx.next = bits::<32>(0xF000_0000_u64);
        }
        if self.x_inf.val() {
            self.vx.next = bits::<32>(0x1000_0000_u64);
        }
        self.vy.next = self.ly.val();
        if self.y_zero.val() {
            self.vy.next = bits::<32>(0xF000_0000_u64);
        }
        if self.y_inf.val() {
            self.vy.next = bits::<32>(0x1000_0000_u64);
        }
        self.dxy.next = self.vx.val() - self.vy.val();
        self.dyx.next = self.vy.val() - self.vx.val();
        self.ta.next = self.tab[0].val();
        for k in 0..17 {
            if self.aniso.val() == self.kval[k].val() {
                self.ta.next = self.tab[k].val();
            }
        }
        self.xmt.next = self.vx.val() - self.ta.val();
        self.ymt.next = self.vy.val() - self.ta.val();
        self.iso.next = self.aniso.val() < bits::<5>(2);
        // The operand, saturated to ±2^28 (lod) or clamped to ±2^21 (shader bias), both compares
        // on the raw value.
        self.lsat.next = self.lfix.val();
        if (self.lfix.val() ^ bits::<32>(0x8000_0000_u64)) > bits::<32>(0x9000_0000_u64) {
            self.lsat.next = bits::<32>(0x1000_0000_u64);
        }
        if (self.lfix.val() ^ bits::<32>(0x8000_0000_u64)) < bits::<32>(0x7000_0000_u64) {
            self.lsat.next = bits::<32>(0xF000_0000_u64);
        }
        self.sb.next = self.lfix.val();
        if (self.lfix.val() ^ bits::<32>(0x8000_0000_u64)) > bits::<32>(0x8020_0000_u64) {
            self.sb.next = bits::<32>(0x0020_0000_u64);
        }
        if (self.lfix.val() ^ bits::<32>(0x8000_0000_u64)) < bits::<32>(0x7FE0_0000_u64) {
            self.sb.next = bits::<32>(0xFFE0_0000_u64);
        }
        self.sb32.next = bit_cast::<32, 16>(self.sbias.val());
        if self.sbias.val().get_bit(15) {
            self.sb32.next = self.sb32.val() | bits::<32>(0xFFFF_0000_u64);
        }
        self.lsel.next = bits::<32>(0);
        self.offb.next = (self.sb32.val() << 9) | bits::<32>(256);
        self.lbz.next = false;
        self.force1.next = self.x_nan.val() | self.y_nan.val();
        self.nan.next = self.x_nan.val() | self.y_nan.val();
        match self.mode.val().index() {
            2 => {
                self.lsel.next = self.lsat.val();
                self.offb.next = bits::<32>(256);
                self.lbz.next = true;
                self.force1.next = true;
                self.nan.next = self.lnan.val();
            }
            3 => {
                self.lsel.next = self.sb.val();
                self.nan.next = self.nan.val() | self.lnan.val();
            }
            4 => {
                self.offb.next = bits::<32>(256);
                self.lbz.next = true;
                self.force1.next = true;
                self.nan.next = false;
            }
            _ => {}
        }
    }
}

crate::settled_block! {
/// Piece 2: the major axis (`ymaj`: vy > vx, so `dxy` is negative; cleared by `force1`), the
/// log ratio `diff` = |vx − vy|, `ge` = diff ≥ ta, the base λ `lb` (the major axis when `iso`,
/// major − ta when `ge`, else the minor axis; 0 when `lbz`) and the offset `off = offb + lsel`.
#[derive(Clone, Debug, Default)]
pub struct FinSelect {
    /// Saturated log2(ρx²)·2^16.
    pub vx: Signal<In, Bits<32>>,
    /// Saturated log2(ρy²)·2^16.
    pub vy: Signal<In, Bits<32>>,
    /// vx − vy.
    pub dxy: Signal<In, Bits<32>>,
    /// vy − vx.
    pub dyx: Signal<In, Bits<32>>,
    /// vx − ta.
    pub xmt: Signal<In, Bits<32>>,
    /// vy − ta.
    pub ymt: Signal<In, Bits<32>>,
    /// Anisotropy threshold.
    pub ta: Signal<In, Bits<32>>,
    /// aniso ≤ 1.
    pub iso: Signal<In, Bit>,
    /// Lane operand.
    pub lsel: Signal<In, Bits<32>>,
    /// Offset word.
    pub offb: Signal<In, Bits<32>>,
    /// The base λ is replaced by 0.
    pub lbz: Signal<In, Bit>,
    /// One probe on the x axis.
    pub force1: Signal<In, Bit>,
    /// |vx − vy|.
    pub diff: Signal<Out, Bits<32>>,
    /// diff ≥ ta.
    pub ge: Signal<Out, Bit>,
    /// Base λ·2^17.
    pub lb: Signal<Out, Bits<32>>,
    /// Offset: bias·2^17 + ½·2^9, or the saturated LOD + ½·2^9.
    pub off: Signal<Out, Bits<32>>,
    /// The major axis is y.
    pub ymaj: Signal<Out, Bit>,
    ymj: Signal<Local, Bit>,
    lmax: Signal<Local, Bits<32>>,
    lmin: Signal<Local, Bits<32>>,
    lmt: Signal<Local, Bits<32>>,
}
}

impl Logic for FinSelect {
    #[hdl_gen]
    fn update(&mut self) {
        self.ymj.next = self.dxy.val().get_bit(31);
        self.diff.next = self.dxy.val();
        self.lmax.next = self.vx.val();
        self.lmin.next = self.vy.val();
        self.lmt.next = self.xmt.val();
        if self.ymj.val() {
            self.diff.next = self.dyx.val();
            self.lmax.next = self.vy.val();
            self.lmin.next = self.vx.val();
            self.lmt.next = self.ymt.val();
        }
        self.ge.next = self.diff.val() >= self.ta.val();
        self.lb.next = self.lmax.val();
        if !self.iso.val() {
            if self.ge.val() {
                self.lb.next = self.lmt.val();
            } else {
                self.lb.next = self.lmin.val();
            }
        }
        if self.lbz.val() {
            self.lb.next = bits::<32>(0);
        }
        self.off.next = self.offb.val() + self.lsel.val();
        self.ymaj.next = self.ymj.val() & !self.force1.val();
    }
}

/// Piece 3: `r` = λ'·2^17 + 2^8 = `lb + off`, and the probe count: 1 when `iso` or `force1`,
/// `aniso` when `ge`, else ⌈η⌉ = 1 + the number of thresholds log2(k)·2^17, k = 1…16, below
/// `diff` (all of them lie below log2(aniso) then, so no mask by `aniso` is needed).
#[derive(Clone, Debug, LogicBlock)]
pub struct FinSum {
    /// Base λ·2^17.
    pub lb: Signal<In, Bits<32>>,
    /// Offset.
    pub off: Signal<In, Bits<32>>,
    /// |vx − vy|.
    pub diff: Signal<In, Bits<32>>,
    /// diff ≥ ta.
    pub ge: Signal<In, Bit>,
    /// aniso ≤ 1.
    pub iso: Signal<In, Bit>,
    /// One probe.
    pub force1: Signal<In, Bit>,
    /// Max anisotropy.
    pub aniso: Signal<In, Bits<5>>,
    /// λ'·2^17 + 2^8.
    pub r: Signal<Out, Bits<32>>,
    /// Probe count.
    pub probes: Signal<Out, Bits<5>>,
    /// `thr[j]` = round(log2(j + 1)·2^17), j = 0…15.
    thr: [Constant<Bits<32>>; 16],
    /// `cnt_above[j]` = j + 2: the count when `diff` lies above `thr[j]` and no higher threshold.
    cnt_above: [Constant<Bits<5>>; 16],
    cnt: Signal<Local, Bits<5>>,
}

impl Default for FinSum {
    fn default() -> Self {
        let t = aniso_log2_table();
        Self {
            lb: Default::default(),
            off: Default::default(),
            diff: Default::default(),
            ge: Default::default(),
            iso: Default::default(),
            force1: Default::default(),
            aniso: Default::default(),
            r: Default::default(),
            probes: Default::default(),
            thr: std::array::from_fn(|j| Constant::new((t[j + 1] as u64).into())),
            cnt_above: std::array::from_fn(|j| Constant::new(((j + 2) as u64).into())),
            cnt: Default::default(),
        }
    }
}

impl Logic for FinSum {
    #[hdl_gen]
    fn update(&mut self) {
        self.r.next = self.lb.val() + self.off.val();
        // The thresholds rise with k, so the last k below diff is their count.
        self.cnt.next = bits::<5>(1);
        for j in 0..16 {
            if self.diff.val() > self.thr[j].val() {
                self.cnt.next = self.cnt_above[j].val();
            }
        }
        self.probes.next = bits::<5>(1);
        if !self.iso.val() {
            if self.ge.val() {
                self.probes.next = self.aniso.val();
            } else {
                self.probes.next = self.cnt.val();
            }
        }
        if self.force1.val() {
            self.probes.next = bits::<5>(1);
        }
    }
}

crate::settled_block! {
/// Piece 4: λ'·256 = ⌊r / 2^9⌋ (arithmetic), `unclamped` = that saturated to ±2^19 (24 bits;
/// [`UNCLAMPED_NAN`] when `nan`), and `lambda` = max(lo, min(hi, λ')) (lo when `nan`; lo when
/// lo > hi).
#[derive(Clone, Debug, Default)]
pub struct FinClamp {
    /// λ'·2^17 + 2^8.
    pub r: Signal<In, Bits<32>>,
    /// The lane is NaN.
    pub nan: Signal<In, Bit>,
    /// Lower clamp·256.
    pub lo: Signal<In, Bits<16>>,
    /// Upper clamp·256.
    pub hi: Signal<In, Bits<16>>,
    /// λ·256.
    pub lambda: Signal<Out, Bits<16>>,
    /// λ'·256 before the clamps.
    pub unclamped: Signal<Out, Bits<24>>,
    l8: Signal<Local, Bits<32>>,
    ls: Signal<Local, Bits<32>>,
    lo32: Signal<Local, Bits<32>>,
    hi32: Signal<Local, Bits<32>>,
    lam: Signal<Local, Bits<32>>,
}
}

impl Logic for FinClamp {
    #[hdl_gen]
    fn update(&mut self) {
        self.l8.next = self.r.val() >> 9;
        if self.r.val().get_bit(31) {
            self.l8.next = self.l8.val() | bits::<32>(0xFF80_0000_u64);
        }
        self.ls.next = self.l8.val();
        if (self.l8.val() ^ bits::<32>(0x8000_0000_u64)) > bits::<32>(0x8008_0000_u64) {
            self.ls.next = bits::<32>(0x0008_0000_u64);
        }
        if (self.l8.val() ^ bits::<32>(0x8000_0000_u64)) < bits::<32>(0x7FF8_0000_u64) {
            self.ls.next = bits::<32>(0xFFF8_0000_u64);
        }
        self.unclamped.next = bit_cast::<24, 32>(self.ls.val());
        if self.nan.val() {
            self.unclamped.next = bits::<24>(0x80_0000);
        }
        // min(hi, λ') < lo exactly when hi < lo or λ' < lo.
        self.lo32.next = bit_cast::<32, 16>(self.lo.val());
        self.hi32.next = bit_cast::<32, 16>(self.hi.val());
        self.lam.next = self.l8.val();
        if (self.l8.val() ^ bits::<32>(0x8000_0000_u64))
            > (self.hi32.val() | bits::<32>(0x8000_0000_u64))
        {
            self.lam.next = self.hi32.val();
        }
        if ((self.l8.val() ^ bits::<32>(0x8000_0000_u64))
            < (self.lo32.val() | bits::<32>(0x8000_0000_u64)))
            | (self.hi.val() < self.lo.val())
            | self.nan.val()
        {
            self.lam.next = self.lo32.val();
        }
        self.lambda.next = bit_cast::<16, 32>(self.lam.val());
    }
}

crate::settled_block! {
/// Piece 5: from λ·256 the levels (d = base + min(λ, q), q = levels − 1; nearest: `level0` =
/// `level1` = ⌊d + ½⌋; linear: ⌊d⌋ and ⌊d⌋ + 1 up to the last level base + q, `frac` the
/// fraction; none: both `base`), `magnify` (λ = 0), `lod_warning` (λ < warn). λ ≥ q·256 exactly
/// when ⌊λ/256⌋ ≥ q, and then every level is the last one; below it ⌊d⌋ + 1 ≤ base + q, so no
/// clamp is needed: the candidates are computed side by side and one select picks them. 5-bit
/// level arithmetic (levels 1…16, base 0…15: results up to 30).
#[derive(Clone, Debug, Default)]
pub struct FinLevels {
    /// λ·256.
    pub lambda: Signal<In, Bits<16>>,
    /// min_lod_warning·256.
    pub warn: Signal<In, Bits<16>>,
    /// Level count.
    pub levels: Signal<In, Bits<5>>,
    /// Base level.
    pub base: Signal<In, Bits<4>>,
    /// Mip filter.
    pub mip: Signal<In, Bits<2>>,
    /// First level.
    pub level0: Signal<Out, Bits<5>>,
    /// Second level.
    pub level1: Signal<Out, Bits<5>>,
    /// Mip fraction, /256.
    pub frac: Signal<Out, Bits<8>>,
    /// λ = 0.
    pub magnify: Signal<Out, Bit>,
    /// λ < warn.
    pub lod_warning: Signal<Out, Bit>,
    b5: Signal<Local, Bits<5>>,
    q: Signal<Local, Bits<5>>,
    top: Signal<Local, Bits<5>>,
    lamh: Signal<Local, Bits<8>>,
    lamr: Signal<Local, Bits<17>>,
    at_top: Signal<Local, Bit>,
    near: Signal<Local, Bits<5>>,
    floor: Signal<Local, Bits<5>>,
}
}

impl Logic for FinLevels {
    #[hdl_gen]
    fn update(&mut self) {
        self.b5.next = bit_cast::<5, 4>(self.base.val());
        self.q.next = self.levels.val() - bits::<5>(1);
        self.top.next = self.b5.val() + self.q.val();
        self.lamh.next = bit_cast::<8, 16>(self.lambda.val() >> 8);
        self.lamr.next = (bit_cast::<17, 16>(self.lambda.val()) + bits::<17>(128)) >> 8;
        self.at_top.next = self.lamh.val() >= bit_cast::<8, 5>(self.q.val());
        self.near.next = self.b5.val() + bit_cast::<5, 17>(self.lamr.val());
        self.floor.next = self.b5.val() + bit_cast::<5, 8>(self.lamh.val());
        self.level0.next = self.b5.val();
        self.level1.next = self.b5.val();
        self.frac.next = bits::<8>(0);
        match self.mip.val().index() {
            1 => {
                self.level0.next = self.near.val();
                if self.at_top.val() {
                    self.level0.next = self.top.val();
                }
                self.level1.next = self.level0.val();
            }
            2 => {
                self.level0.next = self.floor.val();
                self.level1.next = self.floor.val() + bits::<5>(1);
                self.frac.next = bit_cast::<8, 16>(self.lambda.val());
                if self.at_top.val() {
                    self.level0.next = self.top.val();
                    self.level1.next = self.top.val();
                    self.frac.next = bits::<8>(0);
                }
            }
            _ => {}
        }
        self.magnify.next = !self.lambda.val().any();
        self.lod_warning.next = self.lambda.val() < self.warn.val();
    }
}

/// Where [`LodFinish`] puts its registers: `FINISH_CUTS[S][j]` says whether the boundary after
/// piece `j + 1` of the five is registered in an `S`-stage build (`S ≥ 4` as `S = 4`): one stage
/// cuts after the probe count, two after the order and the probe count, three after every piece
/// but the clamps, four after every piece; further stages follow the last piece.
pub const FINISH_CUTS: [[bool; 4]; 5] = [
    [false, false, false, false],
    [false, false, true, false],
    [true, false, true, false],
    [true, true, true, false],
    [true, true, true, true],
];

/// Register stages at boundary `j` (after piece `j + 1`) of an `stages`-stage [`LodFinish`].
fn finish_cut(stages: usize, j: usize) -> usize {
    usize::from(FINISH_CUTS[stages.min(4)][j])
}

crate::settled_block! {
/// The back end with `S ≥ 0` register stages. See the module documentation. Each boundary signal
/// is a [`Retime`] of 0 or 1 stages named after the boundary `n` (1–4) it crosses; the
/// configuration goes to the piece that reads it, and the results of the early pieces to the
/// outputs, through delay lines (`*_d`, `*_q`) as long as the boundaries they skip.
#[derive(Clone, Debug)]
pub struct LodFinish {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance (all stages hold while low).
    pub en: Signal<In, Bit>,
    /// log2(ρx²)·2^16.
    pub lx: Signal<In, Bits<32>>,
    /// log2(ρy²)·2^16.
    pub ly: Signal<In, Bits<32>>,
    /// ρx² = 0.
    pub x_zero: Signal<In, Bit>,
    /// ρx² = +Inf.
    pub x_inf: Signal<In, Bit>,
    /// ρx² NaN.
    pub x_nan: Signal<In, Bit>,
    /// ρy² = 0.
    pub y_zero: Signal<In, Bit>,
    /// ρy² = +Inf.
    pub y_inf: Signal<In, Bit>,
    /// ρy² NaN.
    pub y_nan: Signal<In, Bit>,
    /// Explicit LOD or shader bias, λ·2^17.
    pub lfix: Signal<In, Bits<32>>,
    /// That operand was NaN.
    pub lnan: Signal<In, Bit>,
    /// LOD mode.
    pub mode: Signal<In, Bits<3>>,
    /// Sampler bias·256, two's complement.
    pub sbias: Signal<In, Bits<16>>,
    /// Max anisotropy, 1…16.
    pub aniso: Signal<In, Bits<5>>,
    /// Lower clamp·256.
    pub lo: Signal<In, Bits<16>>,
    /// Upper clamp·256.
    pub hi: Signal<In, Bits<16>>,
    /// min_lod_warning·256.
    pub warn: Signal<In, Bits<16>>,
    /// Level count.
    pub levels: Signal<In, Bits<5>>,
    /// Base level.
    pub base: Signal<In, Bits<4>>,
    /// Mip filter.
    pub mip: Signal<In, Bits<2>>,
    /// Final λ·256.
    pub lambda: Signal<Out, Bits<16>>,
    /// λ'·256 before the clamps (after bias, saturation and rounding): 24-bit two's complement,
    /// within ±2^19; [`UNCLAMPED_NAN`] (−2^23, never a value) marks a NaN lane.
    pub unclamped: Signal<Out, Bits<24>>,
    /// First level.
    pub level0: Signal<Out, Bits<5>>,
    /// Second level (trilinear).
    pub level1: Signal<Out, Bits<5>>,
    /// Mip fraction, /256.
    pub frac: Signal<Out, Bits<8>>,
    /// λ ≤ 0.
    pub magnify: Signal<Out, Bit>,
    /// λ < min_lod_warning.
    pub lod_warning: Signal<Out, Bit>,
    /// Anisotropic probe count.
    pub probes: Signal<Out, Bits<5>>,
    /// The major axis is y (ρy > ρx; x on a tie, for NaN lengths and in the lod and lz modes).
    pub major_y: Signal<Out, Bit>,
    /// TFE status word: λ's integer part in bits 16…, the LOD warning in bit 1.
    pub status: Signal<Out, Bits<32>>,
    order: FinOrder,
    pick: FinSelect,
    total: FinSum,
    clamp: FinClamp,
    mips: FinLevels,
    vx1: Retime<Bits<32>>,
    vy1: Retime<Bits<32>>,
    dxy1: Retime<Bits<32>>,
    dyx1: Retime<Bits<32>>,
    xmt1: Retime<Bits<32>>,
    ymt1: Retime<Bits<32>>,
    ta1: Retime<Bits<32>>,
    lsel1: Retime<Bits<32>>,
    offb1: Retime<Bits<32>>,
    /// {force1, lbz, iso}.
    flags1: Retime<Bits<3>>,
    diff2: Retime<Bits<32>>,
    lb2: Retime<Bits<32>>,
    off2: Retime<Bits<32>>,
    /// {force1, iso, ge}.
    flags2: Retime<Bits<3>>,
    r3: Retime<Bits<32>>,
    lam4: Retime<Bits<16>>,
    /// aniso, input → piece 3.
    aniso_d: Retime<Bits<5>>,
    /// {hi, lo}, input → piece 4.
    clamp_d: Retime<Bits<32>>,
    /// {warn, levels, base, mip}, input → piece 5.
    cfg_d: Retime<Bits<27>>,
    /// The NaN lane flag, piece 1 → piece 4.
    nan_d: Retime<Bit>,
    /// Piece 2's major axis → output.
    major_q: Retime<Bit>,
    /// Piece 3's probe count → output.
    probes_q: Retime<Bits<5>>,
    /// Piece 4's unclamped λ' → output.
    unclamped_q: Retime<Bits<24>>,
    /// λ (piece 5's input) → output.
    lambda_q: Retime<Bits<16>>,
    /// Piece 5's {lod_warning, magnify, frac, level1, level0} → output.
    levels_q: Retime<Bits<20>>,
    pack1: Signal<Local, Bits<3>>,
    pack2: Signal<Local, Bits<3>>,
    pack5: Signal<Local, Bits<20>>,
}
}

impl Default for LodFinish {
    fn default() -> Self {
        Self::new(0)
    }
}

impl LodFinish {
    /// The most register stages that sit between the pieces; [`LodFinish::new`] puts more after
    /// the last piece.
    pub const CUTS: usize = 4;

    /// The back end with `stages` register stages (latency `stages`; 0: combinational).
    pub fn new(stages: usize) -> Self {
        let cut = |j| finish_cut(stages, j);
        let tail = stages - (0..4).map(cut).sum::<usize>();
        Self {
            settle: crate::common::settle::SettleState::new(stages > 0),
            clock: Default::default(),
            en: Default::default(),
            lx: Default::default(),
            ly: Default::default(),
            x_zero: Default::default(),
            x_inf: Default::default(),
            x_nan: Default::default(),
            y_zero: Default::default(),
            y_inf: Default::default(),
            y_nan: Default::default(),
            lfix: Default::default(),
            lnan: Default::default(),
            mode: Default::default(),
            sbias: Default::default(),
            aniso: Default::default(),
            lo: Default::default(),
            hi: Default::default(),
            warn: Default::default(),
            levels: Default::default(),
            base: Default::default(),
            mip: Default::default(),
            lambda: Default::default(),
            unclamped: Default::default(),
            level0: Default::default(),
            level1: Default::default(),
            frac: Default::default(),
            magnify: Default::default(),
            lod_warning: Default::default(),
            probes: Default::default(),
            major_y: Default::default(),
            status: Default::default(),
            order: Default::default(),
            pick: Default::default(),
            total: Default::default(),
            clamp: Default::default(),
            mips: Default::default(),
            vx1: Retime::new(cut(0)),
            vy1: Retime::new(cut(0)),
            dxy1: Retime::new(cut(0)),
            dyx1: Retime::new(cut(0)),
            xmt1: Retime::new(cut(0)),
            ymt1: Retime::new(cut(0)),
            ta1: Retime::new(cut(0)),
            lsel1: Retime::new(cut(0)),
            offb1: Retime::new(cut(0)),
            flags1: Retime::new(cut(0)),
            diff2: Retime::new(cut(1)),
            lb2: Retime::new(cut(1)),
            off2: Retime::new(cut(1)),
            flags2: Retime::new(cut(1)),
            r3: Retime::new(cut(2)),
            lam4: Retime::new(cut(3)),
            aniso_d: Retime::new(cut(0) + cut(1)),
            clamp_d: Retime::new(cut(0) + cut(1) + cut(2)),
            cfg_d: Retime::new(cut(0) + cut(1) + cut(2) + cut(3)),
            nan_d: Retime::new(cut(0) + cut(1) + cut(2)),
            major_q: Retime::new(cut(1) + cut(2) + cut(3) + tail),
            probes_q: Retime::new(cut(2) + cut(3) + tail),
            unclamped_q: Retime::new(cut(3) + tail),
            lambda_q: Retime::new(tail),
            levels_q: Retime::new(tail),
            pack1: Default::default(),
            pack2: Default::default(),
            pack5: Default::default(),
        }
    }

    /// Register stages (the latency in enabled clocks).
    pub fn stages(&self) -> usize {
        self.cfg_d.stages() + self.levels_q.stages()
    }
}

impl Logic for LodFinish {
    #[hdl_gen]
    fn update(&mut self) {
        // Piece 1.
        self.order.lx.next = self.lx.val();
        self.order.ly.next = self.ly.val();
        self.order.x_zero.next = self.x_zero.val();
        self.order.x_inf.next = self.x_inf.val();
        self.order.x_nan.next = self.x_nan.val();
        self.order.y_zero.next = self.y_zero.val();
        self.order.y_inf.next = self.y_inf.val();
        self.order.y_nan.next = self.y_nan.val();
        self.order.lfix.next = self.lfix.val();
        self.order.lnan.next = self.lnan.val();
        self.order.mode.next = self.mode.val();
        self.order.sbias.next = self.sbias.val();
        self.order.aniso.next = self.aniso.val();
        // Boundary 1.
        self.vx1.clock.next = self.clock.val();
        self.vx1.en.next = self.en.val();
        self.vx1.d.next = self.order.vx.val();
        self.pick.vx.next = self.vx1.q.val();
        self.vy1.clock.next = self.clock.val();
        self.vy1.en.next = self.en.val();
        self.vy1.d.next = self.order.vy.val();
        self.pick.vy.next = self.vy1.q.val();
        self.dxy1.clock.next = self.clock.val();
        self.dxy1.en.next = self.en.val();
        self.dxy1.d.next = self.order.dxy.val();
        self.pick.dxy.next = self.dxy1.q.val();
        self.dyx1.clock.next = self.clock.val();
        self.dyx1.en.next = self.en.val();
        self.dyx1.d.next = self.order.dyx.val();
        self.pick.dyx.next = self.dyx1.q.val();
        self.xmt1.clock.next = self.clock.val();
        self.xmt1.en.next = self.en.val();
        self.xmt1.d.next = self.order.xmt.val();
        self.pick.xmt.next = self.xmt1.q.val();
        self.ymt1.clock.next = self.clock.val();
        self.ymt1.en.next = self.en.val();
        self.ymt1.d.next = self.order.ymt.val();
        self.pick.ymt.next = self.ymt1.q.val();
        self.ta1.clock.next = self.clock.val();
        self.ta1.en.next = self.en.val();
        self.ta1.d.next = self.order.ta.val();
        self.pick.ta.next = self.ta1.q.val();
        self.lsel1.clock.next = self.clock.val();
        self.lsel1.en.next = self.en.val();
        self.lsel1.d.next = self.order.lsel.val();
        self.pick.lsel.next = self.lsel1.q.val();
        self.offb1.clock.next = self.clock.val();
        self.offb1.en.next = self.en.val();
        self.offb1.d.next = self.order.offb.val();
        self.pick.offb.next = self.offb1.q.val();
        self.pack1.next = bit_cast::<3, 1>(self.order.iso.val().into())
            | (bit_cast::<3, 1>(self.order.lbz.val().into()) << 1)
            | (bit_cast::<3, 1>(self.order.force1.val().into()) << 2);
        self.flags1.clock.next = self.clock.val();
        self.flags1.en.next = self.en.val();
        self.flags1.d.next = self.pack1.val();
        self.pick.iso.next = self.flags1.q.val().get_bit(0);
        self.pick.lbz.next = self.flags1.q.val().get_bit(1);
        self.pick.force1.next = self.flags1.q.val().get_bit(2);
        // Boundary 2.
        self.diff2.clock.next = self.clock.val();
        self.diff2.en.next = self.en.val();
        self.diff2.d.next = self.pick.diff.val();
        self.total.diff.next = self.diff2.q.val();
        self.lb2.clock.next = self.clock.val();
        self.lb2.en.next = self.en.val();
        self.lb2.d.next = self.pick.lb.val();
        self.total.lb.next = self.lb2.q.val();
        self.off2.clock.next = self.clock.val();
        self.off2.en.next = self.en.val();
        self.off2.d.next = self.pick.off.val();
        self.total.off.next = self.off2.q.val();
        self.pack2.next = bit_cast::<3, 1>(self.pick.ge.val().into())
            | (bit_cast::<3, 1>(self.flags1.q.val().get_bit(0).into()) << 1)
            | (bit_cast::<3, 1>(self.flags1.q.val().get_bit(2).into()) << 2);
        self.flags2.clock.next = self.clock.val();
        self.flags2.en.next = self.en.val();
        self.flags2.d.next = self.pack2.val();
        self.total.ge.next = self.flags2.q.val().get_bit(0);
        self.total.iso.next = self.flags2.q.val().get_bit(1);
        self.total.force1.next = self.flags2.q.val().get_bit(2);
        self.aniso_d.clock.next = self.clock.val();
        self.aniso_d.en.next = self.en.val();
        self.aniso_d.d.next = self.aniso.val();
        self.total.aniso.next = self.aniso_d.q.val();
        // Boundary 3.
        self.r3.clock.next = self.clock.val();
        self.r3.en.next = self.en.val();
        self.r3.d.next = self.total.r.val();
        self.clamp.r.next = self.r3.q.val();
        self.nan_d.clock.next = self.clock.val();
        self.nan_d.en.next = self.en.val();
        self.nan_d.d.next = self.order.nan.val();
        self.clamp.nan.next = self.nan_d.q.val();
        self.clamp_d.clock.next = self.clock.val();
        self.clamp_d.en.next = self.en.val();
        self.clamp_d.d.next =
            bit_cast::<32, 16>(self.lo.val()) | (bit_cast::<32, 16>(self.hi.val()) << 16);
        self.clamp.lo.next = self.clamp_d.q.val().get_bits::<16>(0);
        self.clamp.hi.next = self.clamp_d.q.val().get_bits::<16>(16);
        // Boundary 4.
        self.lam4.clock.next = self.clock.val();
        self.lam4.en.next = self.en.val();
        self.lam4.d.next = self.clamp.lambda.val();
        self.mips.lambda.next = self.lam4.q.val();
        self.cfg_d.clock.next = self.clock.val();
        self.cfg_d.en.next = self.en.val();
        self.cfg_d.d.next = bit_cast::<27, 2>(self.mip.val())
            | (bit_cast::<27, 4>(self.base.val()) << 2)
            | (bit_cast::<27, 5>(self.levels.val()) << 6)
            | (bit_cast::<27, 16>(self.warn.val()) << 11);
        self.mips.mip.next = self.cfg_d.q.val().get_bits::<2>(0);
        self.mips.base.next = self.cfg_d.q.val().get_bits::<4>(2);
        self.mips.levels.next = self.cfg_d.q.val().get_bits::<5>(6);
        self.mips.warn.next = self.cfg_d.q.val().get_bits::<16>(11);
        // The early results to the outputs, and the tail.
        self.major_q.clock.next = self.clock.val();
        self.major_q.en.next = self.en.val();
        self.major_q.d.next = self.pick.ymaj.val();
        self.major_y.next = self.major_q.q.val();
        self.probes_q.clock.next = self.clock.val();
        self.probes_q.en.next = self.en.val();
        self.probes_q.d.next = self.total.probes.val();
        self.probes.next = self.probes_q.q.val();
        self.unclamped_q.clock.next = self.clock.val();
        self.unclamped_q.en.next = self.en.val();
        self.unclamped_q.d.next = self.clamp.unclamped.val();
        self.unclamped.next = self.unclamped_q.q.val();
        self.lambda_q.clock.next = self.clock.val();
        self.lambda_q.en.next = self.en.val();
        self.lambda_q.d.next = self.lam4.q.val();
        self.lambda.next = self.lambda_q.q.val();
        self.pack5.next = bit_cast::<20, 5>(self.mips.level0.val())
            | (bit_cast::<20, 5>(self.mips.level1.val()) << 5)
            | (bit_cast::<20, 8>(self.mips.frac.val()) << 10)
            | (bit_cast::<20, 1>(self.mips.magnify.val().into()) << 18)
            | (bit_cast::<20, 1>(self.mips.lod_warning.val().into()) << 19);
        self.levels_q.clock.next = self.clock.val();
        self.levels_q.en.next = self.en.val();
        self.levels_q.d.next = self.pack5.val();
        self.level0.next = self.levels_q.q.val().get_bits::<5>(0);
        self.level1.next = self.levels_q.q.val().get_bits::<5>(5);
        self.frac.next = self.levels_q.q.val().get_bits::<8>(10);
        self.magnify.next = self.levels_q.q.val().get_bit(18);
        self.lod_warning.next = self.levels_q.q.val().get_bit(19);
        self.status.next = (bit_cast::<32, 16>(self.lambda_q.q.val()) >> 8) << 16;
        if self.levels_q.q.val().get_bit(19) {
            self.status.next = self.status.val() | bits::<32>(2);
        }
    }
}
