"""Selecting by a constant condition: ``np.compress``, ``ndarray.compress`` and ``np.extract``.

The condition must be known while tracing (an array, a list, or a constant made while tracing,
such as ``np.eye(3, dtype=bool)``; not a value computed from traced ones): the result's
shape depends on it. The selection is one ``np.take`` of the chosen positions, found by NumPy
itself on ``arange`` (so a bad condition raises NumPy's own error).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..static import constant_value
from .convert import as_traced
from .registry import FUNCTIONS, implements, unsupported
from .traced import Traced

__all__: list[str] = []


def _known(condition: Any, name: str) -> np.ndarray:
    if isinstance(condition, Traced):
        known = condition.value if condition.value is not None else constant_value(condition.tensor)
        if known is None:
            raise unsupported(f"numpy.{name} with a traced condition",
                              "Its result's shape depends on the values; use np.where(condition, a, 0) instead.")
        return np.asarray(known)
    return np.asarray(condition)


@implements(np.compress)
def _compress(condition: Any, a: Any, axis: Any = None, out: Any = None) -> Traced:
    if out is not None:
        raise unsupported("numpy.compress(..., out=...)", "Assign the result instead.")
    x = as_traced(a)
    if axis is None:
        x, axis = FUNCTIONS[np.ravel](x), 0
    positions = np.compress(_known(condition, "compress"), np.arange(x.shape[axis]))
    return FUNCTIONS[np.take](x, positions, axis=axis)


@implements(np.extract)
def _extract(condition: Any, arr: Any) -> Traced:
    return _compress(np.ravel(_known(condition, "extract")), FUNCTIONS[np.ravel](as_traced(arr)))


def _compress_method(self: Traced, condition: Any, axis: Any = None, out: Any = None) -> Traced:
    """Like ``ndarray.compress``."""
    return _compress(condition, self, axis, out)


Traced.compress = _compress_method  # type: ignore[attr-defined]
