"""Sorting and order statistics on traced values: sort, argsort, partition, argpartition, median,
percentile, quantile.

Each is NumPy's own call in the generated code (``primitives/numpy_corners.py``): NaNs sort last
and ``np.partition`` is NumPy's partition. Of equal values, each output's gradient goes to the
element NumPy's stable sort put there (for a partition: the element ``np.argpartition`` put
there), autograd's convention; ``np.argsort`` returns NumPy's order for the ``kind`` asked.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..ops.convert import record1
from ..primitives import numpy_corners as P
from .convert import as_traced, cast
from .reductions import normalize_axes
from .registry import FUNCTIONS, implements, unsupported
from .traced import Traced

__all__ = ["check_quantiles"]

_AxisError = getattr(np, "exceptions", np).AxisError


def _along(name: str, a_: Any, axis: Any) -> tuple[Traced, int]:
    """The array (flattened for ``axis=None``) and the axis, checked as NumPy checks them."""
    x = as_traced(a_)
    if x.dtype.kind == "c":
        raise unsupported(f"numpy.{name} of a complex array", "Sorting works on real arrays.")
    if axis is None:
        return FUNCTIONS[np.reshape](x, -1), 0
    if x.ndim == 0:
        raise _AxisError(axis, 0)
    return x, normalize_axes(axis, x.ndim)[0]


def _kths(kth: Any, n: int) -> tuple[int, ...]:
    kths = []
    for k in np.atleast_1d(kth).tolist():
        if not -n <= int(k) < n:
            raise ValueError(f"kth(={k}) out of bounds ({n})")
        kths.append(int(k) % n)
    return tuple(kths)


def _unstructured(name: str, order: Any) -> None:
    if order is not None:
        raise unsupported(f"numpy.{name}(..., order=...)", "Structured arrays are not traced.")


@implements(np.sort)
def _sort(a_: Any, axis: Any = -1, kind: Any = None, order: Any = None, *, stable: Any = None) -> Traced:
    _unstructured("sort", order)
    x, ax = _along("sort", a_, axis)
    return Traced(record1(P.NUMPY_SORT, [x.tensor], {"axis": ax}))


@implements(np.argsort)
def _argsort(a_: Any, axis: Any = -1, kind: Any = None, order: Any = None, *, stable: Any = None) -> Traced:
    _unstructured("argsort", order)
    x, ax = _along("argsort", a_, axis)
    return Traced(record1(P.NUMPY_ARGSORT, [x.tensor], {"axis": ax, "kind": "stable" if stable else kind}))


@implements(np.partition)
def _partition(a_: Any, kth: Any, axis: Any = -1, kind: str = "introselect", order: Any = None) -> Traced:
    _unstructured("partition", order)
    x, ax = _along("partition", a_, axis)
    return Traced(record1(P.NUMPY_PARTITION, [x.tensor], {"axis": ax, "kth": _kths(kth, x.shape[ax])}))


@implements(np.argpartition)
def _argpartition(a_: Any, kth: Any, axis: Any = -1, kind: str = "introselect", order: Any = None) -> Traced:
    _unstructured("argpartition", order)
    x, ax = _along("argpartition", a_, axis)
    return Traced(record1(P.NUMPY_ARGPARTITION, [x.tensor], {"axis": ax, "kth": _kths(kth, x.shape[ax])}))


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


def check_quantiles(q: Any, name: str) -> np.ndarray:
    """``q`` as float64 values, NumPy's ValueError outside [0, 1] (``name``: which function)."""
    q = np.asarray(q, dtype=np.float64)
    if np.any((q < 0) | (q > 1)):
        raise ValueError("Percentiles must be in the range [0, 100]" if "percentile" in name else
                         "Quantiles must be in the range [0, 1]")
    return q


def _quantiles(a_: Any, q: Any, axis: Any, keepdims: bool, method: str, name: str) -> Traced:
    """Interpolation between the order statistics around each quantile's position (NumPy's ``method``)."""
    if method not in _METHODS:
        raise ValueError(f"'{method}' is not a valid method. Use one of: {_METHODS}")
    x = as_traced(a_)
    q = check_quantiles(q, name)
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
    ordered = Traced(cast(_sort(flat).tensor, dtype))
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
