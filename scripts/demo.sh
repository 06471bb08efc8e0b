#!/usr/bin/env bash
# The main demo: simulate the coverage unit on the example vectors (RTL checked against the golden
# model), write a VCD waveform, and export the unit's Verilog. Outputs land in out/.
set -euo pipefail
cd "$(dirname "$0")/.."
texpix=target/release/texpix
mkdir -p out
$texpix run coverage --input examples/coverage.jsonl --output out/coverage.results.jsonl \
  --vcd out/coverage.vcd --stall 0.2 --seed 1
$texpix export coverage --out out/verilog
echo "results: out/coverage.results.jsonl  waveform: out/coverage.vcd (+ .gtkw)  verilog: out/verilog/texpix_coverage.v"
