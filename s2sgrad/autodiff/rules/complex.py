"""Gradient rules for complex numbers, in TensorFlow's convention.

For a real loss ``L`` of a complex ``z = x + iy``, the gradient is ``dL/dx + i dL/dy``
(autograd's is its conjugate). An op holomorphic in its inputs (``exp``, ``*``, ``@``...)
then passes back ``g * conj(f'(z))``: its real rule, run on ``conj(g)`` and conjugated
(``holomorphic``), which is the real rule itself for real inputs.
"""
from __future__ import annotations

from collections.abc import Sequence

from ...ops import array_ops as a
from ...ops import complex_ops as c
from ...ops import math_ops as m
from ...ops.indexed_slices import IndexedSlices
from ...primitives import complex as P
from ...primitives import linalg as L
from ...primitives import math as M
from ...primitives import reduce as R
from ...primitives.core import Primitive
from ...ssa.nodes import Operation, Tensor
from . import linalg, math, reduce
from .common import Grads, Needed, Rule, only_needed, unbroadcast


def _conj(t: Tensor | IndexedSlices) -> Tensor | IndexedSlices:
    """``conj(t)``; ``conj(conj(x))`` is ``x``."""
    if isinstance(t, IndexedSlices):
        return IndexedSlices(c.conj(t.values), t.indices, t.dense_shape)
    return t.op.inputs[0] if t.op.prim is P.CONJ else c.conj(t)


def holomorphic(rule: Rule) -> Rule:
    """``rule`` for complex inputs too: ``conj(rule(conj(g)))``."""
    def complex_rule(op: Operation, needed: Needed, *grads: Tensor) -> Grads:
        for t in op.inputs:
            if t.dtype._np.kind == "c":   # (is_complex, without a property call per input of every such op)
                break
        else:
            return rule(op, needed, *grads)
        result = rule(op, needed, *[_conj(g) for g in grads])
        return [None if g is None else _conj(g) for g in result]
    complex_rule.__doc__ = rule.__doc__
    return complex_rule


def _pow_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """TF's rule for complex powers: ``log(x)`` taken as 0 where ``x`` is 0."""
    x, y = op.inputs
    if not x.dtype.is_complex:
        return math.RULES[M.POW](op, needed, g)
    z = op.outputs[0]

    def grad_y() -> Tensor:
        nonzero = m.not_equal(x, a.zeros_like(x))
        log_x = a.where_v2(nonzero, m.log(a.where_v2(nonzero, x, a.ones_like(x))), a.zeros_like(x))
        return unbroadcast(g * c.conj(z * log_x), y)

    return only_needed(needed, lambda: unbroadcast(g * c.conj(y * m.pow(x, y - a.ones_like(y))), x), grad_y)


def _abs_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """``|z|``'s gradient ``g z / |z|`` (0 at 0, as TF's ComplexAbs) written without ``sign``, whose
    rule is 0: so second derivatives are right."""
    z = op.inputs[0]
    if not z.dtype.is_complex:
        return math.RULES[M.ABS](op, needed, g)
    return [m.divide_no_nan(m.cast(g, z.dtype) * z, m.cast(op.outputs[0], z.dtype))]


def _complex_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    x, y = op.inputs
    return only_needed(needed, lambda: unbroadcast(c.real(g), x), lambda: unbroadcast(c.imag(g), y))


def _angle_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """``d angle = (x dy - y dx) / |z|^2``: ``g (-y + ix) / |z|^2``."""
    z = op.inputs[0]
    x, y = c.real(z), c.imag(z)
    return [c.complex(-g * y, g * x) / m.cast(m.square(x) + m.square(y), z.dtype)]


_HOLOMORPHIC: Sequence[tuple[dict[Primitive, Rule], Primitive]] = [
    *[(math.RULES, p) for p in (M.SQUARE, M.SQRT, M.RSQRT, M.EXP, M.EXPM1, M.LOG, M.LOG1P, M.SIN, M.COS, M.TAN,
                                M.ASIN, M.ACOS, M.ATAN, M.SINH, M.COSH, M.ASINH, M.TANH, M.SIGMOID,
                                M.RECIPROCAL, M.MUL, M.REAL_DIV, M.DIV_NO_NAN)],
    (linalg.RULES, L.MAT_MUL), (linalg.RULES, L.EINSUM), (reduce.RULES, R.PROD), (reduce.RULES, R.CUMPROD),
]

RULES: dict[Primitive, Rule] = {
    **{p: holomorphic(table[p]) for table, p in _HOLOMORPHIC},
    M.POW: _pow_grad,
    M.ABS: _abs_grad,
    P.COMPLEX: _complex_grad,
    P.REAL: lambda op, needed, g: [m.cast(g, op.inputs[0].dtype)],
    P.IMAG: lambda op, needed, g: [c.complex(a.zeros_like(g), g)],
    P.CONJ: lambda op, needed, g: [_conj(g)],  # g may be IndexedSlices (a gather of the conjugate)
    P.ANGLE: _angle_grad,
}
