"""Nested structures of tensors (tuples, lists, namedtuples, dicts), as ``tf.nest`` treats them:
flatten to leaves in a fixed order (dicts by sorted key), and pack leaves back into a structure."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["flatten", "pack_sequence_as", "assert_same_structure", "map_structure", "is_nested"]


def is_nested(value: Any) -> bool:
    return isinstance(value, (list, tuple, dict))


def _children(value: Any) -> list:
    if isinstance(value, dict):
        return [value[k] for k in sorted(value)]
    return list(value)


def flatten(structure: Any) -> list:
    """The leaves of ``structure`` in order (a leaf alone is a one-element list)."""
    if not is_nested(structure):
        return [structure]
    out: list = []
    for child in _children(structure):
        out.extend(flatten(child))
    return out


def pack_sequence_as(structure: Any, flat: Sequence[Any]) -> Any:
    """``flat`` (as long as ``flatten(structure)``) in ``structure``'s shape."""
    flat = list(flat)
    packed, used = _pack(structure, flat, 0)
    if used != len(flat):
        raise ValueError(f"Structure had {used} elements, but flat_sequence had {len(flat)} elements.")
    return packed


def _pack(structure: Any, flat: list, at: int) -> tuple[Any, int]:
    if not is_nested(structure):
        if at >= len(flat):
            raise ValueError(f"The flat sequence has {len(flat)} elements, fewer than the structure needs.")
        return flat[at], at + 1
    items = []
    for child in _children(structure):
        item, at = _pack(child, flat, at)
        items.append(item)
    if isinstance(structure, dict):
        return type(structure)(zip(sorted(structure), items, strict=True)), at
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):  # a namedtuple
        return type(structure)(*items), at
    return type(structure)(items), at


def assert_same_structure(a: Any, b: Any, what: str = "The two structures") -> None:
    """ValueError naming both structures unless they nest the same way (sequence types may differ)."""
    if is_nested(a) != is_nested(b) or (is_nested(a) and (
            isinstance(a, dict) != isinstance(b, dict) or len(a) != len(b)
            or (isinstance(a, dict) and sorted(a) != sorted(b)))):
        raise ValueError(f"{what} don't have the same nested structure.\n\nFirst structure: {a!r}\n\n"
                         f"Second structure: {b!r}")
    if is_nested(a):
        for x, y in zip(_children(a), _children(b), strict=True):
            assert_same_structure(x, y, what)


def map_structure(fn: Callable, *structures: Any) -> Any:
    """``fn`` applied leaf by leaf across ``structures`` (which nest the same way)."""
    for other in structures[1:]:
        assert_same_structure(structures[0], other)
    flats = [flatten(s) for s in structures]
    return pack_sequence_as(structures[0], [fn(*leaves) for leaves in zip(*flats, strict=True)])
