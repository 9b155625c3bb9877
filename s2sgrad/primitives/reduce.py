"""Reductions, scans, and the broadcast/unbroadcast pair that gradient rules are built from.

``SumToShape(g, x)`` sums ``g`` down to ``x``'s shape; ``BroadcastReduced(g, x)`` spreads a
reduced ``g`` back over ``x``. They are each other's gradient, and with concrete shapes
both become a single ``np.sum`` / ``np.broadcast_to`` or disappear.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..shapes import TensorShape
from .common import (
    normalize_axes,
    normalize_axis,
)
from .core import broadcast_shape, define


def reduced_shape(shape: TensorShape, axis: Any, keepdims: bool) -> TensorShape:
    if shape.sizes is None:
        return TensorShape(None) if keepdims or axis is not None else TensorShape([])
    axes = normalize_axes(axis, len(shape.sizes))
    if axes is None:
        axes = tuple(range(len(shape.sizes)))
    if keepdims:
        return TensorShape([1 if i in axes else d for i, d in enumerate(shape.sizes)])
    return TensorShape([d for i, d in enumerate(shape.sizes) if i not in axes])


def _reduce_infer(kinds: str) -> Any:
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        x = inputs[0]
        if x.dtype.np.kind not in kinds:
            raise TypeError(f"reduction of a {x.dtype.name} tensor is not supported")
        return [(x.dtype, reduced_shape(x.shape, attrs["axis"], attrs["keepdims"]))]
    return infer


SUM = define("Sum", _reduce_infer("iufc"))
MEAN = define("Mean", _reduce_infer("iufc"))
MAX = define("Max", _reduce_infer("iuf"))
MIN = define("Min", _reduce_infer("iuf"))
PROD = define("Prod", _reduce_infer("iufc"))
ALL = define("All", _reduce_infer("b"), differentiable=False)
ANY = define("Any", _reduce_infer("b"), differentiable=False)


def _arg_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    if x.dtype.np.kind not in "iuf":
        raise TypeError(f"argmax/argmin of a {x.dtype.name} tensor is not supported")
    return [(attrs["output_type"], reduced_shape(x.shape, (attrs["axis"],), False))]


ARG_MAX = define("ArgMax", _arg_infer, differentiable=False)
ARG_MIN = define("ArgMin", _arg_infer, differentiable=False)


def _scan_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    normalize_axis(attrs["axis"], x.shape.rank, "scan")
    if x.dtype.np.kind not in "iufc":
        raise TypeError(f"cumulative ops on a {x.dtype.name} tensor are not supported")
    return [(x.dtype, x.shape)]


CUMSUM = define("Cumsum", _scan_infer)
CUMPROD = define("Cumprod", _scan_infer)


# -- broadcasting and its adjoint ------------------------------------------------------------------

def _sum_to_infer(inputs: Sequence[Any], attrs: dict) -> list:
    g, like = inputs
    broadcast_shape(g.shape, like.shape)
    return [(g.dtype, like.shape)]


def _broadcast_reduced_infer(inputs: Sequence[Any], attrs: dict) -> list:
    g, like = inputs
    return [(g.dtype, like.shape)]


def _broadcast_like_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x, like = inputs
    return [(x.dtype, broadcast_shape(x.shape, like.shape))]


SUM_TO_SHAPE = define("SumToShape", _sum_to_infer,
                      shape_only=(1,))
BROADCAST_LIKE = define("BroadcastLike", _broadcast_like_infer,
                        shape_only=(1,), view="readonly", uniform_from=0)
BROADCAST_REDUCED = define("BroadcastReduced", _broadcast_reduced_infer,
                           shape_only=(1,), view="readonly", uniform_from=0)
