"""Matrix products: MatMul (with batch broadcasting) and Einsum."""
from __future__ import annotations

import ast
from typing import Any, Sequence

from ..ops import math_ops as m
from ..shapes import TensorShape
from .core import broadcast_shape, define, np_attr, only_needed
from .math import unbroadcast

_LOAD = ast.Load()


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
    xd, yd = list(xs.dims), list(ys.dims)
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
        return ast.Attribute(expr, "T", _LOAD)
    return ast.Call(np_attr("swapaxes"), [expr, ast.Constant(-1), ast.Constant(-2)], [])


def _emit_matmul(ins: Any, args: Sequence[ast.expr]) -> ast.expr:
    x, y = ins.args
    return ast.BinOp(_operand(args[0], x, ins.attrs["transpose_a"]), ast.MatMult(),
                     _operand(args[1], y, ins.attrs["transpose_b"]))


def _matmul_grad(op: Any, g: Any) -> list:
    x, y = op.inputs
    ta, tb = op.attrs["transpose_a"], op.attrs["transpose_b"]
    if not ta and not tb:
        gx, gy = (lambda: m.matmul(g, y, transpose_b=True)), (lambda: m.matmul(x, g, transpose_a=True))
    elif not ta and tb:
        gx, gy = (lambda: m.matmul(g, y)), (lambda: m.matmul(g, x, transpose_a=True))
    elif ta and not tb:
        gx, gy = (lambda: m.matmul(y, g, transpose_b=True)), (lambda: m.matmul(x, g))
    else:
        gx = lambda: m.matmul(y, g, transpose_a=True, transpose_b=True)  # noqa: E731
        gy = lambda: m.matmul(g, x, transpose_a=True, transpose_b=True)  # noqa: E731
    return only_needed(op, lambda: unbroadcast(gx(), x), lambda: unbroadcast(gy(), y))


define("MatMul", _matmul_infer, _emit_matmul, _matmul_grad)
