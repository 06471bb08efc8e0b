//! One lane's operands for the address pipeline: the `txf` range check and integer-to-coordinate
//! conversion, the array layer, the TXD register word, λ widened, and the lane's pass key.
//!
//! # Ports
//! Inputs: the instruction's `op` (TexOp code), `cs`, `ct`, `cr`, `cq` (s, t, r, q f32, or txf's i, j,
//! k, level), `off` ({dw[11:8], dv[7:4], du[3:0]}), `lod` (txq's level), the descriptor's `dimc` (paramA
//! code), `cube`, the lane's `face` and the last cube index `ncube`, `width`, `height` (1 for 1D), `layers` (1 for non-arrays), `levels`, the sampler's
//! `mip`, `min_lin`, `mag_lin`, and the LOD unit's `lambda`, `lv0`, `lv1`, `frac`, `mag`.
//! Outputs: `active` (a txf lane inside the texture; always 1 for the other ops), `s`, `t` (the
//! coordinates the address pipeline gets: txf's texel i as the unnormalized i + 0.5), `word`
//! (the TXD word {toff[27:16] | array[15:0]}), `lambda32` (λ·256 sign-extended; 0 for txf, txq),
//! `key` (level0 [4:0], level1 [9:5], trilinear [10], linear [11]).
//!
//! # Arithmetic
//! txf: i + du, j + dv (32-bit two's complement, wrapping) must lie in 0…w_l−1, 0…h_l−1, k in
//! 0…layers−1 and the level in 0…levels−1; then i + 0.5 = f32(2i + 1) with the exponent lowered
//! by one (exact, i < 2^15). The array layer is the f32 coordinate (t for 1D arrays, r for 2D)
//! rounded to nearest even and clamped to 0…65535, NaN ⇒ 0 ([`FpToFixed`]); for a cube texture
//! (`cube`: the descriptor is its 2D array of faces) it is 6·i + `face` with the cube index
//! i = q so rounded and clamped to `ncube` (txf ignores it: its k is the face layer); for a 3D
//! texture (`dimc` 2: the unit addresses each level as a 2D array of its slices, `layers` is the
//! depth) the layer is the plane's `slice` and txf checks k against the level's depth
//! max(1, depth >> level). Trilinear iff the mip
//! filter is linear and the fraction is not 0; linear by `mag` ? `mag_lin` : `min_lin`; gather4
//! takes (0, 0, bilinear); txq the level (16 for any level ≥ 16). Combinational: latency 0.

use crate::common::fp::FpToFixed;
use crate::common::U16ToF32;
use rust_hdl::prelude::*;

crate::settled_block! {
/// One lane's address operands. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct LanePrep {
    /// Operation code.
    pub op: Signal<In, Bits<4>>,
    /// Coordinate s (txf: i).
    pub cs: Signal<In, Bits<32>>,
    /// Coordinate t (txf: j).
    pub ct: Signal<In, Bits<32>>,
    /// Coordinate r (txf: k).
    pub cr: Signal<In, Bits<32>>,
    /// Coordinate q (txf: level).
    pub cq: Signal<In, Bits<32>>,
    /// Texel offset.
    pub off: Signal<In, Bits<12>>,
    /// txq level.
    pub lod: Signal<In, Bits<32>>,
    /// paramA code of the texture.
    pub dimc: Signal<In, Bits<3>>,
    /// A cube texture (as the 2D array of its faces): the layer is 6·index + `face`.
    pub cube: Signal<In, Bit>,
    /// The lane's cube face.
    pub face: Signal<In, Bits<3>>,
    /// The last cube index (0 for a cube).
    pub ncube: Signal<In, Bits<16>>,
    /// Level-0 width.
    pub width: Signal<In, Bits<16>>,
    /// Level-0 height (1 for 1D).
    pub height: Signal<In, Bits<16>>,
    /// Layers (1 for non-arrays; a 3D texture's depth).
    pub layers: Signal<In, Bits<17>>,
    /// 3D: the current plane's slice (already clamped to the level's depth).
    pub slice: Signal<In, Bits<16>>,
    /// Level count.
    pub levels: Signal<In, Bits<5>>,
    /// Mip filter.
    pub mip: Signal<In, Bits<2>>,
    /// Linear minification.
    pub min_lin: Signal<In, Bit>,
    /// Linear magnification.
    pub mag_lin: Signal<In, Bit>,
    /// λ·256 from the LOD unit.
    pub lambda: Signal<In, Bits<16>>,
    /// First level.
    pub lv0: Signal<In, Bits<5>>,
    /// Second level.
    pub lv1: Signal<In, Bits<5>>,
    /// Mip fraction.
    pub frac: Signal<In, Bits<8>>,
    /// Magnification.
    pub mag: Signal<In, Bit>,
    /// The lane fetches.
    pub active: Signal<Out, Bit>,
    /// s for the address pipeline.
    pub s: Signal<Out, Bits<32>>,
    /// t for the address pipeline.
    pub t: Signal<Out, Bits<32>>,
    /// TXD word.
    pub word: Signal<Out, Bits<32>>,
    /// λ·256, 32 bits.
    pub lambda32: Signal<Out, Bits<32>>,
    /// Pass key.
    pub key: Signal<Out, Bits<12>>,

    fs: U16ToF32,
    ft: U16ToF32,
    fix: FpToFixed<0>,
    one_d: Signal<Local, Bit>,
    i: Signal<Local, Bits<32>>,
    j: Signal<Local, Bits<32>>,
    k: Signal<Local, Bits<32>>,
    lv: Signal<Local, Bits<32>>,
    wl: Signal<Local, Bits<16>>,
    hl: Signal<Local, Bits<16>>,
    dl: Signal<Local, Bits<17>>,
    vol: Signal<Local, Bit>,
    layer: Signal<Local, Bits<16>>,
    cidx: Signal<Local, Bits<16>>,
    lvk: Signal<Local, Bits<12>>,
}
}

impl Logic for LanePrep {
    #[hdl_gen]
    fn update(&mut self) {
        self.one_d.next = (self.dimc.val() == 0) | (self.dimc.val() == 4);
        // txf: the texel, its level and the range check.
        self.i.next = self.cs.val() + bit_cast::<32, 4>(self.off.val().get_bits::<4>(0));
        if self.off.val().get_bit(3) {
            self.i.next = self.i.val() + 0xFFFF_FFF0_u64;
        }
        self.j.next = self.ct.val() + bit_cast::<32, 4>(self.off.val().get_bits::<4>(4));
        if self.off.val().get_bit(7) {
            self.j.next = self.j.val() + 0xFFFF_FFF0_u64;
        }
        if self.one_d.val() {
            self.j.next = 0.into();
        }
        self.vol.next = self.dimc.val() == 2;
        self.k.next = self.cr.val();
        if !self.dimc.val().get_bit(2) & !self.vol.val() {
            self.k.next = 0.into();
        }
        if self.vol.val() {
            self.k.next = self.cr.val() + bit_cast::<32, 4>(self.off.val().get_bits::<4>(8));
            if self.off.val().get_bit(11) {
                self.k.next = self.k.val() + 0xFFFF_FFF0_u64;
            }
        }
        self.lv.next = self.cq.val();
        self.wl.next = self.width.val() >> self.lv.val().get_bits::<4>(0);
        if self.wl.val() == 0 {
            self.wl.next = 1.into();
        }
        self.hl.next = self.height.val() >> self.lv.val().get_bits::<4>(0);
        if self.hl.val() == 0 {
            self.hl.next = 1.into();
        }
        self.dl.next = self.layers.val();
        if self.vol.val() {
            self.dl.next = self.layers.val() >> self.lv.val().get_bits::<4>(0);
            if !self.dl.val().any() {
                self.dl.next = 1.into();
            }
        }
        self.active.next = true;
        if self.op.val() == 4 {
            self.active.next = !self.lv.val().get_bit(31)
                & (self.lv.val() < bit_cast::<32, 5>(self.levels.val()))
                & !self.i.val().get_bit(31)
                & (self.i.val() < bit_cast::<32, 16>(self.wl.val()))
                & !self.j.val().get_bit(31)
                & (self.j.val() < bit_cast::<32, 16>(self.hl.val()))
                & !self.k.val().get_bit(31)
                & (self.k.val() < bit_cast::<32, 17>(self.dl.val()));
        }
        self.fs.a.next = 1.into();
        self.ft.a.next = 1.into();
        if self.active.val() {
            self.fs.a.next = (self.i.val().get_bits::<16>(0) << 1) | 1;
            self.ft.a.next = (self.j.val().get_bits::<16>(0) << 1) | 1;
        }

        // Array layer.
        self.fix.a.next = self.cr.val();
        if self.dimc.val() == 4 {
            self.fix.a.next = self.ct.val();
        }
        if self.cube.val() {
            self.fix.a.next = self.cq.val();
        }
        self.layer.next = self.fix.y.val().get_bits::<16>(0);
        if self.fix.y.val().get_bits::<16>(16).any() {
            self.layer.next = 0xFFFF.into();
        }
        if self.fix.y.val().get_bit(31) | self.fix.nan.val() | !self.dimc.val().get_bit(2) {
            self.layer.next = 0.into();
        }
        self.cidx.next = self.layer.val();
        if self.cidx.val() > self.ncube.val() {
            self.cidx.next = self.ncube.val();
        }
        if self.cube.val() {
            self.layer.next = (self.cidx.val() << 2)
                + (self.cidx.val() << 1)
                + bit_cast::<16, 3>(self.face.val());
        }
        if self.vol.val() {
            self.layer.next = self.slice.val();
        }

        // Address-pipeline operands.
        self.s.next = self.cs.val();
        self.t.next = self.ct.val();
        self.word.next = (bit_cast::<32, 8>(self.off.val().get_bits::<8>(0)) << 16)
            | bit_cast::<32, 16>(self.layer.val());
        if self.op.val() == 4 {
            self.s.next = self.fs.y.val() - 0x80_0000;
            self.t.next = self.ft.y.val() - 0x80_0000;
            self.word.next = 0.into();
            if self.active.val() {
                self.word.next = bit_cast::<32, 16>(self.k.val().get_bits::<16>(0));
            }
        }
        self.lambda32.next = bit_cast::<32, 16>(self.lambda.val());
        if self.lambda.val().get_bit(15) {
            self.lambda32.next = self.lambda32.val() | 0xFFFF_0000_u64;
        }
        if (self.op.val() == 4) | (self.op.val() == 5) {
            self.lambda32.next = 0.into();
        }

        // Pass key.
        self.key.next =
            bit_cast::<12, 5>(self.lv0.val()) | (bit_cast::<12, 5>(self.lv0.val()) << 5);
        if (self.mip.val() == 2) & self.frac.val().any() {
            self.key.next = bit_cast::<12, 5>(self.lv0.val())
                | (bit_cast::<12, 5>(self.lv1.val()) << 5)
                | 0x400;
        }
        if (self.mag.val() & self.mag_lin.val()) | (!self.mag.val() & self.min_lin.val()) {
            self.key.next = self.key.val() | 0x800;
        }
        if self.op.val() == 6 {
            self.key.next = 0x800.into();
        }
        self.lvk.next = bit_cast::<12, 4>(self.lv.val().get_bits::<4>(0));
        if self.op.val() == 5 {
            self.lvk.next = bit_cast::<12, 4>(self.lod.val().get_bits::<4>(0));
            if self.lod.val().get_bits::<28>(4).any() {
                self.lvk.next = 16.into();
            }
        }
        if self.op.val() == 4 {
            self.key.next = 0.into();
            if self.active.val() {
                self.key.next = self.lvk.val() | (self.lvk.val() << 5);
            }
        }
        if self.op.val() == 5 {
            self.key.next = self.lvk.val() | (self.lvk.val() << 5);
        }
    }
}
