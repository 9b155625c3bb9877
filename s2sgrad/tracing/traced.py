"""Traced values: NumPy-looking arrays that record graph ops while a plain NumPy function runs.

A ``Traced`` wraps a graph Tensor of a private Graph (the active ``Trace``). NumPy hands
every ufunc call to ``__array_ufunc__`` and every other public function to
``__array_function__``; both look the function up in ``registry`` and record the
equivalent graph ops. Shapes are concrete (each signature is traced separately), so
``x.shape``, ``len(x)`` and loops over ``range(n)`` are ordinary Python. Anything that would
need a value, such as ``if x > 0:``, raises ``TracedValueError`` at the user's line.
"""
from __future__ import annotations

import contextlib
import operator
import threading
import weakref
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from ..ssa.graph import Graph, Tensor
from .registry import FUNCTIONS, unsupported, user_line

__all__ = ["Trace", "Traced", "TracedValueError", "current_trace", "on_activate"]

_REAL, _IMAG = np.real, np.imag  # NumPy's own (``numpy_hooks`` routes the module's names while tracing)
_ACTIVATION: list[Callable[[], contextlib.AbstractContextManager]] = []


def on_activate(hook: Callable[[], contextlib.AbstractContextManager]) -> None:
    """Enter ``hook()`` around every active trace (``numpy_hooks`` routes NumPy's constructors)."""
    _ACTIVATION.append(hook)


class TracedValueError(TypeError):
    """A traced value was used where Python needs its concrete value (``if``, ``float()``...)."""


class Trace:
    """One run of a user function: the private Graph it records into and its captured arrays."""

    def __init__(self, graph: Graph | None = None) -> None:
        self.graph = graph if graph is not None else Graph()
        self._arrays: dict[tuple, tuple[Any, Tensor]] = {}

    def captured(self, value: np.ndarray, dtype: np.dtype, make: Any) -> Tensor:
        """One Const per captured array (and dtype), however often the function reads it."""
        key = (id(value), dtype.str)
        hit = self._arrays.get(key)
        if hit is None or hit[0] is not value:
            with self.graph._outside_blocks():  # a branch or loop body may read it first; all may read it
                hit = self._arrays[key] = (value, make())
        return hit[1]

    @contextlib.contextmanager
    def active(self) -> Iterator[Trace]:
        """Make this the current trace of the thread, recording into its graph."""
        _stack().append(self)
        try:
            with contextlib.ExitStack() as hooks, self.graph.as_default():
                for hook in _ACTIVATION:
                    hooks.enter_context(hook())
                yield self
        finally:
            _stack().pop()


class _Local(threading.local):
    def __init__(self) -> None:
        self.traces: list[Trace] = []


_local = _Local()


def _stack() -> list[Trace]:
    return _local.traces


def current_trace() -> Trace:
    """The innermost active trace of this thread (RuntimeError when none is)."""
    if not _local.traces:
        raise RuntimeError("no s2sgrad trace is active: traced values only live while a function is traced")
    return _local.traces[-1]


def _value_error(what: str, hint: str) -> TracedValueError:
    return TracedValueError(
        f"{what} at {user_line()}: while s2sgrad traces the function, arrays have shapes but no values. "
        f"{hint}")


_BOOL_HINT = ("s2sgrad turns the `if`/`while`/`for` statements of a function whose source it can read into "
              "graph control flow, but not this use of an array's truth value (a conditional expression, an "
              "`assert`, `and`/`or` outside a condition, a lambda); use np.where(condition, a, b) to choose "
              "elementwise, or np.maximum/np.minimum/np.clip. Branching on shapes and on Python numbers is fine.")
_NUMBER_HINT = ("Keep the value as an array (np.float64 arithmetic works on traced arrays), or pass the number "
                "as a Python int/float argument that is not differentiated.")


class Traced:
    """An array being traced: ``.shape``, ``.dtype``, operators and NumPy functions record ops.

    ``weak`` marks values that came from Python floats/ints: like Python scalars in NumPy 2,
    they adopt the dtype of the arrays they meet. ``base`` is the array this one is a view of
    and ``locate`` (when known) gives, for each of its elements, the flat position in ``base``
    it shares (for in-place assignment with NumPy's aliasing, in ``indexing``). ``value`` is the
    concrete array while one is known: an array made by ``np.zeros``/``np.ones``/... in the
    function, until a traced value is written into it; Python may then use its values.
    """

    __slots__ = ("tensor", "weak", "base", "locate", "value", "_views", "__weakref__")
    # like ndarray: elementwise ==, so not hashable. Python's way to say so; mypy reads it as replacing
    # object.__hash__ with a non-callable (typeshed's own list/dict ignore the same error)
    __hash__ = None  # type: ignore[assignment]

    if TYPE_CHECKING:  # operators: set by ``tracing.ufuncs``; the rest by ``tracing.methods.install``
        def __add__(self, other: object) -> Traced: ...
        def __radd__(self, other: object) -> Traced: ...
        def __iadd__(self, other: object) -> Traced: ...
        def __sub__(self, other: object) -> Traced: ...
        def __rsub__(self, other: object) -> Traced: ...
        def __isub__(self, other: object) -> Traced: ...
        def __mul__(self, other: object) -> Traced: ...
        def __rmul__(self, other: object) -> Traced: ...
        def __imul__(self, other: object) -> Traced: ...
        def __truediv__(self, other: object) -> Traced: ...
        def __rtruediv__(self, other: object) -> Traced: ...
        def __itruediv__(self, other: object) -> Traced: ...
        def __floordiv__(self, other: object) -> Traced: ...
        def __rfloordiv__(self, other: object) -> Traced: ...
        def __ifloordiv__(self, other: object) -> Traced: ...
        def __mod__(self, other: object) -> Traced: ...
        def __rmod__(self, other: object) -> Traced: ...
        def __imod__(self, other: object) -> Traced: ...
        def __pow__(self, other: object) -> Traced: ...
        def __rpow__(self, other: object) -> Traced: ...
        def __ipow__(self, other: object) -> Traced: ...
        def __matmul__(self, other: object) -> Traced: ...
        def __rmatmul__(self, other: object) -> Traced: ...
        def __imatmul__(self, other: object) -> Traced: ...
        def __and__(self, other: object) -> Traced: ...
        def __rand__(self, other: object) -> Traced: ...
        def __iand__(self, other: object) -> Traced: ...
        def __or__(self, other: object) -> Traced: ...
        def __ror__(self, other: object) -> Traced: ...
        def __ior__(self, other: object) -> Traced: ...
        def __xor__(self, other: object) -> Traced: ...
        def __rxor__(self, other: object) -> Traced: ...
        def __ixor__(self, other: object) -> Traced: ...
        def __lt__(self, other: object) -> Traced: ...
        def __le__(self, other: object) -> Traced: ...
        def __gt__(self, other: object) -> Traced: ...
        def __ge__(self, other: object) -> Traced: ...
        def __eq__(self, other: object) -> Any: ...  # elementwise, a Traced (object's says bool)
        def __ne__(self, other: object) -> Any: ...
        def __neg__(self) -> Traced: ...
        def __pos__(self) -> Traced: ...
        def __abs__(self) -> Traced: ...
        def __invert__(self) -> Traced: ...
        def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any: ...
        def __getitem__(self, key: object) -> Traced: ...
        def __setitem__(self, key: Any, value: Any) -> None: ...
        def astype(self, dtype: Any, order: str = "K", casting: str = "unsafe", subok: bool = True,
                   copy: bool = True) -> Traced: ...

    def __init__(self, tensor: Tensor, weak: bool = False, base: Traced | None = None,
                 locate: Callable[[], np.ndarray] | None = None, value: np.ndarray | None = None) -> None:
        self.tensor = tensor
        self.weak = weak
        self.base = base
        self.locate = locate
        self.value = value
        self._views: list[weakref.ref] = []
        if base is not None:
            base._views.append(weakref.ref(self))

    # -- metadata (static: known while tracing) ---------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self.tensor.shape.known_sizes()  # traced values have concrete shapes

    @property
    def dtype(self) -> np.dtype:
        return self.tensor.dtype.np

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    @property
    def T(self) -> Traced:  # NumPy's name
        return FUNCTIONS[np.transpose](self)

    @property
    def real(self) -> Traced:
        return FUNCTIONS[_REAL](self)

    @property
    def imag(self) -> Traced:
        return FUNCTIONS[_IMAG](self)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self) -> Iterator[Traced]:
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def __repr__(self) -> str:
        op = self.tensor.op
        return f"Traced(shape={self.shape}, dtype={self.dtype}, op={op.type!r} at {op.where})"

    def live_views(self) -> list[Traced]:
        """The views of this array that are still alive (the others are forgotten)."""
        views = [v for v in (r() for r in self._views) if v is not None]
        self._views = [weakref.ref(v) for v in views]
        return views

    # -- NumPy dispatch (``__array_ufunc__``, indexing and ``astype`` are set by methods.py) ---------
    def __array_function__(self, func: Any, types: Any, args: tuple, kwargs: dict) -> Any:
        impl = FUNCTIONS.get(func)
        if impl is None:
            concrete = [_concrete(v) for v in args]
            if all(c is not _UNKNOWN for c in concrete):  # only arrays with known values: plain NumPy
                return func(*concrete, **kwargs)
            raise unsupported(func)
        return impl(*args, **kwargs)

    # -- places that need a concrete value ----------------------------------------------------------
    def __bool__(self) -> bool:
        if self.value is not None:
            return bool(self.value)
        raise _value_error("The truth value of a traced array is unknown", _BOOL_HINT)

    def __float__(self) -> float:
        if self.value is not None:
            return float(self.value)
        raise _value_error("A traced array was converted to a Python float (float(x), math.* functions, or "
                           "storing it into an element of a NumPy array made outside the function)", _NUMBER_HINT)

    def __int__(self) -> int:
        if self.value is not None:
            return int(self.value)
        raise _value_error("int() of a traced array", _NUMBER_HINT)

    def __complex__(self) -> complex:
        if self.value is not None:
            return complex(self.value)
        raise _value_error("complex() of a traced array", _NUMBER_HINT)

    def __index__(self) -> int:
        if self.value is not None:
            return operator.index(self.value)
        raise _value_error("A traced array was used as a Python index or size (range(), list index, shape)",
                           _NUMBER_HINT)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        if self.value is not None:
            return self.value.astype(self.value.dtype if dtype is None else dtype)
        raise _value_error(
            "A traced array cannot become a concrete NumPy array (np.asarray/np.array/np.float64(...) where "
            "s2sgrad does not see the call, or storing it into an array made outside the function)",
            "Pass arrays through unchanged, build arrays from traced parts with np.array([...]), np.stack or "
            "np.concatenate, and create the arrays you assign into inside the function (np.zeros, np.empty, "
            "np.zeros_like(x)): those accept traced values.")

    def item(self, *args: Any) -> Any:
        if self.value is not None:
            return self.value.item(*args)
        raise _value_error(".item() of a traced array", _NUMBER_HINT)

    def tolist(self) -> Any:
        if self.value is not None:
            return self.value.tolist()
        raise _value_error(".tolist() of a traced array", _NUMBER_HINT)

    # -- ndarray methods: the same implementations as the NumPy functions ---------------------------
    def _call(self, func: Any, *args: Any, **kwargs: Any) -> Any:
        return FUNCTIONS[func](self, *args, **kwargs)

    def reshape(self, *shape: Any, order: str = "C") -> Traced:
        return self._call(np.reshape, shape[0] if len(shape) == 1 else shape, order=order)

    def transpose(self, *axes: Any) -> Traced:
        return self._call(np.transpose, axes[0] if len(axes) == 1 else (axes or None))

    def copy(self, order: str = "C") -> Traced:
        return Traced(self.tensor, self.weak)

    def flatten(self, order: str = "C") -> Traced:
        return self._call(np.reshape, -1, order=order).copy()

    def fill(self, value: Any) -> None:
        """Like ``ndarray.fill``: every element becomes ``value`` (in place)."""
        self[...] = value

    def conj(self) -> Traced:
        return np.conjugate(self)  # type: ignore[return-value]  # __array_ufunc__ gives a Traced

    conjugate = conj

    def __round__(self, ndigits: int | None = None) -> Traced:
        return FUNCTIONS[np.round](self, ndigits or 0)

    def __getattr__(self, name: str) -> Any:
        if not name.startswith("__") and hasattr(np.ndarray, name):
            raise unsupported(f"ndarray.{name}")
        raise AttributeError(f"'Traced' object has no attribute {name!r}")

    def __copy__(self) -> Traced:
        return self.copy()

    def __deepcopy__(self, memo: dict) -> Traced:
        return self.copy()


_UNKNOWN = object()


def _concrete(v: Any) -> Any:
    """``v`` with its concrete value if it is a Traced that has one; ``_UNKNOWN`` for other traced values."""
    if isinstance(v, Traced):
        return _UNKNOWN if v.value is None else v.value
    return v


def _method(func: Any) -> Any:
    def method(self: Traced, *args: Any, **kwargs: Any) -> Any:
        return FUNCTIONS[func](self, *args, **kwargs)
    method.__name__ = func.__name__
    method.__doc__ = f"Like ``ndarray.{func.__name__}``."
    return method


for _func in (np.sum, np.mean, np.prod, np.std, np.var, np.any, np.all, np.argmax, np.argmin, np.cumsum,
              np.cumprod, np.ravel, np.swapaxes, np.squeeze, np.clip, np.dot, np.round, np.trace, np.diagonal,
              np.repeat, np.take, np.max, np.min):
    setattr(Traced, _func.__name__, _method(_func))
