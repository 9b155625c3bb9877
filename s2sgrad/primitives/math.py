"""Elementwise math: unary and binary ops, comparisons, logic, select, add_n, cast.

Each is a module constant (``TANH``); their gradient rules are in ``autodiff/rules/math.py``.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..shapes import TensorShape
from .common import merged_shape
from .core import Primitive, broadcast_shape, define

KINDS = {"float": "fc", "real": "f", "numeric": "iufc", "signed": "ifc", "int": "iu", "bool": "b",
         "any": "iufcbO", "ordered": "iuf"}  # a declaration's ``kinds``: the NumPy dtype kinds it accepts


def _check_kind(op: str, x: Any, kinds: str) -> None:
    if x.dtype.np.kind not in KINDS[kinds]:
        raise TypeError(f"Value passed to parameter 'x' has DataType {x.dtype.name} not allowed for {op} "
                        f"(expects {kinds} values)")


def _unary_infer(name: str, kinds: str, out: _dt.DType | None = None) -> Any:
    allowed = KINDS[kinds]

    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        x = inputs[0]
        dtype = x.dtype
        if dtype._np.kind not in allowed:   # (the field, not the property: once per elementwise op)
            _check_kind(name, x, kinds)
        return [(out or dtype, x.shape)]
    return infer


def _binary_infer(name: str, kinds: str, out: _dt.DType | None = None) -> Any:
    allowed = KINDS[kinds]

    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        x, y = inputs
        dtype = x.dtype
        if dtype is not y.dtype:
            raise TypeError(f"Input 'y' of '{name}' Op has type {y.dtype.name} that does not match type "
                            f"{dtype.name} of argument 'x'.")
        if dtype._np.kind not in allowed:   # (as in the unary infer)
            _check_kind(name, x, kinds)
        shape = x.shape
        other = y.shape
        return [(out or dtype, shape if shape is other else broadcast_shape(shape, other))]  # (one call less)
    return infer


def unary(name: str, expr: str, kinds: str = "float", out: _dt.DType | None = None, **flags: Any) -> Primitive:
    """An elementwise primitive of one input of ``kinds``, computed by the NumPy expression ``expr``."""
    return define(name, _unary_infer(name, kinds, out), expr=expr, ufunc=True, arity=1, kinds=kinds, **flags)


def binary(name: str, expr: str, kinds: str = "numeric", out: _dt.DType | None = None, **flags: Any) -> Primitive:
    """An elementwise primitive of two inputs of one dtype (``kinds``) that broadcast, computed by ``expr``."""
    return define(name, _binary_infer(name, kinds, out), expr=expr, ufunc=True, arity=2, kinds=kinds, **flags)


# -- unary ---------------------------------------------------------------------------------------

NEG = unary("Neg", "-x", kinds="signed", numpy=(np.negative,), tf_names=("negative", "neg"))


def _abs_infer(inputs: Sequence[Any], attrs: dict) -> list:
    """The absolute value of a complex tensor is real (complex64 -> float32), as TF's ComplexAbs."""
    _check_kind("Abs", inputs[0], "signed")
    return [(inputs[0].dtype.real_dtype, inputs[0].shape)]


ABS = define("Abs", _abs_infer, expr="np.abs(x)", ufunc=True, arity=1, kinds="signed", numpy=(np.absolute, np.fabs),
             tf_names=("abs",))
SIGN = unary("Sign", "np.sign(x)", kinds="signed", numpy=(np.sign,), tf_names=("sign",))
# emitted in codegen/emitters/math.py: ``x * x`` on NumPy scalars, ``np.square(x)`` on arrays
SQUARE = define("Square", _unary_infer("Square", "numeric"), ufunc=True, arity=1, kinds="numeric",
                numpy=(np.square,), tf_names=("square",))
SQRT = unary("Sqrt", "np.sqrt(x)", numpy=(np.sqrt,), tf_names=("sqrt",))
RSQRT = unary("Rsqrt", "1 / np.sqrt(x)", tf_names=("rsqrt",))
EXP = unary("Exp", "np.exp(x)", numpy=(np.exp,), tf_names=("exp",))
EXPM1 = unary("Expm1", "np.expm1(x)", numpy=(np.expm1,), tf_names=("expm1",))
LOG = unary("Log", "np.log(x)", numpy=(np.log,), tf_names=("log",))
LOG1P = unary("Log1p", "np.log1p(x)", numpy=(np.log1p,), tf_names=("log1p",))
SIN = unary("Sin", "np.sin(x)", numpy=(np.sin,), tf_names=("sin",))
COS = unary("Cos", "np.cos(x)", numpy=(np.cos,), tf_names=("cos",))
TAN = unary("Tan", "np.tan(x)", numpy=(np.tan,), tf_names=("tan",))
ASIN = unary("Asin", "np.arcsin(x)", numpy=(np.arcsin,), tf_names=("asin",))
ACOS = unary("Acos", "np.arccos(x)", numpy=(np.arccos,), tf_names=("acos",))
ATAN = unary("Atan", "np.arctan(x)", numpy=(np.arctan,), tf_names=("atan",))
SINH = unary("Sinh", "np.sinh(x)", numpy=(np.sinh,), tf_names=("sinh",))
COSH = unary("Cosh", "np.cosh(x)", numpy=(np.cosh,), tf_names=("cosh",))
ASINH = unary("Asinh", "np.arcsinh(x)", numpy=(np.arcsinh,), tf_names=("asinh",))
TANH = unary("Tanh", "np.tanh(x)", numpy=(np.tanh,), tf_names=("tanh",))
SIGMOID = unary("Sigmoid", "1 / (1 + np.exp(-x))", tf_names=("sigmoid",))
ERF = unary("Erf", "rt.erf(x)", kinds="real", tf_names=("erf",))
RECIPROCAL = unary("Reciprocal", "1 / x", numpy=(np.reciprocal,), tf_names=("reciprocal",))
ROUND = unary("Round", "np.round(x)", differentiable=False, kinds="numeric", numpy=(np.rint,), tf_names=("round",))
FLOOR = unary("Floor", "np.floor(x)", differentiable=False, kinds="real", tf_names=("floor",))
CEIL = unary("Ceil", "np.ceil(x)", differentiable=False, kinds="real", tf_names=("ceil",))
IS_NAN = unary("IsNan", "np.isnan(x)", differentiable=False, kinds="real", out=_dt.bool, tf_names=("is_nan",))
IS_INF = unary("IsInf", "np.isinf(x)", differentiable=False, kinds="real", out=_dt.bool, tf_names=("is_inf",))
IS_FINITE = unary("IsFinite", "np.isfinite(x)", differentiable=False, kinds="real", out=_dt.bool,
                  tf_names=("is_finite",))
LOGICAL_NOT = unary("LogicalNot", "np.logical_not(x)", differentiable=False, kinds="bool", tf_names=("logical_not",))


# -- binary --------------------------------------------------------------------------------------

ADD_V2 = binary("AddV2", "x + y", kinds="any", default_name="Add", numpy=(np.add,), tf_names=("add",))
SUB = binary("Sub", "x - y", numpy=(np.subtract,), tf_names=("subtract",))
MUL = binary("Mul", "x * y", numpy=(np.multiply,), tf_names=("multiply",))
REAL_DIV = binary("RealDiv", "x / y", kinds="float", numpy=(np.true_divide,), tf_names=("realdiv",))
DIV_NO_NAN = binary("DivNoNan", "np.where(y == 0, 0, x / y)", kinds="float", default_name="div_no_nan",
                    tf_names=("divide_no_nan", "div_no_nan"))
FLOOR_DIV = binary("FloorDiv", "x // y", differentiable=False, kinds="ordered", default_name="floordiv",
                   numpy=(np.floor_divide,), tf_names=("floordiv", "floor_div"))
FLOOR_MOD = binary("FloorMod", "x % y", kinds="ordered", numpy=(np.remainder,), tf_names=("floormod", "mod"))
POW = define("Pow", _binary_infer("Pow", "numeric"), ufunc=True, arity=2, kinds="numeric",
             numpy=(np.power, np.float_power), tf_names=("pow",))
# np.maximum/np.minimum are primitives/numpy_corners.py's in the decorator (ties split, as in autograd)
MAXIMUM = binary("Maximum", "np.maximum(x, y)", kinds="ordered", tf_names=("maximum",))
MINIMUM = binary("Minimum", "np.minimum(x, y)", kinds="ordered", tf_names=("minimum",))
SQUARED_DIFFERENCE = binary("SquaredDifference", "np.square(x - y)", tf_names=("squared_difference",))
ATAN2 = binary("Atan2", "np.arctan2(x, y)", kinds="real", numpy=(np.arctan2,), tf_names=("atan2",))
XLOGY = binary("Xlogy", "np.where(x == 0, 0, x * np.log(y))", kinds="float", tf_names=("xlogy",))
EQUAL = binary("Equal", "x == y", differentiable=False, kinds="any", out=_dt.bool, numpy=(np.equal,),
               tf_names=("equal",))
NOT_EQUAL = binary("NotEqual", "x != y", differentiable=False, kinds="any", out=_dt.bool, numpy=(np.not_equal,),
                   tf_names=("not_equal",))
LESS = binary("Less", "x < y", differentiable=False, kinds="ordered", out=_dt.bool, numpy=(np.less,),
              tf_names=("less",))
LESS_EQUAL = binary("LessEqual", "x <= y", differentiable=False, kinds="ordered", out=_dt.bool, numpy=(np.less_equal,),
                    tf_names=("less_equal",))
GREATER = binary("Greater", "x > y", differentiable=False, kinds="ordered", out=_dt.bool, numpy=(np.greater,),
                 tf_names=("greater",))
GREATER_EQUAL = binary("GreaterEqual", "x >= y", differentiable=False, kinds="ordered", out=_dt.bool,
                       numpy=(np.greater_equal,), tf_names=("greater_equal",))
LOGICAL_AND = binary("LogicalAnd", "np.logical_and(x, y)", differentiable=False, kinds="bool", numpy=(np.logical_and,),
                     tf_names=("logical_and",))
LOGICAL_OR = binary("LogicalOr", "np.logical_or(x, y)", differentiable=False, kinds="bool", numpy=(np.logical_or,),
                    tf_names=("logical_or",))
LOGICAL_XOR = binary("LogicalXor", "np.logical_xor(x, y)", differentiable=False, kinds="bool", numpy=(np.logical_xor,),
                     tf_names=("logical_xor",))


# -- select, add_n, cast -------------------------------------------------------------------------

def _select_infer(vector_picks_rows: bool) -> Any:
    """SelectV2 broadcasts all three; TF-v1 Select also lets a vector condition pick whole rows."""
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        c, x, y = inputs
        if not c.dtype.is_bool:
            raise TypeError(f"condition must be a bool tensor, got {c.dtype.name}")
        if x.dtype is not y.dtype:
            raise TypeError(f"x and y must have the same dtype, got {x.dtype.name} and {y.dtype.name}")
        cond = c.shape
        if vector_picks_rows and picks_rows(c, x):
            cond = TensorShape(cond.sizes + (1,) * (x.shape.rank - 1))
        return [(x.dtype, broadcast_shape(cond, x.shape, y.shape))]
    return infer


def picks_rows(c: Any, x: Any) -> bool:
    return c.shape.rank == 1 and x.shape.rank is not None and x.shape.rank > 1


SELECT = define("Select", _select_infer(True), ufunc=True)
SELECT_V2 = define("SelectV2", _select_infer(False), expr="np.where(c, x, y)", expr_args=("c", "x", "y"),
                   ufunc=True)


def _add_n_infer(inputs: Sequence[Any], attrs: dict) -> list:
    if not inputs:
        raise ValueError("add_n needs at least one input")
    return [merged_shape(inputs, "add_n")]


ADD_N = define("AddN", _add_n_infer)


def _cast_infer(inputs: Sequence[Any], attrs: dict) -> list:
    src, dst = inputs[0].dtype, attrs["DstT"]
    if (src.name == "string") != (dst.name == "string"):
        raise TypeError(f"Cast from {src.name} to {dst.name} is not supported")
    return [(dst, inputs[0].shape)]


CAST = define("Cast", _cast_infer)


# -- TF's fused "y-based" gradient kernels: y = f(x) and the incoming g give f'(x) * g --------------

def _grad_kernel(name: str, expr: str) -> Primitive:
    """A binary primitive ``(y, g) -> dx`` (like TF's TanhGrad), with its own gradient rule."""
    return define(name, _binary_infer(name, "float"), expr=expr, expr_args=("y", "g"), ufunc=True, arity=2,
                  kinds="float")


TANH_GRAD = _grad_kernel("TanhGrad", "g * (1 - y * y)")
SIGMOID_GRAD = _grad_kernel("SigmoidGrad", "g * y * (1 - y)")
SQRT_GRAD = _grad_kernel("SqrtGrad", "0.5 * g / y")
RSQRT_GRAD = _grad_kernel("RsqrtGrad", "-0.5 * g * (y * y * y)")
RECIPROCAL_GRAD = _grad_kernel("ReciprocalGrad", "-g * y * y")
