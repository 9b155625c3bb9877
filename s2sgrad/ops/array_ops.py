"""``tf.reshape``, ``tf.concat``, ``tf.zeros``, indexing...: validate, convert, record."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..primitives.array import (
    EXPAND_DIMS,
    RANK,
    RESHAPE,
    SCATTER_INTO_ZEROS,
    SHAPE,
    SIZE,
    SQUEEZE,
    STRIDED_SLICE,
    TRANSPOSE,
)
from ..primitives.complex import CONJ
from ..primitives.core import Primitive
from ..primitives.fills import FILL, ONES_LIKE, ZEROS_LIKE
from ..primitives.indexing import GATHER_V2, UNSORTED_SEGMENT_SUM, WHERE
from ..primitives.joining import CONCAT_V2, PACK, SPLIT, SPLIT_V, UNPACK
from ..primitives.math import SELECT, SELECT_V2
from ..primitives.reduce import BROADCAST_LIKE, BROADCAST_REDUCED, SUM_TO_SHAPE
from ..primitives.state import IDENTITY, IDENTITY_N, STOP_GRADIENT
from ..shapes import strip_dimensions
from ..ssa.graph import Tensor
from ..static import constant_value
from .convert import constant, convert_operands, convert_to_tensor, graph_of, is_tensor_like, record, record1


def static_ints(value: Any, what: str) -> list[int] | None:
    """A Python int/list or constant int tensor as ints; None when ``value`` is None."""
    if value is None:
        return None
    if is_tensor_like(value):
        known = constant_value(convert_to_tensor(value))
        if known is None:
            raise TypeError(f"{what} must be known when the graph is built (a Python int/list or a constant "
                            f"tensor), got the computed tensor {convert_to_tensor(value).name}")
        value = known
    value = strip_dimensions(value)
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError):
        raise TypeError(f"{what} must be integers, got {value!r}") from None
    if arr.dtype.kind not in "iu" and not (arr.dtype.kind == "f" and np.all(arr == np.round(arr))):
        raise TypeError(f"{what} must be integers, got {value!r}")
    return [int(v) for v in arr.reshape(-1)]


def static_int(value: Any, what: str) -> int:
    """One int (a Python/NumPy int, a one-element list or a constant tensor), else TypeError."""
    ints = static_ints(value, what)
    if ints is None or len(ints) != 1:
        raise TypeError(f"{what} must be one integer, got {value!r}")
    return ints[0]


def either(value: Any, alias: Any, message: str) -> Any:
    """``value``, else its other spelling ``alias`` (``axis``/``dim``...); ValueError ``message`` when
    both are given."""
    if value is not None and alias is not None:
        raise ValueError(message)
    return value if value is not None else alias


def int_tensor(value: Any, name: str) -> Tensor:
    """A shape-like argument (ints, a TensorShape, a list mixing ints and scalar tensors, or an int
    tensor) as an int tensor: int32, or int64 when a value needs it (as TF converts them)."""
    if is_tensor_like(value):
        t = convert_to_tensor(value)
        if not t.dtype.is_integer:
            raise TypeError(f"{name} must be an integer tensor, got {t.dtype.name}")
        return t
    value = strip_dimensions(value)
    if isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) for v in value):
        return stack([convert_to_tensor(v, _dt.int32) for v in value])
    dims = static_ints(value, name)
    if dims is None:
        raise TypeError(f"{name} must be a list of integers or an integer tensor, got None")
    wide = any(not -2 ** 31 <= d < 2 ** 31 for d in dims)
    dtype = _dt.int64 if wide else _dt.int32  # as TF converts Python ints
    return constant(np.array(dims, dtype=dtype.np).reshape(np.shape(value)), dtype, name=name)


# -- shapes --------------------------------------------------------------------------------------

def shape(input: Any, name: str | None = None, out_type: Any = _dt.int32) -> Tensor:
    """The shape of ``input`` as a 1-D int tensor."""
    return record1(SHAPE, [convert_to_tensor(input)], {"out_type": _dt.as_index_dtype(out_type, "out_type")},
                   name or "Shape")


def size(input: Any, name: str | None = None, out_type: Any = _dt.int32) -> Tensor:
    """The number of elements of ``input`` as a scalar int tensor.

    >>> # tf.size(tf.zeros([2, 3]))  ->  6
    """
    return record1(SIZE, [convert_to_tensor(input)], {"out_type": _dt.as_index_dtype(out_type, "out_type")},
                   name or "Size")


def rank(input: Any, name: str | None = None) -> Tensor:
    """The number of dimensions of ``input`` as a scalar int32 tensor.

    >>> # tf.rank(tf.zeros([2, 3]))  ->  2
    """
    return record1(RANK, [convert_to_tensor(input)], None, name or "Rank")


def reshape(tensor: Any, shape: Any, name: str | None = None) -> Tensor:
    """``tensor`` with a new shape (one dimension may be -1)."""
    x = convert_to_tensor(tensor)
    with graph_of([x]).as_default():
        return record1(RESHAPE, [x, int_tensor(shape, "shape")], None, name or "Reshape")


def expand_dims(input: Any, axis: Any = None, name: str | None = None, dim: Any = None) -> Tensor:
    """``input`` with a dimension of size 1 inserted at ``axis`` (``dim`` is the old name).

    >>> # tf.expand_dims(tf.zeros([2, 3]), -1).shape  ->  (2, 3, 1)
    """
    axis = either(axis, dim, "Cannot specify both 'axis' and 'dim'.")
    if axis is None:
        raise ValueError("expand_dims needs an axis")
    ax = static_int(axis, "axis")
    return record1(EXPAND_DIMS, [convert_to_tensor(input)], {"axis": ax}, name or "ExpandDims")


def squeeze(input: Any, axis: Any = None, name: str | None = None, squeeze_dims: Any = None) -> Tensor:
    """``input`` without its dimensions of size 1 (only those in ``axis`` when given).

    >>> # tf.squeeze(tf.zeros([1, 3, 1]), [2]).shape  ->  (1, 3)
    """
    axes = static_ints(either(axis, squeeze_dims, "Cannot specify both 'axis' and 'squeeze_dims'."), "axis")
    return record1(SQUEEZE, [convert_to_tensor(input)], {"axis": None if axes is None else tuple(axes)},
                   name or "Squeeze")


def transpose(a: Any, perm: Any = None, name: str | None = None, conjugate: bool = False) -> Tensor:
    """Permute the axes (default: reverse them); ``conjugate=True`` also conjugates a complex tensor."""
    perm = static_ints(perm, "perm")
    x = record1(TRANSPOSE, [convert_to_tensor(a)], {"perm": None if perm is None else tuple(perm)},
                name or "transpose")
    return record1(CONJ, [x], name="Conj") if conjugate and x.dtype.is_complex else x


# -- creating tensors ------------------------------------------------------------------------------

def fill(dims: Any, value: Any, name: str | None = None) -> Tensor:
    """A tensor of shape ``dims`` (ints or an int tensor) filled with the scalar ``value``.

    >>> # tf.fill([2, 2], 7)  ->  [[7, 7], [7, 7]]
    """
    v = convert_to_tensor(value)
    with graph_of([v]).as_default():
        return record1(FILL, [int_tensor(dims, "dims"), v], None, name or "Fill")


def _filled(shape: Any, dtype: Any, scalar: int, name: str) -> Tensor:
    dtype = _dt.as_dtype(dtype)
    if is_tensor_like(shape) or (isinstance(shape, (list, tuple)) and any(is_tensor_like(s) for s in shape)):
        return fill(shape, constant(scalar, dtype), name=name)
    dims = static_ints(shape, "shape")
    if dims is None:
        raise TypeError(f"{name}: shape must be a list of integers or an integer tensor, got None")
    if any(d < 0 for d in dims):
        raise ValueError(f"shape must not have negative dimensions, got {dims}")
    return constant(scalar, dtype, shape=dims, name=name)


def zeros(shape: Any, dtype: Any = _dt.float32, name: str | None = None) -> Tensor:
    """A tensor of zeros of ``shape`` (ints, or an int tensor known only at run time).

    >>> # b = tf.Variable(tf.zeros([10]))
    """
    return _filled(shape, dtype, 0, name or "zeros")


def ones(shape: Any, dtype: Any = _dt.float32, name: str | None = None) -> Tensor:
    """A tensor of ones of ``shape`` (ints, or an int tensor known only at run time).

    >>> # tf.ones([2], tf.int32)  ->  [1, 1]
    """
    return _filled(shape, dtype, 1, name or "ones")


def zeros_like(tensor: Any, dtype: Any = None, name: str | None = None, optimize: bool = True) -> Tensor:
    """Zeros with the shape of ``tensor``, in its dtype or ``dtype``.

    >>> # tf.zeros_like(x)
    """
    x = convert_to_tensor(tensor)
    if dtype is not None and _dt.as_dtype(dtype) is not x.dtype:
        return zeros(shape(x), dtype, name)
    return record1(ZEROS_LIKE, [x], None, name or "zeros_like")


def ones_like(tensor: Any, dtype: Any = None, name: str | None = None, optimize: bool = True) -> Tensor:
    """Ones with the shape of ``tensor``, in its dtype or ``dtype``.

    >>> # tf.ones_like(x, dtype=tf.float32)
    """
    x = convert_to_tensor(tensor)
    if dtype is not None and _dt.as_dtype(dtype) is not x.dtype:
        return ones(shape(x), dtype, name)
    return record1(ONES_LIKE, [x], None, name or "ones_like")


def identity(input: Any, name: str | None = None) -> Tensor:
    """The same value as a new tensor (a named node; free at run time).

    >>> # y = tf.identity(x, name="output")
    """
    return record1(IDENTITY, [convert_to_tensor(input)], None, name or "Identity")


def identity_n(input: Sequence[Any], name: str | None = None) -> list[Tensor]:
    """Each of ``input`` unchanged, as the outputs of one op (``tf.custom_gradient`` overrides its
    gradient); free at run time.

    >>> a, b = identity_n([constant(1.0), constant(2)])
    """
    if not isinstance(input, (list, tuple)):
        raise TypeError(f"identity_n expects a list of tensors, got {input!r}")
    tensors = [convert_to_tensor(t) for t in input]
    return list(record(IDENTITY_N, tensors, None, name or "IdentityN").outputs)


def stop_gradient(input: Any, name: str | None = None) -> Tensor:
    """The same value, but gradients do not flow through it (at any order)."""
    return record1(STOP_GRADIENT, [convert_to_tensor(input)], None, name or "StopGradient")


def where(condition: Any, x: Any = None, y: Any = None, name: str | None = None) -> Tensor:
    """TF-v1 ``where``: elementwise ``x if condition else y``, where a vector ``condition`` picks
    whole rows of higher-rank ``x``/``y``; with one argument, the int64 indices of the true
    elements (one row per element, shape ``[num_true, rank]``).

    >>> # tf.where([True, False], [[1, 2], [3, 4]], [[5, 6], [7, 8]])  ->  [[1, 2], [7, 8]]
    """
    return _where(SELECT, condition, x, y, name)


def where_v2(condition: Any, x: Any = None, y: Any = None, name: str | None = None) -> Tensor:
    """``x if condition else y`` with NumPy broadcasting of all three (or, with one argument,
    the indices of the true elements).

    >>> # tf.where_v2([True, False], 1.0, [[2.0, 3.0]])  ->  [[1.0, 3.0]]
    """
    return _where(SELECT_V2, condition, x, y, name)


def _where(prim: Primitive, condition: Any, x: Any, y: Any, name: str | None) -> Tensor:
    c = convert_to_tensor(condition)
    if x is None and y is None:
        return record1(WHERE, [c], None, name or "Where")
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    with graph_of([c, x, y]).as_default():
        x, y = convert_operands([x, y])
        return record1(prim, [c, x, y], None, name or prim.name)


# -- joining and splitting -------------------------------------------------------------------------

def concat(values: Sequence[Any], axis: Any, name: str | None = None) -> Tensor:
    """``values`` joined along the existing dimension ``axis``.

    >>> # tf.concat([[[1, 2]], [[3, 4]]], 0)  ->  [[1, 2], [3, 4]]
    """
    if not isinstance(values, (list, tuple)) or not values:
        raise ValueError("concat expects a non-empty list of tensors")
    ax = static_int(axis, "axis")
    tensors = convert_operands(list(values))
    if len(tensors) == 1:
        return identity(tensors[0], name=name or "concat")
    return record1(CONCAT_V2, tensors, {"axis": ax}, name or "concat")


def stack(values: Sequence[Any], axis: int = 0, name: str | None = None) -> Tensor:
    """Tensors of one shape joined along a new dimension ``axis``.

    >>> # tf.stack([[1, 2], [3, 4]], axis=1)  ->  [[1, 3], [2, 4]]
    """
    if not isinstance(values, (list, tuple)) or not values:
        raise ValueError("stack expects a non-empty list of tensors")
    return record1(PACK, convert_operands(list(values)), {"axis": static_int(axis, "axis")}, name or "stack")


def unstack(value: Any, num: int | None = None, axis: int = 0, name: str | None = None) -> list[Tensor]:
    """The slices of ``value`` along ``axis``, as a list (``num`` defaults to that dimension).

    >>> # tf.unstack([[1, 2], [3, 4]])  ->  [[1, 2], [3, 4]] as two tensors
    """
    x = convert_to_tensor(value)
    axis = static_int(axis, "axis")
    if num is None:
        sizes = x.shape.sizes
        if sizes is not None and not -len(sizes) <= axis < len(sizes):
            raise ValueError(f"axis = {axis} not in [{-len(sizes)}, {len(sizes)}) for unstack of {x.name} with shape "
                             f"{x.shape}")
        num = None if sizes is None else sizes[axis]
        if num is None:
            raise ValueError(f"Cannot infer argument `num` from shape {x.shape}")
    attrs = {"num": static_int(num, "num"), "axis": axis}
    return list(record(UNPACK, [x], attrs, name or "unstack").outputs)


def split(value: Any, num_or_size_splits: Any, axis: int = 0, num: int | None = None,
          name: str | None = None) -> list[Tensor]:
    """Split into ``num`` equal parts (Split), or parts of the given sizes, one may be -1 (SplitV).

    >>> # tf.split(tf.zeros([4, 6]), [1, -1, 2], axis=1)  ->  shapes (4, 1), (4, 3), (4, 2)
    """
    x = convert_to_tensor(value)
    ax = static_int(axis, "axis")
    num_or_size_splits = strip_dimensions(num_or_size_splits)
    with graph_of([x]).as_default():
        if isinstance(num_or_size_splits, (int, np.integer)):
            attrs = {"num": int(num_or_size_splits), "axis": ax}
            return list(record(SPLIT, [x], attrs, name or "split").outputs)
        sizes = int_tensor(num_or_size_splits, "num_or_size_splits")
        parts = num if num is not None else (sizes.shape.sizes or (None,))[0]  # unknown for an unknown rank
        if parts is None:
            raise ValueError("Cannot infer num from shape of num_or_size_splits")
        return list(record(SPLIT_V, [x, sizes], {"num": int(parts), "axis": ax}, name or "split").outputs)


# -- helpers used by gradient rules ----------------------------------------------------------------

def sum_to(g: Tensor, like: Tensor, name: str | None = None) -> Tensor:
    """``g`` summed over the axes along which ``like`` was broadcast."""
    return record1(SUM_TO_SHAPE, [convert_to_tensor(g), like], None, name or "SumToShape")


def broadcast_like(x: Tensor, like: Tensor, name: str | None = None) -> Tensor:
    """``x`` broadcast against ``like``'s shape."""
    return record1(BROADCAST_LIKE, [convert_to_tensor(x), like], None, name or "BroadcastLike")


def broadcast_reduced(g: Tensor, like: Tensor, axis: Any, keepdims: bool, name: str | None = None) -> Tensor:
    """A reduction's result ``g`` spread back over the reduced input ``like``."""
    attrs = {"axis": axis, "keepdims": keepdims}
    return record1(BROADCAST_REDUCED, [convert_to_tensor(g), like], attrs, name or "BroadcastReduced")


def scatter_into_zeros(g: Tensor, like: Tensor, index: tuple, indices: Sequence[Tensor]) -> Tensor:
    """Zeros shaped like ``like`` with ``g`` written at ``like[index]`` (``g`` may be IndexedSlices)."""
    return record1(SCATTER_INTO_ZEROS, [convert_to_tensor(g), like, *indices], {"index": index}, "StridedSliceGrad")


def strided_slice(x: Tensor, index: tuple, indices: Sequence[Tensor], name: str | None = None) -> Tensor:
    """``x[index]`` for a basic index spec whose ``TensorIndex(k)`` items are ``indices[k - 1]``."""
    return record1(STRIDED_SLICE, [convert_to_tensor(x), *indices], {"index": index}, name or "strided_slice")


def gather(params: Any, indices: Any, validate_indices: Any = None, name: str | None = None,
           axis: Any = None, batch_dims: int = 0) -> Tensor:
    """Rows (or slices along ``axis``) of ``params`` at ``indices``; its gradient is IndexedSlices."""
    if static_int(batch_dims, "batch_dims"):
        raise NotImplementedError("gather with batch_dims != 0 is not supported")
    p = convert_to_tensor(params)
    ax = static_int(0 if axis is None else axis, "axis")
    with graph_of([p]).as_default():
        i = convert_to_tensor(indices)
        return record1(GATHER_V2, [p, i], {"axis": ax}, name or "GatherV2")


def unsorted_segment_sum(data: Any, segment_ids: Any, num_segments: Any, name: str | None = None) -> Tensor:
    """Sum of the rows of ``data`` with equal ``segment_ids`` (repeats add up)."""
    d = convert_to_tensor(data)
    with graph_of([d]).as_default():
        ids = convert_to_tensor(segment_ids)
        n = convert_to_tensor(num_segments, dtype=ids.dtype) if not isinstance(num_segments, Tensor) \
            else num_segments
        return record1(UNSORTED_SEGMENT_SUM, [d, ids, n], None, name or "UnsortedSegmentSum")
