"""pytest integration (registered through the ``pytest11`` entry point): ``@texpix.test()``
functions in collected modules become pytest items, one freshly built unit each."""

from __future__ import annotations

import pytest

from .regression import Test, run_test


class TexpixItem(pytest.Item):
    """One ``@texpix.test()`` coroutine run on the Rust simulator."""

    def __init__(self, *, test: Test, **kw):
        super().__init__(**kw)
        self.test = test

    def runtest(self) -> None:
        r = run_test(self.test)
        self.user_properties.append(("cycles", r.cycles))
        self.user_properties.append(("sim_time_ns", r.sim_time_ns))
        if r.skipped:
            pytest.skip("skipped by @texpix.test(skip=True)")
        if not r.passed:
            if r.error is not None:
                raise r.error
            raise AssertionError(r.message)

    def reportinfo(self):
        return self.path, None, f"{self.name} [texpix: {self.test.resolve_toplevel()}]"


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector, name, obj):
    if isinstance(obj, Test):
        return TexpixItem.from_parent(collector, name=name, test=obj)
    return None
