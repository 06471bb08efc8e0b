#!/usr/bin/env bash
# The Python test benches: the coverage and LOD test files unchanged under real cocotb with Icarus
# on the exported Verilog, every Python test on the netlist engine (the default, native code),
# texpix.core's four FuseSoC Icarus self-checking simulations (its generator, filesets and
# Edalize flow; about 30 s), and every Python test on the rust-hdl model through pytest (last, so
# its summary closes the run). The FuseSoC lint target is not run here: it is the same Verilator
# command, flags and waiver file as tb/tests/verilog.rs's lint of every unit, and the texture
# unit's lint alone takes minutes; `bash scripts/fusesoc` (no arguments) runs it with the rest.
# Needs scripts/setup.sh first; scripts/test.sh runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
# The FuseSoC generator exports with the CLI the Rust tests built (profile ci), else setup.sh's.
if [ -z "${TEXPIX:-}" ]; then
    TEXPIX="$PWD/target/ci/texpix"
    [ -x "$TEXPIX" ] || TEXPIX="$PWD/target/release/texpix"
fi
export TEXPIX
python3 tb/python/cocotb/run_icarus.py coverage tb/python/tests/test_coverage.py
python3 tb/python/cocotb/run_icarus.py lod tb/python/tests/test_lod.py
TEXPIX_ENGINE=netlist python3 -m pytest tb/python/tests -q
bash scripts/fusesoc sim sim_lod sim_texaddr sim_bvh
TEXPIX_ENGINE=rtl python3 -m pytest tb/python/tests -ra
