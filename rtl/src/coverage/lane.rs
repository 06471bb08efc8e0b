//! One pixel lane of the coverage unit: 16 samples × 3 edge tests, then the PIXLD queries.
//!
//! The per-lane edge values arrive pre-scaled (see [`super::unit`]): for edge `e` the lane centre's
//! edge function is `E = 16·q[e] + r` with `0 ≤ r < 16`, `rnz[e] = (r ≠ 0)`, and `q[e]` clamped to
//! ±2^30 (the clamp never changes a sign decision because `|T| < 2^29` below). A sample at offset
//! `(sx, sy)` (1/16 pixel) has `E_s = E + 16·T`, `T = dx·sy − dy·sx`, so
//! `E_s > 0 ⇔ q + T > 0 ∨ (q + T = 0 ∧ r ≠ 0)` and `E_s = 0 ⇔ q + T = 0 ∧ r = 0`:
//! every per-sample operation is a 32-bit add. The products `dx·sy` are shift-adds of the 4-bit offset
//! (the ×2, ×4, ×8 multiples are formed once per lane and selected by the offset's bits).
//!
//! Combinational (latency 0); the unit registers its outputs. Ports are documented on the fields.

use super::query::{LaneCentroid, OpQuery};
use super::OPS;
use rust_hdl::prelude::*;

crate::settled_block! {
/// Coverage and PIXLD query logic for one pixel.
#[derive(Clone, Debug, Default)]
pub struct CoverageLane {
    /// Lane-centre edge value `⌊E/16⌋`, clamped to ±2^30 (two's complement).
    pub q: [Signal<In, Bits<32>>; 3],
    /// `E mod 16 ≠ 0`.
    pub rnz: [Signal<In, Bit>; 3],
    /// Edge is top-left (owns samples exactly on it).
    pub tl: [Signal<In, Bit>; 3],
    /// Edge x step (two's complement, |dx| < 2^25), after the winding correction.
    pub dx: [Signal<In, Bits<32>>; 3],
    /// Edge y step.
    pub dy: [Signal<In, Bits<32>>; 3],
    /// Triangle area is non-zero.
    pub nz: Signal<In, Bit>,
    /// Samples in the raster mode: `(1 << n) − 1`.
    pub nmask: Signal<In, Bits<16>>,
    /// Raster sample count n.
    pub n32: Signal<In, Bits<32>>,
    /// Positions are the standard (fixed) pattern and n ≤ 8: OFFSET is supported.
    pub offset_ok: Signal<In, Bit>,
    /// Sample positions `{dy, dx}` (programmable or standard).
    pub pos: [Signal<In, Bits<8>>; 16],
    /// Sample mask.
    pub smask: Signal<In, Bits<16>>,
    /// Supersampling mode.
    pub ssaa: Signal<In, Bit>,
    /// This invocation's sample index (SSAA).
    pub sid: Signal<In, Bits<4>>,
    /// Op slot mode (PIXLD encodings 0–7, then SAMPLE_INFO 8, SAMPLE_POS_X 9, SAMPLE_POS_Y 10).
    pub op_mode: [Signal<In, Bits<4>>; OPS],
    /// Op slot sample index.
    pub op_index: [Signal<In, Bits<32>>; OPS],
    /// Op slot TGSI position convention.
    pub op_tgsi: [Signal<In, Bit>; OPS],
    /// Coverage & sample mask, bits 0…n−1.
    pub cov: Signal<Out, Bits<16>>,
    /// Rd per op slot.
    pub rd: [Signal<Out, Bits<32>>; OPS],
    /// Pd value per op slot.
    pub pd: [Signal<Out, Bit>; OPS],
    cent: LaneCentroid,
    slot0: OpQuery,
    slot1: OpQuery,
    slot2: OpQuery,
    slot3: OpQuery,
    dx2: [Signal<Local, Bits<32>>; 3],
    dx4: [Signal<Local, Bits<32>>; 3],
    dx8: [Signal<Local, Bits<32>>; 3],
    dy2: [Signal<Local, Bits<32>>; 3],
    dy4: [Signal<Local, Bits<32>>; 3],
    dy8: [Signal<Local, Bits<32>>; 3],
    sx: Signal<Local, Bits<4>>,
    sy: Signal<Local, Bits<4>>,
    acc: Signal<Local, Bits<32>>,
    hit: Signal<Local, Bit>,
    covl: Signal<Local, Bits<16>>,
}
}

impl Logic for CoverageLane {
    #[hdl_gen]
    fn update(&mut self) {
        for e in 0..3 {
            self.dx2[e].next = self.dx[e].val() + self.dx[e].val();
            self.dx4[e].next = self.dx2[e].val() + self.dx2[e].val();
            self.dx8[e].next = self.dx4[e].val() + self.dx4[e].val();
            self.dy2[e].next = self.dy[e].val() + self.dy[e].val();
            self.dy4[e].next = self.dy2[e].val() + self.dy2[e].val();
            self.dy8[e].next = self.dy4[e].val() + self.dy4[e].val();
        }
        // Per-sample edge tests.
        self.covl.next = 0.into();
        for s in 0..16 {
            self.sx.next = self.pos[s].val().get_bits::<4>(0);
            self.sy.next = self.pos[s].val().get_bits::<4>(4);
            self.hit.next = self.nz.val() & self.nmask.val().get_bit(s);
            for e in 0..3 {
                self.acc.next = self.q[e].val();
                if self.sy.val().get_bit(0) {
                    self.acc.next = self.acc.val() + self.dx[e].val();
                }
                if self.sy.val().get_bit(1) {
                    self.acc.next = self.acc.val() + self.dx2[e].val();
                }
                if self.sy.val().get_bit(2) {
                    self.acc.next = self.acc.val() + self.dx4[e].val();
                }
                if self.sy.val().get_bit(3) {
                    self.acc.next = self.acc.val() - self.dx8[e].val();
                }
                if self.sx.val().get_bit(0) {
                    self.acc.next = self.acc.val() - self.dy[e].val();
                }
                if self.sx.val().get_bit(1) {
                    self.acc.next = self.acc.val() - self.dy2[e].val();
                }
                if self.sx.val().get_bit(2) {
                    self.acc.next = self.acc.val() - self.dy4[e].val();
                }
                if self.sx.val().get_bit(3) {
                    self.acc.next = self.acc.val() + self.dy8[e].val();
                }
                if self.acc.val().get_bit(31) {
                    self.hit.next = false;
                }
                if (self.acc.val() == 0) & !(self.rnz[e].val() | self.tl[e].val()) {
                    self.hit.next = false;
                }
            }
            self.covl.next = self.covl.val().replace_bit(s, self.hit.val());
        }
        self.covl.next = self.covl.val() & self.smask.val();
        self.cov.next = self.covl.val();
        // Centroid and op slots (super::query).
        self.cent.covl.next = self.covl.val();
        self.cent.smask.next = self.smask.val();
        self.cent.nmask.next = self.nmask.val();
        for s in 0..16 {
            self.cent.pos[s].next = self.pos[s].val();
            self.slot0.pos[s].next = self.pos[s].val();
            self.slot1.pos[s].next = self.pos[s].val();
            self.slot2.pos[s].next = self.pos[s].val();
            self.slot3.pos[s].next = self.pos[s].val();
        }
        self.slot0.covl.next = self.covl.val();
        self.slot1.covl.next = self.covl.val();
        self.slot2.covl.next = self.covl.val();
        self.slot3.covl.next = self.covl.val();
        self.slot0.n32.next = self.n32.val();
        self.slot1.n32.next = self.n32.val();
        self.slot2.n32.next = self.n32.val();
        self.slot3.n32.next = self.n32.val();
        self.slot0.offset_ok.next = self.offset_ok.val();
        self.slot1.offset_ok.next = self.offset_ok.val();
        self.slot2.offset_ok.next = self.offset_ok.val();
        self.slot3.offset_ok.next = self.offset_ok.val();
        self.slot0.ssaa.next = self.ssaa.val();
        self.slot1.ssaa.next = self.ssaa.val();
        self.slot2.ssaa.next = self.ssaa.val();
        self.slot3.ssaa.next = self.ssaa.val();
        self.slot0.sid.next = self.sid.val();
        self.slot1.sid.next = self.sid.val();
        self.slot2.sid.next = self.sid.val();
        self.slot3.sid.next = self.sid.val();
        self.slot0.ccode.next = self.cent.code.val();
        self.slot1.ccode.next = self.cent.code.val();
        self.slot2.ccode.next = self.cent.code.val();
        self.slot3.ccode.next = self.cent.code.val();
        self.slot0.op_mode.next = self.op_mode[0].val();
        self.slot1.op_mode.next = self.op_mode[1].val();
        self.slot2.op_mode.next = self.op_mode[2].val();
        self.slot3.op_mode.next = self.op_mode[3].val();
        self.slot0.op_index.next = self.op_index[0].val();
        self.slot1.op_index.next = self.op_index[1].val();
        self.slot2.op_index.next = self.op_index[2].val();
        self.slot3.op_index.next = self.op_index[3].val();
        self.slot0.op_tgsi.next = self.op_tgsi[0].val();
        self.slot1.op_tgsi.next = self.op_tgsi[1].val();
        self.slot2.op_tgsi.next = self.op_tgsi[2].val();
        self.slot3.op_tgsi.next = self.op_tgsi[3].val();
        self.rd[0].next = self.slot0.rd.val();
        self.rd[1].next = self.slot1.rd.val();
        self.rd[2].next = self.slot2.rd.val();
        self.rd[3].next = self.slot3.rd.val();
        self.pd[0].next = self.slot0.pd.val();
        self.pd[1].next = self.slot1.pd.val();
        self.pd[2].next = self.slot2.pd.val();
        self.pd[3].next = self.slot3.pd.val();
    }
}
