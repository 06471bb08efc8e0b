//! Board-level top for bring-up: the coverage unit behind the UART command/response framing, in
//! its time-multiplexed form [`CoverageSerial`] (the ports and results of
//! [`CoverageUnit`](crate::coverage::CoverageUnit), small enough for the iCEBreaker's iCE40UP5K).
//!
//! # Frames (see [`super::framer`])
//! A command is [`COV_CMD_BYTES`] payload bytes after the sync byte, a response [`COV_RSP_BYTES`]
//! after its sync byte. Multi-byte fields are little endian; `[bits]` are bit positions in a byte.
//!
//! Command payload (byte offsets):
//! | bytes | field |
//! |---|---|
//! | 0–1 | `tag` |
//! | 2 | `log2n` [2:0], `prog` [3], `ssaa` [4] |
//! | 3–4 | `smask` |
//! | 5–6 | `sid[lane]` at bits 4·lane…4·lane+3 |
//! | 7–18 | `vx[0..3]`, 4 bytes each (25-bit two's complement in the low bits) |
//! | 19–30 | `vy[0..3]` |
//! | 31–34, 35–38 | `quad_x`, `quad_y` (17-bit two's complement in the low bits) |
//! | 39 + 5·o | op slot o: `mode` [3:0], `pd` [4], `tgsi` [5] |
//! | 40 + 5·o … 43 + 5·o | op slot o: `index` (32 bits) |
//! | 59 + 16·lane + s | `pos[16·lane + s]` (`{dy[3:0], dx[3:0]}`) |
//!
//! Response payload:
//! | bytes | field |
//! |---|---|
//! | 0–1 | `tag` |
//! | 2 + 2·lane | `covmask[lane]` (2 bytes) |
//! | 10 + 4·i | `rd[i]`, i = 4·lane + slot (4 bytes) |
//! | 74–75 | `pd[i]` at bit i |
//! | 76 | `pd_wr[o]` at bit o, `err[o]` at bit 4 + o |
//!
//! # Ports
//! `clock`, `btn_n` (active-low reset button), `rx`, `tx` (UART to the host), `led_n` (active low,
//! lit while a command is in the unit or its response is being sent).
//!
//! # Timing
//! One command at a time; at 115 200 baud a command and its response take about 17.6 ms. The unit
//! computes for [`crate::coverage::SERIAL_CYCLES`] clocks (34 µs at 12 MHz) while the framer
//! holds the command, then takes it (see [`CoverageSerial`]).

use super::framer::UartFramer;
use super::reset::BoardReset;
use crate::coverage::{CoverageSerial, OPS};
use rust_hdl::prelude::*;

/// Command payload bytes.
pub const COV_CMD_BYTES: usize = 123;
/// Response payload bytes.
pub const COV_RSP_BYTES: usize = 77;
const CMD_BITS: usize = COV_CMD_BYTES * 8;
const RSP_BITS: usize = COV_RSP_BYTES * 8;
const _: () = assert!(OPS == 4);

/// The coverage unit behind a UART. See the module documentation.
#[derive(Clone, Debug, LogicBlock)]
pub struct CoverageBoard {
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
    fr: UartFramer<CMD_BITS, RSP_BITS>,
    /// The coverage unit (serial).
    pub unit: CoverageSerial,
    rsp: Signal<Local, Bits<RSP_BITS>>,
    flags: Signal<Local, Bits<8>>,
    pdv: Signal<Local, Bits<16>>,
}

impl CoverageBoard {
    /// The board top with a UART bit time of `div` clocks (12 MHz / 115 200 baud: 104).
    pub fn new(div: u64) -> Self {
        Self {
            clock: Default::default(),
            btn_n: Default::default(),
            rx: Default::default(),
            tx: Default::default(),
            led_n: Default::default(),
            rst: Default::default(),
            fr: UartFramer::new(div),
            unit: Default::default(),
            rsp: Default::default(),
            flags: Default::default(),
            pdv: Default::default(),
        }
    }
}

impl Logic for CoverageBoard {
    #[hdl_gen]
    fn update(&mut self) {
        self.rst.clock.next = self.clock.val();
        self.rst.btn_n.next = self.btn_n.val();
        self.fr.clock.next = self.clock.val();
        self.fr.reset.next = self.rst.reset.val();
        self.fr.rx.next = self.rx.val();
        self.unit.clock.next = self.clock.val();
        self.unit.reset.next = self.rst.reset.val();

        // Command fields.
        self.unit.in_valid.next = self.fr.cmd_valid.val();
        self.fr.cmd_ready.next = self.unit.in_ready.val();
        self.unit.in_tag.next = self.fr.cmd.val().get_bits::<16>(0);
        self.unit.in_log2n.next = self.fr.cmd.val().get_bits::<3>(16);
        self.unit.in_prog.next = self.fr.cmd.val().get_bit(19);
        self.unit.in_ssaa.next = self.fr.cmd.val().get_bit(20);
        self.unit.in_smask.next = self.fr.cmd.val().get_bits::<16>(24);
        for l in 0..4 {
            self.unit.in_sid[l].next = self.fr.cmd.val().get_bits::<4>(40 + 4 * l);
        }
        for e in 0..3 {
            self.unit.in_vx[e].next = self.fr.cmd.val().get_bits::<25>(56 + 32 * e);
            self.unit.in_vy[e].next = self.fr.cmd.val().get_bits::<25>(152 + 32 * e);
        }
        self.unit.in_quad_x.next = self.fr.cmd.val().get_bits::<17>(248);
        self.unit.in_quad_y.next = self.fr.cmd.val().get_bits::<17>(280);
        for o in 0..4 {
            self.unit.in_op_mode[o].next = self.fr.cmd.val().get_bits::<4>(312 + 40 * o);
            self.unit.in_op_pd[o].next = self.fr.cmd.val().get_bit(316 + 40 * o);
            self.unit.in_op_tgsi[o].next = self.fr.cmd.val().get_bit(317 + 40 * o);
            self.unit.in_op_index[o].next = self.fr.cmd.val().get_bits::<32>(320 + 40 * o);
        }
        for i in 0..64 {
            self.unit.in_pos[i].next = self.fr.cmd.val().get_bits::<8>(472 + 8 * i);
        }

        // Response fields (assembled only while the unit offers a result).
        self.rsp.next = 0.into();
        self.flags.next = 0.into();
        self.pdv.next = 0.into();
        if self.unit.out_valid.val() {
            self.rsp.next = bit_cast::<RSP_BITS, 16>(self.unit.out_tag.val());
            // Shift amounts must be literals in `#[hdl_gen]` (a loop variable there does not compile).
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 16>(self.unit.out_covmask[0].val()) << 16);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 16>(self.unit.out_covmask[1].val()) << 32);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 16>(self.unit.out_covmask[2].val()) << 48);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 16>(self.unit.out_covmask[3].val()) << 64);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 32>(self.unit.out_rd[0].val()) << 80);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 32>(self.unit.out_rd[1].val()) << 112);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 32>(self.unit.out_rd[2].val()) << 144);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 32>(self.unit.out_rd[3].val()) << 176);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 32>(self.unit.out_rd[4].val()) << 208);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 32>(self.unit.out_rd[5].val()) << 240);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 32>(self.unit.out_rd[6].val()) << 272);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 32>(self.unit.out_rd[7].val()) << 304);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 32>(self.unit.out_rd[8].val()) << 336);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 32>(self.unit.out_rd[9].val()) << 368);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 32>(self.unit.out_rd[10].val()) << 400);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 32>(self.unit.out_rd[11].val()) << 432);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 32>(self.unit.out_rd[12].val()) << 464);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 32>(self.unit.out_rd[13].val()) << 496);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 32>(self.unit.out_rd[14].val()) << 528);
            self.rsp.next =
                self.rsp.val() | (bit_cast::<RSP_BITS, 32>(self.unit.out_rd[15].val()) << 560);
            for i in 0..16 {
                self.pdv.next = self.pdv.val().replace_bit(i, self.unit.out_pd[i].val());
            }
            for o in 0..4 {
                self.flags.next = self
                    .flags
                    .val()
                    .replace_bit(o, self.unit.out_pd_wr[o].val());
                self.flags.next = self
                    .flags
                    .val()
                    .replace_bit(4 + o, self.unit.out_err[o].val());
            }
            self.rsp.next = self.rsp.val()
                | (bit_cast::<RSP_BITS, 16>(self.pdv.val()) << 592)
                | (bit_cast::<RSP_BITS, 8>(self.flags.val()) << 608);
        }
        self.fr.rsp.next = self.rsp.val();
        self.fr.rsp_valid.next = self.unit.out_valid.val();
        self.unit.out_ready.next = self.fr.rsp_ready.val();

        self.tx.next = self.fr.tx.val();
        self.led_n.next = !self.fr.busy.val();
    }
}
