"""Gradient rules of the reduce primitives."""
from __future__ import annotations

from ...ops import array_ops as a
from ...ops import math_ops as m
from ...ops import reduce_ops as r
from ...primitives import reduce as P
from ...primitives.core import Primitive
from ...ssa.nodes import Operation, Tensor
from .common import Grads, Needed, Rule


def _sum_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    return [a.broadcast_reduced(g, op.inputs[0], op.attrs["axis"], op.attrs["keepdims"])]


def _mean_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    x, y = op.inputs[0], op.outputs[0]
    count = m.cast(a.size(x) // m.maximum(a.size(y), 1), g.dtype)
    return [a.broadcast_reduced(g, x, op.attrs["axis"], op.attrs["keepdims"]) / count]


def _min_max_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """The gradient is shared equally by all elements equal to the extreme value (as TF)."""
    x, y = op.inputs[0], op.outputs[0]
    axis, keep = op.attrs["axis"], op.attrs["keepdims"]
    hits = m.cast(m.equal(a.broadcast_reduced(y, x, axis, keep), x), g.dtype)
    count = r.reduce_sum(hits, axis, keepdims=True)
    return [hits / count * a.broadcast_reduced(g, x, axis, keep)]


def _prod_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """Products of all other elements, by exclusive cumulative products from both ends."""
    x = op.inputs[0]
    axis, keep = op.attrs["axis"], op.attrs["keepdims"]
    others = r.prod_of_others(x, axis)
    return [others * a.broadcast_reduced(g, x, axis, keep)]


def _cumsum_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    return [r.cumsum(g, op.attrs["axis"], exclusive=op.attrs["exclusive"], reverse=not op.attrs["reverse"])]


def _cumprod_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    x, y = op.inputs[0], op.outputs[0]
    axis, exclusive, reverse = op.attrs["axis"], op.attrs["exclusive"], op.attrs["reverse"]
    return [m.divide_no_nan(r.cumsum(y * g, axis, exclusive=exclusive, reverse=not reverse), x)]


RULES: dict[Primitive, Rule] = {
    P.SUM: _sum_grad,
    P.MEAN: _mean_grad,
    P.MAX: _min_max_grad,
    P.MIN: _min_max_grad,
    P.PROD: _prod_grad,
    P.CUMSUM: _cumsum_grad,
    P.CUMPROD: _cumprod_grad,
    P.SUM_TO_SHAPE: lambda op, needed, g: [a.broadcast_like(g, op.inputs[0]), None],
    P.BROADCAST_LIKE: lambda op, needed, g: [a.sum_to(g, op.inputs[0]), None],
    P.BROADCAST_REDUCED: lambda op, needed, g: [r.reduce_sum(g, op.attrs["axis"], keepdims=op.attrs["keepdims"]), None],
}
