//! The texture address pipeline as a [`Unit`](crate::unit::Unit), with its descriptor RAM and
//! residency map answered by the driver ([`super::dut`]).

use super::{TexAddrResult, TexAddrTxn};
use texpix_rtl::texaddr::TexAddrUnit;

/// The texture address pipeline (docs/units/texaddr.md).
pub struct TexAddr;

crate::unit_impl!(TexAddr {
    block: TexAddrUnit,
    txn: TexAddrTxn,
    res: TexAddrResult,
    name: "texaddr",
    top: "texpix_texaddr",
    about:
        "texture address pipeline (TXD decode, descriptors, wraps, footprints, addresses, sparse)",
    test_vectors: 500,
    ports_doc: "rtl/src/texaddr/unit.rs",
    parameters: |depth| format!(
        "depth {depth}, latency {}, II = 1, 4 lanes x 2 levels x 4 taps",
        TexAddrUnit::latency(depth)
    ),
    depths: &TexAddrUnit::DEPTHS,
    block: TexAddrUnit::new,
});
