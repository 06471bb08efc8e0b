//! One lane's fixed-point LOD back end: anisotropy, bias, rounding, clamps, level selection and
//! status (steps 4–8 of the algorithm in docs/units/lod.md §3 and `texpix_tb::lod`).
//!
//! # Ports
//! Inputs: `lx`/`ly` = log2(ρx²)/log2(ρy²)·2^16 (= λ·2^17) with their zero/inf/nan flags, `lfix`
//! (explicit LOD or shader bias, λ·2^17) and `lnan`, and the quad's configuration: `mode`
//! (0 implicit, 1 grad, 2 lod, 3 bias, 4 lz), `sbias` (sampler bias·256, sign-extended), `aniso`
//! (1…16), `lo` = max(min_lod, .LC) and `hi` = max_lod (·256), `warn` (min_lod_warning·256),
//! `levels` (1…16), `base` (0…15), `mip` (0 none, 1 nearest, 2 linear).
//! Outputs: `lambda` (λ·256, 0…4095), `unclamped` (λ'·256 before the min/max clamps, for LOD
//! queries; [`UNCLAMPED_NAN`] for a NaN lane), `level0`, `level1`, `frac`, `magnify`, `lod_warning`,
//! `probes` (N = ⌈η⌉; 1 for lod, lz and NaN lanes), `major_y` (the footprint's major axis is y:
//! ρy > ρx; 0 on a tie and wherever `probes` is forced to 1), `status` (the TFE word without
//! TEXEL_FAIL).
//!
//! Combinational, latency 0. All arithmetic is 32-bit two's complement; signed comparisons flip the
//! sign bit and compare unsigned. Rounding: λ'·2^17 → λ·2^8 is ⌊(x + 2^8)/2^9⌋ (half up), after
//! saturation to ±2^28; nothing else rounds.

use super::aniso_log2_table;
use rust_hdl::prelude::*;

/// `unclamped` of a NaN lane: −2^23 in 24-bit two's complement (values stay within ±2^19).
pub const UNCLAMPED_NAN: u32 = 0x80_0000;

/// The back end. See the module documentation.
#[derive(Clone, Debug, LogicBlock)]
pub struct LodFinish {
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
    pub sbias: Signal<In, Bits<32>>,
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
    /// TFE status word.
    pub status: Signal<Out, Bits<32>>,
    /// round(log2(k)·2^17), k = 0…16.
    tab: [Constant<Bits<32>>; 17],
    /// k = 0…16 as 5-bit constants (loop-dependent literals must be constants in `#[hdl_gen]`).
    kval: [Constant<Bits<5>>; 17],
    st: Signal<Local, Bits<32>>,
    vx: Signal<Local, Bits<32>>,
    vy: Signal<Local, Bits<32>>,
    lmax: Signal<Local, Bits<32>>,
    lmin: Signal<Local, Bits<32>>,
    diff: Signal<Local, Bits<32>>,
    ta: Signal<Local, Bits<32>>,
    cnt: Signal<Local, Bits<5>>,
    lb: Signal<Local, Bits<32>>,
    nprobe: Signal<Local, Bits<5>>,
    ymaj: Signal<Local, Bit>,
    sb: Signal<Local, Bits<32>>,
    l: Signal<Local, Bits<32>>,
    lnan_all: Signal<Local, Bit>,
    r: Signal<Local, Bits<32>>,
    l8: Signal<Local, Bits<32>>,
    hi32: Signal<Local, Bits<32>>,
    lo32: Signal<Local, Bits<32>>,
    lam: Signal<Local, Bits<32>>,
    q256: Signal<Local, Bits<32>>,
    dq: Signal<Local, Bits<32>>,
    dd: Signal<Local, Bits<32>>,
    top: Signal<Local, Bits<32>>,
    l0: Signal<Local, Bits<32>>,
    l1: Signal<Local, Bits<32>>,
    fr: Signal<Local, Bits<32>>,
    wrn: Signal<Local, Bit>,
}

impl Default for LodFinish {
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
            tab: std::array::from_fn(|k| Constant::new((t[k] as u64).into())),
            kval: std::array::from_fn(|k| Constant::new((k as u64).into())),
            st: Default::default(),
            vx: Default::default(),
            vy: Default::default(),
            lmax: Default::default(),
            lmin: Default::default(),
            diff: Default::default(),
            ta: Default::default(),
            cnt: Default::default(),
            lb: Default::default(),
            nprobe: Default::default(),
            ymaj: Default::default(),
            sb: Default::default(),
            l: Default::default(),
            lnan_all: Default::default(),
            r: Default::default(),
            l8: Default::default(),
            hi32: Default::default(),
            lo32: Default::default(),
            lam: Default::default(),
            q256: Default::default(),
            dq: Default::default(),
            dd: Default::default(),
            top: Default::default(),
            l0: Default::default(),
            l1: Default::default(),
            fr: Default::default(),
            wrn: Default::default(),
        }
    }
}

impl Logic for LodFinish {
    #[hdl_gen]
    fn update(&mut self) {
        // Saturated logs: 0 ⇒ −2^28, +Inf ⇒ +2^28.
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
        // Major and minor axis (signed compare: flip the sign bits).
        self.lmax.next = self.vx.val();
        self.lmin.next = self.vy.val();
        self.ymaj.next = (self.vy.val() ^ bits::<32>(0x8000_0000_u64))
            > (self.vx.val() ^ bits::<32>(0x8000_0000_u64));
        if self.ymaj.val() {
            self.lmax.next = self.vy.val();
            self.lmin.next = self.vx.val();
        }
        self.diff.next = self.lmax.val() - self.lmin.val();
        // Threshold of the anisotropy limit and ⌈η⌉ below it.
        self.ta.next = self.tab[0].val();
        self.cnt.next = bits::<5>(1);
        for k in 0..17 {
            if self.aniso.val() == self.kval[k].val() {
                self.ta.next = self.tab[k].val();
            }
        }
        for k in 1..17 {
            if (self.aniso.val() > self.kval[k].val()) & (self.diff.val() > self.tab[k].val()) {
                self.cnt.next = self.cnt.val() + bits::<5>(1);
            }
        }
        self.lb.next = self.lmax.val();
        self.nprobe.next = bits::<5>(1);
        if self.aniso.val() > bits::<5>(1) {
            if self.diff.val() >= self.ta.val() {
                self.lb.next = self.lmax.val() - self.ta.val();
                self.nprobe.next = self.aniso.val();
            } else {
                self.lb.next = self.lmin.val();
                self.nprobe.next = self.cnt.val();
            }
        }
        // λ'·2^17 by mode; the shader bias is clamped to ±16 (±2^21).
        self.sb.next = self.lfix.val();
        if (self.sb.val() ^ bits::<32>(0x8000_0000_u64)) > bits::<32>(0x8020_0000_u64) {
            self.sb.next = bits::<32>(0x0020_0000_u64);
        }
        if (self.sb.val() ^ bits::<32>(0x8000_0000_u64)) < bits::<32>(0x7FE0_0000_u64) {
            self.sb.next = bits::<32>(0xFFE0_0000_u64);
        }
        self.l.next = self.lb.val() + (self.sbias.val() << 9);
        self.lnan_all.next = self.x_nan.val() | self.y_nan.val();
        if self.lnan_all.val() {
            self.nprobe.next = bits::<5>(1);
            self.ymaj.next = false;
        }
        match self.mode.val().index() {
            2 => {
                self.l.next = self.lfix.val();
                self.lnan_all.next = self.lnan.val();
                self.nprobe.next = bits::<5>(1);
                self.ymaj.next = false;
            }
            3 => {
                self.l.next = self.l.val() + self.sb.val();
                self.lnan_all.next = self.lnan_all.val() | self.lnan.val();
            }
            4 => {
                self.l.next = bits::<32>(0);
                self.lnan_all.next = false;
                self.nprobe.next = bits::<5>(1);
                self.ymaj.next = false;
            }
            _ => {}
        }
        // Saturate to ±2^28, round to 8 fraction bits (half up, arithmetic shift).
        if (self.l.val() ^ bits::<32>(0x8000_0000_u64)) > bits::<32>(0x9000_0000_u64) {
            self.l.next = bits::<32>(0x1000_0000_u64);
        }
        if (self.l.val() ^ bits::<32>(0x8000_0000_u64)) < bits::<32>(0x7000_0000_u64) {
            self.l.next = bits::<32>(0xF000_0000_u64);
        }
        self.r.next = self.l.val() + bits::<32>(256);
        self.l8.next = self.r.val() >> 9;
        if self.r.val().get_bit(31) {
            self.l8.next = self.l8.val() | bits::<32>(0xFF80_0000_u64);
        }
        // λ = max(lo, min(hi, λ')); NaN ⇒ lo.
        self.hi32.next = bit_cast::<32, 16>(self.hi.val());
        self.lo32.next = bit_cast::<32, 16>(self.lo.val());
        self.lam.next = self.l8.val();
        if (self.l8.val() ^ bits::<32>(0x8000_0000_u64))
            > (self.hi32.val() ^ bits::<32>(0x8000_0000_u64))
        {
            self.lam.next = self.hi32.val();
        }
        if (self.lam.val() ^ bits::<32>(0x8000_0000_u64))
            < (self.lo32.val() ^ bits::<32>(0x8000_0000_u64))
        {
            self.lam.next = self.lo32.val();
        }
        if self.lnan_all.val() {
            self.lam.next = self.lo32.val();
        }
        // Levels: d = base + min(λ, q) in 8.8.
        self.q256.next = (bit_cast::<32, 5>(self.levels.val()) - bits::<32>(1)) << 8;
        self.dq.next = self.lam.val();
        if self.lam.val() > self.q256.val() {
            self.dq.next = self.q256.val();
        }
        self.dd.next = (bit_cast::<32, 4>(self.base.val()) << 8) + self.dq.val();
        self.top.next = bit_cast::<32, 4>(self.base.val()) + bit_cast::<32, 5>(self.levels.val())
            - bits::<32>(1);
        self.l0.next = bit_cast::<32, 4>(self.base.val());
        self.l1.next = bit_cast::<32, 4>(self.base.val());
        self.fr.next = bits::<32>(0);
        match self.mip.val().index() {
            1 => {
                self.l0.next = (self.dd.val() + bits::<32>(128)) >> 8;
                self.l1.next = self.l0.val();
            }
            2 => {
                self.l0.next = self.dd.val() >> 8;
                self.l1.next = self.l0.val() + bits::<32>(1);
                if self.l1.val() > self.top.val() {
                    self.l1.next = self.top.val();
                }
                self.fr.next = self.dd.val() & bits::<32>(0xFF);
            }
            _ => {}
        }
        self.wrn.next = self.lam.val() < bit_cast::<32, 16>(self.warn.val());
        self.lambda.next = bit_cast::<16, 32>(self.lam.val());
        self.unclamped.next = self.l8.val().get_bits::<24>(0);
        if self.lnan_all.val() {
            self.unclamped.next = bits::<24>(0x80_0000);
        }
        self.level0.next = bit_cast::<5, 32>(self.l0.val());
        self.level1.next = bit_cast::<5, 32>(self.l1.val());
        self.frac.next = bit_cast::<8, 32>(self.fr.val());
        self.magnify.next = !self.lam.val().any();
        self.lod_warning.next = self.wrn.val();
        self.probes.next = self.nprobe.val();
        self.major_y.next = self.ymaj.val();
        self.st.next = (self.lam.val() >> 8) << 16;
        if self.wrn.val() {
            self.st.next = self.st.val() | bits::<32>(2);
        }
        self.status.next = self.st.val();
    }
}
