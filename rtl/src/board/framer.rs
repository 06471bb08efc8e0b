//! Command/response framing over a UART: the host interface of the board-level tops.
//!
//! # Protocol (half duplex, host first)
//! - Command: the byte [`CMD_SYNC`] followed by `IN/8` payload bytes. The payload is the command
//!   vector `cmd` least significant byte first (byte k carries `cmd[8k+7 : 8k]`). Bytes that arrive
//!   while the framer waits for a command and are not [`CMD_SYNC`] are dropped, so a host can
//!   resynchronise by pausing for more than `2^RX_TIMEOUT_BITS` clocks (which abandons a partial
//!   command, below) and sending a fresh command.
//! - A command whose bytes stop arriving for more than `2^RX_TIMEOUT_BITS` clocks is abandoned;
//!   a character with a bad stop bit abandons the command too.
//! - Response: the byte [`RSP_SYNC`] followed by `OUT/8` bytes of the core's result `rsp`, least
//!   significant byte first. Bytes received between a command's last byte and the response's
//!   last byte are dropped.
//!
//! # Ports
//! `clock`, `reset` (synchronous, active high), serial `rx`/`tx`; towards the core a valid/ready
//! stream `cmd`/`cmd_valid`/`cmd_ready` (one command vector) and a valid/ready stream
//! `rsp`/`rsp_valid`/`rsp_ready` (its result). `IN` and `OUT` are bit widths, multiples of 8,
//! at most 8·255.
//!
//! # Timing
//! `cmd_valid` rises on the clock after the last payload byte's stop bit is sampled. The response
//! sync byte starts as soon as the core takes the command; the result is taken as soon as the core
//! offers it (and the sync byte has been handed to the transmitter), and its bytes follow the sync
//! byte back to back. One command in flight at a time.

use super::uart::{UartRx, UartTx};
use rust_hdl::prelude::*;

/// First byte of a command frame.
pub const CMD_SYNC: u8 = 0xa5;
/// First byte of a response frame.
pub const RSP_SYNC: u8 = 0x5a;
/// A command is abandoned after `2^RX_TIMEOUT_BITS` clocks without a byte.
pub const RX_TIMEOUT_BITS: usize = 22;
const _: () = assert!(CMD_SYNC == 0xa5 && RSP_SYNC == 0x5a && RX_TIMEOUT_BITS == 22);

/// UART framer for an `IN`-bit command and an `OUT`-bit response. See the module documentation.
#[derive(Clone, Debug, LogicBlock)]
pub struct UartFramer<const IN: usize, const OUT: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// Serial input from the host.
    pub rx: Signal<In, Bit>,
    /// Serial output to the host.
    pub tx: Signal<Out, Bit>,
    /// Command vector (valid with `cmd_valid`).
    pub cmd: Signal<Out, Bits<IN>>,
    /// A command is waiting.
    pub cmd_valid: Signal<Out, Bit>,
    /// The core takes the command.
    pub cmd_ready: Signal<In, Bit>,
    /// Result vector.
    pub rsp: Signal<In, Bits<OUT>>,
    /// The core offers a result.
    pub rsp_valid: Signal<In, Bit>,
    /// The framer takes the result.
    pub rsp_ready: Signal<Out, Bit>,
    /// A command is being executed or its response sent.
    pub busy: Signal<Out, Bit>,
    urx: UartRx,
    utx: UartTx,
    top: Constant<Bits<16>>,
    in_last: Constant<Bits<8>>,
    out_bytes: Constant<Bits<8>>,
    state: DFF<Bits<3>>,
    count: DFF<Bits<8>>,
    timer: DFF<Bits<RX_TIMEOUT_BITS>>,
    rx_sh: DFF<Bits<IN>>,
    tx_sh: DFF<Bits<OUT>>,
    tx_byte: Signal<Local, Bits<8>>,
    tx_valid: Signal<Local, Bit>,
    cv: Signal<Local, Bit>,
    rr: Signal<Local, Bit>,
}

impl<const IN: usize, const OUT: usize> UartFramer<IN, OUT> {
    /// A framer with a UART bit time of `div` clocks.
    pub fn new(div: u64) -> Self {
        assert!(
            IN.is_multiple_of(8) && OUT.is_multiple_of(8) && IN >= 8 && OUT >= 8,
            "widths must be whole bytes"
        );
        assert!(
            IN / 8 <= 255 && OUT / 8 <= 255,
            "frames are at most 255 bytes"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            rx: Default::default(),
            tx: Default::default(),
            cmd: Default::default(),
            cmd_valid: Default::default(),
            cmd_ready: Default::default(),
            rsp: Default::default(),
            rsp_valid: Default::default(),
            rsp_ready: Default::default(),
            busy: Default::default(),
            urx: UartRx::new(div),
            utx: UartTx::new(div),
            top: Constant::new(((IN - 8) as u64).into()),
            in_last: Constant::new(((IN / 8 - 1) as u64).into()),
            out_bytes: Constant::new(((OUT / 8) as u64).into()),
            state: Default::default(),
            count: Default::default(),
            timer: Default::default(),
            rx_sh: Default::default(),
            tx_sh: Default::default(),
            tx_byte: Default::default(),
            tx_valid: Default::default(),
            cv: Default::default(),
            rr: Default::default(),
        }
    }
}

impl<const IN: usize, const OUT: usize> Logic for UartFramer<IN, OUT> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, state, count, timer, rx_sh, tx_sh);
        self.urx.clock.next = self.clock.val();
        self.urx.reset.next = self.reset.val();
        self.urx.rx.next = self.rx.val();
        self.utx.clock.next = self.clock.val();
        self.utx.reset.next = self.reset.val();

        self.tx_byte.next = self.tx_sh.q.val().get_bits::<8>(0);
        self.tx_valid.next = false;
        self.cv.next = false;
        self.rr.next = false;
        // States: 0 idle, 1 payload, 2 command offered, 3 response sync byte / wait, 4 response.
        match self.state.q.val().index() {
            0 => {
                if self.urx.valid.val() & (self.urx.data.val() == 0xa5) {
                    self.state.d.next = bits::<3>(1);
                    self.count.d.next = 0.into();
                    self.timer.d.next = 0.into();
                }
            }
            1 => {
                self.timer.d.next = self.timer.q.val() + 1;
                if self.urx.valid.val() {
                    self.timer.d.next = 0.into();
                    self.rx_sh.d.next = (self.rx_sh.q.val() >> 8)
                        | (bit_cast::<IN, 8>(self.urx.data.val()) << self.top.val());
                    self.count.d.next = self.count.q.val() + 1;
                    if self.count.q.val() == self.in_last.val() {
                        self.state.d.next = bits::<3>(2);
                    }
                }
                if self.urx.frame_err.val() | self.timer.q.val().all() {
                    self.state.d.next = bits::<3>(0);
                }
            }
            2 => {
                self.cv.next = true;
                if self.cmd_ready.val() {
                    self.count.d.next = 0.into();
                    self.state.d.next = bits::<3>(3);
                }
            }
            3 => {
                // Send the response sync byte while the core works; take the result when offered.
                self.tx_byte.next = bits::<8>(0x5a);
                self.tx_valid.next = !self.count.q.val().any();
                if self.utx.ready.val() {
                    self.count.d.next = 1.into();
                }
                if self.count.q.val().any() {
                    self.rr.next = true;
                    if self.rsp_valid.val() {
                        self.tx_sh.d.next = self.rsp.val();
                        self.count.d.next = 0.into();
                        self.state.d.next = bits::<3>(4);
                    }
                }
            }
            4 => {
                self.tx_valid.next = true;
                if self.utx.ready.val() {
                    self.tx_sh.d.next = self.tx_sh.q.val() >> 8;
                    self.count.d.next = self.count.q.val() + 1;
                    if self.count.q.val() + 1 == self.out_bytes.val() {
                        self.state.d.next = bits::<3>(0);
                    }
                }
            }
            _ => {
                self.state.d.next = bits::<3>(0);
            }
        }
        if self.reset.val() {
            self.state.d.next = bits::<3>(0);
        }
        self.utx.data.next = self.tx_byte.val();
        self.utx.valid.next = self.tx_valid.val();
        self.cmd.next = self.rx_sh.q.val();
        self.cmd_valid.next = self.cv.val();
        self.rsp_ready.next = self.rr.val();
        self.tx.next = self.utx.tx.val();
        self.busy.next = self.state.q.val() >= 2;
    }
}
