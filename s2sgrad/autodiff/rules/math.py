"""Gradient rules of the math primitives."""
from __future__ import annotations

import math
from typing import Any

from ...ops import array_ops as a
from ...ops import math_ops as m
from ...primitives import math as P
from ...primitives.core import Primitive
from ...ssa.nodes import Operation, Tensor
from .common import Grads, Needed, Rule, only_needed, unbroadcast


def _x(op: Operation) -> Tensor:
    return op.inputs[0]


def _y(op: Operation) -> Tensor:
    return op.outputs[0]


def _abs_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    x = _x(op)
    return [(m.cast(g, x.dtype) if x.dtype.is_complex else g) * m.sign(x)]


# The three commonest rules spell ``only_needed`` out (no closures to make for every op).
def _add_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    x, y = op.inputs
    return [unbroadcast(g, x) if needed[0] else None, unbroadcast(g, y) if needed[1] else None]


def _sub_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    x, y = op.inputs
    return [unbroadcast(g, x) if needed[0] else None, unbroadcast(-g, y) if needed[1] else None]


def _mul_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    x, y = op.inputs
    return [unbroadcast(m.multiply(g, y), x) if needed[0] else None,
            unbroadcast(m.multiply(g, x), y) if needed[1] else None]


def _div_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    x, y = op.inputs
    return only_needed(needed, lambda: unbroadcast(g / y, x), lambda: unbroadcast(g * (-x / y / y), y))


def _div_no_nan_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    x, y = op.inputs
    return only_needed(needed, lambda: unbroadcast(m.divide_no_nan(g, y), x),
                       lambda: unbroadcast(g * m.divide_no_nan(m.divide_no_nan(-x, y), y), y))


def _floormod_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    x, y = op.inputs
    return only_needed(needed, lambda: unbroadcast(g, x), lambda: unbroadcast(g * -m.floordiv(x, y), y))


def _pow_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    x, y = op.inputs
    z = op.outputs[0]

    def grad_y() -> Tensor:
        log_x = a.where_v2(x > 0.0, m.log(a.where_v2(x > 0.0, x, a.ones_like(x))), a.zeros_like(x))
        return unbroadcast(g * z * log_x, y)

    return only_needed(needed, lambda: unbroadcast(g * y * m.pow(x, y - 1.0), x), grad_y)


def _min_max_grad(select: Any) -> Any:
    def grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
        x, y = op.inputs
        x_wins = select(x, y)
        zeros = a.zeros_like(g)
        return only_needed(needed, lambda: unbroadcast(a.where_v2(x_wins, g, zeros), x),
                           lambda: unbroadcast(a.where_v2(x_wins, zeros, g), y))
    return grad


def _squared_difference_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    x, y = op.inputs
    gx = (2.0 * g) * (x - y)
    return only_needed(needed, lambda: unbroadcast(gx, x), lambda: unbroadcast(-gx, y))


def _atan2_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    x, y = op.inputs
    scale = g * m.reciprocal(m.square(x) + m.square(y))
    return only_needed(needed, lambda: unbroadcast(scale * y, x), lambda: unbroadcast(-scale * x, y))


def _select_grad(where: Any) -> Any:
    def grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
        c, x, y = op.inputs
        zeros = a.zeros_like(g)
        return only_needed(needed, lambda: None, lambda: unbroadcast(where(c, g, zeros), x),
                           lambda: unbroadcast(where(c, zeros, g), y))
    return grad


def _cast_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    src = op.inputs[0].dtype
    if src.is_differentiable and op.outputs[0].dtype.is_differentiable:
        return [m.cast(g, src)]
    return [None]


def _tanh_grad_grad(op: Operation, needed: Needed, gg: Tensor) -> Grads:
    y, g = op.inputs
    return only_needed(needed, lambda: gg * -2.0 * g * y, lambda: m.tanh_grad(y, gg))


def _sigmoid_grad_grad(op: Operation, needed: Needed, gg: Tensor) -> Grads:
    y, g = op.inputs
    return only_needed(needed, lambda: gg * g - 2.0 * (gg * g) * y, lambda: m.sigmoid_grad(y, gg))


def _sqrt_grad_grad(op: Operation, needed: Needed, gg: Tensor) -> Grads:
    y, g = op.inputs
    return only_needed(needed, lambda: -gg * op.outputs[0] / y, lambda: m.sqrt_grad(y, gg))


def _rsqrt_grad_grad(op: Operation, needed: Needed, gg: Tensor) -> Grads:
    y, g = op.inputs
    return only_needed(needed, lambda: -1.5 * gg * g * y * y, lambda: m.rsqrt_grad(y, gg))


def _reciprocal_grad_grad(op: Operation, needed: Needed, gg: Tensor) -> Grads:
    y, g = op.inputs
    return only_needed(needed, lambda: -2.0 * gg * g * y, lambda: m.reciprocal_grad(y, gg))


def _xlogy_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """As TF: ``xlogy(x != 0, y)`` for x and ``x / y`` (0 where x is 0) for y."""
    x, y = op.inputs
    x_is_zero = m.equal(x, 0.0)
    not_zero = m.cast(m.logical_not(x_is_zero), x.dtype)
    return only_needed(needed, lambda: unbroadcast(g * m.elementwise(P.XLOGY, not_zero, y), x),
                       lambda: unbroadcast(g * a.where_v2(x_is_zero, a.zeros_like(x), x / y), y))


RULES: dict[Primitive, Rule] = {
    P.NEG: lambda op, needed, g: [-g],
    P.ABS: _abs_grad,
    P.SIGN: lambda op, needed, g: [a.zeros_like(_x(op))],
    P.SQUARE: lambda op, needed, g: [g * (2.0 * _x(op))],
    P.SQRT: lambda op, needed, g: [m.sqrt_grad(_y(op), g)],
    P.RSQRT: lambda op, needed, g: [m.rsqrt_grad(_y(op), g)],
    P.EXP: lambda op, needed, g: [g * _y(op)],
    P.EXPM1: lambda op, needed, g: [g * m.exp(_x(op))],
    P.LOG: lambda op, needed, g: [g * m.reciprocal(_x(op))],
    P.LOG1P: lambda op, needed, g: [g * m.reciprocal(1.0 + _x(op))],
    P.SIN: lambda op, needed, g: [g * m.cos(_x(op))],
    P.COS: lambda op, needed, g: [-g * m.sin(_x(op))],
    P.TAN: lambda op, needed, g: [g * m.square(m.reciprocal(m.cos(_x(op))))],
    P.ASIN: lambda op, needed, g: [g * m.reciprocal(m.sqrt(1.0 - m.square(_x(op))))],
    P.ACOS: lambda op, needed, g: [-g * m.reciprocal(m.sqrt(1.0 - m.square(_x(op))))],
    P.ATAN: lambda op, needed, g: [g * m.reciprocal(1.0 + m.square(_x(op)))],
    P.SINH: lambda op, needed, g: [g * m.cosh(_x(op))],
    P.COSH: lambda op, needed, g: [g * m.sinh(_x(op))],
    P.ASINH: lambda op, needed, g: [g / m.cosh(_y(op))],
    P.TANH: lambda op, needed, g: [m.tanh_grad(_y(op), g)],
    P.SIGMOID: lambda op, needed, g: [m.sigmoid_grad(_y(op), g)],
    P.ERF: lambda op, needed, g: [g * (2.0 / math.sqrt(math.pi)) * m.exp(-m.square(_x(op)))],
    P.RECIPROCAL: lambda op, needed, g: [m.reciprocal_grad(_y(op), g)],
    P.ADD_V2: _add_grad,
    P.SUB: _sub_grad,
    P.MUL: _mul_grad,
    P.REAL_DIV: _div_grad,
    P.DIV_NO_NAN: _div_no_nan_grad,
    P.FLOOR_MOD: _floormod_grad,
    P.POW: _pow_grad,
    P.MAXIMUM: _min_max_grad(m.greater_equal),
    P.MINIMUM: _min_max_grad(m.less_equal),
    P.SQUARED_DIFFERENCE: _squared_difference_grad,
    P.ATAN2: _atan2_grad,
    P.XLOGY: _xlogy_grad,
    P.SELECT: _select_grad(a.where),
    P.SELECT_V2: _select_grad(a.where_v2),
    P.ADD_N: lambda op, needed, g: [g] * len(op.inputs),
    P.CAST: _cast_grad,
    P.TANH_GRAD: _tanh_grad_grad,
    P.SIGMOID_GRAD: _sigmoid_grad_grad,
    P.SQRT_GRAD: _sqrt_grad_grad,
    P.RSQRT_GRAD: _rsqrt_grad_grad,
    P.RECIPROCAL_GRAD: _reciprocal_grad_grad,
}
