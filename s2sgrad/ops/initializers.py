"""Variable initializers: callables ``init(shape, dtype=None, partition_info=None) -> Tensor``."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..shapes import strip_dimensions
from ..ssa.graph import Tensor
from . import array_ops as a
from . import random_ops as rnd
from .convert import constant
from .creation import eye

__all__ = ["zeros_initializer", "ones_initializer", "constant_initializer", "random_normal_initializer",
           "random_uniform_initializer", "truncated_normal_initializer", "glorot_uniform_initializer",
           "glorot_normal_initializer", "variance_scaling_initializer", "uniform_unit_scaling_initializer",
           "orthogonal_initializer", "identity_initializer"]


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
        if not isinstance(scale, (int, float, np.integer, np.floating)) or isinstance(scale, bool):
            raise TypeError(f"variance_scaling_initializer: scale must be a positive float, got {scale!r}")
        if scale <= 0.0:
            raise ValueError("`scale` must be positive float.")
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


class uniform_unit_scaling_initializer(Initializer):
    """Uniform in ``[-l, l]``, ``l = factor * sqrt(3 / n)``, ``n`` the product of all dimensions but the last."""

    def __init__(self, factor: float = 1.0, seed: int | None = None, dtype: Any = _dt.float32) -> None:
        super().__init__(dtype)
        self.factor, self.seed = factor, seed

    def make(self, shape: list, dtype: _dt.DType) -> Tensor:
        limit = math.sqrt(3.0 / max(1.0, float(math.prod(shape[:-1])))) * self.factor
        return rnd.random_uniform(shape, -limit, limit, dtype, self.seed)


class orthogonal_initializer(Initializer):
    """``gain`` times a random orthogonal matrix (the Q of a normal matrix's QR, signs fixed so that
    it is uniformly distributed), reshaped to the variable's shape (at least 2-D: the last dimension
    against all the others).

    s2sgrad has no QR op yet: the matrix is drawn (from the graph and op seeds, as random ops are)
    when the initializer is called and recorded as a constant, so running the initializer again
    gives the same matrix, and seeded values differ from TensorFlow's."""

    def __init__(self, gain: float = 1.0, seed: int | None = None, dtype: Any = _dt.float32) -> None:
        super().__init__(dtype)
        self.gain, self.seed = gain, seed

    def make(self, shape: list, dtype: _dt.DType) -> Tensor:
        if len(shape) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional")
        rows, cols = math.prod(shape[:-1]), shape[-1]
        graph_seed, op_seed = rnd.get_seed(self.seed)
        generator = np.random.default_rng(None if graph_seed is None else [graph_seed % 2**63, op_seed % 2**63])
        q, r = np.linalg.qr(generator.standard_normal((max(rows, cols), min(rows, cols))))
        q = q * np.where(np.diag(r) < 0, -1.0, 1.0)
        matrix = q.T if rows < cols else q
        return constant((self.gain * matrix).reshape(shape), dtype)


class identity_initializer(Initializer):
    """``gain`` times the identity matrix (2-D variables only); TF-1.x's ``tf.initializers.identity``."""

    def __init__(self, gain: float = 1.0, dtype: Any = _dt.float32) -> None:
        super().__init__(dtype)
        self.gain = gain

    def make(self, shape: list, dtype: _dt.DType) -> Tensor:
        if len(shape) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices.")
        return eye(shape[0], shape[1], dtype=dtype) * constant(self.gain, dtype)


def _fans(shape: list) -> tuple[float, float]:
    if not shape:
        return 1.0, 1.0
    if len(shape) == 1:
        return float(shape[0]), float(shape[0])
    receptive = math.prod(shape[:-2]) if len(shape) > 2 else 1
    return float(shape[-2] * receptive), float(shape[-1] * receptive)
