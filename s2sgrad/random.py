"""``tf.random``: random tensors and the graph-level seed under their ``tf.random.*`` names.

>>> import s2sgrad as tf
>>> tf.random.normal is tf.random_normal
True
"""
from .ops.random_ops import random_normal as normal
from .ops.random_ops import random_uniform as uniform
from .ops.random_ops import set_random_seed, truncated_normal
from .tf1_api import missing_names as _missing_names

set_seed = set_random_seed  # TF 2's name, common in code written for both

__all__ = ["normal", "set_random_seed", "set_seed", "truncated_normal", "uniform"]


__getattr__ = _missing_names("random", __name__)
