"""``tf.nn``: activations, softmax, cross-entropies, bias_add, l2 and dropout.

Validate, convert, record. Ops with a primitive of their own record it; the others
(``crelu``, ``l2_normalize``, ``dropout``...) are compositions, as in TensorFlow. Normalization
is in ``normalization_ops``, embeddings in ``embedding_ops``, top_k in ``selection_ops``.
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..primitives.core import Primitive
from ..primitives.nn import (
    BIAS_ADD,
    ELU,
    L2_LOSS,
    LEAKY_RELU,
    LOG_SOFTMAX,
    RELU,
    RELU6,
    SELU,
    SIGMOID_CROSS_ENTROPY_WITH_LOGITS,
    SOFTMAX,
    SOFTMAX_CROSS_ENTROPY_WITH_LOGITS,
    SOFTPLUS,
    SOFTSIGN,
    SPARSE_SOFTMAX_CROSS_ENTROPY_WITH_LOGITS,
)
from ..shapes import TensorShape
from ..ssa.graph import Tensor
from . import array_ops as a
from . import math_ops as m
from . import random_ops
from . import reduce_ops as r
from .convert import convert_to_tensor, graph_of, is_tensor_like, record1, tensor_or_constant

__all__ = ["relu", "relu6", "elu", "selu", "leaky_relu", "softplus", "softsign", "crelu", "swish", "softmax",
           "log_softmax", "bias_add", "xw_plus_b", "l2_loss", "l2_normalize", "dropout",
           "softmax_cross_entropy_with_logits", "softmax_cross_entropy_with_logits_v2",
           "sparse_softmax_cross_entropy_with_logits", "sigmoid_cross_entropy_with_logits",
           "weighted_cross_entropy_with_logits"]


def _activation(prim: Primitive) -> Any:
    def activation(features: Any, name: str | None = None) -> Tensor:
        return record1(prim, [convert_to_tensor(features)], None, name or prim.name)
    activation.__name__ = prim.name.lower()
    activation.__doc__ = (f"Elementwise ``{prim.name}`` (TensorFlow's kernel and gradient).\n\n"
                          f"    >>> # h = tf.nn.{prim.name.lower()}(tf.matmul(x, w) + b)\n")
    return activation


relu = _activation(RELU)
relu6 = _activation(RELU6)
elu = _activation(ELU)
selu = _activation(SELU)
softplus = _activation(SOFTPLUS)
softsign = _activation(SOFTSIGN)


def leaky_relu(features: Any, alpha: float = 0.2, name: str | None = None) -> Tensor:
    """``x`` where ``x > 0``, else ``alpha * x``; integer features are first cast to float32.

    >>> # tf.nn.leaky_relu([-1.0, 2.0], alpha=0.1)  ->  [-0.1, 2.0]
    """
    x = convert_to_tensor(features)
    with graph_of([x]).as_default():
        if x.dtype.is_integer:
            x = m.cast(x, _dt.float32)
        if isinstance(alpha, np.ndarray) and alpha.size == 1:
            alpha = alpha.item()
        if not isinstance(alpha, numbers.Real):
            raise TypeError(f"leaky_relu: alpha must be a Python number, got {alpha!r}")
        return record1(LEAKY_RELU, [x], {"alpha": float(alpha)}, name or "LeakyRelu")


def _axis(axis: Any, dim: Any, default: Any = -1) -> Any:
    value = a.either(axis, dim, "Cannot specify both 'axis' and 'dim'")
    return default if value is None else a.static_int(value, "axis")


def softmax(logits: Any, axis: Any = None, name: str | None = None, dim: Any = None) -> Tensor:
    """``exp(logits) / sum(exp(logits), axis)`` (default: the last axis), computed stably.

    >>> # tf.nn.softmax([[1.0, 1.0]])  ->  [[0.5, 0.5]]
    """
    return record1(SOFTMAX, [convert_to_tensor(logits)], {"axis": _axis(axis, dim)}, name or "Softmax")


def log_softmax(logits: Any, axis: Any = None, name: str | None = None, dim: Any = None) -> Tensor:
    """``logits - log(sum(exp(logits), axis))`` (default: the last axis), computed stably.

    >>> # tf.nn.log_softmax([[0.0, 0.0]])  ->  [[-0.693, -0.693]]
    """
    return record1(LOG_SOFTMAX, [convert_to_tensor(logits)], {"axis": _axis(axis, dim)}, name or "LogSoftmax")


def bias_add(value: Any, bias: Any, data_format: str | None = None, name: str | None = None) -> Tensor:
    """``value + bias`` with the 1-D ``bias`` along the channel axis (last for ``N...C``,
    axis 1 for ``NC...``).

    >>> # tf.nn.bias_add(tf.matmul(x, w), b)
    """
    if data_format is None or data_format.startswith("N") and data_format.endswith("C"):
        layout = "NHWC"
    elif data_format.startswith("NC"):
        layout = "NCHW"
    else:
        raise ValueError("`data_format` must be of the form `N...C` or `NC...`. "
                         f"Received: data_format={data_format}")
    x = convert_to_tensor(value)
    with graph_of([x]).as_default():
        b = tensor_or_constant(bias, x.dtype)
        return record1(BIAS_ADD, [x, b], {"data_format": layout}, name or "BiasAdd")


def xw_plus_b(x: Any, weights: Any, biases: Any, name: str | None = None) -> Tensor:
    """``matmul(x, weights) + biases`` (the biases along the last axis).

    >>> # logits = tf.nn.xw_plus_b(h, w, b)
    """
    x = convert_to_tensor(x)
    graph = graph_of([x, weights, biases])
    with graph.as_default(), graph.name_scope(name or "xw_plus_b") as scope:
        return bias_add(m.matmul(x, weights), biases, name=scope)


def crelu(features: Any, name: str | None = None, axis: int = -1) -> Tensor:
    """``relu(concat([features, -features], axis))``: the positive and negative parts side by side.

    >>> # tf.nn.crelu([[1.0, -2.0]])  ->  [[1.0, 0.0, 0.0, 2.0]]
    """
    x = convert_to_tensor(features)
    graph = graph_of([x])
    with graph.as_default(), graph.name_scope(name or "CRelu") as scope:
        return relu(a.concat([x, m.negative(x)], a.static_int(axis, "axis"), name=scope))


def swish(features: Any, beta: Any = 1.0) -> Tensor:
    """``features * sigmoid(beta * features)`` (SiLU for ``beta`` 1).

    >>> # tf.nn.swish([0.0, 1.0])  ->  [0.0, 0.731]
    """
    x = convert_to_tensor(features)
    with graph_of([x, beta]).as_default():
        return m.multiply(x, m.sigmoid(m.multiply(tensor_or_constant(beta, x.dtype), x)), name="swish")


def l2_loss(t: Any, name: str | None = None) -> Tensor:
    """``sum(t ** 2) / 2``.

    >>> # loss += 1e-4 * tf.nn.l2_loss(w)
    """
    return record1(L2_LOSS, [convert_to_tensor(t)], None, name or "L2Loss")


def l2_normalize(x: Any, axis: Any = None, epsilon: float = 1e-12, name: str | None = None,
                 dim: Any = None) -> Tensor:
    """``x / sqrt(max(sum(x ** 2, axis), epsilon))`` (all axes when ``axis`` is None).

    >>> # tf.nn.l2_normalize([3.0, 4.0])  ->  [0.6, 0.8]
    """
    axes = a.static_ints(a.either(axis, dim, "Cannot specify both 'axis' and 'dim'"), "axis")
    x = convert_to_tensor(x)
    graph = graph_of([x])
    with graph.as_default(), graph.name_scope(name or "l2_normalize") as scope:
        square_sum = r.reduce_sum(m.square(x), axes, keepdims=True)
        return m.multiply(x, m.rsqrt(m.maximum(square_sum, epsilon)), name=scope)


# -- dropout ------------------------------------------------------------------------------------------

def dropout(x: Any, keep_prob: Any = None, noise_shape: Any = None, seed: int | None = None,
            name: str | None = None, rate: Any = None) -> Tensor:
    """Zero each element with probability ``rate`` (= ``1 - keep_prob``), scale the rest by
    ``1 / (1 - rate)``. Seeded by ``tf.set_random_seed`` and ``seed`` like the random ops.

    >>> # tf.nn.dropout(h, keep_prob=0.5) or tf.nn.dropout(h, rate=0.5)
    """
    if keep_prob is not None and rate is not None:
        raise ValueError("Cannot specify both 'keep_prob' and 'rate'")
    if keep_prob is None and rate is None:
        raise ValueError("You must provide a `rate` (or `keep_prob`) to dropout.")
    if keep_prob is not None:
        if isinstance(keep_prob, numbers.Real) and not 0 < float(keep_prob) <= 1:
            raise ValueError(f"keep_prob must be a scalar tensor or a float in the range (0, 1], got {keep_prob}")
        rate = 1.0 - keep_prob
    if isinstance(rate, numbers.Real) and not 0 <= float(rate) < 1:
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate={rate}")
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise ValueError(f"x has to be a floating point tensor since it's going to be scaled. Got a "
                         f"{x.dtype.name} tensor instead ({x.name}).")
    graph = graph_of([x])
    with graph.as_default(), graph.name_scope(name or "dropout") as scope:
        if isinstance(rate, numbers.Real):
            if rate == 0:
                return x
            scaled = m.multiply(x, 1.0 / (1.0 - float(rate)))
        else:
            rate = convert_to_tensor(rate)
            if rate.shape.rank not in (None, 0):
                raise ValueError(f"rate must be a scalar tensor, got shape {rate.shape}")
            rate = m.cast(rate, x.dtype)
            scaled = m.realdiv(x, 1.0 - rate)
        noise = random_ops.random_uniform(_noise_shape(x, noise_shape), dtype=x.dtype, seed=seed)
        keep = m.cast(noise >= rate, x.dtype)
        out = m.multiply(scaled, keep, name=scope)
        out.set_shape(x.shape)
        return out


def _noise_shape(x: Tensor, noise_shape: Any) -> Any:
    """``x``'s shape, or ``noise_shape`` with its unknown entries taken from ``x``."""
    if noise_shape is None:
        return x.shape.as_list() if x.shape.is_fully_defined() else a.shape(x)
    if is_tensor_like(noise_shape):
        return noise_shape
    dims = TensorShape(noise_shape).sizes
    own = x.shape.sizes
    if dims is not None and own is not None and len(own) == len(dims):
        dims = tuple(own[i] if d is None else d for i, d in enumerate(dims))
    if dims is None or None in dims:
        raise ValueError(f"noise_shape {noise_shape} has unknown dimensions that x ({x.shape}) cannot fill")
    return dims


# -- cross-entropies -----------------------------------------------------------------------------------

def _xent_args(function: str, sentinel: Any, labels: Any, logits: Any) -> None:
    if sentinel is not None:
        raise ValueError(f"Only call `{function}` with named arguments (labels=..., logits=..., ...). "
                         f"Received unnamed argument: {sentinel}")
    if labels is None or logits is None:
        raise ValueError(f"Both `labels` and `logits` must be provided. Received: labels={labels} and "
                         f"logits={logits}")


def _labels_like(labels: Any, logits: Tensor) -> Tensor:
    if is_tensor_like(labels):
        return m.cast(convert_to_tensor(labels), logits.dtype)
    return convert_to_tensor(labels, logits.dtype)


def _in_float32(logits: Tensor) -> Tensor:
    """float16 logits are computed in float32 and the loss cast back, as TF does."""
    return m.cast(logits, _dt.float32) if logits.dtype is _dt.float16 else logits


def _fused_loss(prim: Primitive, inputs: list, attrs: dict | None, logits: Tensor, scope: str,
                op_name: str) -> Tensor:
    """The loss output of ``prim`` on ``inputs`` (the first is ``_in_float32(logits)``), in
    ``logits``' dtype and named ``scope`` (the op itself is named ``op_name`` when a cast follows)."""
    fused = inputs[0] is logits
    loss = record1(prim, inputs, attrs, scope if fused else op_name)
    return loss if fused else m.cast(loss, logits.dtype, name=scope)


def softmax_cross_entropy_with_logits_v2(labels: Any, logits: Any, axis: Any = None, name: str | None = None,
                                         dim: Any = None) -> Tensor:
    """``-sum(labels * log_softmax(logits), axis)``, differentiable in logits and labels; the
    logits gradient is TF's fused ``softmax - labels``.

    >>> # loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=z))
    """
    axis = _axis(axis, dim)
    logits = convert_to_tensor(logits)
    graph = graph_of([logits, labels])
    with graph.as_default(), graph.name_scope(name or "softmax_cross_entropy_with_logits") as scope:
        precise = _in_float32(logits)
        return _fused_loss(SOFTMAX_CROSS_ENTROPY_WITH_LOGITS, [precise, _labels_like(labels, precise)], {"axis": axis},
                           logits, scope, "softmax_cross_entropy_with_logits")


def softmax_cross_entropy_with_logits(_sentinel: Any = None, labels: Any = None, logits: Any = None,
                                      dim: Any = -1, name: str | None = None, axis: Any = None) -> Tensor:
    """``softmax_cross_entropy_with_logits_v2`` with the labels behind ``stop_gradient``: as in TF-1.x,
    gradients flow into the logits only. Arguments must be named.

    >>> # tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=z)
    """
    _xent_args("softmax_cross_entropy_with_logits", _sentinel, labels, logits)
    dim = None if type(dim) is int and dim == -1 else dim
    with graph_of([logits, labels]).as_default():
        labels = a.stop_gradient(labels)
    return softmax_cross_entropy_with_logits_v2(labels, logits, axis=_axis(axis, dim), name=name)


def sparse_softmax_cross_entropy_with_logits(_sentinel: Any = None, labels: Any = None, logits: Any = None,
                                             name: str | None = None) -> Tensor:
    """Cross-entropy of ``softmax(logits)`` against integer class ``labels`` (shape of logits
    without its last axis); labels outside ``[0, classes)`` raise InvalidArgumentError at run time.

    >>> # tf.nn.sparse_softmax_cross_entropy_with_logits(labels=class_ids, logits=z)
    """
    _xent_args("sparse_softmax_cross_entropy_with_logits", _sentinel, labels, logits)
    logits = convert_to_tensor(logits)
    graph = graph_of([logits, labels])
    with graph.as_default(), graph.name_scope(name or "SparseSoftmaxCrossEntropyWithLogits") as scope:
        classes = convert_to_tensor(labels)
        return _fused_loss(SPARSE_SOFTMAX_CROSS_ENTROPY_WITH_LOGITS, [_in_float32(logits), classes], None, logits,
                           scope,
                           "SparseSoftmaxCrossEntropyWithLogits")


def sigmoid_cross_entropy_with_logits(_sentinel: Any = None, labels: Any = None, logits: Any = None,
                                      name: str | None = None) -> Tensor:
    """Elementwise ``max(x, 0) - x * z + log(1 + exp(-|x|))`` for logits ``x``, labels ``z``;
    the gradient is ``sigmoid(x) - z``.

    >>> # tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x)
    """
    _xent_args("sigmoid_cross_entropy_with_logits", _sentinel, labels, logits)
    logits = convert_to_tensor(logits)
    graph = graph_of([logits, labels])
    with graph.as_default(), graph.name_scope(name or "logistic_loss") as scope:
        z = tensor_or_constant(labels, logits.dtype)
        return record1(SIGMOID_CROSS_ENTROPY_WITH_LOGITS, [logits, z], None, scope)


def weighted_cross_entropy_with_logits(labels: Any = None, logits: Any = None, pos_weight: Any = None,
                                       name: str | None = None, targets: Any = None) -> Tensor:
    """``sigmoid_cross_entropy_with_logits`` with the positive term weighted by ``pos_weight``:
    ``(1 - z) * x + (1 + (pos_weight - 1) * z) * (log(1 + exp(-|x|)) + max(-x, 0))``.

    >>> # tf.nn.weighted_cross_entropy_with_logits(labels=z, logits=x, pos_weight=3.0)
    """
    labels = a.either(labels, targets, "Cannot specify both 'labels' and 'targets'")
    if labels is None or logits is None or pos_weight is None:
        raise ValueError(f"weighted_cross_entropy_with_logits needs labels, logits and pos_weight; got "
                         f"labels={labels}, logits={logits}, pos_weight={pos_weight}")
    logits = convert_to_tensor(logits)
    graph = graph_of([logits, labels, pos_weight])
    with graph.as_default(), graph.name_scope(name or "logistic_loss") as scope:
        z = tensor_or_constant(labels, logits.dtype)
        if not logits.shape.is_compatible_with(z.shape):
            raise ValueError(f"logits and labels must have the same shape ({logits.shape} vs {z.shape})")
        log_weight = 1.0 + (tensor_or_constant(pos_weight, logits.dtype) - 1.0) * z
        softplus_neg = m.log1p(m.exp(-m.abs(logits))) + relu(-logits)
        return m.add((1.0 - z) * logits, log_weight * softplus_neg, name=scope)
