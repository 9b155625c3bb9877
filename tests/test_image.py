"""tf.image against TensorFlow: values and gradients recorded from TF (tests/data/conv/tf_values.npz),
dtypes, op names and errors. Values against loops and gradients against finite differences are the
op cases of tests/cases_image.py."""
import numpy as np
import pytest

import s2sgrad as tf
from test_conv import recorded, run_recorded


def _weights(y):
    return tf.constant(np.linspace(-1.0, 1.0, int(np.prod(y.shape.as_list()))).reshape(y.shape.as_list()), y.dtype)


def _with_grad(f):
    def build(x):
        y = f(x)
        return [y] + tf.gradients(tf.reduce_sum(y * _weights(y)), [x])
    return build


TF_CASES = {
    "resize_bilinear": _with_grad(lambda x: tf.image.resize_bilinear(x, [7, 3])),
    "resize_bilinear_align": _with_grad(lambda x: tf.image.resize_bilinear(x, [7, 9], align_corners=True)),
    "resize_bilinear_half": _with_grad(lambda x: tf.image.resize_bilinear(x, [3, 8], half_pixel_centers=True)),
    "resize_nearest": _with_grad(lambda x: tf.image.resize_nearest_neighbor(x, [7, 3])),
    "resize_nearest_align": _with_grad(lambda x: tf.image.resize_nearest_neighbor(x, [7, 9], align_corners=True)),
    "resize_nearest_half": _with_grad(lambda x: tf.image.resize_nearest_neighbor(x, [3, 8],
                                                                                 half_pixel_centers=True)),
    "resize_images_bilinear": _with_grad(lambda x: tf.image.resize_images(x, [6, 7])),
    "resize_images_nearest": lambda x: [tf.image.resize_images(x, [6, 7], method=1)],
    "resize_images_3d": lambda x: [tf.image.resize_images(x, [3, 3])],
    "per_image_standardization": _with_grad(tf.image.per_image_standardization),
    "per_image_standardization_constant": lambda x: [tf.image.per_image_standardization(x)],
    "flip_left_right": lambda x: [tf.image.flip_left_right(x)],
    "flip_up_down": lambda x: [tf.image.flip_up_down(x)],
}


@pytest.mark.parametrize("case_id", sorted(TF_CASES))
def test_values_and_gradients_equal_tensorflows(case_id):
    inputs, expected = recorded(case_id)
    got = run_recorded(TF_CASES[case_id], inputs)
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert g.dtype == e.dtype and g.shape == e.shape
        in_float32 = expected[0].dtype == np.float32   # TF computes these in float32, their gradients too
        np.testing.assert_allclose(g, e, rtol=1e-5 if in_float32 else 1e-12, atol=1e-6 if in_float32 else 1e-12,
                                   err_msg=case_id)


# (op name, op type, dtype) as TensorFlow 2.21's tf.compat.v1 gives them
NAMES = [
    (lambda x: tf.image.resize_images(x, [6, 7]), ("resize/ResizeBilinear", "ResizeBilinear", "float32")),
    (lambda x: tf.image.resize_images(x, [6, 7], method=1),
     ("resize/ResizeNearestNeighbor", "ResizeNearestNeighbor", "float64")),
    (lambda x: tf.image.resize_images(x[0], [6, 7]), ("resize/Squeeze", "Squeeze", "float32")),
    (lambda x: tf.image.resize_bilinear(x, [6, 7]), ("ResizeBilinear", "ResizeBilinear", "float32")),
    (lambda x: tf.image.flip_left_right(x), ("flip_left_right/ReverseV2", "ReverseV2", "float64")),
    (lambda x: tf.image.flip_up_down(x[0]), ("flip_up_down/ReverseV2", "ReverseV2", "float64")),
    (tf.image.per_image_standardization, ("per_image_standardization", "RealDiv", "float32")),
]


@pytest.mark.parametrize("build, expected", NAMES)
def test_op_names_types_and_dtypes_are_tensorflows(build, expected):
    with tf.Graph().as_default():
        y = build(tf.placeholder(tf.float64, [2, 4, 5, 3]))
    assert (y.op.name, y.op.type, y.dtype.name) == expected


def test_resize_images_to_the_same_size_returns_the_images():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, [2, 4, 5, 3])
        assert tf.image.resize_images(x, [4, 5]) is x


@pytest.mark.parametrize("build, match", [
    (lambda: tf.image.resize_bilinear(tf.placeholder(tf.float32, [4, 5, 3]), [6, 7]), "must be rank 4"),
    (lambda: tf.image.resize_images(tf.placeholder(tf.float32, [4, 5]), [6, 7]), "either 3 or 4 dimensions"),
    (lambda: tf.image.flip_left_right(tf.placeholder(tf.float32, [4, 5])), "at least three-dimensional"),
    (lambda: tf.image.per_image_standardization(tf.placeholder(tf.float32, [4, 5])), "at least three-dimensional"),
    (lambda: tf.image.resize_bilinear(tf.placeholder(tf.float32, [1, 4, 5, 3]), [6, 7], align_corners=True,
                                      half_pixel_centers=True), "align_corners must be False"),
])
def test_bad_images_raise_value_errors(build, match):
    with tf.Graph().as_default(), pytest.raises(ValueError, match=match):
        build()


def test_uint8_images_resize_to_float32_bilinear_and_keep_their_dtype_nearest():
    images = np.arange(2 * 4 * 5 * 3, dtype=np.uint8).reshape(2, 4, 5, 3)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.uint8, images.shape)
        bilinear, nearest = tf.image.resize_bilinear(x, [8, 10]), tf.image.resize_nearest_neighbor(x, [8, 10])
        with tf.Session() as sess:
            b, n = sess.run([bilinear, nearest], {x: images})
    assert b.dtype == np.float32 and n.dtype == np.uint8
    np.testing.assert_array_equal(n, images.repeat(2, axis=1).repeat(2, axis=2))
    np.testing.assert_array_equal(b[:, ::2, ::2], images)   # 2x up: even outputs sit on the inputs
