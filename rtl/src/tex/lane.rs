//! One lane's texel datapath: conversion of its eight taps, border colour, depth compare, the
//! weights, the filter and the swizzle (or the gather4 selection).
//!
//! # Ports
//! Per tap k (slot 4·level + k' of the address pipeline's order: level 0's (i0,j0), (i1,j0),
//! (i0,j1), (i1,j1), then level 1's): `lo[k]` (the texel's bytes from bit 0; bytes 8…15 of a
//! 16-byte texel in `hi[k]`), `border[k]`. Lane state: `bcol[4]` (border colour; f32 denormals are flushed to signed zero here, integers pass), `fmt` (format
//! code), `swz` (swizzle, 3 bits per component), the address pipeline's weights `wu`, `wv`
//! (level 0), `wu1`, `wv1` (level 1) and the LOD unit's `frac`, `trilinear` (blend the two levels),
//! `linear`, `one_d`, `mode` (0 filter, 1 depth compare, 2 gather4), `func`, `reference`,
//! `gcomp`; anisotropic probes: `n` (the lane's probe count N), `first` (probe 0) and per component
//! the probe sum so far `ps_e[c]`, `ps_acc[c]`, `ps_fl[c]` ({nan, +inf, −inf}); a 3D lookup's
//! planes use the same sum: `pw` (the plane's weight W_p, 1 otherwise), `s3` (the planes' scale S3,
//! 0 when the lane is not a multi-plane 3D lookup), `first` (plane 0). Outputs `rgba[4]`
//! and the new probe sum `ns_e[c]`, `ns_acc[c]`, `ns_fl[c]`.
//!
//! # Arithmetic
//! Weights W = f_u·f_v·f_l with f_u = 256 − wu or wu (by the tap's i0/i1; 1 for k' = 0 and 0
//! otherwise when nearest), f_v likewise (1 for the first two taps and 0 for the others in 1D or
//! nearest), f_l = 256 − frac or frac (level 0/1) when `trilinear`, else 1 for level 0 and 0 for level 1:
//! sixteen small products (9×9 then ×9 bits). S = 8·(trilinear + (linear ? 1 or 2 : 0)). S = 0 or an
//! integer format returns tap 0 unchanged; otherwise each component is one [`TapBlend`]. Compare
//! replaces every tap by [`DepthCompare`]'s 1.0/0.0 and returns (p, p, p, 1.0). With N > 1 each
//! component of that vector joins its [`ProbeAccum`] sum and the lane returns the [`ProbeMean`]
//! of the sum so far (the unit keeps the last probe's), before the swizzle; with S3 > 0 it joins
//! with weight W_p and the lane returns the sum so far times 2^−S3 (the last plane's is the
//! 3D result).
//! Combinational: latency 0.

use super::{DepthCompare, ProbeAccum, ProbeMean, TapBlend, TexelConvert};
use crate::common::fp::MulU;
use rust_hdl::prelude::*;

crate::settled_block! {
/// One lane's texel datapath. See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct FilterLane {
    /// Texel bytes 0…7 per tap.
    pub lo: [Signal<In, Bits<64>>; 8],
    /// Texel bytes 8…15 per tap.
    pub hi: [Signal<In, Bits<64>>; 8],
    /// Border tap.
    pub border: [Signal<In, Bit>; 8],
    /// Border colour.
    pub bcol: [Signal<In, Bits<32>>; 4],
    /// Format code.
    pub fmt: Signal<In, Bits<5>>,
    /// Swizzle: component c in bits 3c…3c+2.
    pub swz: Signal<In, Bits<12>>,
    /// Level-0 u weight.
    pub wu: Signal<In, Bits<8>>,
    /// Level-0 v weight.
    pub wv: Signal<In, Bits<8>>,
    /// Level-1 u weight.
    pub wu1: Signal<In, Bits<8>>,
    /// Level-1 v weight.
    pub wv1: Signal<In, Bits<8>>,
    /// Mip fraction.
    pub frac: Signal<In, Bits<8>>,
    /// Blend two levels.
    pub trilinear: Signal<In, Bit>,
    /// Bilinear footprint.
    pub linear: Signal<In, Bit>,
    /// 1D texture.
    pub one_d: Signal<In, Bit>,
    /// 0 filter, 1 depth compare, 2 gather4.
    pub mode: Signal<In, Bits<2>>,
    /// Compare function.
    pub func: Signal<In, Bits<3>>,
    /// Depth reference (f32).
    pub reference: Signal<In, Bits<32>>,
    /// gather4's component.
    pub gcomp: Signal<In, Bits<2>>,
    /// Probe count.
    pub n: Signal<In, Bits<5>>,
    /// Probe 0 (or plane 0): start the sums.
    pub first: Signal<In, Bit>,
    /// The value's weight in the sum (a 3D plane's W_p; 1 for probes).
    pub pw: Signal<In, Bits<17>>,
    /// A 3D lookup's plane scale S3 (0: none).
    pub s3: Signal<In, Bits<5>>,
    /// Probe sum so far: block exponent per component.
    pub ps_e: [Signal<In, Bits<8>>; 4],
    /// Probe sum so far per component.
    pub ps_acc: [Signal<In, Bits<45>>; 4],
    /// Probe sum flags {nan, +inf, −inf} per component.
    pub ps_fl: [Signal<In, Bits<3>>; 4],
    /// Result.
    pub rgba: [Signal<Out, Bits<32>>; 4],
    /// New probe sum: block exponent.
    pub ns_e: [Signal<Out, Bits<8>>; 4],
    /// New probe sum.
    pub ns_acc: [Signal<Out, Bits<45>>; 4],
    /// New probe sum flags.
    pub ns_fl: [Signal<Out, Bits<3>>; 4],

    conv: [TexelConvert; 8],
    cmp: DepthCompare,
    blend_r: TapBlend,
    blend_g: TapBlend,
    blend_b: TapBlend,
    blend_a: TapBlend,
    fuv: [MulU<9, 9, 18>; 8],
    fl: [MulU<18, 9, 25>; 8],
    /// Texel k component c at 4k + c.
    texel: [Signal<Local, Bits<32>>; 32],
    gath: [Signal<Local, Bits<32>>; 4],
    fu: [Signal<Local, Bits<9>>; 8],
    fv: [Signal<Local, Bits<9>>; 8],
    flv: [Signal<Local, Bits<9>>; 8],
    s: Signal<Local, Bits<5>>,
    is_int: Signal<Local, Bit>,
    unorm: Signal<Local, Bit>,
    vec: [Signal<Local, Bits<32>>; 4],
    /// The vector after the probe mean.
    avg: [Signal<Local, Bits<32>>; 4],
    pflags: [Signal<Local, Bits<3>>; 4],
    paccum: [ProbeAccum; 4],
    pmean: [ProbeMean; 4],
    one: Signal<Local, Bits<32>>,
    sel: [Signal<Local, Bits<3>>; 4],
    /// The border colour as a texel.
    bflush: [Signal<Local, Bits<32>>; 4],
}
}

impl Logic for FilterLane {
    #[hdl_gen]
    fn update(&mut self) {
        // Formats: integer (r32ui 17, rgba8ui 18); not UNORM: snorm 3, float 11…16, integers, d32f 20.
        self.is_int.next = (self.fmt.val() == 17) | (self.fmt.val() == 18);
        self.unorm.next = !((self.fmt.val() == 3)
            | ((self.fmt.val() >= 11) & (self.fmt.val() <= 18))
            | (self.fmt.val() == 20));
        self.one.next = 0x3F80_0000.into();
        if self.is_int.val() {
            self.one.next = 1.into();
        }

        // Border colour: f32 denormals flushed to signed zero like every texel's (not integers).
        for c in 0..4 {
            self.bflush[c].next = self.bcol[c].val();
            if !self.is_int.val() & !self.bcol[c].val().get_bits::<8>(23).any() {
                self.bflush[c].next = self.bcol[c].val() & 0x8000_0000_u64;
            }
        }

        // Conversion and border colour.
        for k in 0..8 {
            self.conv[k].raw_lo.next = self.lo[k].val();
            self.conv[k].raw_hi.next = self.hi[k].val();
            self.conv[k].fmt.next = self.fmt.val();
            // (Components as separate ports: the Verilog generator cannot index a port array of
            // a block that is itself in an array.)
            self.texel[4 * k].next = self.conv[k].r.val();
            self.texel[4 * k + 1].next = self.conv[k].g.val();
            self.texel[4 * k + 2].next = self.conv[k].b.val();
            self.texel[4 * k + 3].next = self.conv[k].a.val();
            if self.border[k].val() {
                self.texel[4 * k].next = self.bflush[0].val();
                self.texel[4 * k + 1].next = self.bflush[1].val();
                self.texel[4 * k + 2].next = self.bflush[2].val();
                self.texel[4 * k + 3].next = self.bflush[3].val();
            }
        }

        // Weights.
        for lv in 0..2 {
            for k in 0..4 {
                // u factor
                if self.linear.val() {
                    if lv == 0 {
                        self.fu[4 * lv + k].next = bits::<9>(256) - bit_cast::<9, 8>(self.wu.val());
                    } else {
                        self.fu[4 * lv + k].next =
                            bits::<9>(256) - bit_cast::<9, 8>(self.wu1.val());
                    }
                } else {
                    self.fu[4 * lv + k].next = 0.into();
                }
                // v factor
                if self.linear.val() & !self.one_d.val() {
                    if lv == 0 {
                        self.fv[4 * lv + k].next = bits::<9>(256) - bit_cast::<9, 8>(self.wv.val());
                    } else {
                        self.fv[4 * lv + k].next =
                            bits::<9>(256) - bit_cast::<9, 8>(self.wv1.val());
                    }
                } else {
                    self.fv[4 * lv + k].next = 1.into();
                }
                // level factor
                if self.trilinear.val() {
                    if lv == 0 {
                        self.flv[4 * lv + k].next =
                            bits::<9>(256) - bit_cast::<9, 8>(self.frac.val());
                    } else {
                        self.flv[4 * lv + k].next = bit_cast::<9, 8>(self.frac.val());
                    }
                } else if lv == 0 {
                    self.flv[4 * lv + k].next = 1.into();
                } else {
                    self.flv[4 * lv + k].next = 0.into();
                }
            }
        }
        // The i1 taps (k odd) take wu; the j1 taps (k ≥ 2) take wv; nearest and 1D drop taps.
        for lv in 0..2 {
            if self.linear.val() {
                if lv == 0 {
                    self.fu[4 * lv + 1].next = bit_cast::<9, 8>(self.wu.val());
                    self.fu[4 * lv + 3].next = bit_cast::<9, 8>(self.wu.val());
                } else {
                    self.fu[4 * lv + 1].next = bit_cast::<9, 8>(self.wu1.val());
                    self.fu[4 * lv + 3].next = bit_cast::<9, 8>(self.wu1.val());
                }
            } else {
                self.fu[4 * lv].next = 1.into();
            }
            if self.linear.val() & !self.one_d.val() {
                if lv == 0 {
                    self.fv[4 * lv + 2].next = bit_cast::<9, 8>(self.wv.val());
                    self.fv[4 * lv + 3].next = bit_cast::<9, 8>(self.wv.val());
                } else {
                    self.fv[4 * lv + 2].next = bit_cast::<9, 8>(self.wv1.val());
                    self.fv[4 * lv + 3].next = bit_cast::<9, 8>(self.wv1.val());
                }
            } else {
                self.fv[4 * lv + 2].next = 0.into();
                self.fv[4 * lv + 3].next = 0.into();
            }
        }
        for k in 0..8 {
            self.fuv[k].a.next = self.fu[k].val();
            self.fuv[k].b.next = self.fv[k].val();
            self.fl[k].a.next = self.fuv[k].p.val();
            self.fl[k].b.next = self.flv[k].val();
        }
        self.s.next = 0.into();
        if self.linear.val() {
            self.s.next = 16.into();
            if self.one_d.val() {
                self.s.next = 8.into();
            }
        }
        if self.trilinear.val() {
            self.s.next = self.s.val() + 8;
        }

        // Depth compare of component 0.
        self.cmp.reference.next = self.reference.val();
        self.cmp.unorm.next = self.unorm.val();
        self.cmp.func.next = self.func.val();
        for k in 0..8 {
            self.cmp.z[k].next = self.texel[4 * k].val();
        }

        // Filters: component c, or the compare results in filter 0.
        for k in 0..8 {
            self.blend_r.w[k].next = self.fl[k].p.val();
            self.blend_g.w[k].next = self.fl[k].p.val();
            self.blend_b.w[k].next = self.fl[k].p.val();
            self.blend_a.w[k].next = self.fl[k].p.val();
            self.blend_r.tap[k].next = self.texel[4 * k].val();
            self.blend_g.tap[k].next = self.texel[4 * k + 1].val();
            self.blend_b.tap[k].next = self.texel[4 * k + 2].val();
            self.blend_a.tap[k].next = self.texel[4 * k + 3].val();
        }
        self.blend_r.s.next = self.s.val();
        self.blend_g.s.next = self.s.val();
        self.blend_b.s.next = self.s.val();
        self.blend_a.s.next = self.s.val();
        if self.mode.val() == 1 {
            for k in 0..8 {
                self.blend_r.tap[k].next = self.cmp.pass[k].val();
            }
        }
        self.vec[0].next = self.blend_r.y.val();
        self.vec[1].next = self.blend_g.y.val();
        self.vec[2].next = self.blend_b.y.val();
        self.vec[3].next = self.blend_a.y.val();
        for c in 0..4 {
            if (self.s.val() == 0) | self.is_int.val() {
                self.vec[c].next = self.texel[c].val();
            }
        }
        if self.mode.val() == 1 {
            self.vec[0].next = self.blend_r.y.val();
            if self.s.val() == 0 {
                self.vec[0].next = self.cmp.pass[0].val();
            }
            self.vec[1].next = self.vec[0].val();
            self.vec[2].next = self.vec[0].val();
            self.vec[3].next = 0x3F80_0000.into();
        }

        // Anisotropic probes: sum, mean.
        for c in 0..4 {
            self.paccum[c].x.next = self.vec[c].val();
            self.paccum[c].first.next = self.first.val();
            self.paccum[c].w.next = self.pw.val();
            self.pmean[c].s3.next = self.s3.val();
            self.paccum[c].e_in.next = self.ps_e[c].val();
            self.paccum[c].acc_in.next = self.ps_acc[c].val();
            self.paccum[c].nan_in.next = self.ps_fl[c].val().get_bit(2);
            self.paccum[c].pinf_in.next = self.ps_fl[c].val().get_bit(1);
            self.paccum[c].ninf_in.next = self.ps_fl[c].val().get_bit(0);
            self.pmean[c].e.next = self.paccum[c].e.val();
            self.pmean[c].acc.next = self.paccum[c].acc.val();
            self.pmean[c].nan.next = self.paccum[c].nan.val();
            self.pmean[c].pinf.next = self.paccum[c].pinf.val();
            self.pmean[c].ninf.next = self.paccum[c].ninf.val();
            self.pmean[c].n.next = self.n.val();
            self.ns_e[c].next = self.paccum[c].e.val();
            self.ns_acc[c].next = self.paccum[c].acc.val();
            self.pflags[c].next = bits::<3>(0);
            if self.paccum[c].nan.val() {
                self.pflags[c].next = bits::<3>(4);
            }
            if self.paccum[c].pinf.val() {
                self.pflags[c].next = self.pflags[c].val() | bits::<3>(2);
            }
            if self.paccum[c].ninf.val() {
                self.pflags[c].next = self.pflags[c].val() | bits::<3>(1);
            }
            self.ns_fl[c].next = self.pflags[c].val();
            self.avg[c].next = self.vec[c].val();
            if (self.n.val() > bits::<5>(1)) | self.s3.val().any() {
                self.avg[c].next = self.pmean[c].y.val();
            }
        }

        // Swizzle.
        for c in 0..4 {
            self.sel[c].next = self.swz.val().get_bits::<3>(3 * c);
            self.rgba[c].next = 0.into();
            match self.sel[c].val().index() {
                0 => self.rgba[c].next = self.avg[0].val(),
                1 => self.rgba[c].next = self.avg[1].val(),
                2 => self.rgba[c].next = self.avg[2].val(),
                3 => self.rgba[c].next = self.avg[3].val(),
                5 => self.rgba[c].next = self.one.val(),
                _ => {}
            }
        }

        // gather4: component gcomp of taps (i0,j1), (i1,j1), (i1,j0), (i0,j0); 1D: 0, 1, 1, 0.
        for k in 0..4 {
            match self.gcomp.val().index() {
                0 => self.gath[k].next = self.texel[4 * k].val(),
                1 => self.gath[k].next = self.texel[4 * k + 1].val(),
                2 => self.gath[k].next = self.texel[4 * k + 2].val(),
                _ => self.gath[k].next = self.texel[4 * k + 3].val(),
            }
        }
        if self.mode.val() == 2 {
            if self.one_d.val() {
                self.rgba[0].next = self.gath[0].val();
                self.rgba[1].next = self.gath[1].val();
                self.rgba[2].next = self.gath[1].val();
                self.rgba[3].next = self.gath[0].val();
            } else {
                self.rgba[0].next = self.gath[2].val();
                self.rgba[1].next = self.gath[3].val();
                self.rgba[2].next = self.gath[1].val();
                self.rgba[3].next = self.gath[0].val();
            }
        }
    }
}
