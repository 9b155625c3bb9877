"""``tf.layers.BatchNormalization`` / ``batch_normalization``: normalize by the batch statistics when
training (and move ``moving_mean``/``moving_variance`` towards them through ``UPDATE_OPS``), by
the moving statistics otherwise.

As in TF, 4-D inputs normalized over axis 1 or 3 take the fused kernel (``tf.nn.fused_batch_norm``),
whose batch variance (and so the moving-variance update) carries Bessel's correction ``n / (n - 1)``;
other inputs take ``tf.nn.moments`` + ``tf.nn.batch_normalization`` and the plain batch variance.
"""
from __future__ import annotations

import numbers
from typing import Any

from ..ops import array_ops as a
from ..ops import math_ops as m
from ..ops import normalization_ops as norm
from ..ops.convert import convert_to_tensor
from ..ops.variable_ops import Variable, assign_sub
from ..shapes import TensorShape
from ..ssa.graph import Tensor, get_default_graph
from .base import ONES, ZEROS, InputSpec, Layer
from .core import select_by_training, training_value

__all__ = ["BatchNormalization", "batch_normalization"]


class BatchNormalization(Layer):
    """``gamma * (x - mean) / sqrt(variance + epsilon) + beta`` over ``axis`` (the channels)."""

    def __init__(self, axis: Any = -1, momentum: float = 0.99, epsilon: float = 1e-3, center: bool = True,
                 scale: bool = True, beta_initializer: Any = ZEROS,
                 gamma_initializer: Any = ONES, moving_mean_initializer: Any = ZEROS,
                 moving_variance_initializer: Any = ONES, beta_regularizer: Any = None,
                 gamma_regularizer: Any = None, beta_constraint: Any = None, gamma_constraint: Any = None,
                 renorm: bool = False, renorm_clipping: Any = None, renorm_momentum: float = 0.99,
                 fused: bool | None = None, trainable: bool = True, virtual_batch_size: Any = None,
                 adjustment: Any = None, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(trainable=trainable, name=name, **kwargs)
        if renorm or virtual_batch_size is not None or adjustment is not None:
            raise NotImplementedError("tf.layers.BatchNormalization: renorm=, virtual_batch_size= and adjustment= "
                                      "are not supported by s2sgrad")
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        if not all(isinstance(ax, numbers.Integral) and not isinstance(ax, bool) for ax in self.axis):
            raise TypeError(f"BatchNormalization: axis must be an int or a list of ints, got {axis!r}")
        for what, value in (("momentum", momentum), ("epsilon", epsilon)):
            if not isinstance(value, numbers.Real) or isinstance(value, bool):
                raise TypeError(f"BatchNormalization: {what} must be a float, got {value!r}")
        self.momentum, self.epsilon, self.center, self.scale = momentum, epsilon, center, scale
        self.beta_initializer, self.gamma_initializer = beta_initializer, gamma_initializer
        self.moving_mean_initializer, self.moving_variance_initializer = (moving_mean_initializer,
                                                                          moving_variance_initializer)
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer
        self.beta_constraint, self.gamma_constraint = beta_constraint, gamma_constraint
        self.fused = fused
        self.gamma: Variable | None = None
        self.beta: Variable | None = None

    def build(self, input_shape: TensorShape) -> None:
        dims = TensorShape(input_shape).as_list()
        if dims is None:
            raise ValueError(f"Input has undefined rank. Received: input_shape={input_shape}.")
        ndims = len(dims)
        axes = [ax % ndims if -ndims <= ax < ndims else ax for ax in self.axis]
        for ax in axes:
            if not 0 <= ax < ndims:
                raise ValueError(f"Invalid axis: {ax}")
            if dims[ax] is None:
                raise ValueError(f"Input has undefined `axis` dimension. Received input with shape "
                                 f"{tuple(dims)} and axis={self.axis}")
        if len(set(axes)) != len(axes):
            raise ValueError(f"Duplicate axis: {self.axis}")
        self.axis = axes
        can_fuse = ndims == 4 and axes in ([1], [3])
        if self.fused and not can_fuse:
            raise ValueError("Batch normalization layers with fused=True only support 4D input tensors with axis "
                             "1 or 3.")
        self.fused = can_fuse if self.fused is None else self.fused
        self.input_spec = InputSpec(ndim=ndims, axes={ax: dims[ax] for ax in axes})
        shape = [dims[ax] for ax in axes] if len(axes) == 1 else [d if i in axes else 1 for i, d in enumerate(dims)]
        if self.scale:
            self.gamma = self.add_weight("gamma", shape, initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer, constraint=self.gamma_constraint)
        if self.center:
            self.beta = self.add_weight("beta", shape, initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer, constraint=self.beta_constraint)
        self.moving_mean = self.add_weight("moving_mean", shape, initializer=self.moving_mean_initializer,
                                           trainable=False)
        self.moving_variance = self.add_weight("moving_variance", shape,
                                               initializer=self.moving_variance_initializer, trainable=False)

    def call(self, inputs: Any, training: Any = False, **kwargs: Any) -> Tensor:
        if self.fused:
            outputs, mean, variance = self._fused(inputs, training)
        else:
            outputs, mean, variance = self._composed(inputs, training)
        if training_value(training) is not False:
            self._add_moving_average_updates(training, mean, variance)
        return outputs

    def _fused(self, inputs: Tensor, training: Any) -> tuple[Tensor, Tensor, Tensor]:
        param_shape = self.moving_mean.shape.as_list()
        gamma = self.gamma if self.gamma is not None else a.ones(param_shape, inputs.dtype)
        beta = self.beta if self.beta is not None else a.zeros(param_shape, inputs.dtype)
        data_format = "NCHW" if self.axis == [1] else "NHWC"

        def run(is_training: bool) -> Any:
            return norm.fused_batch_norm(inputs, gamma, beta, self.moving_mean, self.moving_variance,
                                         epsilon=self.epsilon, data_format=data_format, is_training=is_training)
        known = training_value(training)
        if known is not None:
            return run(known)
        trained, inferred = run(True), run(False)
        y, mean, variance = (a.where_v2(training, t, i) for t, i in zip(trained, inferred, strict=True))
        return y, mean, variance

    def _composed(self, inputs: Tensor, training: Any) -> tuple[Tensor, Tensor, Tensor]:
        ndims = len(inputs.shape)
        reduction = [i for i in range(ndims) if i not in self.axis]
        keep = len(self.axis) > 1
        batch_mean, batch_variance = norm.moments(inputs, reduction, keep_dims=keep)
        mean = select_by_training(training, lambda: batch_mean, lambda: self.moving_mean.value())
        variance = select_by_training(training, lambda: batch_variance, lambda: self.moving_variance.value())
        shape: list[Any] = [1] * ndims
        for ax in self.axis:
            shape[ax] = inputs.shape.as_list()[ax]

        def broadcast(v: Any) -> Any:
            needed = v is not None and v.shape.ndims != ndims and reduction != list(range(ndims - 1))
            return a.reshape(v, shape) if needed else v
        outputs = norm.batch_normalization(inputs, broadcast(mean), broadcast(variance), broadcast(self.beta),
                                           broadcast(self.gamma), self.epsilon)
        outputs.set_shape(inputs.shape)
        return outputs, mean, variance

    def _add_moving_average_updates(self, training: Any, mean: Tensor, variance: Tensor) -> None:
        """``var -= (var - value) * (1 - momentum)`` for both moving statistics (no change when a
        run-time ``training`` is false)."""
        known = training_value(training)
        graph = get_default_graph()
        for variable, value in ((self.moving_mean, mean), (self.moving_variance, variance)):
            with graph.name_scope("AssignMovingAvg") as scope:
                decay = convert_to_tensor(1.0 - self.momentum, dtype=variable.dtype, name="decay")
                delta = (variable.value() - m.cast(value, variable.dtype)) * decay
                if known is None:
                    delta = a.where_v2(training, delta, a.zeros_like(delta))
                self.add_update(assign_sub(variable, delta, name=scope))


def batch_normalization(inputs: Any, axis: Any = -1, momentum: float = 0.99, epsilon: float = 1e-3,
                        center: bool = True, scale: bool = True, beta_initializer: Any = ZEROS,
                        gamma_initializer: Any = ONES, moving_mean_initializer: Any = ZEROS,
                        moving_variance_initializer: Any = ONES, beta_regularizer: Any = None,
                        gamma_regularizer: Any = None, beta_constraint: Any = None, gamma_constraint: Any = None,
                        training: Any = False, trainable: bool = True, name: str | None = None, reuse: Any = None,
                        renorm: bool = False, renorm_clipping: Any = None, renorm_momentum: float = 0.99,
                        fused: bool | None = None, virtual_batch_size: Any = None, adjustment: Any = None) -> Tensor:
    """A ``BatchNormalization`` layer applied to ``inputs``; with ``training`` (a bool or a boolean
    tensor) the moving statistics' updates go to ``tf.GraphKeys.UPDATE_OPS``.

    >>> # h = tf.layers.batch_normalization(h, training=is_training)
    >>> # with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)): train = opt.minimize(loss)
    """
    layer = BatchNormalization(axis, momentum, epsilon, center, scale, beta_initializer, gamma_initializer,
                               moving_mean_initializer, moving_variance_initializer, beta_regularizer,
                               gamma_regularizer, beta_constraint, gamma_constraint, renorm, renorm_clipping,
                               renorm_momentum, fused, trainable, virtual_batch_size, adjustment, name,
                               _reuse=reuse, _scope=name)
    return layer(inputs, training=training)
