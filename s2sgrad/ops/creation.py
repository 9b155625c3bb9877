"""Graph inputs and constant sequences: ``placeholder``, ``range``, ``linspace``, ``eye``."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..graph import Tensor, get_default_graph
from ..shapes import TensorShape
from ..static import constant_value
from .convert import constant, convert_to_tensor, record1

__all__ = ["placeholder", "placeholder_with_default", "range", "linspace", "eye"]


def placeholder(dtype: Any, shape: Any = None, name: str | None = None) -> Tensor:
    """A value supplied at run time through ``feed_dict`` (its shape may be partly unknown)."""
    dtype = _dt.as_dtype(dtype)
    return get_default_graph().create_op(
        "Placeholder", [], {"dtype": dtype, "shape": TensorShape(shape).dims}, name or "Placeholder").outputs[0]


def placeholder_with_default(input: Any, shape: Any, name: str | None = None) -> Tensor:
    """Like ``placeholder``, but ``input`` is used when nothing is fed."""
    default = convert_to_tensor(input)
    return record1("PlaceholderWithDefault", [default], {"shape": TensorShape(shape).dims},
                   name or "PlaceholderWithDefault")


def _static(value: Any, what: str) -> Any:
    if isinstance(value, Tensor) or hasattr(value, "_as_graph_element"):
        known = constant_value(convert_to_tensor(value))
        if known is None:
            raise TypeError(f"{what} must be known when the graph is built, got a computed tensor")
        return known.item() if np.ndim(known) == 0 else known
    return value


def range(start: Any, limit: Any = None, delta: Any = 1, dtype: Any = None, name: str = "range") -> Tensor:  # noqa: A001
    """``[start, start + delta, ...)`` below ``limit`` (like Python's ``range``, for any numbers)."""
    start, limit, delta = (_static(v, "range bounds") for v in (start, limit, delta))
    if limit is None:
        start, limit = 0, start
    if delta == 0:
        raise ValueError("Requires delta != 0")
    if dtype is None:
        kinds = [_dt.infer_dtype(v) for v in (start, limit, delta)]
        dtype = next((k for k in (_dt.float64, _dt.float32, _dt.int64) if k in kinds), _dt.int32)
    dtype = _dt.as_dtype(dtype)
    return constant(np.arange(start, limit, delta).astype(dtype.np), dtype, name=name)


def linspace(start: Any, stop: Any, num: Any, name: str = "linspace", axis: int = 0) -> Tensor:
    """``num`` evenly spaced values from ``start`` to ``stop`` inclusive."""
    start, stop, num = (_static(v, "linspace arguments") for v in (start, stop, num))
    if not isinstance(num, (int, np.integer)) or num < 0:
        raise ValueError(f"num must be a non-negative integer, got {num!r}")
    dtype = _dt.infer_dtype(start) if not isinstance(start, builtins.int) else _dt.float32
    return constant(np.linspace(start, stop, int(num), axis=axis).astype(dtype.np), dtype, name=name)


def eye(num_rows: int, num_columns: int | None = None, batch_shape: Any = None, dtype: Any = _dt.float32,
        name: str | None = None) -> Tensor:
    """The identity matrix (optionally batched)."""
    for n in (num_rows, num_columns):
        if n is not None and (not isinstance(n, (int, np.integer)) or n < 0):
            raise ValueError(f"eye dimensions must be non-negative integers, got {n!r}")
    dtype = _dt.as_dtype(dtype)
    value = np.eye(num_rows, num_columns, dtype=dtype.np)
    if batch_shape is not None:
        value = np.broadcast_to(value, tuple(batch_shape) + value.shape)
    return constant(value, dtype, name=name or "eye")
