"""What the rule families share: the rule signature, ``only_needed`` and ``unbroadcast``."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...ops import array_ops as a
from ...ssa.nodes import Tensor

__all__ = ["Needed", "Rule", "only_needed", "unbroadcast"]

Needed = tuple[bool, ...]
"""Per input of the op: is its gradient used by the walk that calls the rule?"""

Rule = Callable[..., list]
"""``rule(op, needed, *out_grads) -> [in_grad | None per input]``: emits the adjoint as ordinary ops."""


def only_needed(needed: Needed, *makers: Callable[[], Any]) -> list[Tensor | None]:
    """A rule's input gradients, built only where ``needed`` says the walk uses them (the others
    are None, as they would be discarded anyway).

    >>> # return only_needed(needed, lambda: g * y, lambda: g * x)
    """
    return [make() if needed[i] else None for i, make in enumerate(makers)]


def unbroadcast(g: Tensor, x: Tensor) -> Tensor:
    """``g`` summed down to ``x``'s shape (a no-op when the static shapes already agree)."""
    if g.shape.is_fully_defined() and g.shape == x.shape:
        return g
    return a.sum_to(g, x)

