"""Choosing and making values: where, round, the ``*_like`` constructors, copy,
linspace, and the shape queries (``np.shape``, ``np.ndim``, ``np.size``)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..ops import array_ops as a
from ..ops import math_ops as m
from ..ops.convert import constant
from .convert import as_tensor, as_traced, cast, graph_dtype, promote
from .registry import implements, unsupported
from .traced import Traced


@implements(np.where)
def _where(condition: Any, x: Any = None, y: Any = None) -> Traced:
    if x is None or y is None:
        raise unsupported("numpy.where(condition) with one argument",
                          "Its result's shape depends on the values; use np.where(condition, a, b).")
    c = cast(as_tensor(condition), np.bool_)
    (xt, yt), _ = promote([x, y])
    return Traced(a.where(c, xt, yt))


def _like(fill: Callable) -> Callable:
    def like(a_: Any, dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None,
             **kwargs: Any) -> Traced:
        x = as_traced(a_)
        dtype = x.dtype if dtype is None else np.dtype(dtype)
        shape = x.shape if shape is None else tuple(np.atleast_1d(shape).tolist())
        return fill(x, dtype, shape)
    return like


def _constant_like(value: int, op: Callable) -> Callable:
    def fill(x: Traced, dtype: np.dtype, shape: tuple) -> Traced:
        known = np.full(shape, value, dtype)  # its values are known: Python may read them, as NumPy's
        if dtype == x.dtype and shape == x.shape:
            return Traced(op(x.tensor), value=known)
        return Traced(constant(value, graph_dtype(dtype), shape=list(shape)), value=known)
    return fill


implements(np.zeros_like, np.empty_like)(_like(_constant_like(0, a.zeros_like)))
implements(np.ones_like)(_like(_constant_like(1, a.ones_like)))


@implements(np.full_like)
def _full_like(a_: Any, fill_value: Any, dtype: Any = None, order: str = "K", subok: bool = True,
               shape: Any = None, **kwargs: Any) -> Traced:
    def fill(x: Traced, dt: np.dtype, dims: tuple) -> Traced:
        return Traced(a.fill(list(dims), as_tensor(fill_value, dt)))
    return _like(fill)(a_, dtype, order, subok, shape)


@implements(np.copy)
def _copy(a_: Any, order: str = "K", subok: bool = False) -> Traced:
    return as_traced(a_).copy()


implements(np.shape)(lambda a_: as_traced(a_).shape)
implements(np.ndim)(lambda a_: as_traced(a_).ndim)
implements(np.size)(lambda a_, axis=None: as_traced(a_).size if axis is None else as_traced(a_).shape[axis])


@implements(np.round, np.around)
def _round(a_: Any, decimals: int = 0, out: Any = None) -> Traced:
    x = as_traced(a_)
    if x.dtype.kind not in "fc":
        if decimals < 0:
            raise unsupported("numpy.round of integers to negative decimals")
        return x.copy()
    if decimals == 0:
        return Traced(m.round(x.tensor))
    scale = constant(10.0 ** decimals, x.tensor.dtype)
    return Traced(m.realdiv(m.round(m.multiply(x.tensor, scale)), scale))


@implements(np.linspace)
def _linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False,
              dtype: Any = None, axis: int = 0, **kwargs: Any) -> Any:
    if np.ndim(start) or np.ndim(stop) or axis != 0:
        raise unsupported("numpy.linspace with array start/stop or an axis")
    div = (num - 1) if endpoint else num
    fractions = np.arange(num, dtype=np.float64) / max(div, 1)
    start, stop = as_traced(start, np.float64), as_traced(stop, np.float64)
    step = (stop - start) / div if div > 0 else stop - start
    values = start + (stop - start) * fractions
    if endpoint and num > 1:
        values = np.concatenate([values[:-1], np.reshape(stop, (1,))])
    values = values if dtype is None else values.astype(dtype)
    return (values, step) if retstep else values
