#!/usr/bin/env bash
# One job of scripts/synth: "name|verilog|top|family|extra synth flags".
# Writes $build/<name>.<family>.{log,stat.json,time} and, when the design fits the iCE40UP5K-SG48
# and has the board's pins, the place-and-route report, log and bitstream.
set -uo pipefail
IFS='|' read -r name verilog top fam flags <<<"$1"
base="$build/$name.$fam"
t0=$(date +%s)
case "$fam" in
  ice40) synth="synth_ice40 -dsp $flags -top $top -json $base.json" ;;
  ecp5) synth="synth_ecp5 $flags -top $top" ;;
  # Word-level cost before technology mapping and resource sharing: multipliers, adders, flip-flop
  # bits (fast; the SAT-based `share` pass needs over 20 GB on the BVH unit).
  coarse) synth="synth -flatten -noshare $flags -top $top -run :fine" ;;
  *) echo "synth_one: unknown family $fam" >&2; exit 1 ;;
esac
statw=""
[ "$fam" = coarse ] && statw="-width"
timeout "$limit" yosys -q -l "$base.log" -p "read_verilog $verilog; $synth; tee -q -o $base.stat.json stat -json $statw" >/dev/null 2>&1
rc=$?
if [ $rc -ne 0 ]; then
  rm -f "$base.stat.json"
  if [ $rc -eq 124 ]; then
    echo "synthesis stopped after the ${limit} s limit" >"$base.status"
    echo "   $name ($fam): yosys stopped after ${limit} s" >&2
    exit 0
  fi
  if [ $rc -eq 137 ]; then
    echo "failed: yosys killed (out of memory; see the kernel log)" >"$base.status"
  else
    echo "failed: yosys" >"$base.status"
  fi
  echo "   $name ($fam): yosys FAILED, see $base.log" >&2
  exit 0
fi
t1=$(date +%s)
echo "synth_s $((t1 - t0))" >"$base.time"
echo "   $name ($fam): synthesised in $((t1 - t0)) s"
[ "$fam" = ice40 ] || exit 0

# Fits the iCE40UP5K-SG48? 5280 logic cells (a LUT4 and a flip-flop each, carry alongside),
# 8 SB_MAC16, 30 SB_RAM40_4K, 4 SB_SPRAM256KA, 39 user I/O (the board tops use 5).
fit=$(python3 - "$base.stat.json" "$base.json" "$top" <<'EOF'
import json, sys
stat = json.load(open(sys.argv[1]))
top = sys.argv[3]
d = stat.get("design") or stat["modules"]["\\" + top]
cells = d["num_cells_by_type"]
ports = json.load(open(sys.argv[2]))["modules"][top]["ports"]
io = sum(len(p["bits"]) for p in ports.values())
lut = cells.get("SB_LUT4", 0)
ff = sum(n for c, n in cells.items() if c.startswith("SB_DFF"))
why = []
if max(lut, ff) > 5280: why.append(f"{lut} LUT4 / {ff} FF > 5280 cells")
if cells.get("SB_MAC16", 0) > 8: why.append(f"{cells['SB_MAC16']} SB_MAC16 > 8")
if cells.get("SB_RAM40_4K", 0) > 30: why.append(f"{cells['SB_RAM40_4K']} SB_RAM40_4K > 30")
if io > 39: why.append(f"{io} I/O pins > 39")
print("; ".join(why) if why else "fits")
EOF
)
if [ "$fit" != fits ]; then
  echo "no-fit: $fit" >"$base.status"
  echo "   $name: does not fit the iCE40UP5K ($fit)"
  exit 0
fi
case "$top" in
  texpix_coverage_board|texpix_fp_board|texpix_fp_cmp_board) ;;
  *) echo "no-pnr: no board pins (a bare block; place-and-route needs a board top)" >"$base.status"; exit 0 ;;
esac
# --timing-allow-fail: the report script compares the achieved fmax with the constraint.
if timeout "$limit" nextpnr-ice40 --up5k --package sg48 --pcf constraints/icebreaker.pcf --freq "$freq" \
    --json "$base.json" --asc "$base.asc" --report "$base.pnr.json" --seed 1 --timing-allow-fail \
    -l "$base.pnr.log" -q >/dev/null 2>&1; then
  if icepack "$base.asc" "$base.bin"; then echo "routed" >"$base.status"; else echo "failed: icepack" >"$base.status"; fi
else
  echo "failed: nextpnr (see $base.pnr.log)" >"$base.status"
fi
t2=$(date +%s)
echo "pnr_s $((t2 - t1))" >>"$base.time"
echo "   $name: place-and-route $(cat "$base.status") in $((t2 - t1)) s"
