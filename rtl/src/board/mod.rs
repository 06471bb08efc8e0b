//! Board-level tops for FPGA bring-up: units behind a UART command/response interface.
//!
//! [`UartTx`]/[`UartRx`] are the serial line, [`UartFramer`] turns it into a command stream and a
//! response stream, [`BoardReset`] makes the reset, and [`CoverageBoard`] / [`FpBoard`] put a unit
//! behind them ([`CoverageBoardUlx3s`]: the coverage board with the ULX3S's LED polarity);
//! [`LodBoardUlx3s`] puts a full-throughput unit, the LOD unit, behind them on the ULX3S. Pin
//! and timing constraints are in `constraints/`; `docs/fpga.md` has the flow.

pub mod coverage_board;
pub mod fp_board;
pub mod framer;
pub mod lod_board;
pub mod reset;
pub mod uart;
pub mod ulx3s;

pub use coverage_board::CoverageBoard;
pub use fp_board::{FpBoard, FpOps};
pub use framer::UartFramer;
pub use lod_board::LodBoardUlx3s;
pub use reset::BoardReset;
pub use uart::{UartRx, UartTx};
pub use ulx3s::CoverageBoardUlx3s;
