"""``tf.gradients``: reverse-mode differentiation that adds the adjoint program to the graph.

This module checks and converts the arguments and seeds the ys; the walk itself is ``walk.py``,
the gradients users register ``registry.py``.
"""
from __future__ import annotations

from typing import Any

from ..gcpause import gc_paused
from ..ops import array_ops as a
from ..ops.convert import convert_to_tensor, graph_of
from ..ops.indexed_slices import IndexedSlices
from ..progress import reported
from ..ssa.graph import Tensor, user_location
from .walk import UnconnectedGradients, Walk, gradient_of

__all__ = ["gradients", "as_tensor_list", "as_unconnected_gradients"]


def as_tensor_list(values: Any, what: str) -> list:
    if values is None:
        raise ValueError(f"{what} must not be None")
    items = list(values) if isinstance(values, (list, tuple)) else [values]
    out = []
    for v in items:
        if v is None:
            raise ValueError(f"{what} must not contain None")
        out.append(v if isinstance(v, IndexedSlices) else convert_to_tensor(v))
    return out


def as_unconnected_gradients(value: Any) -> UnconnectedGradients:
    """``'none'``/``'zero'`` or an UnconnectedGradients member as the member (ValueError otherwise)."""
    try:
        return UnconnectedGradients(value.value if isinstance(value, UnconnectedGradients) else value)
    except (ValueError, TypeError):
        raise ValueError(f"Unknown value for unconnected_gradients: '{value}'") from None


@reported("computing gradients")   # said on a terminal when it takes over a second
def gradients(ys: Any, xs: Any, grad_ys: Any = None, name: str = "gradients",
              colocate_gradients_with_ops: bool = False, gate_gradients: bool = False,
              aggregation_method: Any = None, stop_gradients: Any = None,
              unconnected_gradients: Any = UnconnectedGradients.NONE) -> list:
    """Symbolic ``sum(dy/dx)`` over ``ys`` for each x in ``xs``, as a list (None where unconnected).

    ``grad_ys`` is one value per y (a single non-list value stands for ``[value]``, as in TF).

    >>> # a = tf.constant(0.); b = 2 * a; tf.gradients(a + b, [a, b])  ->  [3.0, 1.0]
    """
    unconnected = as_unconnected_gradients(unconnected_gradients)
    ys = as_tensor_list(ys, "ys")
    xs = as_tensor_list(xs, "xs")
    stops = as_tensor_list(stop_gradients, "stop_gradients") if stop_gradients is not None else []
    if grad_ys is None:
        grad_ys = [None] * len(ys)
    elif not isinstance(grad_ys, (list, tuple)):
        grad_ys = [grad_ys]
    graph = graph_of(ys + xs + stops)
    with gc_paused(), graph.as_default(), graph._at_location(user_location()), \
            graph.name_scope(name or "gradients"):
        if len(grad_ys) != len(ys):
            raise ValueError(f"Length mismatch. Passed {len(grad_ys)} grad_ys for {len(ys)} ys")
        first_new_op = graph.version
        seeds = _grad_ys(ys, grad_ys)
        walk = Walk(ys, xs, stops, aggregation_method, first_new_op)
        grads = walk.run(seeds)
        return [gradient_of(grads, x, unconnected) for x in xs]


def _grad_ys(ys: list[Tensor], grad_ys: list) -> list[Tensor | IndexedSlices]:
    seeds: list[Tensor | IndexedSlices] = []
    for i, (y, g) in enumerate(zip(ys, grad_ys, strict=True)):
        if g is None:
            if y.dtype.is_complex:
                raise TypeError(f"Gradients of complex tensors ({y}) must set grad_ys (y.dtype = {y.dtype.name})")
            seeds.append(a.ones(a.shape(y), y.dtype, name=f"grad_ys_{i}") if not y.shape.is_fully_defined()
                         else a.ones(y.shape.as_list(), y.dtype, name=f"grad_ys_{i}"))
            continue
        if not isinstance(g, IndexedSlices):
            g = convert_to_tensor(g, dtype_hint=y.dtype)  # tensors and Variables pass as they are
        if y.dtype.is_floating or y.dtype.is_integer:
            if not (g.dtype.is_floating or g.dtype.is_integer):
                raise TypeError(f"Gradient type {g.dtype.name} generated for real or integer-valued tensor {y} "
                                f"with type {y.dtype.name} must be real or integer")
        elif y.dtype.is_complex:
            if not g.dtype.is_complex:
                raise TypeError(f"Gradient type {g.dtype.name} generated for complex-valued tensor {y} with "
                                f"type {y.dtype.name} must be complex")
        else:
            raise TypeError(f"Tensor {y} with type {y.dtype.name} must be numeric to obtain a default gradient")
        seeds.append(g if isinstance(g, IndexedSlices) else a.identity(g, name=f"grad_ys_{i}"))
    return seeds
