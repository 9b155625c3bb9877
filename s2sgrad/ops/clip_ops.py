"""``tf.clip_by_value``, ``tf.clip_by_norm``, ``tf.clip_by_average_norm``, ``tf.global_norm`` and
``tf.clip_by_global_norm``, as TF computes them; IndexedSlices are clipped through their values
(keeping indices and dense shape) and ``None`` entries of a list stay ``None``.

>>> # grads, norm = tf.clip_by_global_norm(grads, 5.0)
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..ssa.graph import Tensor
from . import array_ops as a
from . import math_ops as m
from . import reduce_ops as r
from .convert import convert_to_tensor, graph_of
from .indexed_slices import IndexedSlices
from .nn_ops import l2_loss

__all__ = ["clip_by_value", "clip_by_norm", "clip_by_average_norm", "global_norm", "clip_by_global_norm"]


def _values(t: Any, name: str) -> Tensor:
    return convert_to_tensor(t.values if isinstance(t, IndexedSlices) else t, name=name)


def _like(t: Any, values: Tensor) -> Any:
    """``values`` in the form of ``t``: IndexedSlices with ``t``'s indices, or the tensor itself."""
    return IndexedSlices(values, t.indices, t.dense_shape) if isinstance(t, IndexedSlices) else values


def _same_shape(values: Tensor, result: Tensor, what: str) -> None:
    if not values.shape.is_compatible_with(result.shape):
        raise ValueError(f"{what}: the clip bounds would change the shape of t from {values.shape} to {result.shape}")


def clip_by_value(t: Any, clip_value_min: Any, clip_value_max: Any, name: str | None = None) -> Any:
    """``min(max(t, clip_value_min), clip_value_max)`` elementwise (bounds broadcast but may not
    change ``t``'s shape); the gradient passes where ``t`` is inside the bounds."""
    graph = graph_of([t, clip_value_min, clip_value_max])
    with graph.as_default(), graph.name_scope(name or "clip_by_value") as scope:
        values = _values(t, "t")
        clipped = m.clip_by_value(values, clip_value_min, clip_value_max, name=scope)
        _same_shape(values, clipped, "clip_by_value")
        return _like(t, clipped)


def clip_by_norm(t: Any, clip_norm: Any, axes: Any = None, name: str | None = None) -> Any:
    """``t * clip_norm / max(l2norm(t, axes), clip_norm)``: rescaled so its L2 norm (over ``axes``,
    default all) is at most ``clip_norm``; a negative ``clip_norm`` acts as 0."""
    graph = graph_of([t, clip_norm])
    with graph.as_default(), graph.name_scope(name or "clip_by_norm") as scope:
        values = _values(t, "t")
        if isinstance(clip_norm, (int, float, np.number)):
            clip_norm = max(float(clip_norm), 0.0)
        else:
            clip_norm = m.cast(m.maximum(clip_norm, 0), values.dtype)
        l2sum = r.reduce_sum(values * values, axes, keepdims=True)
        positive = m.greater(l2sum, 0)
        l2norm = a.where(positive, m.sqrt(a.where(positive, l2sum, a.ones_like(l2sum))), l2sum)
        scaled = values * clip_norm
        _same_shape(values, scaled, "clip_by_norm")
        return _like(t, a.identity(scaled / m.maximum(l2norm, clip_norm), name=scope))


def clip_by_average_norm(t: Any, clip_norm: Any, name: str | None = None) -> Tensor:
    """``t * clip_norm / max(l2norm(t) / size(t), clip_norm)`` (deprecated in TF, where the count is float32
    and so a float64 ``t`` fails; here the count takes ``t``'s dtype)."""
    graph = graph_of([t, clip_norm])
    with graph.as_default(), graph.name_scope(name or "clip_by_average_norm") as scope:
        t = convert_to_tensor(t, name="t")
        n_element = m.cast(a.size(t), t.dtype)
        clip_norm = convert_to_tensor(clip_norm, dtype=t.dtype)
        l2norm_inv = m.rsqrt(r.reduce_sum(t * t))
        return a.identity(t * clip_norm * m.minimum(l2norm_inv * n_element, 1.0 / clip_norm), name=scope)


def _tensor_list(t_list: Any) -> list:
    if not isinstance(t_list, Sequence) or isinstance(t_list, str):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    return list(t_list)


def global_norm(t_list: Any, name: str | None = None) -> Tensor:
    """``sqrt(sum of squares of every element of every tensor)``; ``None`` entries are skipped.

    >>> # norm = tf.global_norm(grads)
    """
    t_list = _tensor_list(t_list)
    graph = graph_of([t for t in t_list if t is not None])
    with graph.as_default(), graph.name_scope(name or "global_norm"):
        values = [_values(t, f"t_{i}") for i, t in enumerate(t_list) if t is not None]
        if not values:
            raise ValueError("global_norm: t_list holds no tensors (only None entries)")
        dtypes = {v.dtype for v in values}
        if len(dtypes) > 1:
            raise TypeError(f"global_norm: the tensors of t_list must share one dtype, got "
                            f"{sorted(d.name for d in dtypes)}")
        half_squared = r.reduce_sum(a.stack([l2_loss(v) for v in values]))
        return m.sqrt(half_squared * m.cast(2.0, half_squared.dtype), name="global_norm")


def clip_by_global_norm(t_list: Any, clip_norm: Any, use_norm: Any = None,
                        name: str | None = None) -> tuple[list, Tensor]:
    """``([t * clip_norm / max(norm, clip_norm) for t in t_list], norm)`` with ``norm = global_norm(t_list)``
    (or ``use_norm``); ``None`` entries stay ``None``, IndexedSlices stay IndexedSlices. An infinite
    norm makes every clipped value NaN, as in TF.

    >>> # grads, _ = tf.clip_by_global_norm([g for g, _ in grads_and_vars], 5.0)
    """
    t_list = _tensor_list(t_list)
    if use_norm is None:
        use_norm = global_norm(t_list, name)
    graph = graph_of([use_norm, clip_norm] + [t for t in t_list if t is not None])
    with graph.as_default(), graph.name_scope(name or "clip_by_global_norm") as scope:
        use_norm = convert_to_tensor(use_norm)
        scale = clip_norm * m.minimum(1.0 / use_norm, m.cast(1.0, use_norm.dtype) / clip_norm)
        scale = scale + (use_norm - use_norm)   # NaN when the norm is infinite
        clipped: list[Any] = []
        for i, t in enumerate(t_list):
            if t is None:
                clipped.append(None)
                continue
            values = _values(t, f"t_{i}")
            clipped.append(_like(t, a.identity(values * m.cast(scale, values.dtype), name=f"{scope}_{i}")))
        return clipped, use_norm
