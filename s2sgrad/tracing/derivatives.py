"""Derivative programs on a traced graph: gradients, Jacobians and Hessians.

All are built from ``tf.gradients`` (so they follow its semantics and add ordinary ops to
the graph). A Jacobian takes one reverse pass per output element, seeded with a one-hot
``grad_ys``; a Hessian is the Jacobian of the gradient.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..backprop import gradients
from ..graph import Tensor
from ..ops import array_ops as a
from ..ops.convert import constant, convert_to_tensor

__all__ = ["gradient", "jacobian", "hessian"]


def _dense(g: Any) -> Tensor | None:
    return None if g is None else convert_to_tensor(g)


def gradient(y: Tensor, xs: Sequence[Tensor]) -> list[Tensor | None]:
    """d y / d x for a scalar y (None where y does not depend on x)."""
    return [_dense(g) for g in gradients(y, list(xs))]


def jacobian(y: Tensor, xs: Sequence[Tensor]) -> list[Tensor | None]:
    """For each x, the array of shape ``y.shape + x.shape`` of d y[i...] / d x[j...]."""
    if y.shape.rank == 0:
        return gradient(y, xs)
    dims = y.shape.as_list()
    n = int(np.prod(dims, dtype=np.int64))
    rows: list[list] = [[] for _ in xs]
    for i in range(n):
        seed = np.zeros(n, dtype=y.dtype.np)
        seed[i] = 1
        for row, g in zip(rows, gradients(y, list(xs), grad_ys=constant(seed.reshape(dims))), strict=True):
            row.append(_dense(g))
    out: list[Tensor | None] = []
    for x, row in zip(xs, rows, strict=True):
        if all(g is None for g in row):
            out.append(None)
            continue
        parts = [g if g is not None else a.zeros_like(x) for g in row]
        out.append(a.reshape(a.stack(parts), dims + x.shape.as_list()))
    return out


def hessian(y: Tensor, xs: Sequence[Tensor]) -> list[list[Tensor | None]]:
    """``H[i][j]``: the Jacobian of d y / d xs[i] with respect to xs[j]."""
    return [[None] * len(xs) if g is None else jacobian(g, xs) for g in gradient(y, xs)]
