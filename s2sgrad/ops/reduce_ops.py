"""``tf.reduce_sum``, ``tf.argmax``, ``tf.cumsum``...: axis handling and recording."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..primitives.core import Primitive
from ..primitives.reduce import ALL, ANY, ARG_MAX, ARG_MIN, CUMPROD, CUMSUM, MAX, MEAN, MIN, PROD, SUM
from ..ssa.graph import Tensor
from . import array_ops as a
from . import math_ops as m
from .convert import convert_to_tensor, graph_of, record1


def _axes(axis: Any, reduction_indices: Any) -> tuple | None:
    axis = a.either(axis, reduction_indices, "Can not specify both 'axis' and 'reduction_indices'.")
    axes = a.static_ints(axis, "axis")
    return None if axes is None else tuple(axes)


def _keep(keepdims: Any, keep_dims: Any) -> bool:
    return bool(a.either(keepdims, keep_dims, "Can not specify both 'keepdims' and 'keep_dims'."))


def _reduction(prim: Primitive, default_name: str, bool_only: bool = False) -> Any:
    def reduce(input_tensor: Any, axis: Any = None, keepdims: Any = None, name: str | None = None,
               reduction_indices: Any = None, keep_dims: Any = None) -> Tensor:
        x = convert_to_tensor(input_tensor)
        if bool_only and not x.dtype.is_bool:
            raise TypeError(f"{default_name} expects a bool tensor, got {x.dtype.name} ({x.name})")
        attrs = {"axis": _axes(axis, reduction_indices), "keepdims": _keep(keepdims, keep_dims)}
        return record1(prim, [x], attrs, name or default_name)
    reduce.__name__ = "reduce_" + prim.name.lower()
    reduce.__doc__ = f"Reduce with ``{prim.name}`` over ``axis`` (all axes when None)."
    return reduce


reduce_sum = _reduction(SUM, "Sum")
reduce_mean = _reduction(MEAN, "Mean")
reduce_max = _reduction(MAX, "Max")
reduce_min = _reduction(MIN, "Min")
reduce_prod = _reduction(PROD, "Prod")
reduce_all = _reduction(ALL, "All", bool_only=True)
reduce_any = _reduction(ANY, "Any", bool_only=True)


def reduce_logsumexp(input_tensor: Any, axis: Any = None, keepdims: Any = None, name: str | None = None,
                     reduction_indices: Any = None, keep_dims: Any = None) -> Tensor:
    """``log(sum(exp(x)))``, computed stably around the (gradient-stopped) maximum, as in TF."""
    x = convert_to_tensor(input_tensor)
    axes, keep = _axes(axis, reduction_indices), _keep(keepdims, keep_dims)
    with graph_of([x]).as_default():
        raw_max = reduce_max(x, axes, keepdims=True)
        top = a.stop_gradient(a.where_v2(m.is_finite(raw_max), raw_max, a.zeros_like(raw_max)))
        result = m.log(reduce_sum(m.exp(x - top), axes, keepdims=keep))
        if not keep:
            top = a.reshape(top, a.shape(result))
        return m.add(result, top, name=name or "ReduceLogSumExp")


def count_nonzero(input_tensor: Any = None, axis: Any = None, keepdims: Any = None, dtype: Any = _dt.int64,
                  name: str | None = None, reduction_indices: Any = None, keep_dims: Any = None,
                  input: Any = None) -> Tensor:  # TF's alias
    """The number of non-zero (non-False) elements along ``axis``, as ``dtype`` (int64).

    >>> # tf.count_nonzero([[0, 1], [2, 0]], axis=1)  ->  [1, 1]
    """
    x = convert_to_tensor(input_tensor if input_tensor is not None else input)
    axes, keep = _axes(axis, reduction_indices), _keep(keepdims, keep_dims)
    with graph_of([x]).as_default(), x.graph.name_scope(name or "count_nonzero"):
        nonzero = m.cast(m.not_equal(x, a.zeros([], x.dtype)), _dt.int64)
        return m.cast(reduce_sum(nonzero, axes, keepdims=keep), dtype)


def reduce_variance(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None) -> Tensor:
    """The mean squared deviation from the mean along ``axis`` (float tensors).

    >>> # tf.math.reduce_variance([1., 2., 3., 4.])  ->  1.25
    """
    x = convert_to_tensor(input_tensor)
    if not x.dtype.is_floating:
        raise TypeError(f"reduce_variance expects a float tensor, got {x.dtype.name} ({x.name})")
    axes = _axes(axis, None)
    with graph_of([x]).as_default(), x.graph.name_scope(name or "reduce_variance"):
        deviations = m.square(x - reduce_mean(x, axes, keepdims=True))
        return reduce_mean(deviations, axes, keepdims=bool(keepdims))


def reduce_std(input_tensor: Any, axis: Any = None, keepdims: bool = False, name: str | None = None) -> Tensor:
    """The standard deviation along ``axis``: ``sqrt(reduce_variance(...))``.

    >>> # tf.math.reduce_std([1., 3.])  ->  1.0
    """
    x = convert_to_tensor(input_tensor)
    with graph_of([x]).as_default(), x.graph.name_scope(name or "reduce_std"):
        return m.sqrt(reduce_variance(x, axis, keepdims))


def _arg(prim: Primitive, default_name: str, doc: str) -> Any:
    def arg(input: Any, axis: Any = None, name: str | None = None, dimension: Any = None,
            output_type: Any = _dt.int64) -> Tensor:
        axis = a.either(axis, dimension, "Cannot specify both 'axis' and 'dimension'")
        ax = a.static_int(0 if axis is None else axis, "axis")
        out = _dt.as_index_dtype(output_type, "output_type")
        return record1(prim, [convert_to_tensor(input)], {"axis": ax, "output_type": out}, name or default_name)
    arg.__name__ = default_name.lower()
    arg.__doc__ = doc
    return arg


argmax = _arg(ARG_MAX, "ArgMax", """The index of the largest value along ``axis`` (default 0; the first on ties), as
    ``output_type`` (int64).

    >>> # tf.argmax([[1, 5], [7, 2]], axis=1)  ->  [1, 0]
    """)
argmin = _arg(ARG_MIN, "ArgMin", """The index of the smallest value along ``axis`` (default 0; the first on ties), as
    ``output_type`` (int64).

    >>> # tf.argmin([[1, 5], [7, 2]], axis=1)  ->  [0, 1]
    """)


def _scan(prim: Primitive, default_name: str, doc: str) -> Any:
    def scan(x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False,
             name: str | None = None) -> Tensor:
        ax = a.static_int(axis, "axis")
        attrs = {"axis": ax, "exclusive": bool(exclusive), "reverse": bool(reverse)}
        return record1(prim, [convert_to_tensor(x)], attrs, name or default_name)
    scan.__name__ = default_name.lower()
    scan.__doc__ = doc
    return scan


cumsum = _scan(CUMSUM, "Cumsum", """Running sums along ``axis``; ``exclusive`` leaves each element out of its own sum,
    ``reverse`` runs from the end.

    >>> # tf.cumsum([1, 2, 3], exclusive=True)  ->  [0, 1, 3]
    """)
cumprod = _scan(CUMPROD, "Cumprod", """Running products along ``axis``; ``exclusive`` leaves each element out of its
    own product, ``reverse`` runs from the end.

    >>> # tf.cumprod([1, 2, 3], reverse=True)  ->  [6, 6, 3]
    """)


def prod_of_others(x: Tensor, axis: Any) -> Tensor:
    """For each element, the product of the other elements along ``axis`` (no division, so zeros
    are handled), the core of ``reduce_prod``'s gradient."""
    rank = x.shape.rank
    if rank is None:
        raise ValueError(f"the gradient of reduce_prod needs the rank of {x.name}")
    axes = tuple(range(rank)) if axis is None else tuple(sorted(ax % rank for ax in axis))
    rest = tuple(i for i in range(rank) if i not in axes)
    perm = axes + rest
    moved = a.transpose(x, perm)
    flat = a.reshape(moved, a.concat([[-1], a.shape(moved)[len(axes):]], 0))
    left = cumprod(flat, 0, exclusive=True)
    right = cumprod(flat, 0, exclusive=True, reverse=True)
    others = a.reshape(left * right, a.shape(moved))
    return a.transpose(others, np.argsort(perm).tolist())
