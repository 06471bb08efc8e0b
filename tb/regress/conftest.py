"""Options of the long regressions (tb/regress/test_regress.py): one pytest test per unit × shard,
each running `texpix regress <unit> --shards K --shard I` in a subprocess.

Every setting is a pytest option, with an environment variable as its default. Prefer the options
when the shards run on other hosts (`pytest -d --tx ssh=...`): xdist hands the command line to
every worker, while environment variables stay on the host that starts pytest (or pass them per
host in the --tx spec: `--tx 'ssh=user@host//python=python3//env:TEXPIX_BIN=/path/texpix'`).

| option | environment | default |
|---|---|---|
| --regress-units a,b | TEXPIX_REGRESS_UNITS | coverage,lod,texaddr,bvh,tex |
| --regress-count N   | TEXPIX_REGRESS_COUNT | 1000000 (per unit, over all its shards) |
| --regress-shards K  | TEXPIX_REGRESS_SHARDS | 8 |
| --regress-seed S    | TEXPIX_REGRESS_SEED | 1 |
| --regress-engine E  | TEXPIX_REGRESS_ENGINE | netlist |
| --regress-chunk C   | TEXPIX_REGRESS_CHUNK | 10000 (vectors per chunk) |
| --texpix-bin PATH   | TEXPIX_BIN | target/release/texpix (relative paths: to the repository root) |

These tests only run when pytest is pointed at tb/regress (or a file in it); collected as part of
a wider run (`pytest tb`) they are skipped, so an ordinary test run never starts a regression.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# tb/regress/conftest.py -> the repository root (or, on a host the tests were rsynced to, the
# directory that holds the rsynced `tb`).
ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

DEFAULT_UNITS = "coverage,lod,texaddr,bvh,tex"


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default)


def pytest_addoption(parser):
    g = parser.getgroup("texpix regress", "long RTL-vs-golden regressions (tb/regress)")
    g.addoption("--regress-units", default=_env("TEXPIX_REGRESS_UNITS", DEFAULT_UNITS),
                help="comma-separated units (default: %(default)s)")
    g.addoption("--regress-count", type=int, default=int(_env("TEXPIX_REGRESS_COUNT", "1000000")),
                help="transactions per unit over all its shards (default: %(default)s)")
    g.addoption("--regress-shards", type=int, default=int(_env("TEXPIX_REGRESS_SHARDS", "8")),
                help="shards per unit, one pytest test each (default: %(default)s)")
    g.addoption("--regress-seed", type=int, default=int(_env("TEXPIX_REGRESS_SEED", "1")),
                help="regression seed (default: %(default)s)")
    g.addoption("--regress-engine", default=_env("TEXPIX_REGRESS_ENGINE", "netlist"),
                choices=["netlist", "fast", "rtl"], help="simulation engine (default: %(default)s)")
    g.addoption("--regress-chunk", type=int, default=int(_env("TEXPIX_REGRESS_CHUNK", "10000")),
                help="vectors per chunk (default: %(default)s)")
    g.addoption("--texpix-bin", default=_env("TEXPIX_BIN", "target/release/texpix"),
                help="the texpix program (relative: to the repository root; default: %(default)s)")


def pytest_configure(config):
    config.addinivalue_line("markers", "regress: a long RTL-vs-golden regression shard")
    for name in ("regress_count", "regress_shards", "regress_chunk"):
        if config.getoption(name) < 1:
            raise pytest.UsageError(f"--{name.replace('_', '-')} must be at least 1")


def units(config) -> list[str]:
    return [u.strip() for u in config.getoption("regress_units").split(",") if u.strip()]


def pytest_generate_tests(metafunc):
    if {"unit", "shard"} <= set(metafunc.fixturenames):
        config = metafunc.config
        shards = config.getoption("regress_shards")
        params = [(u, i) for u in units(config) for i in range(shards)]
        ids = [f"{u}-shard{i}of{shards}" for u, i in params]
        metafunc.parametrize(("unit", "shard"), params, ids=ids)


def _explicitly_selected(config) -> bool:
    """Whether pytest was pointed at tb/regress or something inside it."""
    for arg in config.args:
        path = Path(arg.split("::")[0])
        if not path.is_absolute():
            path = Path(config.invocation_params.dir) / path
        try:
            path = path.resolve()
        except OSError:
            continue
        if path == HERE or HERE in path.parents:
            return True
    return False


def pytest_collection_modifyitems(config, items):
    if _explicitly_selected(config):
        return
    skip = pytest.mark.skip(reason="long regression: run it with `pytest tb/regress`")
    for item in items:
        if item.get_closest_marker("regress"):
            item.add_marker(skip)


def texpix_bin(config) -> Path:
    """The texpix program: --texpix-bin / TEXPIX_BIN, relative to the repository root; a `texpix`
    rsynced beside `tb` (`--rsyncdir target/release/texpix`) also counts."""
    given = Path(config.getoption("texpix_bin"))
    path = given if given.is_absolute() else ROOT / given
    if not path.exists() and not given.is_absolute() and (ROOT / "texpix").is_file():
        path = ROOT / "texpix"
    return path


@pytest.fixture(scope="session")
def regress_settings(request):
    config = request.config
    path = texpix_bin(config)
    if not path.is_file() or not os.access(path, os.X_OK):
        pytest.fail(
            f"texpix program not found at {path}: build it (`cargo build --release -p texpix-tb "
            f"--bin texpix`) or set TEXPIX_BIN / --texpix-bin",
            pytrace=False,
        )
    return {
        "bin": path,
        "count": config.getoption("regress_count"),
        "shards": config.getoption("regress_shards"),
        "seed": config.getoption("regress_seed"),
        "engine": config.getoption("regress_engine"),
        "chunk": config.getoption("regress_chunk"),
    }
