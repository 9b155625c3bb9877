"""Emitters for matrix products: MatMul (``@``) and Einsum."""
from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

from ... import einsum_equation as eqn
from ...primitives import linalg
from ...primitives.core import Primitive
from ..program import Instr
from .common import LOAD, Emitter, literal, np_attr


def _operand(expr: ast.expr, v: Any, transposed: bool) -> ast.expr:
    if not transposed:
        return expr
    if v.shape.rank == 2:
        return ast.Attribute(expr, "T", LOAD)
    return ast.Call(np_attr("swapaxes"), [expr, ast.Constant(-1), ast.Constant(-2)], [])


def _emit_matmul(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    x, y = ins.args
    return ast.BinOp(_operand(args[0], x, ins.attrs["transpose_a"]), ast.MatMult(),
                     _operand(args[1], y, ins.attrs["transpose_b"]))


def _emit_einsum(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    """``np.einsum('ij,jk->ik', x, y, optimize=True)`` (the equation is our canonical text). NumPy
    will not sum ``...`` dims away, so then the ``...`` are spelled out as letters."""
    eq = eqn.parse(ins.attrs["equation"], len(ins.args))
    ranks = [v.shape.rank for v in ins.args]
    known = [r for r in ranks if r is not None]
    if eqn.ELLIPSIS not in eq.output and any(eqn.ELLIPSIS in t for t in eq.inputs) and len(known) == len(ranks):
        eq = eqn.explicit(eq, known)[0]
    keywords = [ast.keyword("optimize", ast.Constant(True))] if len(args) > 1 else []
    return ast.Call(np_attr("einsum"), [literal(str(eq)), *args], keywords)


EMITTERS: dict[Primitive, Emitter] = {
    linalg.MAT_MUL: _emit_matmul,
    linalg.EINSUM: _emit_einsum,
}
