"""What is known before a graph runs: constant values and broadcast shapes."""
from __future__ import annotations

from typing import Any

from .shapes import TensorShape

__all__ = ["constant_value", "broadcast_shape"]


def constant_value(x: Any) -> Any:
    """The value of ``x`` when it is known statically (a Const, a fully known Shape), else None."""
    while True:  # a loop, not recursion: chains of identities may be arbitrarily long
        const = getattr(x, "const", None)
        if const is not None:
            return const
        op = getattr(x, "op", None)
        if op is None:
            return None
        prim = op.prim
        if prim.known_value is not None:
            return prim.known_value(op)
        if not prim.identity:
            return None
        x = op.inputs[0]


def broadcast_shape(*shapes: TensorShape) -> TensorShape:
    """The NumPy broadcast of static shapes; unknown dims stay unknown when they could matter."""
    if len(shapes) == 2:  # the common case, decided without the general walk
        first, second = shapes
        sizes, other = first._sizes, second._sizes   # (every elementwise op of two shapes comes here)
        if sizes == other or other == ():
            return first
        if sizes == ():
            return second
    first = shapes[0]
    if all(s.sizes == first.sizes for s in shapes[1:]):
        return first
    nonscalar = [s for s in shapes if s.sizes != ()]
    if len(nonscalar) == 1:
        return nonscalar[0]
    all_sizes = [s.sizes for s in shapes if s.sizes is not None]
    if len(all_sizes) < len(shapes):
        return TensorShape(None)
    rank = max(len(sizes) for sizes in all_sizes)
    out: list = []
    for i in range(rank):
        dims = [sizes[i - rank + len(sizes)] for sizes in all_sizes if i - rank + len(sizes) >= 0]
        known = {d for d in dims if d is not None and d != 1}
        if len(known) > 1:
            a, b = sorted(known)[:2]
            raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
        if known:
            out.append(known.pop())
        elif None in dims:
            out.append(None)
        else:
            out.append(1)
    return TensorShape(out)
