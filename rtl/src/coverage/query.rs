//! The PIXLD queries of one pixel lane, shared by [`super::CoverageLane`] (four op slots side by
//! side) and [`super::CoverageSerial`] (one lane and one op slot per clock).
//!
//! [`LaneCentroid`] picks the centroid sample's position of a lane, and on the sample mask that of
//! its helper-pixel fallback, which needs no coverage (with [`OneHotPos`], its select), [`OpSelect`] checks one op
//! slot's sample index and selects that sample's position (it needs no coverage, so the lane
//! runs it beside its edge tests), and [`OpQuery`] answers the op slot from the lane's final
//! coverage mask and [`OpSelect`]'s results: [`OpEarly`] (the decode of every mode that needs no
//! coverage) and [`OpEncode`] (its OFFSET or SAMPLE_POS encoding), [`OpCovered`] (COVERED's bit,
//! from the mask), then [`OpLate`] (the select of COVMASK, COVERED, CENTROID_OFFSET), which the
//! lane runs with its cuts between them. All are combinational (latency 0) but
//! [`LaneCentroid`], which may hold cut L; ports are documented on the fields.

use super::pattern::{OffsetEncode, SamplePosF32};
use crate::common::fp::Retime;
use rust_hdl::prelude::*;

crate::settled_block! {
/// The position of the sample a one-hot word picks (`0` for an empty word): an AND-OR select, no
/// priority chain.
#[derive(Clone, Debug, Default)]
pub struct OneHotPos {
    /// At most one bit set: the sample to select.
    pub pick: Signal<In, Bits<16>>,
    /// The lane's sample positions `{dy, dx}`.
    pub pos: [Signal<In, Bits<8>>; 16],
    /// The picked sample's position, or 0.
    pub code: Signal<Out, Bits<8>>,
    codel: Signal<Local, Bits<8>>,
}
}

impl Logic for OneHotPos {
    #[hdl_gen]
    fn update(&mut self) {
        self.codel.next = 0.into();
        for s in 0..16 {
            if self.pick.val().get_bit(s) {
                self.codel.next = self.codel.val() | self.pos[s].val();
            }
        }
        self.code.next = self.codel.val();
    }
}

crate::settled_block! {
/// Centroid position of a lane (Direct3D rule): the centre (code 0) if fully covered, else the
/// lowest covered sample, else the helper pixel's centroid (`helper`). The helper pixel's
/// centroid is the same block on the sample mask: with `covl` = sample mask & `nmask` and
/// `helper` = 0 it is the lowest sample of a strict, non-empty subset sample mask, else the
/// centre; it needs no coverage, so the lane computes it beside its edge tests.
///
/// Built with [`LaneCentroid::new`]`(cuts)`, 0 or 1: with 1, cut L registers the decision (the
/// lowest covered sample as a one-hot word, and whether the helper's centroid applies) between
/// the mask's carry chain and the position select, with the positions and the helper's code
/// delayed beside it (latency 1); with 0 it is combinational and `clock`, `en` are unused.
#[derive(Clone, Debug)]
pub struct LaneCentroid {
    /// Clock (used with cut L only).
    pub clock: Signal<In, Clock>,
    /// Advance cut L.
    pub en: Signal<In, Bit>,
    /// Final coverage mask of the lane (sample mask applied, bits ≥ n clear).
    pub covl: Signal<In, Bits<16>>,
    /// Samples in the raster mode: `(1 << n) − 1`.
    pub nmask: Signal<In, Bits<16>>,
    /// The lane's sample positions `{dy, dx}`.
    pub pos: [Signal<In, Bits<8>>; 16],
    /// The helper pixel's centroid (this block on the sample mask).
    pub helper: Signal<In, Bits<8>>,
    /// The centroid sample's position (`0`: the pixel centre).
    pub code: Signal<Out, Bits<8>>,
    pick: Signal<Local, Bits<16>>,
    use_helper: Signal<Local, Bit>,
    l_pick: Retime<Bits<16>>,
    l_use_helper: Retime<Bit>,
    l_helper: Retime<Bits<8>>,
    l_pos: [Retime<Bits<8>>; 16],
    select: OneHotPos,
}
}

impl Default for LaneCentroid {
    fn default() -> Self {
        Self::new(0)
    }
}

impl LaneCentroid {
    /// The centroid with `cuts` (0 or 1) register stages: cut L.
    pub fn new(cuts: usize) -> Self {
        assert!(cuts <= 1, "lane centroid: 0 or 1 cuts, not {cuts}");
        Self {
            settle: crate::common::settle::SettleState::new(cuts > 0),
            clock: Default::default(),
            en: Default::default(),
            covl: Default::default(),
            nmask: Default::default(),
            pos: Default::default(),
            helper: Default::default(),
            code: Default::default(),
            pick: Default::default(),
            use_helper: Default::default(),
            l_pick: Retime::new(cuts),
            l_use_helper: Retime::new(cuts),
            l_helper: Retime::new(cuts),
            l_pos: std::array::from_fn(|_| Retime::new(cuts)),
            select: Default::default(),
        }
    }
}

impl Logic for LaneCentroid {
    #[hdl_gen]
    fn update(&mut self) {
        // Fully covered: the centre (nothing picked); else the lowest covered sample; else none
        // is covered and the helper's centroid applies.
        self.pick.next = 0.into();
        self.use_helper.next = false;
        if self.covl.val() != self.nmask.val() {
            self.pick.next = self.covl.val() & ((!self.covl.val()) + bits::<16>(1));
            self.use_helper.next = !self.covl.val().any();
        }
        // Cut L.
        self.l_pick.clock.next = self.clock.val();
        self.l_pick.en.next = self.en.val();
        self.l_pick.d.next = self.pick.val();
        self.l_use_helper.clock.next = self.clock.val();
        self.l_use_helper.en.next = self.en.val();
        self.l_use_helper.d.next = self.use_helper.val();
        self.l_helper.clock.next = self.clock.val();
        self.l_helper.en.next = self.en.val();
        self.l_helper.d.next = self.helper.val();
        for s in 0..16 {
            self.l_pos[s].clock.next = self.clock.val();
            self.l_pos[s].en.next = self.en.val();
            self.l_pos[s].d.next = self.pos[s].val();
            self.select.pos[s].next = self.l_pos[s].q.val();
        }
        self.select.pick.next = self.l_pick.q.val();
        self.code.next = self.select.code.val();
        if self.l_use_helper.q.val() {
            self.code.next = self.l_helper.q.val();
        }
    }
}

crate::settled_block! {
/// The sample an op slot names: whether its index is below n, and the position of sample
/// `index mod 16` (not gated by the check, so that the compare's carry chain and the select run
/// side by side; [`OpQuery`] applies `ok`).
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
    /// The position of sample `op_index[3:0]`.
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
            if self.op_index.val().get_bits::<4>(0).index() == s {
                self.codel.next = self.pos[s].val();
            }
        }
        self.ok.next = self.okl.val();
        self.idx.next = self.op_index.val().get_bits::<4>(0);
        self.code.next = self.codel.val();
    }
}

crate::settled_block! {
/// The part of one PIXLD op slot that needs no coverage, decoded: the result of every mode that
/// does not read the coverage mask or the centroid (a word, or what [`OpEncode`] encodes), and
/// for the three that do, which one (`kind`), so that [`OpLate`] after the lane's cuts is a
/// select.
#[derive(Clone, Debug, Default)]
pub struct OpEarly {
    /// The op's sample index is below n ([`OpSelect`]).
    pub ok: Signal<In, Bit>,
    /// The position of the op's sample ([`OpSelect`]; used only when `ok`).
    pub sel_code: Signal<In, Bits<8>>,
    /// Raster sample count n.
    pub n32: Signal<In, Bits<32>>,
    /// Positions are the standard (fixed) pattern and n ≤ 8: OFFSET is supported.
    pub offset_ok: Signal<In, Bit>,
    /// Supersampling mode.
    pub ssaa: Signal<In, Bit>,
    /// This lane's invocation sample index (SSAA).
    pub sid: Signal<In, Bits<4>>,
    /// Op mode (PIXLD encodings 0–7, then SAMPLE_INFO 8, SAMPLE_POS_X 9, SAMPLE_POS_Y 10).
    pub op_mode: Signal<In, Bits<4>>,
    /// TGSI position convention.
    pub op_tgsi: Signal<In, Bit>,
    /// 0: the result is `rd` and `pd` as they are; 1: COVMASK (the coverage mask); 2: COVERED
    /// (the op's sample bit of the mask); 3: CENTROID_OFFSET (the centroid's position).
    pub kind: Signal<Out, Bits<2>>,
    /// Which encoder makes Rd of an early kind ([`OpEncode`]): 0 none (`rd` as it is), 1 the
    /// OFFSET encoding of `code`, 2 the f32 position of `d`.
    pub enc: Signal<Out, Bits<2>>,
    /// OFFSET's sample position (0 where OFFSET is not supported or the index is out of range).
    pub code: Signal<Out, Bits<8>>,
    /// SAMPLE_POS_X/Y's offset component (0 for an index out of range).
    pub d: Signal<Out, Bits<4>>,
    /// TGSI position convention (for `d`).
    pub tgsi: Signal<Out, Bit>,
    /// Rd of an early kind without an encoder (else 0).
    pub rd: Signal<Out, Bits<32>>,
    /// Pd of an early kind (else 0).
    pub pd: Signal<Out, Bit>,
    /// `sel_code` if the index is below n, else 0.
    sel_pos: Signal<Local, Bits<8>>,
}
}

impl Logic for OpEarly {
    // `#[hdl_gen]` does not translate match guards, so the arms keep their nested `if`s.
    #[allow(clippy::collapsible_match)]
    #[hdl_gen]
    fn update(&mut self) {
        self.sel_pos.next = 0.into();
        if self.ok.val() {
            self.sel_pos.next = self.sel_code.val();
        }
        self.kind.next = bits::<2>(0);
        self.enc.next = bits::<2>(0);
        self.code.next = 0.into();
        self.d.next = 0.into();
        self.tgsi.next = self.op_tgsi.val();
        self.rd.next = 0.into();
        self.pd.next = false;
        match self.op_mode.val().index() {
            0 => {
                self.rd.next = self.n32.val();
            }
            1 => {
                self.kind.next = bits::<2>(1);
            }
            2 => {
                self.kind.next = bits::<2>(2);
            }
            3 => {
                if self.offset_ok.val() {
                    self.code.next = self.sel_pos.val();
                }
                self.enc.next = bits::<2>(1);
            }
            4 => {
                self.kind.next = bits::<2>(3);
            }
            5 => {
                if self.ssaa.val() {
                    self.rd.next = bit_cast::<32, 4>(self.sid.val());
                    self.pd.next = true;
                }
            }
            8 => {
                self.rd.next = self.n32.val();
            }
            9 => {
                self.d.next = self.sel_pos.val().get_bits::<4>(0);
                self.enc.next = bits::<2>(2);
            }
            10 => {
                self.d.next = self.sel_pos.val().get_bits::<4>(4);
                self.enc.next = bits::<2>(2);
            }
            _ => {}
        }
    }
}

crate::settled_block! {
/// Rd of an op slot's early kind from [`OpEarly`]'s fields: the OFFSET encoding, the f32 sample
/// position, or the word as it is. Combinational; the lane may put cut E in front of it.
#[derive(Clone, Debug, Default)]
pub struct OpEncode {
    /// [`OpEarly::enc`].
    pub enc: Signal<In, Bits<2>>,
    /// [`OpEarly::code`].
    pub code: Signal<In, Bits<8>>,
    /// [`OpEarly::d`].
    pub d: Signal<In, Bits<4>>,
    /// [`OpEarly::tgsi`].
    pub tgsi: Signal<In, Bit>,
    /// [`OpEarly::rd`].
    pub rd_plain: Signal<In, Bits<32>>,
    /// Rd of the early kind.
    pub rd: Signal<Out, Bits<32>>,
    offset_enc: OffsetEncode,
    spos: SamplePosF32,
}
}

impl Logic for OpEncode {
    #[hdl_gen]
    fn update(&mut self) {
        self.offset_enc.code.next = self.code.val();
        self.spos.d.next = self.d.val();
        self.spos.tgsi.next = self.tgsi.val();
        self.rd.next = self.rd_plain.val();
        match self.enc.val().index() {
            1 => {
                self.rd.next = self.offset_enc.enc.val();
            }
            2 => {
                self.rd.next = self.spos.f.val();
            }
            _ => {}
        }
    }
}

crate::settled_block! {
/// COVERED's bit for one PIXLD op slot: the op's sample is below n and covered (a 16:1 select of
/// the mask). It reads only the mask and [`OpSelect`]'s results, so the lane takes it right
/// behind cut B and delays one bit beside its later cuts instead of the mask and the index.
#[derive(Clone, Debug, Default)]
pub struct OpCovered {
    /// Final coverage mask of the lane.
    pub covl: Signal<In, Bits<16>>,
    /// The op's sample index is below n ([`OpSelect`]).
    pub ok: Signal<In, Bit>,
    /// The op's sample index, low four bits ([`OpSelect`]).
    pub idx: Signal<In, Bits<4>>,
    /// `ok` and bit `idx` of `covl`.
    pub covered: Signal<Out, Bit>,
}
}

impl Logic for OpCovered {
    #[hdl_gen]
    fn update(&mut self) {
        self.covered.next = false;
        for s in 0..16 {
            if self.idx.val().index() == s {
                self.covered.next = self.ok.val() & self.covl.val().get_bit(s);
            }
        }
    }
}

crate::settled_block! {
/// The part of one PIXLD op slot that reads the lane's coverage: COVMASK, COVERED and
/// CENTROID_OFFSET, else the early result ([`OpEncode`]).
#[derive(Clone, Debug, Default)]
pub struct OpLate {
    /// [`OpEarly::kind`].
    pub kind: Signal<In, Bits<2>>,
    /// [`OpEncode::rd`].
    pub rd_early: Signal<In, Bits<32>>,
    /// [`OpEarly::pd`].
    pub pd_early: Signal<In, Bit>,
    /// COVERED's bit ([`OpCovered`]).
    pub covered: Signal<In, Bit>,
    /// Final coverage mask of the lane.
    pub covl: Signal<In, Bits<16>>,
    /// The lane's centroid position ([`LaneCentroid`]).
    pub ccode: Signal<In, Bits<8>>,
    /// Rd.
    pub rd: Signal<Out, Bits<32>>,
    /// Pd value.
    pub pd: Signal<Out, Bit>,
    centroid_enc: OffsetEncode,
}
}

impl Logic for OpLate {
    #[hdl_gen]
    fn update(&mut self) {
        self.centroid_enc.code.next = self.ccode.val();
        self.rd.next = self.rd_early.val();
        self.pd.next = self.pd_early.val();
        match self.kind.val().index() {
            1 => {
                self.rd.next = bit_cast::<32, 16>(self.covl.val());
            }
            2 => {
                self.rd.next = 0.into();
                self.pd.next = self.covered.val();
                if self.covered.val() {
                    self.rd.next = bits::<32>(0xffff_ffff_u64);
                }
            }
            3 => {
                self.rd.next = self.centroid_enc.enc.val();
            }
            _ => {}
        }
    }
}

crate::settled_block! {
/// One PIXLD op slot of one lane: [`OpEarly`], [`OpEncode`] and [`OpCovered`], then [`OpLate`], combinational (the serial unit's
/// form; the lane puts its cuts between the two).
#[derive(Clone, Debug, Default)]
pub struct OpQuery {
    /// Final coverage mask of the lane.
    pub covl: Signal<In, Bits<16>>,
    /// The op's sample index is below n ([`OpSelect`]).
    pub ok: Signal<In, Bit>,
    /// The op's sample index, low four bits ([`OpSelect`]).
    pub idx: Signal<In, Bits<4>>,
    /// The position of sample `idx` ([`OpSelect`]; used only when `ok`).
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
    early: OpEarly,
    encode: OpEncode,
    cov_bit: OpCovered,
    late: OpLate,
}
}

impl Logic for OpQuery {
    #[hdl_gen]
    fn update(&mut self) {
        self.early.ok.next = self.ok.val();
        self.early.sel_code.next = self.sel_code.val();
        self.early.n32.next = self.n32.val();
        self.early.offset_ok.next = self.offset_ok.val();
        self.early.ssaa.next = self.ssaa.val();
        self.early.sid.next = self.sid.val();
        self.early.op_mode.next = self.op_mode.val();
        self.early.op_tgsi.next = self.op_tgsi.val();
        self.encode.enc.next = self.early.enc.val();
        self.encode.code.next = self.early.code.val();
        self.encode.d.next = self.early.d.val();
        self.encode.tgsi.next = self.early.tgsi.val();
        self.encode.rd_plain.next = self.early.rd.val();
        self.late.kind.next = self.early.kind.val();
        self.late.rd_early.next = self.encode.rd.val();
        self.late.pd_early.next = self.early.pd.val();
        self.cov_bit.covl.next = self.covl.val();
        self.cov_bit.ok.next = self.ok.val();
        self.cov_bit.idx.next = self.idx.val();
        self.late.covered.next = self.cov_bit.covered.val();
        self.late.covl.next = self.covl.val();
        self.late.ccode.next = self.ccode.val();
        self.rd.next = self.late.rd.val();
        self.pd.next = self.late.pd.val();
    }
}
