"""Cycles per second of the same Python test on texpix's Rust model and under cocotb + Icarus.

    python tb/python/cocotb/bench.py [--vectors 2000] [--idle 100000]

Per unit (coverage, LOD): the port-level stream test (every cycle the test reads and writes
signals), and for coverage the idle test that awaits one long ``ClockCycles``; on texpix also the
batch entry point (the same vectors through the RTL inside Rust). Cycles are rising clock edges
(10 ns period); wall time is the test's own (simulator start-up and Verilog compile excluded for
cocotb; the unit's construction included for texpix). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent / "tests"


def texpix_rate(module: str, test: str) -> tuple:
    import texpix

    sys.path.insert(0, str(TESTS))
    mod = importlib.import_module(module)
    r = texpix.run_test(getattr(mod, test))
    assert r.passed, r.message
    return r.cycles, r.wall_s


def batch_rate(unit: str, n: int) -> tuple:
    import texpix

    vecs = importlib.import_module(f"test_{unit}").vectors(n, seed=11) if unit == "coverage" else \
        texpix.golden.random(unit, n, seed=3)
    t0 = time.perf_counter()
    _, stats = texpix.golden.batch(unit, vecs, with_cycles=True)
    return stats["cycles"], time.perf_counter() - t0


def cocotb_rates(unit: str, tests: list, env: dict) -> dict:
    out = Path("target/cocotb") / f"bench_{unit}.json"
    cmd = [sys.executable, str(HERE / "run_icarus.py"), unit, str(TESTS / f"test_{unit}.py"), "--json", str(out)]
    for t in tests:
        cmd += ["-k", t]
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text())


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--vectors", type=int, default=2000)
    ap.add_argument("--idle", type=int, default=100_000)
    a = ap.parse_args()
    os.environ["TEXPIX_COV_VECTORS"] = str(a.vectors)
    os.environ["TEXPIX_IDLE_CYCLES"] = str(a.idle)
    os.environ["TEXPIX_LOD_VECTORS"] = str(a.vectors)
    env = dict(os.environ)
    rows = []
    for unit, tests in (("coverage", ["test_stream_vs_golden", "test_idle_clockcycles"]),
                        ("lod", ["test_stream_vs_golden"])):
        coco = cocotb_rates(unit, tests, env)
        for t in tests:
            c, w = texpix_rate(f"test_{unit}", t)
            key = next(k for k in coco if k.endswith(t))
            cc = coco[key]["sim_time_ns"] / 10
            cw = coco[key]["wall_s"]
            kind = "ClockCycles (idle)" if "idle" in t else "per-cycle signal access"
            rows.append((unit, t, kind, c, w, cc, cw))
        n = a.vectors
        c, w = batch_rate(unit, n)
        rows.append((unit, f"golden.batch({n} vectors)", "batch (RTL in Rust)", c, w, None, None))
    print("| unit | test | kind | texpix cycles | texpix s | texpix cycles/s | cocotb+Icarus cycles | "
          "cocotb s | cocotb cycles/s | speed-up |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for unit, t, kind, c, w, cc, cw in rows:
        r = c / w
        if cc is None:
            print(f"| {unit} | {t} | {kind} | {c} | {w:.3f} | {r:,.0f} | — | — | — | — |")
        else:
            rc = cc / cw
            print(f"| {unit} | {t} | {kind} | {c} | {w:.3f} | {r:,.0f} | {cc:.0f} | {cw:.3f} | {rc:,.0f} | "
                  f"{r / rc:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
