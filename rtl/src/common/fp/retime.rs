//! Pipeline delay leaf: `S ≥ 0` register stages with a common enable.
//!
//! Ports: `clock`, `en: Bit`, `d: T` → `q: T`. On every rising edge of `clock` with `en` high the
//! chain shifts by one (`q` takes the value `d` had `S` enabled edges earlier); with `en` low every
//! stage holds. Latency `S` enabled clocks, throughput one value per enabled clock. All stages power
//! up at zero (an `initial` block in the Verilog, like rust-hdl's `DFF`); there is no reset: use it
//! for data, and keep valid bits in a reset register of their own. With `S = 0` the leaf is a
//! wire (`q = d`; `clock` and `en` unused), so that a wrapper can place a stage or not by a
//! constructor argument.
//!
//! The stage count is a constructor argument ([`Retime::new`]); the Verilog is generated for that
//! count (rust-hdl emits one module per instance). Retiming the registers into the combinational
//! logic in front of them is left to synthesis (e.g. Yosys `abc -dff`, Vivado/Quartus register
//! retiming): the cores are written as one combinational cloud followed by this chain.

use rust_hdl::prelude::*;
use std::fmt::Write as _;

/// `S`-stage enabled delay line of `T` values.
#[derive(Clone, Debug, LogicBlock)]
pub struct Retime<T: Synth> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Shift enable.
    pub en: Signal<In, Bit>,
    /// Input.
    pub d: Signal<In, T>,
    /// Output, `S` enabled edges later.
    pub q: Signal<Out, T>,
    /// Stage values, `_stage[0]` nearest `d`; the last one drives `q`.
    _stage: Vec<T>,
    /// The Verilog marks the registers `(* keep *)` ([`Retime::kept`]).
    _keep: bool,
}

impl<T: Synth> Retime<T> {
    /// A chain of `stages` registers (0: a wire).
    pub fn new(stages: usize) -> Self {
        Self {
            clock: Default::default(),
            en: Default::default(),
            d: Default::default(),
            q: Default::default(),
            _stage: vec![T::default(); stages],
            _keep: false,
        }
    }

    /// A chain of `stages` registers that synthesis keeps apart: its Verilog marks them
    /// `(* keep *)`, so that two copies of the same value (one per consumer, each placed beside
    /// its consumer) are not merged into one register, nor the logic behind them into one cloud
    /// whose outputs cross the die. Simulates exactly as [`Retime::new`].
    pub fn kept(stages: usize) -> Self {
        Self {
            _keep: true,
            ..Self::new(stages)
        }
    }

    /// Number of register stages.
    pub fn stages(&self) -> usize {
        self._stage.len()
    }
}

impl<T: Synth> Logic for Retime<T> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.en.val() && !self._stage.is_empty() {
            self._stage.rotate_right(1);
            self._stage[0] = self.d.val();
        }
        match self._stage.last() {
            Some(last) => self.q.next = *last,
            None => self.q.next = self.d.val(),
        }
    }
    fn connect(&mut self) {
        self.q.connect();
    }
    fn hdl(&self) -> Verilog {
        let range = range_of::<T>();
        let advance = Advance::Enable {
            reset: false,
            keep: self._keep,
        };
        let chain = chain_verilog(self._stage.len(), &range, &init_of::<T>(), advance);
        match (&chain, ring_words(self._stage.len(), T::BITS, self._keep)) {
            (Verilog::Custom(regs), Some(words)) => Verilog::Custom(format!(
                "`ifdef TEXPIX_RAM_RETIME\n{}`else\n{regs}`endif\n",
                ring_verilog(words, &range, &init_of::<T>())
            )),
            _ => chain,
        }
    }
}

/// `S ≥ 0`-stage enabled delay line of a valid bit with a synchronous reset.
///
/// Ports: `clock`, `reset` (synchronous, active high: every stage clears, whatever `en`), `en`,
/// `d: Bit` → `q: Bit`. Otherwise [`Retime<Bit>`]: `q` is `d` of `S` enabled edges earlier, and
/// with `S = 0` the leaf is a wire. The valid bits of a pipeline whose data go through
/// [`Retime`] chains of the same depth, so that a reset empties the extra stages too.
#[derive(Clone, Debug, LogicBlock)]
pub struct ValidRetime {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// Shift enable.
    pub en: Signal<In, Bit>,
    /// Input.
    pub d: Signal<In, Bit>,
    /// Output, `S` enabled edges later.
    pub q: Signal<Out, Bit>,
    /// Stage values, `_stage[0]` nearest `d`.
    _stage: Vec<bool>,
}

impl ValidRetime {
    /// A chain of `stages` valid registers (0: a wire).
    pub fn new(stages: usize) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            en: Default::default(),
            d: Default::default(),
            q: Default::default(),
            _stage: vec![false; stages],
        }
    }

    /// Number of register stages.
    pub fn stages(&self) -> usize {
        self._stage.len()
    }
}

impl Logic for ValidRetime {
    fn update(&mut self) {
        if self.clock.pos_edge() && !self._stage.is_empty() {
            if self.reset.val() {
                self._stage.iter_mut().for_each(|s| *s = false);
            } else if self.en.val() {
                self._stage.rotate_right(1);
                self._stage[0] = self.d.val();
            }
        }
        match self._stage.last() {
            Some(last) => self.q.next = *last,
            None => self.q.next = self.d.val(),
        }
    }
    fn connect(&mut self) {
        self.q.connect();
    }
    fn hdl(&self) -> Verilog {
        let advance = Advance::Enable {
            reset: true,
            keep: false,
        };
        chain_verilog(self._stage.len(), "", "1'b0", advance)
    }
}

/// The Verilog register width prefix of `T` (none for one bit).
fn range_of<T: Synth>() -> String {
    if T::BITS == 1 {
        String::new()
    } else {
        format!("[{}:0] ", T::BITS - 1)
    }
}

/// The Verilog power-up value of `T` (zero).
fn init_of<T: Synth>() -> String {
    format!("{:x}", T::default().verilog())
}

/// The shortest [`Retime`] whose Verilog also has the memory form ([`ring_verilog`]).
pub const RING_MIN_STAGES: usize = 6;
/// The narrowest one, in bits.
pub const RING_MIN_BITS: usize = 4;

/// The ring's word count for a delay line of `stages` × `bits` (`None`: registers only): lines of
/// at least [`RING_MIN_STAGES`] and [`RING_MIN_BITS`] that synthesis may merge.
fn ring_words(stages: usize, bits: usize, keep: bool) -> Option<usize> {
    (stages >= RING_MIN_STAGES && bits >= RING_MIN_BITS && !keep).then(|| stages - 1)
}

/// The memory form of an enabled delay line of `words + 1` stages, read with `TEXPIX_RAM_RETIME`
/// defined: a ring of `words` words; in each enabled clock the word at pointer `p` is written
/// and the word one ahead of it (the oldest, written `words − 1` enabled clocks ago) is read into
/// `o` (the read register: a block RAM's own), then `q` (a fabric register behind the RAM's slow
/// clock-to-out). The same values as the register chain, clock for clock, power-up zeros included;
/// synthesis maps the ring to distributed RAM, or with `TEXPIX_RAM_BLOCK` also defined to block
/// RAM (`ram_style = "block"`), where a register chain costs `stages × bits` flip-flops. The read
/// and write addresses never meet, so the ring is marked `no_rw_check`: synthesis need not add
/// collision logic (with one shared pointer, read before write, a 32-bit, 23-word block RAM ring
/// took 48 LUT4 and 108 flip-flops beside its DP16KD; read ahead, 4 and 37).
fn ring_verilog(words: usize, range: &str, init: &str) -> String {
    let pbits = usize::BITS as usize - (words - 1).max(1).leading_zeros() as usize;
    let mut v = String::new();
    let _ = writeln!(
        v,
        "`ifdef TEXPIX_RAM_BLOCK\n(* ram_style = \"block\", no_rw_check *)\n`else\n(* no_rw_check *)\n`endif"
    );
    let _ = writeln!(v, "reg {range}ring [0:{}];", words - 1);
    let _ = writeln!(v, "reg {range}o;");
    let _ = writeln!(v, "reg [{}:0] p;", pbits - 1);
    let _ = writeln!(
        v,
        "wire [{}:0] pn = (p == {pbits}'d{}) ? {pbits}'d0 : p + {pbits}'d1;",
        pbits - 1,
        words - 1
    );
    let _ = writeln!(v, "integer k;");
    let _ = writeln!(v, "initial begin");
    let _ = writeln!(
        v,
        "   for (k = 0; k < {words}; k = k + 1) ring[k] = {init};"
    );
    let _ = writeln!(v, "   o = {init};");
    let _ = writeln!(v, "   q = {init};");
    let _ = writeln!(v, "   p = 0;");
    let _ = writeln!(v, "end");
    let _ = writeln!(v, "always @(posedge clock) begin");
    let _ = writeln!(v, "   if (en) begin");
    let _ = writeln!(v, "      o <= ring[pn];");
    let _ = writeln!(v, "      ring[p] <= d;");
    let _ = writeln!(v, "      p <= pn;");
    let _ = writeln!(v, "      q <= o;");
    let _ = writeln!(v, "   end");
    let _ = writeln!(v, "end");
    v
}

/// How the stages of a delay line's Verilog ([`chain_verilog`]) advance.
#[derive(Clone, Copy)]
enum Advance {
    /// All on `en`; `reset` adds a synchronous clear of every stage, `keep` marks the registers
    /// `(* keep *)`.
    Enable { reset: bool, keep: bool },
    /// On enable registers of their own, one `(* keep *)` copy of `adv_next` per this many
    /// stages.
    Spread(usize),
}

/// The Verilog body of an `s`-stage delay line (`range` is the register width prefix, `init` the
/// power-up value): stage i < s − 1 is `r<i>`, the last stage is the output register `q`; with
/// `s = 0` a wire.
fn chain_verilog(s: usize, range: &str, init: &str, advance: Advance) -> Verilog {
    let ports = match advance {
        Advance::Enable { reset: true, .. } => "clock, reset, en",
        Advance::Enable { reset: false, .. } => "clock, en",
        Advance::Spread(_) => "clock, adv_next",
    };
    if s == 0 {
        return Verilog::Custom(format!(
            "always @(*) q = d;\n/* verilator lint_off UNUSEDSIGNAL */\nwire unused_ok = &{{1'b0, {ports}}};\n/* verilator lint_on UNUSEDSIGNAL */\n"
        ));
    }
    let name = |i: usize| {
        if i + 1 == s {
            "q".to_string()
        } else {
            format!("r{i}")
        }
    };
    let prev = |i: usize| if i == 0 { "d".to_string() } else { name(i - 1) };
    let mut v = String::new();
    for i in 0..s - 1 {
        let _ = writeln!(v, "reg {range}{};", name(i));
    }
    let _ = writeln!(v, "initial begin");
    for i in 0..s {
        let _ = writeln!(v, "   {} = {init};", name(i));
    }
    let _ = writeln!(v, "end");
    match advance {
        Advance::Spread(group) => {
            for g in 0..s.div_ceil(group) {
                // `(* keep *)` on the process, not the `reg`: Yosys merges registers with the
                // same input whatever their wires' attributes.
                let _ = writeln!(v, "reg e{g};");
                let _ = writeln!(v, "initial e{g} = 1'b1;");
                let _ = writeln!(v, "(* keep *) always @(posedge clock) e{g} <= adv_next;");
            }
            for i in 0..s {
                let (e, q, d) = (i / group, name(i), prev(i));
                let _ = writeln!(v, "always @(posedge clock) if (e{e}) {q} <= {d};");
            }
        }
        Advance::Enable { reset, keep } => {
            let attr = if keep { "(* keep *) " } else { "" };
            let _ = writeln!(v, "{attr}always @(posedge clock) begin");
            let shift = if reset {
                let _ = writeln!(v, "   if (reset) begin");
                for i in 0..s {
                    let _ = writeln!(v, "      {} <= 1'b0;", name(i));
                }
                "   end else if (en) begin"
            } else {
                "   if (en) begin"
            };
            let _ = writeln!(v, "{shift}");
            for i in 0..s {
                let _ = writeln!(v, "      {} <= {};", name(i), prev(i));
            }
            let _ = writeln!(v, "   end");
            let _ = writeln!(v, "end");
        }
    }
    Verilog::Custom(v)
}

/// [`Retime`] whose stages take their advance from enable registers of their own: one
/// `(* keep *)` copy of the advance per group of stages, so that no enable net spans a long line.
///
/// Ports: `clock`, `adv_next: Bit` (the advance of the next clock, as [`crate::common::EnableCopy`]
/// takes it), `d: T` → `q: T`. Each enable register takes `adv_next` at every rising edge
/// (power-up 1); at an edge where they hold 1 the chain shifts. So it is
/// [`Retime`]`::new(stages)` with `en` = an [`crate::common::EnableCopy`] of `adv_next`: latency
/// `stages` enabled clocks, one value per enabled clock, stages power up at zero, no reset. With
/// `stages = 0` a wire.
#[derive(Clone, Debug, LogicBlock)]
pub struct SpreadRetime<T: Synth> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Advance in the next clock.
    pub adv_next: Signal<In, Bit>,
    /// Input.
    pub d: Signal<In, T>,
    /// Output, `stages` enabled edges later.
    pub q: Signal<Out, T>,
    _stage: Vec<T>,
    /// The advance of this clock (every copy holds it).
    _en: bool,
    /// Stages per enable copy.
    _group: usize,
}

impl<T: Synth> SpreadRetime<T> {
    /// A chain of `stages` registers with one enable copy per `group` (≥ 1) of them.
    pub fn new(stages: usize, group: usize) -> Self {
        assert!(group >= 1, "SpreadRetime: groups of {group} stages");
        Self {
            clock: Default::default(),
            adv_next: Default::default(),
            d: Default::default(),
            q: Default::default(),
            _stage: vec![T::default(); stages],
            _en: true,
            _group: group,
        }
    }
}

impl<T: Synth> Logic for SpreadRetime<T> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            if self._en && !self._stage.is_empty() {
                self._stage.rotate_right(1);
                self._stage[0] = self.d.val();
            }
            self._en = self.adv_next.val();
        }
        match self._stage.last() {
            Some(last) => self.q.next = *last,
            None => self.q.next = self.d.val(),
        }
    }
    fn connect(&mut self) {
        self.q.connect();
    }
    fn hdl(&self) -> Verilog {
        let range = range_of::<T>();
        let advance = Advance::Spread(self._group);
        chain_verilog(self._stage.len(), &range, &init_of::<T>(), advance)
    }
}

/// An output register with a skid register of one value behind it, for a pipeline that stalls
/// exactly while its skid register is full ([`crate::common::SkidControl`]).
///
/// Ports: `clock`, `en: Bit` (the pipeline's advance of this clock, a registered copy:
/// [`crate::common::EnableCopy`]), `d: T` → `q: T`. At every rising edge with `en` high the
/// output register takes `d` and the skid register the output register's old value; `q` is the
/// output register while `en` is high, else the skid register (the value the output refused in
/// the last advancing clock). Latency 1 enabled clock; two registers and a 2:1 select, both
/// enabled by `en` alone, so no net from the consumer's ready reaches them. Power-up value zero.
#[derive(Clone, Debug, LogicBlock)]
pub struct SkidRetime<T: Synth> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The pipeline advances in this clock.
    pub en: Signal<In, Bit>,
    /// Input.
    pub d: Signal<In, T>,
    /// The output register, or the skid register while stalled.
    pub q: Signal<Out, T>,
    _out: T,
    _skid: T,
}

impl<T: Synth> Default for SkidRetime<T> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            en: Default::default(),
            d: Default::default(),
            q: Default::default(),
            _out: T::default(),
            _skid: T::default(),
        }
    }
}

impl<T: Synth> Logic for SkidRetime<T> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.en.val() {
            self._skid = self._out;
            self._out = self.d.val();
        }
        self.q.next = if self.en.val() { self._out } else { self._skid };
    }
    fn connect(&mut self) {
        self.q.connect();
    }
    fn hdl(&self) -> Verilog {
        let (range, init) = (range_of::<T>(), init_of::<T>());
        Verilog::Custom(format!(
            "reg {range}r;\nreg {range}s;\ninitial begin r = {init}; s = {init}; end\n\
             always @(posedge clock) if (en) begin r <= d; s <= r; end\n\
             always @(*) q = en ? r : s;\n"
        ))
    }
}
