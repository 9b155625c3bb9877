"""Gradient rules of the decorator's NumPy corner primitives (``primitives/numpy_corners.py``):
autograd's conventions at the points where the derivative is not defined."""
from __future__ import annotations

from ...ops import array_ops as a
from ...ops import math_ops as m
from ...ops.convert import record1
from ...primitives import numpy_corners as P
from ...primitives.core import Primitive
from ...ssa.nodes import Operation, Tensor
from .common import Grads, Needed, Rule, only_needed, unbroadcast


def _split_ties_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """To the argument equal to the result; half to each where they are equal (none where it is NaN)."""
    x, y = op.inputs
    z = op.outputs[0]
    share = a.where_v2(m.equal(x, y), g * 0.5, g)
    zeros = a.zeros_like(share)
    return only_needed(needed, lambda: unbroadcast(a.where_v2(m.equal(x, z), share, zeros), x),
                       lambda: unbroadcast(a.where_v2(m.equal(y, z), share, zeros), y))


def _clip_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """To ``x`` where the result is strictly inside the bounds, to the bound the result equals where
    ``x`` is beyond it, and to nobody where ``x`` is at a bound."""
    x, lo, hi = op.inputs
    z = op.outputs[0]
    at_lo, at_hi = m.equal(z, lo), m.equal(z, hi)
    zeros = a.zeros_like(g)

    def lo_grad() -> Tensor:
        beyond_lo = m.logical_and(m.logical_and(at_lo, m.logical_not(at_hi)), m.not_equal(x, lo))
        return unbroadcast(a.where_v2(beyond_lo, g, zeros), lo)

    return only_needed(needed, lambda: unbroadcast(a.where_v2(m.logical_or(at_lo, at_hi), zeros, g), x), lo_grad,
                       lambda: unbroadcast(a.where_v2(m.logical_and(at_hi, m.not_equal(x, hi)), g, zeros), hi))


def _cbrt_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """``g / (3 cbrt(x)^2)``: infinite at 0."""
    return [g / (3.0 * m.square(op.outputs[0]))]


def _hypot_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """``g x / z`` and ``g y / z`` (NaN at the origin, as autograd's)."""
    x, y = op.inputs
    share = g / op.outputs[0]
    return only_needed(needed, lambda: unbroadcast(share * x, x), lambda: unbroadcast(share * y, y))


def _copysign_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """``g`` where the result is ``x``, ``-g`` where it is ``-x`` (the sign bits of ``x`` and ``y`` differ);
    nothing to ``y``, whose sign bit only chooses between the two."""
    x, y = op.inputs
    one = a.ones_like(op.outputs[0])
    flip = record1(P.NUMPY_COPYSIGN, [one, x]) * record1(P.NUMPY_COPYSIGN, [one, y])   # +1 or -1
    return only_needed(needed, lambda: unbroadcast(g * flip, x), lambda: a.zeros_like(y))


def _arccosh_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """``g / sqrt(x^2 - 1)``, written so that large ``x`` does not overflow (infinite at 1)."""
    x = op.inputs[0]
    return [g / (m.sqrt(x - 1.0) * m.sqrt(x + 1.0))]


def _unpermuted(g: Tensor, order: Tensor, axis: int) -> Tensor:
    """``g`` put back where ``order`` took each value from: reordered by the inverse permutation."""
    inverse = record1(P.NUMPY_ARGSORT, [order], {"axis": axis, "kind": "stable"})
    return record1(P.NUMPY_PERMUTE, [g, inverse], {"axis": axis})


def _sort_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """To the element NumPy's stable sort put in each place."""
    (x,), axis = op.inputs, op.attrs["axis"]
    return [_unpermuted(g, record1(P.NUMPY_ARGSORT, [x], {"axis": axis, "kind": "stable"}), axis)]


def _partition_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """To the element ``np.argpartition`` puts in each place (autograd's rule)."""
    (x,), attrs = op.inputs, op.attrs
    return [_unpermuted(g, record1(P.NUMPY_ARGPARTITION, [x], attrs), attrs["axis"])]


def _permute_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    x, order = op.inputs
    return [_unpermuted(g, order, op.attrs["axis"]), None]


RULES: dict[Primitive, Rule] = {
    P.NUMPY_MAXIMUM: _split_ties_grad,
    P.NUMPY_MINIMUM: _split_ties_grad,
    P.NUMPY_FMAX: _split_ties_grad,
    P.NUMPY_FMIN: _split_ties_grad,
    P.NUMPY_CLIP: _clip_grad,
    P.NUMPY_CBRT: _cbrt_grad,
    P.NUMPY_HYPOT: _hypot_grad,
    P.NUMPY_COPYSIGN: _copysign_grad,
    P.NUMPY_ARCCOSH: _arccosh_grad,
    P.NUMPY_SORT: _sort_grad,
    P.NUMPY_PARTITION: _partition_grad,
    P.NUMPY_PERMUTE: _permute_grad,
}
