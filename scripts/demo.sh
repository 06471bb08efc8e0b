#!/usr/bin/env bash
# The main demo: simulate every registered unit (`texpix list --names`) on its example vectors (RTL
# checked against the golden model, with random back-pressure), write VCD waveforms, and export
# every unit's Verilog. Outputs land in out/.
set -euo pipefail
cd "$(dirname "$0")/.."
texpix=target/release/texpix
mkdir -p out
for unit in $($texpix list --names); do
  examples="examples/$unit.jsonl"
  [ -f "$examples" ] || examples="examples/${unit%%-*}.jsonl" # a variant runs its family's examples
  $texpix run "$unit" --input "$examples" --output "out/$unit.results.jsonl" \
    --vcd "out/$unit.vcd" --stall 0.2 --seed 1
done
$texpix export --all --out out/verilog
echo "results: out/<unit>.results.jsonl  waveforms: out/<unit>.vcd (+ .gtkw)  verilog: out/verilog/texpix_<unit>.v"
