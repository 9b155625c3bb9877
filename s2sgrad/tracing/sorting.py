"""Sorting and order statistics on traced values: sort, argsort, partition, median, percentile,
quantile.

Sorting is the graph's TopK of the negated values (largest of ``-x`` first, equal values by
first index), which is NumPy's stable ascending order; the gradient goes back to the chosen
positions, so of equal values each output's gradient reaches the element NumPy's stable sort
put there (autograd's convention). ``np.partition`` returns the fully sorted array, which is a
valid partition for every ``kth`` (NumPy's own order of the other elements is unspecified).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..ops import array_ops as a
from ..ops import math_ops as m
from ..ops.selection_ops import top_k
from .convert import as_traced, cast
from .reductions import normalize_axes
from .registry import FUNCTIONS, implements, unsupported
from .traced import Traced

__all__ = ["sort_tensor"]


def _to_last(t: Any, axis: int, rank: int) -> tuple[Any, list[int]]:
    perm = [i for i in range(rank) if i != axis] + [axis]
    if perm == list(range(rank)):
        return t, perm
    return a.transpose(t, perm), perm


def _from_last(t: Any, perm: list[int]) -> Any:
    if perm == list(range(len(perm))):
        return t
    return a.transpose(t, [perm.index(i) for i in range(len(perm))])


def _ascending(x: Traced, axis: Any) -> tuple[Any, Any, int]:
    """(sorted tensor, int64 order) along ``axis`` (None: of the flattened array), and the axis."""
    if x.dtype.kind in "bu" or x.dtype.kind == "c":
        raise unsupported(f"numpy.sort of a {x.dtype} array", "Sorting works on float and signed integer arrays.")
    t, ax = (a.reshape(x.tensor, [-1]), 0) if axis is None else (x.tensor, normalize_axes(axis, x.ndim)[0])
    dims = t.shape.known_sizes()
    last, perm = _to_last(t, ax, len(dims))
    values, order = top_k(m.negative(last), dims[ax], index_type=np.int64)
    return _from_last(m.negative(values), perm), _from_last(order, perm), ax


def sort_tensor(x: Traced, axis: Any = -1) -> Traced:
    """``np.sort(x, axis)`` as a traced value."""
    if x.ndim == 0:
        raise _AxisError(axis, 0)
    return Traced(_ascending(x, axis)[0])


_AxisError = getattr(np, "exceptions", np).AxisError


@implements(np.sort)
def _sort(a_: Any, axis: Any = -1, kind: Any = None, order: Any = None, *, stable: Any = None) -> Traced:
    if order is not None:
        raise unsupported("numpy.sort(..., order=...)", "Structured arrays are not traced.")
    return sort_tensor(as_traced(a_), axis)


@implements(np.argsort)
def _argsort(a_: Any, axis: Any = -1, kind: Any = None, order: Any = None, *, stable: Any = None) -> Traced:
    if order is not None:
        raise unsupported("numpy.argsort(..., order=...)", "Structured arrays are not traced.")
    return Traced(_ascending(as_traced(a_), axis)[1])


@implements(np.argpartition)
def _argpartition(a_: Any, kth: Any, axis: Any = -1, kind: str = "introselect", order: Any = None) -> Traced:
    """The sorting order: a valid partition order for every ``kth`` (see ``np.partition``)."""
    return _argsort(a_, axis, order=order)


@implements(np.partition)
def _partition(a_: Any, kth: Any, axis: Any = -1, kind: str = "introselect", order: Any = None) -> Traced:
    x = as_traced(a_)
    n = x.size if axis is None else x.shape[normalize_axes(axis, x.ndim)[0]]
    for k in np.atleast_1d(kth).tolist():
        if not -n <= int(k) < n:
            raise ValueError(f"kth(={k}) out of bounds ({n})")
    return _sort(x, axis, order=order)


def _float_dtype(x: Traced) -> np.dtype:
    return x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)


_METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
            "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest")


def _positions(n: int, q: np.ndarray, method: str) -> np.ndarray:
    """Where NumPy's ``method`` puts each quantile among ``n`` sorted values: ``i + t`` interpolates
    between the ``i``-th and the next with weight ``t`` (found by NumPy itself, on ``0, 1, ..., n-1``)."""
    grid = np.arange(n, dtype=np.float64)
    return np.asarray(np.quantile(grid, q.reshape(-1), method=method))  # type: ignore[call-overload]  # in _METHODS


def _between(low: Traced, high: Traced, t: float) -> Traced:
    """NumPy's interpolation ``low + (high - low) t``, from the nearer end (the same rounding)."""
    if t >= 0.5:
        return high - (high - low) * (1 - t)
    return low + (high - low) * t


def _quantiles(a_: Any, q: Any, axis: Any, keepdims: bool, method: str, name: str) -> Traced:
    """Interpolation between the order statistics around each quantile's position (NumPy's ``method``)."""
    if method not in _METHODS:
        raise ValueError(f"'{method}' is not a valid method. Use one of: {_METHODS}")
    x = as_traced(a_)
    q = np.asarray(q, dtype=np.float64)
    if np.any((q < 0) | (q > 1)):
        raise ValueError("Quantiles must be in the range [0, 1]" if name == "quantile" else
                         "Percentiles must be in the range [0, 100]")
    axes = normalize_axes(axis, x.ndim)
    reshape = FUNCTIONS[np.reshape]
    if axes is None:
        flat: Traced = reshape(x, -1)
        kept = (1,) * x.ndim
    else:
        rest = [i for i in range(x.ndim) if i not in axes]
        flat = reshape(FUNCTIONS[np.transpose](x, rest + list(axes)), [x.shape[i] for i in rest] + [-1])
        kept = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
    dtype = _float_dtype(x)
    ordered = Traced(cast(_ascending(flat, -1)[0], dtype))
    n = ordered.shape[-1]
    if n == 0:
        raise unsupported(f"numpy.{name} of an empty array")
    parts = []
    for position in _positions(n, q, method).tolist():
        lo = math.floor(position)
        low = ordered[..., lo]  # slices, not a gather: dense gradients
        t = position - lo
        parts.append(low if lo == n - 1 or t == 0 else _between(low, ordered[..., lo + 1], t))
    result = parts[0] if q.ndim == 0 else reshape(FUNCTIONS[np.stack](parts), q.shape + parts[0].shape)
    return reshape(result, q.shape + kept) if keepdims else result


@implements(np.quantile)
def _quantile(a_: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
              method: str = "linear", keepdims: bool = False, *, weights: Any = None,
              interpolation: Any = None) -> Traced:
    if out is not None or weights is not None:
        raise unsupported("numpy.quantile with out= or weights=")
    return _quantiles(a_, q, axis, keepdims, interpolation or method, "quantile")


@implements(np.percentile)
def _percentile(a_: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
                method: str = "linear", keepdims: bool = False, *, weights: Any = None,
                interpolation: Any = None) -> Traced:
    if out is not None or weights is not None:
        raise unsupported("numpy.percentile with out= or weights=")
    return _quantiles(a_, np.asarray(q, dtype=np.float64) / 100, axis, keepdims, interpolation or method, "percentile")


@implements(np.median)
def _median(a_: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
            keepdims: bool = False) -> Traced:
    if out is not None:
        raise unsupported("numpy.median(..., out=...)")
    return _quantiles(a_, 0.5, axis, keepdims, "linear", "median")
