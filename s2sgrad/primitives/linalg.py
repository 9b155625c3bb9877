"""Matrix products: MatMul (with batch broadcasting) and Einsum (any equation, with ``...``)."""
from __future__ import annotations

import ast
import functools
from typing import Any, Sequence

from .. import dtypes as _dt
from .. import einsum_equation as eqn
from ..ops import array_ops as a
from ..ops import creation as c
from ..ops import indexing_ops as ix
from ..ops import linalg_ops as la
from ..ops import math_ops as m
from ..ops import reduce_ops as r
from ..shapes import TensorShape
from .common import LOAD
from .core import broadcast_shape, define, literal, np_attr, only_needed, same_dtype
from .math import unbroadcast


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


def _matmul_grad(op: Any, g: Any) -> list:
    """TF's four cases: with ``a`` transposed its gradient is ``b @ g.T`` (transposed as ``b`` is used),
    else ``g @ b.T``; likewise for ``b``."""
    x, y = op.inputs
    ta, tb = op.attrs["transpose_a"], op.attrs["transpose_b"]

    def gx() -> Any:
        return m.matmul(y, g, transpose_a=tb, transpose_b=True) if ta else m.matmul(g, y, transpose_b=not tb)

    def gy() -> Any:
        return m.matmul(g, x, transpose_a=True, transpose_b=ta) if tb else m.matmul(x, g, transpose_a=not ta)

    return only_needed(op, lambda: unbroadcast(gx(), x), lambda: unbroadcast(gy(), y))


define("MatMul", _matmul_infer, _emit_matmul, _matmul_grad)


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


def _einsum_grad(op: Any, g: Any) -> list:
    ranks = [t.shape.rank for t in op.inputs]
    if None in ranks:
        raise ValueError(f"the gradient of einsum needs the ranks of its operands ({op.name})")
    eq, spelled = eqn.explicit(eqn.parse(op.attrs["equation"], len(op.inputs)), ranks)
    broadcast = op.attrs.get("broadcast", "") + spelled
    return only_needed(op, *[functools.partial(_operand_grad, eq, broadcast, i, op.inputs, g)
                             for i in range(len(op.inputs))])


def _operand_grad(eq: eqn.Equation, broadcast: str, i: int, inputs: Sequence[Any], g: Any) -> Any:
    """Contract ``g`` with the other operands back to operand ``i``'s subscripts. Letters summed
    away by operand ``i`` alone come back through a ones vector; a repeated letter (a diagonal)
    through an identity matrix."""
    x = inputs[i]
    terms = [eq.output] + [t for k, t in enumerate(eq.inputs) if k != i]
    operands = [g] + [t for k, t in enumerate(inputs) if k != i]
    present = set("".join(terms))
    fresh = eq.fresh_letters()
    target = ""
    for pos, letter in enumerate(eq.inputs[i]):
        if letter in eq.inputs[i][:pos]:
            twin = next(fresh)
            terms.append(letter + twin)
            operands.append(_identity(_dim(x, pos), x.dtype))
            target += twin
            continue
        if letter not in present:
            terms.append(letter)
            operands.append(_ones(_dim(x, pos), x.dtype))
            present.add(letter)
        target += letter
    gx = la.einsum_broadcasting(",".join(terms) + "->" + target, operands, broadcast)
    if gx.shape.is_fully_defined() and gx.shape == x.shape:
        return gx
    return unbroadcast(a.broadcast_like(gx, x), x)  # '...' dims that broadcasting stretched or kept


def _dim(x: Any, pos: int) -> Any:
    d = x.shape.sizes[pos]
    return d if d is not None else a.shape(x)[pos]


def _ones(n: Any, dtype: _dt.DType) -> Any:
    return a.ones([n] if isinstance(n, int) else a.reshape(n, [1]), dtype)


def _identity(n: Any, dtype: _dt.DType) -> Any:
    if isinstance(n, int):
        return c.eye(n, dtype=dtype)
    iota = r.cumsum(a.ones(a.reshape(n, [1]), _dt.int32), exclusive=True)
    return ix.one_hot(iota, n, dtype=dtype)


define("Einsum", _einsum_infer, _emit_einsum, _einsum_grad, default_name="einsum", view="input")  # "ii->i" is a view
