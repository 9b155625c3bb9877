"""Nested element structures: tuples, namedtuples and dicts of components, as tf.data nests them.

A structure is flattened depth first (dict entries by sorted key, as TF) into a list of leaves and
packed back from one. ``Spec`` is one component's dtype and static shape.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from ..dtypes import DType
from ..shapes import TensorShape

__all__ = ["Spec", "flatten", "pack_as", "map_structure", "is_nested", "same_structure", "most_specific"]


@dataclasses.dataclass(frozen=True)
class Spec:
    """A component's dtype and static shape (dims may be unknown)."""

    dtype: DType
    shape: TensorShape


def is_nested(value: Any) -> bool:
    """Tuples (namedtuples too) and dicts are structures; anything else (lists too) is a component."""
    return isinstance(value, (tuple, dict))


def flatten(structure: Any) -> list:
    """The leaves of ``structure``, depth first, dict entries in sorted key order."""
    if isinstance(structure, dict):
        return [leaf for key in sorted(structure) for leaf in flatten(structure[key])]
    if isinstance(structure, tuple):
        return [leaf for item in structure for leaf in flatten(item)]
    return [structure]


def pack_as(structure: Any, flat: Sequence[Any]) -> Any:
    """``flat``'s leaves arranged as ``structure``."""
    leaves = iter(flat)
    packed = _pack(structure, leaves)
    if next(leaves, _END) is not _END:
        raise ValueError(f"too many values to pack into {structure!r}")
    return packed


_END = object()


def _pack(structure: Any, leaves: Any) -> Any:
    if isinstance(structure, dict):
        entries = {key: _pack(structure[key], leaves) for key in sorted(structure)}
        return type(structure)((key, entries[key]) for key in structure)
    if isinstance(structure, tuple):
        items = [_pack(item, leaves) for item in structure]
        return type(structure)(*items) if hasattr(structure, "_fields") else tuple(items)
    value = next(leaves, _END)
    if value is _END:
        raise ValueError("too few values to pack into the structure")
    return value


def map_structure(fn: Callable[[Any], Any], structure: Any) -> Any:
    """``structure`` with ``fn`` applied to each leaf."""
    return pack_as(structure, [fn(leaf) for leaf in flatten(structure)])


def same_structure(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` nest alike (same kinds, keys and lengths)."""
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and sorted(a) == sorted(b) and \
            all(same_structure(a[k], b[k]) for k in a)
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and \
            all(same_structure(x, y) for x, y in zip(a, b, strict=True))
    return True


def most_specific(a: TensorShape, b: TensorShape) -> TensorShape:
    """The most specific shape both ``a`` and ``b`` are compatible with (unknown where they differ)."""
    if a.sizes is None or b.sizes is None or len(a.sizes) != len(b.sizes):
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a.sizes, b.sizes, strict=True)])
