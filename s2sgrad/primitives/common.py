"""Small helpers shared by the array-family primitives: static shapes and ints as code,
runtime calls, and the "nothing to do" simplification."""
from __future__ import annotations

import ast
from typing import Any, Sequence

import numpy as np

from ..shapes import TensorShape
from ..static import constant_value
from .core import literal

__all__ = ["known_shape", "shape_or", "rt_call", "same_shape_input", "const_ints", "LOAD"]

LOAD = ast.Load()


def known_shape(shape: TensorShape) -> ast.expr | None:
    """``(2, 3)`` for a fully known shape, else None."""
    return literal(tuple(shape.dims)) if shape.is_fully_defined() else None


def shape_or(shape: TensorShape, args: Sequence[ast.expr], i: int) -> ast.expr:
    """The literal shape when it is fully known, else ``args[i].shape`` (rendered only then)."""
    known = known_shape(shape)
    return known if known is not None else ast.Attribute(args[i], "shape", LOAD)


def rt_call(name: str, args: list) -> ast.expr:
    """``rt.<name>(*args)``: a helper of ``codegen/runtime.py``."""
    return ast.Call(ast.Attribute(ast.Name("rt", LOAD), name, LOAD), args, [])


def same_shape_input(ins: Any) -> Any:
    """Simplify: the op returns its first input unchanged when the shapes agree."""
    x = ins.args[0]
    return x if x.shape.is_fully_defined() and x.shape == ins.outs[0].shape else None


def const_ints(t: Any) -> list | None:
    """The value of an int tensor/Value known statically, as a flat list of ints (else None)."""
    value = constant_value(t)
    return None if value is None else [int(v) for v in np.reshape(value, -1)]
