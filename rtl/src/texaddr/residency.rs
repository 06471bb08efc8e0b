//! Stage 2 of the texture address pipeline: sparse-texture residency, TEXEL_FAIL and the TFE
//! status word, into the unit's output registers (see `docs/units/texaddr.md`; TFE and LWE as in
//! AMD's RDNA ISA image instructions).
//!
//! # Ports
//! Inputs: `valid` (stage 2 holds a quad); from [`super::DescStage`] `tag`, `fault`, `ntaps`,
//! `trilin`, `txq`, `sparse`, `frac`, `l0`, `l1`, `warn`, `size[4]`; from [`super::AddrStage`]
//! per slot s = 8·lane + 4·level + k `i[s]`, `j[s]`, `addr[s]`, `border[s]`, `req[s]`, and per
//! lane `layer`, `w`, `lc`, `lambda`; the residency port's answer `ok[s]` ("the slot's tile is
//! resident"); `clock` and `adv_next` (the unit's advance of the next clock, registered in the
//! stage's enable copies).
//! Outputs: `rd` (combinational: read the residency map, a sampling quad of a sparse texture), and
//! registered, the unit's results: `out_tag`, `out_fault`, `out_ntaps`, `out_tri`, `out_frac`,
//! `out_level0`, `out_level1`, `out_size[4]`, per slot `out_i`, `out_j`, `out_addr`,
//! `out_border`, `out_req` (the request, cleared for a failed lane), and per lane `out_layer`,
//! `out_w`, `out_fail` (TEXEL_FAIL), `out_status` (TFE word), `out_lc`.
//!
//! # Timing
//! Combinational residency and status into one register stage that advances with the unit:
//! latency 1. Behind it sits the unit's skid register of one result, which takes the output
//! registers' result at every edge at which the pipeline advances; the outputs show it while the
//! pipeline stalls (the unit stalls exactly while that result waits, see [`super::TexAddrUnit`]),
//! else the output registers.
//! Everything but the requests, TEXEL_FAIL and the status passes through unchanged.
//!
//! # What it computes
//! A lane fails when one of its requests touches a non-resident tile of a sparse texture. The
//! status word of a sampling quad is TEXEL_FAIL | LOD_WARNING << 1 | ⌊λ⌋ << 16, TEXEL_FAIL taking
//! precedence over the warning; 0 after a fault or for TXQ.

use crate::common::fp::SkidRetime;
use crate::common::EnableCopy;
use rust_hdl::prelude::*;

crate::settled_block! {
/// Residency and status. See the module documentation.
#[derive(Clone, Debug)]
pub struct Residency {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance of the next clock (the unit's stall when low), into the enable copies.
    pub adv_next: Signal<In, Bit>,
    /// Stage 2 holds a quad.
    pub valid: Signal<In, Bit>,
    /// Transaction id.
    pub tag: Signal<In, Bits<16>>,
    /// Fault code.
    pub fault: Signal<In, Bits<3>>,
    /// Taps per level.
    pub ntaps: Signal<In, Bits<3>>,
    /// Trilinear.
    pub trilin: Signal<In, Bit>,
    /// TXQ.
    pub txq: Signal<In, Bit>,
    /// Sparse texture.
    pub sparse: Signal<In, Bit>,
    /// Mip fraction.
    pub frac: Signal<In, Bits<8>>,
    /// First level.
    pub l0: Signal<In, Bits<4>>,
    /// Second level.
    pub l1: Signal<In, Bits<4>>,
    /// LOD warning, bit per lane.
    pub warn: Signal<In, Bits<4>>,
    /// TXQ sizes.
    pub size: [Signal<In, Bits<32>>; 4],
    /// Texel i per slot.
    pub i: [Signal<In, Bits<32>>; 32],
    /// Texel j per slot.
    pub j: [Signal<In, Bits<32>>; 32],
    /// Byte address per slot.
    pub addr: [Signal<In, Bits<48>>; 32],
    /// Border per slot.
    pub border: [Signal<In, Bit>; 32],
    /// Memory request per slot.
    pub req: [Signal<In, Bit>; 32],
    /// Layer per lane.
    pub layer: [Signal<In, Bits<16>>; 4],
    /// Weights per lane.
    pub w: [Signal<In, Bits<32>>; 4],
    /// .LC clamp per lane.
    pub lc: [Signal<In, Bits<12>>; 4],
    /// λ·256 per lane.
    pub lambda: [Signal<In, Bits<32>>; 4],
    /// Resident per slot.
    pub ok: [Signal<In, Bit>; 32],
    /// Residency read.
    pub rd: Signal<Out, Bit>,
    /// Transaction id.
    pub out_tag: Signal<Out, Bits<16>>,
    /// Fault code.
    pub out_fault: Signal<Out, Bits<3>>,
    /// Taps per level.
    pub out_ntaps: Signal<Out, Bits<3>>,
    /// Trilinear.
    pub out_tri: Signal<Out, Bit>,
    /// Mip fraction.
    pub out_frac: Signal<Out, Bits<8>>,
    /// First level.
    pub out_level0: Signal<Out, Bits<4>>,
    /// Second level.
    pub out_level1: Signal<Out, Bits<4>>,
    /// TXQ sizes.
    pub out_size: [Signal<Out, Bits<32>>; 4],
    /// Texel i per slot.
    pub out_i: [Signal<Out, Bits<32>>; 32],
    /// Texel j per slot.
    pub out_j: [Signal<Out, Bits<32>>; 32],
    /// Byte address per slot.
    pub out_addr: [Signal<Out, Bits<48>>; 32],
    /// Border per slot.
    pub out_border: [Signal<Out, Bit>; 32],
    /// Memory request per slot.
    pub out_req: [Signal<Out, Bit>; 32],
    /// Layer per lane.
    pub out_layer: [Signal<Out, Bits<16>>; 4],
    /// Weights per lane.
    pub out_w: [Signal<Out, Bits<32>>; 4],
    /// TEXEL_FAIL per lane.
    pub out_fail: [Signal<Out, Bit>; 4],
    /// TFE status word per lane.
    pub out_status: [Signal<Out, Bits<32>>; 4],
    /// .LC clamp per lane.
    pub out_lc: [Signal<Out, Bits<12>>; 4],
    qok2: Signal<Local, Bit>,
    miss: [Signal<Local, Bit>; 32],
    fail: [Signal<Local, Bit>; 4],
    lwarn: [Signal<Local, Bit>; 4],
    status: [Signal<Local, Bits<32>>; 4],
    r3_tag: SkidRetime<Bits<16>>,
    r3_fault: SkidRetime<Bits<3>>,
    r3_ntaps: SkidRetime<Bits<3>>,
    r3_tri: SkidRetime<Bit>,
    r3_frac: SkidRetime<Bits<8>>,
    r3_level0: SkidRetime<Bits<4>>,
    r3_level1: SkidRetime<Bits<4>>,
    r3_size: [SkidRetime<Bits<32>>; 4],
    r3_i: [SkidRetime<Bits<32>>; 32],
    r3_j: [SkidRetime<Bits<32>>; 32],
    r3_addr: [SkidRetime<Bits<48>>; 32],
    r3_border: [SkidRetime<Bit>; 32],
    r3_req: [SkidRetime<Bit>; 32],
    r3_layer: [SkidRetime<Bits<16>>; 4],
    r3_w: [SkidRetime<Bits<32>>; 4],
    r3_fail: [SkidRetime<Bit>; 4],
    r3_status: [SkidRetime<Bits<32>>; 4],
    r3_lc: [SkidRetime<Bits<12>>; 4],
    // The output registers (r3) and the skid register behind each (SkidRetime).
    /// Enable copies: the quad's registers, each lane's own, each slot's (an enable also
    /// selects between its registers' output and skid register, so each copy drives one slot's
    /// 114 flip-flops and multiplexers, not a lane's 900).
    e_ctl: EnableCopy,
    e_lane: [EnableCopy; 4],
    e_slot: [EnableCopy; 32],
}
}

impl Default for Residency {
    fn default() -> Self {
        use std::array::from_fn;
        Self {
            settle: crate::common::settle::SettleState::new(true),
            clock: Default::default(),
            adv_next: Default::default(),
            valid: Default::default(),
            tag: Default::default(),
            fault: Default::default(),
            ntaps: Default::default(),
            trilin: Default::default(),
            txq: Default::default(),
            sparse: Default::default(),
            frac: Default::default(),
            l0: Default::default(),
            l1: Default::default(),
            warn: Default::default(),
            size: Default::default(),
            i: Default::default(),
            j: Default::default(),
            addr: Default::default(),
            border: Default::default(),
            req: Default::default(),
            layer: Default::default(),
            w: Default::default(),
            lc: Default::default(),
            lambda: Default::default(),
            ok: Default::default(),
            rd: Default::default(),
            out_tag: Default::default(),
            out_fault: Default::default(),
            out_ntaps: Default::default(),
            out_tri: Default::default(),
            out_frac: Default::default(),
            out_level0: Default::default(),
            out_level1: Default::default(),
            out_size: Default::default(),
            out_i: Default::default(),
            out_j: Default::default(),
            out_addr: Default::default(),
            out_border: Default::default(),
            out_req: Default::default(),
            out_layer: Default::default(),
            out_w: Default::default(),
            out_fail: Default::default(),
            out_status: Default::default(),
            out_lc: Default::default(),
            qok2: Default::default(),
            miss: Default::default(),
            fail: Default::default(),
            lwarn: Default::default(),
            status: Default::default(),
            r3_tag: Default::default(),
            r3_fault: Default::default(),
            r3_ntaps: Default::default(),
            r3_tri: Default::default(),
            r3_frac: Default::default(),
            r3_level0: Default::default(),
            r3_level1: Default::default(),
            r3_size: from_fn(|_| Default::default()),
            r3_i: from_fn(|_| Default::default()),
            r3_j: from_fn(|_| Default::default()),
            r3_addr: from_fn(|_| Default::default()),
            r3_border: from_fn(|_| Default::default()),
            r3_req: from_fn(|_| Default::default()),
            r3_layer: from_fn(|_| Default::default()),
            r3_w: from_fn(|_| Default::default()),
            r3_fail: from_fn(|_| Default::default()),
            r3_status: from_fn(|_| Default::default()),
            r3_lc: from_fn(|_| Default::default()),
            e_ctl: Default::default(),
            e_lane: Default::default(),
            e_slot: Default::default(),
        }
    }
}

impl Logic for Residency {
    #[hdl_gen]
    fn update(&mut self) {
        // Residency and status.
        self.qok2.next = !self.fault.val().any() & !self.txq.val();
        self.rd.next = self.valid.val() & self.sparse.val() & self.qok2.val();
        for s in 0..32 {
            self.miss[s].next = self.req[s].val() & !self.ok[s].val() & self.sparse.val();
        }
        for l in 0..4 {
            self.fail[l].next = self.miss[8 * l].val()
                | self.miss[8 * l + 1].val()
                | self.miss[8 * l + 2].val()
                | self.miss[8 * l + 3].val()
                | self.miss[8 * l + 4].val()
                | self.miss[8 * l + 5].val()
                | self.miss[8 * l + 6].val()
                | self.miss[8 * l + 7].val();
            self.lwarn[l].next = self.warn.val().get_bit(l) & !self.fail[l].val();
            self.status[l].next = (self.lambda[l].val() << 8) & bits::<32>(0xffff_0000_u64);
            if self.lwarn[l].val() {
                self.status[l].next = self.status[l].val() | bits::<32>(2);
            }
            if self.fail[l].val() {
                self.status[l].next = self.status[l].val() | bits::<32>(1);
            }
            if !self.qok2.val() {
                self.status[l].next = bits::<32>(0);
            }
        }

        // Output registers with the skid register behind them (`SkidRetime`), enabled by the
        // copies' registers: the skid takes the output registers' result at every advancing edge
        // and is shown while the pipeline stalls (exactly while it holds a refused result).
        self.e_ctl.clock.next = self.clock.val();
        self.e_ctl.d.next = self.adv_next.val();
        for l in 0..4 {
            self.e_lane[l].clock.next = self.clock.val();
            self.e_lane[l].d.next = self.adv_next.val();
        }
        for s in 0..32 {
            self.e_slot[s].clock.next = self.clock.val();
            self.e_slot[s].d.next = self.adv_next.val();
        }
        self.r3_tag.clock.next = self.clock.val();
        self.r3_tag.en.next = self.e_ctl.q.val();
        self.r3_tag.d.next = self.tag.val();
        self.out_tag.next = self.r3_tag.q.val();
        self.r3_fault.clock.next = self.clock.val();
        self.r3_fault.en.next = self.e_ctl.q.val();
        self.r3_fault.d.next = self.fault.val();
        self.out_fault.next = self.r3_fault.q.val();
        self.r3_ntaps.clock.next = self.clock.val();
        self.r3_ntaps.en.next = self.e_ctl.q.val();
        self.r3_ntaps.d.next = self.ntaps.val();
        self.out_ntaps.next = self.r3_ntaps.q.val();
        self.r3_tri.clock.next = self.clock.val();
        self.r3_tri.en.next = self.e_ctl.q.val();
        self.r3_tri.d.next = self.trilin.val();
        self.out_tri.next = self.r3_tri.q.val();
        self.r3_frac.clock.next = self.clock.val();
        self.r3_frac.en.next = self.e_ctl.q.val();
        self.r3_frac.d.next = self.frac.val();
        self.out_frac.next = self.r3_frac.q.val();
        self.r3_level0.clock.next = self.clock.val();
        self.r3_level0.en.next = self.e_ctl.q.val();
        self.r3_level0.d.next = self.l0.val();
        self.out_level0.next = self.r3_level0.q.val();
        self.r3_level1.clock.next = self.clock.val();
        self.r3_level1.en.next = self.e_ctl.q.val();
        self.r3_level1.d.next = self.l1.val();
        self.out_level1.next = self.r3_level1.q.val();
        for l in 0..4 {
            self.r3_size[l].clock.next = self.clock.val();
            self.r3_size[l].en.next = self.e_ctl.q.val();
            self.r3_size[l].d.next = self.size[l].val();
            self.out_size[l].next = self.r3_size[l].q.val();
            for k in 0..8 {
                self.r3_i[8 * l + k].clock.next = self.clock.val();
                self.r3_i[8 * l + k].en.next = self.e_slot[8 * l + k].q.val();
                self.r3_i[8 * l + k].d.next = self.i[8 * l + k].val();
                self.out_i[8 * l + k].next = self.r3_i[8 * l + k].q.val();
                self.r3_j[8 * l + k].clock.next = self.clock.val();
                self.r3_j[8 * l + k].en.next = self.e_slot[8 * l + k].q.val();
                self.r3_j[8 * l + k].d.next = self.j[8 * l + k].val();
                self.out_j[8 * l + k].next = self.r3_j[8 * l + k].q.val();
                self.r3_addr[8 * l + k].clock.next = self.clock.val();
                self.r3_addr[8 * l + k].en.next = self.e_slot[8 * l + k].q.val();
                self.r3_addr[8 * l + k].d.next = self.addr[8 * l + k].val();
                self.out_addr[8 * l + k].next = self.r3_addr[8 * l + k].q.val();
                self.r3_border[8 * l + k].clock.next = self.clock.val();
                self.r3_border[8 * l + k].en.next = self.e_slot[8 * l + k].q.val();
                self.r3_border[8 * l + k].d.next = self.border[8 * l + k].val();
                self.out_border[8 * l + k].next = self.r3_border[8 * l + k].q.val();
                self.r3_req[8 * l + k].clock.next = self.clock.val();
                self.r3_req[8 * l + k].en.next = self.e_slot[8 * l + k].q.val();
                self.r3_req[8 * l + k].d.next = self.req[8 * l + k].val() & !self.fail[l].val();
                self.out_req[8 * l + k].next = self.r3_req[8 * l + k].q.val();
            }
            self.r3_layer[l].clock.next = self.clock.val();
            self.r3_layer[l].en.next = self.e_lane[l].q.val();
            self.r3_layer[l].d.next = self.layer[l].val();
            self.out_layer[l].next = self.r3_layer[l].q.val();
            self.r3_w[l].clock.next = self.clock.val();
            self.r3_w[l].en.next = self.e_lane[l].q.val();
            self.r3_w[l].d.next = self.w[l].val();
            self.out_w[l].next = self.r3_w[l].q.val();
            self.r3_fail[l].clock.next = self.clock.val();
            self.r3_fail[l].en.next = self.e_lane[l].q.val();
            self.r3_fail[l].d.next = self.fail[l].val();
            self.out_fail[l].next = self.r3_fail[l].q.val();
            self.r3_status[l].clock.next = self.clock.val();
            self.r3_status[l].en.next = self.e_lane[l].q.val();
            self.r3_status[l].d.next = self.status[l].val();
            self.out_status[l].next = self.r3_status[l].q.val();
            self.r3_lc[l].clock.next = self.clock.val();
            self.r3_lc[l].en.next = self.e_lane[l].q.val();
            self.r3_lc[l].d.next = self.lc[l].val();
            self.out_lc[l].next = self.r3_lc[l].q.val();
        }
    }
}
