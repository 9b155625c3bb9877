"""Gradient rules of the joining primitives."""
from __future__ import annotations

from ...ops import array_ops as a
from ...ops import layout_ops as lo
from ...ops import reduce_ops as r
from ...primitives import joining as P
from ...primitives.core import Primitive
from ...ssa.nodes import Operation, Tensor
from .common import Grads, Needed, Rule


def _concat_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    if len(op.inputs) == 1:
        return [g]
    axis = op.attrs["axis"]
    return a.split(g, a.stack([a.shape(t)[axis] for t in op.inputs]), axis=axis)


def _unstack_grad(op: Operation, needed: Needed, *grads: Tensor | None) -> Grads:
    return [a.stack(list(grads), axis=op.attrs["axis"])]


def _split_grad(op: Operation, needed: Needed, *grads: Tensor | None) -> Grads:
    parts = [g if g is not None else a.zeros_like(t) for g, t in zip(grads, op.outputs, strict=True)]
    return [a.concat(parts, axis=op.attrs["axis"])] + [None] * (len(op.inputs) - 1)


def _tile_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """View the gradient as [m0, d0, m1, d1, ...] and sum over the copies (the m axes)."""
    x, multiples = op.inputs
    rank = x.shape.rank
    if rank is None and multiples.shape.rank == 1:
        rank = multiples.shape.sizes[0]
    if rank is None:
        raise ValueError(f"the gradient of tile needs the rank of {x.name}")
    pairs = a.stack([multiples, a.shape(x, out_type=multiples.dtype)], axis=1)
    split = a.reshape(g, a.reshape(pairs, [-1]))
    return [r.reduce_sum(split, list(range(0, 2 * rank, 2))), None]


RULES: dict[Primitive, Rule] = {
    P.CONCAT_V2: _concat_grad,
    P.PACK: lambda op, needed, g: a.unstack(g, len(op.inputs), op.attrs["axis"]),
    P.UNPACK: _unstack_grad,
    P.SPLIT: _split_grad,
    P.SPLIT_V: _split_grad,
    P.TILE: _tile_grad,
    P.REVERSE_V2: lambda op, needed, g: [lo.reverse(g, op.attrs["axis"])],
}
