"""``tf.einsum`` and ``tf.tensordot`` (an einsum whose equation comes from ``axes``)."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import einsum_equation as eqn
from ..primitives.linalg import EINSUM
from ..ssa.graph import Tensor
from .array_ops import static_ints
from .convert import convert_operands, is_tensor_like, record1

__all__ = ["einsum", "tensordot", "einsum_broadcasting"]


def einsum(equation: str, *inputs: Any, **kwargs: Any) -> Tensor:
    """Sums of products over the letters of ``equation`` (NumPy/TF conventions, ``...`` broadcasts).

    >>> # tf.einsum('ij,jk->ik', a, b) is tf.matmul(a, b); tf.einsum('ii', m) is the trace
    """
    name = kwargs.pop("name", None)
    kwargs.pop("optimize", None)  # a contraction-order hint in TF; NumPy chooses its own order
    if kwargs:
        raise TypeError(f"einsum() got unexpected keyword arguments: {sorted(kwargs)}")
    if not inputs:
        raise ValueError("einsum needs at least one operand")
    tensors = convert_operands(list(inputs))
    eq = eqn.parse(equation, len(tensors))
    return record1(EINSUM, tensors, {"equation": str(eq)}, name or "einsum")


def einsum_broadcasting(equation: str, operands: list, letters: str, name: str | None = None) -> Tensor:
    """An einsum in which the ``letters`` broadcast like ``...`` (a dimension 1 stretches): the
    form gradient rules use once they have spelled out an equation's ``...``."""
    attrs = {"equation": str(eqn.parse(equation, len(operands)))}
    if letters:
        attrs["broadcast"] = letters
    return record1(EINSUM, operands, attrs, name or "einsum")


def tensordot(a: Any, b: Any, axes: Any, name: str | None = None) -> Tensor:
    """Contract ``a`` and ``b`` over ``axes``: an int N (the last N axes of ``a`` with the first N
    of ``b``) or a pair ``[a_axes, b_axes]``. The result has a's free axes, then b's.

    >>> # tf.tensordot(a, b, 1) is tf.matmul(a, b) for matrices
    """
    x, y = convert_operands([a, b])
    ra, rb = x.shape.rank, y.shape.rank
    if ra is None or rb is None:
        raise ValueError(f"tensordot needs operands of known rank, got shapes {x.shape} and {y.shape}")
    a_axes, b_axes = _contraction_axes(axes, ra, rb)
    letters = iter(eqn.LETTERS)
    sa = [next(letters) for _ in range(ra)]
    sb = [""] * rb
    for i, j in zip(a_axes, b_axes, strict=True):
        sb[j] = sa[i]
    sb = [s or next(letters) for s in sb]
    out = [s for i, s in enumerate(sa) if i not in a_axes] + [s for j, s in enumerate(sb) if j not in b_axes]
    return einsum(f"{''.join(sa)},{''.join(sb)}->{''.join(out)}", x, y, name=name or "Tensordot")


def _contraction_axes(axes: Any, ra: int, rb: int) -> tuple[list[int], list[int]]:
    if is_tensor_like(axes):
        value = static_ints(axes, "axes") or []  # a tensor: never None
        if len(value) != 1 and len(value) % 2:
            raise ValueError(f"'axes' must be an integer or two lists of axes, got {value}.")
        axes = value[0] if len(value) == 1 else np.reshape(value, (2, -1)).tolist()
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if n < 0:
            raise ValueError(f"'axes' must be at least 0, got {n}.")
        if n > ra or n > rb:
            raise ValueError(f"'axes' must not be larger than the number of dimensions of tensor "
                             f"({min(ra, rb)}), got {n}.")
        return list(range(ra - n, ra)), list(range(n))
    if not isinstance(axes, (list, tuple)) or len(axes) != 2:
        raise ValueError(f"'axes' must be an integer or have length 2, got {axes!r}.")
    pair = []
    for side, rank in zip(axes, (ra, rb), strict=True):
        items = [side] if isinstance(side, (int, np.integer)) else static_ints(side, "axes")
        if items is None:
            raise TypeError(f"'axes' must be an integer or two lists of axes, got {axes!r}.")
        for ax in items:
            if not -rank <= ax < rank:
                raise ValueError(f"axis {ax} in 'axes' is out of range for a tensor of rank {rank}")
        normalized = [int(ax) % rank for ax in items]
        if len(set(normalized)) != len(normalized):
            raise ValueError(f"'axes' repeats an axis: {list(items)}")
        pair.append(normalized)
    if len(pair[0]) != len(pair[1]):
        raise ValueError(f"Different number of contraction axes 'a' and 'b', {len(pair[0])} != {len(pair[1])}.")
    return pair[0], pair[1]
