"""Graph inputs and constant sequences: ``placeholder``, ``range``, ``linspace``, ``eye``."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..primitives.state import PLACEHOLDER, PLACEHOLDER_WITH_DEFAULT
from ..shapes import TensorShape, strip_dimensions
from ..ssa.graph import Tensor, get_default_graph
from ..static import constant_value
from .array_ops import static_int, static_ints
from .convert import constant, convert_to_tensor, is_tensor_like, record1

__all__ = ["placeholder", "placeholder_with_default", "range", "linspace", "eye"]


def placeholder(dtype: Any, shape: Any = None, name: str | None = None) -> Tensor:
    """A value supplied at run time through ``feed_dict`` (its shape may be partly unknown)."""
    dtype = _dt.as_dtype(dtype)
    return get_default_graph().create_op(
        PLACEHOLDER, [], {"dtype": dtype, "shape": TensorShape(shape).sizes}, name or "Placeholder").outputs[0]


def placeholder_with_default(input: Any, shape: Any, name: str | None = None) -> Tensor:
    """Like ``placeholder``, but ``input`` is used when nothing is fed."""
    default = convert_to_tensor(input)
    return record1(PLACEHOLDER_WITH_DEFAULT, [default], {"shape": TensorShape(shape).sizes},
                   name or "PlaceholderWithDefault")


def _static(value: Any, what: str) -> tuple[Any, _dt.DType]:
    """A range/linspace argument's value and dtype; tensors must be constants."""
    value = strip_dimensions(value)
    if is_tensor_like(value):
        t = convert_to_tensor(value)
        known = constant_value(t)
        if known is None or np.ndim(known) != 0:
            actual = f"computed by a {t.op.type} op" if known is None else "not a scalar"
            raise TypeError(f"{what} must be scalars known when the graph is built (Python numbers or constant "
                            f"tensors); {t.name} is {actual}")
        return known.item(), t.dtype
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{what} must be real numbers, got {value!r}")
    return value, _dt.infer_dtype(value)


_RANGE_DTYPES = (_dt.int32, _dt.int64, _dt.float32, _dt.float64)


def range(start: Any, limit: Any = None, delta: Any = 1, dtype: Any = None,  # TF's name
          name: str = "range") -> Tensor:
    """``[start, start + delta, ...)`` up to ``limit`` (exclusive), as a constant. The dtype is
    ``dtype``, else the widest of the arguments' (int32 < int64 < float32 < float64).

    >>> # tf.range(2, 11, 3)  ->  [2, 5, 8]
    """
    if limit is None:
        start, limit = 0, start
    (start, s), (limit, lim), (delta, d) = (_static(v, "tf.range bounds") for v in (start, limit, delta))
    if not all(np.isfinite([start, limit, delta])):
        raise ValueError(f"tf.range bounds must be finite, got start={start}, limit={limit}, delta={delta}")
    if delta == 0:
        raise ValueError("Requires delta != 0")
    if delta > 0 and start > limit:
        raise ValueError(f"Requires start <= limit when delta > 0: {start}/{limit}")
    if delta < 0 and start < limit:
        raise ValueError(f"Requires start >= limit when delta < 0: {start}/{limit}")
    if dtype is None:
        dtype = max((s, lim, d), key=lambda t: _RANGE_DTYPES.index(t) if t in _RANGE_DTYPES else 0)
    dtype = _dt.as_dtype(dtype)
    return constant(np.arange(start, limit, delta).astype(dtype.np), dtype, name=name)


def linspace(start: Any, stop: Any, num: Any, name: str = "linspace", axis: int = 0) -> Tensor:
    """``num`` evenly spaced values from ``start`` to ``stop`` inclusive."""
    (start, _), (stop, _), (num, _) = (_static(v, "linspace arguments") for v in (start, stop, num))
    if not isinstance(num, (int, np.integer)) or num < 0:
        raise ValueError(f"num must be a non-negative integer, got {num!r}")
    if static_int(axis, "axis") not in (0, -1):
        raise ValueError(f"linspace of scalars has one axis: axis must be 0 or -1, got {axis!r}")
    dtype = _dt.infer_dtype(start) if not isinstance(start, builtins.int) else _dt.float32
    return constant(np.linspace(start, stop, int(num)).astype(dtype.np), dtype, name=name)


def eye(num_rows: int, num_columns: int | None = None, batch_shape: Any = None, dtype: Any = _dt.float32,
        name: str | None = None) -> Tensor:
    """The identity matrix (optionally batched)."""
    for what, n in (("num_rows", num_rows), ("num_columns", num_columns)):
        if (n is not None or what == "num_rows") and (isinstance(n, bool) or not isinstance(n, (int, np.integer))
                                                    or n < 0):
            raise ValueError(f"eye: {what} must be a non-negative integer, got {n!r}")
    dtype = _dt.as_dtype(dtype)
    value = np.eye(num_rows, num_columns, dtype=dtype.np)
    if batch_shape is not None:
        batch = static_ints(batch_shape, "batch_shape") or []  # not None here
        if any(d < 0 for d in batch):
            raise ValueError(f"batch_shape must not have negative dimensions, got {batch}")
        value = np.broadcast_to(value, tuple(batch) + value.shape)
    return constant(value, dtype, name=name or "eye")
