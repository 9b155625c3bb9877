"""Emitters for joining, splitting and rearranging: concat, stack/unstack, split, tile, reverse."""
from __future__ import annotations

import ast
from collections.abc import Sequence

from ...primitives import joining
from ...primitives.common import const_ints, normalize_axes, normalize_axis
from ...primitives.core import Primitive
from ..program import Instr
from .common import LOAD, Emitter, axes_literal, literal, np_attr
from .template import template


def _emit_concat(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    axis = normalize_axis(ins.attrs["axis"], ins.outs[0].shape.rank)
    return ast.Call(np_attr("concatenate"), [ast.List(list(args), LOAD)],
                    [ast.keyword("axis", literal(axis))] if axis else [])


def _emit_stack(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    axis = normalize_axis(ins.attrs["axis"], ins.outs[0].shape.rank)
    return ast.Call(np_attr("stack"), [ast.List(list(args), LOAD)],
                    [ast.keyword("axis", literal(axis))] if axis else [])


def _emit_unstack(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    axis = normalize_axis(ins.attrs["axis"], ins.args[0].shape.rank)
    value = args[0] if axis == 0 else ast.Call(np_attr("moveaxis"), [args[0], literal(axis), ast.Constant(0)], [])
    return ast.Call(ast.Name("tuple", LOAD), [value], [])


def _split_keywords(ins: Instr) -> list:
    rank = ins.args[0].shape.rank
    axis = normalize_axis(ins.attrs["axis"], rank)
    return [ast.keyword("axis", literal(axis))] if axis else []


def _emit_split(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return ast.Call(np_attr("split"), [args[0], literal(ins.attrs["num"])], _split_keywords(ins))


_cuts_at_run_time = template("np.cumsum(np.where(y == -1, np.shape(x)[axis] - np.sum(y) - 1, y))[:-1]")


def _emit_split_v(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    """Cut points from the sizes: literal when known; a -1 part over an unknown dimension makes
    the later cuts relative to ``np.shape(x)[axis]``; sizes known only at run time are resolved there."""
    rank = ins.args[0].shape.rank
    axis = normalize_axis(ins.attrs["axis"], rank)
    sizes = const_ints(ins.args[1])
    if sizes is None:
        cuts = _cuts_at_run_time(ins, args)  # np.shape(x)[axis] takes the axis as given
    else:
        known = ins.outs[sizes.index(-1)].shape.sizes if -1 in sizes else None
        if known is not None and known[axis] is not None:
            sizes[sizes.index(-1)] = known[axis]
        k = sizes.index(-1) if -1 in sizes else len(sizes)
        extent = ast.Subscript(ast.Call(np_attr("shape"), [args[0]], []), literal(axis), LOAD)
        cuts = ast.List([literal(sum(sizes[:i + 1])) if i < k else
                         ast.BinOp(extent, ast.Sub(), literal(sum(sizes[i + 1:])))
                         for i in range(len(sizes) - 1)], LOAD)
    return ast.Call(np_attr("split"), [args[0], cuts], _split_keywords(ins))


def _emit_tile(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    reps = const_ints(ins.args[1])
    return ast.Call(np_attr("tile"), [args[0], literal(tuple(reps)) if reps is not None else args[1]], [])


def _emit_reverse(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    axes = normalize_axes(ins.attrs["axis"], ins.args[0].shape.rank)
    return ast.Call(np_attr("flip"), [args[0], axes_literal(axes or ())], [])


EMITTERS: dict[Primitive, Emitter] = {
    joining.CONCAT_V2: _emit_concat,
    joining.PACK: _emit_stack,
    joining.UNPACK: _emit_unstack,
    joining.SPLIT: _emit_split,
    joining.SPLIT_V: _emit_split_v,
    joining.TILE: _emit_tile,
    joining.REVERSE_V2: _emit_reverse,
}
