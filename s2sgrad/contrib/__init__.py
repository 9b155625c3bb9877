"""``tf.contrib``: the few TF-1.x contrib names whose implementation s2sgrad has elsewhere.

``tf.contrib.layers``, ``tf.contrib.framework`` and ``tf.contrib.rnn`` hold them; every other contrib
name (``slim``, ``learn``...) is an ``UnsupportedTensorFlowName``.
"""
from ..tf1_api import missing_names as _missing_names
from . import framework, layers, rnn

__all__ = ["framework", "layers", "rnn"]


__getattr__ = _missing_names("contrib", __name__)
