"""Elementwise math: unary and binary ops, comparisons, logic, select, add_n, cast.

Gradient rules follow TensorFlow's (``math_grad.py``) so numbers agree to the last bit
where the formula is the same; binary rules undo broadcasting with ``unbroadcast``.
"""
from __future__ import annotations

import ast
import math
from typing import Any, Sequence

from .. import dtypes as _dt
from ..ops import array_ops as a
from ..ops import math_ops as m
from ..shapes import TensorShape
from .common import LOAD, astype, merged_shape, rt_call
from .core import broadcast_shape, define, literal, np_attr, only_needed, template

_KINDS = {"float": "fc", "real": "f", "numeric": "iufc", "signed": "ifc", "int": "iu", "bool": "b",
          "any": "iufcbO", "ordered": "iuf"}


def _check_kind(op: str, x: Any, kinds: str) -> None:
    if x.dtype.np.kind not in _KINDS[kinds]:
        raise TypeError(f"Value passed to parameter 'x' has DataType {x.dtype.name} not allowed for {op} "
                        f"(expects {kinds} values)")


def _unary_infer(name: str, kinds: str, out: _dt.DType | None = None) -> Any:
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        _check_kind(name, inputs[0], kinds)
        return [(out or inputs[0].dtype, inputs[0].shape)]
    return infer


def _binary_infer(name: str, kinds: str, out: _dt.DType | None = None) -> Any:
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        x, y = inputs
        if x.dtype is not y.dtype:
            raise TypeError(f"Input 'y' of '{name}' Op has type {y.dtype.name} that does not match type "
                            f"{x.dtype.name} of argument 'x'.")
        _check_kind(name, x, kinds)
        return [(out or x.dtype, broadcast_shape(x.shape, y.shape))]
    return infer


def unary(name: str, expr: str, grad: Any = None, kinds: str = "float", out: _dt.DType | None = None,
          **flags: Any) -> None:
    """An elementwise primitive of one input of ``kinds``, emitted as the template ``expr``."""
    define(name, _unary_infer(name, kinds, out), template(expr), grad, ufunc=True, **flags)


def binary(name: str, expr: str, grad: Any = None, kinds: str = "numeric", out: _dt.DType | None = None,
           **flags: Any) -> None:
    """An elementwise primitive of two inputs of one dtype (``kinds``) that broadcast, emitted as ``expr``."""
    define(name, _binary_infer(name, kinds, out), template(expr), grad, ufunc=True, **flags)


def unbroadcast(g: Any, x: Any) -> Any:
    """``g`` summed down to ``x``'s shape (a no-op when the static shapes already agree)."""
    if g.shape.is_fully_defined() and g.shape == x.shape:
        return g
    return a.sum_to(g, x)


def _x(op: Any) -> Any:
    return op.inputs[0]


def _y(op: Any) -> Any:
    return op.outputs[0]


def _same_value(ins: Any, identity: float, position: int = 1) -> Any:
    """``x op c`` is ``x`` when ``c`` is the uniform constant ``identity`` and changes no shape."""
    x, c = ins.args[1 - position], ins.args[position]
    if c.const is not None and c.is_uniform() and c.scalar() == identity \
            and x.shape == ins.outs[0].shape and x.dtype is ins.outs[0].dtype:
        return x
    return None


def _either_side(identity: float) -> Any:
    return lambda ins: _same_value(ins, identity, 1) or _same_value(ins, identity, 0)


def _double_negation(ins: Any) -> Any:
    """``-(-x)`` is ``x``."""
    producer = ins.args[0].producer
    return producer.args[0] if producer is not None and producer.prim.name == "Neg" else None


# -- unary ---------------------------------------------------------------------------------------

unary("Neg", "-x", lambda op, g: [-g], kinds="signed", simplify=_double_negation)


def _abs_infer(inputs: Sequence[Any], attrs: dict) -> list:
    """The absolute value of a complex tensor is real (complex64 -> float32), as TF's ComplexAbs."""
    _check_kind("Abs", inputs[0], "signed")
    return [(inputs[0].dtype.real_dtype, inputs[0].shape)]


def _abs_grad(op: Any, g: Any) -> list:
    x = _x(op)
    return [(m.cast(g, x.dtype) if x.dtype.is_complex else g) * m.sign(x)]


define("Abs", _abs_infer, template("np.abs(x)"), _abs_grad, ufunc=True)
unary("Sign", "np.sign(x)", lambda op, g: [a.zeros_like(_x(op))], kinds="signed")
unary("Square", "np.square(x)", lambda op, g: [g * (2.0 * _x(op))], kinds="numeric")
unary("Sqrt", "np.sqrt(x)", lambda op, g: [m.sqrt_grad(_y(op), g)])
unary("Rsqrt", "1 / np.sqrt(x)", lambda op, g: [m.rsqrt_grad(_y(op), g)])
unary("Exp", "np.exp(x)", lambda op, g: [g * _y(op)])
unary("Expm1", "np.expm1(x)", lambda op, g: [g * m.exp(_x(op))])
unary("Log", "np.log(x)", lambda op, g: [g * m.reciprocal(_x(op))])
unary("Log1p", "np.log1p(x)", lambda op, g: [g * m.reciprocal(1.0 + _x(op))])
unary("Sin", "np.sin(x)", lambda op, g: [g * m.cos(_x(op))])
unary("Cos", "np.cos(x)", lambda op, g: [-g * m.sin(_x(op))])
unary("Tan", "np.tan(x)", lambda op, g: [g * m.square(m.reciprocal(m.cos(_x(op))))])
unary("Asin", "np.arcsin(x)", lambda op, g: [g * m.reciprocal(m.sqrt(1.0 - m.square(_x(op))))])
unary("Acos", "np.arccos(x)", lambda op, g: [-g * m.reciprocal(m.sqrt(1.0 - m.square(_x(op))))])
unary("Atan", "np.arctan(x)", lambda op, g: [g * m.reciprocal(1.0 + m.square(_x(op)))])
unary("Sinh", "np.sinh(x)", lambda op, g: [g * m.cosh(_x(op))])
unary("Cosh", "np.cosh(x)", lambda op, g: [g * m.sinh(_x(op))])
unary("Tanh", "np.tanh(x)", lambda op, g: [m.tanh_grad(_y(op), g)])
unary("Sigmoid", "1 / (1 + np.exp(-x))", lambda op, g: [m.sigmoid_grad(_y(op), g)])
unary("Erf", "rt.erf(x)", lambda op, g: [g * (2.0 / math.sqrt(math.pi)) * m.exp(-m.square(_x(op)))],
      kinds="real")
unary("Reciprocal", "1 / x", lambda op, g: [m.reciprocal_grad(_y(op), g)])
unary("Round", "np.round(x)", differentiable=False, kinds="numeric")
unary("Floor", "np.floor(x)", differentiable=False, kinds="real")
unary("Ceil", "np.ceil(x)", differentiable=False, kinds="real")
unary("IsNan", "np.isnan(x)", differentiable=False, kinds="real", out=_dt.bool)
unary("IsInf", "np.isinf(x)", differentiable=False, kinds="real", out=_dt.bool)
unary("IsFinite", "np.isfinite(x)", differentiable=False, kinds="real", out=_dt.bool)
unary("LogicalNot", "np.logical_not(x)", differentiable=False, kinds="bool")


# -- binary --------------------------------------------------------------------------------------

def _add_grad(op: Any, g: Any) -> list:
    x, y = op.inputs
    return only_needed(op, lambda: unbroadcast(g, x), lambda: unbroadcast(g, y))


def _sub_grad(op: Any, g: Any) -> list:
    x, y = op.inputs
    return only_needed(op, lambda: unbroadcast(g, x), lambda: unbroadcast(-g, y))


def _mul_grad(op: Any, g: Any) -> list:
    x, y = op.inputs
    return only_needed(op, lambda: unbroadcast(m.multiply(g, y), x), lambda: unbroadcast(m.multiply(g, x), y))


def _div_grad(op: Any, g: Any) -> list:
    x, y = op.inputs
    return only_needed(op, lambda: unbroadcast(g / y, x), lambda: unbroadcast(g * (-x / y / y), y))


def _div_no_nan_grad(op: Any, g: Any) -> list:
    x, y = op.inputs
    return only_needed(op, lambda: unbroadcast(m.divide_no_nan(g, y), x),
                       lambda: unbroadcast(g * m.divide_no_nan(m.divide_no_nan(-x, y), y), y))


def _floormod_grad(op: Any, g: Any) -> list:
    x, y = op.inputs
    return only_needed(op, lambda: unbroadcast(g, x), lambda: unbroadcast(g * -m.floordiv(x, y), y))


def _pow_grad(op: Any, g: Any) -> list:
    x, y = op.inputs
    z = op.outputs[0]

    def grad_y() -> Any:
        log_x = a.where_v2(x > 0.0, m.log(a.where_v2(x > 0.0, x, a.ones_like(x))), a.zeros_like(x))
        return unbroadcast(g * z * log_x, y)

    return only_needed(op, lambda: unbroadcast(g * y * m.pow(x, y - 1.0), x), grad_y)


def _min_max_grad(select: Any) -> Any:
    def grad(op: Any, g: Any) -> list:
        x, y = op.inputs
        x_wins = select(x, y)
        zeros = a.zeros_like(g)
        return only_needed(op, lambda: unbroadcast(a.where_v2(x_wins, g, zeros), x),
                           lambda: unbroadcast(a.where_v2(x_wins, zeros, g), y))
    return grad


def _squared_difference_grad(op: Any, g: Any) -> list:
    x, y = op.inputs
    gx = (2.0 * g) * (x - y)
    return only_needed(op, lambda: unbroadcast(gx, x), lambda: unbroadcast(-gx, y))


def _atan2_grad(op: Any, g: Any) -> list:
    x, y = op.inputs
    scale = g * m.reciprocal(m.square(x) + m.square(y))
    return only_needed(op, lambda: unbroadcast(scale * y, x), lambda: unbroadcast(-scale * x, y))


def _emit_pow(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    """``x ** 2`` as ``np.square(x)`` (NumPy computes both the same way)."""
    y = ins.args[1]
    if y.const is not None and y.is_uniform() and y.scalar() == 2 and ins.args[0].shape == ins.outs[0].shape:
        return ast.Call(np_attr("square"), [args[0]], [])
    return ast.BinOp(args[0], ast.Pow(), args[1])


binary("AddV2", "x + y", _add_grad, kinds="any", default_name="Add", simplify=_either_side(0))
binary("Sub", "x - y", _sub_grad, simplify=lambda ins: _same_value(ins, 0))
binary("Mul", "x * y", _mul_grad, simplify=_either_side(1))
binary("RealDiv", "x / y", _div_grad, kinds="float", simplify=lambda ins: _same_value(ins, 1))
binary("DivNoNan", "np.where(y == 0, 0, x / y)", _div_no_nan_grad, kinds="float")
binary("FloorDiv", "x // y", differentiable=False, kinds="ordered")
binary("FloorMod", "x % y", _floormod_grad, kinds="ordered")
define("Pow", _binary_infer("Pow", "numeric"), _emit_pow, _pow_grad, ufunc=True,
       simplify=lambda ins: _same_value(ins, 1))
binary("Maximum", "np.maximum(x, y)", _min_max_grad(m.greater_equal), kinds="ordered")
binary("Minimum", "np.minimum(x, y)", _min_max_grad(m.less_equal), kinds="ordered")
binary("SquaredDifference", "np.square(x - y)", _squared_difference_grad)
binary("Atan2", "np.arctan2(x, y)", _atan2_grad, kinds="real")
for _name, _expr in [("Equal", "x == y"), ("NotEqual", "x != y")]:
    binary(_name, _expr, differentiable=False, kinds="any", out=_dt.bool)
for _name, _expr in [("Less", "x < y"), ("LessEqual", "x <= y"), ("Greater", "x > y"),
                     ("GreaterEqual", "x >= y")]:
    binary(_name, _expr, differentiable=False, kinds="ordered", out=_dt.bool)
binary("LogicalAnd", "np.logical_and(x, y)", differentiable=False, kinds="bool")
binary("LogicalOr", "np.logical_or(x, y)", differentiable=False, kinds="bool")
binary("LogicalXor", "np.logical_xor(x, y)", differentiable=False, kinds="bool")


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
        if vector_picks_rows and _picks_rows(c, x):
            cond = TensorShape(cond.sizes + (1,) * (x.shape.rank - 1))
        return [(x.dtype, broadcast_shape(cond, x.shape, y.shape))]
    return infer


def _picks_rows(c: Any, x: Any) -> bool:
    return c.shape.rank == 1 and x.shape.rank is not None and x.shape.rank > 1


_where = template("np.where(c, x, y)", ("c", "x", "y"))
_where_rows_at_run_time = template("np.where(np.reshape(c, np.shape(c) + (1,) * (np.ndim(x) - np.ndim(c))), x, y)",
                                   ("c", "x", "y"))


def _emit_select(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    c, x, _ = ins.args
    if c.shape.rank is None or x.shape.rank is None:
        return _where_rows_at_run_time(ins, args)
    if _picks_rows(c, x):
        rows = ast.Call(np_attr("reshape"), [args[0], literal((-1,) + (1,) * (x.shape.rank - 1))], [])
        return _where(ins, [rows, args[1], args[2]])
    return _where(ins, args)


def _select_grad(where: Any) -> Any:
    def grad(op: Any, g: Any) -> list:
        c, x, y = op.inputs
        zeros = a.zeros_like(g)
        return only_needed(op, lambda: None, lambda: unbroadcast(where(c, g, zeros), x),
                           lambda: unbroadcast(where(c, zeros, g), y))
    return grad


define("Select", _select_infer(True), _emit_select, _select_grad(a.where), ufunc=True)
define("SelectV2", _select_infer(False), _where, _select_grad(a.where_v2), ufunc=True)


def _add_n_infer(inputs: Sequence[Any], attrs: dict) -> list:
    if not inputs:
        raise ValueError("add_n needs at least one input")
    return [merged_shape(inputs, "add_n")]


_INLINE_TERMS = 16  # longer sums call rt.add_n: a deep ``a + b + ...`` tree overflows ast.unparse


def _emit_add_n(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    if len(args) > _INLINE_TERMS:
        return rt_call("add_n", [ast.List(list(args), LOAD)])
    expr = args[0]
    for arg in args[1:]:
        expr = ast.BinOp(expr, ast.Add(), arg)
    return expr


define("AddN", _add_n_infer, _emit_add_n, lambda op, g: [g] * len(op.inputs),
       simplify=lambda ins: ins.args[0] if len(ins.args) == 1 else None)


def _cast_infer(inputs: Sequence[Any], attrs: dict) -> list:
    src, dst = inputs[0].dtype, attrs["DstT"]
    if (src.name == "string") != (dst.name == "string"):
        raise TypeError(f"Cast from {src.name} to {dst.name} is not supported")
    return [(dst, inputs[0].shape)]


def _cast_grad(op: Any, g: Any) -> list:
    src = op.inputs[0].dtype
    if src.is_differentiable and op.outputs[0].dtype.is_differentiable:
        return [m.cast(g, src)]
    return [None]


def _emit_cast(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    return astype(args[0], ins.attrs["DstT"])


define("Cast", _cast_infer, _emit_cast, _cast_grad,
       simplify=lambda ins: ins.args[0] if ins.args[0].dtype is ins.attrs["DstT"] else None)


# -- TF's fused "y-based" gradient kernels: y = f(x) and the incoming g give f'(x) * g --------------

def _grad_kernel(name: str, expr: str, grad: Any) -> None:
    """A binary primitive ``(y, g) -> dx`` (like TF's TanhGrad), with its own gradient rule."""
    define(name, _binary_infer(name, "float"), template(expr, ("y", "g")), grad, ufunc=True)


def _tanh_grad_grad(op: Any, gg: Any) -> list:
    y, g = op.inputs
    return only_needed(op, lambda: gg * -2.0 * g * y, lambda: m.tanh_grad(y, gg))


def _sigmoid_grad_grad(op: Any, gg: Any) -> list:
    y, g = op.inputs
    return only_needed(op, lambda: gg * g - 2.0 * (gg * g) * y, lambda: m.sigmoid_grad(y, gg))


def _sqrt_grad_grad(op: Any, gg: Any) -> list:
    y, g = op.inputs
    return only_needed(op, lambda: -gg * op.outputs[0] / y, lambda: m.sqrt_grad(y, gg))


def _rsqrt_grad_grad(op: Any, gg: Any) -> list:
    y, g = op.inputs
    return only_needed(op, lambda: -1.5 * gg * g * y * y, lambda: m.rsqrt_grad(y, gg))


def _reciprocal_grad_grad(op: Any, gg: Any) -> list:
    y, g = op.inputs
    return only_needed(op, lambda: -2.0 * gg * g * y, lambda: m.reciprocal_grad(y, gg))


_grad_kernel("TanhGrad", "g * (1 - y * y)", _tanh_grad_grad)
_grad_kernel("SigmoidGrad", "g * y * (1 - y)", _sigmoid_grad_grad)
_grad_kernel("SqrtGrad", "0.5 * g / y", _sqrt_grad_grad)
_grad_kernel("RsqrtGrad", "-0.5 * g * (y * y * y)", _rsqrt_grad_grad)
_grad_kernel("ReciprocalGrad", "-g * y * y", _reciprocal_grad_grad)
