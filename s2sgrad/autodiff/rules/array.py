"""Gradient rules of the array primitives."""
from __future__ import annotations

import numpy as np

from ...ops import array_ops as a
from ...ops import layout_ops as lo
from ...primitives import array as P
from ...primitives.core import Primitive
from ...ssa.nodes import Operation, Tensor
from .common import Grads, Needed, Rule


def _reshape_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    return [a.reshape(g, a.shape(op.inputs[0])), None]


def _reshape_back(op: Operation, needed: Needed, g: Tensor) -> Grads:
    return [a.reshape(g, a.shape(op.inputs[0]))]


def _transpose_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    perm = op.attrs["perm"]
    if perm is None:
        return [a.transpose(g)]
    return [a.transpose(g, np.argsort([p % len(perm) for p in perm]).tolist())]


def _strided_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    x, *indices = op.inputs
    return [a.scatter_into_zeros(g, x, op.attrs["index"], indices)] + [None] * len(indices)


def _scatter_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    _, _, *indices = op.inputs
    return [a.strided_slice(g, op.attrs["index"], indices), None] + [None] * len(indices)


def _slice_grad(op: Operation, needed: Needed, g: Tensor) -> Grads:
    """Pad the gradient back with zeros: ``begin`` before, the rest of the input's extent after."""
    x, begin, _ = op.inputs
    after = a.shape(x, out_type=begin.dtype) - begin - a.shape(op.outputs[0], out_type=begin.dtype)
    return [lo.pad(g, a.stack([begin, after], axis=1)), None, None]


RULES: dict[Primitive, Rule] = {
    P.RESHAPE: _reshape_grad,
    P.EXPAND_DIMS: _reshape_back,
    P.SQUEEZE: _reshape_back,
    P.TRANSPOSE: _transpose_grad,
    P.STRIDED_SLICE: _strided_grad,
    P.SCATTER_INTO_ZEROS: _scatter_grad,
    P.SLICE: _slice_grad,
}
