#!/usr/bin/env python3
"""Add nextpnr settings to a placed design's JSON, for settings its command line does not offer.

Usage: scripts/nextpnr_settings.py IN.json OUT.json KEY=VALUE [KEY=VALUE ...]

IN.json is a design written by nextpnr (`--write`, e.g. after `--no-route`), whose top module
carries the `settings` that nextpnr reads back with `--json IN.json --no-place`, or a netlist
written by Yosys, whose top module (attribute `top`) gets a `settings` object: nextpnr reads
those too. Each KEY=VALUE is added there (replacing an earlier value of the same key), e.g.
`router2/bbMargin/x=16 router2/bbMargin/y=16` lets router2 take each net up to 16 tiles outside
its bounding box (nextpnr's default: 3). Values are JSON strings; one made only of 0 and 1 (`10`)
gets the trailing space that marks it a string rather than a bit vector, as nextpnr writes it.
"""

import json
import re
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.split("\n\n")[1])
    src, dst, pairs = sys.argv[1], sys.argv[2], sys.argv[3:]
    new = {}
    for p in pairs:
        key, sep, value = p.partition("=")
        if not sep or not key:
            sys.exit(f"nextpnr_settings: {p!r} is not KEY=VALUE")
        new[key] = value + " " if re.fullmatch(r"[01xz]+", value) else value
    with open(src, encoding="utf-8") as f:
        design = json.load(f)
    modules = design.get("modules", {}).values()
    tops = [m for m in modules if "settings" in m] or [
        m for m in modules if "1" in str(m.get("attributes", {}).get("top", ""))
    ]
    if len(tops) != 1:
        sys.exit(f"nextpnr_settings: {src}: {len(tops)} top modules (one was expected)")
    tops[0].setdefault("settings", {}).update(new)
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(design, f)


if __name__ == "__main__":
    main()
