"""Emitters of the convolution and pooling primitives: one ``rt.<helper>`` call each
(``codegen/runtime_conv.py``), with the spatial strides, padding and dilations as literals::

    conv = rt.conv(x, w, strides=(1, 1), padding='SAME')
"""
from __future__ import annotations

import ast
from collections.abc import Sequence

from ...primitives import conv as P
from ...primitives.common import const_ints
from ...primitives.core import Primitive
from ..program import Instr
from .common import Emitter, literal, rt_call


def _geometry(ins: Instr, window: bool = False) -> list[ast.keyword]:
    """``ksize=`` (pools), ``strides=``, ``padding=`` and, when not all 1 / not NHWC, ``dilations=``
    and ``channels_first=``."""
    attrs = ins.attrs
    keywords = [ast.keyword("ksize", literal(P.spatial(attrs, "ksize")))] if window else []
    keywords += [ast.keyword("strides", literal(P.spatial(attrs, "strides"))),
                 ast.keyword("padding", literal(P.pads(attrs)))]
    if "dilations" in attrs and any(d != 1 for d in P.spatial(attrs, "dilations")):
        keywords.append(ast.keyword("dilations", literal(P.spatial(attrs, "dilations"))))
    if P.channels_first(attrs):
        keywords.append(ast.keyword("channels_first", ast.Constant(True)))
    return keywords


def _sizes(ins: Instr, args: Sequence[ast.expr], i: int) -> ast.expr:
    """An int-vector input written as a tuple literal when it is known (``args[i]``, rendered only
    when it is not, so a known one leaves no constant behind)."""
    known = const_ints(ins.args[i])
    return literal(tuple(known)) if known is not None else args[i]


def _helper(name: str, sized: int | None = None, window: bool = False) -> Emitter:
    """``rt.<name>(*args, <geometry>)``, input ``sized`` written as a tuple when known."""
    def emit(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
        operands = [_sizes(ins, args, i) if i == sized else args[i] for i in range(len(ins.args))]
        return rt_call(name, operands, _geometry(ins, window))
    return emit


def _emit_argmax(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    keywords = _geometry(ins, window=True)
    if ins.attrs["include_batch_in_index"]:
        keywords.append(ast.keyword("include_batch_in_index", ast.Constant(True)))
    if ins.attrs["Targmax"].name != "int64":
        keywords.append(ast.keyword("index_dtype", literal(ins.attrs["Targmax"])))
    return rt_call("max_pool_argmax", [args[0]], keywords)


def _conv_family(forward: Primitive, by_input: Primitive, by_filter: Primitive, helper: str) -> dict:
    backprop = "conv" if helper == "conv" else "depthwise"
    return {forward: _helper(helper), by_input: _helper(f"{backprop}_backprop_input", sized=0),
            by_filter: _helper(f"{backprop}_backprop_filter", sized=1)}


def _pools(max_pool: Primitive, grad: Primitive, grad_grad: Primitive, avg: Primitive, avg_grad: Primitive) -> dict:
    return {max_pool: _helper("max_pool", window=True), grad: _helper("max_pool_grad", window=True),
            grad_grad: _helper("max_pool_grad_grad", window=True), avg: _helper("avg_pool", window=True),
            avg_grad: _helper("avg_pool_grad", sized=0, window=True)}


def _resize(name: str, sized: int | None) -> Emitter:
    """``rt.<name>(x, size_or_original, align_corners=..., half_pixel_centers=...)`` (flags only when set)."""
    def emit(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
        operands = [args[0], _sizes(ins, args, 1) if sized == 1 else args[1]]
        flags = [ast.keyword(key, ast.Constant(True)) for key in ("align_corners", "half_pixel_centers")
                 if ins.attrs[key]]
        return rt_call(name, operands, flags)
    return emit


EMITTERS: dict[Primitive, Emitter] = {
    **_conv_family(P.CONV2D, P.CONV2D_BACKPROP_INPUT, P.CONV2D_BACKPROP_FILTER, "conv"),
    **_conv_family(P.CONV3D, P.CONV3D_BACKPROP_INPUT, P.CONV3D_BACKPROP_FILTER, "conv"),
    **_conv_family(P.DEPTHWISE_CONV2D, P.DEPTHWISE_CONV2D_BACKPROP_INPUT, P.DEPTHWISE_CONV2D_BACKPROP_FILTER,
                   "depthwise_conv"),
    **_pools(P.MAX_POOL, P.MAX_POOL_GRAD, P.MAX_POOL_GRAD_GRAD, P.AVG_POOL, P.AVG_POOL_GRAD),
    **_pools(P.MAX_POOL3D, P.MAX_POOL3D_GRAD, P.MAX_POOL3D_GRAD_GRAD, P.AVG_POOL3D, P.AVG_POOL3D_GRAD),
    P.MAX_POOL_WITH_ARGMAX: _emit_argmax,
    P.RESIZE_BILINEAR: _resize("resize_bilinear", sized=1),
    P.RESIZE_BILINEAR_GRAD: _resize("resize_bilinear_grad", sized=None),
    P.RESIZE_NEAREST_NEIGHBOR: _resize("resize_nearest", sized=1),
    P.RESIZE_NEAREST_NEIGHBOR_GRAD: _resize("resize_nearest_grad", sized=1),
}
