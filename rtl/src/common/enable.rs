//! Copies of a registered pipeline advance.
//!
//! A unit whose pipeline stalls as one (every register takes the same `en`) drives that enable to
//! every flip-flop of the datapath: tens of thousands of loads on one net, whose routing alone
//! took 9 ns of the LOD lane's clock on the ECP5-85F (docs/fpga.md). The enable is therefore
//! decided a clock early ([`crate::lod::LodUnit`]'s output skid register makes that possible) and
//! registered in several copies, each driving one group of registers placed together.
//!
//! [`EnableCopy`] is one such copy. Ports: `clock`, `d: Bit` (the advance of the next clock) →
//! `q: Bit` (the advance of this clock), one register, latency 1, power-up value 1 (a pipeline
//! starts empty and advancing). Its Verilog marks the register `(* keep *)`, so that synthesis
//! keeps the copies apart instead of merging registers with the same input into one.

use rust_hdl::prelude::*;

/// One registered copy of a pipeline's advance.
#[derive(Clone, Debug, LogicBlock)]
pub struct EnableCopy {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance in the next clock.
    pub d: Signal<In, Bit>,
    /// Advance in this clock (`d` of the previous rising edge; 1 at power-up).
    pub q: Signal<Out, Bit>,
    /// The register.
    _q: bool,
}

impl Default for EnableCopy {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            d: Default::default(),
            q: Default::default(),
            _q: true,
        }
    }
}

impl Logic for EnableCopy {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self._q = self.d.val();
        }
        self.q.next = self._q;
    }
    fn connect(&mut self) {
        self.q.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom("initial q = 1'b1;\n(* keep *) always @(posedge clock) q <= d;\n".into())
    }
}
