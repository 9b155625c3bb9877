"""Captured values stay live: the globals and closure cells a traced function reads.

A trace turns what the function reads from its globals and closure cells into constants of the
compiled code. ``scan`` lists them when the function is traced (the function's own code, the
functions and lambdas defined inside it, and, transitively, the plain Python functions it reads
from its globals and cells); ``Captures.unchanged`` checks them before every later call:

- every value must be the same object (``is``), or an equal immutable one (numbers, strings,
  tuples of them);
- a small NumPy array (at most ``SMALL_ARRAY`` elements), list or dict is also compared by value,
  so changing it in place is seen; a bigger array is checked by identity only;
- a ``Generator`` or ``RandomState`` is not a constant: it is handed to the compiled code on
  every call (``random_streams``), only its type is checked.

Modules, functions and other objects are checked by identity. A change re-traces the function.
Defaults are arguments (``arguments.Binder``), except the keyword-only ones a call leaves out,
which are checked like globals; globals the function assigns are not captured.
"""
from __future__ import annotations

import dis
import types
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .random_streams import STREAM_TYPES

__all__ = ["Capture", "Captures", "scan", "rebound", "SMALL_ARRAY"]

SMALL_ARRAY = 256        # arrays with at most this many elements are compared by value on every call
_SMALL_CONTAINER = 32    # lists, dicts and tuples with at most this many items too
_MISSING = object()
_SCALARS = frozenset({int, float, complex, bool, str, bytes, type(None)})
_READS = {"LOAD_GLOBAL", "LOAD_NAME"}
_WRITES = {"STORE_GLOBAL", "DELETE_GLOBAL"}


class Capture:
    """One global or closure cell a trace read: where it lives and what it held."""

    __slots__ = ("where", "name", "read", "value", "fingerprint", "stream", "direct", "namespace", "cell",
                 "immutable")

    def __init__(self, where: str, name: str, read: Callable[[], Any], direct: bool,
                 namespace: dict | None = None, cell: Any = None) -> None:
        self.namespace = namespace    # a global's module namespace (for the fast path's inline check)
        self.cell = cell              # a closure's cell (likewise)
        self.where = where            # 'global', 'closure' or 'default'
        self.name = name
        self.read = read
        self.direct = direct          # read by the traced function itself (not by a function it calls)
        self.take(read())

    def take(self, value: Any) -> None:
        """Remember ``value`` as what later calls must find."""
        self.value = value
        self.stream = isinstance(value, STREAM_TYPES)
        self.fingerprint = None if self.stream else fingerprint(value)
        # the same object means unchanged: an immutable value, or one compared by identity only
        self.immutable = self.fingerprint is None or type(value) in _SCALARS or isinstance(value, np.generic)

    def __repr__(self) -> str:
        return f"<captured {self.where} {self.name!r}>"

    @property
    def by_identity(self) -> bool:
        """Whether the same object means unchanged (not a stream, not a small mutable value)."""
        return not self.stream and self.immutable

    def unchanged(self) -> bool:
        """Whether what the name holds now is what the trace read."""
        value = self.read()
        if self.stream:
            return type(value) is type(self.value)
        if value is self.value and self.immutable:
            return True
        known = self.fingerprint
        return known is not None and fingerprint(value) == known


def fingerprint(value: Any, depth: int = 0) -> Any:
    """A cheap, comparable summary of a small value (None: compare by identity only)."""
    kind = type(value)
    if kind in _SCALARS:
        return (kind, value)
    if kind is np.ndarray:
        return (value.dtype, value.shape, value.tobytes()) if value.size <= SMALL_ARRAY else None
    if isinstance(value, np.generic):
        return (kind, value.tobytes())
    if depth < 2 and isinstance(value, (tuple, list, dict)) and len(value) <= _SMALL_CONTAINER:
        items = value.items() if isinstance(value, dict) else enumerate(value)
        parts = tuple((k, fingerprint(v, depth + 1)) for k, v in items)
        if all(p is not None for _, p in parts):
            return (type(value), parts)
    return None


class Captures:
    """What one trace read from globals and closure cells."""

    def __init__(self, entries: list[Capture]) -> None:
        self.entries = entries
        self.streams = [c for c in entries if c.stream]

    def unchanged(self) -> bool:
        """True while every captured value is what the trace read (cost: one check per entry)."""
        for c in self.entries:
            if not c.unchanged():
                return False
        return True

    def refresh(self) -> None:
        """Take what the names hold now (after the trace, which may have changed them) as the values
        later calls must find."""
        for c in self.entries:
            c.take(c.read())

    def changed(self) -> list[str]:
        """The names that no longer hold what the trace read (for messages and tests)."""
        return [c.name for c in self.entries if not c.unchanged()]


def scan(f: Callable) -> Captures:
    """The globals and closure cells ``f`` (and the Python functions it reads) may read."""
    entries: list[Capture] = []
    seen: set[int] = set()
    todo = [(_function_of(f), True)]
    while todo:
        fn, direct = todo.pop()
        if fn is None or id(fn) in seen or len(seen) > 64:
            continue
        seen.add(id(fn))
        for capture in _captures_of(fn, direct):
            entries.append(capture)
            found = _function_of(capture.value)
            if found is not None and not _is_library(found):
                todo.append((found, False))
    return Captures(entries)


def _function_of(f: Any) -> types.FunctionType | None:
    f = getattr(f, "__func__", f)   # a bound method
    while not isinstance(f, types.FunctionType) and getattr(f, "__wrapped__", None) is not None:
        f = f.__wrapped__            # a GradientFunction, functools.wraps
    return f if isinstance(f, types.FunctionType) else None


def _is_library(fn: types.FunctionType) -> bool:
    module = fn.__module__ or ""
    return module.split(".")[0] in ("numpy", "s2sgrad", "scipy")


def _captures_of(fn: types.FunctionType, direct: bool) -> Iterator[Capture]:
    namespace = fn.__globals__
    reads, writes = set(), set()
    for code in _codes(fn.__code__):
        for ins in dis.get_instructions(code):
            if ins.opname in _READS:
                reads.add(ins.argval)
            elif ins.opname in _WRITES:
                writes.add(ins.argval)
    for name in sorted(reads - writes):
        if name in namespace:
            yield Capture("global", name, _global_reader(namespace, name), direct, namespace)
    if direct and fn.__kwdefaults__:  # keyword-only defaults the call left out are read by the function itself
        yield Capture("default", "__kwdefaults__", lambda: fn.__kwdefaults__, direct)
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=True):
        if _cell_reader(cell)() is _MISSING:   # not assigned yet (a name the function defines later)
            continue
        yield Capture("closure", name, _cell_reader(cell), direct, cell=cell)


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _global_reader(namespace: dict, name: str) -> Callable[[], Any]:
    return lambda: namespace.get(name, _MISSING)


def _cell_reader(cell: Any) -> Callable[[], Any]:
    def read() -> Any:
        try:
            return cell.cell_contents
        except ValueError:
            return _MISSING
    return read


def rebound(f: Callable, streams: dict[str, Any]) -> Callable | None:
    """``f`` reading ``streams`` (name -> TracedStream) instead of its global or closure Generators.
    Only a plain function or a bound method can be rebound; None for anything else."""
    fn = f.__func__ if isinstance(f, types.MethodType) else f
    if not isinstance(fn, types.FunctionType):
        return None
    namespace = fn.__globals__
    if any(name in namespace and name not in fn.__code__.co_freevars for name in streams):
        namespace = {**namespace, **{k: v for k, v in streams.items() if k not in fn.__code__.co_freevars}}
    cells = tuple(types.CellType(streams[name]) if name in streams else cell
                  for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=True))
    new = types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__, cells or None)
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__qualname__ = fn.__qualname__
    new.__module__ = fn.__module__
    return types.MethodType(new, f.__self__) if isinstance(f, types.MethodType) else new
