"""Emitters for identity ops and random numbers (``rng.<method>(shape, dtype=...)``)."""
from __future__ import annotations

import ast
from collections.abc import Sequence

from ... import dtypes as _dt
from ...primitives import state
from ...primitives.core import Primitive
from ..program import Instr
from .common import LOAD, Emitter, astype, known_shape, literal, rt_call
from .template import template


def _emit_identity_n(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return args[0] if len(args) == 1 else ast.Tuple(list(args), LOAD)


def _size(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return known_shape(ins.outs[0].shape) or args[1]


def _random_emitter(method: str) -> Emitter:
    """``rng.<method>(shape, dtype=...)``; NumPy draws float16 as float32, then casts."""

    def emit(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
        dtype = ins.outs[0].dtype
        draw = _dt.float32 if dtype is _dt.float16 else dtype
        call: ast.expr = ast.Call(ast.Attribute(args[0], method, LOAD), [_size(ins, args)],
                        [ast.keyword("dtype", literal(draw))])
        if draw is not dtype:
            call = astype(call, dtype)
        return call

    return emit


def _emit_truncated(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return rt_call("truncated_normal", [args[0], _size(ins, args), literal(ins.outs[0].dtype)])


def _emit_integers(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return ast.Call(ast.Attribute(args[0], "integers", LOAD),
                    [literal(ins.attrs["minval"]), literal(ins.attrs["maxval"])],
                    [ast.keyword("size", _size(ins, args)), ast.keyword("dtype", literal(ins.outs[0].dtype))])


EMITTERS: dict[Primitive, Emitter] = {
    state.IDENTITY: template("x"),
    state.STOP_GRADIENT: template("x"),
    state.IDENTITY_N: _emit_identity_n,
    state.RANDOM_STANDARD_NORMAL: _random_emitter("standard_normal"),
    state.RANDOM_UNIFORM: _random_emitter("random"),
    state.TRUNCATED_NORMAL: _emit_truncated,
    state.RANDOM_UNIFORM_INT: _emit_integers,
}
