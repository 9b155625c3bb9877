"""``tf.contrib``: the few TF-1.x contrib names whose implementation s2sgrad has elsewhere.

``tf.contrib.layers`` and ``tf.contrib.framework`` hold them; every other contrib name (and
``tf.contrib.rnn``, ``slim``, ``learn``...) is an ``UnsupportedTensorFlowName``.
"""
from ..tf1_api import missing_names as _missing_names
from . import framework, layers

__all__ = ["framework", "layers"]


__getattr__ = _missing_names("contrib", __name__)
