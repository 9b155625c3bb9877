"""Emitters of TensorArray primitives: a TensorArray is a Python list of arrays at run time."""
from __future__ import annotations

import ast
from collections.abc import Sequence

from ...primitives import tensor_array as ta
from ...primitives.core import Primitive
from ..program import Instr
from .common import LOAD, Emitter, literal, rt_call


def _element(ins: Instr) -> list[ast.expr]:
    """The element shape (None when unknown) and dtype, for stacking unwritten elements as zeros."""
    element = ta.element_shape(ins.args[0])
    known = element.sizes if element.is_fully_defined() else None
    return [literal(known), literal(ins.args[0].dtype)]


def _new(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    return ast.BinOp(ast.List([ast.Constant(None)], LOAD), ast.Mult(), args[0])


EMITTERS: dict[Primitive, Emitter] = {
    ta.TA_NEW: _new,
    ta.TA_WRITE: lambda ins, args: rt_call("ta_write", [args[0], args[1], args[2],
                                                        literal(bool(ins.attrs.get("dynamic_size")))]),
    ta.TA_READ: lambda ins, args: ast.Subscript(args[0], args[1], LOAD),
    ta.TA_STACK: lambda ins, args: rt_call("ta_stack", [args[0], *_element(ins)]),
    ta.TA_UNSTACK: lambda ins, args: ast.Call(ast.Name("list", LOAD), [args[1]], []),
    ta.TA_SIZE: lambda ins, args: rt_call("ta_size", [args[0]]),
    ta.TA_GATHER: lambda ins, args: rt_call("ta_stack", [ast.ListComp(
        ast.Subscript(args[0], ast.Name("i", LOAD), LOAD),
        [ast.comprehension(ast.Name("i", ast.Store()), args[1], [], 0)]), *_element(ins)]),
    ta.TA_SCATTER: lambda ins, args: rt_call("ta_scatter", [args[0], args[1], args[2]]),
    ta.TA_CONCAT: lambda ins, args: rt_call("ta_concat", [args[0], *_element(ins)]),
    ta.TA_SPLIT: lambda ins, args: rt_call("ta_split", [args[0], args[1], args[2]]),
    ta.TA_CONCAT_GRAD: lambda ins, args: rt_call("ta_concat_grad", [args[0], args[1]]),
}
