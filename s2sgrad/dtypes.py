"""DType objects (``tf.float32`` ...) and the rules that turn Python and NumPy values into them.

Every place that takes a dtype (``placeholder``, ``cast``, ``zeros``, ``Variable(dtype=)``, initializers,
``output_type`` ...) converts it with :func:`as_dtype`, which accepts what TensorFlow's does: DType objects,
TF's names (``"float32"``, ``"float"``, ``"double"``, ``"half"`` ...), NumPy dtypes and types, the
Python types ``float``, ``bool`` and ``object``, and TF's DataType enum numbers. Unlike TF, an array or
NumPy scalar is not taken for its dtype (pass ``.dtype``). TensorFlow dtypes NumPy cannot hold natively
(bfloat16, the quantized and 8/4/2-bit types, resource, variant, ``*_ref``) are refused with a TypeError
saying so.
"""
from __future__ import annotations

import builtins
from typing import Any

import numpy as np
import numpy.typing as npt

from .tf1_api import missing_names as _missing_names

__all__ = [
    "DType", "as_dtype", "infer_dtype",
    "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "bool", "string", "complex64", "complex128", "half", "double",
]

_Limit = int | np.floating  # an integer dtype's bound, or a float dtype's as a NumPy scalar
_Info = np.finfo | np.iinfo


class DType:
    """A tensor element type, comparable with NumPy dtypes and names: ``tf.float32 == np.float32``."""

    __slots__ = ("name", "_np", "_enum")

    def __init__(self, name: str, np_type: npt.DTypeLike, enum: int) -> None:
        self.name = name
        self._np = np.dtype(np_type)
        self._enum = enum

    @property
    def as_numpy_dtype(self) -> type:
        """The NumPy scalar type, e.g. ``numpy.float32`` (``object`` for strings, as TF)."""
        return object if self._np.kind == "O" else self._np.type

    @property
    def np(self) -> np.dtype:
        """The NumPy ``dtype`` instance."""
        return self._np

    @property
    def as_datatype_enum(self) -> int:
        """TensorFlow's DataType number (``DT_FLOAT`` is 1)."""
        return self._enum

    @property
    def base_dtype(self) -> DType:
        return self

    @property
    def real_dtype(self) -> DType:
        """The dtype of the real and imaginary parts: float32 for complex64; itself otherwise."""
        return _REAL_PART.get(self.name, self)

    @property
    def is_floating(self) -> builtins.bool:
        return self._np.kind == "f"

    @property
    def is_integer(self) -> builtins.bool:
        return self._np.kind in "iu"

    @property
    def is_unsigned(self) -> builtins.bool:
        return self._np.kind == "u"

    @property
    def is_bool(self) -> builtins.bool:
        return self._np.kind == "b"

    @property
    def is_complex(self) -> builtins.bool:
        return self._np.kind == "c"

    @property
    def is_numeric(self) -> builtins.bool:
        return self._np.kind in "iufc"

    @property
    def is_quantized(self) -> builtins.bool:
        """Always False: s2sgrad has no quantized dtypes."""
        return False

    @property
    def is_numpy_compatible(self) -> builtins.bool:
        return True

    @property
    def is_differentiable(self) -> builtins.bool:
        """Only float and complex tensors carry gradients."""
        return self._np.kind in "fc"

    @property
    def size(self) -> int:
        """Bytes per element (0 for strings, as TF)."""
        return 0 if self._np.kind == "O" else self._np.itemsize

    @property
    def min(self) -> _Limit:
        """The smallest value: a NumPy scalar for floats, an int for integers; TypeError otherwise."""
        return self._info("minimum").min

    @property
    def max(self) -> _Limit:
        """The largest value: a NumPy scalar for floats, an int for integers; TypeError otherwise."""
        return self._info("maximum").max

    def _info(self, what: str) -> _Info:
        if self._np.kind == "f":
            return np.finfo(self._np)
        if self._np.kind in "iu":
            return np.iinfo(self._np)
        raise TypeError(f"Cannot find {what} value of {self} with type {self}.")

    @property
    def limits(self) -> tuple:
        """TF's image intensity limits ``(0, max)``: max 1 for float32/float64, the largest value for
        integers, True for bool; ValueError for other dtypes."""
        if self._np.kind in "iu":
            return 0, int(np.iinfo(self._np).max)
        if self._np.kind == "b":
            return 0, True
        if self.name in ("float32", "float64"):
            return 0, 1
        raise ValueError(f"{self} does not have defined limits.")

    def is_compatible_with(self, other: Any) -> builtins.bool:
        """True when ``other`` converts to this dtype."""
        return as_dtype(other) is self

    def __eq__(self, other: object) -> builtins.bool:
        if isinstance(other, DType):
            return other is self
        if other is None:
            return False
        try:
            return as_dtype(other) is self
        except TypeError:
            return False

    def __ne__(self, other: object) -> builtins.bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:
        return f"<dtype: '{self.name}'>"

    def __reduce__(self) -> tuple:
        return as_dtype, (self.name,)


# TF's DataType enum numbers (types.proto), kept so as_datatype_enum and as_dtype(number) agree with TF.
float32 = DType("float32", np.float32, 1)
float64 = double = DType("float64", np.float64, 2)
int32 = DType("int32", np.int32, 3)
uint8 = DType("uint8", np.uint8, 4)
int16 = DType("int16", np.int16, 5)
int8 = DType("int8", np.int8, 6)
string = DType("string", np.object_, 7)
complex64 = DType("complex64", np.complex64, 8)
int64 = DType("int64", np.int64, 9)
bool = DType("bool", np.bool_, 10)  # TF's public name (shadows the builtin here)
uint16 = DType("uint16", np.uint16, 17)
complex128 = DType("complex128", np.complex128, 18)
float16 = half = DType("float16", np.float16, 19)
uint32 = DType("uint32", np.uint32, 22)
uint64 = DType("uint64", np.uint64, 23)

_ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool, string,
        complex64, complex128)
_BY_NAME = {d.name: d for d in _ALL}
_BY_NAME.update(half=float16, float=float32, double=float64)
_BY_NUMPY = {d.np: d for d in _ALL}
_BY_PYTHON = {float: float32, builtins.bool: bool, object: string}
_BY_ENUM = {d.as_datatype_enum: d for d in _ALL}
_REAL_PART = {"complex64": float32, "complex128": float64}
# TensorFlow dtypes without a native NumPy type: known to TF, refused here with a message that says so.
_UNSUPPORTED = ("bfloat16", "qint8", "qint16", "qint32", "quint8", "quint16", "resource", "variant", "int4",
                "uint4", "int2", "uint2", "float8_e5m2", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e4m3b11fnuz",
                "float8_e5m2fnuz", "float4_e2m1fn")
_SUPPORTED_TEXT = ", ".join(d.name for d in _ALL)


def as_dtype(value: Any) -> DType:
    """Convert a DType, TF dtype name, NumPy dtype or type, ``float``/``bool``/``object`` or DataType
    number to a DType; TypeError (TF's text) for anything else.

    >>> as_dtype("float") is float32 and as_dtype(np.int64) is int64
    True
    """
    if isinstance(value, DType):
        return value
    if isinstance(value, str):
        found = _BY_NAME.get(value)
        if found is not None:
            return found
        base = value[:-4] if value.endswith("_ref") else value
        if base in _BY_NAME or base in _UNSUPPORTED:
            raise TypeError(f"TensorFlow dtype {value!r} is not supported by s2sgrad; supported dtypes: "
                            f"{_SUPPORTED_TEXT}")
        raise _cannot_convert(value)
    if isinstance(value, int) and not isinstance(value, builtins.bool):
        if value in _BY_ENUM:
            return _BY_ENUM[value]
        raise _cannot_convert(value)
    if isinstance(value, type) and value in _BY_PYTHON:
        return _BY_PYTHON[value]
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        return _from_numpy(np.dtype(value), value)
    raise _cannot_convert(value)


def as_index_dtype(value: Any, what: str) -> DType:
    """``value`` as int32 or int64 (``out_type`` of shape/size, ``output_type`` of argmax); TypeError naming
    the parameter ``what`` otherwise."""
    dtype = as_dtype(value)
    if dtype not in (int32, int64):
        raise TypeError(f"Value passed to parameter '{what}' has DataType {dtype.name} not in list of allowed "
                        "values: int32, int64")
    return dtype


def _from_numpy(npd: np.dtype, value: Any) -> DType:
    if npd.kind in "SUO":
        return string
    found = _BY_NUMPY.get(npd.newbyteorder("=")) if npd.fields is None else None
    if found is None:
        raise _cannot_convert(value)
    return found


def _cannot_convert(value: Any) -> TypeError:
    return TypeError(f"Cannot convert the argument `type_value`: {value!r} to a TensorFlow DType.")


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
