"""Feeds: ``feed_dict`` keys resolved to tensors, and fed values converted to the tensor's dtype.

Values already of the tensor's kind convert without checks (this is on ``Session.run``'s
path); anything else is checked first, so that a mistake gets a typed error naming the
tensor instead of a silent cast or a NumPy traceback.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..ssa.graph import Graph, Tensor

__all__ = ["convert_feed", "feed_target"]


def feed_target(graph: Graph, key: Any) -> Tensor:
    """The tensor a ``feed_dict`` key names (a Tensor, a Variable or a ``"name:0"`` string) in ``graph``."""
    try:
        element = graph.as_graph_element(key)
    except (TypeError, ValueError, KeyError) as e:
        raise TypeError(f"Cannot interpret feed_dict key as Tensor: {e}") from None
    if not isinstance(element, Tensor):
        raise TypeError(f"Cannot interpret feed_dict key as Tensor: Can not convert an Operation "
                        f"({element.name}) into a Tensor.")
    return element


# The dtype kind of Python floats and NumPy scalars, by type (cheaper than reading .dtype.kind).
_KINDS: dict[type, str] = {float: "f", **{t: np.dtype(t).kind for t in (
    np.float16, np.float32, np.float64, np.longdouble, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
    np.uint32, np.uint64, np.bool_, np.complex64, np.complex128, np.clongdouble)}}


def check_feed_shape(t: Tensor, shape: tuple) -> None:
    """ValueError (TF's message) when a value of ``shape`` cannot be fed to ``t``."""
    if not t.shape.is_compatible_with(shape):
        raise ValueError(f"Cannot feed value of shape {shape} for Tensor {t.name}, which has shape {t.shape}")


def convert_feed(value: Any, t: Tensor) -> Any:
    """``value`` as a NumPy value of ``t``'s dtype; a clear error for None, tensors, ragged or text
    data, and for conversions that would silently lose information (complex to real, text to
    numbers, NaN or out-of-range floats to integers)."""
    target = t.dtype.np
    kind = _KINDS.get(type(value))
    if kind is None and type(value) is np.ndarray:
        kind = value.dtype.kind
    if kind != target.kind or kind == "O":  # not a float or NumPy value of the tensor's kind: check it
        value = _checked_source(value, t, kind)
        if target.kind == "O":  # string tensors: already bytes
            return value
    try:
        arr = np.asarray(value, dtype=target)
    except (ValueError, TypeError, OverflowError) as e:
        raise ValueError(f"Cannot feed value {_short(value)} for Tensor {t.name} of dtype {t.dtype.name}: "
                         f"{e}") from None
    return arr[()] if arr.ndim == 0 else arr


def _checked_source(value: Any, t: Tensor, kind: str | None) -> Any:
    """The value to convert, after refusing what cannot be fed into ``t`` (see ``convert_feed``)."""
    dtype = t.dtype
    if value is None:
        raise TypeError(f"Cannot feed None for Tensor {t.name}: expected a value of dtype {dtype.name} and "
                        f"shape {t.shape}")
    if isinstance(value, Tensor) or hasattr(value, "_as_graph_element"):
        raise TypeError(f"The value of a feed cannot be a tf.Tensor object. Acceptable feed values include Python "
                        f"scalars, strings, lists, numpy ndarrays. (feeding {t.name})")
    if dtype.name == "string":
        return _string_feed(value, t)
    if type(value) is int and dtype.is_integer and not dtype.min <= value <= dtype.max:
        raise TypeError(f"Type of feed value {value} with type {type(value)} is not compatible with Tensor "
                        f"type {dtype.name}. Try explicitly setting the type of the feed tensor to a larger "
                        f"type (e.g. int64).")
    if kind is None and not isinstance(value, (int, float)):
        value = _natural_array(value, t)
        kind = value.dtype.kind
    if kind is not None and kind != dtype.np.kind and kind in "USOcf":
        _check_lossless(value, kind, t)
    return value


def _natural_array(value: Any, t: Tensor) -> np.ndarray:
    """``value`` (a list, a Python scalar...) as the array NumPy makes of it, before any cast."""
    try:
        return np.asarray(value)
    except (ValueError, TypeError) as e:
        raise ValueError(f"Cannot feed value {_short(value)} for Tensor {t.name} of dtype {t.dtype.name}: it is not "
                         f"a rectangular array of numbers ({e})") from None


def _check_lossless(source: Any, kind: str, t: Tensor) -> None:
    """Refuse casts that NumPy would do with a warning or silently, but that lose the data."""
    dtype = t.dtype
    what = f"for Tensor {t.name} of dtype {dtype.name}"
    if kind in "US":
        raise TypeError(f"Cannot feed text {_short(source.tolist())} {what}: expected numbers")
    if kind == "O" and any(v is None or isinstance(v, (str, bytes)) for v in np.ravel(source)):
        raise TypeError(f"Cannot feed {_short(source.tolist())} {what}: expected numbers, not text or None")
    if kind == "c" and not dtype.is_complex:
        raise TypeError(f"Cannot feed complex values {what}: the imaginary part would be lost")
    if kind == "f" and (dtype.is_integer or dtype.is_bool) and np.size(source):
        finite = np.isfinite(source)
        if not np.all(finite):
            raise ValueError(f"Cannot feed NaN or infinity {what}")
        if dtype.is_integer and not (dtype.min <= np.min(source) and np.max(source) <= dtype.max):
            raise ValueError(f"Cannot feed values outside [{dtype.min}, {dtype.max}] {what}")


def _string_feed(value: Any, t: Tensor) -> Any:
    """Text feeds as bytes (like string constants); anything else is an error."""
    arr = np.array(value, dtype=object)  # a copy: the caller's array is never written to
    flat = arr.reshape(-1)
    for i, v in enumerate(flat):
        if isinstance(v, str):
            flat[i] = v.encode("utf-8")
        elif not isinstance(v, bytes):
            raise TypeError(f"Cannot feed {type(v).__name__} value {_short(v)} for Tensor {t.name} of dtype string: "
                            f"expected str or bytes")
    return arr  # 0-d too: a bytes object has no shape to dispatch on


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 50 else text[:47] + "..."
