#!/usr/bin/env bash
# The README's test command: the Rust tests (profile `ci`: release optimisation, quicker to build;
# the Python extension texpix-py has no Rust tests, and setup.sh built it with maturin),
# then the Python test benches — the coverage and LOD test files unchanged under real cocotb with
# Icarus on the exported Verilog, every Python test on the netlist engine (the default, native code),
# texpix.core's FuseSoC targets (Verilator lint of every unit, the four Icarus self-checking
# simulations; about 30 s), and every Python test on the rust-hdl model through pytest (last, so its
# summary closes the run). Needs scripts/setup.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --profile ci --workspace --exclude texpix-py
# The FuseSoC generator exports with the CLI that cargo test just built (not a second, release build).
export TEXPIX="${TEXPIX:-$PWD/target/ci/texpix}"
python3 tb/python/cocotb/run_icarus.py coverage tb/python/tests/test_coverage.py
python3 tb/python/cocotb/run_icarus.py lod tb/python/tests/test_lod.py
TEXPIX_ENGINE=netlist python3 -m pytest tb/python/tests -q
bash scripts/fusesoc
TEXPIX_ENGINE=rtl python3 -m pytest tb/python/tests -ra
