//! Host side of the board-level tops (`texpix_rtl::board`): a serial-line model, the command and
//! response frames of the coverage and fp boards, and drivers that run commands through the RTL
//! over the simulated UART.
//!
//! The serial line is modelled at the clock: every cycle the host drives the board's `rx` pin with
//! the level of the bit it is sending and samples the board's `tx` pin with its own UART receiver
//! (independent of the RTL's: it samples each bit at the middle of the host's bit time and checks
//! the stop bit). The host's bit time may differ from the board's to test baud-rate tolerance.

use crate::coverage::dut::{encode, join, transactions, CovIn, CovOut};
use crate::coverage::{CoverageResult, CoverageTxn};
use crate::lod::dut::{operands, unclamped, LodIn};
use crate::lod::{LodLane, LodResult, LodTxn};
use rust_hdl::prelude::*;
use std::collections::VecDeque;
use texpix_rtl::board::coverage_board::{COV_CMD_BYTES, COV_RSP_BYTES};
use texpix_rtl::board::fp_board::{FP_CMD_BYTES, FP_RSP_BYTES};
use texpix_rtl::board::framer::{CMD_SYNC, RSP_SYNC};
use texpix_rtl::board::lod_board::{LOD_CMD_BYTES, LOD_RSP_BYTES};
use texpix_rtl::board::reset::POR_CYCLES;
use texpix_rtl::board::{CoverageBoard, CoverageBoardUlx3s, FpBoard, FpOps, LodBoardUlx3s};
use texpix_rtl::coverage::OPS;
use texpix_rtl::lod::LodUnit;
use texpix_sim::Sim;

/// UART bit time (clocks) of the board tops on the iCEBreaker: 12 MHz / 115 200 baud.
pub const ICEBREAKER_DIV: u64 = 104;

/// The host end of the serial line, stepped once per board clock.
#[derive(Clone, Debug)]
pub struct UartHost {
    div: u64,
    line: VecDeque<bool>,
    // Receiver: clocks to the next sample (0 = idle), bit number (0 start, 1..=8 data, 9 stop).
    wait: u64,
    nbit: u32,
    shift: u8,
    /// Bytes received from the board.
    pub received: Vec<u8>,
    /// Receiver errors (bad stop bits), with the cycle.
    pub errors: Vec<String>,
    cycle: u64,
}

impl UartHost {
    /// A host with a bit time of `div` clocks.
    pub fn new(div: u64) -> Self {
        assert!(div >= 2, "bit time {div} too short");
        Self {
            div,
            line: VecDeque::new(),
            wait: 0,
            nbit: 0,
            shift: 0,
            received: Vec::new(),
            errors: Vec::new(),
            cycle: 0,
        }
    }

    /// Queues bytes to send (8N1, LSB first).
    pub fn send(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.send_char(b, true);
        }
    }

    /// Queues one character with the given stop-bit level (`false` makes a framing error).
    pub fn send_char(&mut self, b: u8, stop: bool) {
        let mut levels = vec![false];
        levels.extend((0..8).map(|i| (b >> i) & 1 == 1));
        levels.push(stop);
        if !stop {
            // Return the line to idle for a bit so that the next start bit is an edge.
            levels.push(true);
        }
        for l in levels {
            self.line.extend(std::iter::repeat_n(l, self.div as usize));
        }
    }

    /// Queues `bits` bit times of idle line.
    pub fn idle(&mut self, bits: u64) {
        self.line
            .extend(std::iter::repeat_n(true, (bits * self.div) as usize));
    }

    /// Nothing left to send.
    pub fn sent(&self) -> bool {
        self.line.is_empty()
    }

    /// The level to drive on the board's `rx` this cycle.
    pub fn drive(&mut self) -> bool {
        self.line.pop_front().unwrap_or(true)
    }

    /// Samples the board's `tx` for this cycle.
    pub fn sample(&mut self, tx: bool) {
        self.cycle += 1;
        if self.wait == 0 {
            if !tx {
                self.wait = self.div / 2;
                self.nbit = 0;
            }
            return;
        }
        self.wait -= 1;
        if self.wait > 0 {
            return;
        }
        match self.nbit {
            0 if tx => return, // glitch: back to idle (wait is 0)
            0 => {}
            1..=8 => self.shift = (self.shift >> 1) | (u8::from(tx) << 7),
            _ => {
                if tx {
                    self.received.push(self.shift);
                } else {
                    self.errors
                        .push(format!("cycle {}: stop bit low from the board", self.cycle));
                }
                return; // idle
            }
        }
        self.nbit += 1;
        self.wait = self.div;
    }
}

/// A board top as the host sees it: its pins.
pub trait BoardPins: Block {
    /// Drives the clock.
    fn set_clock(&mut self, high: bool);
    /// Drives the UART input and the (active-low) reset button.
    fn set_inputs(&mut self, rx: bool, btn_n: bool);
    /// The UART output.
    fn tx(&self) -> bool;
    /// The busy LED (active low).
    fn led_n(&self) -> bool;
}

/// [`BoardPins`] for a board top with the common pins: `led_n` (active low) or `led` (active
/// high, the ULX3S tops; `led_n()` is then its inverse).
macro_rules! board_pins {
    ($board:ty, $led:ident => $led_n:expr) => {
        impl BoardPins for $board {
            fn set_clock(&mut self, high: bool) {
                self.clock.next = Clock::from(high);
            }
            fn set_inputs(&mut self, rx: bool, btn_n: bool) {
                self.rx.next = rx;
                self.btn_n.next = btn_n;
            }
            fn tx(&self) -> bool {
                self.tx.val()
            }
            fn led_n(&self) -> bool {
                let $led = self.$led.val();
                $led_n
            }
        }
    };
}

board_pins!(CoverageBoard, led_n => led_n);
board_pins!(CoverageBoardUlx3s, led => !led);
board_pins!(LodBoardUlx3s, led => !led);
board_pins!(FpBoard, led_n => led_n);

/// A board under simulation with the host on its serial line.
pub struct BoardSim<B: BoardPins> {
    /// The simulation (from power-up: the board's own reset runs first).
    pub sim: Sim<B>,
    /// The host.
    pub host: UartHost,
}

impl<B: BoardPins> BoardSim<B> {
    /// Starts `board` from power-up with a host whose bit time is `host_div` clocks; the host keeps
    /// the line idle until the board's reset is over.
    pub fn new(board: B, host_div: u64) -> Self {
        Self::boxed(Box::new(board), host_div)
    }

    /// [`BoardSim::new`] for a board already on the heap.
    pub fn boxed(board: Box<B>, host_div: u64) -> Self {
        let mut sim = Sim::boxed(board, B::set_clock);
        sim.uut.set_inputs(true, true);
        let mut host = UartHost::new(host_div);
        // Keep the line idle until the board's power-on reset is over.
        host.idle((POR_CYCLES + 4).div_ceil(host_div));
        Self { sim, host }
    }

    /// One clock: the host drives `rx`, the board steps, the host samples `tx`.
    pub fn step(&mut self) -> Result<(), String> {
        let rx = self.host.drive();
        self.sim.uut.set_inputs(rx, true);
        self.sim.step().map_err(|e| e.to_string())?;
        self.sim.settle().map_err(|e| e.to_string())?;
        let tx = self.sim.uut.tx();
        self.host.sample(tx);
        Ok(())
    }

    /// Runs until the host has received `n` bytes in total, failing after `max_cycles`.
    pub fn until_received(&mut self, n: usize, max_cycles: u64) -> Result<(), String> {
        for _ in 0..max_cycles {
            if self.host.received.len() >= n {
                return Ok(());
            }
            self.step()?;
        }
        Err(format!(
            "cycle {}: {} of {n} bytes received from the board after {max_cycles} cycles",
            self.sim.cycle(),
            self.host.received.len()
        ))
    }

    /// Sends a command frame (sync byte and `payload`) and returns the response payload of
    /// `rsp_bytes` bytes (after checking its sync byte). Bytes received before are discarded.
    pub fn command(&mut self, payload: &[u8], rsp_bytes: usize) -> Result<Vec<u8>, String> {
        self.host.received.clear();
        self.host.send(&[CMD_SYNC]);
        self.host.send(payload);
        // The command's own bit times, the response's, and slack for the unit.
        let budget = (payload.len() + rsp_bytes + 4) as u64 * 12 * self.host.div + 1000;
        self.until_received(rsp_bytes + 1, budget)?;
        if let Some(e) = self.host.errors.first() {
            return Err(e.clone());
        }
        let r = std::mem::take(&mut self.host.received);
        if r[0] != RSP_SYNC {
            return Err(format!(
                "response starts with {:#04x}, not the sync byte {RSP_SYNC:#04x}",
                r[0]
            ));
        }
        Ok(r[1..].to_vec())
    }
}

fn put(b: &mut [u8], at: usize, v: u64, n: usize) {
    for i in 0..n {
        b[at + i] = (v >> (8 * i)) as u8;
    }
}

fn get(b: &[u8], at: usize, n: usize) -> u64 {
    (0..n).fold(0, |acc, i| acc | (b[at + i] as u64) << (8 * i))
}

/// The coverage board's command payload for one RTL transaction (layout: `texpix_rtl::board::coverage_board`).
pub fn coverage_command(x: &CovIn) -> Vec<u8> {
    let mut b = vec![0u8; COV_CMD_BYTES];
    put(&mut b, 0, x.tag as u64, 2);
    b[2] = (x.log2n & 7) | u8::from(x.prog) << 3 | u8::from(x.ssaa) << 4;
    put(&mut b, 3, x.smask as u64, 2);
    let sid = (0..4).fold(0u64, |acc, l| acc | ((x.sid[l] & 15) as u64) << (4 * l));
    put(&mut b, 5, sid, 2);
    for e in 0..3 {
        put(&mut b, 7 + 4 * e, x.vx[e] as u64, 4);
        put(&mut b, 19 + 4 * e, x.vy[e] as u64, 4);
    }
    put(&mut b, 31, x.quad[0] as u64, 4);
    put(&mut b, 35, x.quad[1] as u64, 4);
    for o in 0..OPS {
        b[39 + 5 * o] =
            (x.op_mode[o] & 15) | u8::from(x.op_pd[o]) << 4 | u8::from(x.op_tgsi[o]) << 5;
        put(&mut b, 40 + 5 * o, x.op_index[o] as u64, 4);
    }
    for (i, p) in x.pos.iter().enumerate().take(64) {
        b[59 + i] = *p;
    }
    b
}

/// Decodes the coverage board's response payload.
pub fn coverage_response(b: &[u8]) -> Result<CovOut, String> {
    if b.len() != COV_RSP_BYTES {
        return Err(format!(
            "coverage response has {} bytes, expected {COV_RSP_BYTES}",
            b.len()
        ));
    }
    let pd = get(b, 74, 2);
    Ok(CovOut {
        tag: get(b, 0, 2) as u16,
        covmask: std::array::from_fn(|l| get(b, 2 + 2 * l, 2) as u16),
        rd: std::array::from_fn(|i| get(b, 10 + 4 * i, 4) as u32),
        pd: std::array::from_fn(|i| (pd >> i) & 1 == 1),
        pd_wr: std::array::from_fn(|o| (b[76] >> o) & 1 == 1),
        err: std::array::from_fn(|o| (b[76] >> (4 + o)) & 1 == 1),
    })
}

/// Runs one coverage vector through the board over the serial line: one command per RTL
/// transaction ([`OPS`] ops each), tags numbered from `first_tag`. Checks every response's tag, and
/// joins the responses with the RTL driver's checks ([`join`]: same covmask, err and Pd-write bits).
pub fn coverage_vector<B: BoardPins>(
    b: &mut BoardSim<B>,
    t: &CoverageTxn,
    first_tag: u16,
) -> Result<CoverageResult, String> {
    let ins = encode(t, first_tag);
    debug_assert_eq!(ins.len(), transactions(t));
    let mut outs = Vec::with_capacity(ins.len());
    for x in &ins {
        let out = coverage_response(&b.command(&coverage_command(x), COV_RSP_BYTES)?)?;
        if out.tag != x.tag {
            return Err(format!(
                "response tag {} to the command with tag {}",
                out.tag, x.tag
            ));
        }
        outs.push(out);
    }
    let refs: Vec<&CovOut> = outs.iter().collect();
    join(t, &ins, &refs).map_err(|(c, e)| format!("command {c} (tag {}): {e}", ins[c].tag))
}

/// The LOD board's command payload for one transaction (layout: `texpix_rtl::board::lod_board`;
/// the fields are the LOD unit's ports, as the RTL driver sets them).
pub fn lod_command(x: &LodIn) -> Vec<u8> {
    let (t, s) = (&x.txn, &x.txn.sampler);
    let mut b = vec![0u8; LOD_CMD_BYTES];
    put(&mut b, 0, x.tag as u64, 2);
    put(&mut b, 2, t.tex.width as u64, 2);
    put(&mut b, 4, t.tex.height as u64, 2);
    b[6] = t.tex.levels as u8 & 31;
    b[7] = (t.tex.base_level as u8 & 15)
        | (s.mip_filter as u8 & 3) << 4
        | u8::from(t.fine) << 6
        | u8::from(t.maxabs) << 7;
    put(&mut b, 8, s.bias as u32 as u64 & 0xFFFF, 2);
    put(&mut b, 10, s.min_lod as u64 & 0xFFF, 2);
    put(&mut b, 12, s.max_lod as u64 & 0xFFF, 2);
    put(&mut b, 14, t.lod_clamp as u64 & 0xFFF, 2);
    put(&mut b, 16, t.min_lod_warning as u64 & 0xFFF, 2);
    b[18] = s.max_aniso as u8 & 31;
    b[19] = t.mode as u8 & 7;
    for (i, op) in operands(t).iter().enumerate() {
        put(&mut b, 20 + 4 * i, *op as u64, 4);
    }
    b
}

/// Decodes the LOD board's response payload: the tag and the four lanes' results, read as the RTL
/// driver reads the unit's ports ([`unclamped`] for the unclamped λ).
pub fn lod_response(b: &[u8]) -> Result<(u16, LodResult), String> {
    if b.len() != LOD_RSP_BYTES {
        return Err(format!(
            "LOD response has {} bytes, expected {LOD_RSP_BYTES}",
            b.len()
        ));
    }
    let lanes = std::array::from_fn(|l| {
        let o = 2 + 14 * l;
        LodLane {
            lambda: get(b, o, 2) as i32,
            unclamped: unclamped(get(b, o + 2, 3) as u32),
            level0: b[o + 5] as u32,
            level1: b[o + 6] as u32,
            frac: b[o + 7] as u32,
            probes: b[o + 8] as u32,
            magnify: b[o + 9] & 1 == 1,
            lod_warning: (b[o + 9] >> 1) & 1 == 1,
            major_y: (b[o + 9] >> 2) & 1 == 1,
            status: get(b, o + 10, 4) as u32,
        }
    });
    Ok((get(b, 0, 2) as u16, lanes))
}

/// Runs LOD vectors through the LOD board over the serial line, one command each, tags numbered
/// from `first_tag`; checks every response's tag and returns the results in order.
pub fn lod_vectors(
    b: &mut BoardSim<LodBoardUlx3s>,
    vectors: &[LodTxn],
    first_tag: u16,
) -> Result<Vec<LodResult>, String> {
    let mut out = Vec::with_capacity(vectors.len());
    for (k, t) in vectors.iter().enumerate() {
        let x = LodIn {
            tag: first_tag.wrapping_add(k as u16),
            txn: t.clone(),
        };
        let (tag, lanes) = lod_response(&b.command(&lod_command(&x), LOD_RSP_BYTES)?)?;
        if tag != x.tag {
            return Err(format!(
                "vector {k}: response tag {tag} to the command with tag {}",
                x.tag
            ));
        }
        out.push(lanes);
    }
    Ok(out)
}

/// The fp board's operations (`texpix_rtl::board::fp_board`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FpOp {
    Mul = 0,
    Add = 1,
    Sub = 2,
    Min = 3,
    Max = 4,
    Compare = 5,
    F16ToF32 = 6,
}

/// Runs `a op b` through the fp board; returns the result bits and the echoed op byte.
pub fn fp_command(b: &mut BoardSim<FpBoard>, op: u8, a: u32, x: u32) -> Result<(u32, u8), String> {
    let mut p = vec![0u8; FP_CMD_BYTES];
    p[0] = op;
    put(&mut p, 1, a as u64, 4);
    put(&mut p, 5, x as u64, 4);
    let r = b.command(&p, FP_RSP_BYTES)?;
    Ok((get(&r, 0, 4) as u32, r[4]))
}

/// Verilog targets for FPGA bring-up beyond the units: the board tops and the pipelined fp blocks
/// (for the fmax-against-depth sweep).
pub const FPGA_TARGETS: [(&str, &str); 7] = [
    (
        "coverage-board",
        "coverage unit behind the UART framing (top texpix_coverage_board)",
    ),
    (
        "coverage-board-ulx3s",
        "the coverage board with an active-high LED, for the ULX3S (top texpix_coverage_board_ulx3s; --div 217 at 25 MHz)",
    ),
    (
        "lod-board-ulx3s",
        "the full LOD unit at --depth (default its deepest) behind the UART framing, for the ULX3S (top texpix_lod_board_ulx3s; --div 217 at 25 MHz)",
    ),
    (
        "fp-board",
        "fp32 add/sub/mul behind the UART framing (top texpix_fp_board)",
    ),
    (
        "fp-cmp-board",
        "fp32 min/max/compare and f16 widening behind the UART framing (top texpix_fp_cmp_board)",
    ),
    (
        "fpmul",
        "pipelined fp32 multiplier FpMulP (top texpix_fpmul)",
    ),
    ("fpadd", "pipelined fp32 adder FpAddP (top texpix_fpadd)"),
];

/// The top-level module name of an FPGA target.
pub fn fpga_top(target: &str) -> Result<String, String> {
    match target {
        "coverage-board"
        | "coverage-board-ulx3s"
        | "lod-board-ulx3s"
        | "fp-board"
        | "fp-cmp-board"
        | "fpmul"
        | "fpadd" => Ok(format!("texpix_{}", target.replace('-', "_"))),
        other => Err(format!(
            "unknown FPGA target `{other}` (expected one of: {})",
            FPGA_TARGETS.map(|t| t.0).join(", ")
        )),
    }
}

/// Exported Verilog of an FPGA target with `stages` fp pipeline stages (fp boards, fpmul, fpadd),
/// a UART bit time of `div` clocks (board tops) and the unit at pipeline `depth` (unit boards; by
/// default the unit's deepest). `header` is prepended as comments.
pub fn export_fpga(
    target: &str,
    stages: usize,
    div: u64,
    depth: Option<usize>,
    header: &str,
) -> Result<String, String> {
    let top = fpga_top(target)?;
    if depth.is_some() && target != "lod-board-ulx3s" {
        return Err(format!(
            "--depth applies to a unit board (lod-board-ulx3s), not to {target}"
        ));
    }
    let depth = depth.unwrap_or(LodUnit::MAX_DEPTH);
    if depth > LodUnit::MAX_DEPTH {
        return Err(format!(
            "--depth {depth} out of range 0..={} (the LOD unit's depths)",
            LodUnit::MAX_DEPTH
        ));
    }
    if !(1..256).contains(&stages) {
        return Err(format!("--stages {stages} out of range 1..=255"));
    }
    if !(2..65536).contains(&div) {
        return Err(format!("--div {div} out of range 2..=65535"));
    }
    let header = format!("{top}: {header}");
    match target {
        "coverage-board" => {
            let mut b = Box::new(CoverageBoard::new(div));
            let h = format!("{header}\nparameters: UART bit time {div} clocks; frames: see rtl/src/board/coverage_board.rs");
            texpix_rtl::export::verilog(&mut *b, &top, &h)
        }
        "coverage-board-ulx3s" => {
            let mut b = Box::new(CoverageBoardUlx3s::new(div));
            let h = format!("{header}\nparameters: UART bit time {div} clocks (ULX3S, 25 MHz: 217); busy LED `led` active high; frames: see rtl/src/board/coverage_board.rs");
            texpix_rtl::export::verilog(&mut *b, &top, &h)
        }
        "lod-board-ulx3s" => {
            let mut b = Box::new(LodBoardUlx3s::new(depth, div));
            let h = format!("{header}\nparameters: LOD unit depth {depth} (latency {}), UART bit time {div} clocks (ULX3S, 25 MHz: 217); busy LED `led` active high; frames: see rtl/src/board/lod_board.rs", LodUnit::latency(depth));
            texpix_rtl::export::verilog(&mut *b, &top, &h)
        }
        "fp-board" | "fp-cmp-board" => {
            let ops = if target == "fp-board" {
                FpOps::Arith
            } else {
                FpOps::Compare
            };
            let mut b = FpBoard::new(ops, stages, div);
            let h = format!("{header}\nparameters: ops {ops:?}, {stages} fp stages, UART bit time {div} clocks; frames: see rtl/src/board/fp_board.rs");
            texpix_rtl::export::verilog(&mut b, &top, &h)
        }
        "fpmul" => {
            let mut b = texpix_rtl::common::fp::FpMulP::new(stages);
            let h = format!("{header}\nparameters: {stages} output register stages (latency {stages}); ports clock, en, a, b -> y");
            texpix_rtl::export::verilog(&mut b, &top, &h)
        }
        _ => {
            let mut b = texpix_rtl::common::fp::FpAddP::new(stages);
            let h = format!("{header}\nparameters: {stages} output register stages (latency {stages}); ports clock, en, a, b, sub -> y");
            texpix_rtl::export::verilog(&mut b, &top, &h)
        }
    }
}
