//! The LOD unit as a [`Unit`](crate::unit::Unit).

use super::{LodResult, LodTxn};
use texpix_rtl::lod::LodUnit;

/// The derivative/LOD calculator (docs/units/lod.md).
pub struct Lod;

crate::unit_impl!(Lod {
    block: LodUnit,
    txn: LodTxn,
    res: LodResult,
    name: "lod",
    top: "texpix_lod",
    about: "derivative/LOD calculator (gradients, bias, clamps, anisotropy, mip selection)",
    test_vectors: 500,
    ports_doc: "rtl/src/lod/unit.rs",
    parameters: |_depth| "latency 5, II = 1".to_string(),
});
