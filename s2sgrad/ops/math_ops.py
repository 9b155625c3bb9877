"""``tf.add``, ``tf.sin``, ``tf.matmul``...: validate, convert, record. Shapes and dtypes are
checked by the primitives' rules when the op is recorded."""
from __future__ import annotations

from typing import Any, Sequence

from .. import dtypes as _dt
from ..graph import Tensor
from .convert import convert_operands, convert_to_tensor, graph_of, record1

_TRUEDIV_FLOAT = {"uint8": _dt.float32, "int8": _dt.float32, "uint16": _dt.float32, "uint32": _dt.float64,
                  "int16": _dt.float32, "int32": _dt.float64, "int64": _dt.float64, "uint64": _dt.float64}


def _unary(op_type: str, default_name: str) -> Any:
    def op(x: Any, name: str | None = None) -> Tensor:
        return record1(op_type, [convert_to_tensor(x)], name=name or default_name)
    op.__name__ = default_name.lower()
    op.__doc__ = f"Elementwise ``{op_type}``."
    return op


def _binary(op_type: str, default_name: str) -> Any:
    def op(x: Any, y: Any, name: str | None = None) -> Tensor:
        return record1(op_type, convert_operands([x, y]), name=name or default_name)
    op.__name__ = default_name.lower()
    op.__doc__ = f"Elementwise ``{op_type}`` with NumPy broadcasting."
    return op


negative = neg = _unary("Neg", "Neg")
abs = _unary("Abs", "Abs")  # noqa: A001
sign = _unary("Sign", "Sign")
square = _unary("Square", "Square")
sqrt = _unary("Sqrt", "Sqrt")
rsqrt = _unary("Rsqrt", "Rsqrt")
exp = _unary("Exp", "Exp")
expm1 = _unary("Expm1", "Expm1")
log = _unary("Log", "Log")
log1p = _unary("Log1p", "Log1p")
sin = _unary("Sin", "Sin")
cos = _unary("Cos", "Cos")
tan = _unary("Tan", "Tan")
asin = _unary("Asin", "Asin")
acos = _unary("Acos", "Acos")
atan = _unary("Atan", "Atan")
sinh = _unary("Sinh", "Sinh")
cosh = _unary("Cosh", "Cosh")
tanh = _unary("Tanh", "Tanh")
sigmoid = _unary("Sigmoid", "Sigmoid")
erf = _unary("Erf", "Erf")
reciprocal = _unary("Reciprocal", "Reciprocal")
round = _unary("Round", "Round")  # noqa: A001
floor = _unary("Floor", "Floor")
ceil = _unary("Ceil", "Ceil")
is_nan = _unary("IsNan", "IsNan")
is_inf = _unary("IsInf", "IsInf")
is_finite = _unary("IsFinite", "IsFinite")
logical_not = _unary("LogicalNot", "LogicalNot")

add = _binary("AddV2", "Add")
subtract = _binary("Sub", "Sub")
multiply = _binary("Mul", "Mul")
realdiv = _binary("RealDiv", "RealDiv")
floordiv = floor_div = _binary("FloorDiv", "floordiv")
mod = floormod = _binary("FloorMod", "FloorMod")
pow = _binary("Pow", "Pow")  # noqa: A001
maximum = _binary("Maximum", "Maximum")
minimum = _binary("Minimum", "Minimum")
squared_difference = _binary("SquaredDifference", "SquaredDifference")
equal = _binary("Equal", "Equal")
not_equal = _binary("NotEqual", "NotEqual")
less = _binary("Less", "Less")
less_equal = _binary("LessEqual", "LessEqual")
greater = _binary("Greater", "Greater")
greater_equal = _binary("GreaterEqual", "GreaterEqual")
logical_and = _binary("LogicalAnd", "LogicalAnd")
logical_or = _binary("LogicalOr", "LogicalOr")
logical_xor = _binary("LogicalXor", "LogicalXor")

# Gradient kernels ``(y, g)`` used by the rules of Tanh, Sigmoid, Sqrt, Rsqrt and Reciprocal.
tanh_grad = _binary("TanhGrad", "TanhGrad")
sigmoid_grad = _binary("SigmoidGrad", "SigmoidGrad")
sqrt_grad = _binary("SqrtGrad", "SqrtGrad")
rsqrt_grad = _binary("RsqrtGrad", "RsqrtGrad")
reciprocal_grad = _binary("ReciprocalGrad", "ReciprocalGrad")


def atan2(y: Any, x: Any, name: str | None = None) -> Tensor:
    """The angle of the point ``(x, y)``, elementwise: ``arctan(y / x)`` in the right quadrant.

    >>> # tf.atan2(1.0, -1.0)  ->  2.3561945 (3/4 pi)
    """
    return record1("Atan2", convert_operands([y, x]), name=name or "Atan2")


def divide_no_nan(x: Any, y: Any, name: str | None = None) -> Tensor:
    """``x / y``, but 0 wherever ``y`` is 0 (even when ``x`` is 0, inf or nan).

    >>> # tf.math.divide_no_nan([1., 2.], [0., 4.])  ->  [0., 0.5]
    """
    return record1("DivNoNan", convert_operands([x, y]), name=name or "div_no_nan")


div_no_nan = divide_no_nan


def truediv(x: Any, y: Any, name: str | None = None) -> Tensor:
    """``x / y``; integer operands are first cast to float (int32 -> float64), as in TF."""
    x, y = convert_operands([x, y])
    target = _TRUEDIV_FLOAT.get(x.dtype.name)
    with graph_of([x, y]).as_default():
        if target is not None:
            x, y = cast(x, target), cast(y, target)
        return record1("RealDiv", [x, y], name=name or "truediv")


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
    return record1("Cast", [x], {"DstT": dtype, "SrcT": x.dtype}, name=name or "Cast")


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
    return record1("AddN", tensors, name=name or "AddN")


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
    return record1("MatMul", [a, b], {"transpose_a": bool(transpose_a or adjoint_a),
                                      "transpose_b": bool(transpose_b or adjoint_b)}, name=name or "MatMul")
