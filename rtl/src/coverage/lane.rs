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

use super::pattern::{OffsetEncode, SamplePosF32};
use super::OPS;
use rust_hdl::prelude::*;

/// Coverage and PIXLD query logic for one pixel.
#[derive(Clone, Debug, LogicBlock, Default)]
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
    enc: [OffsetEncode; OPS],
    spos: [SamplePosF32; OPS],
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
    csrc: Signal<Local, Bits<16>>,
    cfound: Signal<Local, Bit>,
    ccode: Signal<Local, Bits<8>>,
    ok: Signal<Local, Bit>,
    sel_code: Signal<Local, Bits<8>>,
    sel_cov: Signal<Local, Bit>,
    covl: Signal<Local, Bits<16>>,
    rdl: Signal<Local, Bits<32>>,
    pdl: Signal<Local, Bit>,
    codel: Signal<Local, Bits<8>>,
    dl: Signal<Local, Bits<4>>,
}

impl Logic for CoverageLane {
    // `#[hdl_gen]` does not translate match guards, so the arms keep their nested `if`s.
    #[allow(clippy::collapsible_match)]
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
        // Centroid (Direct3D rule): centre if fully covered, else the lowest covered sample, else
        // (helper pixel) the lowest sample of a strict, non-empty subset sample mask, else the centre.
        self.csrc.next = 0.into();
        if self.covl.val() != self.nmask.val() {
            if self.covl.val().any() {
                self.csrc.next = self.covl.val();
            } else if (self.smask.val() & self.nmask.val()) != self.nmask.val() {
                self.csrc.next = self.smask.val() & self.nmask.val();
            }
        }
        self.cfound.next = false;
        self.ccode.next = 0.into();
        for s in 0..16 {
            if !self.cfound.val() & self.csrc.val().get_bit(s) {
                self.ccode.next = self.pos[s].val();
                self.cfound.next = true;
            }
        }
        // Op slots.
        for o in 0..OPS {
            self.ok.next = self.op_index[o].val() < self.n32.val();
            self.sel_code.next = 0.into();
            self.sel_cov.next = false;
            for s in 0..16 {
                if self.ok.val() & (self.op_index[o].val().get_bits::<4>(0).index() == s) {
                    self.sel_code.next = self.pos[s].val();
                    self.sel_cov.next = self.covl.val().get_bit(s);
                }
            }
            self.codel.next = 0.into();
            self.dl.next = 0.into();
            self.rdl.next = 0.into();
            self.pdl.next = false;
            match self.op_mode[o].val().index() {
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
                    self.rdl.next = self.enc[o].enc.val();
                }
                4 => {
                    self.codel.next = self.ccode.val();
                    self.rdl.next = self.enc[o].enc.val();
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
                    self.rdl.next = self.spos[o].f.val();
                }
                10 => {
                    self.dl.next = self.sel_code.val().get_bits::<4>(4);
                    self.rdl.next = self.spos[o].f.val();
                }
                _ => {}
            }
            self.enc[o].code.next = self.codel.val();
            self.spos[o].d.next = self.dl.val();
            self.spos[o].tgsi.next = self.op_tgsi[o].val();
            self.rd[o].next = self.rdl.val();
            self.pd[o].next = self.pdl.val();
        }
    }
}
