//! texpix test benches: golden models, ideal references, stimulus, RTL drivers, co-simulation, and
//! the `texpix` program.

pub mod board;
pub mod bvh;
pub mod bvh_dut;
pub mod bvh_stim;
pub mod cli;
pub mod cosim;
pub mod coverage;
pub mod coverage_dut;
pub mod coverage_stim;
pub mod fpmodel;
pub mod lod;
pub mod lod_dut;
pub mod lod_stim;
pub mod ports;
pub mod scoreboard;
pub mod texaddr;
pub mod texaddr_dut;
pub mod texaddr_stim;
pub mod unit;
pub mod vectors;
