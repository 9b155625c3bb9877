"""Elementwise functions with corners, written so the value is NumPy's and the gradient autograd's
or finite there: clip (no gradient at a bound), sinc at 0, nan_to_num (and isposinf/isneginf,
which it uses).

The "double where" pattern keeps the bad point out of the differentiated branch: the unchosen
branch of ``np.where`` gets a zero gradient, and its input is replaced by a harmless value so that
zero is not multiplied by an infinite local derivative.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..ops import math_ops as m
from ..primitives.numpy_corners import NUMPY_CLIP
from .convert import as_tensor, as_traced, result_type
from .registry import implements, unsupported
from .traced import Traced

__all__: list[str] = []


@implements(np.clip)
def _clip(a_: Any, a_min: Any = np._NoValue, a_max: Any = np._NoValue, out: Any = None, *,
          min: Any = np._NoValue, max: Any = np._NoValue, **kwargs: Any) -> Traced:
    """``np.clip(x, lo, hi)``; a missing bound is the dtype's extreme (-inf, or the smallest integer)."""
    lo = a_min if a_min is not np._NoValue else (None if min is np._NoValue else min)
    hi = a_max if a_max is not np._NoValue else (None if max is np._NoValue else max)
    if out is not None:
        raise unsupported("numpy.clip(..., out=...)", "Assign the result instead.")
    dtype = result_type(a_, lo, hi)
    if lo is None and hi is None:
        return as_traced(a_, dtype).copy()
    bounds = [as_tensor(_extreme(dtype, side) if b is None else b, dtype) for b, side in ((lo, -1), (hi, 1))]
    return Traced(m.elementwise(NUMPY_CLIP, as_tensor(a_, dtype), *bounds))


def _extreme(dtype: np.dtype, side: int) -> Any:
    """The lowest (``side=-1``) or highest value of ``dtype``: no value is beyond it."""
    if dtype.kind == "f":
        return dtype.type(side * np.inf)
    info = np.iinfo(dtype)
    return info.min if side < 0 else info.max


@implements(np.sinc)
def _sinc(x_: Any) -> Traced:
    """``sin(pi x) / (pi x)``, 1 at 0 (gradient 0 there)."""
    x = as_traced(x_)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    at_zero = x == 0
    scaled = np.where(at_zero, 1.0, x) * math.pi
    return np.where(at_zero, 1.0, np.sin(scaled) / scaled)  # type: ignore[return-value]  # traced where


@implements(np.nan_to_num)
def _nan_to_num(x_: Any, copy: bool = True, nan: float = 0.0, posinf: Any = None, neginf: Any = None) -> Traced:
    """NaN and infinities replaced by constants (gradient 0 there, 1 elsewhere)."""
    x = as_traced(x_)
    if x.dtype.kind not in "fc":
        return x
    big = np.finfo(x.dtype).max
    high = big if posinf is None else posinf
    low = -big if neginf is None else neginf
    finite = np.where(np.isposinf(x), high, np.where(np.isneginf(x), low, nan))
    return np.where(np.isfinite(x), x, finite.astype(x.dtype))  # type: ignore[return-value]  # traced where


@implements(np.isposinf)
def _isposinf(x: Any, out: Any = None) -> Traced:
    v = as_traced(x)
    return np.logical_and(np.isinf(v), v > 0)  # type: ignore[return-value]


@implements(np.isneginf)
def _isneginf(x: Any, out: Any = None) -> Traced:
    v = as_traced(x)
    return np.logical_and(np.isinf(v), v < 0)  # type: ignore[return-value]


@implements(np.isclose)
def _isclose(a_: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Traced:
    """NumPy's test ``|a - b| <= atol + rtol * |b|``, infinities close only to themselves."""
    x, y = as_traced(a_), as_traced(b)
    finite = np.isfinite(x) & np.isfinite(y)
    close = np.where(finite, np.abs(x - y) <= atol + rtol * np.abs(y), x == y)
    return (close | (np.isnan(x) & np.isnan(y))) if equal_nan else close  # type: ignore[return-value]


@implements(np.fix)
def _fix(x: Any, out: Any = None) -> Traced:
    return np.trunc(as_traced(x))  # type: ignore[return-value]


@implements(np.iscomplexobj)
def _iscomplexobj(x: Any) -> bool:
    return as_traced(x).dtype.kind == "c"
