#!/usr/bin/env python3
"""Every failing register-to-register path of a routed design, from nextpnr's SDF.

nextpnr reports one critical path per clock; a large unit fails timing on many unrelated paths,
and fixing them one place-and-route run at a time is slow. This script reads the SDF that
`nextpnr-ecp5 --sdf FILE` writes after routing (cell delays as IOPATH, routed net delays as
INTERCONNECT, setup times as SETUPHOLD) and runs its own static timing analysis over it: the
latest arrival at every timing endpoint (a pin with a setup check) from every clock-to-output
start point, with the slowest (max) corner of each delay, as nextpnr's own report does.

Usage: sdf_slack.py FILE.sdf [--period NS] [--paths N] [--groups N]

Prints the number of endpoints and of failing ones, the worst arrival (and the fmax it implies),
the failing endpoints grouped by the register (or block RAM, DSP) they start from and end at
with the instance names' flip-flop suffixes removed (`dut.lane_3.scale_3.cls1_q`), worst group
first, and the full path of the worst endpoint of the first N groups (of the worst endpoint
when none fails). Exit status 0; a file that
is not an SDF of this shape is an error naming the line.
"""

import argparse
import re
import sys
from collections import defaultdict

CLOCK_PINS = re.compile(r"^(CLK\w*|CLKA|CLKB)$")
TRIPLE = re.compile(r"\((-?\d+):(-?\d+):(-?\d+)\)")
FF_SUFFIX = re.compile(r"(_TRELLIS_FF_Q(_\d+)?|_TRELLIS_FF|\$\w+)$")


def unescape(name):
    return name.replace("\\", "")


def parse(path):
    """(edges, starts, checks): edges[u] = [(v, ps)], starts[pin] = clock-to-output ps,
    checks[pin] = setup ps."""
    edges = defaultdict(list)
    starts = {}
    checks = {}
    inst = None
    with open(path) as f:
        first = f.readline()
        if "DELAYFILE" not in first:
            sys.exit(f"{path}:1: not an SDF file (no DELAYFILE)")
        for n, line in enumerate(f, start=2):
            s = line.strip()
            if s.startswith("(INSTANCE"):
                inst = unescape(s[len("(INSTANCE") : -1].strip())
            elif s.startswith("(INTERCONNECT"):
                parts = s.split()
                t = TRIPLE.findall(s)
                if len(parts) < 4 or not t:
                    sys.exit(f"{path}:{n}: INTERCONNECT without two pins and a delay")
                edges[unescape(parts[1])].append((unescape(parts[2]), int(t[0][2])))
            elif s.startswith("(IOPATH"):
                parts = s.split()
                t = TRIPLE.findall(s)
                if len(parts) < 4 or not t or inst is None:
                    sys.exit(f"{path}:{n}: IOPATH without pins, a delay or an instance")
                a, b, d = parts[1], parts[2], int(t[0][2])
                if CLOCK_PINS.match(a):
                    out = f"{inst}/{b}"
                    starts[out] = max(starts.get(out, 0), d)
                else:
                    edges[f"{inst}/{a}"].append((f"{inst}/{b}", d))
            elif s.startswith("(SETUPHOLD"):
                m = re.match(r"\(SETUPHOLD \((?:posedge|negedge) (\S+)\) \((?:posedge|negedge) \S+\)", s)
                t = TRIPLE.findall(s)
                if not m or not t or inst is None:
                    sys.exit(f"{path}:{n}: SETUPHOLD not of the form (edge PIN) (edge CLK) (s) (h)")
                pin = f"{inst}/{m.group(1)}"
                checks[pin] = max(checks.get(pin, 0), int(t[0][2]))
    return edges, starts, checks


def arrivals(edges, starts):
    """Latest arrival (ps) and predecessor of every pin reachable from a start point."""
    indeg = defaultdict(int)
    for u, vs in edges.items():
        for v, _ in vs:
            indeg[v] += 1
    arr = dict(starts)
    pred = {}
    stack = [u for u in set(edges) | set(starts) if indeg[u] == 0]
    seen = 0
    while stack:
        u = stack.pop()
        seen += 1
        au = arr.get(u)
        for v, d in edges.get(u, ()):
            if au is not None and (v not in arr or au + d > arr[v]):
                arr[v] = au + d
                pred[v] = (u, d)
            indeg[v] -= 1
            if indeg[v] == 0:
                stack.append(v)
    return arr, pred


def group_name(pin):
    inst = pin.rpartition("/")[0]
    return FF_SUFFIX.sub("", inst)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sdf")
    ap.add_argument("--period", type=float, default=10.0, help="clock period in ns (10)")
    ap.add_argument("--paths", type=int, default=5, help="groups whose worst path is printed")
    ap.add_argument("--groups", type=int, default=40, help="groups listed")
    args = ap.parse_args()
    edges, starts, checks = parse(args.sdf)
    arr, pred = arrivals(edges, starts)
    period = round(args.period * 1000)
    timed = [(arr[p] + s, p) for p, s in checks.items() if p in arr]
    timed.sort(reverse=True)
    failing = [(t, p) for t, p in timed if t > period]
    print(f"{args.sdf}: {len(starts)} start points, {len(timed)} timed endpoints, "
          f"{len(failing)} over {args.period} ns")
    if not timed:
        return
    worst = timed[0][0]
    print(f"worst arrival {worst / 1000:.2f} ns ({1e6 / worst:.1f} MHz)")

    def origin(p):
        steps = []
        while p in pred:
            u, d = pred[p]
            steps.append((p, d))
            p = u
        steps.append((p, arr[p]))
        return p, steps[::-1]

    groups = defaultdict(list)
    for t, p in failing:
        start, _ = origin(p)
        groups[(group_name(start), group_name(p))].append((t, p))
    order = sorted(groups.items(), key=lambda kv: -kv[1][0][0])
    print(f"{len(groups)} failing (start, end) groups; worst first:")
    for (a, b), items in order[: args.groups]:
        print(f"  {items[0][0] / 1000:6.2f} ns  {len(items):5d} endpoint(s)  {a}  ->  {b}")
    shown = [items[0] for _, items in order[: args.paths]] or timed[:1]
    for t, p in shown:
        start, steps = origin(p)
        print(f"\nworst path {group_name(start)} -> {group_name(p)}: {t / 1000:.2f} ns")
        acc = 0
        for pin, d in steps:
            acc += d
            print(f"  {d / 1000:5.2f} {acc / 1000:6.2f}  {pin}")


if __name__ == "__main__":
    main()
