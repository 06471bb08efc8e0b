//! Sample-pattern coverage unit (docs/units/coverage.md).

pub mod lane;
pub mod pattern;
pub mod query;
pub mod samples;
pub mod serial;
pub mod unit;

/// PIXLD op slots per transaction. A vector with more ops is issued as several transactions.
pub const OPS: usize = 4;

pub use lane::CoverageLane;
pub use query::{LaneCentroid, OneHotPos, OpCovered, OpEarly, OpEncode, OpLate, OpQuery, OpSelect};
pub use samples::SampleTests;
pub use serial::{CoverageSerial, SERIAL_CYCLES};
pub use unit::CoverageUnit;

// rust-hdl evaluates array indices of the generated Verilog with literal arithmetic only, so the
// output arrays are indexed `4·lane + slot` with a literal 4.
const _: () = assert!(OPS == 4);
