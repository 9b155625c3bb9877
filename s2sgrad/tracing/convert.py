"""Values -> graph tensors with NumPy 2's dtype rules.

Graph ops want operands of one dtype; NumPy promotes. Every traced operation therefore
asks NumPy which dtype it would use (``result_type``, or a ufunc's ``resolve_dtypes``) and
inserts ``Cast`` ops so the graph computes exactly that. Python scalars (and traced values
that came from them) are *weak*: ``x32 * 2.0`` stays float32, as in NumPy 2.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..ops import array_ops as a
from ..ops import math_ops as m
from ..ops.convert import constant
from ..ssa.graph import Tensor
from .registry import user_line
from .traced import Traced, current_trace

__all__ = ["as_tensor", "as_traced", "cast", "cast_traced", "dtype_of", "graph_dtype", "promotion_key",
           "result_type", "is_weak", "contains_traced", "promote"]

_WEAK_TYPES = (int, float, complex)  # exactly these: np.float64 subclasses float but is not weak
_WEAK_ZERO = {"i": 0, "u": 0, "f": 0.0, "c": 0j, "b": False}


def is_weak(v: Any) -> bool:
    """Python numbers and traced values made from them adopt the other operand's dtype."""
    return type(v) in _WEAK_TYPES or (isinstance(v, Traced) and v.weak)


def contains_traced(v: Any) -> bool:
    """``v`` is traced, or a (nested) list or tuple holding a traced value."""
    if isinstance(v, Traced):
        return True
    return isinstance(v, (list, tuple)) and any(contains_traced(i) for i in v)


def graph_dtype(dtype: Any) -> _dt.DType:
    """The s2sgrad DType of a NumPy dtype; TypeError for dtypes the graph cannot hold."""
    try:
        d = _dt.as_dtype(np.dtype(dtype))
    except TypeError:
        raise TypeError(f"s2sgrad cannot trace arrays of dtype {np.dtype(dtype)} (at {user_line()})") from None
    if d is _dt.string:
        raise TypeError(f"s2sgrad cannot trace string arrays (at {user_line()})")
    return d


def dtype_of(v: Any) -> np.dtype:
    """The dtype NumPy gives ``v`` on its own (Python floats: float64)."""
    if isinstance(v, (Traced, np.ndarray, np.generic)):
        return v.dtype
    if isinstance(v, (list, tuple)) and contains_traced(v):
        return np.result_type(*(dtype_of(i) for i in v)) if v else np.dtype(np.float64)
    return np.asarray(v).dtype


def promotion_key(v: Any) -> Any:
    """What ``ufunc.resolve_dtypes`` takes for ``v``: a dtype, or ``int``/``float``/``complex`` if weak."""
    if is_weak(v):
        kind = v.dtype.kind if isinstance(v, Traced) else np.asarray(v).dtype.kind
        return type(_WEAK_ZERO[kind])
    return dtype_of(v)


def _representative(v: Any) -> Any:
    if is_weak(v):
        return _WEAK_ZERO[v.dtype.kind] if isinstance(v, Traced) else v
    return dtype_of(v)


def result_type(*values: Any) -> np.dtype:
    """``np.result_type`` of the values, honouring weak scalars."""
    return np.result_type(*(_representative(v) for v in values if v is not None))


def cast(t: Tensor, dtype: Any) -> Tensor:
    """``t`` as ``dtype`` (``t`` itself when it already is)."""
    target = graph_dtype(dtype)
    return t if t.dtype is target else m.cast(t, target)


def cast_traced(x: Traced, dtype: np.dtype) -> Traced:
    """``x.astype(dtype)``: a new traced value, cast only when the dtype differs."""
    return Traced(cast(x.tensor, dtype)) if x.dtype != dtype else x.copy()


def as_tensor(v: Any, dtype: Any = None) -> Tensor:
    """``v`` (traced, array, scalar, or a list holding traced values) as a tensor of ``dtype``."""
    if isinstance(v, Traced):
        if v.tensor.graph is not current_trace().graph:
            raise RuntimeError(
                f"a traced value from another trace was used at {user_line()}: traced arrays must not escape "
                f"the function being traced (through a global, a closure or a stored attribute)")
        return v.tensor if dtype is None else cast(v.tensor, dtype)
    target = np.dtype(dtype) if dtype is not None else dtype_of(v)
    if isinstance(v, (list, tuple)) and contains_traced(v):
        return a.stack([as_tensor(i, target) for i in v])
    if isinstance(v, np.ndarray) and v.ndim > 0:
        return current_trace().captured(v, target, lambda: _constant(v, target))
    return _constant(v, target)


def _constant(v: Any, dtype: np.dtype) -> Tensor:
    try:
        arr = np.asarray(v, dtype=dtype)
    except (TypeError, ValueError, OverflowError) as e:
        raise TypeError(f"cannot use {v!r} as a {dtype} array at {user_line()}: {e}") from None
    return constant(arr, graph_dtype(dtype))


def as_traced(v: Any, dtype: Any = None) -> Traced:
    """``v`` as a Traced value (weakness is kept for traced inputs)."""
    if isinstance(v, Traced) and (dtype is None or v.dtype == dtype):
        return v
    return Traced(as_tensor(v, dtype), weak=is_weak(v) and dtype is None)


def promote(values: Sequence[Any]) -> tuple[list[Tensor], np.dtype]:
    """The values as tensors of their common NumPy result dtype."""
    dtype = result_type(*values)
    return [as_tensor(v, dtype) for v in values], dtype
