"""Gradient rules of the nn primitives."""
from __future__ import annotations

from typing import Any

from ...ops import array_ops as a
from ...ops import math_ops as m
from ...ops import reduce_ops as r
from ...ops.convert import record1
from ...primitives import fills
from ...primitives import nn as P
from ...primitives.core import Primitive
from ...ssa.nodes import Operation, Tensor
from ...static import constant_value
from .common import Grads, Needed, Rule, only_needed, unbroadcast


def _activation(grad_prim: Primitive, reads: str) -> Rule:
    """``F``'s rule: its gradient op ``FGrad(g, features)``, the features being F's output
    (``reads="y"``) or input (``"x"``)."""
    def rule(op: Operation, needed: Needed, g: Tensor) -> Grads:
        return [_grad_op(grad_prim, g, op.outputs[0] if reads == "y" else op.inputs[0], op)]
    return rule


def _grad_op(prim: Primitive, g: Tensor, features: Tensor, like: Operation) -> Tensor:
    """``prim(g, features)`` with the ``alpha`` attr of op ``like``, if it has one."""
    attrs = {"alpha": like.attrs["alpha"]} if "alpha" in like.attrs else {}
    return record1(prim, [g, features], attrs, prim.name)


def _masked_grad_grad(op: Operation, needed: Needed, gg: Tensor) -> Grads:
    """``g * mask(features)`` is linear in ``g`` and flat in the features."""
    features = op.inputs[1]
    return only_needed(needed, lambda: _grad_op(op.prim, gg, features, op), lambda: a.zeros_like(features))


def _select_grad_grad(op: Operation, needed: Needed, gg: Tensor) -> Grads:
    """Elu/Selu gradients are linear in ``g``; their derivative in ``y`` is ``g`` where ``y < 0``."""
    g, y = op.inputs
    return only_needed(needed, lambda: _grad_op(op.prim, gg, y, op), lambda: a.where(y < 0.0, gg * g, a.zeros_like(y)))


def _softplus_grad_grad(op: Operation, needed: Needed, gg: Tensor) -> Grads:
    g, x = op.inputs
    return only_needed(needed, lambda: _grad_op(op.prim, gg, x, op), lambda: gg * g / (m.exp(-x) + 2.0 + m.exp(x)))


def _softsign_grad_grad(op: Operation, needed: Needed, gg: Tensor) -> Grads:
    g, x = op.inputs

    def grad_x() -> Tensor:
        denominator = 1.0 + m.abs(x)
        return -2.0 * gg * g * m.sign(x) / (denominator * denominator * denominator)

    return only_needed(needed, lambda: _grad_op(op.prim, gg, x, op), grad_x)


def _softmax_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    y, axis = op.outputs[0], op.attrs["axis"]
    return [(g - r.reduce_sum(g * y, axis, keepdims=True)) * y]


def _log_softmax_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    axis = op.attrs["axis"]
    return [g - r.reduce_sum(g, axis, keepdims=True) * m.exp(op.outputs[0])]


def _softmax_along(logits: Tensor, axis: int, log: bool = False) -> Any:
    return record1(P.LOG_SOFTMAX if log else P.SOFTMAX, [logits], {"axis": axis})


def _is_zero(t: Tensor) -> bool:
    if t.op.prim is fills.ZEROS_LIKE:
        return True
    value = constant_value(t)
    return value is not None and not value.any()


def _xent_logits_grad(op: Operation, g_loss: Tensor, g_backprop: Tensor, axis: int = -1) -> Any:
    """``g_loss * backprop``, plus, for second order, the softmax Jacobian applied to ``g_backprop``."""
    grad = a.expand_dims(g_loss, axis) * op.outputs[1]
    if not _is_zero(g_backprop):
        softmax = _softmax_along(op.inputs[0], axis)
        grad = grad + (g_backprop - r.reduce_sum(g_backprop * softmax, axis, keepdims=True)) * softmax
    return grad


def _xent_grad(op: Operation, needed: Needed, g_loss: Tensor, g_backprop: Tensor) -> Grads:
    """As TF, plus ``-g_backprop`` for the labels (``backprop = softmax - labels``), a term TF's
    rule omits, so mixed second derivatives in logits and labels are right."""
    axis = op.attrs["axis"]

    def labels_grad() -> Tensor:
        grad = a.expand_dims(g_loss, axis) * -_softmax_along(op.inputs[0], axis, log=True)
        return grad if _is_zero(g_backprop) else grad - g_backprop

    return only_needed(needed, lambda: _xent_logits_grad(op, g_loss, g_backprop, axis), labels_grad)


def _sigmoid_xent_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """TF's formula selects on ``x >= 0``; its derivative is ``sigmoid(x) - z`` everywhere, even at 0."""
    x, z = op.inputs
    return only_needed(needed, lambda: g * (m.sigmoid(x) - z), lambda: -g * x)


def _bias_add_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    value, bias = op.inputs
    if op.attrs["data_format"] == "NHWC":
        return only_needed(needed, lambda: g, lambda: unbroadcast(g, bias))
    rank = value.shape.rank
    if rank is None:
        raise ValueError(f"the gradient of bias_add with data_format NCHW needs the rank of {value.name}")
    return only_needed(needed, lambda: g, lambda: r.reduce_sum(g, [0] + list(range(2, rank))))


def _positions(n: Tensor) -> Tensor:
    """``[0, 1, ..., n - 1]`` for a scalar int tensor ``n`` (a constant when ``n`` is known)."""
    return r.cumsum(a.ones(a.reshape(n, [1]), dtype=n.dtype), exclusive=True)


def _window_sum(t: Tensor, radius: int) -> Tensor:
    """Sums over ``2 * radius + 1`` neighbours along the last axis: a product with a band matrix."""
    depth = a.shape(t)[-1]
    positions = _positions(depth)
    band = m.cast(m.abs(a.expand_dims(positions, 1) - positions) <= radius, t.dtype)
    return a.reshape(m.matmul(a.reshape(t, [-1, depth]), band), a.shape(t))


def _lrn_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """For ``y = x * d ** -beta`` with ``d = bias + alpha * window_sum(x ** 2)``: ``g * d ** -beta -
    2 * alpha * beta * x * window_sum(g * y / d)`` (the window is symmetric)."""
    x, y = op.inputs[0], op.outputs[0]
    radius, bias, alpha, beta = (op.attrs[k] for k in ("depth_radius", "bias", "alpha", "beta"))
    d = bias + alpha * _window_sum(m.square(x), radius)
    return [g * m.pow(d, -beta) - (2.0 * alpha * beta) * x * _window_sum(g * y / d, radius)]


def _top_k_grad(op: Operation, needed: Needed, g: Tensor, g_indices: Tensor) -> Grads:
    """The values' gradient added back at their positions (rows flattened, so one segment sum)."""
    x, indices = op.inputs[0], op.outputs[1]
    depth = a.shape(indices, out_type=indices.dtype)[-1]
    rows = a.reshape(indices, a.stack([-1, depth]))
    width = a.shape(x, out_type=indices.dtype)[-1]
    flat = rows + a.expand_dims(_positions(a.shape(rows, out_type=indices.dtype)[0]) * width, -1)
    summed = a.unsorted_segment_sum(a.reshape(g, [-1]), a.reshape(flat, [-1]), a.size(x, out_type=indices.dtype))
    return [a.reshape(summed, a.shape(x)), None]


RULES: dict[Primitive, Rule] = {
    P.RELU: _activation(P.RELU_GRAD, "y"),
    P.RELU_GRAD: _masked_grad_grad,
    P.RELU6: _activation(P.RELU6_GRAD, "y"),
    P.RELU6_GRAD: _masked_grad_grad,
    P.LEAKY_RELU: _activation(P.LEAKY_RELU_GRAD, "x"),
    P.LEAKY_RELU_GRAD: _masked_grad_grad,
    P.ELU: _activation(P.ELU_GRAD, "y"),
    P.ELU_GRAD: _select_grad_grad,
    P.SELU: _activation(P.SELU_GRAD, "y"),
    P.SELU_GRAD: _select_grad_grad,
    P.SOFTPLUS: _activation(P.SOFTPLUS_GRAD, "x"),
    P.SOFTPLUS_GRAD: _softplus_grad_grad,
    P.SOFTSIGN: _activation(P.SOFTSIGN_GRAD, "x"),
    P.SOFTSIGN_GRAD: _softsign_grad_grad,
    P.SOFTMAX: _softmax_grad,
    P.LOG_SOFTMAX: _log_softmax_grad,
    P.SOFTMAX_CROSS_ENTROPY_WITH_LOGITS: _xent_grad,
    P.SPARSE_SOFTMAX_CROSS_ENTROPY_WITH_LOGITS:
        lambda op, needed, g_loss, g_backprop: [_xent_logits_grad(op, g_loss, g_backprop), None],
    P.SIGMOID_CROSS_ENTROPY_WITH_LOGITS: _sigmoid_xent_grad,
    P.BIAS_ADD: _bias_add_grad,
    P.L2_LOSS: lambda op, needed, g: [op.inputs[0] * g],
    P.LRN: _lrn_grad,
    P.TOP_K: _top_k_grad,
}
