"""The methods of NumPy's ufuncs on traced values: ``reduce``, ``accumulate``, ``outer``, ``at``.

Reductions and scans with a vectorized equivalent use it (``np.add.reduce`` is ``np.sum``,
``np.logaddexp.reduce`` a stable log-sum-exp, ``np.add.accumulate`` is ``np.cumsum``); any other
binary ufunc is folded along the axis, one traced call per element of the axis (fine for
short axes; the generated code shows one line per step). ``ufunc.at`` with constant indices
writes into the traced array in place: ``add``/``subtract`` as one segment sum (repeated
indices accumulate, as in NumPy), other ufuncs one position at a time.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..ops import array_ops as a
from ..ops.convert import constant
from .convert import as_traced, cast_traced
from .indexing import assign_all
from .reductions import normalize_axes
from .registry import FUNCTIONS, unsupported
from .traced import Traced
from .ufuncs import call

__all__ = ["apply"]


def _logsumexp(exp: Callable, log: Callable) -> Callable:
    def reduce(x: Traced, axis: Any, keepdims: bool) -> Traced:
        top = FUNCTIONS[np.max](x, axis=axis, keepdims=True)
        top = Traced(a.stop_gradient(FUNCTIONS[np.where](np.isfinite(top), top, 0.0).tensor))  # no overflow
        total = log(FUNCTIONS[np.sum](exp(x - top), axis=axis, keepdims=True)) + top
        return total if keepdims else FUNCTIONS[np.squeeze](total, axis=axis)
    return reduce


def _named(func: Callable) -> Callable:
    return lambda x, axis, keepdims: FUNCTIONS[func](x, axis=axis, keepdims=keepdims)


_REDUCTIONS: dict[np.ufunc, Callable[..., Any]] = {
    np.add: _named(np.sum), np.multiply: _named(np.prod), np.maximum: _named(np.max), np.minimum: _named(np.min),
    np.logical_and: _named(np.all), np.logical_or: _named(np.any),
    np.logaddexp: _logsumexp(np.exp, np.log), np.logaddexp2: _logsumexp(np.exp2, np.log2)}
_SCANS: dict[np.ufunc, Callable[..., Any]] = {np.add: np.cumsum, np.multiply: np.cumprod}
_SEGMENT_SUMS = (np.add, np.subtract)  # NumPy's ufuncs (while tracing, np.add is numpy_hooks' list-taking one)


def apply(ufunc: np.ufunc, method: str, inputs: tuple, kwargs: dict) -> Any:
    """``Traced.__array_ufunc__``: calls and the ufunc methods."""
    if method == "__call__":
        return call(ufunc, inputs, kwargs)
    if method == "outer" and len(inputs) == 2:
        x, y = inputs
        x = FUNCTIONS[np.reshape](x, np.shape(x) + (1,) * np.ndim(y))
        return call(ufunc, (x, y), kwargs)
    if ufunc.nin != 2 and method != "at":
        raise unsupported(f"numpy.{ufunc.__name__}.{method}", "Only binary ufuncs have it.")
    if method == "reduce" and len(inputs) == 1:
        return _reduce(ufunc, inputs[0], **kwargs)
    if method == "accumulate" and len(inputs) == 1:
        return _accumulate(ufunc, inputs[0], **kwargs)
    if method == "at":
        return _at(ufunc, *inputs)
    raise unsupported(f"numpy.{ufunc.__name__}.{method}")


def _fold(ufunc: np.ufunc, x: Traced, axis: int, start: Any) -> list[Traced]:
    """The running results of ``ufunc`` along ``axis``: ``[x0, f(x0, x1), ...]``."""
    lead = (slice(None),) * axis
    acc = x[lead + (0,)] if start is np._NoValue else call(ufunc, (start, x[lead + (0,)]), {})
    steps = [acc]
    for i in range(1, x.shape[axis]):
        acc = call(ufunc, (acc, x[lead + (i,)]), {})
        steps.append(acc)
    return steps


def _reduce(ufunc: np.ufunc, array: Any, axis: Any = 0, dtype: Any = None, out: Any = None,
            keepdims: bool = False, initial: Any = np._NoValue, where: Any = True) -> Traced:
    x = as_traced(array)
    if out is not None or where is not True:
        raise unsupported(f"numpy.{ufunc.__name__}.reduce with out= or where=")
    if dtype is not None:
        x = cast_traced(x, np.dtype(dtype))
    if ufunc in _REDUCTIONS and initial is np._NoValue:
        return _REDUCTIONS[ufunc](x, axis, bool(keepdims))
    axes = normalize_axes(axis, x.ndim)
    axes = tuple(range(x.ndim)) if axes is None else axes
    result = x
    for ax in sorted(axes, reverse=True):
        if result.shape[ax] == 0 and initial is np._NoValue:
            raise ValueError(f"zero-size array to reduction operation {ufunc.__name__} which has no identity")
        result = _fold(ufunc, result, ax, initial)[-1]
        initial = np._NoValue
    if keepdims:
        result = np.reshape(result, [1 if i in axes else d for i, d in enumerate(x.shape)])  # type: ignore[assignment]
    return result


def _accumulate(ufunc: np.ufunc, array: Any, axis: int = 0, dtype: Any = None, out: Any = None) -> Traced:
    x = as_traced(array)
    if out is not None:
        raise unsupported(f"numpy.{ufunc.__name__}.accumulate(..., out=...)")
    if dtype is not None:
        x = cast_traced(x, np.dtype(dtype))
    (ax,) = normalize_axes(axis, x.ndim)
    if ufunc in _SCANS:
        return FUNCTIONS[_SCANS[ufunc]](x, axis=ax)
    return np.stack(_fold(ufunc, x, ax, np._NoValue), axis=ax)  # type: ignore[return-value]  # traced stack


def _at(ufunc: np.ufunc, array: Any, indices: Any, values: Any = None) -> None:
    if not isinstance(array, Traced):
        raise unsupported(f"numpy.{ufunc.__name__}.at into a NumPy array",
                          "Make the array traced first (np.zeros_like(x) of a traced x).")
    if isinstance(indices, Traced) or (isinstance(indices, tuple) and any(isinstance(i, Traced) for i in indices)):
        raise unsupported(f"numpy.{ufunc.__name__}.at with traced indices")
    x = array
    positions = np.arange(x.size, dtype=np.int64).reshape(x.shape)[indices]
    if (values is None) != (ufunc.nin == 1):
        raise TypeError(f"{ufunc.__name__}.at takes {'no' if ufunc.nin == 1 else 'a'} second operand")
    if ufunc in _SEGMENT_SUMS:
        v = np.broadcast_to(as_traced(values), positions.shape)
        sums = a.unsorted_segment_sum(FUNCTIONS[np.reshape](v, -1).tensor, constant(positions.reshape(-1)), x.size)
        assign_all(x, call(ufunc, (x, Traced(a.reshape(sums, list(x.shape)))), {}))
        return
    updated = Traced(a.reshape(x.tensor, [-1]))  # a copy, not a view of x
    flat = positions.reshape(-1)
    vs = None if values is None else np.reshape(np.broadcast_to(as_traced(values), positions.shape), -1)
    for turn in _turns(flat):
        at = flat[turn]
        value = call(ufunc, (updated[at],) if vs is None else (updated[at], vs[turn]), {})  # the view dies here
        updated[at] = value
    assign_all(x, Traced(a.reshape(updated.tensor, list(x.shape))))


def _turns(positions: np.ndarray) -> list[np.ndarray]:
    """The entries of ``positions`` in turns of distinct positions, each turn in NumPy's order: the
    ``k``-th turn holds every position's ``k``-th occurrence (one turn when none repeats)."""
    order = np.argsort(positions, kind="stable")
    ordered = positions[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    occurrence = np.empty(len(positions), dtype=np.int64)
    occurrence[order] = np.arange(len(positions)) - np.repeat(starts, np.diff(np.r_[starts, len(positions)]))
    return [np.flatnonzero(occurrence == k) for k in range(int(occurrence.max(initial=-1)) + 1)]
