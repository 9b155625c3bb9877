"""``tf.add``, ``tf.sin``, ``tf.matmul``...: validate, convert, record. Shapes and dtypes are
checked by the primitives' rules when the op is recorded."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from .. import dtypes as _dt
from ..primitives import math as P
from ..primitives.complex import CONJ
from ..primitives.core import Primitive
from ..primitives.linalg import MAT_MUL
from ..ssa.graph import Tensor
from .convert import convert_operands, convert_to_tensor, graph_of, record1

_TRUEDIV_FLOAT = {"uint8": _dt.float32, "int8": _dt.float32, "uint16": _dt.float32, "uint32": _dt.float64,
                  "int16": _dt.float32, "int32": _dt.float64, "int64": _dt.float64, "uint64": _dt.float64}


class UnaryFunction(Protocol):
    """A ``tf.*`` function of one tensor: ``tf.tanh(x, name=None)``."""

    def __call__(self, x: Any, name: str | None = None) -> Tensor: ...


class BinaryFunction(Protocol):
    """A ``tf.*`` function of two tensors that broadcast: ``tf.add(x, y, name=None)``."""

    def __call__(self, x: Any, y: Any, name: str | None = None) -> Tensor: ...


def unary_function(prim: Primitive) -> UnaryFunction:
    """The ``tf.*`` function of the unary declaration ``prim``: its ops are named ``prim.default_name``."""
    if prim.arity != 1:
        raise ValueError(f"{prim.name} is not a unary elementwise declaration")

    def op(x: Any, name: str | None = None) -> Tensor:
        return record1(prim, [convert_to_tensor(x)], name=name or prim.default_name)
    op.__name__ = prim.default_name.lower()
    op.__doc__ = f"Elementwise ``{prim.name}``."
    return op


def binary_function(prim: Primitive) -> BinaryFunction:
    """The ``tf.*`` function of the binary declaration ``prim`` (operands converted as ``tf.add`` does)."""
    if prim.arity != 2:
        raise ValueError(f"{prim.name} is not a binary elementwise declaration")

    def op(x: Any, y: Any, name: str | None = None) -> Tensor:
        return record1(prim, convert_operands([x, y]), name=name or prim.default_name)
    op.__name__ = prim.default_name.lower()
    op.__doc__ = f"Elementwise ``{prim.name}`` with NumPy broadcasting."
    return op


# The functions the elementwise declarations name (``tf_names``, primitives/math.py), in their order;
# tests/test_declared_ops.py checks that each declared name is bound here to its declaration's op.
negative = neg = unary_function(P.NEG)
abs = unary_function(P.ABS)
sign = unary_function(P.SIGN)
square = unary_function(P.SQUARE)
sqrt = unary_function(P.SQRT)
rsqrt = unary_function(P.RSQRT)
exp = unary_function(P.EXP)
expm1 = unary_function(P.EXPM1)
log = unary_function(P.LOG)
log1p = unary_function(P.LOG1P)
sin = unary_function(P.SIN)
cos = unary_function(P.COS)
tan = unary_function(P.TAN)
asin = unary_function(P.ASIN)
acos = unary_function(P.ACOS)
atan = unary_function(P.ATAN)
sinh = unary_function(P.SINH)
cosh = unary_function(P.COSH)
asinh = unary_function(P.ASINH)
tanh = unary_function(P.TANH)
sigmoid = unary_function(P.SIGMOID)
erf = unary_function(P.ERF)
reciprocal = unary_function(P.RECIPROCAL)
round = unary_function(P.ROUND)
floor = unary_function(P.FLOOR)
ceil = unary_function(P.CEIL)
is_nan = unary_function(P.IS_NAN)
is_inf = unary_function(P.IS_INF)
is_finite = unary_function(P.IS_FINITE)
logical_not = unary_function(P.LOGICAL_NOT)

add = binary_function(P.ADD_V2)
subtract = binary_function(P.SUB)
multiply = binary_function(P.MUL)
realdiv = binary_function(P.REAL_DIV)
floordiv = floor_div = binary_function(P.FLOOR_DIV)
floormod = mod = binary_function(P.FLOOR_MOD)
pow = binary_function(P.POW)
maximum = binary_function(P.MAXIMUM)
minimum = binary_function(P.MINIMUM)
squared_difference = binary_function(P.SQUARED_DIFFERENCE)
xlogy = binary_function(P.XLOGY)
equal = binary_function(P.EQUAL)
not_equal = binary_function(P.NOT_EQUAL)
less = binary_function(P.LESS)
less_equal = binary_function(P.LESS_EQUAL)
greater = binary_function(P.GREATER)
greater_equal = binary_function(P.GREATER_EQUAL)
logical_and = binary_function(P.LOGICAL_AND)
logical_or = binary_function(P.LOGICAL_OR)
logical_xor = binary_function(P.LOGICAL_XOR)

# Gradient kernels ``(y, g)`` used by the rules of Tanh, Sigmoid, Sqrt, Rsqrt and Reciprocal (no tf.* names).
tanh_grad = binary_function(P.TANH_GRAD)
sigmoid_grad = binary_function(P.SIGMOID_GRAD)
sqrt_grad = binary_function(P.SQRT_GRAD)
rsqrt_grad = binary_function(P.RSQRT_GRAD)
reciprocal_grad = binary_function(P.RECIPROCAL_GRAD)


def elementwise(prim: Primitive, *operands: Any, name: str | None = None) -> Tensor:
    """The elementwise primitive ``prim`` on ``operands``, converted as ``tf.add`` converts them."""
    return record1(prim, convert_operands(list(operands)), name=name or prim.default_name)


def atan2(y: Any, x: Any, name: str | None = None) -> Tensor:
    """The angle of the point ``(x, y)``, elementwise: ``arctan(y / x)`` in the right quadrant.

    >>> # tf.atan2(1.0, -1.0)  ->  2.3561945 (3/4 pi)
    """
    return record1(P.ATAN2, convert_operands([y, x]), name=name or "Atan2")


def divide_no_nan(x: Any, y: Any, name: str | None = None) -> Tensor:
    """``x / y``, but 0 wherever ``y`` is 0 (even when ``x`` is 0, inf or nan).

    >>> # tf.math.divide_no_nan([1., 2.], [0., 4.])  ->  [0., 0.5]
    """
    return record1(P.DIV_NO_NAN, convert_operands([x, y]), name=name or P.DIV_NO_NAN.default_name)


div_no_nan = divide_no_nan


def truediv(x: Any, y: Any, name: str | None = None) -> Tensor:
    """``x / y``; integer operands are first cast to float (int32 -> float64), as in TF."""
    x, y = convert_operands([x, y])
    target = _TRUEDIV_FLOAT.get(x.dtype.name)
    with graph_of([x, y]).as_default():
        if target is not None:
            x, y = cast(x, target), cast(y, target)
        return record1(P.REAL_DIV, [x, y], name=name or "truediv")


divide = truediv


def div(x: Any, y: Any, name: str | None = None) -> Tensor:
    """TF-1.x ``tf.div``: Python 2 division, so integers floor-divide (keeping their dtype) and
    floats divide exactly.

    >>> # tf.div(-7, 2)  ->  -4;  tf.div(-7.0, 2.0)  ->  -3.5
    """
    x, y = convert_operands([x, y])
    return floordiv(x, y, name=name) if x.dtype.is_integer else truediv(x, y, name=name)


def cast(x: Any, dtype: Any, name: str | None = None) -> Tensor:
    """``x`` converted to ``dtype`` (floats truncate toward zero when cast to ints)."""
    dtype = _dt.as_dtype(dtype)
    x = convert_to_tensor(x)
    if x.dtype is dtype:
        return x
    return record1(P.CAST, [x], {"DstT": dtype, "SrcT": x.dtype}, name=name or "Cast")


def to_float(x: Any, name: str = "ToFloat") -> Tensor:
    """``cast(x, tf.float32)`` (TF-v1 shorthand; ``to_double``, ``to_int32``, ``to_int64`` likewise)."""
    return cast(x, _dt.float32, name)


def to_double(x: Any, name: str = "ToDouble") -> Tensor:
    """``cast(x, tf.float64)``."""
    return cast(x, _dt.float64, name)


def to_int32(x: Any, name: str = "ToInt32") -> Tensor:
    """``cast(x, tf.int32)``."""
    return cast(x, _dt.int32, name)


def to_int64(x: Any, name: str = "ToInt64") -> Tensor:
    """``cast(x, tf.int64)``."""
    return cast(x, _dt.int64, name)


def add_n(inputs: Sequence[Any], name: str | None = None) -> Tensor:
    """The sum of a list of tensors of the same shape and dtype."""
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise ValueError("inputs must be a non-empty list of tensors of the same shape and dtype")
    tensors = convert_operands(list(inputs))
    if len(tensors) == 1 and name is None:
        return tensors[0]
    return record1(P.ADD_N, tensors, name=name or "AddN")


def clip_by_value(t: Any, clip_value_min: Any, clip_value_max: Any, name: str | None = None) -> Tensor:
    """``min(max(t, lo), hi)`` elementwise; the gradient passes where ``lo <= t <= hi``."""
    t = convert_to_tensor(t)
    with graph_of([t]).as_default():
        return maximum(minimum(t, clip_value_max), clip_value_min, name=name or "clip_by_value")


def scalar_mul(scalar: Any, x: Any, name: str | None = None) -> Tensor:
    """``scalar * x``.

    >>> # tf.scalar_mul(2.0, x)
    """
    return multiply(scalar, x, name)


def matmul(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False,
           adjoint_a: bool = False, adjoint_b: bool = False, a_is_sparse: bool = False,
           b_is_sparse: bool = False, output_type: Any = None, name: str | None = None) -> Tensor:
    """``a @ b`` over the last two axes (leading batch axes broadcast); ``adjoint`` is the conjugate
    transpose (``transpose`` for real tensors)."""
    a, b = convert_operands([a, b])
    if adjoint_a and a.dtype.is_complex:
        a = record1(CONJ, [a], name="Conj")
    if adjoint_b and b.dtype.is_complex:
        b = record1(CONJ, [b], name="Conj")
    return record1(MAT_MUL, [a, b], {"transpose_a": bool(transpose_a or adjoint_a),
                                      "transpose_b": bool(transpose_b or adjoint_b)}, name=name or "MatMul")
