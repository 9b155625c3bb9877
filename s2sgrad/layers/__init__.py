"""``tf.layers`` (and ``tf.compat.v1.layers``): TF-1.x's graph-mode layers, their variables named as
TensorFlow names them (``dense/kernel``, ``batch_normalization/moving_mean``...)."""
from ..tf1_api import missing_names as _missing_names
from .base import InputSpec, Layer
from .convolutional import (
                            Conv1D,
                            Conv2D,
                            Conv2DTranspose,
                            SeparableConv2D,
                            conv1d,
                            conv2d,
                            conv2d_transpose,
                            separable_conv2d,
)
from .core import Dense, Dropout, Flatten, dense, dropout, flatten
from .normalization import BatchNormalization, batch_normalization
from .pooling import (
                            AveragePooling1D,
                            AveragePooling2D,
                            MaxPooling1D,
                            MaxPooling2D,
                            average_pooling1d,
                            average_pooling2d,
                            max_pooling1d,
                            max_pooling2d,
)

__all__ = ["AveragePooling1D", "AveragePooling2D", "BatchNormalization", "Conv1D", "Conv2D", "Conv2DTranspose", "Dense",
           "Dropout", "Flatten", "InputSpec", "Layer", "MaxPooling1D", "MaxPooling2D", "SeparableConv2D",
           "average_pooling1d", "average_pooling2d", "batch_normalization", "conv1d", "conv2d", "conv2d_transpose",
           "dense", "dropout", "flatten", "max_pooling1d", "max_pooling2d", "separable_conv2d"]


__getattr__ = _missing_names("layers", __name__)
