"""Gradient rules of TensorArray primitives: the gradient of a TensorArray is a dense array of
its stacked shape, so reading row k gives back a one-row gradient and stacking gives it whole
(a concat's gradient needs elements of one length: ragged ones raise when it runs)."""
from __future__ import annotations

from ...ops.array_ops import gather, reshape, shape, unsorted_segment_sum
from ...ops.blocks import step_grad, step_read
from ...ops.convert import record1
from ...ops.tensor_array_ops import size_of
from ...primitives import tensor_array as P

__all__ = ["RULES"]


RULES: dict = {
    P.TA_WRITE: lambda op, needed, g: [g, None, step_read(g, op.inputs[1]) if needed[2] else None],
    P.TA_READ: lambda op, needed, g: [step_grad(op.inputs[0], op.inputs[1], g) if needed[0] else None, None],
    P.TA_STACK: lambda op, needed, g: [g],
    P.TA_UNSTACK: lambda op, needed, g: [None, g],
    P.TA_GATHER: lambda op, needed, g: [unsorted_segment_sum(g, op.inputs[1], size_of(op.inputs[0])), None],
    P.TA_SCATTER: lambda op, needed, g: [g, None, gather(g, op.inputs[1]) if needed[2] else None],
    P.TA_CONCAT: lambda op, needed, g: [record1(P.TA_CONCAT_GRAD, [op.inputs[0], g], None, "TensorArrayConcatGrad")],
    P.TA_SPLIT: lambda op, needed, g: [None, reshape(g, shape(op.inputs[1])) if needed[1] else None, None],
    P.TA_CONCAT_GRAD: lambda op, needed, g: [None, reshape(g, shape(op.inputs[1])) if needed[1] else None],
}
