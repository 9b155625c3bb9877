"""``tf.layers`` (and ``tf.compat.v1.layers``): TF-1.x's graph-mode layers, their variables named as
TensorFlow names them (``dense/kernel``, ``batch_normalization/moving_mean``...)."""
from ..tf1_api import missing_names as _missing_names
from .base import InputSpec, Layer
from .core import Dense, Dropout, Flatten, dense, dropout, flatten
from .normalization import BatchNormalization, batch_normalization


__all__ = ["BatchNormalization", "Dense", "Dropout", "Flatten", "InputSpec", "Layer", "batch_normalization", "dense",
           "dropout", "flatten"]


__getattr__ = _missing_names("layers", __name__)
