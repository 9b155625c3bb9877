"""What the rule families share: the rule signature, ``only_needed`` and ``unbroadcast``."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from ...ops import array_ops as a
from ...ops.indexed_slices import IndexedSlices
from ...ssa.nodes import Tensor

__all__ = ["Grads", "Needed", "Rule", "only_needed", "unbroadcast"]

Needed = tuple[bool, ...]
"""Per input of the op: is its gradient used by the walk that calls the rule?"""

Grads = Sequence["Tensor | IndexedSlices | None"]
"""What a rule returns: per input of the op, its gradient, or None (not needed, or not differentiable)."""

Rule = Callable[..., Grads]
"""``rule(op, needed, *out_grads) -> [in_grad | None per input]``: emits the adjoint as ordinary ops."""


def only_needed(needed: Needed, *makers: Callable[[], Tensor | IndexedSlices | None]) -> Grads:
    """A rule's input gradients, built only where ``needed`` says the walk uses them (the others
    are None, as they would be discarded anyway).

    >>> # return only_needed(needed, lambda: g * y, lambda: g * x)
    """
    return [make() if needed[i] else None for i, make in enumerate(makers)]


def unbroadcast(g: Tensor, x: Tensor) -> Tensor:
    """``g`` summed down to ``x``'s shape (a no-op when the static shapes already agree)."""
    shape = g._shape if type(g) is Tensor else g.shape   # (the fields, not the properties: once per
    target = x._shape if type(x) is Tensor else x.shape  # input of every elementwise op differentiated)
    if (shape is target or shape == target) and shape.is_fully_defined():
        return g
    return a.sum_to(g, x)

