//! The BVH unit's in-order ray queue: `N ≥ 1` entries of [`RAY_FIELDS`] 32-bit words, the entry
//! count a constructor argument ([`RayQueue::new`]).
//!
//! # Ports
//! `clock`, `reset` (synchronous, active high: the queue empties; entries are data and keep their
//! values), `push` with `d[RAY_FIELDS]` (written at the tail on the rising edge; must not be high
//! while `full`), `pop` (drops the head on the rising edge; must not be high while `empty`) →
//! `q[RAY_FIELDS]` (the head entry, combinational from the registers; undefined while `empty`),
//! `full`, `empty`. A push and a pop in the same clock both happen.
//!
//! # Timing
//! A pushed entry is at the head one clock later at the earliest (no fall-through). Registers
//! only: `RAY_FIELDS` 32-bit registers per entry, written when `push` and the tail pointer
//! selects the entry, an `N`-way head multiplexer, tail/head pointers and an occupancy count. The Verilog
//! is generated for `N` (rust-hdl emits one module per instance), as explicit registers, so every
//! flow maps it the same way (no memory inference).

use rust_hdl::prelude::*;
use std::fmt::Write as _;

/// 32-bit words per ray: origin ×3, direction ×3, inverse ×3, extent, control.
pub const RAY_FIELDS: usize = 11;

/// The ray queue. See the module documentation.
#[derive(Clone, Debug, LogicBlock)]
pub struct RayQueue {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,
    /// Write `d` at the tail.
    pub push: Signal<In, Bit>,
    /// Drop the head.
    pub pop: Signal<In, Bit>,
    /// The entry to push.
    pub d: [Signal<In, Bits<32>>; RAY_FIELDS],
    /// The head entry.
    pub q: [Signal<Out, Bits<32>>; RAY_FIELDS],
    /// All `N` entries hold rays.
    pub full: Signal<Out, Bit>,
    /// No entry holds a ray.
    pub empty: Signal<Out, Bit>,
    _entries: Vec<[Bits<32>; RAY_FIELDS]>,
    _head: usize,
    _count: usize,
}

impl RayQueue {
    /// A queue of `entries ≥ 1` rays.
    pub fn new(entries: usize) -> Self {
        assert!(entries >= 1, "a ray queue needs at least one entry");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            d: Default::default(),
            q: Default::default(),
            full: Default::default(),
            empty: Default::default(),
            _entries: vec![[Bits::default(); RAY_FIELDS]; entries],
            _head: 0,
            _count: 0,
        }
    }

    /// Number of entries.
    pub fn entries(&self) -> usize {
        self._entries.len()
    }
}

impl Logic for RayQueue {
    fn update(&mut self) {
        let n = self._entries.len();
        if self.clock.pos_edge() {
            if self.reset.val() {
                self._head = 0;
                self._count = 0;
            } else {
                let (push, pop) = (self.push.val(), self.pop.val());
                if push {
                    let tail = (self._head + self._count) % n;
                    for (e, d) in self._entries[tail].iter_mut().zip(&self.d) {
                        *e = d.val();
                    }
                }
                if pop {
                    self._head = (self._head + 1) % n;
                }
                match (push, pop) {
                    (true, false) => self._count += 1,
                    (false, true) => self._count = self._count.wrapping_sub(1),
                    _ => {}
                }
            }
        }
        for (q, e) in self.q.iter_mut().zip(&self._entries[self._head]) {
            q.next = *e;
        }
        self.full.next = self._count == n;
        self.empty.next = self._count == 0;
    }
    fn connect(&mut self) {
        for q in &mut self.q {
            q.connect();
        }
        self.full.connect();
        self.empty.connect();
    }
    fn hdl(&self) -> Verilog {
        let n = self._entries.len();
        // Pointer width: enough for 0…N−1 (at least 1 bit); the count also holds N. Each entry is
        // RAY_FIELDS 32-bit registers `e<entry>_<field>`.
        let pw = (usize::BITS - (n.max(2) - 1).leading_zeros()) as usize;
        let cw = (usize::BITS - n.leading_zeros()) as usize;
        let mut v = String::new();
        let _ = writeln!(v, "reg [{}:0] wp, rp;", pw - 1);
        let _ = writeln!(v, "reg [{}:0] cnt;", cw - 1);
        for e in 0..n {
            for f in 0..RAY_FIELDS {
                let _ = writeln!(v, "reg [31:0] e{e}_{f};");
            }
        }
        let _ = writeln!(v, "initial begin");
        let _ = writeln!(v, "   wp = 0; rp = 0; cnt = 0;");
        for e in 0..n {
            for f in 0..RAY_FIELDS {
                let _ = writeln!(v, "   e{e}_{f} = 0;");
            }
        }
        let _ = writeln!(v, "end");
        let _ = writeln!(v, "always @(posedge clock) begin");
        let _ = writeln!(v, "   if (reset) begin");
        let _ = writeln!(v, "      wp <= 0; rp <= 0; cnt <= 0;");
        let _ = writeln!(v, "   end else begin");
        let _ = writeln!(v, "      if (push) begin");
        for e in 0..n {
            let _ = writeln!(v, "         if (wp == {pw}'d{e}) begin");
            for f in 0..RAY_FIELDS {
                let _ = writeln!(v, "            e{e}_{f} <= d_{f};");
            }
            let _ = writeln!(v, "         end");
        }
        let _ = writeln!(
            v,
            "         wp <= (wp == {pw}'d{}) ? {pw}'d0 : wp + {pw}'d1;",
            n - 1
        );
        let _ = writeln!(v, "      end");
        let _ = writeln!(
            v,
            "      if (pop) rp <= (rp == {pw}'d{}) ? {pw}'d0 : rp + {pw}'d1;",
            n - 1
        );
        let _ = writeln!(v, "      if (push & ~pop) cnt <= cnt + {cw}'d1;");
        let _ = writeln!(v, "      else if (~push & pop) cnt <= cnt - {cw}'d1;");
        let _ = writeln!(v, "   end");
        let _ = writeln!(v, "end");
        let _ = writeln!(v, "always @(*) begin");
        for f in 0..RAY_FIELDS {
            let _ = writeln!(v, "   q_{f} = e0_{f};");
        }
        for e in 1..n {
            let _ = writeln!(v, "   if (rp == {pw}'d{e}) begin");
            for f in 0..RAY_FIELDS {
                let _ = writeln!(v, "      q_{f} = e{e}_{f};");
            }
            let _ = writeln!(v, "   end");
        }
        let _ = writeln!(v, "   full = cnt == {cw}'d{n};");
        let _ = writeln!(v, "   empty = cnt == {cw}'d0;");
        let _ = writeln!(v, "end");
        Verilog::Custom(v)
    }
}
