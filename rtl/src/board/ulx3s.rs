//! ULX3S (ECP5-85F) variant of the coverage board: [`CoverageBoard`] with the ULX3S's LED
//! polarity.
//!
//! The ULX3S's user LEDs are lit by a high FPGA pin (active high), the iCEBreaker's, for which
//! [`CoverageBoard`]'s `led_n` is made, by a low one. This top brings the busy LED out as `led` (active high); everything
//! else — the UART frames, the reset button `btn_n` (active low: the ULX3S's BTN_PWRn, pulled up
//! on the board), the serial coverage unit — is [`CoverageBoard`]'s. The ULX3S has a 25 MHz
//! oscillator: [`ULX3S_DIV`] is the UART bit time for 115 200 baud. Pins: `constraints/ulx3s.lpf`.

use super::coverage_board::CoverageBoard;
use rust_hdl::prelude::*;

/// UART bit time (clocks) on the ULX3S: 25 MHz / 115 200 baud = 217.01.
pub const ULX3S_DIV: u64 = 217;

/// The coverage board with an active-high busy LED, for the ULX3S. See the module documentation.
#[derive(Clone, Debug, LogicBlock)]
pub struct CoverageBoardUlx3s {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Reset button, active low.
    pub btn_n: Signal<In, Bit>,
    /// Serial input from the host.
    pub rx: Signal<In, Bit>,
    /// Serial output to the host.
    pub tx: Signal<Out, Bit>,
    /// Busy LED, active high: lit while a command is in the unit or its response is being sent.
    pub led: Signal<Out, Bit>,
    /// The coverage board.
    pub board: CoverageBoard,
}

impl CoverageBoardUlx3s {
    /// The board top with a UART bit time of `div` clocks (25 MHz / 115 200 baud: [`ULX3S_DIV`]).
    pub fn new(div: u64) -> Self {
        Self {
            clock: Default::default(),
            btn_n: Default::default(),
            rx: Default::default(),
            tx: Default::default(),
            led: Default::default(),
            board: CoverageBoard::new(div),
        }
    }
}

impl Logic for CoverageBoardUlx3s {
    #[hdl_gen]
    fn update(&mut self) {
        self.board.clock.next = self.clock.val();
        self.board.btn_n.next = self.btn_n.val();
        self.board.rx.next = self.rx.val();
        self.tx.next = self.board.tx.val();
        self.led.next = !self.board.led_n.val();
    }
}
