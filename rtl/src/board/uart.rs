//! UART transmitter and receiver: 8 data bits, no parity, one stop bit (8N1), LSB first, line idle
//! high. The bit time is a whole number of clocks, `div` (a constructor argument: clock frequency /
//! baud rate, e.g. 12 MHz / 115 200 ≈ 104, an error of 0.16 %).

use rust_hdl::prelude::*;

/// Width of the bit-time counters: `div` must be below 2^16.
pub const UART_COUNT_BITS: usize = 16;

/// UART transmitter (8N1).
///
/// # Ports
/// `clock`, `reset` (synchronous, active high: abandons a character, line idle), byte stream in
/// `data`/`valid`/`ready` (a byte is taken on a rising edge with `valid` and `ready` high), serial
/// output `tx` (driven straight from a flip-flop).
///
/// # Timing
/// `tx` goes low (start bit) one clock after the byte is taken; a character lasts `10·div` clocks;
/// `ready` is high again on the clock after the stop bit ends, so back-to-back bytes leave no idle
/// time on the line.
#[derive(Clone, Debug, LogicBlock)]
pub struct UartTx {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// Byte to send.
    pub data: Signal<In, Bits<8>>,
    /// `data` is valid.
    pub valid: Signal<In, Bit>,
    /// The transmitter takes a byte this cycle.
    pub ready: Signal<Out, Bit>,
    /// Serial output (idle high).
    pub tx: Signal<Out, Bit>,
    div_m1: Constant<Bits<UART_COUNT_BITS>>,
    busy: DFF<Bit>,
    // {stop, data[7:0], start}; shifted out LSB first, refilled with ones (the idle level).
    shift: DFFWithInit<Bits<10>>,
    count: DFF<Bits<UART_COUNT_BITS>>,
    nbit: DFF<Bits<4>>,
}

impl UartTx {
    /// A transmitter with a bit time of `div ≥ 2` clocks.
    pub fn new(div: u64) -> Self {
        assert!(
            (2..1 << UART_COUNT_BITS).contains(&div),
            "UART divisor {div} out of range"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            ready: Default::default(),
            tx: Default::default(),
            div_m1: Constant::new((div - 1).into()),
            busy: Default::default(),
            shift: DFFWithInit::new(bits::<10>(0x3ff)),
            count: Default::default(),
            nbit: Default::default(),
        }
    }
}

impl Logic for UartTx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, busy, shift, count, nbit);
        self.ready.next = !self.busy.q.val();
        self.tx.next = self.shift.q.val().get_bit(0);
        if !self.busy.q.val() {
            if self.valid.val() {
                self.busy.d.next = true;
                self.shift.d.next = (bit_cast::<10, 8>(self.data.val()) << 1) | bits::<10>(0x200);
                self.count.d.next = 0.into();
                self.nbit.d.next = 0.into();
            }
        } else if self.count.q.val() == self.div_m1.val() {
            self.count.d.next = 0.into();
            self.shift.d.next = (self.shift.q.val() >> 1) | bits::<10>(0x200);
            self.nbit.d.next = self.nbit.q.val() + 1;
            if self.nbit.q.val() == 9 {
                self.busy.d.next = false;
            }
        } else {
            self.count.d.next = self.count.q.val() + 1;
        }
        if self.reset.val() {
            self.busy.d.next = false;
            self.shift.d.next = bits::<10>(0x3ff);
        }
    }
}

/// UART receiver (8N1).
///
/// # Ports
/// `clock`, `reset` (synchronous, active high), serial input `rx` (asynchronous: two synchroniser
/// flip-flops), received byte `data` with a one-clock `valid` pulse, and a one-clock `frame_err`
/// pulse when a stop bit reads low (the byte is dropped).
///
/// # Timing
/// A falling edge on the synchronised line starts a character; each bit is sampled once, `div/2`
/// clocks after its expected start (mid-bit); a start bit that reads high there is a glitch and is
/// ignored. `valid` rises at the middle of the stop bit, about `9.5·div + 3` clocks after the
/// falling edge on the pin, so the receiver is ready for the next start bit half a bit early (it
/// tolerates a transmitter a few per cent fast or slow).
#[derive(Clone, Debug, LogicBlock)]
pub struct UartRx {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// Serial input (idle high).
    pub rx: Signal<In, Bit>,
    /// Received byte (valid with `valid`).
    pub data: Signal<Out, Bits<8>>,
    /// A byte was received (one clock).
    pub valid: Signal<Out, Bit>,
    /// The stop bit was low (one clock).
    pub frame_err: Signal<Out, Bit>,
    div_m1: Constant<Bits<UART_COUNT_BITS>>,
    half: Constant<Bits<UART_COUNT_BITS>>,
    // Power up idle (high): the flip-flops store the value XOR its initial value.
    sync0: DFFWithInit<Bit>,
    sync1: DFFWithInit<Bit>,
    busy: DFF<Bit>,
    count: DFF<Bits<UART_COUNT_BITS>>,
    nbit: DFF<Bits<4>>,
    shift: DFF<Bits<8>>,
    out_data: DFF<Bits<8>>,
    out_valid: DFF<Bit>,
    out_err: DFF<Bit>,
}

impl UartRx {
    /// A receiver with a bit time of `div ≥ 2` clocks.
    pub fn new(div: u64) -> Self {
        assert!(
            (2..1 << UART_COUNT_BITS).contains(&div),
            "UART divisor {div} out of range"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            rx: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            frame_err: Default::default(),
            div_m1: Constant::new((div - 1).into()),
            half: Constant::new((div / 2).into()),
            sync0: DFFWithInit::new(true),
            sync1: DFFWithInit::new(true),
            busy: Default::default(),
            count: Default::default(),
            nbit: Default::default(),
            shift: Default::default(),
            out_data: Default::default(),
            out_valid: Default::default(),
            out_err: Default::default(),
        }
    }
}

impl Logic for UartRx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sync0, sync1, busy, count, nbit, shift, out_data);
        self.out_valid.clock.next = self.clock.val();
        self.out_valid.d.next = false;
        self.out_err.clock.next = self.clock.val();
        self.out_err.d.next = false;
        self.sync0.d.next = self.rx.val();
        self.sync1.d.next = self.sync0.q.val();
        if !self.busy.q.val() {
            if !self.sync1.q.val() {
                // Falling edge: count to the middle of the start bit.
                self.busy.d.next = true;
                self.count.d.next = self.half.val();
                self.nbit.d.next = 0.into();
            }
        } else if self.count.q.val().any() {
            self.count.d.next = self.count.q.val() - 1;
        } else {
            // Mid-bit sample: nbit 0 is the start bit, 1…8 the data bits, 9 the stop bit.
            self.count.d.next = self.div_m1.val();
            self.nbit.d.next = self.nbit.q.val() + 1;
            if self.nbit.q.val() == 0 {
                if self.sync1.q.val() {
                    self.busy.d.next = false;
                }
            } else if self.nbit.q.val() == 9 {
                self.busy.d.next = false;
                if self.sync1.q.val() {
                    self.out_valid.d.next = true;
                    self.out_data.d.next = self.shift.q.val();
                } else {
                    self.out_err.d.next = true;
                }
            } else {
                self.shift.d.next = self.shift.q.val() >> 1;
                if self.sync1.q.val() {
                    self.shift.d.next = (self.shift.q.val() >> 1) | bits::<8>(0x80);
                }
            }
        }
        if self.reset.val() {
            self.busy.d.next = false;
            self.out_valid.d.next = false;
            self.out_err.d.next = false;
        }
        self.data.next = self.out_data.q.val();
        self.valid.next = self.out_valid.q.val();
        self.frame_err.next = self.out_err.q.val();
    }
}
