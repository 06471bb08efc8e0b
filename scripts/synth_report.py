#!/usr/bin/env python3
"""Collects scripts/synth results into fpga_results.md and fpga_results.csv.

usage: synth_report.py BUILD_DIR OUT_DIR REVISION CLOCK_MHZ WALL_SECONDS
"""
import csv
import glob
import json
import os
import re
import subprocess
import sys
import time


def cells_of(stat_path, top):
    stat = json.load(open(stat_path))
    d = stat.get("design") or stat["modules"]["\\" + top]
    return d["num_cells_by_type"]


def count(cells, prefix):
    return sum(n for c, n in cells.items() if c.startswith(prefix))


def main():
    build, out, rev, freq, wall = sys.argv[1:6]
    # The units come from the registry, as in scripts/synth.
    units = subprocess.run(["target/release/texpix", "list", "--names"], check=True,
                           capture_output=True, text=True).stdout.split()
    freq = float(freq)
    jobs = [l.strip().split("|") for l in open(os.path.join(build, "jobs.txt")) if l.strip()]
    rows = []
    for name, verilog, top, fam, flags in jobs:
        base = os.path.join(build, f"{name}.{fam}")
        row = {"design": name, "family": fam, "top": top, "synth_flags": flags}
        times = {}
        if os.path.exists(base + ".time"):
            for l in open(base + ".time"):
                k, v = l.split()
                times[k] = int(v)
        row["synth_s"] = times.get("synth_s", "")
        row["pnr_s"] = times.get("pnr_s", "")
        status = open(base + ".status").read().strip() if os.path.exists(base + ".status") else ""
        if not os.path.exists(base + ".stat.json"):
            row["status"] = status or "failed: no statistics"
            rows.append(row)
            continue
        c = cells_of(base + ".stat.json", top)
        if fam == "coarse":
            def width(t):
                m = re.search(r"_(\d+)$", t)
                return int(m.group(1)) if m else 1
            ff_types = ("$dff", "$sdff", "$adff", "$dffe", "$sdffe", "$sdffce", "$aldff", "$adffe")
            row.update(
                ffs=sum(width(t) * n for t, n in c.items() if t.startswith(ff_types)),
                carry=sum(n for t, n in c.items() if t.startswith(("$alu", "$add", "$sub", "$neg"))),
                dsp=sum(n for t, n in c.items() if t.startswith(("$mul", "$macc"))),
                mults=" ".join((f"{t}×{n}" if width(t) == 1 else f"{t.split('_')[0]} {width(t)}b×{n}")
                               for t, n in sorted(c.items()) if t.startswith(("$mul", "$macc"))),
            )
            row["status"] = status or "word-level (before mapping)"
            rows.append(row)
            continue
        if fam == "ice40":
            row.update(
                luts=c.get("SB_LUT4", 0),
                ffs=count(c, "SB_DFF"),
                carry=c.get("SB_CARRY", 0),
                dsp=c.get("SB_MAC16", 0),
                bram=c.get("SB_RAM40_4K", 0) + c.get("SB_SPRAM256KA", 0),
            )
        else:
            row.update(
                luts=c.get("LUT4", 0),
                ffs=count(c, "TRELLIS_FF"),
                carry=c.get("CCU2C", 0),
                dsp=c.get("MULT18X18D", 0) + c.get("ALU54B", 0),
                bram=c.get("DP16KD", 0),
                lutram=c.get("TRELLIS_DPR16X4", 0),
            )
        row["status"] = status or ("synthesis only (no nextpnr-ecp5)" if fam == "ecp5" else "")
        rep = base + ".pnr.json"
        if os.path.exists(rep) and status == "routed":
            r = json.load(open(rep))
            # The board tops have one clock domain (nextpnr also times its constant-driver net
            # `$PACKER_GND_NET`, which is not a clock of the design).
            fm = {k: v for k, v in r.get("fmax", {}).items() if not k.startswith("$PACKER")}
            ach = min((v["achieved"] for v in fm.values()), default=None)
            row["fmax_mhz"] = round(ach, 2) if ach is not None else ""
            lc = r.get("utilization", {}).get("ICESTORM_LC", {})
            row["pnr_lcs"] = f'{lc.get("used", "")}/{lc.get("available", "")}'
            met = ach is not None and ach >= freq
            row["timing"] = f"met at {freq:g} MHz" if met else f"MISSED {freq:g} MHz"
            row["bitstream"] = os.path.basename(base + ".bin") if os.path.exists(base + ".bin") else ""
        rows.append(row)

    cols = ["design", "family", "synth_flags", "luts", "ffs", "carry", "dsp", "bram", "lutram",
            "pnr_lcs", "fmax_mhz", "timing", "bitstream", "status", "synth_s", "pnr_s", "run",
            "mults"]
    run = f"{rev} {time.strftime('%Y-%m-%d', time.gmtime())} ({int(wall)} s run)"
    for r in rows:
        r["run"] = run
    # Rows of designs this run did not synthesise stay from earlier runs (each names its run);
    # rows of designs that no longer exist are dropped.
    os.makedirs(out, exist_ok=True)
    done = {(r["design"], r["family"], r["synth_flags"]) for r in rows}
    old_csv = os.path.join(out, "fpga_results.csv")
    if os.path.exists(old_csv):
        known = re.compile(r"^(%s|coverage-board|fp-board-s\d+(-retime)?|"
                           r"fp-cmp-board-s\d+|fpmul-s\d+|fpadd-s\d+)$" % "|".join(map(re.escape, units)))
        for r in csv.DictReader(open(old_csv)):
            key = (r["design"], r["family"], r["synth_flags"])
            if key not in done and known.match(r["design"]):
                rows.append(r)
    order = units + ["coverage-board", "fp-cmp-board", "fp-board", "fpmul", "fpadd"]

    def rank(r):
        base = re.sub(r"-s\d+(-retime)?$", "", r["design"])
        return (order.index(base) if base in order else 99, r["design"], r["family"])

    rows.sort(key=rank)
    with open(os.path.join(out, "fpga_results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, "") for k in cols})

    def fmt(r, k):
        v = r.get(k, "")
        return "–" if v == "" else str(v)

    md = []
    md.append("# FPGA results (scripts/synth)\n")
    md.append(f"Yosys 0.23 synthesis (`synth_ice40 -dsp`: iCE40UP5K cells; `synth_ecp5`), "
              f"nextpnr-ice40 0.4 place-and-route for the iCEBreaker (iCE40UP5K-SG48) at "
              f"{freq:g} MHz with constraints/icebreaker.pcf, icepack bitstreams.\n")
    runs = sorted({r.get("run", "") for r in rows if r.get("run")})
    md.append("Runs (git revision, date, wall time of the scripts/synth invocation; each row's run is "
              "in the CSV): " + "; ".join(runs) + ".\n")
    md.append("LUTs: SB_LUT4 / LUT4; FFs: SB_DFF* / TRELLIS_FF; carry: SB_CARRY / CCU2C; DSP: "
              "SB_MAC16 (16×16) / MULT18X18D; BRAM: SB_RAM40_4K + SB_SPRAM256KA / DP16KD. "
              "The iCE40UP5K has 5280 logic cells (one LUT4 + one FF each), 8 SB_MAC16, "
              "30 SB_RAM40_4K and 39 user I/O on the SG48 package.\n")
    md.append("## Resources and timing\n")
    md.append("| design | family | LUTs | FFs | carry | DSP | BRAM | P&R cells (UP5K) | fmax MHz | "
              "timing | status |")
    md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for r in rows:
        if r["synth_flags"] or r["family"] == "coarse":
            continue
        md.append("| " + " | ".join([r["design"], r["family"]] + [fmt(r, k) for k in
                  ["luts", "ffs", "carry", "dsp", "bram", "pnr_lcs", "fmax_mhz", "timing", "status"]])
                  + " |")
    coarse = [r for r in rows if r["family"] == "coarse"]
    if coarse:
        md.append("\n## Word-level cost (Yosys `synth -flatten -noshare -run :fine`, before mapping)\n")
        md.append("Quick where full mapping is slow: multiplier cells (`$mul`/`$macc`; after `alumacc` "
                  "one `$macc` can hold several products and their sum, e.g. the coverage unit's eight "
                  "27×27 products are four `$macc`), adders/subtractors/ALUs (`$alu`/`$add`/`$sub`/`$neg` "
                  "cells, any width) and flip-flop bits. No resource sharing.\n")
        md.append("| design | multipliers | adders/ALUs | FF bits | status |")
        md.append("|---|---:|---:|---:|---|")
        for r in coarse:
            mult = fmt(r, "dsp") + (f" ({r['mults']})" if r.get("mults") else "")
            md.append(f"| {r['design']} | {mult} | {fmt(r, 'carry')} | {fmt(r, 'ffs')} | {fmt(r, 'status')} |")
    sweep = {}
    for r in rows:
        m = re.match(r"fp-board-s(\d+)(-retime)?$", r["design"])
        if m and r["family"] == "ice40":
            sweep.setdefault(int(m.group(1)), {})["retime" if m.group(2) else "plain"] = r
    if sweep:
        md.append("\n## fmax against fp pipeline depth (fp board, iCE40UP5K)\n")
        md.append("The fp board (FpAddP + FpMulP behind the UART) with S register stages after each fp "
                  "core. `plain`: the registers stay where the RTL puts them (after the core); "
                  "`retime`: `synth_ice40 -retime` lets ABC move them into the logic.\n")
        md.append("| stages S | latency (clocks) | plain: cells | plain: fmax MHz | retime: cells | "
                  "retime: fmax MHz |")
        md.append("|---:|---:|---:|---:|---:|---:|")
        for s in sorted(sweep):
            p, t = sweep[s].get("plain", {}), sweep[s].get("retime", {})
            md.append(f"| {s} | {s} | {fmt(p, 'pnr_lcs')} | {fmt(p, 'fmax_mhz')} | "
                      f"{fmt(t, 'pnr_lcs')} | {fmt(t, 'fmax_mhz')} |")
    md.append("\nPer-job wall times (synthesis, place-and-route) are in fpga_results.csv.")
    open(os.path.join(out, "fpga_results.md"), "w").write("\n".join(md) + "\n")


if __name__ == "__main__":
    main()
