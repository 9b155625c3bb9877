"""Emitters for reductions, scans, and the broadcast/unbroadcast pair of gradient rules."""
from __future__ import annotations

import ast
import math
from collections.abc import Sequence
from typing import Any

from ... import dtypes as _dt
from ...primitives import reduce
from ...primitives.common import normalize_axes, normalize_axis
from ...primitives.core import Primitive
from ..program import Instr
from .common import LOAD, Emitter, astype, axes_literal, known_shape, literal, np_attr, rt_call, shape_or


def _axis_keywords(ins: Any, keepdims: bool = True) -> list[ast.keyword]:
    rank = ins.args[0].shape.rank
    axes = normalize_axes(ins.attrs["axis"], rank)
    keywords = []
    if axes is not None and (rank is None or len(axes) < rank):
        keywords.append(ast.keyword("axis", axes_literal(axes)))
    if keepdims and ins.attrs["keepdims"]:
        keywords.append(ast.keyword("keepdims", ast.Constant(True)))
    return keywords


def _short_rows(x: Any, count: int) -> bool:
    """Whether summing the first ``count`` axes of ``x`` is worth ``rt.sum_leading``: a known float
    shape whose kept part is a short row (2-256 elements) repeated over many (>= 32K elements)."""
    if x.dtype not in (_dt.float32, _dt.float64) or not (0 < count < (x.shape.rank or 0)
                                                          and x.shape.is_fully_defined()):
        return False
    sizes = x.shape.known_sizes()
    width = math.prod(sizes[count:])
    return 2 <= width <= 256 and width * math.prod(sizes[:count]) >= 1 << 15


def _reduction(func: str, int_dtype: bool = False) -> Any:
    """``np.<func>(x, axis=..., keepdims=...)``; integer sums keep their dtype (``dtype=``); a float
    sum or mean over leading axes that keeps short rows is ``rt.sum_leading`` (divided by the count)."""

    def emit(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
        x = ins.args[0]
        axes = normalize_axes(ins.attrs["axis"], x.shape.rank)
        if func in ("sum", "mean") and not ins.attrs["keepdims"] and axes is not None \
                and axes == tuple(range(len(axes))) and _short_rows(x, len(axes)):
            total = rt_call("sum_leading", [args[0], literal(len(axes))])
            if func == "sum":
                return total
            return ast.BinOp(total, ast.Div(), literal(math.prod(x.shape.known_sizes()[:len(axes)])))
        keywords = _axis_keywords(ins)
        dtype = ins.outs[0].dtype
        if int_dtype and dtype.is_integer:
            keywords.append(ast.keyword("dtype", literal(dtype)))
        return ast.Call(np_attr(func), [args[0]], keywords)

    return emit


def _arg_emitter(func: str) -> Emitter:
    def emit(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
        axis = normalize_axis(ins.attrs["axis"], ins.args[0].shape.rank)
        call: ast.expr = ast.Call(np_attr(func), [args[0]], [ast.keyword("axis", literal(axis))])
        if ins.outs[0].dtype is not _dt.int64:
            call = astype(call, ins.outs[0].dtype)
        return call
    return emit


def _scan_emitter(func: str) -> Emitter:
    def emit(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
        axis = normalize_axis(ins.attrs["axis"], ins.args[0].shape.rank)
        if not ins.attrs["exclusive"] and not ins.attrs["reverse"]:
            return ast.Call(np_attr(func), [args[0]], [ast.keyword("axis", literal(axis))])
        return rt_call(func, [args[0], literal(axis), literal(ins.attrs["exclusive"]), literal(ins.attrs["reverse"])])
    return emit


def _emit_sum_to(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    """``np.sum(g, axis=0)`` over the leading axes; ``keepdims=True`` when only stretched axes are
    summed; a reshape when both are."""
    g, like = ins.args
    if not (g.shape.is_fully_defined() and like.shape.is_fully_defined()):
        return rt_call("sum_to", [args[0], shape_or(like.shape, args, 1)])
    gd, xd = g.shape.known_sizes(), like.shape.known_sizes()
    lead = len(gd) - len(xd)
    stretched = tuple(lead + i for i, d in enumerate(xd) if d == 1 and gd[lead + i] != 1)
    axes = tuple(range(lead)) + stretched
    keywords = [ast.keyword("axis", axes_literal(axes))] if axes else []
    if axes and not stretched and _short_rows(g, lead):
        return rt_call("sum_leading", [args[0], literal(lead)])
    if stretched and not lead:
        return ast.Call(np_attr("sum"), [args[0]], keywords + [ast.keyword("keepdims", ast.Constant(True))])
    call = ast.Call(np_attr("sum"), [args[0]], keywords)
    if [d for i, d in enumerate(gd) if i not in axes] != list(xd):
        call = ast.Call(np_attr("reshape"), [call, literal(tuple(xd))], [])
    return call


def _emit_broadcast_reduced(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    g, like = ins.args
    shape = shape_or(ins.outs[0].shape, args, 1)
    value = args[0]
    axes = normalize_axes(ins.attrs["axis"], like.shape.rank)
    if not ins.attrs["keepdims"] and axes is not None and g.shape.rank != 0:
        value = ast.Call(np_attr("expand_dims"), [value, axes_literal(axes)], [])
    return ast.Call(np_attr("broadcast_to"), [value, shape], [])


def _emit_broadcast_like(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    shape = known_shape(ins.outs[0].shape) or \
        ast.Call(np_attr("broadcast_shapes"), [ast.Attribute(args[0], "shape", LOAD),
                                               ast.Attribute(args[1], "shape", LOAD)], [])
    return ast.Call(np_attr("broadcast_to"), [args[0], shape], [])


EMITTERS: dict[Primitive, Emitter] = {
    reduce.SUM: _reduction("sum", int_dtype=True),
    reduce.MEAN: _reduction("mean", int_dtype=True),
    reduce.MAX: _reduction("max"),
    reduce.MIN: _reduction("min"),
    reduce.PROD: _reduction("prod", int_dtype=True),
    reduce.ALL: _reduction("all"),
    reduce.ANY: _reduction("any"),
    reduce.ARG_MAX: _arg_emitter("argmax"),
    reduce.ARG_MIN: _arg_emitter("argmin"),
    reduce.CUMSUM: _scan_emitter("cumsum"),
    reduce.CUMPROD: _scan_emitter("cumprod"),
    reduce.SUM_TO_SHAPE: _emit_sum_to,
    reduce.BROADCAST_LIKE: _emit_broadcast_like,
    reduce.BROADCAST_REDUCED: _emit_broadcast_reduced,
}
