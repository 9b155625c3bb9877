"""``tf.layers`` convolutions: ``Conv1D``/``conv1d``, ``Conv2D``/``conv2d``, ``Conv2DTranspose``/
``conv2d_transpose`` and ``SeparableConv2D``/``separable_conv2d``, on the ``tf.nn`` ops.

Kernels are ``kernel_size + (in_channels, filters)`` (``(filters, in_channels)`` for the transpose),
biases ``(filters,)``; ``padding`` is ``"valid"`` or ``"same"`` (``"causal"`` too for ``conv1d``),
``data_format`` ``"channels_last"`` or ``"channels_first"``.
"""
from __future__ import annotations

from typing import Any

from ..ops import array_ops as a
from ..ops import conv_ops as conv
from ..ops import layout_ops
from ..ops import nn_ops as nn
from ..shapes import TensorShape
from ..ssa.graph import Tensor
from .base import ZEROS, InputSpec, Layer

__all__ = ["Conv1D", "Conv2D", "Conv2DTranspose", "SeparableConv2D", "conv1d", "conv2d", "conv2d_transpose",
           "separable_conv2d", "normalize_tuple", "normalize_padding", "normalize_data_format"]


def normalize_tuple(value: Any, n: int, name: str) -> tuple[int, ...]:
    """An int repeated ``n`` times, or ``n`` ints, as a tuple (ValueError naming ``name`` otherwise)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,) * n
    message = f"The `{name}` argument must be a tuple of {n} integers. Received: {value}"
    try:
        items = tuple(value)
    except TypeError:
        raise ValueError(message) from None
    if len(items) != n or not all(isinstance(v, int) and not isinstance(v, bool) for v in items):
        raise ValueError(message)
    return items


def normalize_padding(value: Any, allowed: tuple[str, ...] = ("valid", "same")) -> str:
    padding = value.lower() if isinstance(value, str) else None
    if padding not in allowed:
        raise ValueError(f"The `padding` argument must be a list/tuple or one of {', '.join(map(repr, allowed))}. "
                         f"Received: {value}")
    return padding


def normalize_data_format(value: Any) -> str:
    data_format = (value or "channels_last").lower() if isinstance(value, (str, type(None))) else None
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"The `data_format` argument must be one of \"channels_first\", \"channels_last\". "
                         f"Received: {value}")
    return data_format


def deconv_output_length(size: Any, kernel: int, padding: str, stride: int) -> Any:
    """The length a transposed convolution spreads ``size`` (an int or a scalar tensor) out to."""
    return size * stride + (0 if padding == "same" else max(kernel - stride, 0))


class _Conv(Layer):
    """The shared part of the convolution layers: arguments, the kernel/bias weights, bias and activation."""

    rank = 2

    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
                 data_format: str = "channels_last", dilation_rate: Any = 1, activation: Any = None,
                 use_bias: bool = True, kernel_initializer: Any = None, bias_initializer: Any = ZEROS,
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None, trainable: bool = True,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer, **kwargs)
        if not isinstance(filters, int) or filters <= 0:
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly positive value. "
                             f"Received filters={filters}.")
        self.filters = filters
        self.kernel_size = normalize_tuple(kernel_size, self.rank, "kernel_size")
        self.strides = normalize_tuple(strides, self.rank, "strides")
        self.padding = normalize_padding(padding, ("valid", "same", "causal") if self.rank == 1 else ("valid", "same"))
        self.data_format = normalize_data_format(data_format)
        self.dilation_rate = normalize_tuple(dilation_rate, self.rank, "dilation_rate")
        self.activation, self.use_bias = activation, use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint
        self.input_spec = InputSpec(min_ndim=self.rank + 2)
        self.kernel: Any = None
        self.bias: Any = None

    @property
    def channel_axis(self) -> int:
        return 1 if self.data_format == "channels_first" else -1

    @property
    def tf_data_format(self) -> str:
        spatial = {1: "W", 2: "HW", 3: "DHW"}[self.rank]
        return f"NC{spatial}" if self.data_format == "channels_first" else f"N{spatial}C"

    def input_channels(self, input_shape: TensorShape) -> int:
        dims = TensorShape(input_shape).as_list()
        channels = dims[self.channel_axis]
        if channels is None:
            raise ValueError(f"The channel dimension of the inputs should be defined. The input_shape received is "
                             f"{tuple(dims)}, where axis {self.channel_axis} (0-based) is the channel dimension, "
                             f"which found to be `None`.")
        self.input_spec = InputSpec(min_ndim=self.rank + 2, axes={self.channel_axis: channels})
        return channels

    def kernel_shape(self, channels: int) -> list[int]:
        return [*self.kernel_size, channels, self.filters]

    def build(self, input_shape: TensorShape) -> None:
        self.kernel = self.add_weight("kernel", self.kernel_shape(self.input_channels(input_shape)),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.build_bias()

    def build_bias(self) -> None:
        if self.use_bias:
            self.bias = self.add_weight("bias", [self.filters], initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)

    def convolve(self, inputs: Tensor) -> Tensor:
        if self.padding == "causal":
            left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            inputs = layout_ops.pad(inputs, [[0, 0], [left, 0], [0, 0]])
        return conv.convolution(inputs, self.kernel, padding="VALID" if self.padding == "causal" else
                                self.padding.upper(), strides=list(self.strides), dilations=list(self.dilation_rate),
                                data_format=self.tf_data_format, name=type(self).__name__)

    def call(self, inputs: Any, **kwargs: Any) -> Tensor:
        outputs = self.convolve(inputs)
        if self.use_bias:
            if self.rank == 1 and self.data_format == "channels_first":
                outputs = outputs + a.reshape(self.bias, [1, self.filters, 1])
            else:
                outputs = nn.bias_add(outputs, self.bias, data_format=self.tf_data_format)
        return outputs if self.activation is None else self.activation(outputs)


class Conv1D(_Conv):
    """1-D convolution over ``[batch, width, channels]`` (or ``[batch, channels, width]``); ``padding``
    may also be ``"causal"`` (left padding only)."""

    rank = 1


class Conv2D(_Conv):
    """2-D convolution over ``[batch, height, width, channels]`` (or channels first).

    >>> # conv = tf.layers.Conv2D(32, 3, padding="same", activation=tf.nn.relu)
    """

    rank = 2

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                 data_format: str = "channels_last", dilation_rate: Any = (1, 1), activation: Any = None,
                 use_bias: bool = True, kernel_initializer: Any = None, bias_initializer: Any = ZEROS,
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None, trainable: bool = True,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
                         activity_regularizer, kernel_constraint, bias_constraint, trainable, name, **kwargs)


class Conv2DTranspose(Conv2D):
    """The transpose of ``Conv2D`` (upsampling by ``strides``); kernel ``kernel_size + (filters, in_channels)``."""

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                 data_format: str = "channels_last", activation: Any = None, use_bias: bool = True,
                 kernel_initializer: Any = None, bias_initializer: Any = ZEROS,
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None, trainable: bool = True,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(filters, kernel_size, strides, padding, data_format, (1, 1), activation, use_bias,
                         kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
                         activity_regularizer, kernel_constraint, bias_constraint, trainable, name, **kwargs)
        self.input_spec = InputSpec(ndim=4)

    def kernel_shape(self, channels: int) -> list[int]:
        return [*self.kernel_size, self.filters, channels]

    def input_channels(self, input_shape: TensorShape) -> int:
        channels = super().input_channels(input_shape)
        self.input_spec = InputSpec(ndim=4, axes={self.channel_axis: channels})
        return channels

    def convolve(self, inputs: Tensor) -> Tensor:
        h_axis, w_axis = (2, 3) if self.data_format == "channels_first" else (1, 2)
        dims, dynamic = inputs.shape.as_list(), a.shape(inputs)
        spatial = list(zip((h_axis, w_axis), self.kernel_size, self.strides, strict=True))
        sizes = [None if dims[axis] is None else deconv_output_length(dims[axis], k, self.padding, s)
                 for axis, k, s in spatial]
        height, width = (deconv_output_length(dynamic[axis], k, self.padding, s) if size is None else size
                         for (axis, k, s), size in zip(spatial, sizes, strict=True))
        batch = dynamic[0]
        shape = [batch, self.filters, height, width] if h_axis == 2 else [batch, height, width, self.filters]
        strides = [1, 1, *self.strides] if h_axis == 2 else [1, *self.strides, 1]
        outputs = conv.conv2d_transpose(inputs, self.kernel, a.stack(shape), strides, self.padding.upper(),
                                        data_format=self.tf_data_format)
        static = [dims[0], self.filters, *sizes] if h_axis == 2 else [dims[0], *sizes, self.filters]
        outputs.set_shape(static)
        return outputs


class SeparableConv2D(Conv2D):
    """A depthwise convolution (``depth_multiplier`` filters per input channel) then a pointwise
    ``1x1`` one; weights ``depthwise_kernel``, ``pointwise_kernel`` and ``bias``."""

    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                 data_format: str = "channels_last", dilation_rate: Any = (1, 1), depth_multiplier: int = 1,
                 activation: Any = None, use_bias: bool = True, depthwise_initializer: Any = None,
                 pointwise_initializer: Any = None, bias_initializer: Any = ZEROS,
                 depthwise_regularizer: Any = None, pointwise_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, depthwise_constraint: Any = None, pointwise_constraint: Any = None,
                 bias_constraint: Any = None, trainable: bool = True, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                         None, bias_initializer, None, bias_regularizer, activity_regularizer, None,
                         bias_constraint, trainable, name, **kwargs)
        self.depth_multiplier = depth_multiplier
        self.depthwise_initializer, self.pointwise_initializer = depthwise_initializer, pointwise_initializer
        self.depthwise_regularizer, self.pointwise_regularizer = depthwise_regularizer, pointwise_regularizer
        self.depthwise_constraint, self.pointwise_constraint = depthwise_constraint, pointwise_constraint
        self.depthwise_kernel: Any = None
        self.pointwise_kernel: Any = None

    def build(self, input_shape: TensorShape) -> None:
        channels = self.input_channels(input_shape)
        self.depthwise_kernel = self.add_weight("depthwise_kernel", [*self.kernel_size, channels,
                                                                     self.depth_multiplier],
                                                initializer=self.depthwise_initializer,
                                                regularizer=self.depthwise_regularizer,
                                                constraint=self.depthwise_constraint)
        self.pointwise_kernel = self.add_weight("pointwise_kernel", [1, 1, channels * self.depth_multiplier,
                                                                     self.filters],
                                                initializer=self.pointwise_initializer,
                                                regularizer=self.pointwise_regularizer,
                                                constraint=self.pointwise_constraint)
        self.build_bias()

    def convolve(self, inputs: Tensor) -> Tensor:
        strides = [1, 1, *self.strides] if self.data_format == "channels_first" else [1, *self.strides, 1]
        return conv.separable_conv2d(inputs, self.depthwise_kernel, self.pointwise_kernel, strides,
                                     self.padding.upper(), rate=list(self.dilation_rate),
                                     data_format=self.tf_data_format)


def conv1d(inputs: Any, filters: int, kernel_size: Any, strides: Any = 1, padding: str = "valid",
           data_format: str = "channels_last", dilation_rate: Any = 1, activation: Any = None, use_bias: bool = True,
           kernel_initializer: Any = None, bias_initializer: Any = ZEROS, kernel_regularizer: Any = None,
           bias_regularizer: Any = None, activity_regularizer: Any = None, kernel_constraint: Any = None,
           bias_constraint: Any = None, trainable: bool = True, name: str | None = None, reuse: Any = None) -> Tensor:
    """A ``Conv1D`` layer applied to ``inputs`` (variables ``conv1d/kernel``, ``conv1d/bias``)."""
    return Conv1D(filters, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                  kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer, activity_regularizer,
                  kernel_constraint, bias_constraint, trainable, name, _reuse=reuse, _scope=name)(inputs)


def conv2d(inputs: Any, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
           data_format: str = "channels_last", dilation_rate: Any = (1, 1), activation: Any = None,
           use_bias: bool = True, kernel_initializer: Any = None, bias_initializer: Any = ZEROS,
           kernel_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
           kernel_constraint: Any = None, bias_constraint: Any = None, trainable: bool = True,
           name: str | None = None, reuse: Any = None) -> Tensor:
    """A ``Conv2D`` layer applied to ``inputs`` (variables ``conv2d/kernel``, ``conv2d/bias``).

    >>> # h = tf.layers.conv2d(images, 32, [5, 5], padding="same", activation=tf.nn.relu)
    """
    return Conv2D(filters, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                  kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer, activity_regularizer,
                  kernel_constraint, bias_constraint, trainable, name, _reuse=reuse, _scope=name)(inputs)


def conv2d_transpose(inputs: Any, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                     data_format: str = "channels_last", activation: Any = None, use_bias: bool = True,
                     kernel_initializer: Any = None, bias_initializer: Any = ZEROS,
                     kernel_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                     kernel_constraint: Any = None, bias_constraint: Any = None, trainable: bool = True,
                     name: str | None = None, reuse: Any = None) -> Tensor:
    """A ``Conv2DTranspose`` layer applied to ``inputs``."""
    return Conv2DTranspose(filters, kernel_size, strides, padding, data_format, activation, use_bias,
                           kernel_initializer, bias_initializer, kernel_regularizer, bias_regularizer,
                           activity_regularizer, kernel_constraint, bias_constraint, trainable, name, _reuse=reuse,
                           _scope=name)(inputs)


def separable_conv2d(inputs: Any, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                     data_format: str = "channels_last", dilation_rate: Any = (1, 1), depth_multiplier: int = 1,
                     activation: Any = None, use_bias: bool = True, depthwise_initializer: Any = None,
                     pointwise_initializer: Any = None, bias_initializer: Any = ZEROS,
                     depthwise_regularizer: Any = None, pointwise_regularizer: Any = None,
                     bias_regularizer: Any = None, activity_regularizer: Any = None, depthwise_constraint: Any = None,
                     pointwise_constraint: Any = None, bias_constraint: Any = None, trainable: bool = True,
                     name: str | None = None, reuse: Any = None) -> Tensor:
    """A ``SeparableConv2D`` layer applied to ``inputs``."""
    return SeparableConv2D(filters, kernel_size, strides, padding, data_format, dilation_rate, depth_multiplier,
                           activation, use_bias, depthwise_initializer, pointwise_initializer, bias_initializer,
                           depthwise_regularizer, pointwise_regularizer, bias_regularizer, activity_regularizer,
                           depthwise_constraint, pointwise_constraint, bias_constraint, trainable, name,
                           _reuse=reuse, _scope=name)(inputs)
