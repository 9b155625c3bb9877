"""``tf.image``: resizing, flips and per-image standardization (``tf.image.resize_images(x, [64, 64])``)."""
from .ops.image_ops import (
    ResizeMethod,
    flip_left_right,
    flip_up_down,
    per_image_standardization,
    resize_bilinear,
    resize_images,
    resize_nearest_neighbor,
)
from .tf1_api import missing_names as _missing_names

__all__ = ["ResizeMethod", "flip_left_right", "flip_up_down", "per_image_standardization", "resize_bilinear",
           "resize_images", "resize_nearest_neighbor"]

__getattr__ = _missing_names("image", __name__)
