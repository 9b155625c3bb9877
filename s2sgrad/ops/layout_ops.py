"""``tf.tile``, ``tf.pad``, ``tf.reverse``, ``tf.broadcast_to``: validate, convert, record."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..primitives.fills import BROADCAST_TO, MIRROR_PAD, MIRROR_PAD_GRAD, PAD, PAD_V2
from ..primitives.joining import REVERSE_V2, TILE
from ..ssa.graph import Tensor
from .array_ops import int_tensor, static_ints
from .convert import convert_to_tensor, graph_of, is_tensor_like, record1

__all__ = ["tile", "pad", "reverse", "reverse_v2", "broadcast_to"]

_MODES = ("CONSTANT", "REFLECT", "SYMMETRIC")


def tile(input: Any, multiples: Any, name: str | None = None) -> Tensor:  # TF's name
    """``input`` repeated ``multiples[i]`` times along axis i.

    >>> # tf.tile([[1, 2]], [2, 1])  ->  [[1, 2], [1, 2]]
    """
    x = convert_to_tensor(input)
    with graph_of([x]).as_default():
        return record1(TILE, [x, int_tensor(multiples, "multiples")], None, name or "Tile")


def pad(tensor: Any, paddings: Any, mode: str = "CONSTANT", name: str | None = None,
        constant_values: Any = 0) -> Tensor:
    """Pad each axis i with ``paddings[i] = [before, after]`` elements: ``constant_values``
    (mode CONSTANT), a mirror image without the edge (REFLECT) or with it (SYMMETRIC).

    >>> # tf.pad([[1, 2]], [[0, 0], [1, 1]], "REFLECT")  ->  [[2, 1, 2, 1]]
    """
    x = convert_to_tensor(tensor)
    if not isinstance(mode, str) or mode.upper() not in _MODES:
        raise ValueError(f"Unknown padding mode: {mode}")
    mode = mode.upper()
    with graph_of([x]).as_default():
        rows = int_tensor(paddings, "paddings")
        if mode != "CONSTANT":
            return record1(MIRROR_PAD, [x, rows], {"mode": mode}, name or "MirrorPad")
        if isinstance(constant_values, (int, float, np.number)) and constant_values == 0:
            return record1(PAD, [x, rows], None, name or "Pad")
        value = convert_to_tensor(constant_values, dtype=x.dtype) if is_tensor_like(constant_values) \
            else convert_to_tensor(constant_values, dtype=x.dtype, name="constant_values")
        return record1(PAD_V2, [x, rows, value], None, name or "PadV2")


def mirror_pad_grad(g: Tensor, paddings: Tensor, mode: str, name: str | None = None) -> Tensor:
    """The adjoint of mirror padding: padded elements' gradients added onto their sources."""
    return record1(MIRROR_PAD_GRAD, [g, paddings], {"mode": mode}, name or "MirrorPadGrad")


def reverse(tensor: Any, axis: Any, name: str | None = None) -> Tensor:
    """``tensor`` with the order of the elements along each axis in ``axis`` reversed.

    >>> # tf.reverse([[1, 2], [3, 4]], [1])  ->  [[2, 1], [4, 3]]
    """
    axes = static_ints(axis, "axis")
    if axes is None:
        raise ValueError("reverse needs axis (a list of dimensions to reverse)")
    return record1(REVERSE_V2, [convert_to_tensor(tensor)], {"axis": tuple(axes)}, name or "ReverseV2")


reverse_v2 = reverse


def broadcast_to(input: Any, shape: Any, name: str | None = None) -> Tensor:  # TF's name
    """``input`` broadcast (NumPy rules) to ``shape``; the gradient sums over the copies.

    >>> # tf.broadcast_to([1, 2], [2, 2])  ->  [[1, 2], [1, 2]]
    """
    x = convert_to_tensor(input)
    with graph_of([x]).as_default():
        return record1(BROADCAST_TO, [x, int_tensor(shape, "shape")], None, name or "BroadcastTo")
