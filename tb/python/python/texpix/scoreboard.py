"""In-order scoreboard: expected results from the golden model, actual ones from the DUT."""

from __future__ import annotations

import json
from collections import deque
from typing import Any, Callable, Optional

from . import golden


class ScoreboardError(AssertionError):
    """The first mismatch (or a missing/extra result), with the input and both outputs."""


def _show(x: Any) -> str:
    return json.dumps(x, sort_keys=True) if isinstance(x, (dict, list)) else repr(x)


class Scoreboard:
    """Compares results in order. ``expect(vector)`` queues the golden result of a vector (of
    ``unit``) or ``expect(vector, result)`` a given one; ``check(actual)`` compares the oldest.
    ``compare`` (default ``==``) may be replaced, e.g. to compare a subset of fields."""

    def __init__(self, unit: Optional[str] = None, compare: Optional[Callable[[Any, Any], bool]] = None,
                 fail_fast: bool = True):
        self.unit = unit
        self.compare = compare or (lambda exp, act: exp == act)
        self.fail_fast = fail_fast
        self.pending: deque = deque()
        self.matched = 0
        self.errors: list = []

    def expect(self, vector, result=None) -> None:
        if result is None:
            if self.unit is None:
                raise ValueError("Scoreboard(unit=...) is needed to compute golden results")
            result = golden.run(self.unit, vector)
        self.pending.append((vector, result))

    def check(self, actual, cycle: Optional[int] = None) -> None:
        n = self.matched + len(self.errors)
        if not self.pending:
            self._fail(f"result {n}{_at(cycle)}: unexpected output {_show(actual)} (nothing was expected)")
            return
        vector, exp = self.pending.popleft()
        if self.compare(exp, actual):
            self.matched += 1
        else:
            self._fail(f"result {n}{_at(cycle)}: mismatch\n  input:    {_show(vector)}\n"
                       f"  expected: {_show(exp)}\n  actual:   {_show(actual)}")

    def _fail(self, msg: str) -> None:
        self.errors.append(msg)
        if self.fail_fast:
            raise ScoreboardError(msg)

    def finish(self) -> None:
        """Fails if anything mismatched or an expected result never came."""
        if self.pending:
            self._fail(f"{len(self.pending)} expected result(s) never arrived; first input: "
                       f"{_show(self.pending[0][0])}")
        if self.errors:
            raise ScoreboardError(f"{len(self.errors)} error(s); first: {self.errors[0]}")


def _at(cycle) -> str:
    return f" (cycle {cycle})" if cycle is not None else ""
