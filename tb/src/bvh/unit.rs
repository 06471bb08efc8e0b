//! The BVH intersector as a [`Unit`](crate::unit::Unit), run with the default memory model
//! ([`super::dut::run`]).

use super::{BvhResult, BvhTxn};
use texpix_rtl::bvh::BvhUnit;

/// The BVH box/triangle intersector (docs/units/bvh.md).
pub struct Bvh;

crate::unit_impl!(Bvh {
    block: BvhUnit,
    txn: BvhTxn,
    res: BvhResult,
    name: "bvh",
    top: "texpix_bvh",
    about: "BVH box/triangle intersector (IMAGE_BVH_INTERSECT_RAY, BVH64, A16)",
    test_vectors: 300,
    ports_doc: "rtl/src/bvh/unit.rs",
    parameters: |depth| format!(
        "QUEUE = {} rays in flight, depth {depth} (latency 1 + memory latency + {depth}), II = 1",
        texpix_rtl::bvh::unit::QUEUE
    ),
    depths: &texpix_rtl::bvh::BvhUnit::DEPTHS,
    block: texpix_rtl::bvh::BvhUnit::new,
    run_random_timing: super::dut::run_random_memory,
});
