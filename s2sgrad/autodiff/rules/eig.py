"""The gradient of ``RealEig`` (``A = V diag(w) V^-1`` with unit-norm columns of ``V``).

With ``C = V^-1 dA V``: ``dw = diag(C)`` and ``dV = P(V (F * C))``, where
``F[i, j] = 1 / (w[j] - w[i])`` off the diagonal (0 on it) and ``P`` removes from each column its
component along itself (the unit-norm constraint). Transposed:
``dA* = V^-T (diag(gw) + F * (V^T P(gV))) V^T``, one solve with ``V^T``."""
from __future__ import annotations

from typing import Any

from ...ops import array_ops as a
from ...ops import math_ops as m
from ...ops import matrix_ops as mx
from ...ops import reduce_ops as r
from ...primitives.eig import REAL_EIG
from ...ssa.nodes import Operation
from .common import Grads, Needed, Rule

__all__ = ["RULES"]


def _real_eig_grad(op: Operation, needed: Needed, g_w: Any, g_v: Any) -> Grads:
    w, v = op.outputs
    vt = mx.matrix_transpose_last(v)
    inner = mx.matrix_diag(g_w) if g_w is not None else a.zeros_like(v)
    if g_v is not None:
        along = m.multiply(v, r.reduce_sum(m.multiply(v, g_v), [-2], keepdims=True))   # each column on itself
        gaps = m.subtract(a.expand_dims(w, -2), a.expand_dims(w, -1))                  # w[j] - w[i]
        eye = mx.matrix_diag(a.ones_like(w))
        f = m.multiply(m.reciprocal(m.add(gaps, eye)), m.subtract(1.0, eye))
        inner = m.add(inner, m.multiply(f, m.matmul(vt, m.subtract(g_v, along))))
    return [mx.matrix_solve(vt, m.matmul(inner, vt))]


RULES: dict[Any, Rule] = {REAL_EIG: _real_eig_grad}
