//! ULX3S (ECP5-85F) board top with a full-throughput unit: the LOD unit ([`LodUnit`], at a
//! pipeline depth) behind the UART command/response framing.
//!
//! The coverage boards carry the serial coverage unit, small enough for an iCE40; this one carries
//! a whole one-quad-per-clock unit, which needs the ECP5-85F (at its deepest depth the LOD unit
//! alone is 60 % of the die's logic slots). Through the UART the host sends one command at a time,
//! so the unit's throughput is not exercised here, only its function and its timing in a placed
//! and routed design.
//!
//! # Frames (see [`super::framer`])
//! A command is [`LOD_CMD_BYTES`] payload bytes after the sync byte, a response
//! [`LOD_RSP_BYTES`] after its sync byte. Multi-byte fields are little endian; `[bits]` are bit
//! positions in a byte. Every field is a port of [`LodUnit`] (docs/units/lod.md §5), in its low
//! bits.
//!
//! Command payload (byte offsets):
//! | bytes | field |
//! |---|---|
//! | 0–1 | `tag` |
//! | 2–3, 4–5 | `width`, `height` |
//! | 6 | `levels` [4:0] |
//! | 7 | `base` [3:0], `mip` [5:4], `fine` [6], `maxabs` [7] |
//! | 8–9 | `sbias` |
//! | 10–11, 12–13 | `min_lod`, `max_lod` (12 bits each) |
//! | 14–15, 16–17 | `lod_clamp`, `warn` (12 bits each) |
//! | 18 | `aniso` [4:0] |
//! | 19 | `mode` [2:0] |
//! | 20 + 4·i | `op[i]`, i = 0…15 (4 bytes) |
//!
//! Response payload: `tag` (bytes 0–1), then per lane l at 2 + 14·l:
//! | bytes (from the lane's offset) | field |
//! |---|---|
//! | 0–1 | `lambda` |
//! | 2–4 | `unclamped` (24 bits) |
//! | 5, 6 | `level0`, `level1` |
//! | 7 | `frac` |
//! | 8 | `probes` [4:0] |
//! | 9 | `magnify` [0], `lod_warning` [1], `major_y` [2] |
//! | 10–13 | `status` |
//!
//! # Ports
//! `clock` (25 MHz on the ULX3S), `btn_n` (active-low reset button), `rx`, `tx` (UART to the
//! host), `led` (active high, lit while a command is in the unit or its response is being sent).
//! Pins: `constraints/ulx3s.lpf`, the coverage board's.
//!
//! # Timing
//! One command at a time; at 115 200 baud ([`super::ulx3s::ULX3S_DIV`]) a command and its
//! response take about 12.5 ms. The unit's latency ([`LodUnit::latency`]) is a few clocks of that.

use super::framer::UartFramer;
use super::reset::BoardReset;
use crate::lod::LodUnit;
use rust_hdl::prelude::*;

/// Command payload bytes.
pub const LOD_CMD_BYTES: usize = 84;
/// Response payload bytes.
pub const LOD_RSP_BYTES: usize = 58;
const CMD_BITS: usize = LOD_CMD_BYTES * 8;
const RSP_BITS: usize = LOD_RSP_BYTES * 8;
/// Response bits of one lane.
const LANE_BITS: usize = 112;
const _: () = assert!(RSP_BITS == 16 + 4 * LANE_BITS);

/// The LOD unit behind a UART, for the ULX3S. See the module documentation.
#[derive(Clone, Debug, LogicBlock)]
pub struct LodBoardUlx3s {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Reset button, active low.
    pub btn_n: Signal<In, Bit>,
    /// Serial input from the host.
    pub rx: Signal<In, Bit>,
    /// Serial output to the host.
    pub tx: Signal<Out, Bit>,
    /// Busy LED, active high.
    pub led: Signal<Out, Bit>,
    rst: BoardReset,
    fr: UartFramer<CMD_BITS, RSP_BITS>,
    /// The LOD unit.
    pub unit: LodUnit,
    rsp: Signal<Local, Bits<RSP_BITS>>,
    /// Each lane's response bits.
    pack: [LaneWord; 4],
}

impl LodBoardUlx3s {
    /// The board top with the LOD unit at pipeline `depth` (0…[`LodUnit::MAX_DEPTH`]) and a UART
    /// bit time of `div` clocks (25 MHz / 115 200 baud: [`super::ulx3s::ULX3S_DIV`]).
    pub fn new(depth: usize, div: u64) -> Self {
        Self {
            clock: Default::default(),
            btn_n: Default::default(),
            rx: Default::default(),
            tx: Default::default(),
            led: Default::default(),
            rst: Default::default(),
            fr: UartFramer::new(div),
            unit: LodUnit::new(depth),
            rsp: Default::default(),
            pack: Default::default(),
        }
    }
}

impl Logic for LodBoardUlx3s {
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
        self.unit.in_width.next = self.fr.cmd.val().get_bits::<16>(16);
        self.unit.in_height.next = self.fr.cmd.val().get_bits::<16>(32);
        self.unit.in_levels.next = self.fr.cmd.val().get_bits::<5>(48);
        self.unit.in_base.next = self.fr.cmd.val().get_bits::<4>(56);
        self.unit.in_mip.next = self.fr.cmd.val().get_bits::<2>(60);
        self.unit.in_fine.next = self.fr.cmd.val().get_bit(62);
        self.unit.in_maxabs.next = self.fr.cmd.val().get_bit(63);
        self.unit.in_sbias.next = self.fr.cmd.val().get_bits::<16>(64);
        self.unit.in_min_lod.next = self.fr.cmd.val().get_bits::<12>(80);
        self.unit.in_max_lod.next = self.fr.cmd.val().get_bits::<12>(96);
        self.unit.in_lod_clamp.next = self.fr.cmd.val().get_bits::<12>(112);
        self.unit.in_warn.next = self.fr.cmd.val().get_bits::<12>(128);
        self.unit.in_aniso.next = self.fr.cmd.val().get_bits::<5>(144);
        self.unit.in_mode.next = self.fr.cmd.val().get_bits::<3>(152);
        for i in 0..16 {
            self.unit.in_op[i].next = self.fr.cmd.val().get_bits::<32>(160 + 32 * i);
        }

        // Response fields (assembled only while the unit offers a result).
        for l in 0..4 {
            self.pack[l].lambda.next = self.unit.out_lambda[l].val();
            self.pack[l].unclamped.next = self.unit.out_unclamped[l].val();
            self.pack[l].level0.next = self.unit.out_level0[l].val();
            self.pack[l].level1.next = self.unit.out_level1[l].val();
            self.pack[l].frac.next = self.unit.out_frac[l].val();
            self.pack[l].probes.next = self.unit.out_probes[l].val();
            self.pack[l].magnify.next = self.unit.out_magnify[l].val();
            self.pack[l].lod_warning.next = self.unit.out_lod_warning[l].val();
            self.pack[l].major_y.next = self.unit.out_major_y[l].val();
            self.pack[l].status.next = self.unit.out_status[l].val();
        }
        self.rsp.next = 0.into();
        if self.unit.out_valid.val() {
            self.rsp.next = bit_cast::<464, 16>(self.unit.out_tag.val())
                | (bit_cast::<464, 112>(self.pack[0].word.val()) << 16)
                | (bit_cast::<464, 112>(self.pack[1].word.val()) << 128)
                | (bit_cast::<464, 112>(self.pack[2].word.val()) << 240)
                | (bit_cast::<464, 112>(self.pack[3].word.val()) << 352);
        }
        self.fr.rsp.next = self.rsp.val();
        self.fr.rsp_valid.next = self.unit.out_valid.val();
        self.unit.out_ready.next = self.fr.rsp_ready.val();

        self.tx.next = self.fr.tx.val();
        self.led.next = self.fr.busy.val();
    }
}

/// One lane's results packed into its response bits (the layout above, from the lane's offset).
/// Combinational.
#[derive(Clone, Debug, Default, LogicBlock)]
pub struct LaneWord {
    /// The lane's results ([`LodUnit`]'s output ports of the lane).
    pub lambda: Signal<In, Bits<16>>,
    pub unclamped: Signal<In, Bits<24>>,
    pub level0: Signal<In, Bits<5>>,
    pub level1: Signal<In, Bits<5>>,
    pub frac: Signal<In, Bits<8>>,
    pub probes: Signal<In, Bits<5>>,
    pub magnify: Signal<In, Bit>,
    pub lod_warning: Signal<In, Bit>,
    pub major_y: Signal<In, Bit>,
    pub status: Signal<In, Bits<32>>,
    /// The packed bits.
    pub word: Signal<Out, Bits<LANE_BITS>>,
}

impl Logic for LaneWord {
    #[hdl_gen]
    fn update(&mut self) {
        self.word.next = bit_cast::<112, 16>(self.lambda.val())
            | (bit_cast::<112, 24>(self.unclamped.val()) << 16)
            | (bit_cast::<112, 5>(self.level0.val()) << 40)
            | (bit_cast::<112, 5>(self.level1.val()) << 48)
            | (bit_cast::<112, 8>(self.frac.val()) << 56)
            | (bit_cast::<112, 5>(self.probes.val()) << 64)
            | (bit_cast::<112, 32>(self.status.val()) << 80);
        self.word.next = self.word.val().replace_bit(72, self.magnify.val());
        self.word.next = self.word.val().replace_bit(73, self.lod_warning.val());
        self.word.next = self.word.val().replace_bit(74, self.major_y.val());
    }
}
