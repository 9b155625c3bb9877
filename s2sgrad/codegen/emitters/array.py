"""Emitters for array structure: shape queries, reshape, transpose, expand/squeeze, basic indexing."""
from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...index_spec import TensorIndex
from ...primitives import array
from ...primitives.common import const_ints, normalize_axes, normalize_axis
from ...primitives.core import Primitive
from ..program import Instr
from .common import LOAD, Emitter, axes_literal, known_shape, literal, np_attr, rt_call, shape_or


def _emit_shape(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    x, out = ins.args[0], ins.outs[0]
    if x.shape.is_fully_defined():
        return literal(np.array(x.shape.sizes, dtype=out.dtype.np))
    return ast.Call(np_attr("array"), [ast.Attribute(args[0], "shape", LOAD)],
                    [ast.keyword("dtype", literal(out.dtype))])


def _emit_size(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    x, out = ins.args[0], ins.outs[0]
    if x.shape.is_fully_defined():
        return literal(out.dtype.np.type(x.shape.num_elements()))
    return ast.Call(literal(out.dtype), [ast.Call(np_attr("size"), [args[0]], [])], [])


def _emit_rank(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    x = ins.args[0]
    if x.shape.rank is not None:
        return literal(np.int32(x.shape.rank))
    return ast.Call(np_attr("int32"), [ast.Call(np_attr("ndim"), [args[0]], [])], [])


def _emit_reshape(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    target = known_shape(ins.outs[0].shape)
    if target is None:
        dims = const_ints(ins.args[1])
        target = literal(tuple(dims)) if dims is not None else args[1]
    return ast.Call(np_attr("reshape"), [args[0], target], [])


def _emit_expand(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    axis = normalize_axis(ins.attrs["axis"], ins.outs[0].shape.rank)
    return ast.Call(np_attr("expand_dims"), [args[0], literal(axis)], [])


def _emit_squeeze(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    x = ins.args[0]
    axes = normalize_axes(ins.attrs["axis"], x.shape.rank)
    if axes is None and x.shape.is_fully_defined():
        axes = tuple(i for i, d in enumerate(x.shape.known_sizes()) if d == 1)
    keywords = [] if axes is None else [ast.keyword("axis", axes_literal(axes))]
    return ast.Call(np_attr("squeeze"), [args[0]], keywords)


def permutation(ins: Instr) -> tuple:
    rank = len(ins.args[0].shape)  # emitted ops have a known rank
    perm = ins.attrs["perm"]
    return tuple(reversed(range(rank))) if perm is None else tuple(p % rank for p in perm)


def _emit_transpose(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    if ins.args[0].shape.rank is None:
        perm = ins.attrs["perm"]
        return ast.Call(np_attr("transpose"), [args[0]] + ([] if perm is None else [literal(perm)]), [])
    perm = permutation(ins)
    if perm == (1, 0):
        view = ast.Attribute(args[0], "T", LOAD)
        return ast.Call(np_attr("ascontiguousarray"), [view], []) if ins.attrs.get("contiguous") else view
    return ast.Call(np_attr("transpose"), [args[0], literal(perm)], [])


def index_expr(index: tuple, args: Sequence[ast.expr], as_value: bool = False) -> ast.expr:
    """The subscript for ``x[...]`` (or, ``as_value``, the same index as a runtime tuple)."""
    def bound(v: Any) -> ast.expr | None:
        if v is None:
            return None
        return args[v.k] if isinstance(v, TensorIndex) else literal(v)

    def value(v: Any) -> ast.expr:
        return bound(v) or ast.Constant(None)

    items: list[ast.expr] = []
    for item in index:
        if isinstance(item, slice):
            if as_value:
                items.append(ast.Call(ast.Name("slice", LOAD), [value(item.start), value(item.stop),
                                                                 value(item.step)], []))
            else:
                items.append(ast.Slice(bound(item.start), bound(item.stop), bound(item.step)))
        elif isinstance(item, TensorIndex):
            items.append(args[item.k])
        else:
            items.append(ast.Constant(item))
    return items[0] if len(items) == 1 and not as_value else ast.Tuple(items, LOAD)


def _emit_strided(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return ast.Subscript(args[0], index_expr(ins.attrs["index"], args), LOAD)


def _emit_scatter(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    like = ins.args[1]
    shape = shape_or(like.shape, args, 1)
    # the index's tensor inputs start after (g, like): shift their positions by one
    index = tuple(TensorIndex(i.k + 1) if isinstance(i, TensorIndex) else i for i in ins.attrs["index"])
    return rt_call("scatter_into_zeros", [args[0], shape, index_expr(index, args, as_value=True)])


def _emit_slice(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    """``x[1:3, :, 2:]`` when begin and size are known, else the same index built at run time."""
    x, begin, size = ins.args
    b, s = const_ints(begin), const_ints(size)
    if b is None or s is None:
        ends = ast.Call(np_attr("where"), [ast.Compare(args[2], [ast.Eq()], [ast.Constant(-1)]),
                                           ast.Call(np_attr("shape"), [args[0]], []),
                                           ast.BinOp(args[1], ast.Add(), args[2])], [])
        index: ast.expr = ast.Call(ast.Name("tuple", LOAD), [
            ast.Call(ast.Name("map", LOAD), [ast.Name("slice", LOAD), args[1], ends], [])], [])
        return ast.Subscript(args[0], index, LOAD)
    items: list[ast.Slice] = []
    for i, (start, n) in enumerate(zip(b, s, strict=True)):
        d = x.shape.sizes[i] if x.shape.sizes is not None else None
        stop = None if n == -1 or (d is not None and start + n == d) else start + n
        items.append(ast.Slice(literal(start) if start else None, None if stop is None else literal(stop), None))
    while items and items[-1].lower is None and items[-1].upper is None:
        items.pop()
    return ast.Subscript(args[0], items[0] if len(items) == 1 else ast.Tuple(list[ast.expr](items), LOAD), LOAD)


EMITTERS: dict[Primitive, Emitter] = {
    array.SHAPE: _emit_shape,
    array.SIZE: _emit_size,
    array.RANK: _emit_rank,
    array.RESHAPE: _emit_reshape,
    array.EXPAND_DIMS: _emit_expand,
    array.SQUEEZE: _emit_squeeze,
    array.TRANSPOSE: _emit_transpose,
    array.STRIDED_SLICE: _emit_strided,
    array.SCATTER_INTO_ZEROS: _emit_scatter,
    array.SLICE: _emit_slice,
}
