"""NumPy's constructors and list-taking functions, routed to tracing while a function is traced.

``np.array([a, b])``, ``np.zeros(3)`` and ``np.sum([a, b])`` do not reach NumPy's dispatch
protocols: their arguments are lists and shapes, not traced arrays. While a trace is active,
the names below in the ``numpy`` module are wrappers. Called from the user's code in the
tracing thread, they build traced values: lists and tuples of traced values become one
stacked array, ``np.zeros``/``ones``/``empty``/``full`` give a traced array that keeps its
concrete value until a traced value is written into it (so ``out[i] = f(x[i])`` in a loop
records the writes), ``np.r_``/``np.c_`` concatenate, and the ufuncs (``np.add``...) take
lists of traced values. Everywhere else (NumPy itself,
s2sgrad, other threads) they are NumPy's own functions. Only the ``numpy`` module's
attributes are routed, and the globals the traced function (and the Python functions it calls)
reads that hold NumPy's objects (``from numpy import zeros``): ``user_names`` routes those while
the function runs and restores them before its captured globals are taken (``captures``).
"""
from __future__ import annotations

import contextlib
import functools
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

from ..ops.convert import constant
from .convert import as_traced, cast_traced, contains_traced, graph_dtype
from .registry import FUNCTIONS, UFUNCS, unsupported
from .traced import Traced, _stack, on_activate

__all__ = ["routed", "user_names"]

_LOCK = threading.Lock()
_ACTIVE = [0]                     # traces active in any thread; the wrappers are installed while > 0
_ORIGINAL: dict[str, Any] = {}    # name in numpy -> NumPy's own object
_ALIASES: list[Any] = []        # the wrappers entered in FUNCTIONS while installed
_ROUTED: dict[int, Any] = {}      # id of NumPy's own object -> its wrapper, while installed
_FOREIGN = ("numpy", "s2sgrad")   # callers from these packages get NumPy's functions


def _from_user() -> bool:
    """The caller of the wrapper is the traced function (an active trace, a module outside NumPy/s2sgrad)."""
    if not _stack():
        return False
    name = sys._getframe(2).f_globals.get("__name__", "")
    return not any(name == p or name.startswith(p + ".") for p in _FOREIGN)


def _wrap(name: str, traced: Callable[..., Any], wanted: Callable[..., bool]) -> Callable[..., Any]:
    original = _ORIGINAL[name]

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if _from_user() and wanted(*args, **kwargs):
            return traced(*args, **kwargs)
        return original(*args, **kwargs)
    return wrapper


# -- np.array and friends -----------------------------------------------------------------------------

def _holds_traced(obj: Any = None, *args: Any, **kwargs: Any) -> bool:
    return contains_traced(obj)


def _array(obj: Any, dtype: Any = None, *, copy: Any = True, order: str = "K", subok: bool = False,
           ndmin: int = 0, like: Any = None) -> Traced:
    x = as_traced(obj)
    x = cast_traced(x, np.dtype(dtype)) if dtype is not None else (x.copy() if copy else x)
    if ndmin > x.ndim:
        x = np.reshape(x, (1,) * (ndmin - x.ndim) + x.shape)  # type: ignore[assignment]  # Traced dispatch
    return x


def _asarray(obj: Any, dtype: Any = None, order: str = "K", **kwargs: Any) -> Traced:
    return _array(obj, dtype, copy=False)


# -- pre-allocated arrays --------------------------------------------------------------------------------

def _filled(fill: Callable[..., np.ndarray]) -> Callable[..., Any]:
    def make(*args: Any, **kwargs: Any) -> Any:
        value = fill(*args, **kwargs)
        if value.dtype.kind not in "biufc":
            return value
        return Traced(constant(value, graph_dtype(value.dtype)), value=value)
    return make


def _full(shape: Any, fill_value: Any, dtype: Any = None, order: str = "C", **kwargs: Any) -> Any:
    if not contains_traced(fill_value):
        return _filled(_ORIGINAL["full"])(shape, fill_value, dtype, order, **kwargs)
    value = as_traced(fill_value, None if dtype is None else np.dtype(dtype))
    return np.broadcast_to(value, shape).copy()


def _concrete_prototype(prototype: Any = None, *args: Any, **kwargs: Any) -> bool:
    return not any(contains_traced(v) for v in (prototype, args, kwargs.get("fill_value")))


def _always(*args: Any, **kwargs: Any) -> bool:
    return True


# -- lists passed to functions that dispatch on their first argument only --------------------------------

def _first_holds_traced(*args: Any, **kwargs: Any) -> bool:
    return bool(args) and isinstance(args[0], (list, tuple)) and contains_traced(args[0])


_LIST_TAKING = ("sum", "mean", "prod", "max", "min", "amax", "amin", "std", "var", "any", "all", "cumsum",
                "cumprod", "average", "dot", "vdot", "inner", "outer", "trace", "diag", "ravel", "squeeze",
                "atleast_1d", "atleast_2d", "atleast_3d", "argmax", "argmin", "ptp", "median", "cross", "kron",
                "diff", "flip", "sort", "abs", "real", "imag", "angle", "conj", "conjugate", "einsum")


def _listed(func: Callable[..., Any]) -> Callable[..., Any]:
    impl = FUNCTIONS[func]

    def call(first: Any, *args: Any, **kwargs: Any) -> Any:
        return impl(as_traced(first), *args, **kwargs)
    return call


# -- ufuncs called on lists of traced values -----------------------------------------------------------

def _stacked(args: tuple, first: int = 0) -> tuple:
    """``args`` with every list or tuple holding traced values (from ``first`` on) as one traced array."""
    return tuple(as_traced(v) if i >= first and isinstance(v, (list, tuple)) and contains_traced(v) else v
                 for i, v in enumerate(args))


class _ListTakingUfunc:
    """A ufunc whose list arguments holding traced values become traced arrays first (NumPy would try
    to make NumPy arrays of them): ``np.add([a, b], 1)``, ``np.maximum.reduce([a, b])``. Everything
    else is the ufunc's own."""

    _METHODS = ("reduce", "accumulate", "outer", "at", "reduceat")

    def __init__(self, ufunc: np.ufunc) -> None:
        self._ufunc = ufunc

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._ufunc(*(_stacked(args) if _stack() else args), **kwargs)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._ufunc, name)
        if name not in self._METHODS:
            return attr
        first = 1 if name == "at" else 0   # ufunc.at writes into its first argument: not a copy of it

        def method(*args: Any, **kwargs: Any) -> Any:
            return attr(*(_stacked(args, first) if _stack() else args), **kwargs)
        return method

    def __repr__(self) -> str:
        return repr(self._ufunc)


# -- np.r_ and np.c_ ---------------------------------------------------------------------------------------

class _Concatenator:
    """``np.r_[...]`` (``column=False``) or ``np.c_[...]`` over traced values, arrays, scalars and slices."""

    def __init__(self, original: Any, column: bool) -> None:
        self.original, self.column = original, column

    def __getitem__(self, key: Any) -> Any:
        items = key if isinstance(key, tuple) else (key,)
        if not _from_user() or not any(contains_traced(i) for i in items):
            return self.original[key]
        if any(isinstance(i, str) for i in items):
            raise unsupported("np.r_/np.c_ with a string directive", "Use np.concatenate or np.stack.")
        parts = [self._part(i) for i in items]
        return np.concatenate(parts, axis=-1 if self.column else 0)

    def _part(self, item: Any) -> Any:
        if isinstance(item, slice):
            item = self.original[item]
        x = as_traced(item)
        if not self.column:
            return np.reshape(x, (1,)) if x.ndim == 0 else x
        if x.ndim < 2:
            return np.reshape(x, (-1, 1))   # NumPy's c_: 1-d (and scalar) items become columns
        return x

    def __len__(self) -> int:
        return 0


def _install() -> None:
    table: dict[str, tuple[Callable[..., Any], Callable[..., bool]]] = {
        "array": (_array, _holds_traced), "asarray": (_asarray, _holds_traced),
        "asanyarray": (_asarray, _holds_traced), "ascontiguousarray": (_asarray, _holds_traced),
    }
    for name in ("zeros", "ones", "empty", "eye", "identity"):
        table[name] = (_filled(getattr(np, name)), _always)
    for name in ("zeros_like", "ones_like", "empty_like", "full_like"):  # of a NumPy array (a traced one dispatches)
        table[name] = (_filled(getattr(np, name)), _concrete_prototype)
    table["full"] = (_full, _always)
    for name in _LIST_TAKING:
        if getattr(np, name, None) in FUNCTIONS:
            table[name] = (_listed(getattr(np, name)), _first_holds_traced)
    for name, (traced, wanted) in table.items():
        _ORIGINAL[name] = original = getattr(np, name)
        wrapper = _ROUTED[id(original)] = _wrap(name, traced, wanted)
        if original in FUNCTIONS:  # code reading FUNCTIONS[np.sum] while the wrapper is np.sum finds it
            FUNCTIONS[wrapper] = FUNCTIONS[original]
            _ALIASES.append(wrapper)
        setattr(np, name, wrapper)
    for name, value in vars(np).items():
        if isinstance(value, np.ufunc) and value in UFUNCS:
            _ORIGINAL[name] = value
            setattr(np, name, _ROUTED.setdefault(id(value), _ListTakingUfunc(value)))
    for name, column in (("r_", False), ("c_", True)):
        _ORIGINAL[name] = getattr(np, name)
        setattr(np, name, _Concatenator(_ORIGINAL[name], column))


def _uninstall() -> None:
    for name, original in _ORIGINAL.items():
        setattr(np, name, original)
    _ORIGINAL.clear()
    _ROUTED.clear()
    for wrapper in _ALIASES:
        del FUNCTIONS[wrapper]
    _ALIASES.clear()


@contextlib.contextmanager
def routed() -> Iterator[None]:
    """NumPy's constructors routed to tracing while the block runs (nested and threaded uses count)."""
    with _LOCK:
        if _ACTIVE[0] == 0:
            _install()
        _ACTIVE[0] += 1
    try:
        yield
    finally:
        with _LOCK:
            _ACTIVE[0] -= 1
            if _ACTIVE[0] == 0:
                _uninstall()


@contextlib.contextmanager
def user_names(globals_read: Iterable[tuple[dict, str]]) -> Iterator[None]:
    """While the block runs, the ``(namespace, name)`` globals holding NumPy's routed objects hold
    their wrappers (``from numpy import zeros`` done before the trace); then NumPy's objects again."""
    with _LOCK:
        swapped = [(ns, name, ns[name]) for ns, name in globals_read if id(ns.get(name)) in _ROUTED]
        for ns, name, original in swapped:
            ns[name] = _ROUTED[id(original)]
    try:
        yield
    finally:
        for ns, name, original in swapped:
            ns[name] = original


on_activate(routed)
