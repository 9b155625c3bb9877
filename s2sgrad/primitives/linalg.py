"""Matrix products: MatMul (with batch broadcasting) and Einsum (any equation, with ``...``)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import einsum_equation as eqn
from ..shapes import TensorShape
from .core import broadcast_shape, define, same_dtype


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


MAT_MUL = define("MatMul", _matmul_infer)


# -- einsum ----------------------------------------------------------------------------------------------

def _einsum_infer(inputs: Sequence[Any], attrs: dict) -> list:
    dtype = same_dtype(inputs, "einsum operands")
    if dtype.np.kind not in "iufc":
        raise TypeError(f"einsum of {dtype.name} tensors is not supported")
    eq = eqn.parse(attrs["equation"], len(inputs))
    return [(dtype, eqn.output_shape(eq, [t.shape for t in inputs], attrs.get("broadcast", "")))]


EINSUM = define("Einsum", _einsum_infer, default_name="einsum", view="input")  # "ii->i" is a view
