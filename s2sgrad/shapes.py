"""TensorShape: a static shape whose rank or dimensions may be unknown, with TF-1.x's user-facing behaviour.

Users see TF 1.x: ``shape[i]`` and iteration give :class:`~s2sgrad.dimension.Dimension` objects, ``dims`` is
a list of them, ``str`` writes unknown sizes as ``?`` (``enable_v2_tensorshape()`` switches indexing,
iteration, repr and str to TF 2's plain ints and None). s2sgrad's own code reads plain sizes through
:attr:`TensorShape.sizes` (a tuple of ints and None, or None for an unknown rank), never through Dimensions.
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, SupportsIndex, cast, overload

from .dimension import Dimension, index_value

__all__ = ["Sizes", "TensorShape", "as_shape", "unknown_shape", "dims_text", "dimension_at_index", "strip_dimensions",
           "enable_v2_tensorshape", "disable_v2_tensorshape"]

Sizes = tuple[int | None, ...]  # a known rank's sizes: ints, None where unknown

_v2_behavior = False


def enable_v2_tensorshape() -> None:
    """TF 2 style from now on: ``shape[i]`` and iteration give ints and None."""
    global _v2_behavior
    _v2_behavior = True


def disable_v2_tensorshape() -> None:
    """TF 1 style (the default): ``shape[i]`` and iteration give Dimension objects."""
    global _v2_behavior
    _v2_behavior = False


def _dimension(size: int | None) -> Dimension | int | None:
    """What users get for one size: a Dimension (TF 1) or the size itself (TF 2 behaviour)."""
    return size if _v2_behavior else Dimension(size)


class TensorShape:
    """A static shape: sizes (ints, or None where unknown), or nothing at all when the rank is unknown.

    >>> TensorShape([2, None]).as_list()
    [2, None]
    >>> TensorShape([2, None])[0].value
    2
    """

    __slots__ = ("_sizes",)
    _sizes: Sizes | None

    def __init__(self, dims: Any) -> None:
        if dims is None:
            self._sizes = None
        elif isinstance(dims, TensorShape):
            self._sizes = dims._sizes
        elif isinstance(dims, (str, bytes)):
            raise TypeError(f"Failed to convert {dims!r} to a shape: a shape is one dimension (e.g. 10) or an "
                            "iterable of dimensions (e.g. [1, 10, None])")
        elif isinstance(dims, Dimension) or not hasattr(dims, "__iter__"):
            self._sizes = (_as_size(dims),)
        else:
            self._sizes = tuple(_as_size(d) for d in dims)

    @property
    def sizes(self) -> Sizes | None:
        """The sizes as plain ints and None (unknown), or None when the rank is unknown: for s2sgrad's code."""
        return self._sizes

    @property
    def dims(self) -> list[Dimension] | None:
        """TF 1's list of Dimension objects (None when the rank is unknown)."""
        return None if self._sizes is None else [Dimension(d) for d in self._sizes]

    @property
    def rank(self) -> int | None:
        return None if self._sizes is None else len(self._sizes)

    ndims = rank

    def as_list(self) -> list[int | None]:
        """The sizes as a list of ints and None; ValueError when the rank is unknown."""
        if self._sizes is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._sizes)

    def known_sizes(self) -> tuple[int, ...]:
        """The sizes of a fully defined shape (for code that needs them all); ValueError otherwise."""
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")
        return cast("tuple[int, ...]", self._sizes)

    def is_fully_defined(self) -> bool:
        return self._sizes is not None and None not in self._sizes

    def assert_is_fully_defined(self) -> None:
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def num_elements(self) -> int | None:
        """The number of elements, or None unless fully defined."""
        sizes = self._sizes
        if sizes is None or None in sizes:
            return None
        return math.prod(cast("tuple[int, ...]", sizes))

    def is_compatible_with(self, other: Any) -> bool:
        """True unless the ranks differ or some dimension is known in both with different sizes."""
        other = as_shape(other)
        if self._sizes is None or other._sizes is None:
            return True
        if len(self._sizes) != len(other._sizes):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._sizes, other._sizes, strict=True))

    def assert_is_compatible_with(self, other: Any) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are incompatible")

    def merge_with(self, other: Any) -> TensorShape:
        """The most specific shape compatible with both; ValueError when they conflict."""
        other = as_shape(other)
        if self._sizes is None:
            return other
        if other._sizes is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape([a if a is not None else b for a, b in zip(self._sizes, other._sizes, strict=True)])

    def most_specific_compatible_shape(self, other: Any) -> TensorShape:
        """The most specific shape both are compatible with: sizes they agree on, None elsewhere."""
        other = as_shape(other)
        if self._sizes is None or other._sizes is None or len(self._sizes) != len(other._sizes):
            return TensorShape(None)
        return TensorShape([a if a == b else None for a, b in zip(self._sizes, other._sizes, strict=True)])

    def concatenate(self, other: Any) -> TensorShape:
        other = as_shape(other)
        if self._sizes is None or other._sizes is None:
            return TensorShape(None)
        return TensorShape(self._sizes + other._sizes)

    def __add__(self, other: Any) -> TensorShape:
        return self.concatenate(other)

    def __radd__(self, other: Any) -> TensorShape:
        return as_shape(other).concatenate(self)

    def with_rank(self, rank: int) -> TensorShape:
        """This shape, made rank ``rank`` if its rank is unknown; ValueError for another rank."""
        if self._sizes is None:
            return TensorShape([None] * rank)
        if len(self._sizes) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")
        return self

    def with_rank_at_least(self, rank: int) -> TensorShape:
        if self._sizes is not None and len(self._sizes) < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank: int) -> TensorShape:
        if self._sizes is not None and len(self._sizes) > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def assert_has_rank(self, rank: int) -> None:
        if self._sizes is not None and len(self._sizes) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")

    def assert_same_rank(self, other: Any) -> None:
        other = as_shape(other)
        if self._sizes is not None and other._sizes is not None and len(self._sizes) != len(other._sizes):
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def __len__(self) -> int:
        if self._sizes is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._sizes)

    def __iter__(self) -> Iterator[Any]:  # Dimensions, or ints and None (TF 2 behaviour)
        if self._sizes is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._sizes) if _v2_behavior else iter([Dimension(d) for d in self._sizes])

    @overload
    def __getitem__(self, key: slice) -> TensorShape: ...
    @overload
    def __getitem__(self, key: SupportsIndex) -> Any: ...  # a Dimension, or an int or None (TF 2 behaviour)

    def __getitem__(self, key: slice | SupportsIndex) -> TensorShape | Dimension | int | None:
        """A Dimension (TF 1; an int or None under TF 2 behaviour) for an index, a TensorShape for a slice."""
        if isinstance(key, slice):
            if self._sizes is not None:
                return TensorShape(self._sizes[key])
            return _slice_of_unknown(key)
        if self._sizes is None:
            return _dimension(None)
        return _dimension(self._sizes[key])

    def __bool__(self) -> bool:
        return self._sizes is not None

    def __eq__(self, other: object) -> bool:
        if type(other) is not TensorShape:
            try:
                other = as_shape(other)
            except (TypeError, ValueError):
                return NotImplemented
        return self._sizes == other._sizes

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self._sizes)

    def __reduce__(self) -> tuple:
        return TensorShape, (self._sizes,)

    def __repr__(self) -> str:
        if self._sizes is None:
            return "TensorShape(None)"
        return f"TensorShape({list(self._sizes) if _v2_behavior else self.dims})"

    def __str__(self) -> str:
        if self._sizes is None:
            return "<unknown>"
        unknown = "None" if _v2_behavior else "?"
        text = ", ".join(unknown if d is None else str(d) for d in self._sizes)
        return f"({text},)" if len(self._sizes) == 1 else f"({text})"


def _slice_of_unknown(key: slice) -> TensorShape:
    """A slice of an unknown-rank shape: its rank is known only for a slice between known non-negative ends."""
    if key.step is not None:
        raise ValueError("Steps are not yet handled")
    start = 0 if key.start is None else key.start
    if key.stop is None or start < 0 or key.stop < 0:
        return TensorShape(None)
    return TensorShape([None] * (key.stop - start))


def _as_size(d: Any) -> int | None:
    """One size from an int, a NumPy int, a Dimension or None; -1 also means unknown (a deliberate leniency:
    TensorFlow refuses it)."""
    if type(d) is int and d >= 0:  # the common case first: shapes are built often
        return d
    if d is None:
        return None
    if isinstance(d, Dimension):
        return d.value
    size = index_value(d)
    if size >= 0:
        return size
    if size == -1:
        return None
    raise ValueError(f"Dimension {size} must be >= 0")


def as_shape(shape: Any) -> TensorShape:
    """Convert a list/tuple/None/TensorShape to a TensorShape."""
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def unknown_shape(rank: int | None = None) -> TensorShape:
    return TensorShape(None if rank is None else [None] * rank)


def dimension_at_index(shape: Any, index: int) -> Dimension:
    """The Dimension at ``index`` of ``shape`` (unknown if the rank is); ValueError past the end (TF: IndexError)."""
    shape = as_shape(shape)
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"dimension_at_index: index must be an int, got {index!r}")
    if shape.sizes is None:
        return Dimension(None)
    if not -len(shape.sizes) <= index < len(shape.sizes):
        raise ValueError(f"dimension_at_index: index {index} is out of range for shape {shape}")
    return Dimension(shape.sizes[index])


def strip_dimensions(value: Any) -> Any:
    """``value`` with Dimensions and TensorShapes (also inside lists and tuples) replaced by their plain
    ints, for turning into a tensor: ``tf.reshape(x, [-1, x.shape[1]])``. An unknown size cannot be."""
    if isinstance(value, Dimension):
        if value.value is None:
            raise ValueError("Cannot convert an unknown Dimension to a Tensor: ?")
        return value.value
    if isinstance(value, TensorShape):
        if not value.is_fully_defined():
            raise ValueError(f"Cannot convert a partially known TensorShape {value} to a Tensor.")
        return value.as_list()
    if isinstance(value, (list, tuple)) and _holds_dimensions(value):
        try:
            return [strip_dimensions(v) for v in value]
        except ValueError:
            raise TypeError(f"Failed to convert elements of {value} to Tensor: an unknown dimension (?) has no "
                            "value until the graph runs; use tf.shape(x)[i] for it") from None
    return value


def _holds_dimensions(value: list | tuple) -> bool:
    for item in value:
        kind = type(item)
        if kind is float or kind is int:  # the common leaves, skipped cheaply: values can be large
            continue
        if kind is list or kind is tuple:
            if _holds_dimensions(item):
                return True
        elif isinstance(item, (Dimension, TensorShape)):
            return True
    return False


def dims_text(dims: tuple | None, unknown: str = "[*]", sep: str = ",") -> str:
    """Sizes as messages and comments write them: ``[2,?]`` for ``(2, None)``; ``unknown`` for an
    unknown rank."""
    if dims is None:
        return unknown
    return "[" + sep.join("?" if d is None else str(d) for d in dims) + "]"
