"""Reductions, scans, and the broadcast/unbroadcast pair that gradient rules are built from.

``SumToShape(g, x)`` sums ``g`` down to ``x``'s shape; ``BroadcastReduced(g, x)`` spreads a
reduced ``g`` back over ``x``. They are each other's gradient, and with concrete shapes
both become a single ``np.sum`` / ``np.broadcast_to`` or disappear.
"""
from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

from .. import dtypes as _dt
from ..shapes import TensorShape
from .common import (
    LOAD,
    astype,
    axes_literal,
    known_shape,
    normalize_axes,
    normalize_axis,
    rt_call,
    same_shape_input,
    shape_or,
)
from .core import broadcast_shape, define, literal, np_attr


def reduced_shape(shape: TensorShape, axis: Any, keepdims: bool) -> TensorShape:
    if shape.sizes is None:
        return TensorShape(None) if keepdims or axis is not None else TensorShape([])
    axes = normalize_axes(axis, len(shape.sizes))
    if axes is None:
        axes = tuple(range(len(shape.sizes)))
    if keepdims:
        return TensorShape([1 if i in axes else d for i, d in enumerate(shape.sizes)])
    return TensorShape([d for i, d in enumerate(shape.sizes) if i not in axes])


def _reduce_infer(kinds: str) -> Any:
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        x = inputs[0]
        if x.dtype.np.kind not in kinds:
            raise TypeError(f"reduction of a {x.dtype.name} tensor is not supported")
        return [(x.dtype, reduced_shape(x.shape, attrs["axis"], attrs["keepdims"]))]
    return infer


def _axis_keywords(ins: Any, keepdims: bool = True) -> list[ast.keyword]:
    rank = ins.args[0].shape.rank
    axes = normalize_axes(ins.attrs["axis"], rank)
    keywords = []
    if axes is not None and (rank is None or len(axes) < rank):
        keywords.append(ast.keyword("axis", axes_literal(axes)))
    if keepdims and ins.attrs["keepdims"]:
        keywords.append(ast.keyword("keepdims", ast.Constant(True)))
    return keywords


def _reduction(func: str, int_dtype: bool = False) -> Any:
    """``np.<func>(x, axis=..., keepdims=...)``; integer sums keep their dtype (``dtype=``)."""

    def emit(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
        keywords = _axis_keywords(ins)
        dtype = ins.outs[0].dtype
        if int_dtype and dtype.is_integer:
            keywords.append(ast.keyword("dtype", literal(dtype)))
        return ast.Call(np_attr(func), [args[0]], keywords)

    return emit


def _noop_reduction(ins: Any) -> Any:
    """Reducing over no axes (or a rank-0 value) returns the input unchanged."""
    x = ins.args[0]
    if x.shape == ins.outs[0].shape and x.shape.rank is not None and (
            x.shape.rank == 0 or ins.attrs["axis"] == ()):
        return x
    return None


SUM = define("Sum", _reduce_infer("iufc"), _reduction("sum", int_dtype=True), simplify=_noop_reduction)
MEAN = define("Mean", _reduce_infer("iufc"), _reduction("mean", int_dtype=True), simplify=_noop_reduction)
MAX = define("Max", _reduce_infer("iuf"), _reduction("max"), simplify=_noop_reduction)
MIN = define("Min", _reduce_infer("iuf"), _reduction("min"), simplify=_noop_reduction)
PROD = define("Prod", _reduce_infer("iufc"), _reduction("prod", int_dtype=True), simplify=_noop_reduction)
ALL = define("All", _reduce_infer("b"), _reduction("all"), differentiable=False, simplify=_noop_reduction)
ANY = define("Any", _reduce_infer("b"), _reduction("any"), differentiable=False, simplify=_noop_reduction)


def _arg_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    if x.dtype.np.kind not in "iuf":
        raise TypeError(f"argmax/argmin of a {x.dtype.name} tensor is not supported")
    return [(attrs["output_type"], reduced_shape(x.shape, (attrs["axis"],), False))]


def _arg_emitter(func: str) -> Any:
    def emit(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
        axis = normalize_axis(ins.attrs["axis"], ins.args[0].shape.rank)
        call: ast.expr = ast.Call(np_attr(func), [args[0]], [ast.keyword("axis", literal(axis))])
        if ins.outs[0].dtype is not _dt.int64:
            call = astype(call, ins.outs[0].dtype)
        return call
    return emit


ARG_MAX = define("ArgMax", _arg_infer, _arg_emitter("argmax"), differentiable=False)
ARG_MIN = define("ArgMin", _arg_infer, _arg_emitter("argmin"), differentiable=False)


def _scan_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    normalize_axis(attrs["axis"], x.shape.rank, "scan")
    if x.dtype.np.kind not in "iufc":
        raise TypeError(f"cumulative ops on a {x.dtype.name} tensor are not supported")
    return [(x.dtype, x.shape)]


def _scan_emitter(func: str) -> Any:
    def emit(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
        axis = normalize_axis(ins.attrs["axis"], ins.args[0].shape.rank)
        if not ins.attrs["exclusive"] and not ins.attrs["reverse"]:
            return ast.Call(np_attr(func), [args[0]], [ast.keyword("axis", literal(axis))])
        return rt_call(func, [args[0], literal(axis), literal(ins.attrs["exclusive"]), literal(ins.attrs["reverse"])])
    return emit


CUMSUM = define("Cumsum", _scan_infer, _scan_emitter("cumsum"))
CUMPROD = define("Cumprod", _scan_infer, _scan_emitter("cumprod"))


# -- broadcasting and its adjoint ------------------------------------------------------------------

def _sum_to_infer(inputs: Sequence[Any], attrs: dict) -> list:
    g, like = inputs
    broadcast_shape(g.shape, like.shape)
    return [(g.dtype, like.shape)]


def _emit_sum_to(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    """``np.sum(g, axis=0)`` over the leading axes; ``keepdims=True`` when only stretched axes are
    summed; a reshape when both are."""
    g, like = ins.args
    if not (g.shape.is_fully_defined() and like.shape.is_fully_defined()):
        return rt_call("sum_to", [args[0], shape_or(like.shape, args, 1)])
    gd, xd = g.shape.sizes, like.shape.sizes
    lead = len(gd) - len(xd)
    stretched = tuple(lead + i for i, d in enumerate(xd) if d == 1 and gd[lead + i] != 1)
    axes = tuple(range(lead)) + stretched
    keywords = [ast.keyword("axis", axes_literal(axes))] if axes else []
    if stretched and not lead:
        return ast.Call(np_attr("sum"), [args[0]], keywords + [ast.keyword("keepdims", ast.Constant(True))])
    call = ast.Call(np_attr("sum"), [args[0]], keywords)
    if [d for i, d in enumerate(gd) if i not in axes] != list(xd):
        call = ast.Call(np_attr("reshape"), [call, literal(tuple(xd))], [])
    return call


def _broadcast_reduced_infer(inputs: Sequence[Any], attrs: dict) -> list:
    g, like = inputs
    return [(g.dtype, like.shape)]


def _emit_broadcast_reduced(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    g, like = ins.args
    shape = shape_or(ins.outs[0].shape, args, 1)
    value = args[0]
    axes = normalize_axes(ins.attrs["axis"], like.shape.rank)
    if not ins.attrs["keepdims"] and axes is not None and g.shape.rank != 0:
        value = ast.Call(np_attr("expand_dims"), [value, axes_literal(axes)], [])
    return ast.Call(np_attr("broadcast_to"), [value, shape], [])


def _broadcast_like_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x, like = inputs
    return [(x.dtype, broadcast_shape(x.shape, like.shape))]


def _emit_broadcast_like(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    shape = known_shape(ins.outs[0].shape) or \
        ast.Call(np_attr("broadcast_shapes"), [ast.Attribute(args[0], "shape", LOAD),
                                               ast.Attribute(args[1], "shape", LOAD)], [])
    return ast.Call(np_attr("broadcast_to"), [args[0], shape], [])


SUM_TO_SHAPE = define("SumToShape", _sum_to_infer, _emit_sum_to,
                      shape_only=(1,), simplify=same_shape_input)
BROADCAST_LIKE = define("BroadcastLike", _broadcast_like_infer, _emit_broadcast_like,
                        shape_only=(1,), simplify=same_shape_input, view="readonly", uniform_from=0)
BROADCAST_REDUCED = define("BroadcastReduced", _broadcast_reduced_infer, _emit_broadcast_reduced,
                           shape_only=(1,), simplify=same_shape_input, view="readonly", uniform_from=0)
