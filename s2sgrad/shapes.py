"""TensorShape: a static shape whose rank or dimensions may be unknown (None)."""
from __future__ import annotations

from typing import Any, Iterator

__all__ = ["TensorShape", "as_shape", "unknown_shape", "dims_text"]


class TensorShape:
    """A static shape. ``dims`` is a tuple of ints/None, or None when the rank is unknown.

    >>> TensorShape([2, None]).as_list()
    [2, None]
    """

    __slots__ = ("_dims",)

    def __init__(self, dims: Any) -> None:
        if dims is None:
            self._dims = None
        elif isinstance(dims, TensorShape):
            self._dims = dims._dims
        else:
            if isinstance(dims, int) or not hasattr(dims, "__iter__"):
                dims = (dims,)
            self._dims = tuple(_as_dim(d) for d in dims)

    @property
    def dims(self) -> tuple | None:
        return self._dims

    @property
    def rank(self) -> int | None:
        return None if self._dims is None else len(self._dims)

    ndims = rank

    def as_list(self) -> list:
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def as_tuple(self) -> tuple | None:
        """The dims as a tuple (None for unknown rank)."""
        return self._dims

    def is_fully_defined(self) -> bool:
        return self._dims is not None and None not in self._dims

    def num_elements(self) -> int | None:
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def is_compatible_with(self, other: Any) -> bool:
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims, strict=True))

    def merge_with(self, other: Any) -> TensorShape:
        """The most specific shape compatible with both; ValueError when they conflict."""
        other = as_shape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape([a if a is not None else b for a, b in zip(self._dims, other._dims, strict=True)])

    def assert_is_compatible_with(self, other: Any) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {as_shape(other)} are incompatible")

    def with_rank(self, rank: int) -> TensorShape:
        if self._dims is None:
            return TensorShape([None] * rank)
        if len(self._dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")
        return self

    def concatenate(self, other: Any) -> TensorShape:
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def __len__(self) -> int:
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __iter__(self) -> Iterator:
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key: Any) -> Any:
        if self._dims is None:
            return TensorShape(None) if isinstance(key, slice) else None
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __bool__(self) -> bool:
        return self._dims is not None

    def __eq__(self, other: object) -> bool:
        if type(other) is TensorShape:
            return self._dims == other._dims
        try:
            other = as_shape(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self._dims == other._dims

    def __hash__(self) -> int:
        return hash(self._dims)

    def __repr__(self) -> str:
        return "TensorShape(None)" if self._dims is None else f"TensorShape({list(self._dims)})"

    def __str__(self) -> str:
        if self._dims is None:
            return "<unknown>"
        if len(self._dims) == 1:
            return f"({self._dims[0]},)"
        return "(" + ", ".join(str(d) for d in self._dims) + ")"


def _as_dim(d: Any) -> int | None:
    if d is None:
        return None
    if hasattr(d, "value") and not isinstance(d, int):  # TF1-style Dimension objects
        d = d.value
        if d is None:
            return None
    try:
        value = int(d)
    except (TypeError, ValueError):
        raise TypeError(f"Dimension must be an int or None, got {d!r}") from None
    if value != d or value < -1:
        raise ValueError(f"Dimension {d!r} must be a non-negative integer or None")
    return None if value == -1 else value


def as_shape(shape: Any) -> TensorShape:
    """Convert a list/tuple/None/TensorShape to a TensorShape."""
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def unknown_shape(rank: int | None = None) -> TensorShape:
    return TensorShape(None if rank is None else [None] * rank)


def dims_text(dims: tuple | None, unknown: str = "[*]", sep: str = ",") -> str:
    """Dims as messages and comments write them: ``[2,?]`` for ``(2, None)``; ``unknown`` for an
    unknown rank."""
    if dims is None:
        return unknown
    return "[" + sep.join("?" if d is None else str(d) for d in dims) + "]"
