"""Emitters for the elementwise math that is more than a declared ``expr``: Square, Pow, Select, AddN, Cast."""
from __future__ import annotations

import ast
from collections.abc import Sequence

from ...primitives import math
from ...primitives.core import Primitive
from ..program import Instr
from .common import LOAD, Emitter, astype, literal, np_attr, rt_call
from .template import template


def _emit_square(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    """``x * x`` on a real NumPy scalar (a named one: the product reads it twice), else ``np.square(x)``.
    Both round the same; on a scalar the ufunc call costs about twice the product."""
    x, arg = ins.args[0], args[0]
    if x.shape.rank == 0 and x.dtype.np.kind in "iuf" and isinstance(arg, ast.Name):
        return ast.BinOp(arg, ast.Mult(), args[0])   # two nodes: each use is renamed in place
    return ast.Call(np_attr("square"), [arg], [])


def _emit_pow(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    """``x ** 2`` as Square's emitter writes ``x * x`` or ``np.square(x)`` (NumPy computes all three alike)."""
    y = ins.args[1]
    if y.const is not None and y.is_uniform() and y.scalar() == 2 and ins.args[0].shape == ins.outs[0].shape:
        return _emit_square(ins, args)
    return ast.BinOp(args[0], ast.Pow(), args[1])


_where = template(math.SELECT_V2.expr, math.SELECT_V2.expr_args)


_where_rows_at_run_time = template("np.where(np.reshape(c, np.shape(c) + (1,) * (np.ndim(x) - np.ndim(c))), x, y)",
                                   ("c", "x", "y"))


def _emit_select(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    c, x, _ = ins.args
    if c.shape.rank is None or x.shape.rank is None:
        return _where_rows_at_run_time(ins, args)
    if math.picks_rows(c, x):
        rows = ast.Call(np_attr("reshape"), [args[0], literal((-1,) + (1,) * (x.shape.rank - 1))], [])
        return _where(ins, [rows, args[1], args[2]])
    return _where(ins, args)


_INLINE_TERMS = 16  # longer sums call rt.add_n: a deep ``a + b + ...`` tree overflows ast.unparse


def _emit_add_n(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    if len(args) > _INLINE_TERMS:
        return rt_call("add_n", [ast.List(list(args), LOAD)])
    expr = args[0]
    for arg in args[1:]:
        expr = ast.BinOp(expr, ast.Add(), arg)
    return expr


def _emit_cast(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    """``x.astype(dtype)``; from complex to real, ``np.real(x).astype(dtype)`` (TF's cast keeps the real
    part: the same values, without NumPy's ComplexWarning)."""
    x = args[0]
    if ins.attrs["SrcT"].is_complex and not ins.attrs["DstT"].is_complex:
        x = ast.Call(np_attr("real"), [x], [])
    return astype(x, ins.attrs["DstT"])


EMITTERS: dict[Primitive, Emitter] = {
    math.POW: _emit_pow,
    math.SQUARE: _emit_square,
    math.SELECT: _emit_select,
    math.ADD_N: _emit_add_n,
    math.CAST: _emit_cast,
}
