"""Emitters of the primitives inside blocks: a branch's missing value (``None``), reading a
loop's record of iteration k (``h_steps[k]``) and that read's gradient."""
from __future__ import annotations

import ast
from collections.abc import Sequence

from ...primitives import control
from ...primitives.core import Primitive
from ..program import Instr
from .common import LOAD, Emitter, rt_call


def _emit_step_read(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    index = ins.args[1].const   # (a known iteration: ``h_steps[57]``)
    return ast.Subscript(args[0], args[1] if index is None else ast.Constant(int(index)), LOAD)


EMITTERS: dict[Primitive, Emitter] = {
    control.UNDEFINED: lambda ins, args: ast.Constant(None),
    control.STEP_READ: _emit_step_read,
    control.STEP_GRAD: lambda ins, args: rt_call("step_grad", [args[0], args[1], args[2]]),
}
