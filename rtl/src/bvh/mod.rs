//! BVH box/triangle intersector (docs/units/bvh.md): [`BvhUnit`] and its compute blocks. The
//! algorithm is stated bit for bit in docs/units/bvh.md and in the golden model's documentation
//! (`texpix_tb::bvh`).

pub mod queue;
pub mod slab;
pub mod sort;
pub mod tri;
pub mod unit;
pub mod vec3;
pub mod watertight;

pub use queue::RayQueue;
pub use slab::{BoxSlab, SlabPlan};
pub use sort::ChildSort;
pub use tri::{TriPlan, TriTest};
pub use unit::BvhUnit;
pub use vec3::{Cross3, Dot3};
pub use watertight::TriWatertight;
