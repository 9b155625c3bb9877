"""Runtime helpers of the image-resizing primitives: TF-1.x's ResizeBilinear and ResizeNearestNeighbor
(NHWC) and their gradients (``rt.resize_bilinear``...).

NumPy only, like ``runtime.py`` (which re-exports them, so generated code calls ``rt.<name>``, and
``s2sgrad.export`` copies their source).
"""
from __future__ import annotations

import numpy as np

__all__ = ["resize_bilinear", "resize_bilinear_grad", "resize_nearest", "resize_nearest_grad"]


def _resize_scale(in_size, out_size, align_corners):
    if align_corners and out_size > 1:
        return np.float32(in_size - 1) / np.float32(out_size - 1)
    return np.float32(in_size) / np.float32(out_size)


def _bilinear_weights(out_size, in_size, align_corners, half_pixel_centers):
    """The ``(out, in)`` interpolation matrix along one axis (TF's float32 source positions)."""
    scale = _resize_scale(in_size, out_size, align_corners)
    i = np.arange(out_size, dtype=np.float32)
    source = (i + np.float32(0.5)) * scale - np.float32(0.5) if half_pixel_centers else i * scale
    below = np.floor(source)
    lerp = source - below
    rows = np.arange(out_size)
    weights = np.zeros((out_size, in_size), dtype=np.float32)
    np.add.at(weights, (rows, np.maximum(below, 0).astype(np.int64)), 1 - lerp)
    np.add.at(weights, (rows, np.minimum(np.ceil(source), in_size - 1).astype(np.int64)), lerp)
    return weights


def resize_bilinear(images, size, align_corners=False, half_pixel_centers=False):
    """Bilinear resize of ``images`` to ``size`` (height, width), in float32 as TF."""
    rows = _bilinear_weights(int(size[0]), images.shape[1], align_corners, half_pixel_centers)
    columns = _bilinear_weights(int(size[1]), images.shape[2], align_corners, half_pixel_centers)
    return np.einsum("yh,nhwc,xw->nyxc", rows, images.astype(np.float32), columns, optimize=True)


def resize_bilinear_grad(grads, original, align_corners=False, half_pixel_centers=False):
    """The gradient of ``resize_bilinear`` with respect to ``original`` (in its dtype)."""
    rows = _bilinear_weights(grads.shape[1], original.shape[1], align_corners, half_pixel_centers)
    columns = _bilinear_weights(grads.shape[2], original.shape[2], align_corners, half_pixel_centers)
    return np.einsum("yh,nyxc,xw->nhwc", rows, grads, columns, optimize=True).astype(original.dtype)


def _nearest_index(out_size, in_size, align_corners, half_pixel_centers):
    """The input index each output row/column copies along one axis (TF's rounding)."""
    scale = _resize_scale(in_size, out_size, align_corners)
    i = np.arange(out_size, dtype=np.float32)
    source = (i + np.float32(0.5)) * scale if half_pixel_centers else i * scale
    below = np.floor(source)
    index = below + (source - below >= 0.5) if align_corners else below   # roundf: halves away from 0
    return np.clip(index.astype(np.int64), 0, in_size - 1)


def resize_nearest(images, size, align_corners=False, half_pixel_centers=False):
    """Nearest-neighbour resize of ``images`` to ``size`` (height, width)."""
    rows = _nearest_index(int(size[0]), images.shape[1], align_corners, half_pixel_centers)
    columns = _nearest_index(int(size[1]), images.shape[2], align_corners, half_pixel_centers)
    return images[:, rows][:, :, columns]


def resize_nearest_grad(grads, size, align_corners=False, half_pixel_centers=False):
    """The gradient of ``resize_nearest`` with respect to its input of spatial ``size``: each
    output element added to the element it copies."""
    height, width = int(size[0]), int(size[1])
    rows = _nearest_index(grads.shape[1], height, align_corners, half_pixel_centers)
    columns = _nearest_index(grads.shape[2], width, align_corners, half_pixel_centers)
    pick_rows = (rows[:, None] == np.arange(height)).astype(grads.dtype)
    pick_columns = (columns[:, None] == np.arange(width)).astype(grads.dtype)
    return np.einsum("yh,nyxc,xw->nhwc", pick_rows, grads, pick_columns, optimize=True)
