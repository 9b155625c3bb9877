"""Reductions and scans on traced values: sum, mean, var/std, max/min, prod, any/all, arg*,
cumsum/cumprod, average, ptp. Result dtypes are NumPy's (``np.sum`` of int32 is int64)."""
from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any, SupportsIndex, overload

import numpy as np

from ..ops import array_ops as a
from ..ops import math_ops as m
from ..ops import reduce_ops as r
from ..ops.convert import constant
from .convert import as_traced, cast, graph_dtype
from .registry import implements, unsupported
from .traced import Traced

__all__ = ["normalize_axes", "arg_reduction"]

_AxisError = getattr(np, "exceptions", np).AxisError


@overload
def normalize_axes(axis: None, ndim: int) -> None: ...
@overload
def normalize_axes(axis: SupportsIndex | Sequence[SupportsIndex], ndim: int) -> tuple[int, ...]: ...


def normalize_axes(axis: Any, ndim: int) -> tuple[int, ...] | None:
    """``axis`` (None, an int or ints) as sorted non-negative ints, NumPy's AxisError if out of range."""
    if axis is None:
        return None
    items = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for ax in items:
        ax = int(ax)
        if not -ndim <= ax < ndim:
            raise _AxisError(ax, ndim)
        out.append(ax % ndim)
    if len(set(out)) != len(out):
        raise ValueError("duplicate value in 'axis'")
    return tuple(sorted(out))


def _count(shape: tuple, axes: tuple | None) -> int:
    dims = shape if axes is None else [shape[i] for i in axes]
    return int(np.prod(dims, dtype=np.int64))


def _result_dtype(func: Callable, input_dtype: np.dtype, **kwargs: Any) -> np.dtype:
    """The dtype NumPy's ``func`` returns for ``input_dtype`` (found on a one-element array)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(func(np.zeros(1, input_dtype), **kwargs)).dtype


def _flag(keepdims: Any) -> bool:
    """``keepdims`` as a bool (NumPy's own default for some functions is ``np._NoValue``: False)."""
    return keepdims is not np._NoValue and bool(keepdims)


def _plain(name: str, out: Any = None, where: Any = True, initial: Any = np._NoValue) -> None:
    if out is not None:
        raise unsupported(f"numpy.{name}(..., out=...)", "Assign the result instead.")
    if where is not True and where is not np._NoValue:  # np.sum's own default is _NoValue
        raise unsupported(f"numpy.{name}(..., where=...)", "Use np.where on the input instead.")
    if initial is not np._NoValue:
        raise unsupported(f"numpy.{name}(..., initial=...)", "Combine the result with the initial value instead.")


def _accumulation(name: str, func: Callable, op: Callable, combine: np.ufunc) -> Callable:
    """sum/prod: accumulate in NumPy's result dtype (int32 sums are int64), then apply ``initial``."""
    def accumulate(a_: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False,
                   initial: Any = np._NoValue, where: Any = True) -> Traced:
        x = as_traced(a_)
        _plain(name, out, where)
        t = cast(x.tensor, _result_dtype(func, x.dtype, dtype=dtype))
        total = Traced(op(t, normalize_axes(axis, x.ndim), keepdims=_flag(keepdims)))
        return total if initial is np._NoValue else combine(total, initial)
    return accumulate


implements(np.sum)(_accumulation("sum", np.sum, r.reduce_sum, np.add))
implements(np.prod)(_accumulation("prod", np.prod, r.reduce_prod, np.multiply))


@implements(np.mean)
def _mean(a_: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False, *,
          where: Any = True) -> Traced:
    x = as_traced(a_)
    _plain("mean", out, where)
    result_dtype = _result_dtype(np.mean, x.dtype, dtype=dtype)
    return Traced(r.reduce_mean(cast(x.tensor, result_dtype), normalize_axes(axis, x.ndim), keepdims=_flag(keepdims)))


def _extreme(name: str, op: Callable, bool_op: Callable) -> Callable:
    def extreme(a_: Any, axis: Any = None, out: Any = None, keepdims: bool = False, initial: Any = np._NoValue,
                where: Any = True) -> Traced:
        x = as_traced(a_)
        _plain(name, out, where)
        if x.size == 0:
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
        reducer = bool_op if x.dtype == np.bool_ else op
        result = Traced(reducer(x.tensor, normalize_axes(axis, x.ndim), keepdims=_flag(keepdims)))
        if initial is np._NoValue:
            return result
        return np.maximum(result, initial) if name == "max" else np.minimum(result, initial)
    return extreme


implements(np.max, np.amax)(_extreme("max", r.reduce_max, r.reduce_any))
implements(np.min, np.amin)(_extreme("min", r.reduce_min, r.reduce_all))


@implements(np.ptp)
def _ptp(a_: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Traced:
    return np.max(a_, axis=axis, keepdims=keepdims) - np.min(a_, axis=axis, keepdims=keepdims)


@implements(np.var)
def _var(a_: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0, keepdims: bool = False,
         *, where: Any = True, mean: Any = np._NoValue, correction: Any = np._NoValue) -> Traced:
    x = as_traced(a_)
    _plain("var", out, where)
    if mean is not np._NoValue:
        raise unsupported("numpy.var(..., mean=...)")
    if x.dtype.kind == "c":
        raise unsupported("numpy.var of a complex array")
    ddof = correction if correction is not np._NoValue else ddof
    result_dtype = _result_dtype(np.var, x.dtype, dtype=dtype)
    t = cast(x.tensor, result_dtype)
    axes = normalize_axes(axis, x.ndim)
    deviation = t - r.reduce_mean(t, axes, keepdims=True)
    squares = r.reduce_sum(m.square(deviation), axes, keepdims=_flag(keepdims))
    return Traced(m.realdiv(squares, constant(_count(x.shape, axes) - ddof, graph_dtype(result_dtype))))


@implements(np.std)
def _std(a_: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: float = 0, keepdims: bool = False,
         *, where: Any = True, mean: Any = np._NoValue, correction: Any = np._NoValue) -> Traced:
    """``sqrt(var)``; where the variance is 0 (one element, equal elements) the gradient is 0, not NaN."""
    variance = _var(a_, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction)
    positive = variance > 0
    return np.where(positive, np.sqrt(np.where(positive, variance, 1)), 0)  # type: ignore[return-value]


def _logical(name: str, op: Callable) -> Callable:
    def logical(a_: Any, axis: Any = None, out: Any = None, keepdims: bool = False, *, where: Any = True) -> Traced:
        x = as_traced(a_)
        _plain(name, out, where)
        return Traced(op(cast(x.tensor, np.bool_), normalize_axes(axis, x.ndim), keepdims=_flag(keepdims)))
    return logical


implements(np.any)(_logical("any", r.reduce_any))
implements(np.all)(_logical("all", r.reduce_all))


@implements(np.count_nonzero)
def _count_nonzero(a_: Any, axis: Any = None, *, keepdims: bool = False) -> Traced:
    x = as_traced(a_)
    nonzero = cast(x.tensor, np.bool_)
    return Traced(r.reduce_sum(cast(nonzero, np.int64), normalize_axes(axis, x.ndim), keepdims=_flag(keepdims)))


def _flat_axis(x: Traced, axis: Any) -> tuple[Any, int]:
    """(tensor, axis) for functions whose ``axis=None`` means "of the flattened array"."""
    if axis is None:
        return a.reshape(x.tensor, [-1]), 0
    (ax,) = normalize_axes(axis, x.ndim)
    return x.tensor, ax


def arg_reduction(name: str, op: Callable) -> Callable:
    """np.argmax-like ``name``: ``op(tensor, axis, output_type=np.int64)`` along an axis or of the flattened array."""
    def arg(a_: Any, axis: Any = None, out: Any = None, *, keepdims: bool = False) -> Traced:
        x = as_traced(a_)
        _plain(name, out)
        t, ax = _flat_axis(x, axis)
        index = op(t, ax, output_type=np.int64)
        if keepdims:
            index = a.reshape(index, [1 if axis is None or i == ax else d for i, d in enumerate(x.shape)])
        return Traced(index)
    return arg


implements(np.argmax)(arg_reduction("argmax", r.argmax))
implements(np.argmin)(arg_reduction("argmin", r.argmin))


def _scan(name: str, func: Callable, op: Callable) -> Callable:
    def scan(a_: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Traced:
        x = as_traced(a_)
        _plain(name, out)
        t, ax = _flat_axis(x, axis)
        return Traced(op(cast(t, _result_dtype(func, x.dtype, dtype=dtype)), ax))
    return scan


implements(np.cumsum)(_scan("cumsum", np.cumsum, r.cumsum))


def _products_up_to(t: Any, axis: int) -> Any:
    """``cumprod`` as the products of the masked square ``x[i] if i <= j else 1``: its gradient is exact
    through zeros (the scan's gradient divides by ``x``). It costs ``n`` times the memory of ``t``."""
    n = t.shape.sizes[axis]
    moved = a.expand_dims(t, axis + 1)  # [..., i, 1, ...]
    mask = np.tril(np.ones((n, n), dtype=bool)).T.reshape((n, n) + (1,) * (t.shape.rank - axis - 1))
    square = a.where_v2(constant(mask), moved, constant(1, t.dtype))  # [..., i, j, ...]
    return r.reduce_prod(square, [axis])


implements(np.cumprod)(_scan("cumprod", np.cumprod, _products_up_to))


@implements(np.average)
def _average(a_: Any, axis: Any = None, weights: Any = None, returned: bool = False, *,
             keepdims: bool = False) -> Any:
    x = as_traced(a_)
    if weights is None:
        avg = np.mean(x, axis=axis, keepdims=keepdims)
        count = np.asarray(_count(x.shape, normalize_axes(axis, x.ndim)), dtype=avg.dtype)
        return (avg, np.broadcast_to(count, avg.shape)) if returned else avg
    w = as_traced(weights)
    if w.shape != x.shape:
        if axis is None or w.ndim != 1:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        (ax,) = normalize_axes(axis, x.ndim)
        # np.reshape of a Traced dispatches to __array_function__ (NumPy's stubs say ndarray)
        w = np.reshape(w, [w.shape[0] if i == ax else 1 for i in range(x.ndim)])  # type: ignore[assignment]
    total = np.sum(w * np.ones_like(x), axis=axis, keepdims=keepdims)
    avg = np.sum(x * w, axis=axis, keepdims=keepdims) / total
    return (avg, total) if returned else avg
