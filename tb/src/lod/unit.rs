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
    parameters: |depth| format!("depth {depth}, latency {}, II = 1", LodUnit::latency(depth)),
    depths: &LodUnit::DEPTHS,
    block: LodUnit::new,
});
