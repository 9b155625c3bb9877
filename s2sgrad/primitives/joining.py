"""Joining, splitting and rearranging: concat, stack/unstack, split, tile, reverse."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..shapes import TensorShape
from ..static import constant_value
from .common import (
    const_ints,
    int_vector,
    merged_shape,
    normalize_axes,
    normalize_axis,
)
from .core import define

# -- joining and splitting -------------------------------------------------------------------------

def _concat_infer(inputs: Sequence[Any], attrs: dict) -> list:
    dtype = inputs[0].dtype
    rank = next((t.shape.rank for t in inputs if t.shape.rank is not None), None)
    if any(t.dtype is not dtype for t in inputs):
        raise TypeError(f"concat inputs must have one dtype, got {[t.dtype.name for t in inputs]}")
    if rank is None:
        return [(dtype, TensorShape(None))]
    if rank == 0:
        raise ValueError("Can't concatenate scalars (use tf.stack instead)")
    axis = normalize_axis(attrs["axis"], rank, "concat")
    dims: list = [None] * rank
    total: int | None = 0
    for t in inputs:
        if t.shape.rank is None:
            total = None
            continue
        if t.shape.rank != rank:
            raise ValueError(f"Shape must be rank {rank} but is rank {t.shape.rank}")
        for i, d in enumerate(t.shape.sizes):
            if i == axis:
                total = None if total is None or d is None else total + d
            elif d is not None:
                if dims[i] is not None and dims[i] != d:
                    raise ValueError(f"Dimension {i} in both shapes must be equal, but are {dims[i]} and {d}")
                dims[i] = d
    dims[axis] = total
    return [(dtype, TensorShape(dims))]


CONCAT_V2 = define("ConcatV2", _concat_infer, default_name="concat")


def _stack_infer(inputs: Sequence[Any], attrs: dict) -> list:
    dtype, shape = merged_shape(inputs, "stack")
    if shape.rank is None:
        return [(dtype, TensorShape(None))]
    axis = normalize_axis(attrs["axis"], shape.rank + 1, "stack")
    dims = shape.as_list()
    dims.insert(axis, len(inputs))
    return [(dtype, TensorShape(dims))]


PACK = define("Pack", _stack_infer,
              default_name="stack")


def _unstack_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    num = attrs["num"]
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))] * num
    axis = normalize_axis(attrs["axis"], x.shape.rank, "unstack")
    d = x.shape.sizes[axis]
    if d is not None and d != num:
        raise ValueError(f"Cannot unstack {num} tensors from dimension {axis} of size {d}")
    dims = [d for i, d in enumerate(x.shape.sizes) if i != axis]
    return [(x.dtype, TensorShape(dims))] * num


UNPACK = define("Unpack", _unstack_infer, default_name="unstack", view="input")


def _split_specs(x: Any, attrs: dict, sizes: list) -> list:
    """Each part's spec: ``x``'s shape with the split axis replaced by the part's size."""
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))] * attrs["num"]
    axis = normalize_axis(attrs["axis"], x.shape.rank, "split")
    specs = []
    for size in sizes:
        dims = list(x.shape.sizes)
        dims[axis] = size
        specs.append((x.dtype, TensorShape(dims)))
    return specs


def _split_dim(x: Any, attrs: dict) -> int | None:
    if x.shape.rank is None:
        return None
    return x.shape.sizes[normalize_axis(attrs["axis"], x.shape.rank, "split")]


def _split_infer(inputs: Sequence[Any], attrs: dict) -> list:
    """Split (``num`` equal parts): the dimension must divide evenly."""
    x, num = inputs[0], attrs["num"]
    d = _split_dim(x, attrs)
    if num <= 0 or (d is not None and d % num):
        raise ValueError(f"Number of ways to split should evenly divide the split dimension, but got "
                         f"split_dim {attrs['axis']} (size = {d}) and num_split {num}")
    return _split_specs(x, attrs, [None if d is None else d // num] * num)


def _split_v_infer(inputs: Sequence[Any], attrs: dict) -> list:
    """SplitV (explicit sizes, one of them may be -1)."""
    x, sizes = inputs
    values = constant_value(sizes)
    d = _split_dim(x, attrs)
    if values is None:
        return _split_specs(x, attrs, [None] * attrs["num"])
    given = [int(v) for v in np.reshape(values, -1)]
    outs = list(given)
    if outs.count(-1) == 1 and d is not None:
        outs[outs.index(-1)] = d - (sum(outs) + 1)
    if outs.count(-1) > 1 or any(v < -1 for v in outs) or d is not None and (sum(outs) != d or min(outs) < 0):
        raise ValueError(f"Determined shape must either match input shape along split_dim exactly if "
                         f"fully specified, or be less than the size of the input along split_dim if "
                         f"not fully specified. Got sizes {given} for dimension {d}")
    return _split_specs(x, attrs, [None if v == -1 else v for v in outs])


SPLIT = define("Split", _split_infer, default_name="split", view="input")
SPLIT_V = define("SplitV", _split_v_infer, default_name="split", view="input")


# -- tile and reverse -----------------------------------------------------------------------------------

def _tile_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x, multiples = inputs
    int_vector(multiples, "multiples")
    reps = const_ints(multiples)
    n = len(reps) if reps is not None else (multiples.shape.sizes[0] if multiples.shape.rank == 1 else None)
    rank = x.shape.rank
    if rank is not None and n is not None and n != rank:
        raise ValueError(f"Shape must be rank {rank} but is rank {n}: multiples needs one entry per input dimension")
    if reps is not None and any(m < 0 for m in reps):
        raise ValueError(f"Expected multiples to be non-negative, got {reps}")
    n = rank if n is None else n
    if n is None:
        return [(x.dtype, TensorShape(None))]
    dims = x.shape.sizes if rank is not None else (None,) * n
    if reps is None:
        return [(x.dtype, TensorShape([0 if d == 0 else None for d in dims]))]
    return [(x.dtype, TensorShape([None if d is None else d * m for d, m in zip(dims, reps, strict=True)]))]


TILE = define("Tile", _tile_infer, uniform_from=0)


def _reverse_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    rank = x.shape.rank
    normalize_axes(attrs["axis"], rank, "reverse")
    axes = [ax % rank for ax in attrs["axis"]] if rank else list(attrs["axis"])
    if len(set(axes)) != len(axes):
        raise ValueError(f"axis {list(attrs['axis'])} specifies a dimension more than once")
    return [(x.dtype, x.shape)]


REVERSE_V2 = define("ReverseV2", _reverse_infer, view="input", uniform_from=0)
