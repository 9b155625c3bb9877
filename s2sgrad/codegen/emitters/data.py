"""Emitters of tf.data's computed ops: ParseExample calls ``rt.parse_example``. (The iterator ops are
host ops, computed by the Session: ``primitives/data.py``.)"""
from __future__ import annotations

import ast
from collections.abc import Sequence

from ...primitives import data
from ...primitives.core import Primitive
from ..program import Instr
from .common import Emitter, literal, rt_call

__all__ = ["EMITTERS"]


def _emit_parse_example(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    call = [args[0], literal(ins.attrs["dense"]), literal(ins.attrs["sparse"])]
    return rt_call("parse_example", call + ([literal(ins.attrs["sequence"])] if ins.attrs["sequence"] else []))


EMITTERS: dict[Primitive, Emitter] = {data.PARSE_EXAMPLE: _emit_parse_example}
