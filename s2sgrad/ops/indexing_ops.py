"""``tf.slice``, ``tf.gather_nd``, ``tf.scatter_nd``, ``tf.boolean_mask``, ``tf.one_hot``:
validate, convert, record."""
from __future__ import annotations

import math
from typing import Any

from .. import dtypes as _dt
from ..primitives.array import SLICE
from ..primitives.indexing import GATHER_ND, ONE_HOT, SCATTER_ND
from ..ssa.graph import Tensor
from . import array_ops as a
from . import reduce_ops as r
from .convert import constant, convert_to_tensor, graph_of, is_tensor_like, record1, tensor_or_constant

__all__ = ["slice", "gather_nd", "scatter_nd", "boolean_mask", "one_hot"]


def _index_tensors(*values: Any, names: tuple) -> list[Tensor]:
    """Integer index arguments as tensors of one dtype: Python values adopt a tensor's dtype."""
    tensors = [convert_to_tensor(v) if is_tensor_like(v) else None for v in values]
    dtype = next((t.dtype for t in tensors if t is not None), _dt.int32)
    out = []
    for v, t, name in zip(values, tensors, names, strict=True):
        if t is None:
            t = constant(a.static_ints(v, name), dtype, name=name)
        elif not t.dtype.is_integer:
            raise TypeError(f"{name} must be an integer tensor, got {t.dtype.name}")
        out.append(t)
    return out


def slice(input_: Any, begin: Any, size: Any, name: str | None = None) -> Tensor:  # TF's name
    """The block of ``input_`` starting at ``begin`` with extent ``size`` (-1: to the end).

    >>> # tf.slice([[1, 2, 3], [4, 5, 6]], [0, 1], [2, -1])  ->  [[2, 3], [5, 6]]
    """
    x = convert_to_tensor(input_)
    with graph_of([x]).as_default():
        b, s = _index_tensors(begin, size, names=("begin", "size"))
        return record1(SLICE, [x, b, s], None, name or "Slice")


def gather_nd(params: Any, indices: Any, name: str | None = None, batch_dims: int = 0) -> Tensor:
    """Slices of ``params`` addressed by the last axis of ``indices``; the gradient scatters back.

    >>> # tf.gather_nd([[1, 2], [3, 4]], [[1, 0], [0, 1]])  ->  [3, 2]
    """
    if a.static_int(batch_dims, "batch_dims"):
        raise NotImplementedError("gather_nd with batch_dims != 0 is not supported")
    p = convert_to_tensor(params)
    with graph_of([p]).as_default():
        return record1(GATHER_ND, [p, convert_to_tensor(indices)], None, name or "GatherNd")


def scatter_nd(indices: Any, updates: Any, shape: Any, name: str | None = None) -> Tensor:
    """Zeros of ``shape`` with ``updates`` added at ``indices`` (duplicates add up).

    >>> # tf.scatter_nd([[1], [3]], [9., 8.], [5])  ->  [0., 9., 0., 8., 0.]
    """
    i = convert_to_tensor(indices)
    with graph_of([i]).as_default():
        u = convert_to_tensor(updates)
        _, dims = _index_tensors(i, shape, names=("indices", "shape"))
        return record1(SCATTER_ND, [i, u, dims], None, name or "ScatterNd")


def boolean_mask(tensor: Any, mask: Any, name: str = "boolean_mask", axis: Any = None) -> Tensor:
    """The elements (or slices from ``axis`` on) of ``tensor`` where ``mask`` is True, flattened
    along the masked dimensions: a result whose size is known only at run time.

    >>> # tf.boolean_mask([[1, 2], [3, 4]], [True, False])  ->  [[1, 2]]
    """
    x = convert_to_tensor(tensor)
    with graph_of([x]).as_default(), x.graph.name_scope(name or "boolean_mask"):
        m = convert_to_tensor(mask)
        if not m.dtype.is_bool:
            raise TypeError(f"mask must be a bool tensor, got {m.dtype.name} ({m.name})")
        k = m.shape.rank
        if k is None:
            raise ValueError("Number of mask dimensions must be specified, even if some dimensions are None.  "
                             "E.g. shape=[None] is ok, but shape=None is not.")
        if k == 0:
            raise ValueError("mask cannot be scalar.")
        ax = a.static_int(0 if axis is None else axis, "axis")
        rank = x.shape.rank
        if ax < 0:
            if rank is None:
                raise ValueError(f"a negative axis ({ax}) needs a tensor of known rank")
            ax += rank
        if ax < 0 or (rank is not None and ax + k > rank):
            raise ValueError(f"mask of rank {k} at axis {axis} does not fit a tensor of shape {x.shape}")
        if rank is not None:
            x.shape[ax:ax + k].assert_is_compatible_with(m.shape)
        flat = _merge_dims(x, ax, k)
        found = a.squeeze(a.where(a.reshape(m, [-1])), axis=[1])
        return a.gather(flat, found, axis=ax)


def _merge_dims(x: Tensor, ax: int, k: int) -> Tensor:
    """``x`` with dims ``ax .. ax+k-1`` merged into one (a reshape even when ``k`` is 1: as in TF,
    the gradient then reaches ``x`` dense rather than as IndexedSlices)."""
    dims = x.shape.sizes
    block = None if dims is None else dims[ax:ax + k]
    merged = None if block is None or None in block else math.prod(d for d in block if d is not None)
    if dims is not None and None not in dims:
        return a.reshape(x, list(dims[:ax]) + [merged] + list(dims[ax + k:]))
    s = a.shape(x)
    flat = a.reshape(x, a.concat([s[:ax], r.reduce_prod(s[ax:ax + k], keepdims=True), s[ax + k:]], 0))
    if dims is not None:
        flat.set_shape(list(dims[:ax]) + [merged] + list(dims[ax + k:]))
    return flat


def one_hot(indices: Any, depth: Any, on_value: Any = None, off_value: Any = None, axis: Any = None,
            dtype: Any = None, name: str | None = None) -> Tensor:
    """Rows of ``depth`` values, ``on_value`` at each index and ``off_value`` elsewhere (indices
    outside ``[0, depth)`` give all-off rows). The dtype comes from ``dtype``, else from
    on/off_value, else float32.

    >>> # tf.one_hot([0, 2, 5], 3)  ->  [[1., 0., 0.], [0., 0., 1.], [0., 0., 0.]]
    """
    idx = convert_to_tensor(indices)
    with graph_of([idx]).as_default():
        given = on_value if on_value is not None else off_value
        if dtype is not None:
            dtype = _dt.as_dtype(dtype)
        elif given is not None:
            dtype = convert_to_tensor(given).dtype if is_tensor_like(given) else _dt.infer_dtype(given)
        else:
            dtype = _dt.float32
        on = _fill_value(on_value, 1, dtype, "on_value")
        off = _fill_value(off_value, 0, dtype, "off_value")
        ax = a.static_int(-1 if axis is None else axis, "axis")
        n = tensor_or_constant(depth, _dt.int32)
        return record1(ONE_HOT, [idx, n, on, off], {"axis": ax}, name or "one_hot")


def _fill_value(value: Any, default: int, dtype: _dt.DType, name: str) -> Tensor:
    if value is None:
        return constant(default, dtype, name=name)
    if is_tensor_like(value):
        t = convert_to_tensor(value)
        if t.dtype is not dtype:
            raise TypeError(f"dtype {t.dtype.name} of {name} does not match dtype parameter {dtype.name}")
        return t
    return constant(value, dtype, name=name)
