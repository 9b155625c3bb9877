"""Emitters for indexing by integer tensors: gather, segment sums, gather_nd/scatter_nd, one_hot."""
from __future__ import annotations

import ast
from collections.abc import Sequence

from ...primitives import indexing
from ...primitives.common import const_ints, normalize_axis
from ...primitives.core import Primitive
from ..program import Instr
from .common import LOAD, Emitter, known_shape, literal, np_attr, rt_call
from .template import template


def _emit_gather(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    axis = normalize_axis(ins.attrs["axis"], ins.args[0].shape.rank)
    return ast.Call(np_attr("take"), [args[0], args[1]], [ast.keyword("axis", literal(axis))])


def _emit_segment(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    sizes = ins.outs[0].shape.sizes
    n = sizes[0] if sizes else None
    return rt_call("segment_sum", [args[0], args[1], literal(n) if n is not None else args[2]])


def _emit_gather_nd(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    """``params[indices[..., 0], indices[..., 1]]`` when the index depth is known."""
    indices = ins.args[1]
    k = indices.shape.sizes[-1] if indices.shape.sizes else None
    if k is None:
        return rt_call("gather_nd", [args[0], args[1]])
    columns: list[ast.expr] = [
        ast.Subscript(args[1], ast.Tuple([ast.Constant(Ellipsis), ast.Constant(j)], LOAD), LOAD) for j in range(k)]
    return ast.Subscript(args[0], columns[0] if k == 1 else ast.Tuple(columns, LOAD), LOAD)


def _emit_scatter_nd(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return rt_call("scatter_nd", [args[0], args[1], known_shape(ins.outs[0].shape) or args[2]])


def _emit_one_hot(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    """``np.where(np.expand_dims(i, -1) == np.arange(depth), on, off)``: out-of-range indices
    match nothing, so their rows are all ``off``."""
    n = const_ints(ins.args[1])
    positions = ast.Call(np_attr("arange"), [literal(n[0]) if n is not None else args[1]], [])
    hits: ast.expr = ast.Compare(ast.Call(np_attr("expand_dims"), [args[0], literal(-1)], []), [ast.Eq()],
                                 [positions])
    axis, rank = ins.attrs["axis"], ins.args[0].shape.rank
    if axis not in (-1, rank):
        hits = ast.Call(np_attr("moveaxis"), [hits, literal(-1), literal(axis)], [])
    return ast.Call(np_attr("where"), [hits, args[2], args[3]], [])


EMITTERS: dict[Primitive, Emitter] = {
    indexing.GATHER_V2: _emit_gather,
    indexing.UNSORTED_SEGMENT_SUM: _emit_segment,
    indexing.GATHER_ND: _emit_gather_nd,
    indexing.SCATTER_ND: _emit_scatter_nd,
    indexing.WHERE: template("np.argwhere(x)"),
    indexing.ONE_HOT: _emit_one_hot,
}
