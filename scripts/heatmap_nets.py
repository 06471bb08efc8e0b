#!/usr/bin/env python3
"""Sum nextpnr router2's per-net congestion CSV by the nets' hierarchy.

Usage: scripts/heatmap_nets.py FILE.csv [--depth N | --shape] [--top K]

FILE.csv is one iteration's `congestion_by_net` file, written by nextpnr-ecp5 with
`--router2-heatmap PREFIX` (lines `net name,overused wires`). The overuse of every net is
summed under the first N dot-separated parts of its name (default 2: `dut.descr`), or with
`--shape` under its name's shape (indices and numbered copies as `#`, the suffixes Yosys and
nextpnr append after a cell type cut off: `dut.lane#.tests.smp[#].pp[#]`), and the K largest
groups and nets are printed with their share of the total. Names that do not parse
are counted under `(other)`; an unreadable line stops the run with its line number.
"""

import argparse
import collections
import re
import sys


def read(path):
    """(net, overuse) pairs of one congestion_by_net CSV."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line:
                continue
            name, sep, count = line.rpartition(",")
            if not sep:
                sys.exit(f"{path}:{no}: no comma in {line!r}")
            try:
                rows.append((name, int(count)))
            except ValueError:
                sys.exit(f"{path}:{no}: overuse {count!r} is not an integer")
    return rows


def group(name, depth):
    """The first `depth` parts of a net's hierarchical name (escaped `\\` prefixes dropped)."""
    parts = name.lstrip("\\").split(".")
    if len(parts) <= 1:
        return "(other)"
    return ".".join(parts[:depth])


def shape(name):
    """A net's name with indices and copy numbers as `#` and mapping suffixes cut off."""
    name = re.split(r"_(?:TRELLIS|LUT4|CCU2C|PFUMX|L6MUX|MULT18X18D|DP16KD)", name.lstrip("\\"))[0]
    name = re.sub(r"\[[0-9]+\]", "[#]", name)
    return re.sub(r"([A-Za-z])_?[0-9]+(?=[._\[]|$)", r"\1#", name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--shape", action="store_true")
    ap.add_argument("--top", type=int, default=20)
    a = ap.parse_args()
    rows = read(a.csv)
    total = sum(c for _, c in rows)
    if total == 0:
        print(f"{len(rows)} nets, no overuse")
        return
    sums = collections.Counter()
    for name, c in rows:
        sums[shape(name) if a.shape else group(name, a.depth)] += c
    print(f"{len(rows)} nets, {total} net-wire overuses")
    print("-- by shape" if a.shape else f"-- by the first {a.depth} parts of the name")
    for g, c in sums.most_common(a.top):
        print(f"{c:8d} {100 * c / total:5.1f} %  {g}")
    print("-- nets")
    for name, c in sorted(rows, key=lambda r: -r[1])[: a.top]:
        print(f"{c:8d} {100 * c / total:5.1f} %  {name}")


if __name__ == "__main__":
    main()
