"""The scheduler: tasks, triggers and the time-step loop over the Rust core.

Time advances in integer picoseconds. Within one time step: tasks woken at that time run (their
writes are queued), then a clock edge due at that time executes in Rust (flip-flops sample first,
then the queued writes land), then writes of tasks woken by value changes, then ``ReadOnly``
waiters. Between steps the Rust core runs the clock by itself as far as the next moment any task
needs to wake, so ``await ClockCycles(clk, n)`` costs one call into Rust.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from typing import Any, Callable, Coroutine, Optional

_UNITS_PS = {"fs": 1e-3, "ps": 1, "ns": 1000, "us": 1000_000, "ms": 1000_000_000, "sec": 1000_000_000_000, "step": 1}

#: The scheduler of the running test (one at a time).
_current: Optional["Scheduler"] = None


def _sched() -> "Scheduler":
    if _current is None:
        raise RuntimeError("no texpix test is running (triggers and tasks need a running test)")
    return _current


def to_ps(t: float, unit: str = "step") -> int:
    """``t`` in ``unit`` as an integer number of picoseconds (the simulator's step)."""
    unit = {"s": "sec"}.get(unit, unit)
    if unit not in _UNITS_PS:
        raise ValueError(f"unknown time unit {unit!r} (expected one of {', '.join(_UNITS_PS)})")
    ps = t * _UNITS_PS[unit]
    if abs(ps - round(ps)) > 1e-9:
        raise ValueError(f"{t} {unit} is not a whole number of picoseconds")
    return int(round(ps))


def get_sim_time(unit: str = "step", units: Optional[str] = None) -> float:
    """Current simulated time in ``unit`` (``step`` = ps)."""
    ps = _sched().now
    unit = units or unit
    if unit == "step":
        return ps
    return ps / _UNITS_PS[{"s": "sec"}.get(unit, unit)]


class SimTimeoutError(TimeoutError):
    """Raised by :func:`with_timeout` when the timeout expires first."""


class TestFailure(AssertionError):
    """Raise to fail a test with a message (an ``assert`` does the same)."""

    __test__ = False


# ---------------------------------------------------------------------------------------------
# Triggers


class Trigger:
    """Something a task can ``await``; the scheduler resumes the task when it fires."""

    def __await__(self):
        return (yield self)

    def _prime(self, s: "Scheduler", task: "Task") -> None:
        raise NotImplementedError

    def _unprime(self, s: "Scheduler", task: "Task") -> None:
        pass


class _Timed(Trigger):
    """Wakes at an absolute time, before a clock edge due at that time executes."""

    def _when(self, s: "Scheduler") -> int:
        raise NotImplementedError

    def _prime(self, s, task):
        s._add_timer(self._when(s), task, self)

    def _unprime(self, s, task):
        s._cancel_timer(task)


class Timer(_Timed):
    """Waits ``time`` in ``unit`` (``step`` = ps)."""

    def __init__(self, time: float, unit: str = "step", units: Optional[str] = None, round_mode=None):
        self.ps = to_ps(time, units or unit)
        if self.ps < 0:
            raise ValueError("a Timer cannot go back in time")

    def _when(self, s):
        return s.now + self.ps

    def __repr__(self):
        return f"Timer({self.ps} ps)"


class _Edge(Trigger):
    kind = "any"  # "rise", "fall", "any"

    def __init__(self, signal):
        self.signal = signal

    def _prime(self, s, task):
        h = self.signal._h
        if h == s.clock_h:
            s._add_timer(s._edge_time(1, self.kind), task, self)
        else:
            s._watch(h, task, self, self.kind, 1)

    def _unprime(self, s, task):
        s._cancel_timer(task)
        s._unwatch(task)

    def __repr__(self):
        return f"{type(self).__name__}({self.signal._path})"


class RisingEdge(_Edge):
    """Fires on the signal's next 0→1 change; code resuming here sees the values the flip-flops
    sample at this edge, and its writes land after it."""

    kind = "rise"


class FallingEdge(_Edge):
    """Fires on the signal's next 1→0 change."""

    kind = "fall"


class Edge(_Edge):
    """Fires on any change of the signal."""

    kind = "any"


ValueChange = Edge


class ClockCycles(Trigger):
    """Waits ``num_cycles`` rising (or falling) edges of ``signal``; run inside Rust when the signal
    is driven by a :class:`~texpix.Clock`."""

    def __init__(self, signal, num_cycles: int, rising: bool = True):
        if num_cycles < 1:
            raise ValueError("ClockCycles needs at least one cycle")
        self.signal, self.num_cycles, self.rising = signal, num_cycles, rising

    def _prime(self, s, task):
        h = self.signal._h
        if h == s.clock_h:
            s._add_timer(s._edge_time(self.num_cycles, "rise" if self.rising else "fall"), task, self)
        else:
            s._watch(h, task, self, "rise" if self.rising else "fall", self.num_cycles)

    def _unprime(self, s, task):
        s._cancel_timer(task)
        s._unwatch(task)

    def __repr__(self):
        return f"ClockCycles({self.signal._path}, {self.num_cycles})"


class ReadOnly(Trigger):
    """Fires at the end of the current time step, once everything settled; no writes allowed."""

    def _prime(self, s, task):
        s.readonly.append((task, self))

    def _unprime(self, s, task):
        s.readonly = [(t, g) for t, g in s.readonly if t is not task]


class ReadWrite(Trigger):
    """Fires after the current time step's writes are applied, still at the same time."""

    def _prime(self, s, task):
        s.readwrite.append((task, self))

    def _unprime(self, s, task):
        s.readwrite = [(t, g) for t, g in s.readwrite if t is not task]


class NullTrigger(Trigger):
    """Resumes at once (after other ready tasks)."""

    def _prime(self, s, task):
        s.ready.append((task, self, None))


class _Join(Trigger):
    def __init__(self, task: "Task"):
        self.task = task

    def _prime(self, s, task):
        if self.task.done():
            s.ready.append((task, self, None))
        else:
            self.task._joiners.append(task)

    def _unprime(self, s, task):
        if task in self.task._joiners:
            self.task._joiners.remove(task)


class _EventWait(Trigger):
    def __init__(self, event: "Event"):
        self.event = event

    def _prime(self, s, task):
        if self.event.is_set():
            s.ready.append((task, self, None))
        else:
            self.event._waiters.append(task)

    def _unprime(self, s, task):
        if task in self.event._waiters:
            self.event._waiters.remove(task)

    def __repr__(self):
        return f"{self.event!r}.wait()"


# ---------------------------------------------------------------------------------------------
# Tasks


class Task:
    """A running coroutine. ``await task`` waits for it and returns its result."""

    _ids = itertools.count()

    def __init__(self, coro: Coroutine, name: Optional[str] = None):
        if not hasattr(coro, "send"):
            raise TypeError(f"start_soon expects a coroutine, got {type(coro).__name__}")
        self._coro = coro
        self.name = name or getattr(coro, "__qualname__", "task")
        self._done = False
        self._result: Any = None
        self._exc: Optional[BaseException] = None
        self._joiners: list = []
        self._trigger: Optional[Trigger] = None
        self._cancelled = False
        self._id = next(Task._ids)

    def done(self) -> bool:
        return self._done

    def cancelled(self) -> bool:
        return self._cancelled

    def result(self):
        if not self._done:
            raise RuntimeError(f"task {self.name} is not done")
        if self._exc is not None:
            raise self._exc
        return self._result

    def exception(self) -> Optional[BaseException]:
        return self._exc

    def kill(self) -> None:
        """Stops the task where it waits (it never resumes)."""
        if self._done:
            return
        s = _current
        if s is not None and self._trigger is not None:
            self._trigger._unprime(s, self)
        self._trigger = None
        self._cancelled = True
        self._coro.close()
        self._finish(None, None, s)

    cancel = kill

    def join(self) -> Trigger:
        return _Join(self)

    def __await__(self):
        if not self._done:
            yield _Join(self)
        return self.result()

    def _finish(self, result, exc, s):
        self._done, self._result, self._exc = True, result, exc
        if s is not None:
            for j in self._joiners:
                s.ready.append((j, None, None))
        self._joiners = []

    def __repr__(self):
        state = "done" if self._done else f"waiting on {self._trigger!r}"
        return f"<Task {self.name} {state}>"


def start_soon(coro) -> Task:
    """Starts ``coro`` (a coroutine or a :class:`Task`) in the current time step; returns its task."""
    if isinstance(coro, Task) or hasattr(coro, "_texpix_task"):
        return coro
    s = _sched()
    t = Task(coro)
    s.ready.append((t, None, None))
    s.tasks.append(t)
    return t


async def _start(coro):
    return start_soon(coro)


def start(coro):
    """Starts ``coro`` and yields once so it runs before the caller continues (``await start(c)``)."""

    async def go():
        t = start_soon(coro)
        await NullTrigger()
        return t

    return go()


def create_task(coro) -> Task:
    """A task for ``coro``, not yet scheduled (start it with :func:`start_soon`)."""
    return Task(coro)


# ---------------------------------------------------------------------------------------------
# Synchronisation


class Event:
    """A flag tasks can wait on."""

    def __init__(self, name: Optional[str] = None):
        self.name = name
        self._set = False
        self._waiters: list = []
        self.data: Any = None

    def set(self, data: Any = None) -> None:
        self._set, self.data = True, data
        s = _current
        for t in self._waiters:
            t._trigger = None
            if s is not None:
                s.ready.append((t, None, None))
        self._waiters = []

    def clear(self) -> None:
        self._set = False

    def is_set(self) -> bool:
        return self._set

    def wait(self) -> Trigger:
        return _EventWait(self)

    def __repr__(self):
        return f"Event({self.name or ''})"


class QueueFull(Exception):
    pass


class QueueEmpty(Exception):
    pass


class Queue:
    """A FIFO between tasks; ``maxsize`` ≤ 0 means unbounded."""

    def __init__(self, maxsize: int = 0):
        self.maxsize = maxsize
        self._q: deque = deque()
        self._put_ev = Event("queue put")
        self._get_ev = Event("queue get")

    def qsize(self) -> int:
        return len(self._q)

    def empty(self) -> bool:
        return not self._q

    def full(self) -> bool:
        return self.maxsize > 0 and len(self._q) >= self.maxsize

    def put_nowait(self, item) -> None:
        if self.full():
            raise QueueFull()
        self._q.append(item)
        self._put_ev.set()
        self._put_ev.clear()

    def get_nowait(self):
        if not self._q:
            raise QueueEmpty()
        item = self._q.popleft()
        self._get_ev.set()
        self._get_ev.clear()
        return item

    async def put(self, item) -> None:
        while self.full():
            await self._get_ev.wait()
        self.put_nowait(item)

    async def get(self):
        while not self._q:
            await self._put_ev.wait()
        return self.get_nowait()


class First:
    """Waits for the first of several triggers or tasks; returns what that one returned."""

    def __init__(self, *awaitables):
        if not awaitables:
            raise ValueError("First needs at least one trigger")
        self.awaitables = awaitables

    def __await__(self):
        return self._run().__await__()

    async def _run(self):
        done = Event("First")
        box: list = []

        async def wait_one(a):
            r = await a
            if not box:
                box.append(r if not isinstance(a, Trigger) else a)
                done.set()

        tasks = [start_soon(wait_one(a)) for a in self.awaitables]
        await done.wait()
        for t in tasks:
            t.kill()
        for t in tasks:
            if t.done() and t.exception() is not None:
                raise t.exception()
        return box[0]


class Combine:
    """Waits until all the triggers or tasks have fired."""

    def __init__(self, *awaitables):
        self.awaitables = awaitables

    def __await__(self):
        return self._run().__await__()

    async def _run(self):
        tasks = [start_soon(_await(a)) for a in self.awaitables]
        for t in tasks:
            await t
        return self


async def _await(a):
    return await a


async def with_timeout(trigger, timeout_time: float, timeout_unit: str = "step", round_mode=None):
    """Awaits ``trigger`` (a trigger, task or coroutine) but raises :class:`SimTimeoutError` if
    ``timeout_time`` passes first."""
    if hasattr(trigger, "send") and not isinstance(trigger, Task):
        trigger = start_soon(trigger)
    timer = Timer(timeout_time, timeout_unit)
    r = await First(trigger, timer)
    if r is timer:
        if isinstance(trigger, Task):
            trigger.kill()
        raise SimTimeoutError(f"timed out after {timeout_time} {timeout_unit}")
    return r


# ---------------------------------------------------------------------------------------------
# The scheduler


class Scheduler:
    """Runs tasks against one Rust simulator (``texpix._texpix.Sim``)."""

    #: How far the clock runs per Rust call (between calls Python handles Ctrl-C).
    CHUNK_PS = 10_000_000

    def __init__(self, sim):
        self.sim = sim
        self.now = 0
        self.ready: deque = deque()
        self.timers: list = []  # heap of (t, seq, task, trigger)
        self._timer_of: dict = {}  # task -> seq of its live timer
        self._seq = itertools.count()
        self.watchers: list = []  # [handle, task, trigger, kind, count, last]
        self.readonly: list = []
        self.readwrite: list = []
        self.tasks: list = []
        self.in_readonly = False
        self.edge_fired_at: Optional[int] = None
        self.vcd_stop_pending = False
        self.clock_h: Optional[int] = None
        self.failure: Optional[tuple] = None

    # -- registration
    def _add_timer(self, t: int, task: Task, trig: Trigger) -> None:
        seq = next(self._seq)
        self._timer_of[task] = seq
        heapq.heappush(self.timers, (t, seq, task, trig))

    def _edge_time(self, n: int, kind: str) -> int:
        """Time of the ``n``-th clock edge of ``kind`` to come. An edge due now counts unless tasks
        already woke for it (as in an HDL simulator, where code running after an edge's callbacks
        sees that edge as past)."""
        return self.sim.edge_time(n, kind, self.now, self.edge_fired_at == self.now)

    def cycle(self) -> int:
        """Rising clock edges so far, counting one due now that tasks already woke for."""
        n = self.sim.rises()
        e = self.sim.next_edge()
        if e is not None and e[0] == self.now and e[1] and self.edge_fired_at == self.now:
            n += 1
        return n

    def _cancel_timer(self, task: Task) -> None:
        self._timer_of.pop(task, None)

    def _watch(self, h: int, task: Task, trig: Trigger, kind: str, count: int) -> None:
        self.watchers.append([h, task, trig, kind, count, self.sim.get(h)])

    def _unwatch(self, task: Task) -> None:
        self.watchers = [w for w in self.watchers if w[1] is not task]

    # -- running
    def _resume(self, task: Task, value, exc) -> None:
        if task._done:
            return
        task._trigger = None
        global _current
        try:
            trig = task._coro.throw(exc) if exc is not None else task._coro.send(value)
        except StopIteration as e:
            task._finish(e.value, None, self)
            return
        except BaseException as e:  # noqa: BLE001 - a task's failure is reported, not swallowed
            task._finish(None, e, self)
            if self.failure is None and task is not self.main:
                self.failure = (task, e)
            return
        if not isinstance(trig, Trigger):
            self.ready.append((task, None, TypeError(f"a task awaited {trig!r}, which is not a trigger")))
            return
        task._trigger = trig
        trig._prime(self, task)

    def _drain(self) -> None:
        while self.ready and self.failure is None and not self.main._done:
            task, value, exc = self.ready.popleft()
            self._resume(task, value, exc)

    def _stopped(self) -> bool:
        return self.main._done or self.failure is not None

    def _check_watchers(self) -> None:
        if not self.watchers:
            return
        keep = []
        for w in self.watchers:
            h, task, trig, kind, count, last = w
            v = self.sim.get(h)
            fired = False
            if v != last:
                if kind == "any" or (kind == "rise" and last == 0 and v == 1) or (kind == "fall" and last == 1 and v == 0):
                    count -= 1
                    fired = count == 0
                w[4], w[5] = count, v
            if fired:
                self.ready.append((task, trig, None))
            else:
                keep.append(w)
        self.watchers = keep

    def _step(self) -> None:
        """Processes the time step at ``self.now`` (tasks due now are in ``ready``)."""
        self._drain()
        if self._stopped():
            return
        self.sim.step_at(self.now)  # the clock edge due now, if any, then the writes; or the writes
        if self.vcd_stop_pending:
            self.vcd_stop_pending = False
            self.sim.vcd_stop()
        if not (self.watchers or self.readwrite or self.ready or self.readonly):
            return  # the common case: every task waits for a later moment
        for _ in range(10_000):
            self._check_watchers()
            if self.readwrite:
                self.ready.extend((t, g, None) for t, g in self.readwrite)
                self.readwrite = []
            if not self.ready:
                break
            self._drain()
            if self._stopped():
                return
            self.sim.apply(self.now)
        else:
            raise RuntimeError("tasks keep waking each other at the same time (zero-delay loop)")
        if self.readonly:
            ro, self.readonly = self.readonly, []
            self.in_readonly = True
            try:
                self.ready.extend((t, g, None) for t, g in ro)
                self._drain()
            finally:
                self.in_readonly = False

    def _advance(self) -> None:
        """Moves time to the next moment a task needs to wake, running the clock in Rust."""
        timers = self.timers
        if len(timers) == 1 and not self.watchers:
            # The common case, one live timer (e.g. the only task awaits a clock edge): no watch
            # list, no heap clean-up.
            t, seq, task, trig = timers[0]
            if self._timer_of.get(task) == seq and t - self.now <= self.CHUNK_PS:
                self.sim.advance(t, [])
                self.now = t
                timers.pop()
                del self._timer_of[task]
                self.ready.append((task, trig, None))
                if isinstance(trig, (_Edge, ClockCycles)):
                    self.edge_fired_at = t
                return
        while self.timers and self._timer_of.get(self.timers[0][2]) != self.timers[0][1]:
            heapq.heappop(self.timers)
        watch = sorted({w[0] for w in self.watchers}) if self.watchers else []
        if self.timers:
            t_next = self.timers[0][0]
            stop, t = None, self.now
            while stop is None and t < t_next:  # in chunks, so Ctrl-C gets through
                t = min(t_next, t + self.CHUNK_PS)
                stop = self.sim.advance(t, watch)
        elif watch and self.sim.clock_handle() is not None:
            stop = None
            while stop is None:
                t_next = self.now + self.CHUNK_PS
                stop = self.sim.advance(t_next, watch)
                self.now = t_next if stop is None else stop
        else:
            waiting = [t for t in self.tasks if not t._done]
            raise RuntimeError(
                "deadlock: no clock is running and no timer is pending; waiting: "
                + ", ".join(repr(t) for t in [self.main] + waiting if not t._done)
            )
        if stop is not None:
            self.now = stop
            self._check_watchers()
            return
        self.now = t_next
        while self.timers and self.timers[0][0] == t_next:
            _, seq, task, trig = heapq.heappop(self.timers)
            if self._timer_of.get(task) == seq:
                del self._timer_of[task]
                self.ready.append((task, trig, None))
                if isinstance(trig, (_Edge, ClockCycles)):
                    self.edge_fired_at = t_next

    def run(self, coro) -> Task:
        """Runs ``coro`` as the main task until it finishes or another task fails."""
        global _current
        self.main = Task(coro, getattr(coro, "__qualname__", "test"))
        self.ready.append((self.main, None, None))
        prev, _current = _current, self
        try:
            while True:
                self._step()
                if self._stopped():
                    break
                self._advance()
        finally:
            for t in self.tasks:
                if not t._done:
                    t._trigger = None
                    t._coro.close()
                    t._done = True
            if not self.main._done:
                self.main._coro.close()
            _current = prev
        return self.main
