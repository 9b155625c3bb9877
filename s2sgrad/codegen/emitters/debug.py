"""Emitters of the checks and prints: calls of ``rt.assert_that``, ``rt.print_v2``,
``rt.print_tensors`` and ``rt.check_numerics`` (``codegen/runtime.py``)."""
from __future__ import annotations

import ast
from collections.abc import Sequence

import numpy as np

from ...primitives import debug as P
from ...primitives.core import Primitive
from ..program import Instr
from .common import LOAD, Emitter, literal, rt_call


def _list(ins: Instr, args: Sequence[ast.expr], start: int) -> ast.expr:
    """The data arguments from ``start`` on; constant strings written as text (``'x (x:0) = '``)."""
    return ast.List([_text(ins.args[i].const) or args[i] for i in range(start, len(args))], LOAD)


def _text(value: object) -> ast.expr | None:
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, bytes):
        try:
            return ast.Constant(value.decode("utf-8"))
        except UnicodeDecodeError:
            return None
    return None


def _emit_assert(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return rt_call("assert_that", [args[0], _list(ins, args, 1), literal(ins.attrs["summarize"])])


def _emit_print(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return rt_call("print_tensors", [args[0], literal(ins.attrs["message"]), _list(ins, args, 1),
                                     literal(ins.attrs["summarize"])])


def _emit_print_v2(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    attrs = ins.attrs
    return rt_call("print_v2", [literal(attrs["template"]), _list(ins, args, 0), literal(attrs["summarize"]),
                                literal(attrs["output_stream"])])


def _emit_check_numerics(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return rt_call("check_numerics", [args[0], literal(ins.attrs["message"])])


EMITTERS: dict[Primitive, Emitter] = {
    P.ASSERT: _emit_assert,
    P.PRINT: _emit_print,
    P.PRINT_V2: _emit_print_v2,
    P.CHECK_NUMERICS: _emit_check_numerics,
}
