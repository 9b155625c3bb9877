"""``tf.image``: resizing (TF-1.x's ResizeBilinear / ResizeNearestNeighbor semantics), flips and
per-image standardization.

The resizes are primitives (``primitives/conv.py``) with TF's ``align_corners`` and
``half_pixel_centers`` (both False by default, as in TF 1.x); the flips are ``reverse`` and the
standardization a composition, as in TensorFlow.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..primitives import conv as P
from ..primitives.core import Primitive
from ..ssa.graph import Tensor
from . import array_ops as a
from . import layout_ops
from . import math_ops as m
from . import reduce_ops as r
from .convert import convert_to_tensor, graph_of, record1

__all__ = ["ResizeMethod", "resize_images", "resize_bilinear", "resize_nearest_neighbor", "flip_left_right",
           "flip_up_down", "per_image_standardization"]


class ResizeMethod:
    """``tf.image.ResizeMethod`` (TF 1.x's integer codes)."""

    BILINEAR = 0
    NEAREST_NEIGHBOR = 1
    BICUBIC = 2
    AREA = 3


def _resize(prim: Primitive, images: Any, size: Any, align_corners: bool, half_pixel_centers: bool,
            name: str | None) -> Tensor:
    if align_corners and half_pixel_centers:
        raise ValueError("If half_pixel_centers is True, align_corners must be False.")
    x = convert_to_tensor(images)
    with graph_of([x]).as_default():
        attrs = {"align_corners": bool(align_corners), "half_pixel_centers": bool(half_pixel_centers)}
        return record1(prim, [x, a.int_tensor(size, "size")], attrs, name or prim.name)


def resize_bilinear(images: Any, size: Any, align_corners: bool = False, name: str | None = None,
                    half_pixel_centers: bool = False) -> Tensor:
    """Bilinear resize of NHWC ``images`` to ``size`` = ``[height, width]``; the result is float32.

    >>> # small = tf.image.resize_bilinear(images, [14, 14])
    """
    return _resize(P.RESIZE_BILINEAR, images, size, align_corners, half_pixel_centers, name)


def resize_nearest_neighbor(images: Any, size: Any, align_corners: bool = False, name: str | None = None,
                            half_pixel_centers: bool = False) -> Tensor:
    """Nearest-neighbour resize of NHWC ``images`` to ``size`` = ``[height, width]`` (same dtype).

    >>> # big = tf.image.resize_nearest_neighbor(images, [56, 56])
    """
    return _resize(P.RESIZE_NEAREST_NEIGHBOR, images, size, align_corners, half_pixel_centers, name)


_RESIZERS = {ResizeMethod.BILINEAR: resize_bilinear, ResizeMethod.NEAREST_NEIGHBOR: resize_nearest_neighbor}


def resize_images(images: Any, size: Any, method: int = ResizeMethod.BILINEAR, align_corners: bool = False,
                  preserve_aspect_ratio: bool = False, name: str | None = None) -> Tensor:
    """TF-1.x ``resize_images``: a 3-D image or a 4-D batch, by ``method`` (bilinear or nearest);
    a static size equal to the input's returns the images unchanged, as TF does.

    >>> # images = tf.image.resize_images(images, [64, 64])
    """
    resizer = _RESIZERS.get(method)
    if resizer is None:
        raise NotImplementedError(f"resize_images: method {method} is not supported (BILINEAR or NEAREST_NEIGHBOR)")
    if preserve_aspect_ratio:
        raise NotImplementedError("resize_images: preserve_aspect_ratio=True is not supported")
    x = convert_to_tensor(images)
    rank = x.shape.rank
    if rank not in (3, 4):
        raise ValueError(f"'images' must have either 3 or 4 dimensions (got shape {x.shape}).")
    graph = graph_of([x])
    with graph.as_default(), graph.name_scope(name or "resize"):
        batch = x if rank == 4 else a.expand_dims(x, 0)
        target = a.static_ints(size, "size") if not isinstance(size, Tensor) else None
        if target is not None and list((batch.shape.sizes or ())[1:3]) == target:
            return x
        out = resizer(batch, size, align_corners=align_corners)
        return out if rank == 4 else a.squeeze(out, [0])


def _image_axis(image: Any, axis_of_3d: int, function: str) -> tuple[Tensor, int]:
    x = convert_to_tensor(image, name="image")
    rank = x.shape.rank
    if rank not in (3, 4):
        raise ValueError(f"'image' (shape {x.shape}) must be at least three-dimensional ({function} takes 3 or 4).")
    return x, axis_of_3d + (rank - 3)


def flip_left_right(image: Any) -> Tensor:
    """``image`` (HWC or NHWC) mirrored along its width.

    >>> # mirrored = tf.image.flip_left_right(images)
    """
    graph = graph_of([image])
    with graph.as_default(), graph.name_scope("flip_left_right"):
        x, axis = _image_axis(image, 1, "flip_left_right")
        return layout_ops.reverse(x, [axis])


def flip_up_down(image: Any) -> Tensor:
    """``image`` (HWC or NHWC) mirrored along its height.

    >>> # upside_down = tf.image.flip_up_down(images)
    """
    graph = graph_of([image])
    with graph.as_default(), graph.name_scope("flip_up_down"):
        x, axis = _image_axis(image, 0, "flip_up_down")
        return layout_ops.reverse(x, [axis])


def per_image_standardization(image: Any) -> Tensor:
    """Each image (HWC, or each of NHWC) minus its mean, over ``max(stddev, 1 / sqrt(pixels))``,
    in float32 as TF.

    >>> # inputs = tf.image.per_image_standardization(images)
    """
    graph = graph_of([image])
    with graph.as_default(), graph.name_scope("per_image_standardization") as scope:
        x = convert_to_tensor(image, name="image")
        if x.shape.rank is not None and x.shape.rank < 3:
            raise ValueError(f"'image' (shape {x.shape}) must be at least three-dimensional.")
        x = m.cast(x, _dt.float32)
        axes = [-1, -2, -3]
        mean = r.reduce_mean(x, axes, keepdims=True)
        pixels = _pixels_per_image(x, axes)
        stddev = r.reduce_std(x, axes, keepdims=True)
        adjusted = m.maximum(stddev, m.rsqrt(pixels))
        return m.divide(m.subtract(x, mean), adjusted, name=scope)


def _pixels_per_image(x: Tensor, axes: list[int]) -> Any:
    """The number of elements of each image: a Python float when the shape is known."""
    sizes = x.shape.sizes
    if sizes is not None and None not in sizes[-3:]:
        return float(np.prod([d or 0 for d in sizes[-3:]]))
    return r.reduce_sum(a.ones_like(x), axes, keepdims=True)
