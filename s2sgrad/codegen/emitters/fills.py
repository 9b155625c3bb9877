"""Emitters for fills, broadcasts and pads."""
from __future__ import annotations

import ast
from collections.abc import Sequence

import numpy as np

from ...primitives import fills
from ...primitives.core import Primitive
from ..program import Instr
from .common import Emitter, known_shape, literal, np_attr, rt_call


def _fill_emitter(func: str) -> Emitter:
    def emit(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
        out = ins.outs[0]
        shape = known_shape(out.shape)
        if shape is None:
            return ast.Call(np_attr(func + "_like"), [args[0]], [])
        return ast.Call(np_attr(func), [shape], [ast.keyword("dtype", literal(out.dtype))])
    return emit


def _emit_fill(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return ast.Call(np_attr("full"), [known_shape(ins.outs[0].shape) or args[0], args[1]],
                    [ast.keyword("dtype", literal(ins.outs[0].dtype))])


def _emit_broadcast_to(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return ast.Call(np_attr("broadcast_to"), [args[0], known_shape(ins.outs[0].shape) or args[1]], [])


_MIRROR_OFFSET = {"REFLECT": 1, "SYMMETRIC": 0}


def _pad_width(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    value = ins.args[1].const
    if value is None:
        return args[1]
    return literal(tuple(tuple(int(v) for v in row) for row in np.reshape(value, (-1, 2))))


def _emit_pad(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    """``np.pad(x, ((1, 1), (0, 2)))``, with ``constant_values=`` or ``mode=`` when needed."""
    keywords = []
    if len(ins.args) == 3:
        keywords.append(ast.keyword("constant_values", args[2]))
    if "mode" in ins.attrs:
        keywords.append(ast.keyword("mode", ast.Constant(ins.attrs["mode"].lower())))
    return ast.Call(np_attr("pad"), [args[0], _pad_width(ins, args)], keywords)


def _emit_mirror_pad_grad(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return rt_call("mirror_pad_grad", [args[0], _pad_width(ins, args),
                                       literal(_MIRROR_OFFSET[ins.attrs["mode"]])])


EMITTERS: dict[Primitive, Emitter] = {
    fills.ZEROS_LIKE: _fill_emitter("zeros"),
    fills.ONES_LIKE: _fill_emitter("ones"),
    fills.FILL: _emit_fill,
    fills.BROADCAST_TO: _emit_broadcast_to,
    fills.PAD: _emit_pad,
    fills.PAD_V2: _emit_pad,
    fills.MIRROR_PAD: _emit_pad,
    fills.MIRROR_PAD_GRAD: _emit_mirror_pad_grad,
}
