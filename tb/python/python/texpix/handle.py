"""The ``dut`` object: every signal of a unit as an attribute, by its exported Verilog name.

Top-level ports are attributes of ``dut`` (``dut.in_valid``, array elements as ``dut.in_pos_3``);
internal signals are reached through their hierarchy (``dut.stage1.q``) or ``dut["stage1.q"]``.
Handles are resolved once, when the ``dut`` is built.
"""

from __future__ import annotations

import difflib
import logging
from typing import Dict, Iterator, Optional

from . import _sched


class LogicValue(int):
    """A signal's value: an ``int`` (unsigned) that also knows its width."""

    __slots__ = ()
    n_bits: int = 0

    def __new__(cls, value: int, n_bits: int):
        return int.__new__(_sized(n_bits), value)

    @property
    def integer(self) -> int:
        return int(self)

    @property
    def signed_integer(self) -> int:
        v = int(self)
        return v - (1 << self.n_bits) if self.n_bits and v >> (self.n_bits - 1) else v

    def to_unsigned(self) -> int:
        return int(self)

    def to_signed(self) -> int:
        return self.signed_integer

    @property
    def binstr(self) -> str:
        return format(int(self), f"0{self.n_bits}b")

    def __len__(self) -> int:
        return self.n_bits

    def __repr__(self) -> str:
        return f"LogicValue({int(self)}, n_bits={self.n_bits})"

    def __str__(self) -> str:
        return self.binstr


_SIZED: Dict[int, type] = {}


def _sized(n_bits: int) -> type:
    """The ``LogicValue`` class of one width: the width is a class attribute and construction is
    ``int``'s own, so reading a signal builds no per-value dictionary."""
    c = _SIZED.get(n_bits)
    if c is None:
        c = _SIZED[n_bits] = type("LogicValue", (LogicValue,),
                                   {"__slots__": (), "n_bits": n_bits, "__new__": int.__new__})
    return c


class SignalHandle:
    """One signal. ``.value`` reads the settled value; assigning it queues a write (inputs only)."""

    __slots__ = ("_dut", "_h", "_path", "_name", "_bits", "_role", "_set", "_get", "_lv", "_may_clock")

    def __init__(self, dut: "Dut", h: int, path: str, bits: int, role: str):
        self._dut, self._h, self._path, self._bits, self._role = dut, h, path, bits, role
        self._name = path.rsplit(".", 1)[-1]
        self._set, self._get, self._lv = dut._sim.set, dut._sim.get, _sized(bits)
        self._may_clock = role == "in" and bits == 1

    @property
    def value(self) -> LogicValue:
        if self._may_clock:
            s = _sched._current
            if s is not None and self._h == s.clock_h and s.edge_fired_at == s.now:
                # Tasks resume at a clock edge before Rust executes it; the clock already shows its
                # new level, as in an HDL simulator.
                e = s.sim.next_edge()
                if e is not None and e[0] == s.now:
                    return LogicValue(int(e[1]), 1)
        return self._lv(self._get(self._h))

    @value.setter
    def value(self, v) -> None:
        s = _sched._current
        if s is not None and s.in_readonly:
            raise RuntimeError(f"{self._path}: writes are not allowed in the ReadOnly phase")
        if self._role != "in":
            what = "an output" if self._role == "out" else "an internal signal"
            raise TypeError(f"{self._path} is {what}: only top-level inputs can be written")
        self._set(self._h, int(v) if v.__class__ is bool else v)

    def setimmediatevalue(self, v) -> None:
        """Writes and settles at once, without waiting for the end of the time step."""
        self.value = v
        s = _sched._current
        self._dut._sim.apply(s.now if s is not None else 0)

    def __len__(self) -> int:
        return self._bits

    @property
    def _type(self) -> str:
        return {"in": "input", "out": "output"}.get(self._role, "internal")

    def __int__(self) -> int:
        return int(self.value)

    def __repr__(self) -> str:
        return f"<{self._type} {self._path}[{self._bits}] = {int(self.value)}>"


class Scope:
    """A level of the hierarchy: its signals and sub-scopes as attributes."""

    def __init__(self, dut: "Dut", path: str):
        object.__setattr__(self, "_dut", dut)
        object.__setattr__(self, "_path", path)
        object.__setattr__(self, "_children", {})

    def _publish(self) -> None:
        """Puts the children in the instance dictionary, so ``dut.name`` is found by Python's own
        attribute lookup (no ``__getattr__`` call); names of methods stay reachable by ``[name]``."""
        for name, child in self._children.items():
            if not hasattr(type(self), name) and name not in self.__dict__:
                self.__dict__[name] = child
            if isinstance(child, Scope):
                child._publish()

    def __getattr__(self, name: str):
        try:
            return self._children[name]
        except KeyError:
            pass
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(self._dut._missing(self._path, name))

    def __setattr__(self, name: str, value) -> None:
        if name in self._children:
            raise AttributeError(f"assign to {name}.value, not to the handle {name}")
        raise AttributeError(self._dut._missing(self._path, name))

    def __dir__(self):
        return list(self._children)

    def __iter__(self) -> Iterator:
        return iter(self._children.values())

    def _id(self, name: str, extended: bool = True):
        return self[name]

    def __getitem__(self, path: str):
        node = self
        for part in path.split("."):
            node = getattr(node, part)
        return node

    def __repr__(self) -> str:
        return f"<scope {self._path or self._dut._name} ({len(self._children)} children)>"


class Dut(Scope):
    """The unit under test, built from the Rust simulator's signal table."""

    def __init__(self, sim, name: str):
        super().__init__(self, "")
        object.__setattr__(self, "_sim", sim)
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_all", {})
        object.__setattr__(self, "_log", logging.getLogger(f"texpix.{name}"))
        all_: Dict[str, SignalHandle] = self._all
        for h, (path, bits, role) in enumerate(sim.signals()):
            parts = path.split(".")
            node: Scope = self
            prefix = []
            for p in parts[:-1]:
                prefix.append(p)
                child = node._children.get(p)
                if not isinstance(child, Scope):
                    child = Scope(self, ".".join(prefix))
                    node._children[p] = child
                node = child
            handle = SignalHandle(self, h, path, bits, role)
            node._children.setdefault(parts[-1], handle)
            all_.setdefault(path, handle)
        self._publish()

    def _missing(self, scope: str, name: str) -> str:
        full = f"{scope}.{name}" if scope else name
        names = list(self._all) + [k for k in self._children]
        here = [k for k in (self._children if not scope else self[scope]._children)]
        close = difflib.get_close_matches(name, here, n=4, cutoff=0.5)
        close += [c for c in difflib.get_close_matches(full, names, n=4, cutoff=0.6) if c not in close]
        hint = f"; closest: {', '.join(close[:5])}" if close else ""
        return f"{self._name} has no signal or scope `{full}`{hint}"

    def signals(self, role: Optional[str] = None):
        """All handles (optionally only ``in``, ``out`` or ``internal``)."""
        return [h for h in self._all.values() if role is None or h._role == role]
