"""``tf.initializers``: the initializers and the variable-initializing ops under TF-1.x's short names.

>>> import s2sgrad as tf
>>> tf.initializers.zeros is tf.zeros_initializer
True
"""
from __future__ import annotations

from .ops.initializers import constant_initializer as constant
from .ops.initializers import glorot_normal_initializer as glorot_normal
from .ops.initializers import glorot_uniform_initializer as glorot_uniform
from .ops.initializers import identity_initializer as identity
from .ops.initializers import ones_initializer as ones
from .ops.initializers import orthogonal_initializer as orthogonal
from .ops.initializers import random_normal_initializer as random_normal
from .ops.initializers import random_uniform_initializer as random_uniform
from .ops.initializers import truncated_normal_initializer as truncated_normal
from .ops.initializers import uniform_unit_scaling_initializer as uniform_unit_scaling
from .ops.initializers import variance_scaling_initializer as variance_scaling
from .ops.initializers import zeros_initializer as zeros
from .ops.variables import global_variables_initializer as global_variables
from .ops.variables import local_variables_initializer as local_variables
from .ops.variables import variables_initializer as variables
from .tf1_api import missing_names as _missing_names

__all__ = ["constant", "global_variables", "glorot_normal", "glorot_uniform", "he_normal", "he_uniform", "identity",
           "lecun_normal", "lecun_uniform", "local_variables", "ones", "orthogonal", "random_normal", "random_uniform",
           "truncated_normal", "uniform_unit_scaling", "variables", "variance_scaling", "zeros"]


def he_normal(seed: int | None = None) -> variance_scaling:
    """He et al.'s initializer: truncated normal with variance ``2 / fan_in``."""
    return variance_scaling(2.0, "fan_in", "truncated_normal", seed)


def he_uniform(seed: int | None = None) -> variance_scaling:
    """Uniform with variance ``2 / fan_in``."""
    return variance_scaling(2.0, "fan_in", "uniform", seed)


def lecun_normal(seed: int | None = None) -> variance_scaling:
    """LeCun's initializer: truncated normal with variance ``1 / fan_in``."""
    return variance_scaling(1.0, "fan_in", "truncated_normal", seed)


def lecun_uniform(seed: int | None = None) -> variance_scaling:
    """Uniform with variance ``1 / fan_in``."""
    return variance_scaling(1.0, "fan_in", "uniform", seed)


__getattr__ = _missing_names("initializers", __name__)
