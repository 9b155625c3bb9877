"""Gradient rules of the segment reductions (TensorFlow's ``math_grad`` formulas): sums and
means spread the gradient back by ``gather``; max and min share it among the rows equal to
the result; products divide the result by each row, with care for zeros."""
from __future__ import annotations

from ... import dtypes as _dt
from ...ops import array_ops as a
from ...ops import math_ops as m
from ...ops import segment_ops as s
from ...primitives import indexing
from ...primitives import segment as P
from ...primitives.core import Primitive
from ...ssa.nodes import Operation, Tensor
from .common import Grads, Needed, Rule


def _gather_dropping_negatives(params: Tensor, ids: Tensor) -> tuple[Tensor, Tensor]:
    """``params`` rows at ``ids``, zero where an id is negative; and that mask, broadcast to the rows."""
    gathered = a.gather(params, m.maximum(ids, 0))
    tail = a.ones(a.reshape(a.rank(gathered) - a.rank(ids), [1]), dtype=_dt.int32)
    kept = a.reshape(m.greater_equal(ids, 0), a.concat([a.shape(ids), tail], 0))
    kept = m.logical_and(kept, a.ones_like(gathered, dtype=_dt.bool))
    return a.where_v2(kept, gathered, a.zeros_like(gathered)), kept


def _gathered(op: Operation, params: Tensor) -> tuple[Tensor, Tensor | None]:
    """Rows of ``params`` (shaped like the op's output) back at each input row, and for the
    unsorted ops the mask of rows with a non-negative id."""
    ids = op.inputs[1]
    if len(op.inputs) == 2:
        return a.gather(params, ids), None
    return _gather_dropping_negatives(params, ids)


def _segment_sum_like(op: Operation, data: Tensor) -> Tensor:
    """``data`` (shaped like the op's input) summed per segment, as the op's own kind does."""
    if len(op.inputs) == 2:
        return s.segment_sum(data, op.inputs[1])
    return a.unsorted_segment_sum(data, op.inputs[1], op.inputs[2])


def _sum_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    return [_gathered(op, g)[0]] + [None] * (len(op.inputs) - 1)


def _mean_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    data, ids = op.inputs
    ones_shape = a.concat([a.shape(ids), a.ones(a.reshape(a.rank(data) - 1, [1]), dtype=_dt.int32)], 0)
    counts = s.segment_sum(a.fill(ones_shape, m.cast(1, g.dtype)), ids)
    return [a.gather(g / counts, ids), None]


def _min_max_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    data = op.inputs[0]
    result, kept = _gathered(op, op.outputs[0])
    selected = m.equal(data, result)
    if kept is not None:
        selected = m.logical_and(selected, kept)
    shared = g / _segment_sum_like(op, m.cast(selected, g.dtype))
    return [a.where_v2(selected, _gathered(op, shared)[0], a.zeros_like(data))] + [None] * (len(op.inputs) - 1)


def _prod_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """d prod / d x_i is the product of the others: ``prod / x_i``, or for the one zero of a
    segment the product of its non-zero rows; 0 everywhere in a segment with two zeros."""
    data = op.inputs[0]
    is_zero = m.equal(data, 0)
    zeros = _segment_sum_like(op, m.cast(is_zero, _dt.int32))
    g = a.where_v2(m.greater(zeros, 1), a.zeros_like(g), g)
    non_zero = a.where_v2(is_zero, a.ones_like(data), data)
    if len(op.inputs) == 2:
        non_zero_prod = s.segment_prod(non_zero, op.inputs[1])
    else:
        non_zero_prod = s.unsorted_segment_prod(non_zero, op.inputs[1], op.inputs[2])
    others = a.where_v2(is_zero, _gathered(op, non_zero_prod)[0], _gathered(op, op.outputs[0])[0] / non_zero)
    return [_gathered(op, g)[0] * others] + [None] * (len(op.inputs) - 1)


RULES: dict[Primitive, Rule] = {
    indexing.UNSORTED_SEGMENT_SUM: _sum_grad,
    P.SEGMENT_SUM: _sum_grad,
    P.SEGMENT_MEAN: _mean_grad,
    P.SEGMENT_MAX: _min_max_grad,
    P.SEGMENT_MIN: _min_max_grad,
    P.SEGMENT_PROD: _prod_grad,
    P.UNSORTED_SEGMENT_MAX: _min_max_grad,
    P.UNSORTED_SEGMENT_MIN: _min_max_grad,
    P.UNSORTED_SEGMENT_PROD: _prod_grad,
}
