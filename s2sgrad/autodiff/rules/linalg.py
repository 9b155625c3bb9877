"""Gradient rules of the linalg primitives."""
from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from ... import dtypes as _dt
from ... import einsum_equation as eqn
from ...ops import array_ops as a
from ...ops import creation as c
from ...ops import indexing_ops as ix
from ...ops import linalg_ops as la
from ...ops import math_ops as m
from ...ops import reduce_ops as r
from ...primitives import linalg as P
from ...primitives.core import Primitive
from ...ssa.nodes import Operation, Tensor
from .common import Grads, Needed, Rule, only_needed, unbroadcast


def _matmul_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """TF's four cases: with ``a`` transposed its gradient is ``b @ g.T`` (transposed as ``b`` is used),
    else ``g @ b.T``; likewise for ``b``."""
    x, y = op.inputs
    ta, tb = op.attrs["transpose_a"], op.attrs["transpose_b"]

    def gx() -> Tensor:
        return m.matmul(y, g, transpose_a=tb, transpose_b=True) if ta else m.matmul(g, y, transpose_b=not tb)

    def gy() -> Tensor:
        return m.matmul(g, x, transpose_a=True, transpose_b=ta) if tb else m.matmul(x, g, transpose_a=not ta)

    return only_needed(needed, lambda: unbroadcast(gx(), x), lambda: unbroadcast(gy(), y))


def _einsum_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    ranks = [t.shape.rank for t in op.inputs]
    if None in ranks:
        raise ValueError(f"the gradient of einsum needs the ranks of its operands ({op.name})")
    eq, spelled = eqn.explicit(eqn.parse(op.attrs["equation"], len(op.inputs)), ranks)
    broadcast = op.attrs.get("broadcast", "") + spelled
    return only_needed(needed, *[functools.partial(_operand_grad, eq, broadcast, i, op.inputs, g)
                             for i in range(len(op.inputs))])


def _operand_grad(eq: eqn.Equation, broadcast: str, i: int, inputs: Sequence[Any], g: Tensor) -> Any:
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


def _dim(x: Tensor, pos: int) -> Any:
    d = x.shape.as_list()[pos]
    return d if d is not None else a.shape(x)[pos]


def _ones(n: Any, dtype: _dt.DType) -> Any:
    return a.ones([n] if isinstance(n, int) else a.reshape(n, [1]), dtype)


def _identity(n: Any, dtype: _dt.DType) -> Any:
    if isinstance(n, int):
        return c.eye(n, dtype=dtype)
    iota = r.cumsum(a.ones(a.reshape(n, [1]), _dt.int32), exclusive=True)
    return ix.one_hot(iota, n, dtype=dtype)


RULES: dict[Primitive, Rule] = {
    P.MAT_MUL: _matmul_grad,
    P.EINSUM: _einsum_grad,
}
