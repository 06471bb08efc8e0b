"""``@texpix.test()`` and running tests: each test gets a freshly built unit at power-up."""

from __future__ import annotations

import inspect
import os
import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable, List, Optional

from . import _sched
from ._texpix import Sim
from .handle import Dut


class Test:
    """A test coroutine function with its options; call :meth:`run` to run it."""

    def __init__(self, func: Callable, *, timeout_time=None, timeout_unit="step", expect_fail=False,
                 expect_error=(), skip=False, toplevel: Optional[str] = None, vcd: Optional[str] = None,
                 engine: Optional[str] = None):
        if not inspect.iscoroutinefunction(func):
            raise TypeError(f"@texpix.test() needs an `async def` function, got {func!r}")
        self.func = func
        self.name = func.__name__
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__
        self.__module__ = func.__module__
        self.timeout_time, self.timeout_unit = timeout_time, timeout_unit
        self.expect_fail = expect_fail
        self.expect_error = expect_error if isinstance(expect_error, tuple) else (expect_error,)
        self.skip = skip
        self.toplevel = toplevel
        self.vcd = vcd
        self.engine = engine

    def resolve_toplevel(self) -> str:
        """The unit: ``toplevel=`` of the decorator, else the module's ``TOPLEVEL``, else the
        ``TEXPIX_TOPLEVEL`` / ``COCOTB_TOPLEVEL`` / ``TOPLEVEL`` environment variable."""
        if self.toplevel:
            return self.toplevel
        mod = sys.modules.get(self.func.__module__)
        top = getattr(mod, "TOPLEVEL", None)
        for var in ("TEXPIX_TOPLEVEL", "COCOTB_TOPLEVEL", "TOPLEVEL"):
            top = top or os.environ.get(var)
        if not top:
            raise RuntimeError(
                f"{self.name}: which unit? set TOPLEVEL = '<unit>' in the test module, "
                "pass @texpix.test(toplevel=...), or set TEXPIX_TOPLEVEL"
            )
        return top

    def resolve_engine(self) -> str:
        """The simulation engine: ``engine=`` of the decorator, else the module's ``ENGINE``, else the
        ``TEXPIX_ENGINE`` environment variable, else ``"fast"``: ``"netlist"`` where Yosys is present,
        else ``"rtl"``. ``"rtl"`` runs the rust-hdl model; ``"netlist"`` the same circuit compiled
        from its Yosys netlist into native code (needs Yosys; far faster)."""
        mod = sys.modules.get(self.func.__module__)
        return self.engine or getattr(mod, "ENGINE", None) or os.environ.get("TEXPIX_ENGINE") or "fast"

    def run(self) -> "TestResult":
        return run_test(self)

    def __call__(self, *a, **k):
        return self.func(*a, **k)

    def __repr__(self):
        return f"<texpix test {self.func.__module__}.{self.name}>"


def test(_func=None, *, timeout_time=None, timeout_unit="step", expect_fail=False, expect_error=(),
         skip=False, stage=None, toplevel=None, vcd=None, engine=None, **_ignored):
    """Marks an ``async def test_x(dut)`` as a test (use as ``@test`` or ``@test(...)``)."""

    def wrap(f):
        return Test(f, timeout_time=timeout_time, timeout_unit=timeout_unit, expect_fail=expect_fail,
                    expect_error=expect_error, skip=skip, toplevel=toplevel, vcd=vcd, engine=engine)

    return wrap(_func) if _func is not None else wrap


@dataclass
class TestResult:
    name: str
    passed: bool
    skipped: bool = False
    error: Optional[BaseException] = None
    sim_time_ns: float = 0.0
    cycles: int = 0
    wall_s: float = 0.0
    message: str = ""
    log: List[str] = field(default_factory=list)


def _where(exc: BaseException) -> str:
    """The test-side frame that raised (file:line and source), skipping texpix internals."""
    here = os.path.dirname(__file__)
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith(here)]
    if not frames:
        return ""
    f = frames[-1]
    return f"{f.filename}:{f.lineno}: {f.line}"


def run_test(t: Test) -> TestResult:
    """Builds the unit, runs the test's main coroutine (with its timeout) and reports."""
    if t.skip:
        return TestResult(t.name, passed=True, skipped=True, message="skipped")
    sim = Sim(t.resolve_toplevel(), t.resolve_engine())
    dut = Dut(sim, t.resolve_toplevel())
    sched = _sched.Scheduler(sim)
    coro = t.func(dut)
    if t.timeout_time is not None:
        coro = _sched.with_timeout(coro, t.timeout_time, t.timeout_unit)
    w0 = time.perf_counter()
    err: Optional[BaseException] = None
    try:
        main = sched.run(coro)
        err = sched.failure[1] if sched.failure else main.exception()
    except BaseException as e:  # noqa: BLE001 - scheduler errors fail the test, with context
        if isinstance(e, KeyboardInterrupt):
            raise
        err = e
    finally:
        try:
            sim.vcd_stop()
        except Exception:  # noqa: BLE001 - a broken simulator cannot flush; the test already failed
            pass
    wall = time.perf_counter() - w0
    res = TestResult(t.name, passed=err is None, error=err, sim_time_ns=sched.now / 1000,
                     cycles=sched.cycle(), wall_s=wall)
    if err is not None:
        note = f"texpix: {t.name} failed at simulated time {sched.now / 1000:g} ns, clock cycle {sched.cycle()}"
        where = _where(err)
        if where:
            note += f"\n  at {where}"
        if hasattr(err, "add_note") and note not in getattr(err, "__notes__", []):
            err.add_note(note)
        res.message = f"{type(err).__name__}: {err}\n{note}"
    expected_error = bool(t.expect_error) and err is not None and isinstance(err, t.expect_error)
    if t.expect_fail or expected_error:
        if err is None:
            res.passed, res.message = False, "expected a failure but the test passed"
        elif t.expect_fail and isinstance(err, AssertionError) or expected_error:
            res.passed, res.error = True, None
    return res


def collect(module) -> List[Test]:
    """The tests of a module, in definition order."""
    return [v for v in vars(module).values() if isinstance(v, Test)]


# Keep pytest from collecting the decorator and these classes when a test module imports them.
test.__test__ = False
Test.__test__ = False
TestResult.__test__ = False
