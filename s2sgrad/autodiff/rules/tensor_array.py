"""Gradient rules of TensorArray primitives: the gradient of a TensorArray is a dense array of
its stacked shape, so reading row k gives back a one-row gradient and stacking gives it whole."""
from __future__ import annotations

from typing import Any

from ...ops.blocks import step_grad, step_read
from ...ops.array_ops import gather, unsorted_segment_sum
from ...ops.tensor_array_ops import size_of
from ...primitives import tensor_array as P
from ...ssa.graph import Operation

__all__ = ["RULES"]


def _unsupported(what: str) -> Any:
    def rule(op: Operation, needed: Any, g: Any) -> list:
        raise NotImplementedError(f"The gradient of TensorArray.{what} ('{op.name}', created at {op.where}) is not "
                                  "supported: stack()/unstack() or read()/write() elements instead")
    return rule


RULES: dict = {
    P.TA_WRITE: lambda op, needed, g: [g, None, step_read(g, op.inputs[1]) if needed[2] else None],
    P.TA_READ: lambda op, needed, g: [step_grad(op.inputs[0], op.inputs[1], g) if needed[0] else None, None],
    P.TA_STACK: lambda op, needed, g: [g],
    P.TA_UNSTACK: lambda op, needed, g: [None, g],
    P.TA_GATHER: lambda op, needed, g: [unsorted_segment_sum(g, op.inputs[1], size_of(op.inputs[0])), None],
    P.TA_SCATTER: lambda op, needed, g: [g, None, gather(g, op.inputs[1]) if needed[2] else None],
    P.TA_CONCAT: _unsupported("concat"),
    P.TA_SPLIT: _unsupported("split"),
}
