"""Gradient rules of the indexing primitives."""
from __future__ import annotations

from ...ops import array_ops as a
from ...ops import indexing_ops as ix
from ...ops.indexed_slices import IndexedSlices
from ...primitives import indexing as P
from ...primitives.core import Primitive
from ...shapes import TensorShape
from ...ssa.nodes import Operation, Tensor
from .common import Grads, Needed, Rule


def _gather_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    params, indices = op.inputs
    axis = op.attrs["axis"]
    if axis == 0:
        shape = a.shape(params)
        size = a.size(indices)
        values = a.reshape(g, a.concat([a.reshape(size, [1]), shape[1:]], 0))
        values.set_shape(TensorShape([indices.shape.num_elements()]).concatenate(params.shape[1:]))
        return [IndexedSlices(values, a.reshape(indices, [-1]), shape), None]
    rank, irank = params.shape.rank, indices.shape.rank
    if rank is None or irank is None:
        raise ValueError(f"the gradient of gather along axis {axis} needs static ranks ({params.name})")
    axis %= rank
    front = list(range(axis, axis + irank)) + list(range(axis)) + list(range(axis + irank, rank - 1 + irank))
    moved = a.transpose(g, front)
    rows = a.reshape(moved, a.concat([[-1], a.shape(moved)[irank:]], 0))
    summed = a.unsorted_segment_sum(rows, a.reshape(indices, [-1]), a.shape(params)[axis])
    back = list(range(1, axis + 1)) + [0] + list(range(axis + 1, rank))
    return [a.transpose(summed, back), None]


def _shape_as(x: Tensor, like: Tensor) -> Tensor:
    """``x``'s shape in the integer dtype of ``like``."""
    return a.shape(x, out_type=like.dtype)


RULES: dict[Primitive, Rule] = {
    P.GATHER_V2: _gather_grad,
    P.GATHER_ND: lambda op, needed, g: [ix.scatter_nd(op.inputs[1], g, _shape_as(op.inputs[0], op.inputs[1])), None],
    P.SCATTER_ND: lambda op, needed, g: [None, ix.gather_nd(g, op.inputs[0]), None],
}
