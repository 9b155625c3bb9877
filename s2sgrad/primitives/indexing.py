"""Indexing by integer tensors: gather and its adjoint (UnsortedSegmentSum), gather_nd and
scatter_nd (each other's adjoint), one-argument where, and one_hot."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import dtypes as _dt
from ..shapes import TensorShape
from ..static import constant_value
from .common import const_ints, normalize_axis, shape_operand
from .core import define

# -- gather and its adjoint ---------------------------------------------------------------------------

def _gather_infer(inputs: Sequence[Any], attrs: dict) -> list:
    params, indices = inputs
    if not indices.dtype.is_integer:
        raise TypeError(f"gather indices must be integers, got {indices.dtype.name}")
    if params.shape.rank is None or indices.shape.rank is None:
        return [(params.dtype, TensorShape(None))]
    axis = normalize_axis(attrs["axis"], params.shape.rank, "gather")
    p = params.shape.sizes
    return [(params.dtype, TensorShape(p[:axis] + indices.shape.sizes + p[axis + 1:]))]


# Indexing can fail on the index values at run time: these ops keep their own line, so the
# error names them (see ``Primitive.fusable``).
GATHER_V2 = define("GatherV2", _gather_infer, default_name="GatherV2", fusable=False)


def unsorted_segment_infer(inputs: Sequence[Any], attrs: dict) -> list:
    data, ids, num = inputs
    if not ids.dtype.is_integer or not num.dtype.is_integer:
        raise TypeError("segment ids and num_segments must be integers")
    if data.dtype.name == "string":
        raise TypeError("unsorted_segment_sum adds its data up: it needs numbers, got strings")
    n = constant_value(num)
    if data.shape.rank is None or ids.shape.rank is None:
        return [(data.dtype, TensorShape(None))]
    rest = data.shape.sizes[ids.shape.rank:]
    return [(data.dtype, TensorShape([None if n is None else int(n)] + list(rest)))]


UNSORTED_SEGMENT_SUM = define("UnsortedSegmentSum", unsorted_segment_infer, fusable=False)


# -- gather_nd and scatter_nd -----------------------------------------------------------------------------

def _index_depth(indices: Any) -> int | None:
    """``indices.shape[-1]``: how many leading dims of the target each index row addresses."""
    if not indices.dtype.is_integer:
        raise TypeError(f"indices must be integers, got {indices.dtype.name}")
    if indices.shape.rank == 0:
        raise ValueError("indices must have rank >= 1, got a scalar")
    k = indices.shape.sizes[-1] if indices.shape.rank else None
    if k == 0:
        raise ValueError(f"indices.shape[-1] must be >= 1, got indices shape {indices.shape}")
    return k


def _gather_nd_infer(inputs: Sequence[Any], attrs: dict) -> list:
    params, indices = inputs
    k = _index_depth(indices)
    if k is not None and params.shape.rank is not None and k > params.shape.rank:
        raise ValueError(f"indices.shape[-1] must be <= params.rank, but saw indices shape: {indices.shape} "
                         f"and params shape: {params.shape}")
    if k is None or params.shape.rank is None:
        return [(params.dtype, TensorShape(None))]
    return [(params.dtype, TensorShape(indices.shape.sizes[:-1] + params.shape.sizes[k:]))]


GATHER_ND = define("GatherNd", _gather_nd_infer,
                   fusable=False)


def _scatter_nd_infer(inputs: Sequence[Any], attrs: dict) -> list:
    indices, updates, shape = inputs
    if updates.dtype.name == "string":
        raise TypeError("scatter_nd adds its updates up: it needs numbers, got strings")
    k = _index_depth(indices)
    out = shape_operand(shape)
    if not out.is_fully_defined():
        return [(updates.dtype, out)]
    target = out.as_list()
    if k is not None and k > len(target):
        raise ValueError(f"indices.shape[-1] must be <= the output rank, but saw indices shape: {indices.shape} "
                         f"and shape: {target}")
    if k is not None and indices.shape.rank is not None:
        expected = TensorShape(indices.shape.sizes[:-1] + tuple(target[k:]))
        if not updates.shape.is_compatible_with(expected):
            raise ValueError(f"updates must have shape indices.shape[:-1] + shape[indices.shape[-1]:] = {expected}, "
                             f"got {updates.shape}")
    return [(updates.dtype, TensorShape(target))]


SCATTER_ND = define("ScatterNd", _scatter_nd_infer, fusable=False)


# -- where (one argument) and one_hot ---------------------------------------------------------------------

def _where_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    if x.dtype.np.kind not in "biuf":
        raise TypeError(f"where expects a bool or numeric tensor, got {x.dtype.name}")
    return [(_dt.int64, TensorShape([None, x.shape.rank]))]


WHERE = define("Where", _where_infer, differentiable=False)

_ONE_HOT_INDICES = (_dt.uint8, _dt.int8, _dt.int32, _dt.int64)


def _one_hot_infer(inputs: Sequence[Any], attrs: dict) -> list:
    indices, depth, on, off = inputs
    if indices.dtype not in _ONE_HOT_INDICES:
        raise TypeError(f"indices must be uint8, int8, int32 or int64, got {indices.dtype.name}")
    if depth.dtype is not _dt.int32 or depth.shape.rank not in (None, 0):
        raise TypeError(f"depth must be a scalar int32, got {depth.dtype.name} {depth.shape}")
    if on.dtype is not off.dtype:
        raise TypeError(f"dtype {on.dtype.name} of on_value does not match dtype {off.dtype.name} of off_value")
    for name, t in (("on_value", on), ("off_value", off)):
        if t.shape.rank not in (None, 0):
            raise ValueError(f"{name} must be a scalar, got shape {t.shape}")
    n = const_ints(depth)
    if n is not None and n[0] < 0:
        raise ValueError(f"depth must be non-negative, got {n[0]}")
    rank, axis = indices.shape.rank, attrs["axis"]
    if axis < -1 or (rank is not None and axis > rank):
        raise ValueError(f"Expected axis to be -1 or between [0, {'rank' if rank is None else rank}].  "
                         f"But received: {axis}")
    if rank is None:
        return [(on.dtype, TensorShape(None))]
    dims = list(indices.shape.sizes)
    dims.insert(rank if axis == -1 else axis, None if n is None else n[0])
    return [(on.dtype, TensorShape(dims))]


ONE_HOT = define("OneHot", _one_hot_infer, differentiable=False, default_name="one_hot")
