#!/usr/bin/env bash
# Simulation speed of one unit on one stimulus: the Rust engine (texpix bench), and the exported
# Verilog in Icarus Verilog and Verilator replaying the same port trace (texpix cosim, which also
# checks every output on every cycle). Usage: scripts/bench.sh [unit] [count]
set -euo pipefail
cd "$(dirname "$0")/.."
unit=${1:-coverage}
count=${2:-20000}
cargo build --release --bin texpix >/dev/null
texpix=target/release/texpix
$texpix bench "$unit" --count "$count"
$texpix cosim "$unit" --sim icarus --count "$count" --dir out/bench_icarus
$texpix cosim "$unit" --sim verilator --count "$count" --dir out/bench_verilator
