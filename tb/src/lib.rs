//! texpix test benches: per unit (one folder each: golden model, ideal reference, vector I/O,
//! stimulus, RTL driver, `Unit` impl) and the framework they share (the [`unit::Unit`] trait, the
//! [`registry`], co-simulation, ports, scoreboard, vector reading, tool calls). The `texpix`
//! program (`src/main.rs`, `src/cli.rs`) is a thin command line over this library.

pub mod board;
pub mod bvh;
pub mod cosim;
pub mod coverage;
pub mod draw;
pub mod engine_bench;
pub mod fpmodel;
pub mod lod;
pub mod ports;
pub mod registry;
pub mod regress;
pub mod scoreboard;
pub mod tex;
pub mod texaddr;
pub mod tools;
pub mod unit;
pub mod vectors;
pub mod verilator_mem;
