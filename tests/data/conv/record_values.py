"""Record TensorFlow's values and gradients for tests/test_conv.py and tests/test_image.py.

Run with the TF venv: /tmp/tfvenv/bin/python tests/data/conv/record_values.py
(writes tests/data/conv/tf_values.npz: for each case its inputs ``<case>/in<i>`` and TF's
outputs ``<case>/out<j>``; the cases are the CASES below, all float64).
"""
import os

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_eager_execution()
R = np.random.default_rng(2014)
TIES = np.floor(R.uniform(0, 3, (2, 5, 6, 3)))     # small integers: many ties in every window
X = R.standard_normal((2, 5, 6, 3))
W = R.standard_normal((3, 3, 3, 4))
DW = R.standard_normal((3, 3, 3, 2))
IMG = R.standard_normal((2, 4, 5, 3))


def _grads(f, xs):
    """f(*xs), and the gradients of sum(f * weights) with fixed weights w.r.t. xs."""
    def build(*ts):
        y = f(*ts)
        weights = tf.constant(np.linspace(-1.0, 1.0, int(np.prod(y.shape.as_list()))).reshape(y.shape.as_list()),
                              y.dtype)
        return [y] + tf.gradients(tf.reduce_sum(y * weights), list(ts))
    return build


CASES = {
    "conv2d_same_s2": (_grads(lambda x, w: tf.nn.conv2d(x, w, [1, 2, 2, 1], "SAME"), 2), [X, W]),
    "conv2d_explicit": (_grads(lambda x, w: tf.nn.conv2d(x, w, 1, [[0, 0], [1, 2], [2, 0], [0, 0]]), 2), [X, W]),
    # TF's CPU Conv2D kernel refuses dilations > 1; tf.nn.convolution computes them (space_to_batch)
    "convolution_dilated": (_grads(lambda x, w: tf.nn.convolution(x, w, "SAME", dilation_rate=[2, 1]), 2), [X, W]),
    "conv2d_transpose": (lambda g, w: [tf.nn.conv2d_transpose(g, w, [2, 5, 6, 3], [1, 2, 2, 1], "SAME")],
                         [R.standard_normal((2, 3, 3, 4)), W]),
    "depthwise_same_s2": (_grads(lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "SAME"), 2), [X, DW]),
    "max_pool_ties": (_grads(lambda x: tf.nn.max_pool(x, 3, [1, 2, 1, 1], "SAME"), 1), [TIES]),
    "max_pool_ties_valid": (_grads(lambda x: tf.nn.max_pool(x, 2, 2, "VALID"), 1), [TIES]),
    "avg_pool_same": (_grads(lambda x: tf.nn.avg_pool(x, 3, 2, "SAME"), 1), [X]),
    "max_pool_argmax_ties": (lambda x: list(tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")),
                             [TIES]),
    "max_pool_argmax_batch": (lambda x: list(tf.nn.max_pool_with_argmax(x, [1, 3, 3, 1], [1, 2, 2, 1], "VALID",
                                                                       include_batch_in_index=True)), [X]),
    "resize_bilinear": (_grads(lambda x: tf.image.resize_bilinear(x, [7, 3]), 1), [IMG]),
    "resize_bilinear_align": (_grads(lambda x: tf.image.resize_bilinear(x, [7, 9], align_corners=True), 1), [IMG]),
    "resize_bilinear_half": (_grads(lambda x: tf.image.resize_bilinear(x, [3, 8], half_pixel_centers=True), 1),
                             [IMG]),
    "resize_nearest": (_grads(lambda x: tf.image.resize_nearest_neighbor(x, [7, 3]), 1), [IMG]),
    "resize_nearest_align": (_grads(lambda x: tf.image.resize_nearest_neighbor(x, [7, 9], align_corners=True), 1),
                             [IMG]),
    "resize_nearest_half": (_grads(lambda x: tf.image.resize_nearest_neighbor(x, [3, 8], half_pixel_centers=True),
                                   1), [IMG]),
    "resize_images_bilinear": (_grads(lambda x: tf.image.resize_images(x, [6, 7]), 1), [IMG]),
    "resize_images_nearest": (lambda x: [tf.image.resize_images(x, [6, 7], method=1)], [IMG]),
    "resize_images_3d": (lambda x: [tf.image.resize_images(x, [3, 3])], [IMG[0]]),
    "per_image_standardization": (_grads(tf.image.per_image_standardization, 1), [IMG]),
    "per_image_standardization_constant": (lambda x: [tf.image.per_image_standardization(x)], [np.ones((3, 4, 2))]),
    "flip_left_right": (lambda x: [tf.image.flip_left_right(x)], [IMG]),
    "flip_up_down": (lambda x: [tf.image.flip_up_down(x)], [IMG[0]]),
}


def main():
    out = {}
    for name, (build, inputs) in CASES.items():
        graph = tf.Graph()
        with graph.as_default():
            holders = [tf.placeholder(tf.float64, v.shape) for v in inputs]
            results = build(*holders)
            with tf.Session() as sess:
                values = sess.run(results, dict(zip(holders, inputs, strict=True)))
        for i, v in enumerate(inputs):
            out[f"{name}/in{i}"] = v
        for j, v in enumerate(values):
            out[f"{name}/out{j}"] = v
    np.savez_compressed(os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_values.npz"), **out)


main()
