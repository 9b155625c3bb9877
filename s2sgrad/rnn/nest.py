"""Nested structures of tensors as RNN cells use them: tuples, lists and namedtuples (``LSTMStateTuple``).

``flatten`` lists the leaves depth first; ``pack_sequence_as`` rebuilds a structure from such a list;
``map_structure`` applies a function leaf by leaf over structures of the same shape.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["is_sequence", "flatten", "pack_sequence_as", "map_structure", "assert_same_structure"]


def is_sequence(value: Any) -> bool:
    """Whether ``value`` is a structure (a tuple or a list) rather than a leaf."""
    return isinstance(value, (tuple, list))


def flatten(structure: Any) -> list:
    """The leaves of ``structure``, depth first (a leaf alone gives a list of one)."""
    if not is_sequence(structure):
        return [structure]
    return [leaf for item in structure for leaf in flatten(item)]


def _rebuild(like: Sequence, items: list) -> Any:
    kind: Any = type(like)
    return kind(*items) if isinstance(like, tuple) and hasattr(like, "_fields") else kind(items)


def _pack(structure: Any, leaves: list, start: int) -> tuple[Any, int]:
    if not is_sequence(structure):
        return leaves[start], start + 1
    items = []
    for item in structure:
        packed, start = _pack(item, leaves, start)
        items.append(packed)
    return _rebuild(structure, items), start


def pack_sequence_as(structure: Any, flat_sequence: Sequence) -> Any:
    """``flat_sequence`` arranged as ``structure`` (which it must match leaf for leaf)."""
    leaves = list(flat_sequence)
    count = len(flatten(structure))
    if count != len(leaves):
        raise ValueError(f"Structure had {count} elements, but flat_sequence had {len(leaves)} elements.")
    return _pack(structure, leaves, 0)[0]


def assert_same_structure(first: Any, second: Any) -> None:
    """Raise ValueError unless ``first`` and ``second`` nest alike (sequence kinds and lengths)."""
    if is_sequence(first) != is_sequence(second):
        raise ValueError(f"The two structures don't have the same nested structure: {first!r} and {second!r}")
    if is_sequence(first):
        if len(first) != len(second):
            raise ValueError(f"The two structures don't have the same sequence length: {len(first)} and "
                             f"{len(second)}")
        for a, b in zip(first, second, strict=True):
            assert_same_structure(a, b)


def map_structure(fn: Callable[..., Any], *structures: Any) -> Any:
    """``fn`` applied to the corresponding leaves of ``structures``, arranged as the first one."""
    for other in structures[1:]:
        assert_same_structure(structures[0], other)
    columns = zip(*[flatten(s) for s in structures], strict=True)
    return pack_sequence_as(structures[0], [fn(*leaves) for leaves in columns])
