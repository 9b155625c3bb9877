"""DType objects (``tf.float32`` ...) and the rules that turn Python and NumPy values into them."""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from .tf1_api import missing_names as _missing_names

__all__ = [
    "DType", "as_dtype", "infer_dtype",
    "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
    "bool", "string", "complex64", "complex128", "half", "double",
]


class DType:
    """A tensor element type, comparable with NumPy dtypes and names: ``tf.float32 == np.float32``."""

    __slots__ = ("name", "_np")

    def __init__(self, name: str, np_type: Any) -> None:
        self.name = name
        self._np = np.dtype(np_type)

    @property
    def as_numpy_dtype(self) -> type:
        """The NumPy scalar type, e.g. ``numpy.float32``."""
        return self._np.type

    @property
    def np(self) -> np.dtype:
        """The NumPy ``dtype`` instance."""
        return self._np

    @property
    def base_dtype(self) -> DType:
        return self

    @property
    def is_floating(self) -> bool:
        return self._np.kind == "f"

    @property
    def is_integer(self) -> bool:
        return self._np.kind in "iu"

    @property
    def is_unsigned(self) -> bool:
        return self._np.kind == "u"

    @property
    def is_bool(self) -> bool:
        return self._np.kind == "b"

    @property
    def is_complex(self) -> bool:
        return self._np.kind == "c"

    @property
    def is_numeric(self) -> bool:
        return self._np.kind in "iufc"

    @property
    def is_differentiable(self) -> bool:
        """Only float and complex tensors carry gradients."""
        return self._np.kind in "fc"

    @property
    def size(self) -> int:
        return self._np.itemsize

    @property
    def min(self) -> Any:
        return np.finfo(self._np).min if self.is_floating else np.iinfo(self._np).min

    @property
    def max(self) -> Any:
        return np.finfo(self._np).max if self.is_floating else np.iinfo(self._np).max

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DType):
            return other is self
        try:
            return as_dtype(other) is self
        except TypeError:
            return False

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __reduce__(self) -> tuple:
        return as_dtype, (self.name,)


float16 = half = DType("float16", np.float16)
float32 = DType("float32", np.float32)
float64 = double = DType("float64", np.float64)
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
uint8 = DType("uint8", np.uint8)
uint16 = DType("uint16", np.uint16)
bool = DType("bool", np.bool_)  # noqa: A001 - TF's public name
string = DType("string", np.object_)
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)

_ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, bool, string,
        complex64, complex128)
_BY_NAME = {d.name: d for d in _ALL}
_BY_NAME.update(half=float16, double=float64)
_BY_NUMPY = {d.np: d for d in _ALL}
_BY_NUMPY[np.dtype(np.str_)] = string
_BY_NUMPY[np.dtype(np.bytes_)] = string


def as_dtype(value: Any) -> DType:
    """Convert a DType, name, NumPy dtype/type or Python type to a DType.

    >>> as_dtype("float32") is float32
    True
    """
    if isinstance(value, DType):
        return value
    if isinstance(value, str):
        try:
            return _BY_NAME[value]
        except KeyError:
            raise TypeError(f"Cannot convert {value!r} to a dtype: unknown dtype name") from None
    if value is None:  # np.dtype(None) would say float64
        raise TypeError("Cannot convert None to a dtype")
    if value is float:
        return float32
    if value is int:
        return int32
    if value is builtins.bool:
        return bool
    try:
        npd = np.dtype(value)
    except (TypeError, ValueError):
        raise TypeError(f"Cannot convert {value!r} to a dtype") from None
    if npd.kind in "SU":
        return string
    try:
        return _BY_NUMPY[npd]
    except KeyError:
        raise TypeError(f"Cannot convert {value!r} to a dtype: {npd} is not supported") from None


_INT32 = np.iinfo(np.int32)


def infer_dtype(value: Any) -> DType:
    """The dtype TF gives a constant made from ``value`` (Python floats are float32, ints int32)."""
    if isinstance(value, (np.ndarray, np.generic)):
        return as_dtype(value.dtype)
    if isinstance(value, builtins.bool):
        return bool
    if isinstance(value, int):
        return int32 if _INT32.min <= value <= _INT32.max else int64
    if isinstance(value, float):
        return float32
    if isinstance(value, complex):
        return complex128
    if isinstance(value, (str, bytes)):
        return string
    try:
        arr = np.asarray(value)
    except ValueError:
        text = repr(value)
        raise ValueError(f"Can't convert non-rectangular Python sequence to Tensor: "
                         f"{text if len(text) <= 60 else text[:57] + '...'}") from None
    if arr.dtype.kind in "SUO":
        return string
    if _has_numpy_leaf(value):
        return as_dtype(arr.dtype)
    if arr.dtype.kind == "f":
        return float32
    if arr.dtype.kind in "iu":
        return int32 if arr.size == 0 or (_INT32.min <= arr.min() and arr.max() <= _INT32.max) else int64
    return as_dtype(arr.dtype)


def _has_numpy_leaf(value: Any) -> builtins.bool:
    """True when a nested list holds NumPy scalars/arrays: their dtype wins, as in TF."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (np.ndarray, np.generic)):
            return True
        if isinstance(item, (list, tuple)):
            stack.extend(item)
    return False


__getattr__ = _missing_names("dtypes", __name__)
