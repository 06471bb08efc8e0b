//! The AMD RDNA MIMG instruction forms, one lane at a time: [`MimgUnpack`] turns a lane's address
//! VGPRs into the texture unit's per-lane operands and [`MimgPack`] turns a lane's result into the
//! returned data VGPRs. Both are combinational (latency 0); `TexUnit` has four of each.
//! Reference: AMD's "RDNA Instruction Set Architecture" guides, MIMG "VGPR usage"; the layout
//! below is this project's statement of it, with the differences marked.
//!
//! # Address dwords ([`MimgUnpack`])
//! The address is a sequence of dwords `vaddr[0..count)`, the same whether the instruction uses
//! the NSA (non-sequential address) form or one packed VGPR range: NSA only changes which
//! registers the register file reads, so the block has no NSA input. The sections, in order:
//!
//! 1. **offset** (the `_O` variants, `has_off`): one dword, x = bits 5…0, y = 13…8, z = 21…16,
//!    6-bit two's complement. The unit's texel offsets are 4-bit (−8…7), so `off` takes the low
//!    four bits of x, y and z (`off[3:0]` = du, `off[7:4]` = dv, `off[11:8]` = dw, the r offset
//!    of a 3D texture): wider offsets wrap modulo 16.
//! 2. **bias** (`txb`): one dword, f32, or with `a16` an f16 in the low half (the high half is
//!    ignored), widened exactly to f32.
//! 3. **z-compare** (`sample_c`, `sample_c_lz`): one dword, always f32 (`a16` does not apply).
//! 4. **derivatives** (`txd`): per direction x then y, the derivatives of the texture's
//!    coordinates (1d and 1d_array: s; 2d, 2d_array, cube, cube_array: s, t; 3d: s, t, r), one
//!    dword each, or with `g16` f16 values two per dword (first in the low half, an odd count
//!    leaving the high half unused), each direction starting a new dword: 2, 4 or 6 dwords
//!    (`g16`: 2, 2 or 4). Widened exactly to f32. The r derivatives are dropped (the unit has no r
//!    gradient) and the t derivatives of 1d forms are 0.
//! 5. **body**: sampler ops (`tex`, `txb`, `txl`, `txd`, `sample_c`, `sample_c_lz`, `gather4`,
//!    `lodq`): the coordinates (1d: s; 2d: s, t; 1d_array: s, slice; 2d_array: s, t, slice; 3d:
//!    s, t, r; cube: s, t, r; cube_array: s, t, r, index), then for `txl` the LOD. `txf`
//!    (IMAGE_LOAD_MIP): unsigned integers i, then j or the slice, then k or the slice, then the
//!    mip level (1d: i, mip; 2d: i, j, mip; 1d_array: i, slice, mip; 2d_array, 3d, cube,
//!    cube_array: i, j, k, mip). `txq` (IMAGE_GET_RESINFO): the mip level. Without `a16` one dword
//!    per component; with `a16` 16 bits per component, two per dword, first in the low half (an
//!    odd count leaves the last high half unused): f16 widened exactly to f32 for sampler ops,
//!    zero-extended for `txf` and `txq`.
//!
//! **Cube body: a deliberate difference.** AMD's cube forms take coordinates already projected
//! onto a face (the shader runs the cube instructions first). This project's cube convention is
//! the direction vector (s, t, r) itself (the face is chosen in the unit, by `CubeFace`), so the
//! cube body is s, t, r (and the array index for cube_array).
//!
//! Outputs in the unit's per-lane layout (`texpix_tb::tex::TexTxn`): `coord` = s, t, r, q with
//! the 1d_array slice in t, the 2d_array slice in r and the cube_array index in q; `txf`'s
//! integers as the unit reads them: i in coord 0, j in coord 1, the slice or k in coord 2 (the
//! 1d_array slice too: the unit's `txf` takes the layer from coord 2 for every array) and the
//! level in coord 3; `lod` = `txl`'s LOD or `txq`'s level; `bias`, `zref`; `grad` = dsdx, dsdy,
//! dtdx, dtdy; `off`; every field absent from the form is 0. `count` is the number of address
//! dwords the form occupies (dwords past it are ignored), for the vector reader to reject an
//! address list of the wrong length.
//!
//! Op codes are the project's `TexOp` codes. Codes without a MIMG form (9 `txp`, 11…15) are
//! decoded as 0 `tex` (the vector reader rejects them); dim 6 (3d_array, no MIMG form) is decoded
//! as 5 (2d_array). Any op may carry the offset dword.
//!
//! # Result dwords ([`MimgPack`])
//! The components whose `dmask` bit is set, in the order x, y, z, w (dmask 0: no data dwords):
//! one dword each, or with `d16` 16 bits each, two per dword, first in the low half (an odd count
//! leaves the last high half 0): f32 results rounded to f16 by [`F32ToF16`] (nearest even),
//! integer results (integer formats and `txq`) saturated to 0xFFFF as unsigned values. With
//! `tfe` or `lwe` one more dword follows: the lane's status word (bit 0 TEXEL_FAIL, bit 1
//! LOD_WARNING, ⌊λ⌋ from bit 16). With `lwe` and TEXEL_FAIL the data dwords are 0 (the status
//! dword is not). Output dwords past `count` are 0.

use crate::common::fp::{F16ToF32, F32ToF16};
use rust_hdl::prelude::*;

crate::settled_block! {
/// One lane's MIMG address dwords → the texture unit's per-lane operands. Combinational,
/// latency 0; no rounding (f16 operands widen exactly). See the module documentation.
///
/// Ports: `op: Bits<4>` (TexOp code), `dim: Bits<3>`, `has_off`, `a16`, `g16`,
/// `vaddr: [Bits<32>; 12]` → `coord: [Bits<32>; 4]`, `lod`, `bias`, `zref: Bits<32>`,
/// `grad: [Bits<32>; 4]` (dsdx, dsdy, dtdx, dtdy), `off: Bits<12>` (dw << 8 | dv << 4 | du),
/// `count: Bits<4>`.
#[derive(Clone, Debug, Default)]
pub struct MimgUnpack {
    /// TexOp code.
    pub op: Signal<In, Bits<4>>,
    /// Dimension code (0 1d, 1 2d, 2 3d, 3 cube, 4 1d_array, 5 2d_array, 7 cube_array).
    pub dim: Signal<In, Bits<3>>,
    /// The `_O` form: an offset dword comes first.
    pub has_off: Signal<In, Bit>,
    /// 16-bit bias and body components.
    pub a16: Signal<In, Bit>,
    /// 16-bit derivatives.
    pub g16: Signal<In, Bit>,
    /// The address dwords in order.
    pub vaddr: [Signal<In, Bits<32>>; 12],
    /// s, t, r, q (or txf's i, j, k, level).
    pub coord: [Signal<Out, Bits<32>>; 4],
    /// txl's LOD (f32) or txq's level (integer).
    pub lod: Signal<Out, Bits<32>>,
    /// txb's bias (f32).
    pub bias: Signal<Out, Bits<32>>,
    /// sample_c's reference (f32).
    pub zref: Signal<Out, Bits<32>>,
    /// dsdx, dsdy, dtdx, dtdy (f32).
    pub grad: [Signal<Out, Bits<32>>; 4],
    /// Texel offset: du in bits 3…0, dv in bits 7…4, dw in bits 11…8.
    pub off: Signal<Out, Bits<12>>,
    /// Address dwords of the form.
    pub count: Signal<Out, Bits<4>>,
    /// f16 widening: bias, the four derivatives, the five body halves.
    hb: F16ToF32,
    hg: [F16ToF32; 4],
    hc: [F16ToF32; 5],
    txb: Signal<Local, Bit>,
    txl: Signal<Local, Bit>,
    txd: Signal<Local, Bit>,
    txf: Signal<Local, Bit>,
    txq: Signal<Local, Bit>,
    cmp: Signal<Local, Bit>,
    /// Dimension with 6 decoded as 5.
    dd: Signal<Local, Bits<3>>,
    /// Sampler coordinate count, txf component count, derivative class (1 s, 2 s t, 3 s t r).
    nc: Signal<Local, Bits<4>>,
    nf: Signal<Local, Bits<4>>,
    gcls: Signal<Local, Bits<2>>,
    /// The dwords after the offset dword.
    w: [Signal<Local, Bits<32>>; 11],
    /// Derivative dwords, body start (in `w`), body components, body dwords.
    nder: Signal<Local, Bits<4>>,
    bstart: Signal<Local, Bits<4>>,
    nb: Signal<Local, Bits<4>>,
    nbp: Signal<Local, Bits<4>>,
    bdw: Signal<Local, Bits<4>>,
    /// The body dwords.
    u: [Signal<Local, Bits<32>>; 5],
    /// The body components (32-bit).
    comp: [Signal<Local, Bits<32>>; 5],
    /// g16: the dword holding dsdy, dtdy.
    gy: Signal<Local, Bits<32>>,
    lc: [Signal<Local, Bits<32>>; 4],
    llod: Signal<Local, Bits<32>>,
    lbias: Signal<Local, Bits<32>>,
    lzref: Signal<Local, Bits<32>>,
    lg: [Signal<Local, Bits<32>>; 4],
    loff: Signal<Local, Bits<12>>,
    lcount: Signal<Local, Bits<4>>,
}
}

impl Logic for MimgUnpack {
    #[hdl_gen]
    fn update(&mut self) {
        // Op and dimension decode.
        self.txb.next = self.op.val() == 1;
        self.txl.next = self.op.val() == 2;
        self.txd.next = self.op.val() == 3;
        self.txf.next = self.op.val() == 4;
        self.txq.next = self.op.val() == 5;
        self.cmp.next = (self.op.val() == 7) | (self.op.val() == 8);
        self.dd.next = self.dim.val();
        if self.dim.val() == 6 {
            self.dd.next = bits::<3>(5);
        }
        self.nc.next = bits::<4>(4);
        self.nf.next = bits::<4>(4);
        self.gcls.next = bits::<2>(2);
        match self.dd.val().index() {
            0 => {
                self.nc.next = bits::<4>(1);
                self.nf.next = bits::<4>(2);
                self.gcls.next = bits::<2>(1);
            }
            1 => {
                self.nc.next = bits::<4>(2);
                self.nf.next = bits::<4>(3);
            }
            2 => {
                self.nc.next = bits::<4>(3);
                self.gcls.next = bits::<2>(3);
            }
            3 => {
                self.nc.next = bits::<4>(3);
            }
            4 => {
                self.nc.next = bits::<4>(2);
                self.nf.next = bits::<4>(3);
                self.gcls.next = bits::<2>(1);
            }
            5 => {
                self.nc.next = bits::<4>(3);
            }
            _ => {}
        }
        // The dwords after the offset dword.
        self.w[0].next = self.vaddr[0].val();
        if self.has_off.val() {
            self.w[0].next = self.vaddr[1].val();
        }
        self.w[1].next = self.vaddr[1].val();
        if self.has_off.val() {
            self.w[1].next = self.vaddr[2].val();
        }
        self.w[2].next = self.vaddr[2].val();
        if self.has_off.val() {
            self.w[2].next = self.vaddr[3].val();
        }
        self.w[3].next = self.vaddr[3].val();
        if self.has_off.val() {
            self.w[3].next = self.vaddr[4].val();
        }
        self.w[4].next = self.vaddr[4].val();
        if self.has_off.val() {
            self.w[4].next = self.vaddr[5].val();
        }
        self.w[5].next = self.vaddr[5].val();
        if self.has_off.val() {
            self.w[5].next = self.vaddr[6].val();
        }
        self.w[6].next = self.vaddr[6].val();
        if self.has_off.val() {
            self.w[6].next = self.vaddr[7].val();
        }
        self.w[7].next = self.vaddr[7].val();
        if self.has_off.val() {
            self.w[7].next = self.vaddr[8].val();
        }
        self.w[8].next = self.vaddr[8].val();
        if self.has_off.val() {
            self.w[8].next = self.vaddr[9].val();
        }
        self.w[9].next = self.vaddr[9].val();
        if self.has_off.val() {
            self.w[9].next = self.vaddr[10].val();
        }
        self.w[10].next = self.vaddr[10].val();
        if self.has_off.val() {
            self.w[10].next = self.vaddr[11].val();
        }
        // Section sizes.
        self.nder.next = bits::<4>(0);
        if self.txd.val() {
            if self.g16.val() {
                self.nder.next = bits::<4>(2);
                if self.gcls.val() == 3 {
                    self.nder.next = bits::<4>(4);
                }
            } else {
                self.nder.next = bits::<4>(4);
                if self.gcls.val() == 1 {
                    self.nder.next = bits::<4>(2);
                }
                if self.gcls.val() == 3 {
                    self.nder.next = bits::<4>(6);
                }
            }
        }
        self.bstart.next = self.nder.val();
        if self.txb.val() | self.cmp.val() {
            self.bstart.next = self.nder.val() + bits::<4>(1);
        }
        self.nb.next = self.nc.val();
        if self.txl.val() {
            self.nb.next = self.nc.val() + bits::<4>(1);
        }
        if self.txf.val() {
            self.nb.next = self.nf.val();
        }
        if self.txq.val() {
            self.nb.next = bits::<4>(1);
        }
        self.nbp.next = self.nb.val() + bits::<4>(1);
        self.bdw.next = self.nb.val();
        if self.a16.val() {
            self.bdw.next = self.nbp.val() >> 1;
        }
        self.lcount.next = self.bstart.val() + self.bdw.val();
        if self.has_off.val() {
            self.lcount.next = self.bstart.val() + self.bdw.val() + bits::<4>(1);
        }
        // The body dwords.
        self.u[0].next = self.w[0].val();
        self.u[1].next = self.w[1].val();
        self.u[2].next = self.w[2].val();
        self.u[3].next = self.w[3].val();
        self.u[4].next = self.w[4].val();
        match self.bstart.val().index() {
            1 => {
                self.u[0].next = self.w[1].val();
                self.u[1].next = self.w[2].val();
                self.u[2].next = self.w[3].val();
                self.u[3].next = self.w[4].val();
                self.u[4].next = self.w[5].val();
            }
            2 => {
                self.u[0].next = self.w[2].val();
                self.u[1].next = self.w[3].val();
                self.u[2].next = self.w[4].val();
                self.u[3].next = self.w[5].val();
                self.u[4].next = self.w[6].val();
            }
            4 => {
                self.u[0].next = self.w[4].val();
                self.u[1].next = self.w[5].val();
                self.u[2].next = self.w[6].val();
                self.u[3].next = self.w[7].val();
                self.u[4].next = self.w[8].val();
            }
            6 => {
                self.u[0].next = self.w[6].val();
                self.u[1].next = self.w[7].val();
                self.u[2].next = self.w[8].val();
                self.u[3].next = self.w[9].val();
                self.u[4].next = self.w[10].val();
            }
            _ => {}
        }
        // The body components.
        self.hc[0].a.next = self.u[0].val().get_bits::<16>(0);
        self.hc[1].a.next = self.u[0].val().get_bits::<16>(16);
        self.hc[2].a.next = self.u[1].val().get_bits::<16>(0);
        self.hc[3].a.next = self.u[1].val().get_bits::<16>(16);
        self.hc[4].a.next = self.u[2].val().get_bits::<16>(0);
        if self.a16.val() {
            if self.txf.val() | self.txq.val() {
                self.comp[0].next = bit_cast::<32, 16>(self.u[0].val().get_bits::<16>(0));
                self.comp[1].next = bit_cast::<32, 16>(self.u[0].val().get_bits::<16>(16));
                self.comp[2].next = bit_cast::<32, 16>(self.u[1].val().get_bits::<16>(0));
                self.comp[3].next = bit_cast::<32, 16>(self.u[1].val().get_bits::<16>(16));
                self.comp[4].next = bit_cast::<32, 16>(self.u[2].val().get_bits::<16>(0));
            } else {
                for k in 0..5 {
                    self.comp[k].next = self.hc[k].y.val();
                }
            }
        } else {
            for k in 0..5 {
                self.comp[k].next = self.u[k].val();
            }
        }
        // Body components to the unit's fields.
        for k in 0..4 {
            self.lc[k].next = bits::<32>(0);
        }
        self.llod.next = bits::<32>(0);
        if self.txq.val() {
            self.llod.next = self.comp[0].val();
        } else if self.txf.val() {
            self.lc[0].next = self.comp[0].val();
            match self.dd.val().index() {
                0 => {
                    self.lc[3].next = self.comp[1].val();
                }
                1 => {
                    self.lc[1].next = self.comp[1].val();
                    self.lc[3].next = self.comp[2].val();
                }
                4 => {
                    self.lc[2].next = self.comp[1].val();
                    self.lc[3].next = self.comp[2].val();
                }
                _ => {
                    self.lc[1].next = self.comp[1].val();
                    self.lc[2].next = self.comp[2].val();
                    self.lc[3].next = self.comp[3].val();
                }
            }
        } else {
            self.lc[0].next = self.comp[0].val();
            if self.nc.val() >= 2 {
                self.lc[1].next = self.comp[1].val();
            }
            if self.nc.val() >= 3 {
                self.lc[2].next = self.comp[2].val();
            }
            if self.nc.val() >= 4 {
                self.lc[3].next = self.comp[3].val();
            }
            if self.txl.val() {
                match self.nc.val().index() {
                    1 => {
                        self.llod.next = self.comp[1].val();
                    }
                    2 => {
                        self.llod.next = self.comp[2].val();
                    }
                    3 => {
                        self.llod.next = self.comp[3].val();
                    }
                    _ => {
                        self.llod.next = self.comp[4].val();
                    }
                }
            }
        }
        // Bias and reference.
        self.hb.a.next = self.w[0].val().get_bits::<16>(0);
        self.lbias.next = bits::<32>(0);
        if self.txb.val() {
            self.lbias.next = self.w[0].val();
            if self.a16.val() {
                self.lbias.next = self.hb.y.val();
            }
        }
        self.lzref.next = bits::<32>(0);
        if self.cmp.val() {
            self.lzref.next = self.w[0].val();
        }
        // Derivatives: lg = dsdx, dsdy, dtdx, dtdy.
        self.gy.next = self.w[1].val();
        if self.gcls.val() == 3 {
            self.gy.next = self.w[2].val();
        }
        self.hg[0].a.next = self.w[0].val().get_bits::<16>(0);
        self.hg[1].a.next = self.gy.val().get_bits::<16>(0);
        self.hg[2].a.next = self.w[0].val().get_bits::<16>(16);
        self.hg[3].a.next = self.gy.val().get_bits::<16>(16);
        for k in 0..4 {
            self.lg[k].next = bits::<32>(0);
        }
        if self.txd.val() {
            if self.g16.val() {
                for k in 0..4 {
                    self.lg[k].next = self.hg[k].y.val();
                }
            } else {
                self.lg[0].next = self.w[0].val();
                match self.gcls.val().index() {
                    1 => {
                        self.lg[1].next = self.w[1].val();
                    }
                    3 => {
                        self.lg[1].next = self.w[3].val();
                        self.lg[2].next = self.w[1].val();
                        self.lg[3].next = self.w[4].val();
                    }
                    _ => {
                        self.lg[1].next = self.w[2].val();
                        self.lg[2].next = self.w[1].val();
                        self.lg[3].next = self.w[3].val();
                    }
                }
            }
            if self.gcls.val() == 1 {
                self.lg[2].next = bits::<32>(0);
                self.lg[3].next = bits::<32>(0);
            }
        }
        // Offsets: the low four bits of x, y and z.
        self.loff.next = bits::<12>(0);
        if self.has_off.val() {
            self.loff.next = (bit_cast::<12, 4>(self.vaddr[0].val().get_bits::<4>(16)) << 8)
                | (bit_cast::<12, 4>(self.vaddr[0].val().get_bits::<4>(8)) << 4)
                | bit_cast::<12, 4>(self.vaddr[0].val().get_bits::<4>(0));
        }
        for k in 0..4 {
            self.coord[k].next = self.lc[k].val();
            self.grad[k].next = self.lg[k].val();
        }
        self.lod.next = self.llod.val();
        self.bias.next = self.lbias.val();
        self.zref.next = self.lzref.val();
        self.off.next = self.loff.val();
        self.count.next = self.lcount.val();
    }
}

crate::settled_block! {
/// One lane's result → the MIMG data dwords. Combinational, latency 0; f32 results round to f16
/// (nearest even, [`F32ToF16`]) under `d16`. See the module documentation.
///
/// Ports: `rgba: [Bits<32>; 4]`, `int_result`, `dmask: Bits<4>`, `d16`, `tfe`, `lwe`,
/// `status: Bits<32>` → `dw: [Bits<32>; 5]`, `count: Bits<3>`.
#[derive(Clone, Debug, Default)]
pub struct MimgPack {
    /// x, y, z, w: f32 bits, or integers with `int_result`.
    pub rgba: [Signal<In, Bits<32>>; 4],
    /// Integer results (integer format or txq): D16 saturates instead of rounding.
    pub int_result: Signal<In, Bit>,
    /// Components returned (bit 0 x … bit 3 w).
    pub dmask: Signal<In, Bits<4>>,
    /// 16-bit data.
    pub d16: Signal<In, Bit>,
    /// Texel fail enable: append the status dword.
    pub tfe: Signal<In, Bit>,
    /// LOD warning enable: append the status dword, zero the data on TEXEL_FAIL.
    pub lwe: Signal<In, Bit>,
    /// The lane's status word (bit 0 TEXEL_FAIL).
    pub status: Signal<In, Bits<32>>,
    /// The returned dwords (0 past `count`).
    pub dw: [Signal<Out, Bits<32>>; 5],
    /// Returned dwords, 0…5.
    pub count: Signal<Out, Bits<3>>,
    half: [F32ToF16; 4],
    /// 16-bit components, zero-extended.
    hv: [Signal<Local, Bits<16>>; 4],
    hz: [Signal<Local, Bits<32>>; 4],
    /// Selected components so far; the 32-bit and the packed 16-bit data dwords.
    cnt: Signal<Local, Bits<3>>,
    d: [Signal<Local, Bits<32>>; 4],
    p: [Signal<Local, Bits<32>>; 2],
    cntp: Signal<Local, Bits<3>>,
    nd: Signal<Local, Bits<3>>,
    data: [Signal<Local, Bits<32>>; 4],
    o: [Signal<Local, Bits<32>>; 5],
    lcount: Signal<Local, Bits<3>>,
}
}

impl Logic for MimgPack {
    #[hdl_gen]
    fn update(&mut self) {
        for k in 0..4 {
            self.half[k].a.next = self.rgba[k].val();
            self.hv[k].next = self.half[k].y.val();
            if self.int_result.val() {
                self.hv[k].next = self.rgba[k].val().get_bits::<16>(0);
                if self.rgba[k].val().get_bits::<16>(16).any() {
                    self.hv[k].next = bits::<16>(0xffff);
                }
            }
        }
        self.hz[0].next = bit_cast::<32, 16>(self.hv[0].val());
        self.hz[1].next = bit_cast::<32, 16>(self.hv[1].val());
        self.hz[2].next = bit_cast::<32, 16>(self.hv[2].val());
        self.hz[3].next = bit_cast::<32, 16>(self.hv[3].val());
        self.cnt.next = bits::<3>(0);
        for k in 0..4 {
            self.d[k].next = bits::<32>(0);
        }
        self.p[0].next = bits::<32>(0);
        self.p[1].next = bits::<32>(0);
        if self.dmask.val().get_bit(0) {
            match self.cnt.val().index() {
                0 => {
                    self.d[0].next = self.rgba[0].val();
                    self.p[0].next = self.p[0].val() | self.hz[0].val();
                }
                1 => {
                    self.d[1].next = self.rgba[0].val();
                    self.p[0].next = self.p[0].val() | (self.hz[0].val() << 16);
                }
                2 => {
                    self.d[2].next = self.rgba[0].val();
                    self.p[1].next = self.p[1].val() | self.hz[0].val();
                }
                _ => {
                    self.d[3].next = self.rgba[0].val();
                    self.p[1].next = self.p[1].val() | (self.hz[0].val() << 16);
                }
            }
            self.cnt.next = self.cnt.val() + bits::<3>(1);
        }
        if self.dmask.val().get_bit(1) {
            match self.cnt.val().index() {
                0 => {
                    self.d[0].next = self.rgba[1].val();
                    self.p[0].next = self.p[0].val() | self.hz[1].val();
                }
                1 => {
                    self.d[1].next = self.rgba[1].val();
                    self.p[0].next = self.p[0].val() | (self.hz[1].val() << 16);
                }
                2 => {
                    self.d[2].next = self.rgba[1].val();
                    self.p[1].next = self.p[1].val() | self.hz[1].val();
                }
                _ => {
                    self.d[3].next = self.rgba[1].val();
                    self.p[1].next = self.p[1].val() | (self.hz[1].val() << 16);
                }
            }
            self.cnt.next = self.cnt.val() + bits::<3>(1);
        }
        if self.dmask.val().get_bit(2) {
            match self.cnt.val().index() {
                0 => {
                    self.d[0].next = self.rgba[2].val();
                    self.p[0].next = self.p[0].val() | self.hz[2].val();
                }
                1 => {
                    self.d[1].next = self.rgba[2].val();
                    self.p[0].next = self.p[0].val() | (self.hz[2].val() << 16);
                }
                2 => {
                    self.d[2].next = self.rgba[2].val();
                    self.p[1].next = self.p[1].val() | self.hz[2].val();
                }
                _ => {
                    self.d[3].next = self.rgba[2].val();
                    self.p[1].next = self.p[1].val() | (self.hz[2].val() << 16);
                }
            }
            self.cnt.next = self.cnt.val() + bits::<3>(1);
        }
        if self.dmask.val().get_bit(3) {
            match self.cnt.val().index() {
                0 => {
                    self.d[0].next = self.rgba[3].val();
                    self.p[0].next = self.p[0].val() | self.hz[3].val();
                }
                1 => {
                    self.d[1].next = self.rgba[3].val();
                    self.p[0].next = self.p[0].val() | (self.hz[3].val() << 16);
                }
                2 => {
                    self.d[2].next = self.rgba[3].val();
                    self.p[1].next = self.p[1].val() | self.hz[3].val();
                }
                _ => {
                    self.d[3].next = self.rgba[3].val();
                    self.p[1].next = self.p[1].val() | (self.hz[3].val() << 16);
                }
            }
            self.cnt.next = self.cnt.val() + bits::<3>(1);
        }
        self.cntp.next = self.cnt.val() + bits::<3>(1);
        if self.d16.val() {
            self.nd.next = self.cntp.val() >> 1;
            self.data[0].next = self.p[0].val();
            self.data[1].next = self.p[1].val();
            self.data[2].next = bits::<32>(0);
            self.data[3].next = bits::<32>(0);
        } else {
            self.nd.next = self.cnt.val();
            for k in 0..4 {
                self.data[k].next = self.d[k].val();
            }
        }
        if self.lwe.val() & self.status.val().get_bit(0) {
            for k in 0..4 {
                self.data[k].next = bits::<32>(0);
            }
        }
        for k in 0..4 {
            self.o[k].next = self.data[k].val();
        }
        self.o[4].next = bits::<32>(0);
        self.lcount.next = self.nd.val();
        if self.tfe.val() | self.lwe.val() {
            self.lcount.next = self.nd.val() + bits::<3>(1);
            match self.nd.val().index() {
                0 => {
                    self.o[0].next = self.status.val();
                }
                1 => {
                    self.o[1].next = self.status.val();
                }
                2 => {
                    self.o[2].next = self.status.val();
                }
                3 => {
                    self.o[3].next = self.status.val();
                }
                _ => {
                    self.o[4].next = self.status.val();
                }
            }
        }
        for k in 0..5 {
            self.dw[k].next = self.o[k].val();
        }
        self.count.next = self.lcount.val();
    }
}
