//! texpix RTL: synthesisable-style rust-hdl blocks of the texture and pixel units.

pub mod board;
pub mod bvh;
pub mod common;
pub mod coverage;
pub mod export;
pub mod lod;
pub mod tex;
pub mod texaddr;
