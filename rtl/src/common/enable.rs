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

/// The control of a pipeline that stalls as one behind a skid register of one result.
///
/// Ports: `clock`, `reset` (synchronous, active high: empties the skid register), `full` (the
/// pipeline's output registers hold a result), `out_ready` (the consumer takes the result offered)
/// → `load` (the skid register takes the output registers' result at this edge: the output
/// refuses it while the pipeline advances), `valid` (the skid register holds a result, which is
/// offered first), `adv_next` (the pipeline advances in the next clock: the skid register will be
/// empty then). One register (the skid's valid bit); `load` and `adv_next` are combinational from
/// `out_ready`, and `adv_next` goes only into [`EnableCopy`] registers, so every enable of the
/// pipeline is a register. The unit holds the skid register's data itself.
#[derive(Clone, Debug, Default, LogicBlock)]
pub struct SkidControl {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// The output registers hold a result.
    pub full: Signal<In, Bit>,
    /// The consumer takes the offered result.
    pub out_ready: Signal<In, Bit>,
    /// The skid register takes the output registers' result at this edge.
    pub load: Signal<Out, Bit>,
    /// The skid register holds a result.
    pub valid: Signal<Out, Bit>,
    /// The pipeline advances in the next clock.
    pub adv_next: Signal<Out, Bit>,
    sv: DFF<Bit>,
    ld: Signal<Local, Bit>,
    sv_next: Signal<Local, Bit>,
}

impl Logic for SkidControl {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sv);
        self.ld.next = !self.sv.q.val() & self.full.val() & !self.out_ready.val();
        self.sv_next.next = self.ld.val() | (self.sv.q.val() & !self.out_ready.val());
        if self.reset.val() {
            self.sv_next.next = false;
        }
        self.sv.d.next = self.sv_next.val();
        self.load.next = self.ld.val();
        self.adv_next.next = !self.sv_next.val();
        self.valid.next = self.sv.q.val();
    }
}
