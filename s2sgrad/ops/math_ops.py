"""``tf.add``, ``tf.sin``, ``tf.matmul``...: validate, convert, record. Shapes and dtypes are
checked by the primitives' rules when the op is recorded."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .. import dtypes as _dt
from ..primitives import math as _declared
from ..primitives.core import Primitive
from ..primitives.linalg import MAT_MUL
from ..primitives.math import (
    ABS,
    ACOS,
    ADD_N,
    ADD_V2,
    ASIN,
    ATAN,
    ATAN2,
    CAST,
    CEIL,
    COS,
    COSH,
    DIV_NO_NAN,
    EQUAL,
    ERF,
    EXP,
    EXPM1,
    FLOOR,
    FLOOR_DIV,
    FLOOR_MOD,
    GREATER,
    GREATER_EQUAL,
    IS_FINITE,
    IS_INF,
    IS_NAN,
    LESS,
    LESS_EQUAL,
    LOG,
    LOG1P,
    LOGICAL_AND,
    LOGICAL_NOT,
    LOGICAL_OR,
    LOGICAL_XOR,
    MAXIMUM,
    MINIMUM,
    MUL,
    NEG,
    NOT_EQUAL,
    POW,
    REAL_DIV,
    RECIPROCAL,
    RECIPROCAL_GRAD,
    ROUND,
    RSQRT,
    RSQRT_GRAD,
    SIGMOID,
    SIGMOID_GRAD,
    SIGN,
    SIN,
    SINH,
    SQRT,
    SQRT_GRAD,
    SQUARE,
    SQUARED_DIFFERENCE,
    SUB,
    TAN,
    TANH,
    TANH_GRAD,
)
from ..ssa.graph import Tensor
from .convert import convert_operands, convert_to_tensor, graph_of, record1

_TRUEDIV_FLOAT = {"uint8": _dt.float32, "int8": _dt.float32, "uint16": _dt.float32, "uint32": _dt.float64,
                  "int16": _dt.float32, "int32": _dt.float64, "int64": _dt.float64, "uint64": _dt.float64}


def _unary(prim: Primitive, default_name: str) -> Any:
    def op(x: Any, name: str | None = None) -> Tensor:
        return record1(prim, [convert_to_tensor(x)], name=name or default_name)
    op.__name__ = default_name.lower()
    op.__doc__ = f"Elementwise ``{prim.name}``."
    return op


def _binary(prim: Primitive, default_name: str) -> Any:
    def op(x: Any, y: Any, name: str | None = None) -> Tensor:
        return record1(prim, convert_operands([x, y]), name=name or default_name)
    op.__name__ = default_name.lower()
    op.__doc__ = f"Elementwise ``{prim.name}`` with NumPy broadcasting."
    return op


negative = neg = _unary(NEG, "Neg")
abs = _unary(ABS, "Abs")
sign = _unary(SIGN, "Sign")
square = _unary(SQUARE, "Square")
sqrt = _unary(SQRT, "Sqrt")
rsqrt = _unary(RSQRT, "Rsqrt")
exp = _unary(EXP, "Exp")
expm1 = _unary(EXPM1, "Expm1")
log = _unary(LOG, "Log")
log1p = _unary(LOG1P, "Log1p")
sin = _unary(SIN, "Sin")
cos = _unary(COS, "Cos")
tan = _unary(TAN, "Tan")
asin = _unary(ASIN, "Asin")
acos = _unary(ACOS, "Acos")
atan = _unary(ATAN, "Atan")
sinh = _unary(SINH, "Sinh")
cosh = _unary(COSH, "Cosh")
tanh = _unary(TANH, "Tanh")
sigmoid = _unary(SIGMOID, "Sigmoid")
erf = _unary(ERF, "Erf")
reciprocal = _unary(RECIPROCAL, "Reciprocal")
round = _unary(ROUND, "Round")
floor = _unary(FLOOR, "Floor")
ceil = _unary(CEIL, "Ceil")
is_nan = _unary(IS_NAN, "IsNan")
is_inf = _unary(IS_INF, "IsInf")
is_finite = _unary(IS_FINITE, "IsFinite")
logical_not = _unary(LOGICAL_NOT, "LogicalNot")

add = _binary(ADD_V2, "Add")
subtract = _binary(SUB, "Sub")
multiply = _binary(MUL, "Mul")
realdiv = _binary(REAL_DIV, "RealDiv")
floordiv = floor_div = _binary(FLOOR_DIV, "floordiv")
mod = floormod = _binary(FLOOR_MOD, "FloorMod")
pow = _binary(POW, "Pow")
maximum = _binary(MAXIMUM, "Maximum")
minimum = _binary(MINIMUM, "Minimum")
squared_difference = _binary(SQUARED_DIFFERENCE, "SquaredDifference")
equal = _binary(EQUAL, "Equal")
not_equal = _binary(NOT_EQUAL, "NotEqual")
less = _binary(LESS, "Less")
less_equal = _binary(LESS_EQUAL, "LessEqual")
greater = _binary(GREATER, "Greater")
greater_equal = _binary(GREATER_EQUAL, "GreaterEqual")
logical_and = _binary(LOGICAL_AND, "LogicalAnd")
logical_or = _binary(LOGICAL_OR, "LogicalOr")
logical_xor = _binary(LOGICAL_XOR, "LogicalXor")

# Gradient kernels ``(y, g)`` used by the rules of Tanh, Sigmoid, Sqrt, Rsqrt and Reciprocal.
tanh_grad = _binary(TANH_GRAD, "TanhGrad")
sigmoid_grad = _binary(SIGMOID_GRAD, "SigmoidGrad")
sqrt_grad = _binary(SQRT_GRAD, "SqrtGrad")
rsqrt_grad = _binary(RSQRT_GRAD, "RsqrtGrad")
reciprocal_grad = _binary(RECIPROCAL_GRAD, "ReciprocalGrad")


def elementwise(prim: Primitive, *operands: Any, name: str | None = None) -> Tensor:
    """The elementwise primitive ``prim`` on ``operands``, converted as ``tf.add`` converts them."""
    return record1(prim, convert_operands(list(operands)), name=name or prim.default_name)


def _declared_functions() -> dict[str, Any]:
    """The ``tf.math`` functions that elementwise declarations give by naming one (``tf_name``)."""
    makers: dict[int | None, Callable[[Primitive, str], Any]] = {1: _unary, 2: _binary}
    return {p.tf_name: makers[p.arity](p, p.name) for p in vars(_declared).values()
            if isinstance(p, Primitive) and p.tf_name}


DECLARED: dict[str, Any] = _declared_functions()


def atan2(y: Any, x: Any, name: str | None = None) -> Tensor:
    """The angle of the point ``(x, y)``, elementwise: ``arctan(y / x)`` in the right quadrant.

    >>> # tf.atan2(1.0, -1.0)  ->  2.3561945 (3/4 pi)
    """
    return record1(ATAN2, convert_operands([y, x]), name=name or "Atan2")


def divide_no_nan(x: Any, y: Any, name: str | None = None) -> Tensor:
    """``x / y``, but 0 wherever ``y`` is 0 (even when ``x`` is 0, inf or nan).

    >>> # tf.math.divide_no_nan([1., 2.], [0., 4.])  ->  [0., 0.5]
    """
    return record1(DIV_NO_NAN, convert_operands([x, y]), name=name or "div_no_nan")


div_no_nan = divide_no_nan


def truediv(x: Any, y: Any, name: str | None = None) -> Tensor:
    """``x / y``; integer operands are first cast to float (int32 -> float64), as in TF."""
    x, y = convert_operands([x, y])
    target = _TRUEDIV_FLOAT.get(x.dtype.name)
    with graph_of([x, y]).as_default():
        if target is not None:
            x, y = cast(x, target), cast(y, target)
        return record1(REAL_DIV, [x, y], name=name or "truediv")


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
    return record1(CAST, [x], {"DstT": dtype, "SrcT": x.dtype}, name=name or "Cast")


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
    return record1(ADD_N, tensors, name=name or "AddN")


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
    """``a @ b`` over the last two axes (leading batch axes broadcast); ``adjoint`` is
    ``transpose`` for real tensors."""
    a, b = convert_operands([a, b])
    if (adjoint_a or adjoint_b) and a.dtype.is_complex:
        raise NotImplementedError("adjoint_a/adjoint_b of complex tensors is not supported")
    return record1(MAT_MUL, [a, b], {"transpose_a": bool(transpose_a or adjoint_a),
                                      "transpose_b": bool(transpose_b or adjoint_b)}, name=name or "MatMul")
