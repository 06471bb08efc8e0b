//! Board-level top for bring-up on a small FPGA: texpix's pipelined fp32 blocks behind the UART
//! framing, with a choice of which blocks are built ([`FpOps`]).
//!
//! This is the reduced bring-up top for the iCE40UP5K: the coverage unit's datapath (192 sample ×
//! edge tests per clock, eight 27×27 products) is many times the UP5K's 5280 logic cells, see
//! `docs/fpga.md`. The UART, framing and reset are the same blocks as in [`super::CoverageBoard`].
//!
//! - [`FpOps::Arith`]: [`FpAddP`] and [`FpMulP`] (op 0 a·b, 1 a+b, 2 a−b). Fits the UP5K and meets
//!   the board's 12 MHz there from two fp stages on (7 MHz with one, 22 MHz with six).
//! - [`FpOps::Compare`]: [`FpCmpP`] and [`F16ToF32P`] (op 3 minNum(a, b), 4 maxNum(a, b), 5 the
//!   relations — result bit 0 a<b, 1 a=b, 2 a>b, 3 unordered —, 6 the f16 in a's low half widened
//!   to f32). Meets 12 MHz on the UP5K.
//!
//! The blocks of the other set are in the Rust model too, but their inputs are tied to zero by a
//! constant, so synthesis removes them; an op of the other set (or an undefined op) answers 0 with
//! bit 7 of the echoed op set.
//!
//! # Frames (see [`super::framer`])
//! Command payload, 9 bytes: byte 0 `op`, bytes 1–4 `a`, bytes 5–8 `b` (IEEE fp32 bit patterns,
//! little endian). Response payload, 5 bytes: bytes 0–3 the result, byte 4 `op` echoed (bit 7 set
//! if the op is not built).
//!
//! # Ports
//! `clock`, `btn_n` (active-low reset button), `rx`, `tx` (UART), `led_n` (active low, busy).
//!
//! # Timing
//! The operands reach the fp blocks straight from the framer's command register, which holds them
//! until the response is sent; the result is taken `stages` clocks after the command is accepted
//! (the latency of the wrappers).

use super::framer::UartFramer;
use super::reset::BoardReset;
use crate::common::fp::{F16ToF32P, FpAddP, FpCmpP, FpMulP};
use rust_hdl::prelude::*;

/// Command payload bytes.
pub const FP_CMD_BYTES: usize = 9;
/// Response payload bytes.
pub const FP_RSP_BYTES: usize = 5;

/// Which fp blocks a [`FpBoard`] builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FpOps {
    /// Add, subtract, multiply (ops 0–2).
    Arith,
    /// minNum, maxNum, relations, f16 widening (ops 3–6).
    Compare,
}

impl FpOps {
    /// Whether `op` is built in this set.
    pub fn has(self, op: u8) -> bool {
        match self {
            FpOps::Arith => op <= 2,
            FpOps::Compare => (3..=6).contains(&op),
        }
    }
}

/// fp32 blocks behind a UART. See the module documentation.
#[derive(Clone, Debug, LogicBlock)]
pub struct FpBoard {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Reset button, active low.
    pub btn_n: Signal<In, Bit>,
    /// Serial input from the host.
    pub rx: Signal<In, Bit>,
    /// Serial output to the host.
    pub tx: Signal<Out, Bit>,
    /// Busy LED, active low.
    pub led_n: Signal<Out, Bit>,
    rst: BoardReset,
    fr: UartFramer<{ FP_CMD_BYTES * 8 }, { FP_RSP_BYTES * 8 }>,
    add: FpAddP,
    mul: FpMulP,
    cmp: FpCmpP,
    f16: F16ToF32P,
    arith: Constant<Bit>,
    compare: Constant<Bit>,
    last: Constant<Bits<8>>,
    busy: DFF<Bit>,
    count: DFF<Bits<8>>,
    op: Signal<Local, Bits<8>>,
    xa: Signal<Local, Bits<32>>,
    xb: Signal<Local, Bits<32>>,
    aa: Signal<Local, Bits<32>>,
    ab: Signal<Local, Bits<32>>,
    ca: Signal<Local, Bits<32>>,
    cb: Signal<Local, Bits<32>>,
    y: Signal<Local, Bits<32>>,
    bad: Signal<Local, Bit>,
    flags: Signal<Local, Bits<32>>,
    rsp: Signal<Local, Bits<40>>,
}

impl FpBoard {
    /// The board top with the blocks of `ops`, `stages ≥ 1` register stages per fp block (at most
    /// 255) and a UART bit time of `div` clocks.
    pub fn new(ops: FpOps, stages: usize, div: u64) -> Self {
        assert!(
            (1..256).contains(&stages),
            "stages {stages} out of range 1..=255"
        );
        Self {
            clock: Default::default(),
            btn_n: Default::default(),
            rx: Default::default(),
            tx: Default::default(),
            led_n: Default::default(),
            rst: Default::default(),
            fr: UartFramer::new(div),
            add: FpAddP::new(stages),
            mul: FpMulP::new(stages),
            cmp: FpCmpP::new(stages),
            f16: F16ToF32P::new(stages),
            arith: Constant::new(ops == FpOps::Arith),
            compare: Constant::new(ops == FpOps::Compare),
            last: Constant::new(((stages - 1) as u64).into()),
            busy: Default::default(),
            count: Default::default(),
            op: Default::default(),
            xa: Default::default(),
            xb: Default::default(),
            aa: Default::default(),
            ab: Default::default(),
            ca: Default::default(),
            cb: Default::default(),
            y: Default::default(),
            bad: Default::default(),
            flags: Default::default(),
            rsp: Default::default(),
        }
    }
}

impl Logic for FpBoard {
    // `#[hdl_gen]` does not translate match guards, so the arms keep their nested `if`s.
    #[allow(clippy::collapsible_match)]
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, busy, count);
        self.rst.clock.next = self.clock.val();
        self.rst.btn_n.next = self.btn_n.val();
        self.fr.clock.next = self.clock.val();
        self.fr.reset.next = self.rst.reset.val();
        self.fr.rx.next = self.rx.val();

        self.op.next = self.fr.cmd.val().get_bits::<8>(0);
        self.xa.next = self.fr.cmd.val().get_bits::<32>(8);
        self.xb.next = self.fr.cmd.val().get_bits::<32>(40);
        // Operands of the blocks that are not built are tied to zero (synthesis removes them).
        self.aa.next = 0.into();
        self.ab.next = 0.into();
        if self.arith.val() {
            self.aa.next = self.xa.val();
            self.ab.next = self.xb.val();
        }
        self.ca.next = 0.into();
        self.cb.next = 0.into();
        if self.compare.val() {
            self.ca.next = self.xa.val();
            self.cb.next = self.xb.val();
        }
        self.add.clock.next = self.clock.val();
        self.add.en.next = true;
        self.add.a.next = self.aa.val();
        self.add.b.next = self.ab.val();
        self.add.sub.next = self.op.val() == 2;
        self.mul.clock.next = self.clock.val();
        self.mul.en.next = true;
        self.mul.a.next = self.aa.val();
        self.mul.b.next = self.ab.val();
        self.cmp.clock.next = self.clock.val();
        self.cmp.en.next = true;
        self.cmp.a.next = self.ca.val();
        self.cmp.b.next = self.cb.val();
        self.f16.clock.next = self.clock.val();
        self.f16.en.next = true;
        self.f16.a.next = self.ca.val().get_bits::<16>(0);

        self.flags.next = 0.into();
        self.flags.next = self.flags.val().replace_bit(0, self.cmp.lt.val());
        self.flags.next = self.flags.val().replace_bit(1, self.cmp.eq.val());
        self.flags.next = self.flags.val().replace_bit(2, self.cmp.gt.val());
        self.flags.next = self.flags.val().replace_bit(3, self.cmp.unordered.val());
        self.y.next = 0.into();
        self.bad.next = true;
        match self.op.val().index() {
            0 => {
                if self.arith.val() {
                    self.y.next = self.mul.y.val();
                    self.bad.next = false;
                }
            }
            1 => {
                if self.arith.val() {
                    self.y.next = self.add.y.val();
                    self.bad.next = false;
                }
            }
            2 => {
                if self.arith.val() {
                    self.y.next = self.add.y.val();
                    self.bad.next = false;
                }
            }
            3 => {
                if self.compare.val() {
                    self.y.next = self.cmp.min.val();
                    self.bad.next = false;
                }
            }
            4 => {
                if self.compare.val() {
                    self.y.next = self.cmp.max.val();
                    self.bad.next = false;
                }
            }
            5 => {
                if self.compare.val() {
                    self.y.next = self.flags.val();
                    self.bad.next = false;
                }
            }
            6 => {
                if self.compare.val() {
                    self.y.next = self.f16.y.val();
                    self.bad.next = false;
                }
            }
            _ => {}
        }

        // The command register holds the operands from `cmd_valid` until the response is sent, so
        // after `stages` clocks the pipelines hold their result.
        self.fr.cmd_ready.next = !self.busy.q.val();
        if !self.busy.q.val() {
            if self.fr.cmd_valid.val() {
                self.busy.d.next = true;
                self.count.d.next = 0.into();
            }
        } else if self.count.q.val() != self.last.val() {
            self.count.d.next = self.count.q.val() + 1;
        } else if self.fr.rsp_ready.val() {
            self.busy.d.next = false;
        }
        if self.rst.reset.val() {
            self.busy.d.next = false;
        }
        self.fr.rsp_valid.next = self.busy.q.val() & (self.count.q.val() == self.last.val());
        self.rsp.next = bit_cast::<40, 32>(self.y.val()) | (bit_cast::<40, 8>(self.op.val()) << 32);
        if self.bad.val() {
            self.rsp.next = self.rsp.val() | bits::<40>(0x80_0000_0000_u64);
        }
        self.fr.rsp.next = self.rsp.val();

        self.tx.next = self.fr.tx.val();
        self.led_n.next = !self.fr.busy.val();
    }
}
