"""Gradient rules of the convolution and pooling primitives (TF's ``nn_grad`` formulas).

A convolution's gradients are its two backprop ops, and each backprop op's gradients are the
convolution and the other backprop op, so derivatives of any order are convolutions again.
"""
from __future__ import annotations

from ...ops import array_ops as a
from ...ops.convert import record1
from ...primitives import conv as P
from ...primitives.core import Primitive
from ...ssa.nodes import Operation, Tensor
from .common import Grads, Needed, Rule, only_needed

_POOL_ATTRS = ("ksize", "strides", "padding", "explicit_paddings", "data_format")


def _like(prim: Primitive, inputs: list, op: Operation, keys: tuple[str, ...] = ()) -> Tensor:
    """``prim`` on ``inputs`` with the attrs of ``op`` (only ``keys``, when given)."""
    attrs = {k: op.attrs[k] for k in keys} if keys else dict(op.attrs)
    return record1(prim, inputs, attrs, prim.name)


def _conv_rules(forward: Primitive, by_input: Primitive, by_filter: Primitive) -> dict[Primitive, Rule]:
    def forward_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
        x, w = op.inputs
        return only_needed(needed, lambda: _like(by_input, [a.shape(x), w, g], op),
                           lambda: _like(by_filter, [x, a.shape(w), g], op))

    def input_grad(op: Operation, needed: Needed, gg: Tensor) -> Grads:
        _, w, g = op.inputs
        return only_needed(needed, lambda: None, lambda: _like(by_filter, [gg, a.shape(w), g], op),
                           lambda: _like(forward, [gg, w], op))

    def filter_grad(op: Operation, needed: Needed, gg: Tensor) -> Grads:
        x, _, g = op.inputs
        return only_needed(needed, lambda: _like(by_input, [a.shape(x), gg, g], op), lambda: None,
                           lambda: _like(forward, [x, gg], op))

    return {forward: forward_grad, by_input: input_grad, by_filter: filter_grad}


def _max_pool_rules(forward: Primitive, grad: Primitive, grad_grad: Primitive) -> dict[Primitive, Rule]:
    def forward_grad(op: Operation, needed: Needed, g: Tensor, *unused: Tensor | None) -> Grads:
        return [_like(grad, [op.inputs[0], op.outputs[0], g], op, _POOL_ATTRS)]

    def grads_of(prim: Primitive) -> Rule:
        """Both gradient ops are linear in their last input and flat in the pooled values."""
        def rule(op: Operation, needed: Needed, g: Tensor) -> Grads:
            x, y, _ = op.inputs
            return only_needed(needed, lambda: a.zeros_like(x), lambda: a.zeros_like(y),
                               lambda: _like(prim, [x, y, g], op))
        return rule

    return {forward: forward_grad, grad: grads_of(grad_grad), grad_grad: grads_of(grad)}


def _avg_pool_rules(forward: Primitive, grad: Primitive) -> dict[Primitive, Rule]:
    return {forward: lambda op, needed, g: [_like(grad, [a.shape(op.inputs[0]), g], op)],
            grad: lambda op, needed, gg: [None, _like(forward, [gg], op)]}


_RESIZE_ATTRS = ("align_corners", "half_pixel_centers")


def _resize_bilinear_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    images = op.inputs[0]
    return [_like(P.RESIZE_BILINEAR_GRAD, [g, images], op), None]


def _resize_bilinear_grad_grad(op: Operation, needed: Needed, gg: Tensor) -> Grads:
    """ResizeBilinearGrad is linear in its gradients: their gradient is the resize itself."""
    grads = op.inputs[0]
    return [_like(P.RESIZE_BILINEAR, [gg, a.shape(grads)[1:3]], op), None]


def _resize_nearest_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    return [_like(P.RESIZE_NEAREST_NEIGHBOR_GRAD, [g, a.shape(op.inputs[0])[1:3]], op), None]


def _resize_nearest_grad_grad(op: Operation, needed: Needed, gg: Tensor) -> Grads:
    return [_like(P.RESIZE_NEAREST_NEIGHBOR, [gg, a.shape(op.inputs[0])[1:3]], op), None]


RULES: dict[Primitive, Rule] = {
    **_conv_rules(P.CONV2D, P.CONV2D_BACKPROP_INPUT, P.CONV2D_BACKPROP_FILTER),
    **_conv_rules(P.CONV3D, P.CONV3D_BACKPROP_INPUT, P.CONV3D_BACKPROP_FILTER),
    **_conv_rules(P.DEPTHWISE_CONV2D, P.DEPTHWISE_CONV2D_BACKPROP_INPUT, P.DEPTHWISE_CONV2D_BACKPROP_FILTER),
    **_max_pool_rules(P.MAX_POOL, P.MAX_POOL_GRAD, P.MAX_POOL_GRAD_GRAD),
    **_max_pool_rules(P.MAX_POOL3D, P.MAX_POOL3D_GRAD, P.MAX_POOL3D_GRAD_GRAD),
    **_avg_pool_rules(P.AVG_POOL, P.AVG_POOL_GRAD),
    **_avg_pool_rules(P.AVG_POOL3D, P.AVG_POOL3D_GRAD),
    P.RESIZE_BILINEAR: _resize_bilinear_grad,
    P.RESIZE_BILINEAR_GRAD: _resize_bilinear_grad_grad,
    P.RESIZE_NEAREST_NEIGHBOR: _resize_nearest_grad,
    P.RESIZE_NEAREST_NEIGHBOR_GRAD: _resize_nearest_grad_grad,
    P.MAX_POOL_WITH_ARGMAX: _max_pool_rules(P.MAX_POOL_WITH_ARGMAX, P.MAX_POOL_GRAD, P.MAX_POOL_GRAD_GRAD)[
        P.MAX_POOL_WITH_ARGMAX],
}
