//! Board reset: a power-on reset and a push button.

use rust_hdl::prelude::*;

/// Clocks the reset is held after configuration (the counter's full range).
pub const POR_CYCLES: u64 = 16;

/// Synchronous board reset.
///
/// # Ports
/// `clock`; `btn_n`, an asynchronous active-low push button (two synchroniser flip-flops);
/// `reset`, active high, driven from a flip-flop.
///
/// # Timing
/// Flip-flops power up at zero: `reset` is high from the first clock edge after configuration until
/// edge [`POR_CYCLES`], and from three edges after `btn_n` goes low until about [`POR_CYCLES`]
/// edges after it is released.
#[derive(Clone, Debug, LogicBlock, Default)]
pub struct BoardReset {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Push button, active low, asynchronous.
    pub btn_n: Signal<In, Bit>,
    /// Reset, active high.
    pub reset: Signal<Out, Bit>,
    // The synchroniser stores the inverted button so that its power-up state (zero) is "released".
    press0: DFF<Bit>,
    press1: DFF<Bit>,
    count: DFF<Bits<4>>,
    held: DFF<Bit>,
}

impl Logic for BoardReset {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, press0, press1, count, held);
        self.press0.d.next = !self.btn_n.val();
        self.press1.d.next = self.press0.q.val();
        if self.press1.q.val() {
            self.count.d.next = 0.into();
        } else if !self.count.q.val().all() {
            self.count.d.next = self.count.q.val() + 1;
        }
        self.held.d.next = !self.count.q.val().all() | self.press1.q.val();
        self.reset.next = self.held.q.val();
    }
}
