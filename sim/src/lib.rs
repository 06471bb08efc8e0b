//! texpix-sim: a cycle-exact, unit-agnostic simulation engine for rust-hdl blocks.
//!
//! rust-hdl's own `Simulation` hands the circuit between threads at every wait (~20k cycles/s); this
//! engine drives any [`Block`](rust_hdl::prelude::Block) directly: `connect_all()` once, then per
//! half cycle `update_all()` until nothing changes. See [`Sim`] for the timeline, [`stream`] for
//! valid/ready drivers with random back-pressure and [`vcd_writer`] for waveforms.

pub mod access;
pub mod engine;
pub mod memory;
pub mod netlist;
pub mod rng;
pub mod stream;
pub mod vcd_writer;

pub use engine::{settle_block, Sim, SimError};
pub use memory::LatencyMemory;
pub use netlist::NetSim;
pub use rng::SplitMix64;
pub use stream::{
    drain_cycles, run_stream, run_stream_with, IdleWatch, Phase, StreamBinding, StreamConfig,
    StreamStats, Transfer, DRAIN_MARGIN,
};
pub use vcd_writer::VcdWriter;
