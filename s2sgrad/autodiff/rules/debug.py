"""Gradient rules of the pass-through checks: ``Print`` passes the gradient on, ``CheckNumerics``
checks it too (as TF's rule does)."""
from __future__ import annotations

from ...ops import print_ops as p
from ...primitives import debug as P
from ...primitives.core import Primitive
from ...ssa.nodes import Operation, Tensor
from .common import Grads, Needed, Rule

GRADIENT_MESSAGE = "Not a number (NaN) or infinity (Inf) values detected in gradient. "


def _check_numerics_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    return [p.check_numerics(g, GRADIENT_MESSAGE + op.attrs["message"])]


RULES: dict[Primitive, Rule] = {
    P.PRINT: lambda op, needed, g: [g] + [None] * (len(op.inputs) - 1),
    P.CHECK_NUMERICS: _check_numerics_grad,
}
