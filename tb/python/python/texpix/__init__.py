"""texpix: cocotb-style test benches over texpix's Rust simulator, plus the golden models.

A test is an ``async def`` taking ``dut``, marked ``@texpix.test()``; run it with
``python -m texpix.run FILE`` or ``pytest``. See docs/python.md.
"""

from . import golden
from ._sched import (Combine, ClockCycles, Edge, Event, FallingEdge, First, NullTrigger, Queue, QueueEmpty,
                     QueueFull, ReadOnly, ReadWrite, RisingEdge, SimTimeoutError, Task, TestFailure, Timer,
                     Trigger, ValueChange, create_task, get_sim_time, start, start_soon, with_timeout)
from ._texpix import RustPanic, SimError, units as _units
from .clock import Clock
from .handle import Dut, LogicValue, SignalHandle
from .regression import Test, TestResult, run_test, test
from .scoreboard import Scoreboard, ScoreboardError


def vcd_start(path: str, filter=()) -> None:
    """Starts dumping the running test's unit to a VCD (signals whose path contains one of
    ``filter``, all if empty), with a GTKWave save file beside it."""
    from ._sched import _sched

    s = _sched()
    s.sim.vcd_start(str(path), s.now, list(filter))


def vcd_stop() -> None:
    """Stops dumping at the end of the current time step (so a clock edge due now is still in the
    file), then flushes and closes the VCD. Also done when the test ends."""
    from ._sched import _sched

    _sched().vcd_stop_pending = True


def units():
    """Registered units as ``(name, verilog_top)``."""
    return _units()


def export_verilog(unit: str, path: str) -> str:
    """Writes the unit's Verilog (top module = its Verilog top name) to ``path``; returns the top."""
    from ._texpix import export

    top = dict(_units()).get(unit, unit)
    with open(path, "w") as f:
        f.write(export(unit))
    return top


__all__ = [n for n in dir() if not n.startswith("_")]
