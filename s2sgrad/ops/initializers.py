"""Variable initializers: callables ``init(shape, dtype=None, partition_info=None) -> Tensor``."""
from __future__ import annotations

import math
from typing import Any

from .. import dtypes as _dt
from ..shapes import strip_dimensions
from ..ssa.graph import Tensor
from . import array_ops as a
from . import random_ops as rnd
from .convert import constant

__all__ = ["zeros_initializer", "ones_initializer", "constant_initializer", "random_normal_initializer",
           "random_uniform_initializer", "truncated_normal_initializer", "glorot_uniform_initializer",
           "glorot_normal_initializer", "variance_scaling_initializer"]


class Initializer:
    """Base class: ``dtype`` is the default for calls that do not pass one."""

    def __init__(self, dtype: Any = _dt.float32) -> None:
        self.dtype = _dt.as_dtype(dtype)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Tensor:
        return self.make(list(strip_dimensions(shape)), _dt.as_dtype(dtype) if dtype is not None else self.dtype)

    def make(self, shape: list, dtype: _dt.DType) -> Tensor:
        raise NotImplementedError


class zeros_initializer(Initializer):  # TF's public name
    """Zeros.

    >>> # b = tf.get_variable("b", [10], initializer=tf.zeros_initializer())
    """

    def make(self, shape: list, dtype: _dt.DType) -> Tensor:
        return a.zeros(shape, dtype)


class ones_initializer(Initializer):
    """Ones."""

    def make(self, shape: list, dtype: _dt.DType) -> Tensor:
        return a.ones(shape, dtype)


class constant_initializer(Initializer):
    """``value`` everywhere (a scalar), or ``value`` reshaped to the variable's shape.

    >>> # tf.get_variable("b", [3], initializer=tf.constant_initializer(0.1))
    """

    def __init__(self, value: Any = 0, dtype: Any = _dt.float32, verify_shape: bool = False) -> None:
        super().__init__(dtype)
        self.value = value

    def make(self, shape: list, dtype: _dt.DType) -> Tensor:
        return constant(self.value, dtype, shape=shape)


class random_normal_initializer(Initializer):
    """Normal samples with ``mean`` and ``stddev``.

    >>> # tf.get_variable("w", [784, 10], initializer=tf.random_normal_initializer(stddev=0.01))
    """

    def __init__(self, mean: float = 0.0, stddev: float = 1.0, seed: int | None = None,
                 dtype: Any = _dt.float32) -> None:
        super().__init__(dtype)
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def make(self, shape: list, dtype: _dt.DType) -> Tensor:
        return rnd.random_normal(shape, self.mean, self.stddev, dtype, self.seed)


class truncated_normal_initializer(random_normal_initializer):
    """Normal samples with ``mean`` and ``stddev``, redrawn when more than two stddevs out."""

    def make(self, shape: list, dtype: _dt.DType) -> Tensor:
        return rnd.truncated_normal(shape, self.mean, self.stddev, dtype, self.seed)


class random_uniform_initializer(Initializer):
    """Uniform samples in ``[minval, maxval)`` (``maxval`` None: 1 for floats, as TF-1.x's default ``[0, 1)``)."""

    def __init__(self, minval: float = 0.0, maxval: float | None = None, seed: int | None = None,
                 dtype: Any = _dt.float32) -> None:
        super().__init__(dtype)
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def make(self, shape: list, dtype: _dt.DType) -> Tensor:
        return rnd.random_uniform(shape, self.minval, self.maxval, dtype, self.seed)


class variance_scaling_initializer(Initializer):
    """Samples scaled by ``scale / fan`` (fan_in, fan_out or their mean), as TF's."""

    def __init__(self, scale: float = 1.0, mode: str = "fan_in", distribution: str = "truncated_normal",
                 seed: int | None = None, dtype: Any = _dt.float32) -> None:
        super().__init__(dtype)
        if not isinstance(mode, str) or mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"Invalid `mode` argument: {mode!r}")
        if not isinstance(distribution, str) or distribution not in ("normal", "truncated_normal",
                                                                    "untruncated_normal", "uniform"):
            raise ValueError(f"Invalid `distribution` argument: {distribution!r}")
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed

    def make(self, shape: list, dtype: _dt.DType) -> Tensor:
        fan_in, fan_out = _fans(shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        scale = self.scale / max(1.0, fan)
        if self.distribution == "uniform":
            limit = math.sqrt(3.0 * scale)
            return rnd.random_uniform(shape, -limit, limit, dtype, self.seed)
        if self.distribution == "untruncated_normal":
            return rnd.random_normal(shape, 0.0, math.sqrt(scale), dtype, self.seed)
        return rnd.truncated_normal(shape, 0.0, math.sqrt(scale) / 0.87962566103423978, dtype, self.seed)


def glorot_uniform_initializer(seed: int | None = None, dtype: Any = _dt.float32) -> Initializer:
    """Uniform in ``[-l, l]``, ``l = sqrt(6 / (fan_in + fan_out))`` (``get_variable``'s default).

    >>> # tf.get_variable("w", [784, 10], initializer=tf.glorot_uniform_initializer(seed=1))
    """
    return variance_scaling_initializer(1.0, "fan_avg", "uniform", seed, dtype)


def glorot_normal_initializer(seed: int | None = None, dtype: Any = _dt.float32) -> Initializer:
    """Truncated normal with stddev ``sqrt(2 / (fan_in + fan_out))``."""
    return variance_scaling_initializer(1.0, "fan_avg", "truncated_normal", seed, dtype)


def _fans(shape: list) -> tuple[float, float]:
    if not shape:
        return 1.0, 1.0
    if len(shape) == 1:
        return float(shape[0]), float(shape[0])
    receptive = math.prod(shape[:-2]) if len(shape) > 2 else 1
    return float(shape[-2] * receptive), float(shape[-1] * receptive)
