"""Fills, broadcasts and pads: ZerosLike/OnesLike/Fill, BroadcastTo, and the Pad family
(constant, reflect, symmetric) with MirrorPadGrad, the adjoint of mirror padding."""
from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..shapes import TensorShape
from ..static import constant_value
from .common import known_shape, like_input, rt_call, same_shape_input, shape_operand
from .core import broadcast_shape, define, literal, np_attr

# -- fills ------------------------------------------------------------------------------------------

def _fill_emitter(func: str) -> Any:
    def emit(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
        out = ins.outs[0]
        shape = known_shape(out.shape)
        if shape is None:
            return ast.Call(np_attr(func + "_like"), [args[0]], [])
        return ast.Call(np_attr(func), [shape], [ast.keyword("dtype", literal(out.dtype))])
    return emit


ZEROS_LIKE = define("ZerosLike", like_input, _fill_emitter("zeros"), differentiable=False, shape_only=(0,), fill=0)
ONES_LIKE = define("OnesLike", like_input, _fill_emitter("ones"), differentiable=False, shape_only=(0,), fill=1)


def _fill_infer(inputs: Sequence[Any], attrs: dict) -> list:
    dims, value = inputs
    if value.shape.rank not in (None, 0):
        raise ValueError(f"value must be a scalar, got shape {value.shape}")
    return [(value.dtype, shape_operand(dims, "Fill dims"))]


def _emit_fill(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    return ast.Call(np_attr("full"), [known_shape(ins.outs[0].shape) or args[0], args[1]],
                    [ast.keyword("dtype", literal(ins.outs[0].dtype))])


FILL = define("Fill", _fill_infer, _emit_fill, uniform_from=1)


# -- broadcast_to ---------------------------------------------------------------------------------------

def _broadcast_to_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x, shape = inputs
    out = shape_operand(shape)
    if out.is_fully_defined() and x.shape.rank is not None:
        fits = x.shape.rank <= out.rank
        try:
            fits = fits and broadcast_shape(x.shape, out) == out
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(f"Unable to broadcast a tensor of shape {x.shape} to shape {out.as_list()}")
    return [(x.dtype, out)]


def _emit_broadcast_to(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    return ast.Call(np_attr("broadcast_to"), [args[0], known_shape(ins.outs[0].shape) or args[1]], [])


BROADCAST_TO = define("BroadcastTo", _broadcast_to_infer, _emit_broadcast_to,
                      simplify=same_shape_input, view="readonly", uniform_from=0)


# -- padding ----------------------------------------------------------------------------------------------

_MIRROR_OFFSET = {"REFLECT": 1, "SYMMETRIC": 0}


def _pad_rows(x: Any, paddings: Any) -> tuple[int | None, np.ndarray | None]:
    """The input's rank (if known) and the paddings as (rank, 2) ints (if known); checks both."""
    if not paddings.dtype.is_integer:
        raise TypeError(f"paddings must be an integer tensor, got {paddings.dtype.name}")
    rank, p = x.shape.rank, paddings.shape
    if p.rank is not None and (p.rank != 2 or p.sizes[1] not in (None, 2)
                               or None not in (rank, p.sizes[0]) and p.sizes[0] != rank):
        raise ValueError(f"paddings must be a matrix of shape [{'?' if rank is None else rank}, 2], got shape {p}")
    if rank is None and p.rank == 2:
        rank = p.sizes[0]
    value = constant_value(paddings)
    if value is None:
        return rank, None
    rows = np.reshape(value, (-1, 2)).astype(np.int64)
    if (rows < 0).any():
        raise ValueError(f"paddings must be non-negative, got {rows.tolist()}")
    return rows.shape[0], rows


def _padded_infer(sign: int) -> Any:
    """Pad (sign 1) and MirrorPadGrad (sign -1): each dim grows (shrinks) by its two paddings."""
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        x, paddings = inputs[:2]
        if len(inputs) == 3:
            value = inputs[2]
            if value.dtype is not x.dtype:
                raise TypeError(f"constant_values must have the input's dtype {x.dtype.name}, got {value.dtype.name}")
            if value.shape.rank not in (None, 0):
                raise ValueError(f"constant_values must be a scalar, got shape {value.shape}")
        rank, rows = _pad_rows(x, paddings)
        if rank is None:
            return [(x.dtype, TensorShape(None))]
        dims = list(x.shape.sizes) if x.shape.rank is not None else [None] * rank
        if rows is None:
            return [(x.dtype, TensorShape([None] * rank))]
        mode = attrs.get("mode")
        out = []
        for d, (before, after) in zip(dims, rows.tolist(), strict=True):
            if d is not None and mode is not None:
                _check_mirror(mode, d if sign > 0 else d - before - after, before, after)
            out.append(None if d is None else d + sign * (before + after))
        return [(x.dtype, TensorShape(out))]
    return infer


def _check_mirror(mode: str, d: int, before: int, after: int) -> None:
    if mode == "REFLECT" and max(before, after) >= d:
        raise ValueError(f"paddings must be less than the dimension size: {before}, {after} not less than {d}")
    if mode == "SYMMETRIC" and max(before, after) > d:
        raise ValueError(f"paddings must be no greater than the dimension size: {before}, {after} greater than {d}")


def _pad_width(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    value = ins.args[1].const
    if value is None:
        return args[1]
    return literal(tuple(tuple(int(v) for v in row) for row in np.reshape(value, (-1, 2))))


def _emit_pad(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    """``np.pad(x, ((1, 1), (0, 2)))``, with ``constant_values=`` or ``mode=`` when needed."""
    keywords = []
    if len(ins.args) == 3:
        keywords.append(ast.keyword("constant_values", args[2]))
    if "mode" in ins.attrs:
        keywords.append(ast.keyword("mode", ast.Constant(ins.attrs["mode"].lower())))
    return ast.Call(np_attr("pad"), [args[0], _pad_width(ins, args)], keywords)


def _emit_mirror_pad_grad(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    return rt_call("mirror_pad_grad", [args[0], _pad_width(ins, args),
                                       literal(_MIRROR_OFFSET[ins.attrs["mode"]])])


PAD = define("Pad", _padded_infer(1), _emit_pad, simplify=same_shape_input)
PAD_V2 = define("PadV2", _padded_infer(1), _emit_pad, simplify=same_shape_input)
MIRROR_PAD = define("MirrorPad", _padded_infer(1), _emit_pad, simplify=same_shape_input)
MIRROR_PAD_GRAD = define("MirrorPadGrad", _padded_infer(-1), _emit_mirror_pad_grad, simplify=same_shape_input)
