"""Cycles per second of the same Python test on texpix's Rust model and under cocotb + Icarus.

    python tb/python/cocotb/bench.py [--vectors 2000] [--idle 100000] [--handshake 20000] [--no-cocotb]

Per unit (coverage, LOD): the port-level stream test (every cycle the test reads and writes
signals; ~140 port writes per coverage vector), for coverage also a light per-cycle handshake test
and the idle test that awaits one long ``ClockCycles``; on texpix also the batch entry point (the same
vectors through the stream driver inside Rust). texpix runs each on both engines (``rtl``: the
rust-hdl model; ``netlist``: its compiled netlist). Cycles are rising clock edges (10 ns period);
wall time is the test's own (simulator start-up, Verilog compile and netlist compile excluded).
Prints a Markdown table.
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


def texpix_rate(module: str, test: str, engine: str) -> tuple:
    import texpix

    sys.path.insert(0, str(TESTS))
    mod = importlib.import_module(module)
    t = getattr(mod, test)
    t.engine = engine
    texpix.run_test(t) if engine == "netlist" and not _warm.get(module) else None  # compile once
    _warm[module] = True
    r = texpix.run_test(t)
    assert r.passed, r.message
    return r.cycles, r.wall_s


_warm: dict = {}


def batch_rate(unit: str, n: int, engine: str) -> tuple:
    import texpix

    vecs = importlib.import_module(f"test_{unit}").vectors(n, seed=11) if unit == "coverage" else \
        texpix.golden.random(unit, n, seed=3)
    texpix.golden.batch(unit, vecs[:1], engine=engine)  # build (and for the netlist, compile) once
    t0 = time.perf_counter()
    _, stats = texpix.golden.batch(unit, vecs, with_cycles=True, engine=engine)
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
    ap.add_argument("--handshake", type=int, default=20_000)
    ap.add_argument("--no-cocotb", action="store_true", help="texpix only (no Icarus runs)")
    a = ap.parse_args()
    os.environ["TEXPIX_COV_VECTORS"] = str(a.vectors)
    os.environ["TEXPIX_IDLE_CYCLES"] = str(a.idle)
    os.environ["TEXPIX_LOD_VECTORS"] = str(a.vectors)
    os.environ["TEXPIX_HANDSHAKE_CYCLES"] = str(a.handshake)
    env = dict(os.environ)
    kinds = {"test_stream_vs_golden": "port-level stream vs golden: every input port written per vector, "
                                      "outputs read every cycle",
             "test_handshake_every_cycle": "per cycle: 3 writes, 3-4 reads",
             "test_idle_clockcycles": "one long ClockCycles (idle)"}
    rows = []
    for unit, tests in (("coverage", ["test_stream_vs_golden", "test_handshake_every_cycle",
                                      "test_idle_clockcycles"]),
                        ("lod", ["test_stream_vs_golden"])):
        coco = {} if a.no_cocotb else cocotb_rates(unit, tests, env)
        for t in tests:
            rates = {e: texpix_rate(f"test_{unit}", t, e) for e in ("rtl", "netlist")}
            key = next((k for k in coco if k.endswith(t)), None)
            cc = (coco[key]["sim_time_ns"] / 10, coco[key]["wall_s"]) if key else None
            rows.append((unit, t, kinds[t], rates, cc))
        n = a.vectors
        rates = {e: batch_rate(unit, n, e) for e in ("rtl", "netlist")}
        rows.append((unit, f"golden.batch({n} vectors)", "batch: the stream driver in Rust", rates, None))
    print("| unit | test | kind | texpix rtl cycles/s | texpix netlist cycles/s | cocotb+Icarus cycles/s | "
          "netlist / cocotb |")
    print("|---|---|---|---:|---:|---:|---:|")
    for unit, t, kind, rates, cc in rows:
        r = {e: c / w for e, (c, w) in rates.items()}
        if cc is None:
            print(f"| {unit} | {t} | {kind} | {r['rtl']:,.0f} | {r['netlist']:,.0f} | — | — |")
        else:
            rc = cc[0] / cc[1]
            print(f"| {unit} | {t} | {kind} | {r['rtl']:,.0f} | {r['netlist']:,.0f} | {rc:,.0f} | "
                  f"{r['netlist'] / rc:,.0f}× |")
    print(f"\ncycles: " + "; ".join(f"{u}.{t} {rates['netlist'][0]}" for u, t, _, rates, _ in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
