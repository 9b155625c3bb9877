"""Gradient rules of the primitives inside loop blocks (the loops' own gradients are in
``autodiff.control``): reading iteration k's record, and its gradient, a record with one row."""
from __future__ import annotations

from ...ops.blocks import step_grad, step_read
from ...primitives import control as P
from .common import Rule

__all__ = ["RULES"]

RULES: dict = {
    P.STEP_READ: lambda op, needed, g: [step_grad(op.inputs[0], op.inputs[1], g) if needed[0] else None, None],
    P.STEP_GRAD: lambda op, needed, g: [None, None, step_read(g, op.inputs[1]) if needed[2] else None],
}
_: dict[object, Rule] = RULES
