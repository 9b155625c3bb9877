"""``tf.nn`` normalization: ``moments``, ``weighted_moments``, ``batch_normalization``,
``fused_batch_norm`` (compositions, as TensorFlow's Python writes them, or with its fused
op's gradients) and ``local_response_normalization`` (TF's ``LRN`` op)."""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..primitives.nn import LRN
from ..ssa.graph import Tensor
from . import array_ops as a
from . import math_ops as m
from . import reduce_ops as r
from .convert import convert_to_tensor, graph_of, record1, tensor_or_constant

__all__ = ["moments", "weighted_moments", "batch_normalization", "batch_norm_with_global_normalization",
           "fused_batch_norm", "local_response_normalization", "lrn"]


def _keep(keepdims: Any, keep_dims: Any) -> bool:
    return bool(a.either(keepdims, keep_dims, "Cannot specify both 'keepdims' and 'keep_dims'"))


def _axes(axes: Any) -> list[int]:
    axes = a.static_ints(axes, "axes")
    if axes is None:
        raise ValueError("moments needs the axes to reduce over")
    return axes


def moments(x: Any, axes: Any, shift: Any = None, name: str | None = None, keep_dims: Any = None,
            keepdims: Any = None) -> tuple[Tensor, Tensor]:
    """Mean and variance of ``x`` over ``axes`` (float16 is computed in float32, as in TF; ``shift``
    is accepted and unused, as in TF).

    >>> # mean, variance = tf.nn.moments(x, axes=[0])
    """
    keep, axes = _keep(keepdims, keep_dims), _axes(axes)
    x = convert_to_tensor(x)
    graph = graph_of([x])
    with graph.as_default(), graph.name_scope(name or "moments"):
        y = m.cast(x, _dt.float32) if x.dtype is _dt.float16 else x
        mean = r.reduce_mean(y, axes, keepdims=True, name="mean")
        variance = r.reduce_mean(m.squared_difference(y, a.stop_gradient(mean)), axes, keepdims=True,
                                 name="variance")
        if not keep:
            mean, variance = a.squeeze(mean, axes), a.squeeze(variance, axes)
        return m.cast(mean, x.dtype), m.cast(variance, x.dtype)


def weighted_moments(x: Any, axes: Any, frequency_weights: Any, name: str | None = None, keep_dims: Any = None,
                     keepdims: Any = None) -> tuple[Tensor, Tensor]:
    """Mean and variance of ``x`` over ``axes`` with each element counted ``frequency_weights``
    times (broadcast against ``x``); 0 where the weights sum to 0.

    >>> # mean, variance = tf.nn.weighted_moments(x, [0], frequency_weights=w)
    """
    keep, axes = _keep(keepdims, keep_dims), _axes(axes)
    x = convert_to_tensor(x)
    graph = graph_of([x, frequency_weights])
    with graph.as_default(), graph.name_scope(name or "weighted_moments"):
        y = m.cast(x, _dt.float32) if x.dtype is _dt.float16 else x
        w = m.cast(convert_to_tensor(frequency_weights), y.dtype)
        weighted_sum = r.reduce_sum(w * y, axes, keepdims=True, name="weighted_input_sum")
        total = r.reduce_sum(w + a.zeros_like(y), axes, keepdims=True, name="sum_of_weights")
        mean = m.divide_no_nan(weighted_sum, total)
        spread = r.reduce_sum(w * m.squared_difference(y, mean), axes, keepdims=True, name="weighted_distsq")
        variance = m.divide_no_nan(spread, total)
        if not keep:
            mean, variance = a.squeeze(mean, axes), a.squeeze(variance, axes)
        return m.cast(mean, x.dtype), m.cast(variance, x.dtype)


def batch_normalization(x: Any, mean: Any, variance: Any, offset: Any, scale: Any, variance_epsilon: Any,
                        name: str | None = None) -> Tensor:
    """``(x - mean) * scale / sqrt(variance + variance_epsilon) + offset`` (``offset``, ``scale``
    may be None), computed as TF does: ``x * inv + (offset - mean * inv)``.

    >>> # y = tf.nn.batch_normalization(x, mean, variance, beta, gamma, 1e-3)
    """
    x = convert_to_tensor(x)
    graph = graph_of([x, mean, variance, offset, scale])
    with graph.as_default(), graph.name_scope(name or "batchnorm") as scope:
        inv = m.rsqrt(tensor_or_constant(variance, x.dtype) + variance_epsilon)
        if scale is not None:
            inv = inv * tensor_or_constant(scale, x.dtype)
        mean = tensor_or_constant(mean, x.dtype)
        shift = -mean * inv if offset is None else tensor_or_constant(offset, x.dtype) - mean * inv
        return m.add(x * m.cast(inv, x.dtype), m.cast(shift, x.dtype), name=scope)


def batch_norm_with_global_normalization(t: Any = None, m: Any = None, v: Any = None, beta: Any = None,
                                        gamma: Any = None, variance_epsilon: Any = None,
                                        scale_after_normalization: Any = None, name: str | None = None,
                                        input: Any = None, mean: Any = None, variance: Any = None) -> Tensor:
    """TF's older batch norm: ``batch_normalization(t, m, v, beta, gamma if scale_after_normalization
    else None, variance_epsilon)`` (``input``, ``mean``, ``variance`` are newer names of ``t``, ``m``, ``v``).

    >>> # tf.nn.batch_norm_with_global_normalization(x, mu, var, beta, gamma, 1e-3, True)
    """
    pairs = ((t, input, "t", "input"), (m, mean, "m", "mean"), (v, variance, "v", "variance"))
    x, mu, var = (a.either(old, new, f"Cannot specify both '{o}' and '{n}'") for old, new, o, n in pairs)
    if x is None or mu is None or var is None or variance_epsilon is None or scale_after_normalization is None:
        raise ValueError("batch_norm_with_global_normalization needs t, m, v, variance_epsilon and "
                         "scale_after_normalization")
    if not isinstance(scale_after_normalization, (bool, np.bool_)):
        raise TypeError(f"scale_after_normalization must be a Python bool, got {scale_after_normalization!r}")
    return batch_normalization(x, mu, var, beta, gamma if scale_after_normalization else None, variance_epsilon,
                               name=name or "batchnorm")


_FORMATS = {"NHWC": -1, "NCHW": 1, "NDHWC": -1, "NCDHW": 1}


def fused_batch_norm(x: Any, scale: Any, offset: Any, mean: Any = None, variance: Any = None, epsilon: float = 0.001,
                     data_format: str = "NHWC", is_training: bool = True, name: str | None = None,
                     exponential_avg_factor: float = 1.0) -> tuple[Tensor, Tensor, Tensor]:
    """TF-1.x's ``fused_batch_norm``: ``(y, mean, variance)`` of a 4-D (or 5-D) ``x`` over every
    axis but the channels. Training normalizes by the batch statistics and returns the batch
    mean and the Bessel-corrected batch variance (blended into ``mean``/``variance`` when
    ``exponential_avg_factor`` is below 1); inference normalizes by ``mean``/``variance`` and
    returns them. As with TF's fused op, only ``y`` carries gradients (to ``x``, ``scale``,
    ``offset``). ``epsilon`` is at least 1.001e-5 (cuDNN's minimum, which TF applies).

    >>> # y, batch_mean, batch_var = tf.nn.fused_batch_norm(x, gamma, beta, is_training=True)
    """
    if not isinstance(data_format, str) or data_format not in _FORMATS:
        raise ValueError(f"Invalid data_format: {data_format!r} (expected one of {sorted(_FORMATS)})")
    x = convert_to_tensor(x)
    rank = len(data_format)
    if x.shape.rank is not None and x.shape.rank != rank:
        raise ValueError(f"Shape must be rank {rank} but is rank {x.shape.rank} for x of fused_batch_norm "
                         f"({x.name}, data_format {data_format})")
    if not is_training and (mean is None or variance is None):
        raise ValueError("fused_batch_norm with is_training=False needs the population mean and variance")
    epsilon = max(_number(epsilon, "epsilon"), 1.001e-5)
    exponential_avg_factor = _number(exponential_avg_factor, "exponential_avg_factor")
    if not isinstance(is_training, (bool, np.bool_)):
        raise TypeError(f"is_training must be a Python bool, got {is_training!r}")
    graph = graph_of([x, scale, offset, mean, variance])
    with graph.as_default(), graph.name_scope(name or "FusedBatchNormV3") as scope:
        y = m.cast(x, _dt.float32) if x.dtype is _dt.float16 else x
        last = None if y is not x else scope  # the name of y's last op
        channel = _FORMATS[data_format] % rank
        axes = [i for i in range(rank) if i != channel]
        shaped = [1] * rank
        shaped[channel] = -1
        gamma, beta = (a.reshape(tensor_or_constant(v, y.dtype), shaped) for v in (scale, offset))
        if is_training:
            batch_mean = r.reduce_mean(y, axes, keepdims=True)
            centered = y - batch_mean
            batch_var = r.reduce_mean(m.square(centered), axes, keepdims=True)
            out = m.add(centered * (gamma * m.rsqrt(batch_var + epsilon)), beta, name=last)
            count = m.cast(a.size(y) // a.size(batch_mean), y.dtype)
            new_mean = a.reshape(a.stop_gradient(batch_mean), [-1])
            new_var = a.reshape(a.stop_gradient(batch_var * count / m.maximum(count - 1, 1)), [-1])
            if exponential_avg_factor != 1.0:
                factor = exponential_avg_factor
                new_mean = (1 - factor) * a.stop_gradient(tensor_or_constant(mean, y.dtype)) + factor * new_mean
                new_var = (1 - factor) * a.stop_gradient(tensor_or_constant(variance, y.dtype)) + factor * new_var
        else:
            new_mean = a.stop_gradient(tensor_or_constant(mean, y.dtype))
            new_var = a.stop_gradient(tensor_or_constant(variance, y.dtype))
            inv = a.reshape(m.rsqrt(new_var + epsilon), shaped) * gamma
            out = m.add((y - a.reshape(new_mean, shaped)) * inv, beta, name=last)
        return (out if last else m.cast(out, x.dtype, name=scope)), new_mean, new_var


def local_response_normalization(input: Any, depth_radius: int = 5, bias: float = 1, alpha: float = 1,
                                 beta: float = 0.5, name: str | None = None) -> Tensor:
    """``input / (bias + alpha * sqr_sum) ** beta`` where ``sqr_sum`` sums the squares of the
    ``2 * depth_radius + 1`` neighbours along the last axis of a 4-D float ``input``.

    >>> # tf.nn.lrn(conv, depth_radius=2, bias=1.0, alpha=1e-4, beta=0.75)
    """
    x = convert_to_tensor(input)
    attrs = {"depth_radius": a.static_int(depth_radius, "depth_radius"), "bias": _number(bias, "bias"),
             "alpha": _number(alpha, "alpha"), "beta": _number(beta, "beta")}
    return record1(LRN, [x], attrs, name or "LRN")


lrn = local_response_normalization


def _number(value: Any, what: str) -> float:
    """A Python (or NumPy) real number, as TF's float attrs take; TypeError naming ``what`` otherwise."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"Expected float for argument '{what}' not {value!r}.")
    return float(value)
