"""Matrix products: MatMul (with batch broadcasting) and Einsum (any equation, with ``...``)."""
from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

from .. import einsum_equation as eqn
from ..shapes import TensorShape
from .common import LOAD
from .core import broadcast_shape, define, literal, np_attr, same_dtype


def _matmul_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x, y = inputs
    if x.dtype is not y.dtype:
        raise TypeError(f"Input 'b' of 'MatMul' Op has type {y.dtype.name} that does not match type "
                        f"{x.dtype.name} of argument 'a'.")
    if x.dtype.np.kind not in "iufc":
        raise TypeError(f"MatMul of {x.dtype.name} tensors is not supported")
    xs, ys = x.shape, y.shape
    for name, s in (("a", xs), ("b", ys)):
        if s.rank is not None and s.rank < 2:
            raise ValueError(f"Shape must be rank >= 2 but is rank {s.rank} for input '{name}'")
    if xs.rank is None or ys.rank is None:
        return [(x.dtype, TensorShape(None))]
    xd, yd = list(xs.sizes), list(ys.sizes)
    if attrs["transpose_a"]:
        xd[-1], xd[-2] = xd[-2], xd[-1]
    if attrs["transpose_b"]:
        yd[-1], yd[-2] = yd[-2], yd[-1]
    if xd[-1] is not None and yd[-2] is not None and xd[-1] != yd[-2]:
        raise ValueError(f"Dimensions must be equal, but are {xd[-1]} and {yd[-2]}")
    batch = broadcast_shape(TensorShape(xd[:-2]), TensorShape(yd[:-2]))
    return [(x.dtype, batch.concatenate([xd[-2], yd[-1]]))]


def _operand(expr: ast.expr, v: Any, transposed: bool) -> ast.expr:
    if not transposed:
        return expr
    if v.shape.rank == 2:
        return ast.Attribute(expr, "T", LOAD)
    return ast.Call(np_attr("swapaxes"), [expr, ast.Constant(-1), ast.Constant(-2)], [])


def _emit_matmul(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    x, y = ins.args
    return ast.BinOp(_operand(args[0], x, ins.attrs["transpose_a"]), ast.MatMult(),
                     _operand(args[1], y, ins.attrs["transpose_b"]))


MAT_MUL = define("MatMul", _matmul_infer, _emit_matmul)


# -- einsum ----------------------------------------------------------------------------------------------

def _einsum_infer(inputs: Sequence[Any], attrs: dict) -> list:
    dtype = same_dtype(inputs, "einsum operands")
    if dtype.np.kind not in "iufc":
        raise TypeError(f"einsum of {dtype.name} tensors is not supported")
    eq = eqn.parse(attrs["equation"], len(inputs))
    return [(dtype, eqn.output_shape(eq, [t.shape for t in inputs], attrs.get("broadcast", "")))]


def _emit_einsum(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    """``np.einsum('ij,jk->ik', x, y, optimize=True)`` (the equation is our canonical text). NumPy
    will not sum ``...`` dims away, so then the ``...`` are spelled out as letters."""
    eq = eqn.parse(ins.attrs["equation"], len(ins.args))
    ranks = [v.shape.rank for v in ins.args]
    if eqn.ELLIPSIS not in eq.output and any(eqn.ELLIPSIS in t for t in eq.inputs) and None not in ranks:
        eq = eqn.explicit(eq, ranks)[0]
    keywords = [ast.keyword("optimize", ast.Constant(True))] if len(args) > 1 else []
    return ast.Call(np_attr("einsum"), [literal(str(eq)), *args], keywords)


EINSUM = define("Einsum", _einsum_infer, _emit_einsum, default_name="einsum", view="input")  # "ii->i" is a view
