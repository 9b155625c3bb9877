"""Fills, broadcasts and pads: ZerosLike/OnesLike/Fill, BroadcastTo, and the Pad family
(constant, reflect, symmetric) with MirrorPadGrad, the adjoint of mirror padding."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..shapes import TensorShape
from ..static import constant_value
from .common import like_input, shape_operand
from .core import broadcast_shape, define

# -- fills ------------------------------------------------------------------------------------------

ZEROS_LIKE = define("ZerosLike", like_input, differentiable=False, shape_only=(0,), fill=0)
ONES_LIKE = define("OnesLike", like_input, differentiable=False, shape_only=(0,), fill=1)


def _fill_infer(inputs: Sequence[Any], attrs: dict) -> list:
    dims, value = inputs
    if value.shape.rank not in (None, 0):
        raise ValueError(f"value must be a scalar, got shape {value.shape}")
    return [(value.dtype, shape_operand(dims, "Fill dims"))]


FILL = define("Fill", _fill_infer, uniform_from=1)


# -- broadcast_to ---------------------------------------------------------------------------------------

def _broadcast_to_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x, shape = inputs
    out = shape_operand(shape)
    if out.is_fully_defined() and x.shape.rank is not None:
        fits = x.shape.rank <= out.rank
        try:
            fits = fits and broadcast_shape(x.shape, out) == out
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(f"Unable to broadcast a tensor of shape {x.shape} to shape {out.as_list()}")
    return [(x.dtype, out)]


BROADCAST_TO = define("BroadcastTo", _broadcast_to_infer, view="readonly", uniform_from=0)


# -- padding ----------------------------------------------------------------------------------------------

def _pad_rows(x: Any, paddings: Any) -> tuple[int | None, np.ndarray | None]:
    """The input's rank (if known) and the paddings as (rank, 2) ints (if known); checks both."""
    if not paddings.dtype.is_integer:
        raise TypeError(f"paddings must be an integer tensor, got {paddings.dtype.name}")
    rank, p = x.shape.rank, paddings.shape
    if p.rank is not None and (p.rank != 2 or p.sizes[1] not in (None, 2)
                               or None not in (rank, p.sizes[0]) and p.sizes[0] != rank):
        raise ValueError(f"paddings must be a matrix of shape [{'?' if rank is None else rank}, 2], got shape {p}")
    if rank is None and p.rank == 2:
        rank = p.sizes[0]
    value = constant_value(paddings)
    if value is None:
        return rank, None
    rows = np.reshape(value, (-1, 2)).astype(np.int64)
    if (rows < 0).any():
        raise ValueError(f"paddings must be non-negative, got {rows.tolist()}")
    return rows.shape[0], rows


def _padded_infer(sign: int) -> Any:
    """Pad (sign 1) and MirrorPadGrad (sign -1): each dim grows (shrinks) by its two paddings."""
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        x, paddings = inputs[:2]
        if len(inputs) == 3:
            value = inputs[2]
            if value.dtype is not x.dtype:
                raise TypeError(f"constant_values must have the input's dtype {x.dtype.name}, got {value.dtype.name}")
            if value.shape.rank not in (None, 0):
                raise ValueError(f"constant_values must be a scalar, got shape {value.shape}")
        rank, rows = _pad_rows(x, paddings)
        if rank is None:
            return [(x.dtype, TensorShape(None))]
        dims = list(x.shape.sizes) if x.shape.rank is not None else [None] * rank
        if rows is None:
            return [(x.dtype, TensorShape([None] * rank))]
        mode = attrs.get("mode")
        out = []
        for d, (before, after) in zip(dims, rows.tolist(), strict=True):
            if d is not None and mode is not None:
                _check_mirror(mode, d if sign > 0 else d - before - after, before, after)
            out.append(None if d is None else d + sign * (before + after))
        return [(x.dtype, TensorShape(out))]
    return infer


def _check_mirror(mode: str, d: int, before: int, after: int) -> None:
    if mode == "REFLECT" and max(before, after) >= d:
        raise ValueError(f"paddings must be less than the dimension size: {before}, {after} not less than {d}")
    if mode == "SYMMETRIC" and max(before, after) > d:
        raise ValueError(f"paddings must be no greater than the dimension size: {before}, {after} greater than {d}")


PAD = define("Pad", _padded_infer(1))
PAD_V2 = define("PadV2", _padded_infer(1))
MIRROR_PAD = define("MirrorPad", _padded_infer(1))
MIRROR_PAD_GRAD = define("MirrorPadGrad", _padded_infer(-1))
