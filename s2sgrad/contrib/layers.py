"""``tf.contrib.layers``: the Xavier/variance-scaling initializers and the regularizers, as TF-1.x's contrib
defined them.

Contrib's normal variant is a normal truncated at two standard deviations whose *untruncated*
stddev is ``sqrt(1.3 * factor / n)``; core ``variance_scaling_initializer`` divides by the
truncated normal's stddev (0.8796...) instead, hence the factor below.
"""
from __future__ import annotations

from typing import Any

from .. import dtypes as _dt
from ..ops.initializers import Initializer
from ..ops.initializers import variance_scaling_initializer as _core_variance_scaling
from ..regularizers import apply_regularization, l1_l2_regularizer, l1_regularizer, l2_regularizer, sum_regularizer
from ..tf1_api import missing_names as _missing_names

__all__ = ["variance_scaling_initializer", "xavier_initializer", "xavier_initializer_conv2d", "apply_regularization",
           "l1_l2_regularizer", "l1_regularizer", "l2_regularizer", "sum_regularizer"]

_TRUNCATED_STDDEV = 0.87962566103423978  # stddev of a unit normal truncated at +-2
_MODES = {"FAN_IN": "fan_in", "FAN_OUT": "fan_out", "FAN_AVG": "fan_avg"}


def variance_scaling_initializer(factor: float = 2.0, mode: str = "FAN_IN", uniform: bool = False,
                                 seed: int | None = None, dtype: Any = _dt.float32) -> Initializer:
    """Samples with variance ``factor / n``, ``n`` the fan chosen by ``mode`` (``"FAN_IN"``, ``"FAN_OUT"``,
    ``"FAN_AVG"``): uniform, or truncated normal with stddev ``sqrt(1.3 * factor / n)``."""
    if not isinstance(mode, str) or mode not in _MODES:
        raise TypeError(f"Unknown mode {mode!r}: mode must be one of {sorted(_MODES)}")
    if uniform:
        return _core_variance_scaling(factor, _MODES[mode], "uniform", seed, dtype)
    return _core_variance_scaling(1.3 * factor * _TRUNCATED_STDDEV ** 2, _MODES[mode], "truncated_normal", seed,
                                  dtype)


def xavier_initializer(uniform: bool = True, seed: int | None = None, dtype: Any = _dt.float32) -> Initializer:
    """Glorot's initializer: ``variance_scaling_initializer(1.0, "FAN_AVG", uniform)``."""
    return variance_scaling_initializer(1.0, "FAN_AVG", uniform, seed, dtype)


xavier_initializer_conv2d = xavier_initializer


__getattr__ = _missing_names("contrib.layers", __name__)
