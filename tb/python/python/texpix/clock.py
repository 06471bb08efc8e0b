"""A 50 % duty-cycle clock generated inside the Rust simulator."""

from __future__ import annotations

from typing import Optional

from . import _sched


class _ClockTask:
    """What :meth:`Clock.start` returns: kill it to stop the clock."""

    _texpix_task = True

    def __init__(self, clock: "Clock"):
        self.clock = clock

    def kill(self) -> None:
        self.clock.stop()

    cancel = kill

    def done(self) -> bool:
        return not self.clock._running

    def __await__(self):
        raise RuntimeError("a clock runs forever: do not await it (kill it to stop it)")
        yield  # pragma: no cover


class Clock:
    """Drives ``signal`` (a 1-bit input) with period ``period`` in ``unit``.

    ``Clock(dut.clock, 10, "ns").start()`` starts it at once (``start_soon(clock.start())`` works
    too). The edges run in Rust: only edges a task waits for come back to Python.
    """

    def __init__(self, signal, period: float, unit: str = "step", units: Optional[str] = None, impl=None):
        self.signal = signal
        self.period_ps = _sched.to_ps(period, units or unit)
        if self.period_ps < 2 or self.period_ps % 2:
            raise ValueError("the clock period must be an even number of picoseconds (≥ 2)")
        self._running = False

    @property
    def period(self) -> int:
        return self.period_ps

    def start(self, start_high: bool = True, cycles=None) -> _ClockTask:
        if cycles is not None:
            raise NotImplementedError("Clock.start(cycles=...) is not supported; kill the clock instead")
        s = _sched._sched()
        if s.sim.clock_handle() is not None and s.sim.clock_handle() != self.signal._h:
            raise RuntimeError("texpix runs one clock per unit; another clock is already running")
        s.sim.clock_start(self.signal._h, self.period_ps, s.now, start_high)
        s.clock_h = self.signal._h
        self._running = True
        return _ClockTask(self)

    def stop(self) -> None:
        s = _sched._current
        if s is not None and self._running:
            s.sim.clock_stop()
            s.clock_h = None
        self._running = False
