//! Shared IEEE-754 binary32 datapath blocks.
//!
//! Every block here is a combinational core (latency 0) written in `#[hdl_gen]`, plus leaf blocks
//! with a hand-written simulation and custom Verilog ([`MulU`], [`Retime`]). [`pipe`] wraps each
//! core with a configurable number of register stages; the adder and the multiplier are built of
//! six and seven pieces, and their wrappers put the registers between the pieces
//! ([`pipe::FP_CUTS`], [`pipe::MUL_CUTS`]: on ECP5-85F, speed 6, routed alone, 29 → 112 MHz for
//! the adder and 26 → 102 MHz for the multiplier from one to six stages, docs/fpga.md); the log2
//! likewise has six pieces ([`pipe::LOG2_CUTS`]). At zero stages these three wrappers are their combinational cores, and
//! the combinational cores settle inside one rust-hdl simulation pass
//! ([`crate::common::settle`]). The exception is the divider [`FpDiv`], a fixed 14-stage
//! pipeline with valid bits ([`div`]).
//!
//! # Common policies
//! - Rounding: IEEE-754 round to nearest, ties to even, everywhere a result is rounded.
//! - Denormals: fully supported on inputs and outputs (no flush to zero), in every block.
//! - NaN: every NaN result is the canonical quiet NaN [`CANONICAL_NAN`] (`0x7FC0_0000`); input
//!   payloads and signs are not propagated, and signalling NaNs are treated like quiet NaNs (no
//!   exception flags exist). The f16 conversions are the exception: [`F16ToF32`] converts NaNs
//!   exactly (payload kept) and [`F32ToF16`] keeps the sign and the top ten payload bits, with
//!   the quiet bit set.
//! - Widths: datapath pieces are at most 32 bits wide except the 48-bit mantissa product, which
//!   comes out of the [`MulU`] leaf (rust-hdl simulates wider values slowly).
//!
//! # Cost
//! Yosys 0.23 `synth -flatten` (generic gates; the multipliers are built from gates there, where an
//! FPGA flow maps them to DSPs) of each wrapper with 2 stages, as exported by `tb/tests/fp_verilog.rs`:
//!
//! | wrapper (2 stages) | cells | flip-flops | multipliers |
//! |---|---|---|---|
//! | `FpAddP`           | 1969 | 103 | —                 |
//! | `FpMulP`           | 5339 | 94  | four partial products (18 × 18, 18 × 6, 6 × 18 on DSPs; 6 × 6 as logic) |
//! | `FpCmpP`           | 653  | 136 | —                 |
//! | `F16ToF32P`        | 261  | 62  | —                 |
//! | `FpToFixedP<16>`   | 699  | 98  | — (cuts before the shifts and before the rounding add) |
//! | `FpLog2P`          | 2644 | 96  | one 16 × 17 (+ 64-entry ROM, a memory since 8284faf: 4270 cells as a chain of compares); a cut after the ROM |
//! | `LzcP<27>`         | 110  | 10  | —                 |
//! | [`FpDiv`] (14 stages, see below) | 10528 | 985 | — |
//!
//! [`FpDiv`] is pipelined by itself (latency [`FP_DIV_LATENCY`], one division per clock, valid bits
//! with a synchronous reset); its row is the same `synth -flatten` of the Verilog exported by
//! `tb/tests/fp_div.rs` (985 flip-flops of the 1 192 declared: Yosys drops constant quotient and
//! class bits).
//!
//! # rust-hdl rules followed here
//! Every `Out` port and every sub-block input is assigned exactly once per `update`, as its final
//! value (locals may be assigned more than once). Sums are assigned to a local of the final width
//! before they are compared or widened; `!x` is only assigned to a local of `x`'s width; loops are
//! half-open constant ranges; signal-dependent selection uses comparisons or `match`.

pub mod add;
pub mod cmp;
pub mod div;
pub mod f16;
pub mod fixed;
pub mod log2;
pub mod lzc;
pub mod mul;
pub mod mulu;
pub mod pack;
pub mod pipe;
pub mod retime;
pub mod round;
pub mod unpack;

pub use add::FpAdd;
pub use cmp::FpCmp;
pub use div::{FpDiv, FP_DIV_LATENCY};
pub use f16::{F16ToF32, F32ToF16};
pub use fixed::FpToFixed;
pub use lzc::{Lzc, LZC_BITS};
pub use mul::FpMul;
pub use mulu::{MulU, MulUReg};
pub use pipe::{F16ToF32P, FpAddP, FpCmpP, FpLog2P, FpMulP, FpToFixedP, LzcP};
pub use retime::{Retime, SkidRetime, SpreadRetime, ValidRetime};
pub use round::RoundF32;
pub use unpack::{FpClassify, FpUnpack};

/// The quiet NaN every NaN-producing block returns.
pub const CANONICAL_NAN: u32 = 0x7FC0_0000;
