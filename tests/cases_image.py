"""Op cases: tf.image resizes, flips and per_image_standardization, with loop references.

A resize reference walks the output pixels: each one's source position (TF-1.x's rule: ``i * scale``,
``(i + 0.5) * scale - 0.5`` with half-pixel centers, ``scale = (in - 1) / (out - 1)`` with aligned
corners) and its interpolation or nearest pick; a resize gradient reference adds each output
element's gradient back onto the input elements it was made from.
"""
import math

import numpy as np

import s2sgrad as tf
from optable import OpCase

R = np.random.default_rng(41)
IMG = R.standard_normal((2, 4, 5, 3))
G_UP = R.standard_normal((2, 7, 9, 3)).astype(np.float32)


def _scale(n_in, n_out, align):
    return (n_in - 1) / (n_out - 1) if align and n_out > 1 else n_in / n_out


def _bilinear_taps(i, n_in, n_out, align, half):
    """The two source indices of output ``i`` along one axis and their weights."""
    scale = _scale(n_in, n_out, align)
    source = (i + 0.5) * scale - 0.5 if half else i * scale
    low = math.floor(source)
    lerp = source - low
    return [(max(low, 0), 1 - lerp), (min(math.ceil(source), n_in - 1), lerp)]


def _nearest_tap(i, n_in, n_out, align, half):
    scale = _scale(n_in, n_out, align)
    source = (i + 0.5) * scale if half else i * scale
    index = math.floor(source + 0.5) if align else math.floor(source)
    return min(max(index, 0), n_in - 1)


def loop_bilinear(x, size, align=False, half=False):
    out = np.zeros((x.shape[0], *size, x.shape[3]))
    for i in range(size[0]):
        for j in range(size[1]):
            for (r, wr) in _bilinear_taps(i, x.shape[1], size[0], align, half):
                for (c, wc) in _bilinear_taps(j, x.shape[2], size[1], align, half):
                    out[:, i, j] += wr * wc * x[:, r, c]
    return out.astype(np.float32)


def loop_bilinear_grad(x, g, align=False, half=False):
    out = np.zeros(x.shape)
    for i in range(g.shape[1]):
        for j in range(g.shape[2]):
            for (r, wr) in _bilinear_taps(i, x.shape[1], g.shape[1], align, half):
                for (c, wc) in _bilinear_taps(j, x.shape[2], g.shape[2], align, half):
                    out[:, r, c] += wr * wc * g[:, i, j]
    return out


def loop_nearest(x, size, align=False, half=False):
    out = np.zeros((x.shape[0], *size, x.shape[3]), dtype=x.dtype)
    for i in range(size[0]):
        for j in range(size[1]):
            out[:, i, j] = x[:, _nearest_tap(i, x.shape[1], size[0], align, half),
                             _nearest_tap(j, x.shape[2], size[1], align, half)]
    return out


def loop_nearest_grad(x, g, align=False, half=False):
    out = np.zeros(x.shape, dtype=g.dtype)
    for i in range(g.shape[1]):
        for j in range(g.shape[2]):
            out[:, _nearest_tap(i, x.shape[1], g.shape[1], align, half),
                _nearest_tap(j, x.shape[2], g.shape[2], align, half)] += g[:, i, j]
    return out


def standardized(x):
    axes = tuple(range(x.ndim - 3, x.ndim))
    x = x.astype(np.float32).astype(np.float64)
    pixels = np.prod(x.shape[-3:])
    std = np.maximum(x.std(axis=axes, keepdims=True), 1 / np.sqrt(pixels))
    return ((x - x.mean(axis=axes, keepdims=True)) / std).astype(np.float32)


def resize_gradient(resize, size, **kwargs):
    """The resize's gradient op (``d/dx <resize(x), g>``) as the op under test."""
    return lambda x, g: tf.gradients(resize(x, size, **kwargs), x, grad_ys=g)[0]


CASES = [
    OpCase("resize_bilinear_up", lambda x: tf.image.resize_bilinear(x, [7, 9]), [IMG],
           lambda x: loop_bilinear(x, (7, 9)), rtol=1e-5, atol=1e-6),
    OpCase("resize_bilinear_down_align", lambda x: tf.image.resize_bilinear(x, [3, 2], align_corners=True), [IMG],
           lambda x: loop_bilinear(x, (3, 2), align=True), rtol=1e-5, atol=1e-6),
    OpCase("resize_bilinear_half_pixel", lambda x: tf.image.resize_bilinear(x, [7, 3], half_pixel_centers=True),
           [IMG], lambda x: loop_bilinear(x, (7, 3), half=True), rtol=1e-5, atol=1e-6),
    OpCase("resize_nearest_up", lambda x: tf.image.resize_nearest_neighbor(x, [7, 9]), [IMG],
           lambda x: loop_nearest(x, (7, 9))),
    OpCase("resize_nearest_align", lambda x: tf.image.resize_nearest_neighbor(x, [7, 3], align_corners=True), [IMG],
           lambda x: loop_nearest(x, (7, 3), align=True)),
    OpCase("resize_nearest_half_pixel",
           lambda x: tf.image.resize_nearest_neighbor(x, [3, 8], half_pixel_centers=True), [IMG],
           lambda x: loop_nearest(x, (3, 8), half=True)),
    OpCase("resize_images_3d_nearest", lambda x: tf.image.resize_images(x, [6, 2], method=1), [IMG[0]],
           lambda x: loop_nearest(x[None], (6, 2))[0], known_rank=True),
    # in float32, like its gradient input, so finite differences take float32 steps (the op is linear)
    OpCase("resize_bilinear_grad", lambda x, g: tf.cast(resize_gradient(tf.image.resize_bilinear, [7, 9])(x, g),
                                                        tf.float32),
           [IMG, G_UP], lambda x, g: loop_bilinear_grad(x, g).astype(np.float32), grad_inputs=[1], order2=True,
           rtol=1e-5, atol=1e-6),
    OpCase("resize_nearest_grad", resize_gradient(tf.image.resize_nearest_neighbor, [7, 9], half_pixel_centers=True),
           [IMG, G_UP.astype(np.float64)], lambda x, g: loop_nearest_grad(x, g, half=True), grad_inputs=[1],
           order2=True),
    OpCase("flip_left_right", tf.image.flip_left_right, [IMG], lambda x: x[:, :, ::-1], known_rank=True),
    OpCase("flip_up_down_3d", tf.image.flip_up_down, [IMG[0]], lambda x: x[::-1], known_rank=True),
    OpCase("per_image_standardization", tf.image.per_image_standardization, [IMG], standardized,
           rtol=1e-5, atol=1e-6),
]
