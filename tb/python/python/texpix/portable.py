"""The names a portable test imports: cocotb's own when the test runs inside a cocotb simulation
(e.g. Icarus on the exported Verilog), texpix's otherwise. Test files written against this module
run unchanged under both."""

from __future__ import annotations

import sys


def _under_cocotb() -> bool:
    mod = sys.modules.get("cocotb")
    return mod is not None and (getattr(mod, "is_simulation", False) or getattr(mod, "top", None) is not None)


UNDER_COCOTB = _under_cocotb()

if UNDER_COCOTB:
    import cocotb
    from cocotb import start_soon, test
    from cocotb.clock import Clock
    from cocotb.triggers import (ClockCycles, Combine, Event, FallingEdge, First, ReadOnly, RisingEdge, Timer,
                                 with_timeout)
    from cocotb.queue import Queue
    from cocotb.utils import get_sim_time

    def vcd_start(path, filter=()):
        """Waveforms under cocotb come from the simulator's own dumping; nothing to do here."""

    def vcd_stop():
        pass

    SIMULATOR = "cocotb"
else:
    from . import (ClockCycles, Combine, Event, FallingEdge, First, Queue, ReadOnly, RisingEdge, Timer,
                   get_sim_time, start_soon, test, vcd_start, vcd_stop, with_timeout)
    from .clock import Clock

    SIMULATOR = "texpix"

from . import golden  # noqa: E402 - the golden models are plain functions, usable under both
from .scoreboard import Scoreboard  # noqa: E402

__all__ = ["Clock", "ClockCycles", "Combine", "Event", "FallingEdge", "First", "Queue", "ReadOnly", "RisingEdge",
           "Timer", "get_sim_time", "start_soon", "test", "vcd_start", "vcd_stop", "with_timeout", "golden",
           "Scoreboard", "SIMULATOR", "UNDER_COCOTB"]
