"""Weight regularizers as TF-1.x's ``tf.contrib.layers`` has them, and the regularization-loss total.

A regularizer is a function ``weights -> scalar loss tensor`` (or None). ``get_variable`` and the
layers call it for each new variable and put the loss into ``tf.GraphKeys.REGULARIZATION_LOSSES``;
``tf.losses.get_regularization_loss()`` sums that collection.

>>> import s2sgrad as tf
>>> reg = tf.contrib.layers.l2_regularizer(0.1)
>>> w = tf.get_variable("w", initializer=[3.0, 4.0], regularizer=reg)
>>> total = tf.losses.get_regularization_loss()
>>> with tf.Session() as sess:
...     _ = sess.run(tf.global_variables_initializer())
...     print(round(float(sess.run(total)), 4))
1.25
"""
from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import Any

from .ops import math_ops as m
from .ops import nn_ops as nn
from .ops import reduce_ops as r
from .ops.convert import constant, convert_to_tensor
from .ops.variable_scope import REGULARIZATION_LOSSES
from .ssa.graph import Tensor, get_default_graph, name_scope

__all__ = ["l1_regularizer", "l2_regularizer", "l1_l2_regularizer", "sum_regularizer", "apply_regularization",
           "get_regularization_loss"]

Regularizer = Callable[[Any], Any]
WEIGHTS = "weights"


def _checked_scale(scale: Any, what: str = "scale") -> Any:
    if isinstance(scale, numbers.Integral):
        raise ValueError(f"{what} cannot be an integer: {scale}")
    if isinstance(scale, numbers.Real) and scale < 0.0:
        raise ValueError(f"Setting a scale less than 0 on a regularizer: {scale:g}")
    return scale


def _scaled(kind: str, scale: Any, scope: str | None, penalty: Callable[[Tensor], Tensor]) -> Regularizer | Any:
    """A regularizer ``scale * penalty(weights)`` (ops under ``scope`` or ``kind``); for scale 0 one giving None."""
    scale = _checked_scale(scale)
    if isinstance(scale, numbers.Real) and scale == 0.0:
        return lambda _: None

    def regularizer(weights: Any, name: str | None = None) -> Tensor:
        weights = convert_to_tensor(weights)
        with name_scope(scope, kind) as op_name:
            factor = convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            return m.multiply(factor, penalty(weights), name=op_name)
    return regularizer


def l1_regularizer(scale: float, scope: str | None = None) -> Regularizer:
    """``scale * sum(|w|)``."""
    return _scaled("l1_regularizer", scale, scope, lambda w: r.reduce_sum(m.abs(w)))


def l2_regularizer(scale: float, scope: str | None = None) -> Regularizer:
    """``scale * sum(w ** 2) / 2`` (``tf.nn.l2_loss``).

    >>> # w = tf.get_variable("w", [10, 10], regularizer=tf.contrib.layers.l2_regularizer(1e-4))
    """
    return _scaled("l2_regularizer", scale, scope, nn.l2_loss)


def l1_l2_regularizer(scale_l1: float = 1.0, scale_l2: float = 1.0, scope: str | None = None) -> Regularizer | None:
    """The sum of an L1 and an L2 regularizer (just one of them when the other's scale is 0)."""
    _checked_scale(scale_l1, "scale_l1")
    _checked_scale(scale_l2, "scale_l2")
    scope = scope or "l1_l2_regularizer"
    if scale_l1 == 0.0:
        return l2_regularizer(scale_l2, scope)
    if scale_l2 == 0.0:
        return l1_regularizer(scale_l1, scope)
    return sum_regularizer([l1_regularizer(scale_l1), l2_regularizer(scale_l2)], scope=scope)


def sum_regularizer(regularizer_list: Sequence[Regularizer | None], scope: str | None = None) -> Regularizer | None:
    """A regularizer adding up the losses of ``regularizer_list`` (None for an empty list)."""
    regularizers = [reg for reg in regularizer_list if reg is not None]
    if not regularizers:
        return None

    def summed(weights: Any) -> Tensor | None:
        with name_scope(scope, "sum_regularizer") as op_name:
            losses = [loss for loss in (reg(weights) for reg in regularizers) if loss is not None]
            return m.add_n(losses, name=op_name) if losses else None
    return summed


def apply_regularization(regularizer: Regularizer, weights_list: Sequence[Any] | None = None) -> Tensor:
    """``regularizer`` applied to each of ``weights_list`` (default: the ``weights`` collection), summed;
    the sum is added to ``REGULARIZATION_LOSSES`` and returned."""
    if not weights_list:
        weights_list = get_default_graph().get_collection(WEIGHTS)
    if not weights_list:
        raise ValueError("No weights to regularize.")
    with name_scope("get_regularization_penalty") as op_name:
        penalties = [regularizer(w) for w in weights_list]
        penalties = [constant(0.0) if p is None else p for p in penalties]
        for p in penalties:
            if p.shape.ndims != 0:
                raise ValueError(f"regularizer must return a scalar Tensor instead of a Tensor with rank "
                                 f"{p.shape.ndims}.")
        total = m.add_n(penalties, name=op_name)
    total.graph.add_to_collection(REGULARIZATION_LOSSES, total)
    return total


def get_regularization_loss(scope: str | None = None, name: str = "total_regularization_loss") -> Tensor:
    """The sum of the ``REGULARIZATION_LOSSES`` collection (those under ``scope``), 0.0 when it is empty."""
    losses = get_default_graph().get_collection(REGULARIZATION_LOSSES, scope)
    return m.add_n(losses, name=name) if losses else constant(0.0)
