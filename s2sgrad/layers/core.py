"""``tf.layers.Dense`` / ``dense``, ``Dropout`` / ``dropout`` and ``Flatten`` / ``flatten``."""
from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..ops import array_ops as a
from ..ops import linalg_ops
from ..ops import math_ops as m
from ..ops import nn_ops as nn
from ..ops.convert import convert_to_tensor
from ..shapes import TensorShape
from ..ssa.graph import Tensor
from ..static import constant_value
from .base import ZEROS, InputSpec, Layer

__all__ = ["Dense", "dense", "Dropout", "dropout", "Flatten", "flatten", "select_by_training", "training_value",
           "positive_int"]


class Dense(Layer):
    """``activation(inputs @ kernel + bias)`` over the last axis of ``inputs``; ``kernel`` is
    ``[input size, units]`` (glorot uniform unless given), ``bias`` ``[units]`` (zeros)."""

    def __init__(self, units: int, activation: Any = None, use_bias: bool = True, kernel_initializer: Any = None,
                 bias_initializer: Any = ZEROS, kernel_regularizer: Any = None,
                 bias_regularizer: Any = None, activity_regularizer: Any = None, kernel_constraint: Any = None,
                 bias_constraint: Any = None, trainable: bool = True, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer, **kwargs)
        self.units = positive_int(units, "units")
        if self.units <= 0:
            raise ValueError(f"Received an invalid value for `units`, expected a positive integer. Received: "
                             f"units={units}")
        self.activation, self.use_bias = activation, use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint
        self.input_spec = InputSpec(min_ndim=2)
        self.kernel: Any = None
        self.bias: Any = None

    def build(self, input_shape: TensorShape) -> None:
        last = TensorShape(input_shape).as_list()[-1]
        if last is None:
            raise ValueError(f"The last dimension of the inputs to a Dense layer should be defined. Found None. "
                             f"Full input shape received: {tuple(TensorShape(input_shape).as_list())}")
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last})
        self.kernel = self.add_weight("kernel", [last, self.units], initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        if self.use_bias:
            self.bias = self.add_weight("bias", [self.units], initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)

    def call(self, inputs: Any, **kwargs: Any) -> Tensor:
        inputs = m.cast(inputs, self.kernel.dtype) if inputs.dtype is not self.kernel.dtype else inputs
        rank = inputs.shape.ndims
        if rank == 2 or rank is None:
            outputs = m.matmul(inputs, self.kernel)
        else:
            outputs = linalg_ops.tensordot(inputs, self.kernel, [[rank - 1], [0]])
            outputs.set_shape(inputs.shape.as_list()[:-1] + [self.units])
        if self.use_bias:
            outputs = nn.bias_add(outputs, self.bias)
        return outputs if self.activation is None else self.activation(outputs)


def dense(inputs: Any, units: int, activation: Any = None, use_bias: bool = True, kernel_initializer: Any = None,
          bias_initializer: Any = ZEROS, kernel_regularizer: Any = None, bias_regularizer: Any = None,
          activity_regularizer: Any = None, kernel_constraint: Any = None, bias_constraint: Any = None,
          trainable: bool = True, name: str | None = None, reuse: Any = None) -> Tensor:
    """A ``Dense`` layer applied to ``inputs``: variables ``<name>/kernel`` and ``<name>/bias``.

    >>> # hidden = tf.layers.dense(x, 128, activation=tf.nn.relu)   # dense/kernel, dense/bias
    """
    layer = Dense(units, activation, use_bias, kernel_initializer, bias_initializer, kernel_regularizer,
                  bias_regularizer, activity_regularizer, kernel_constraint, bias_constraint, trainable, name,
                  _scope=name, _reuse=reuse)
    return layer(inputs)


def positive_int(value: Any, what: str) -> int:
    """``value`` as an int (TypeError unless it is an integer number)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`{what}` must be a positive integer, got {value!r}")
    return int(value)


def training_value(training: Any) -> bool | None:
    """``training`` when it is known before the run (a bool or a constant tensor), else None;
    TypeError unless it is a bool or a scalar boolean tensor."""
    if isinstance(training, (bool, np.bool_)):
        return bool(training)
    flag = convert_to_tensor(training)
    if flag.dtype is not _dt.bool or flag.shape.ndims not in (None, 0):
        raise TypeError(f"`training` must be a Python bool or a scalar bool tensor, got {training!r}")
    value = constant_value(flag)
    return None if value is None else bool(value)


def select_by_training(training: Any, when_training: Any, otherwise: Any) -> Any:
    """``when_training()`` or ``otherwise()`` when ``training`` is known before the run; for a
    boolean tensor both, chosen elementwise at run time (s2sgrad has no ``tf.cond`` yet)."""
    known = training_value(training)
    if known is not None:
        return when_training() if known else otherwise()
    return a.where_v2(training, when_training(), otherwise())


class Dropout(Layer):
    """Zeroes inputs with probability ``rate`` (scaling the rest by ``1 / (1 - rate)``) when called
    with ``training=True``; the identity otherwise."""

    def __init__(self, rate: float = 0.5, noise_shape: Any = None, seed: int | None = None, name: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(name=name, **kwargs)
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed

    def call(self, inputs: Any, training: Any = False, **kwargs: Any) -> Tensor:
        if isinstance(self.rate, (int, float)) and self.rate == 0:
            return a.identity(inputs)
        return select_by_training(training,
                                  lambda: nn.dropout(inputs, noise_shape=self.noise_shape, seed=self.seed,
                                                     rate=self.rate),
                                  lambda: a.identity(inputs))


def dropout(inputs: Any, rate: float = 0.5, noise_shape: Any = None, seed: int | None = None, training: Any = False,
            name: str | None = None) -> Tensor:
    """``Dropout(rate)`` applied to ``inputs``: only when ``training`` (a bool or a boolean tensor).

    >>> # h = tf.layers.dropout(h, rate=0.3, training=is_training)
    """
    return Dropout(rate, noise_shape, seed, name)(inputs, training=training)


class Flatten(Layer):
    """``[batch, d1, d2, ...] -> [batch, d1 * d2 * ...]`` (channels moved last first for ``channels_first``)."""

    def __init__(self, data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"
        if self.data_format not in ("channels_last", "channels_first"):
            raise ValueError(f"The `data_format` argument must be one of \"channels_first\", \"channels_last\". "
                             f"Received: {data_format}")
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs: Any, **kwargs: Any) -> Tensor:
        dims = inputs.shape.as_list()
        if self.data_format == "channels_first" and len(dims) > 1:
            inputs = a.transpose(inputs, [0, *range(2, len(dims)), 1])
            dims = inputs.shape.as_list()
        if len(dims) == 1:
            return a.expand_dims(inputs, axis=1)
        rest = dims[1:]
        if None not in rest:
            return a.reshape(inputs, [-1, int(math.prod(rest))])
        if dims[0] is not None:
            return a.reshape(inputs, [dims[0], -1])
        return a.reshape(inputs, a.stack([a.shape(inputs)[0], -1]))


def flatten(inputs: Any, name: str | None = None, data_format: str = "channels_last") -> Tensor:
    """``Flatten()`` applied to ``inputs``: one row per batch entry.

    >>> # features = tf.layers.flatten(conv_output)
    """
    return Flatten(data_format=data_format, name=name)(inputs)
