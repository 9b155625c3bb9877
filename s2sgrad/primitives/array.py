"""Array structure: shape queries, reshape, transpose, expand/squeeze, and basic indexing
(StridedSlice, Slice) with its adjoint (ScatterIntoZeros)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..index_spec import TensorIndex
from ..shapes import TensorShape
from ..static import constant_value
from .common import (
    const_ints,
    int_vector,
    normalize_axes,
    normalize_axis,
    unknown_dims,
)
from .core import define

# -- shape queries (their input is read only for its shape) ----------------------------------------

def _shape_infer(inputs: Sequence[Any], attrs: dict) -> list:
    rank = inputs[0].shape.rank
    return [(attrs["out_type"], TensorShape([rank]))]


def _known_shape(op: Any) -> np.ndarray | None:
    """A Shape op's value, when its input's static shape is fully known."""
    x = op.inputs[0]
    return np.array(x.shape.sizes, dtype=op.outputs[0].dtype.np) if x.shape.is_fully_defined() else None


SHAPE = define("Shape", _shape_infer, differentiable=False, shape_only=(0,), known_value=_known_shape)
SIZE = define("Size", lambda ins, at: [(at["out_type"], TensorShape([]))], differentiable=False,
              shape_only=(0,))
RANK = define("Rank", lambda ins, at: [(_dt.int32, TensorShape([]))], differentiable=False,
              shape_only=(0,))


# -- reshape and friends -------------------------------------------------------------------------

def reshape_dims(shape: TensorShape, target: Any) -> TensorShape:
    """The shape ``np.reshape`` gives, resolving one -1; ValueError when element counts differ."""
    dims = [int(d) for d in target]
    if dims.count(-1) > 1:
        raise ValueError(f"Cannot infer multiple unknown dimensions in shape {dims}")
    if any(d < -1 for d in dims):
        raise ValueError(f"Dimension size must be non-negative, got {dims}")
    total = shape.num_elements()
    if -1 in dims:
        known = int(np.prod([d for d in dims if d != -1]))
        if total is None:
            return TensorShape([None if d == -1 else d for d in dims])
        if known == 0 or total % known:
            raise ValueError(f"Cannot reshape a tensor with {total} elements to shape {dims}")
        dims[dims.index(-1)] = total // known
    elif total is not None and total != int(np.prod(dims)):
        raise ValueError(f"Cannot reshape a tensor with {total} elements to shape {dims} "
                         f"({int(np.prod(dims))} elements)")
    return TensorShape(dims)


def _reshape_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x, shape = inputs
    if not shape.dtype.is_integer:
        raise TypeError(f"reshape: shape must be an integer tensor, got {shape.dtype.name}")
    target = constant_value(shape)
    if target is not None:
        return [(x.dtype, reshape_dims(x.shape, np.reshape(target, -1)))]
    return [(x.dtype, unknown_dims(shape))]


RESHAPE = define("Reshape", _reshape_infer, view="input",
                 uniform_from=0)


def _expand_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))]
    axis = normalize_axis(attrs["axis"], x.shape.rank + 1, "expand_dims")
    dims = list(x.shape.sizes)
    dims.insert(axis, 1)
    return [(x.dtype, TensorShape(dims))]


EXPAND_DIMS = define("ExpandDims", _expand_infer, view="input", uniform_from=0)


def _squeeze_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))]
    axes = normalize_axes(attrs["axis"], x.shape.rank, "squeeze")
    dims = x.shape.sizes
    if axes is None:
        if None in dims:
            return [(x.dtype, TensorShape(None))]
        axes = tuple(i for i, d in enumerate(dims) if d == 1)
    for ax in axes:
        if dims[ax] is not None and dims[ax] != 1:
            raise ValueError(f"Can not squeeze dim[{ax}], expected a dimension of 1, got {dims[ax]}")
    return [(x.dtype, TensorShape([d for i, d in enumerate(dims) if i not in axes]))]


SQUEEZE = define("Squeeze", _squeeze_infer, view="input", uniform_from=0)


def _transpose_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    perm = attrs["perm"]
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None if perm is None else [None] * len(perm)))]
    rank = x.shape.rank
    perm = tuple(reversed(range(rank))) if perm is None else perm
    if sorted(p % rank if -rank <= p < rank else p for p in perm) != list(range(rank)):
        raise ValueError(f"transpose expects a permutation of 0..{rank - 1}, got perm={list(perm)}")
    return [(x.dtype, TensorShape([x.shape.sizes[p] for p in perm]))]


TRANSPOSE = define("Transpose", _transpose_infer, view="input", uniform_from=0)


# -- basic indexing ---------------------------------------------------------------------------------

def sliced_shape(shape: TensorShape, index: tuple) -> TensorShape:
    """The shape of ``x[index]`` for basic indexing (ints, slices, None, ...)."""
    if shape.sizes is None:
        return TensorShape(None)
    dims = list(shape.sizes)
    consumed = sum(1 for item in index if item is not None and item is not Ellipsis)
    if consumed > len(dims):
        raise ValueError(f"Index {_index_text(index)} has too many indices for a tensor of rank {len(dims)}")
    out: list = []
    pos = 0
    for item in index:
        if item is None:
            out.append(1)
        elif item is Ellipsis:
            n = len(dims) - consumed
            out.extend(dims[pos:pos + n])
            pos += n
        elif isinstance(item, slice):
            d = dims[pos]
            pos += 1
            static = all(not isinstance(v, TensorIndex) for v in (item.start, item.stop, item.step))
            if item.step == 0:
                raise ValueError("slice step cannot be zero")
            out.append(len(range(*item.indices(d))) if d is not None and static else None)
        else:
            d = dims[pos]
            pos += 1
            if isinstance(item, int) and d is not None and not -d <= item < d:
                raise ValueError(f"slice index {item} of dimension {pos - 1} out of bounds (size {d})")
    out.extend(dims[pos:])
    return TensorShape(out)


def _index_text(index: tuple) -> str:
    return "[" + ", ".join("..." if i is Ellipsis else repr(i) for i in index) + "]"


def _strided_infer(inputs: Sequence[Any], attrs: dict) -> list:
    for t in inputs[1:]:
        if not t.dtype.is_integer or t.shape.rank not in (None, 0):
            raise TypeError(f"tensor indices must be scalar integers, got {t.dtype.name} {t.shape}")
    return [(inputs[0].dtype, sliced_shape(inputs[0].shape, attrs["index"]))]


STRIDED_SLICE = define("StridedSlice", _strided_infer, default_name="strided_slice",
                       view="input", uniform_from=0)


def _scatter_infer(inputs: Sequence[Any], attrs: dict) -> list:
    g, like = inputs[:2]
    return [(g.dtype, like.shape)]


SCATTER_INTO_ZEROS = define("ScatterIntoZeros", _scatter_infer, shape_only=(1,))


# -- tf.slice: a block given by begin and size (-1: to the end) ------------------------------------------

def _slice_dims(x: Any, begin: list | None, size: list | None, n: int) -> list:
    dims = []
    for i in range(n):
        d = x.shape.sizes[i] if x.shape.rank is not None else None
        b = None if begin is None else begin[i]
        s = None if size is None else size[i]
        if b is not None and (b < 0 or (d is not None and b > d)):
            raise ValueError(f"Expected begin[{i}] in [0, {'?' if d is None else d}], but got {b}")
        if s is not None and (s < -1 or (d is not None and b is not None and s > d - b)):
            raise ValueError(f"Expected size[{i}] in [0, {'?' if d is None or b is None else d - b}], but got {s}")
        if s == -1:
            dims.append(None if d is None or b is None else d - b)
        else:
            dims.append(s)
    return dims


def _slice_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x, begin, size = inputs
    int_vector(begin, "begin")
    int_vector(size, "size")
    if begin.dtype is not size.dtype:
        raise TypeError(f"begin and size must have the same dtype, got {begin.dtype.name} and {size.dtype.name}")
    b, s = const_ints(begin), const_ints(size)
    lengths = {len(v) for v in (b, s) if v is not None} | {t.shape.sizes[0] for t in (begin, size)
                                                           if t.shape.rank == 1 and t.shape.sizes[0] is not None}
    if x.shape.rank is not None:
        lengths.add(x.shape.rank)
    if len(lengths) > 1:
        raise ValueError(f"Expected begin, size and the input's rank to agree, got lengths {sorted(lengths)}")
    if not lengths:
        return [(x.dtype, TensorShape(None))]
    return [(x.dtype, TensorShape(_slice_dims(x, b, s, lengths.pop())))]


SLICE = define("Slice", _slice_infer, view="input", uniform_from=0)
