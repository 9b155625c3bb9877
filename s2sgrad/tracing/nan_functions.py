"""NumPy's NaN-ignoring functions on traced values: nansum, nanprod, nanmean, nanvar, nanstd,
nanmax, nanmin, nanargmax, nanargmin, nancumsum, nancumprod, nanmedian, nanquantile,
nanpercentile.

Each is its plain function on the array with NaNs replaced by the value that changes nothing
(0 for sums, 1 for products, -inf for a maximum...), so NaNs get a zero gradient; an all-NaN
slice gives NaN where NumPy does (nanargmax/nanargmin are NumPy's own calls: its ValueError).
The quantiles interpolate between order statistics whose positions depend on each row's count
of numbers, found in the graph (NaNs sort last).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..ops.convert import record1
from ..primitives.numpy_corners import NUMPY_NANARGMAX, NUMPY_NANARGMIN
from .convert import as_traced
from .reductions import arg_reduction, normalize_axes
from .registry import FUNCTIONS, implements, unsupported
from .sorting import check_quantiles
from .traced import Traced

__all__: list[str] = []


def _without_nans(a_: Any, fill: float) -> Traced:
    x = as_traced(a_)
    if x.dtype.kind not in "fc":
        return x
    return np.where(np.isnan(x), x.dtype.type(fill), x)  # type: ignore[return-value]  # a traced where


def _replaced(func: Callable, fill: float) -> Callable:
    """``func`` of the array with NaNs replaced by ``fill`` (sums, products, cumulative ones)."""
    def nan_function(a_: Any, *args: Any, **kwargs: Any) -> Any:
        return FUNCTIONS[func](_without_nans(a_, fill), *args, **kwargs)
    return nan_function


implements(np.nansum)(_replaced(np.sum, 0.0))
implements(np.nanprod)(_replaced(np.prod, 1.0))
implements(np.nancumsum)(_replaced(np.cumsum, 0.0))
implements(np.nancumprod)(_replaced(np.cumprod, 1.0))

# NumPy's own calls: an all-NaN slice is its ValueError when the step runs
implements(np.nanargmax)(arg_reduction("nanargmax", lambda t, ax, **_: record1(NUMPY_NANARGMAX, [t], {"axis": ax})))
implements(np.nanargmin)(arg_reduction("nanargmin", lambda t, ax, **_: record1(NUMPY_NANARGMIN, [t], {"axis": ax})))


def _all_nan(x: Traced, axis: Any, keepdims: Any) -> Traced:
    return np.all(np.isnan(x), axis=axis, keepdims=keepdims is True)


def _extreme(func: Callable, fill: float) -> Callable:
    """nanmax/nanmin: NaN where a slice has only NaNs (ties among the numbers share the gradient)."""
    def nan_extreme(a_: Any, axis: Any = None, out: Any = None, keepdims: Any = np._NoValue,
                    initial: Any = np._NoValue, where: Any = np._NoValue) -> Any:
        x = as_traced(a_)
        result = FUNCTIONS[func](_without_nans(x, fill), axis, out, keepdims, initial, where)
        if x.dtype.kind not in "fc":
            return result
        return np.where(_all_nan(x, axis, keepdims), np.nan, result)
    return nan_extreme


implements(np.nanmax)(_extreme(np.max, -np.inf))
implements(np.nanmin)(_extreme(np.min, np.inf))


def _numbers(a_: Any, axis: Any) -> tuple[Traced, Traced, Traced]:
    """The array as floats with NaNs as 0, whether each is a number, and the count of numbers along
    ``axis`` (kept)."""
    x = as_traced(a_)
    if x.dtype.kind not in "fc":
        x = x.astype(np.float64)
    valid = ~np.isnan(x)
    count = np.sum(valid, axis=axis, keepdims=True)
    return np.where(valid, x, x.dtype.type(0)), valid, count  # type: ignore[return-value]


@implements(np.nanmean)
def _nanmean(a_: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = np._NoValue, *,
             where: Any = np._NoValue) -> Any:
    zeroed, _, count = _numbers(a_, axis)
    total = FUNCTIONS[np.sum](zeroed, axis, dtype, out, True, where=where)
    mean = total / count
    return mean if keepdims is True else np.squeeze(mean, axis=axis)


@implements(np.nanvar)
def _nanvar(a_: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0,
            keepdims: Any = np._NoValue, *, where: Any = np._NoValue, mean: Any = np._NoValue,
            correction: Any = np._NoValue) -> Any:
    if mean is not np._NoValue or dtype is not None or out is not None or where is not np._NoValue:
        raise unsupported("numpy.nanvar with dtype=, out=, where= or mean=")
    ddof = correction if correction is not np._NoValue else ddof
    zeroed, valid, count = _numbers(a_, axis)
    deviation = np.where(valid, zeroed - np.sum(zeroed, axis=axis, keepdims=True) / count, 0.0)
    dof = count - ddof
    squares = np.sum(deviation * deviation, axis=axis, keepdims=True)
    variance = np.where(dof > 0, squares / np.where(dof > 0, dof, 1), np.nan)
    return variance if keepdims is True else np.squeeze(variance, axis=axis)


@implements(np.nanstd)
def _nanstd(a_: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0,
            keepdims: Any = np._NoValue, *, where: Any = np._NoValue, mean: Any = np._NoValue,
            correction: Any = np._NoValue) -> Any:
    """``sqrt(nanvar)``, with gradient 0 where the variance is 0 (as ``np.std``)."""
    variance = _nanvar(a_, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction)
    positive = variance > 0
    return np.where(positive, np.sqrt(np.where(positive, variance, 1.0)), variance)


# -- quantiles of the numbers -------------------------------------------------------------------------

def _index(position: Traced, method: str) -> tuple[Any, Any]:
    """(index of the lower order statistic, interpolation weight) at ``position`` for ``method``."""
    below = np.floor(position)
    if method == "linear":
        return below, position - below
    if method == "midpoint":
        return below, np.where(below == position, 0.0, 0.5)
    chosen = {"lower": below, "higher": np.ceil(position), "nearest": np.round(position)}[method]
    return chosen, 0.0


def _nan_quantiles(a_: Any, q: Any, axis: Any, keepdims: bool, method: str, name: str) -> Any:
    methods = ("linear", "lower", "higher", "nearest", "midpoint")
    if method not in methods:
        raise unsupported(f"numpy.{name}(..., method={method!r})", f"Traced NaN-quantiles take the methods {methods}.")
    q = check_quantiles(q, name)
    x = as_traced(a_)
    if axis is None:
        rows, kept = np.reshape(x, -1), [1] * x.ndim
    else:
        (ax,) = normalize_axes(axis, x.ndim)
        rows, kept = FUNCTIONS[np.moveaxis](x, ax, -1), [1 if i == ax else d for i, d in enumerate(x.shape)]
    ordered = np.sort(rows, axis=-1)
    count = np.sum(~np.isnan(ordered), axis=-1, keepdims=True)
    last = np.maximum(count - 1, 0)
    results = []
    for share in q.reshape(-1).tolist():
        lower, weight = _index((count - 1) * share, method)
        lo = np.clip(lower, 0, last).astype(np.int64)
        value = low = np.take_along_axis(ordered, lo, axis=-1)
        if isinstance(weight, Traced):
            high = np.take_along_axis(ordered, np.minimum(lo + 1, last), axis=-1)
            value = np.where(weight >= 0.5, high - (high - low) * (1 - weight), low + (high - low) * weight)
        results.append(np.where(count == 0, np.nan, value)[..., 0])
    result = np.reshape(np.stack(results), q.shape + results[0].shape)
    return np.reshape(result, q.shape + tuple(kept)) if keepdims else result


@implements(np.nanquantile)
def _nanquantile(a_: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
                 method: str = "linear", keepdims: bool = False, *, weights: Any = None,
                 interpolation: Any = None) -> Any:
    _plain_quantile("nanquantile", out, weights, axis)
    return _nan_quantiles(a_, q, axis, keepdims, interpolation or method, "nanquantile")


@implements(np.nanpercentile)
def _nanpercentile(a_: Any, q: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
                   method: str = "linear", keepdims: bool = False, *, weights: Any = None,
                   interpolation: Any = None) -> Any:
    _plain_quantile("nanpercentile", out, weights, axis)
    return _nan_quantiles(a_, np.asarray(q, dtype=np.float64) / 100, axis, keepdims, interpolation or method,
                          "nanpercentile")


@implements(np.nanmedian)
def _nanmedian(a_: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
               keepdims: bool = False) -> Any:
    _plain_quantile("nanmedian", out, None, axis)
    return _nan_quantiles(a_, 0.5, axis, keepdims, "linear", "nanmedian")


def _plain_quantile(name: str, out: Any, weights: Any, axis: Any) -> None:
    if out is not None or weights is not None:
        raise unsupported(f"numpy.{name} with out= or weights=")
    if isinstance(axis, (tuple, list)):
        raise unsupported(f"numpy.{name} over several axes", "Move them together and reshape first.")
