"""Runs a texpix test file unchanged under real cocotb, with Icarus Verilog simulating the unit's
exported Verilog.

    python tb/python/cocotb/run_icarus.py coverage tb/python/tests/test_coverage.py [-k NAME]

Exports the unit with the ``texpix`` extension (same Verilog as ``texpix export``), builds it with
Icarus and runs every ``@test()`` of the file through cocotb's runner. Exits non-zero on any failure.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("unit")
    ap.add_argument("test_file", type=Path)
    ap.add_argument("-k", dest="testcase", action="append", help="run only this test (repeatable)")
    ap.add_argument("--build-dir", type=Path, default=Path("target/cocotb"))
    ap.add_argument("--json", type=Path, help="write each test's simulated ns and wall seconds here")
    a = ap.parse_args()

    import texpix
    from cocotb_tools.runner import get_runner

    build = (a.build_dir / a.unit).resolve()
    build.mkdir(parents=True, exist_ok=True)
    top = dict(texpix.units())[a.unit]
    src = build / f"{top}.v"
    texpix.export_verilog(a.unit, str(src))

    runner = get_runner("icarus")
    t0 = time.perf_counter()
    runner.build(sources=[src], hdl_toplevel=top, build_dir=build, timescale=("1ns", "1ps"), always=True)
    t_build = time.perf_counter() - t0
    test_dir = a.test_file.resolve().parent
    results = runner.test(hdl_toplevel=top, test_module=a.test_file.stem, test_dir=test_dir, build_dir=build,
                          testcase=a.testcase, results_xml=str(build / "results.xml"), extra_env={"PYTHONPATH": os.pathsep.join([str(test_dir)] + sys.path)})
    t_run = time.perf_counter() - t0 - t_build
    if not Path(results).exists():
        print(f"cocotb wrote no results for {a.test_file} (no cocotb tests found, or the simulator failed)")
        print("cocotb: 0 passed, 1 failed")
        return 1
    root = ET.parse(results).getroot()
    cases = root.findall(".//testcase")
    failed = [c.get("name") for c in cases if c.find("failure") is not None or c.find("error") is not None]
    if a.json:
        import json

        def sim_ns(c):
            p = c.find("properties/property[@name='sim_time_duration']")
            return float(p.get("value")) if p is not None else 0.0

        a.json.write_text(json.dumps({c.get("name"): {"sim_time_ns": sim_ns(c),
                                                       "wall_s": float(c.get("time", 0)),
                                                       "passed": c.get("name") not in failed} for c in cases}))
    print(f"cocotb + Icarus, {a.unit}: build {t_build:.1f} s, run {t_run:.1f} s" +
          (f"; failed: {', '.join(failed)}" if failed else ""))
    print(f"cocotb: {len(cases) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
