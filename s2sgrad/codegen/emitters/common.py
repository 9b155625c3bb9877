"""Building blocks of emitters: ``np.<name>``, literals for Python/NumPy values, ``rt`` calls,
``.astype``, axis and shape arguments. Generated code is built as ``ast`` from these."""
from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ... import dtypes as _dt
from ...shapes import TensorShape
from ..program import Instr

__all__ = ["Emitter", "LOAD", "np_attr", "literal", "axes_literal", "known_shape", "shape_or", "rt_call", "astype"]

Emitter = Callable[[Instr, Sequence[ast.expr]], ast.expr]
"""An instruction and its arguments (as expressions) -> the NumPy expression computing it."""

LOAD = ast.Load()


_NUMPY_NAMES = {"bool": "bool_", "string": "object_"}


def np_attr(name: str) -> ast.expr:
    """``np.<name>``; ``name`` comes from our own tables, never from the user."""
    return ast.Attribute(ast.Name("np", LOAD), name, LOAD)


def literal(value: Any) -> ast.expr:
    """A Python/NumPy value as an expression that evaluates to an equal value."""
    if value is None or isinstance(value, (bool, str, bytes)) or value is Ellipsis:
        return ast.Constant(value)
    if isinstance(value, int):
        return ast.Constant(int(value)) if value >= 0 else ast.UnaryOp(ast.USub(), ast.Constant(-int(value)))
    if isinstance(value, float):
        return _float_literal(value)
    if type(value) is complex:  # np.complex128 is a complex too: it keeps its type below
        return ast.Call(ast.Name("complex", LOAD), [literal(value.real), literal(value.imag)], [])
    if isinstance(value, (tuple, list)):
        elts = [literal(v) for v in value]
        return ast.Tuple(elts, LOAD) if isinstance(value, tuple) else ast.List(elts, LOAD)
    if isinstance(value, slice):
        return ast.Call(ast.Name("slice", LOAD), [literal(value.start), literal(value.stop), literal(value.step)], [])
    if isinstance(value, _dt.DType):
        return np_attr(_NUMPY_NAMES.get(value.name, value.name))
    if isinstance(value, np.dtype):
        return literal(_dt.as_dtype(value))
    if isinstance(value, np.generic):
        dtype = _dt.as_dtype(value.dtype)
        if dtype is _dt.string:
            return ast.Constant(value.item())
        return ast.Call(literal(dtype), [literal(value.item())], [])
    if isinstance(value, np.ndarray):
        dtype = _dt.as_dtype(value.dtype)
        if value.size == 0:  # a nested list cannot spell an empty array's shape
            return ast.Call(np_attr("zeros"), [literal(value.shape)], [ast.keyword("dtype", literal(dtype))])
        if dtype.is_complex and not np.any(value.imag) and not np.any(np.signbit(value.imag)):
            value = value.real  # real values of a complex dtype: np.array([0.5, 1.0], dtype=np.complex128)
        return ast.Call(np_attr("array"), [literal(value.tolist())], [ast.keyword("dtype", literal(dtype))])
    raise TypeError(f"cannot write {type(value).__name__} value {value!r} as a literal")


def _float_literal(value: float) -> ast.expr:
    if value != value:
        return np_attr("nan")
    if value in (float("inf"), float("-inf")):
        return np_attr("inf") if value > 0 else ast.UnaryOp(ast.USub(), np_attr("inf"))
    if value < 0 or (value == 0 and str(value).startswith("-")):
        return ast.UnaryOp(ast.USub(), ast.Constant(-value))
    return ast.Constant(value)
def axes_literal(axes: Sequence[int]) -> ast.expr:
    """``1`` for one axis, ``(0, 2)`` for several: the ``axis=`` argument NumPy takes."""
    return literal(axes[0] if len(axes) == 1 else tuple(axes))


def known_shape(shape: TensorShape) -> ast.expr | None:
    """``(2, 3)`` for a fully known shape, else None."""
    sizes = shape.sizes
    return literal(tuple(sizes)) if sizes is not None and shape.is_fully_defined() else None


def shape_or(shape: TensorShape, args: Sequence[ast.expr], i: int) -> ast.expr:
    """The literal shape when it is fully known, else ``args[i].shape`` (rendered only then)."""
    known = known_shape(shape)
    return known if known is not None else ast.Attribute(args[i], "shape", LOAD)


def rt_call(name: str, args: list, keywords: Sequence[ast.keyword] = ()) -> ast.expr:
    """``rt.<name>(*args, **keywords)``: a helper of ``codegen/runtime.py``."""
    return ast.Call(ast.Attribute(ast.Name("rt", LOAD), name, LOAD), args, list(keywords))


def astype(expr: ast.expr, dtype: Any) -> ast.expr:
    """``expr.astype(np.<dtype>)``."""
    return ast.Call(ast.Attribute(expr, "astype", LOAD), [literal(dtype)], [])
