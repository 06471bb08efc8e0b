"""Long RTL-vs-golden regressions, one test per unit × shard (options in conftest.py).

Each test runs `texpix regress <unit> --count N --shards K --shard I` in a subprocess: the chunks
i with i % K == I of the unit's N-transaction regression, on the netlist engine with random
back-pressure (and random memory timing for tex and bvh). It passes when texpix exits 0 and its
summary line reports exactly this shard's share of the N transactions with 0 mismatches.

    pytest -n auto tb/regress                         # every unit, 8 shards each, 1 000 000 per unit
    TEXPIX_REGRESS_COUNT=20000 pytest -n 2 tb/regress -k lod
"""

from __future__ import annotations

import re
import subprocess

import pytest

pytestmark = pytest.mark.regress

SUMMARY = re.compile(
    r"^regress (?P<unit>\S+): (?P<n>\d+) transactions, (?P<mismatches>\d+) mismatches, "
    r"(?P<secs>[\d.]+) s, engine (?P<engine>\w+), seed (?P<seed>\d+)(?P<rest>.*)$",
    re.M,
)


def shard_share(count: int, chunk: int, shards: int, shard: int) -> int:
    """Transactions of shard `shard`: chunk i (of ceil(count / chunk)) holds min(chunk, count -
    i·chunk) of them and belongs to shard i % shards."""
    chunks = -(-count // chunk)
    return sum(min(chunk, count - i * chunk) for i in range(shard, chunks, shards))


def test_shard_shares_add_up():
    """The shares of all shards are the whole regression (the arithmetic the tests rely on)."""
    for count, chunk, shards in [(1_000_000, 10_000, 8), (12_345, 1000, 7), (5, 10, 3)]:
        assert sum(shard_share(count, chunk, shards, i) for i in range(shards)) == count


def test_regress_shard(unit, shard, regress_settings):
    s = regress_settings
    cmd = [
        str(s["bin"]), "regress", unit,
        "--count", str(s["count"]),
        "--seed", str(s["seed"]),
        "--shards", str(s["shards"]),
        "--shard", str(shard),
        "--engine", s["engine"],
        "--chunk-size", str(s["chunk"]),
    ]
    want = shard_share(s["count"], s["chunk"], s["shards"], shard)
    if want == 0:
        pytest.skip(f"no chunk falls to shard {shard} ({s['count']} transactions)")
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    where = f"`{' '.join(cmd)}` exited {proc.returncode}\nstdout: {proc.stdout[-2000:]}\nstderr: {proc.stderr[-4000:]}"
    assert proc.returncode == 0, where
    m = SUMMARY.search(proc.stdout)
    assert m, f"no summary line\n{where}"
    assert m["unit"] == unit, where
    assert m["engine"] == s["engine"], where
    assert int(m["seed"]) == s["seed"], where
    assert int(m["n"]) == want, f"expected {want} transactions\n{where}"
    assert int(m["mismatches"]) == 0, where
