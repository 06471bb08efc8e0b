"""Texture unit (docs/units/tex.md) from Python: the golden model against the conformance examples
(worked out by hand), a batch run of the RTL with back-pressure against the golden model (every
result field, the memory line list included), the ideal reference beside the golden model, and a
bad vector refused with the field named.

Not run under cocotb + Icarus (the unit is large; Icarus co-simulation runs in the Rust tests).
"""

import json
import struct
from pathlib import Path

import pytest

import texpix
from texpix import golden

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def load(name):
    return [json.loads(l) for l in (EXAMPLES / name).read_text().splitlines() if l.strip()]


def strip_cycles(r):
    return {k: v for k, v in r.items() if k not in ("cycle_in", "cycle_out")}


def test_examples_golden():
    """golden.tex on examples/tex.jsonl (one sequence, one cache) equals the hand-computed
    examples/tex.expected.jsonl, line for line."""
    vecs, exp = load("tex.jsonl"), load("tex.expected.jsonl")
    assert len(vecs) == len(exp) >= 20
    got = golden.tex(vecs)
    for n, (g, e) in enumerate(zip(got, exp), 1):
        assert g == e, f"line {n}: golden {g} expected {e}"


def test_batch_vs_golden_with_backpressure():
    """120 random vectors (runs of shared textures: every op and format, faults, sparse) through
    the RTL with 30 % output stalls and 10 % input gaps: every result equals the golden model's
    for the same sequence, memory lines included, in order."""
    vecs = golden.random("tex", 120, seed=5)
    exp = golden.tex(vecs)
    assert {v["op"] for v in vecs} >= {"tex", "txf", "txq", "gather4", "sample_c"}
    assert any(e["mem_lines"] > 0 for e in exp)
    rtl, stats = golden.batch("tex", vecs, stall_permille=300, idle_permille=100, seed=9,
                              with_cycles=True)
    assert stats["out_stall_cycles"] > 0, "back-pressure was requested but never exercised"
    sb = texpix.Scoreboard()
    for v, e in zip(vecs, exp):
        sb.expect(v, e)
    for r in rtl:
        sb.check(strip_cycles(r), cycle=r["cycle_out"])
    sb.finish()


def test_ideal_beside_golden_on_the_examples():
    """The ideal reference (exact conversion and weighted sums) gives every example's unmasked
    components within 2^-20 of the golden model's (the examples use values in [0, 1])."""
    vecs = load("tex.jsonl")
    got = golden.tex(vecs)
    compared = 0
    for n, (v, g) in enumerate(zip(vecs, got), 1):
        ideal = golden.ideal("tex", v)
        assert ideal["fault"] == g["fault"], f"line {n}"
        for lane, (il, gl) in enumerate(zip(ideal["rgba"] or [], g["rgba"])):
            if il is None:
                continue
            for c, (x, y) in enumerate(zip(il, gl)):
                if x is None or y is None or isinstance(x, str):
                    continue
                if v.get("op") in ("txq", "txf") or isinstance(x, int):
                    continue
                gy = struct.unpack("<f", struct.pack("<I", y))[0]
                assert abs(gy - x) <= 2.0 ** -20, f"line {n} lane {lane} c {c}: {gy} vs {x}"
                compared += 1
    assert compared > 50


def test_bad_vector_names_the_field():
    v = load("tex.jsonl")[0]
    v["textures"][0]["format"] = "rgba9"
    with pytest.raises(ValueError, match=r"textures\[0\]\.format"):
        golden.tex(v)
