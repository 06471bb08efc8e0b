#!/usr/bin/env bash
# Installs what texpix needs beyond the Rust toolchain: Icarus Verilog, Verilator and Yosys from
# Debian's packages (non-interactive), then builds the workspace in release mode.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for tool in iverilog verilator yosys; do
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
cargo build --release --workspace
