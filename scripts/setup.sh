#!/usr/bin/env bash
# Installs what texpix needs beyond the Rust toolchain: Icarus Verilog, Verilator, Yosys and make from
# Debian's packages (non-interactive), then builds the workspace in release mode, then builds and
# installs the Python package `texpix` (tb/python, pyo3 + maturin) with pytest and cocotb.
# TEXPIX_PROFILE=ci builds both with the test suite's cargo profile instead (no fat LTO: several
# minutes quicker, and `cargo test --profile ci` then reuses the build); .ci/run does so.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for tool in iverilog verilator yosys make; do
  command -v "$tool" >/dev/null 2>&1 || need+=("$tool")
done
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${need[@]}"
fi
iverilog -V 2>&1 | awk "NR == 1"
verilator --version
yosys -V
profile="${TEXPIX_PROFILE:-release}"
# The Python extension (workspace member texpix-py) is maturin's to build, below.
cargo build --profile "$profile" --workspace --exclude texpix-py

# Python test benches: maturin builds the extension (sharing target/), pip installs the wheel;
# pytest runs the tests, cocotb runs the portable ones on Icarus.
python3 -m pip install --quiet --disable-pip-version-check "maturin>=1.5,<2" pytest pytest-xdist "cocotb==2.1.0"
# FuseSoC (with Edalize) runs texpix.core's lint and simulation targets (scripts/fusesoc).
python3 -m pip install --quiet --disable-pip-version-check "fusesoc>=2.4,<3"
rm -f target/wheels/texpix-*.whl
(cd tb/python && maturin build --profile "$profile" --interpreter python3 -o ../../target/wheels)
python3 -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps target/wheels/texpix-*.whl
python3 -c "import texpix; print('texpix Python package:', ', '.join(n for n, _ in texpix.units()))"
