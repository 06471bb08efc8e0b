//! The PIXLD queries of one pixel lane, shared by [`super::CoverageLane`] (four op slots side by
//! side) and [`super::CoverageSerial`] (one lane and one op slot per clock).
//!
//! [`LaneCentroid`] picks the centroid sample's position of a lane (with [`HelperCentroid`], its
//! fallback that needs no coverage, and [`LowestPos`], the select both use), [`OpSelect`] checks one op
//! slot's sample index and selects that sample's position (it needs no coverage, so the lane
//! runs it beside its edge tests), and [`OpQuery`] answers the op slot from the lane's final
//! coverage mask and [`OpSelect`]'s results. All are combinational (latency 0); ports are
//! documented on the fields.

use super::pattern::{OffsetEncode, SamplePosF32};
use rust_hdl::prelude::*;

crate::settled_block! {
/// The position of a mask's lowest set sample (`0` for an empty mask): the lowest set bit as a
/// one-hot word (`m & −m`, one carry chain), then an AND-OR select of its position, so that no
/// priority chain runs through the 16 samples.
#[derive(Clone, Debug, Default)]
pub struct LowestPos {
    /// The sample mask to search.
    pub mask: Signal<In, Bits<16>>,
    /// The lane's sample positions `{dy, dx}`.
    pub pos: [Signal<In, Bits<8>>; 16],
    /// The position of the lowest set sample, or 0.
    pub code: Signal<Out, Bits<8>>,
    low: Signal<Local, Bits<16>>,
    codel: Signal<Local, Bits<8>>,
}
}

impl Logic for LowestPos {
    #[hdl_gen]
    fn update(&mut self) {
        self.low.next = self.mask.val() & ((!self.mask.val()) + bits::<16>(1));
        self.codel.next = 0.into();
        for s in 0..16 {
            if self.low.val().get_bit(s) {
                self.codel.next = self.codel.val() | self.pos[s].val();
            }
        }
        self.code.next = self.codel.val();
    }
}

crate::settled_block! {
/// The centroid a lane falls back to when no sample is covered (a helper pixel): the lowest
/// sample of a strict, non-empty subset sample mask, else the centre (code 0). It needs no
/// coverage, so the lane computes it beside its edge tests.
#[derive(Clone, Debug, Default)]
pub struct HelperCentroid {
    /// Sample mask.
    pub smask: Signal<In, Bits<16>>,
    /// Samples in the raster mode: `(1 << n) − 1`.
    pub nmask: Signal<In, Bits<16>>,
    /// The lane's sample positions `{dy, dx}`.
    pub pos: [Signal<In, Bits<8>>; 16],
    /// The helper pixel's centroid position.
    pub code: Signal<Out, Bits<8>>,
    lowest: LowestPos,
    sub: Signal<Local, Bits<16>>,
}
}

impl Logic for HelperCentroid {
    #[hdl_gen]
    fn update(&mut self) {
        self.sub.next = self.smask.val() & self.nmask.val();
        self.lowest.mask.next = 0.into();
        if self.sub.val() != self.nmask.val() {
            self.lowest.mask.next = self.sub.val();
        }
        for s in 0..16 {
            self.lowest.pos[s].next = self.pos[s].val();
        }
        self.code.next = self.lowest.code.val();
    }
}

crate::settled_block! {
/// Centroid position of a lane (Direct3D rule): the centre (code 0) if fully covered, else the
/// lowest covered sample, else the helper pixel's centroid ([`HelperCentroid`]).
#[derive(Clone, Debug, Default)]
pub struct LaneCentroid {
    /// Final coverage mask of the lane (sample mask applied, bits ≥ n clear).
    pub covl: Signal<In, Bits<16>>,
    /// Samples in the raster mode: `(1 << n) − 1`.
    pub nmask: Signal<In, Bits<16>>,
    /// The lane's sample positions `{dy, dx}`.
    pub pos: [Signal<In, Bits<8>>; 16],
    /// The helper pixel's centroid ([`HelperCentroid`]).
    pub helper: Signal<In, Bits<8>>,
    /// The centroid sample's position (`0`: the pixel centre).
    pub code: Signal<Out, Bits<8>>,
    lowest: LowestPos,
}
}

impl Logic for LaneCentroid {
    #[hdl_gen]
    fn update(&mut self) {
        self.lowest.mask.next = self.covl.val();
        for s in 0..16 {
            self.lowest.pos[s].next = self.pos[s].val();
        }
        self.code.next = self.helper.val();
        if self.covl.val() == self.nmask.val() {
            self.code.next = 0.into();
        } else if self.covl.val().any() {
            self.code.next = self.lowest.code.val();
        }
    }
}

crate::settled_block! {
/// The sample an op slot names: whether its index is below n, and that sample's position.
#[derive(Clone, Debug, Default)]
pub struct OpSelect {
    /// Op sample index.
    pub op_index: Signal<In, Bits<32>>,
    /// Raster sample count n.
    pub n32: Signal<In, Bits<32>>,
    /// The lane's sample positions `{dy, dx}`.
    pub pos: [Signal<In, Bits<8>>; 16],
    /// `op_index < n`.
    pub ok: Signal<Out, Bit>,
    /// `op_index[3:0]`.
    pub idx: Signal<Out, Bits<4>>,
    /// The position of sample `op_index` if `ok`, else 0.
    pub code: Signal<Out, Bits<8>>,
    okl: Signal<Local, Bit>,
    codel: Signal<Local, Bits<8>>,
}
}

impl Logic for OpSelect {
    #[hdl_gen]
    fn update(&mut self) {
        self.okl.next = self.op_index.val() < self.n32.val();
        self.codel.next = 0.into();
        for s in 0..16 {
            if self.okl.val() & (self.op_index.val().get_bits::<4>(0).index() == s) {
                self.codel.next = self.pos[s].val();
            }
        }
        self.ok.next = self.okl.val();
        self.idx.next = self.op_index.val().get_bits::<4>(0);
        self.code.next = self.codel.val();
    }
}

crate::settled_block! {
/// One PIXLD op slot of one lane.
#[derive(Clone, Debug, Default)]
pub struct OpQuery {
    /// Final coverage mask of the lane.
    pub covl: Signal<In, Bits<16>>,
    /// The op's sample index is below n ([`OpSelect`]).
    pub ok: Signal<In, Bit>,
    /// The op's sample index, low four bits ([`OpSelect`]).
    pub idx: Signal<In, Bits<4>>,
    /// The position of the op's sample, or 0 ([`OpSelect`]).
    pub sel_code: Signal<In, Bits<8>>,
    /// Raster sample count n.
    pub n32: Signal<In, Bits<32>>,
    /// Positions are the standard (fixed) pattern and n ≤ 8: OFFSET is supported.
    pub offset_ok: Signal<In, Bit>,
    /// Supersampling mode.
    pub ssaa: Signal<In, Bit>,
    /// This lane's invocation sample index (SSAA).
    pub sid: Signal<In, Bits<4>>,
    /// The lane's centroid position ([`LaneCentroid`]).
    pub ccode: Signal<In, Bits<8>>,
    /// Op mode (PIXLD encodings 0–7, then SAMPLE_INFO 8, SAMPLE_POS_X 9, SAMPLE_POS_Y 10).
    pub op_mode: Signal<In, Bits<4>>,
    /// TGSI position convention.
    pub op_tgsi: Signal<In, Bit>,
    /// Rd.
    pub rd: Signal<Out, Bits<32>>,
    /// Pd value.
    pub pd: Signal<Out, Bit>,
    offset_enc: OffsetEncode,
    spos: SamplePosF32,
    sel_cov: Signal<Local, Bit>,
    rdl: Signal<Local, Bits<32>>,
    pdl: Signal<Local, Bit>,
    codel: Signal<Local, Bits<8>>,
    dl: Signal<Local, Bits<4>>,
}
}

impl Logic for OpQuery {
    // `#[hdl_gen]` does not translate match guards, so the arms keep their nested `if`s.
    #[allow(clippy::collapsible_match)]
    #[hdl_gen]
    fn update(&mut self) {
        self.sel_cov.next = false;
        for s in 0..16 {
            if self.ok.val() & (self.idx.val().index() == s) {
                self.sel_cov.next = self.covl.val().get_bit(s);
            }
        }
        self.codel.next = 0.into();
        self.dl.next = 0.into();
        self.rdl.next = 0.into();
        self.pdl.next = false;
        match self.op_mode.val().index() {
            0 => {
                self.rdl.next = self.n32.val();
            }
            1 => {
                self.rdl.next = bit_cast::<32, 16>(self.covl.val());
            }
            2 => {
                if self.sel_cov.val() {
                    self.rdl.next = bits::<32>(0xffff_ffff_u64);
                    self.pdl.next = true;
                }
            }
            3 => {
                if self.offset_ok.val() {
                    self.codel.next = self.sel_code.val();
                }
                self.rdl.next = self.offset_enc.enc.val();
            }
            4 => {
                self.codel.next = self.ccode.val();
                self.rdl.next = self.offset_enc.enc.val();
            }
            5 => {
                if self.ssaa.val() {
                    self.rdl.next = bit_cast::<32, 4>(self.sid.val());
                    self.pdl.next = true;
                }
            }
            8 => {
                self.rdl.next = self.n32.val();
            }
            9 => {
                self.dl.next = self.sel_code.val().get_bits::<4>(0);
                self.rdl.next = self.spos.f.val();
            }
            10 => {
                self.dl.next = self.sel_code.val().get_bits::<4>(4);
                self.rdl.next = self.spos.f.val();
            }
            _ => {}
        }
        self.offset_enc.code.next = self.codel.val();
        self.spos.d.next = self.dl.val();
        self.spos.tgsi.next = self.op_tgsi.val();
        self.rd.next = self.rdl.val();
        self.pd.next = self.pdl.val();
    }
}
