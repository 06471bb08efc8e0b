//! The coverage units as [`Unit`](crate::unit::Unit)s: the one-quad-per-clock unit and its
//! time-multiplexed variant, both with this folder's vectors, golden model and driver.

use super::{CoverageResult, CoverageTxn};
use texpix_rtl::coverage::{CoverageSerial, CoverageUnit, OPS, SERIAL_CYCLES};

/// The sample-pattern coverage unit (docs/units/coverage.md).
pub struct Coverage;

crate::unit_impl!(Coverage {
    block: CoverageUnit,
    txn: CoverageTxn,
    res: CoverageResult,
    name: "coverage",
    top: "texpix_coverage",
    about: "sample-pattern coverage unit (MSAA patterns, edge tests, PIXLD queries)",
    test_vectors: 600,
    ports_doc: "rtl/src/coverage/unit.rs",
    parameters: |depth| format!(
        "OPS = {OPS}, depth {depth}, latency {}, II = 1",
        CoverageUnit::latency(depth)
    ),
    depths: &CoverageUnit::DEPTHS,
    block: CoverageUnit::new,
});

/// The time-multiplexed coverage unit ([`CoverageSerial`]), the core of the coverage board: one
/// transaction per [`SERIAL_CYCLES`] clocks, same results as [`Coverage`].
pub struct SerialCoverage;

crate::unit_impl!(SerialCoverage {
    block: CoverageSerial,
    txn: CoverageTxn,
    res: CoverageResult,
    name: "coverage-serial",
    top: "texpix_coverage_serial",
    about: "coverage unit, time-multiplexed (one 27x27 product per clock)",
    test_vectors: 24,
    ports_doc: "rtl/src/coverage/serial.rs",
    parameters: |_depth| format!("OPS = {OPS}, {SERIAL_CYCLES} clocks per transaction"),
});
