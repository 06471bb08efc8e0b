"""``python -m texpix.run PATH [PATH ...] [-k NAME]``: runs the ``@texpix.test()`` tests of the
given files (or of every ``test_*.py`` in the given directories) and prints a summary line.
Exit status 0 when all pass."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from .regression import collect, run_test


def _load(path: Path):
    name = f"texpix_tests_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.path.pop(0)
    return mod


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m texpix.run", description=__doc__)
    ap.add_argument("paths", nargs="+", type=Path)
    ap.add_argument("-k", dest="keyword", help="run only tests whose name contains this")
    a = ap.parse_args(argv)
    files = []
    for p in a.paths:
        files += sorted(p.glob("test_*.py")) if p.is_dir() else [p]
    passed = failed = skipped = 0
    for f in files:
        for t in collect(_load(f)):
            if a.keyword and a.keyword not in t.name:
                continue
            r = run_test(t)
            rate = r.cycles / r.wall_s if r.wall_s > 0 else 0.0
            status = "SKIP" if r.skipped else ("PASS" if r.passed else "FAIL")
            print(f"{status} {f.name}::{t.name}  {r.cycles} cycles, {r.sim_time_ns:g} ns simulated, "
                  f"{r.wall_s:.2f} s ({rate:,.0f} cycles/s)")
            if r.skipped:
                skipped += 1
            elif r.passed:
                passed += 1
            else:
                failed += 1
                print("    " + r.message.replace("\n", "\n    "))
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 0 if failed == 0 and passed + skipped > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
