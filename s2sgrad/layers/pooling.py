"""``tf.layers`` pooling: ``MaxPooling1D/2D`` and ``AveragePooling1D/2D`` with their functional forms,
on ``tf.nn.max_pool`` / ``tf.nn.avg_pool`` (1-D inputs get a unit height axis for the pool)."""
from __future__ import annotations

from typing import Any

from ..ops import array_ops as a
from ..ops import pool_ops
from ..ssa.graph import Tensor
from .base import InputSpec, Layer
from .convolutional import normalize_data_format, normalize_padding, normalize_tuple

__all__ = ["MaxPooling1D", "MaxPooling2D", "AveragePooling1D", "AveragePooling2D", "max_pooling1d", "max_pooling2d",
           "average_pooling1d", "average_pooling2d"]


class _Pooling(Layer):
    rank = 2
    pool = staticmethod(pool_ops.max_pool)

    def __init__(self, pool_size: Any, strides: Any, padding: str = "valid", data_format: str = "channels_last",
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(name=name, **kwargs)
        self.pool_size = normalize_tuple(pool_size, self.rank, "pool_size")
        self.strides = normalize_tuple(self.pool_size if strides is None else strides, self.rank, "strides")
        self.padding = normalize_padding(padding)
        self.data_format = normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def call(self, inputs: Any, **kwargs: Any) -> Tensor:
        first = self.data_format == "channels_first"
        if self.rank == 1:  # pool [batch, width, 1, channels] (or [batch, channels, width, 1])
            axis = 3 if first else 2
            pooled = self.pool(a.expand_dims(inputs, axis), *self._windows([*self.pool_size, 1], [*self.strides, 1]),
                               self.padding.upper(), data_format="NCHW" if first else "NHWC")
            return a.squeeze(pooled, [axis])
        return self.pool(inputs, *self._windows(list(self.pool_size), list(self.strides)), self.padding.upper(),
                         data_format="NCHW" if first else "NHWC")

    def _windows(self, size: list[int], strides: list[int]) -> tuple[list[int], list[int]]:
        if self.data_format == "channels_first":
            return [1, 1, *size], [1, 1, *strides]
        return [1, *size, 1], [1, *strides, 1]


class MaxPooling1D(_Pooling):
    """The maximum of each ``pool_size`` window of ``[batch, width, channels]``."""
    rank = 1


class MaxPooling2D(_Pooling):
    """The maximum of each ``pool_size`` window of ``[batch, height, width, channels]``."""
    rank = 2


class AveragePooling1D(_Pooling):
    """The mean of each ``pool_size`` window of ``[batch, width, channels]`` (padding not counted)."""
    rank = 1
    pool = staticmethod(pool_ops.avg_pool)


class AveragePooling2D(_Pooling):
    """The mean of each ``pool_size`` window of ``[batch, height, width, channels]`` (padding not counted)."""
    rank = 2
    pool = staticmethod(pool_ops.avg_pool)


def max_pooling1d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                  data_format: str = "channels_last", name: str | None = None) -> Tensor:
    """``MaxPooling1D`` applied to ``inputs``."""
    return MaxPooling1D(pool_size, strides, padding, data_format, name)(inputs)


def max_pooling2d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                  data_format: str = "channels_last", name: str | None = None) -> Tensor:
    """``MaxPooling2D`` applied to ``inputs``.

    >>> # h = tf.layers.max_pooling2d(h, pool_size=2, strides=2)
    """
    return MaxPooling2D(pool_size, strides, padding, data_format, name)(inputs)


def average_pooling1d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                      data_format: str = "channels_last", name: str | None = None) -> Tensor:
    """``AveragePooling1D`` applied to ``inputs``."""
    return AveragePooling1D(pool_size, strides, padding, data_format, name)(inputs)


def average_pooling2d(inputs: Any, pool_size: Any, strides: Any, padding: str = "valid",
                      data_format: str = "channels_last", name: str | None = None) -> Tensor:
    """``AveragePooling2D`` applied to ``inputs``."""
    return AveragePooling2D(pool_size, strides, padding, data_format, name)(inputs)
