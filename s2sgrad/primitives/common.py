"""Small helpers shared by the primitive families: axes, static shapes and int operands
(checked), and the "like input 0" rule."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..shapes import TensorShape
from ..static import constant_value

__all__ = ["normalize_axes", "normalize_axis", "like_input", "const_ints", "int_vector", "unknown_dims",
           "shape_operand", "merged_shape"]


def normalize_axes(axis: Any, rank: int | None, what: str = "reduction") -> tuple | None:
    """``axis`` (None, int or ints) as sorted non-negative ints; ValueError when out of range."""
    if axis is None or rank is None:
        return axis
    out = set()
    for ax in axis:
        if not -rank <= ax < rank:
            raise ValueError(f"Invalid {what} dimension {ax} for input with {rank} dimensions.")
        out.add(ax % rank)
    return tuple(sorted(out))


def normalize_axis(axis: int, rank: int | None, what: str = "reduction") -> int:
    """One ``axis`` made non-negative (unchanged when the rank is unknown); ValueError when out of range."""
    axes = normalize_axes((axis,), rank, what)
    return axis if axes is None else axes[0]


def like_input(inputs: Sequence[Any], attrs: dict) -> list:
    """Infer: one output with input 0's dtype and shape."""
    return [(inputs[0].dtype, inputs[0].shape)]


def const_ints(t: Any) -> list | None:
    """The value of an int tensor/Value known statically, as a flat list of ints (else None)."""
    value = constant_value(t)
    return None if value is None else [int(v) for v in np.reshape(value, -1)]


def int_vector(t: Any, what: str) -> None:
    """TypeError unless ``t`` is an integer tensor of rank 1 (or unknown rank)."""
    if not t.dtype.is_integer or t.shape.rank not in (None, 1):
        raise TypeError(f"{what} must be a 1-D integer tensor, got {t.dtype.name} {t.shape}")


def unknown_dims(t: Any) -> TensorShape:
    """The shape that a 1-D int tensor of unknown value describes: one unknown dim per entry."""
    n = t.shape.sizes[0] if t.shape.rank == 1 else None
    return TensorShape(None if n is None else [None] * n)


def shape_operand(t: Any, what: str = "shape") -> TensorShape:
    """The static shape that a 1-D int tensor describes (its dims when it is a constant)."""
    int_vector(t, what)
    dims = const_ints(t)
    if dims is None:
        return unknown_dims(t)
    if any(d < 0 for d in dims):
        raise ValueError(f"{what} must not have negative dimensions, got {dims}")
    return TensorShape(dims)


def merged_shape(inputs: Sequence[Any], what: str) -> tuple[Any, TensorShape]:
    """The common dtype and most specific common shape of inputs that must agree in both."""
    dtype = inputs[0].dtype
    shape = TensorShape(None)
    for t in inputs:
        if t.dtype is not dtype:
            raise TypeError(f"{what} inputs must have one dtype, got {[t.dtype.name for t in inputs]}")
        if not shape.is_compatible_with(t.shape):
            raise ValueError(f"{what} inputs must have the same shape, got {shape} and {t.shape}")
        shape = shape.merge_with(t.shape)
    return dtype, shape
