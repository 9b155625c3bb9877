"""Jacobians and Hessians, built from ``tf.gradients`` (so they add ordinary ops to the graph).

A Jacobian takes one reverse pass per output element, seeded with a one-hot ``grad_ys``; a
Hessian is the Jacobian of the gradient. ``tf.hessians`` and the decorator's ``hessian`` both
use it.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..ops import array_ops as a
from ..ops.convert import constant, convert_to_tensor, graph_of
from ..ssa.graph import Tensor
from .backprop import as_tensor_list, gradients

__all__ = ["gradient", "jacobian", "hessian", "hessians"]


def _dense(g: Any) -> Tensor | None:
    return None if g is None else convert_to_tensor(g)


def gradient(y: Tensor, xs: Sequence[Tensor], aggregation_method: Any = None) -> list[Tensor | None]:
    """d y / d x for a scalar y (None where y does not depend on x)."""
    return [_dense(g) for g in gradients(y, list(xs), aggregation_method=aggregation_method)]


def jacobian(y: Tensor, xs: Sequence[Tensor], aggregation_method: Any = None) -> list[Tensor | None]:
    """For each x, the array of shape ``y.shape + x.shape`` of d y[i...] / d x[j...]."""
    if y.shape.rank == 0:
        return gradient(y, xs, aggregation_method)
    dims = y.shape.as_list()
    n = int(np.prod(y.shape.known_sizes(), dtype=np.int64))
    rows: list[list] = [[] for _ in xs]
    for i in range(n):
        seed = np.zeros(n, dtype=y.dtype.np)
        seed[i] = 1
        found = gradients(y, list(xs), grad_ys=constant(seed.reshape(dims)), aggregation_method=aggregation_method)
        for row, g in zip(rows, found, strict=True):
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


def hessians(ys: Any, xs: Any, name: str = "hessians", colocate_gradients_with_ops: bool = False,
             gate_gradients: bool = False, aggregation_method: Any = None) -> list[Tensor]:
    """For each x, the matrix of second derivatives of ``sum(ys)``, shaped ``shape(x) + shape(x)``."""
    xs = as_tensor_list(xs, "xs")
    graph = graph_of(xs)
    with graph.as_default(), graph.name_scope(name):
        out = []
        for g, x in zip(gradients(ys, xs, aggregation_method=aggregation_method), xs, strict=True):
            if g is None:
                raise ValueError("None values not supported.")
            if not x.shape.is_fully_defined():
                raise ValueError(f"hessians needs the static shape of {x.name}, got {x.shape}")
            (h,) = jacobian(convert_to_tensor(g), [x], aggregation_method)
            if h is None:
                raise ValueError("None values not supported.")
            out.append(h)
        return out
