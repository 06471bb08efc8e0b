"""Golden models, random vectors and batch runs of every unit, on vector dicts (the vector-file
fields of docs/units/).

``texpix.golden.coverage(vector) -> result`` (one dict, or a list of dicts for a list), likewise for
every registered unit; ``texpix.golden.run(unit, vectors)`` for a unit chosen by name.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Union

from . import _texpix

Vector = Dict[str, Any]


def _lines(vectors) -> List[str]:
    return [v if isinstance(v, str) else json.dumps(v) for v in vectors]


def run(unit: str, vectors: Union[Vector, List[Vector]]):
    """The bit-accurate golden result of each vector (parsed exactly as vector files are)."""
    single = isinstance(vectors, (dict, str))
    out = [json.loads(r) for r in _texpix.golden(unit, _lines([vectors] if single else vectors))]
    return out[0] if single else out


def ideal(unit: str, vector: Union[Vector, str]) -> Dict[str, Any]:
    """The ideal reference of one vector: coverage ``{"covered": [4], "covmask", "pixld"}`` (covered
    samples before the sample mask, and the full ideal result in the result format),
    LOD per-lane ``lambda``, ``lambda_prime``, ``d``, ``eta``, ``probes``, ``rho_max``, ``rho_min``,
    ``level0``, ``level1``, ``frac`` (real, 0…1), ``magnify``, ``lod_warning``, ``status`` (exact f64
    math; NaN/±Inf as None), BVH ``{"debug": text}``, texaddr
    (direct form only) ``{"lanes": [{"taps", "wu", "wv"} or None]}`` with real weights α·256."""
    return json.loads(_texpix.ideal(unit, _lines([vector])[0]))


def random(unit: str, n: int, seed: int = 1) -> List[Vector]:
    """``n`` random and edge-case vectors of ``unit`` (edge cases first), as dicts."""
    return [json.loads(v) for v in _texpix.random(unit, seed, n)]


def batch(unit: str, vectors: List[Vector], stall_permille: int = 0, idle_permille: int = 0,
          seed: int = 1, with_cycles: bool = False, engine: str = None):
    """Runs ``vectors`` through a fresh, reset RTL unit inside Rust (with optional random
    back-pressure) and returns the results in order; with ``with_cycles`` each result gets
    ``cycle_in``/``cycle_out`` and the stream statistics are returned too. ``engine``: ``"fast"``
    (``"netlist"`` where Yosys is present, else ``"rtl"``), ``"rtl"`` (the rust-hdl model) or
    ``"netlist"`` (its compiled netlist, native code, far faster); default ``TEXPIX_ENGINE`` or
    ``"fast"``."""
    engine = engine or os.environ.get("TEXPIX_ENGINE") or "fast"
    rows, (cycles, in_stall, out_stall) = _texpix.batch(
        unit, _lines(vectors), idle_permille, stall_permille, seed, engine=engine)
    res = [json.loads(r) for r, _, _ in rows]
    if not with_cycles:
        return res
    for r, (_, ci, co) in zip(res, rows):
        r["cycle_in"], r["cycle_out"] = ci, co
    return res, {"cycles": cycles, "in_stall_cycles": in_stall, "out_stall_cycles": out_stall}


def units() -> List[str]:
    """Registered unit names."""
    return [n for n, _ in _texpix.units()]


def _make(name: str):
    def golden(vectors):
        return run(name, vectors)

    golden.__name__ = name
    golden.__doc__ = f"Golden result(s) of the {name} unit for a vector dict (or a list of them)."
    return golden


for _name in units():
    globals()[_name.replace("-", "_")] = _make(_name)  # coverage-serial: golden.coverage_serial
