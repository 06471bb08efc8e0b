#!/usr/bin/env bash
# The main demo: simulate the coverage, LOD, texture-address and BVH units on the example vectors (RTL checked against the
# golden model, with random back-pressure), write VCD waveforms, and export every unit's Verilog.
# Outputs land in out/.
set -euo pipefail
cd "$(dirname "$0")/.."
texpix=target/release/texpix
mkdir -p out
for unit in coverage lod texaddr bvh; do
  $texpix run "$unit" --input "examples/$unit.jsonl" --output "out/$unit.results.jsonl" \
    --vcd "out/$unit.vcd" --stall 0.2 --seed 1
done
$texpix export --all --out out/verilog
echo "results: out/<unit>.results.jsonl  waveforms: out/<unit>.vcd (+ .gtkw)  verilog: out/verilog/texpix_<unit>.v"
