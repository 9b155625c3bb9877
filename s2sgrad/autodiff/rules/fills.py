"""Gradient rules of the fills primitives."""
from __future__ import annotations

from ...ops import array_ops as a
from ...ops import indexing_ops as ix
from ...ops import layout_ops as lo
from ...ops import reduce_ops as r
from ...primitives import fills as P
from ...primitives.core import Primitive
from ...ssa.nodes import Operation, Tensor
from .common import Grads, Needed, Rule, unbroadcast


def _pad_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """The gradient is the unpadded block; TF gives constant_values no gradient."""
    x, paddings = op.inputs[:2]
    block = ix.slice(g, paddings[:, 0], a.shape(x, out_type=paddings.dtype))
    return [block] + [None] * (len(op.inputs) - 1)


RULES: dict[Primitive, Rule] = {
    P.FILL: lambda op, needed, g: [None, r.reduce_sum(g)],
    P.BROADCAST_TO: lambda op, needed, g: [unbroadcast(g, op.inputs[0]), None],
    P.PAD: _pad_grad,
    P.PAD_V2: _pad_grad,
    P.MIRROR_PAD: lambda op, needed, g: [lo.mirror_pad_grad(g, op.inputs[1], op.attrs["mode"]), None],
    P.MIRROR_PAD_GRAD: lambda op, needed, g: [lo.pad(g, op.inputs[1], op.attrs["mode"]), None],
}
