"""Sums over leading axes that keep short rows (a bias gradient, a batch mean over NHWC images) are
``rt.sum_leading``: NumPy's ``np.sum`` adds such rows one short row at a time, ten times slower."""
import array_api_strict as xp
import numpy as np
import pytest

import s2sgrad as tf
from s2sgrad.codegen import runtime, runtime_xp


@pytest.mark.parametrize("shape, count", [((64, 28, 28, 16), 3), ((97, 7, 3), 1), ((1009, 2), 1), ((3, 5, 256), 2),
                                          ((1, 4), 1), ((0, 6), 1), ((12, 3, 4), 2)])
def test_sum_leading_is_the_sum_over_the_leading_axes(shape, count):
    x = np.random.default_rng(0).standard_normal(shape)
    exact = np.sum(x, axis=tuple(range(count)))
    got = runtime.sum_leading(x, count)
    assert got.shape == exact.shape and got.dtype == x.dtype
    np.testing.assert_allclose(got, exact, rtol=1e-12, atol=1e-12)
    whole = np.round(x * 8)   # small integers: every order of addition gives the same sum
    np.testing.assert_array_equal(runtime.sum_leading(whole, count), np.sum(whole, axis=tuple(range(count))))


def test_sum_leading_is_no_less_accurate_in_float32():
    x = np.random.default_rng(1).uniform(0, 1, (50176, 16)).astype(np.float32)
    exact = np.sum(x.astype(np.float64), axis=0)
    ours = np.abs(runtime.sum_leading(x, 1) - exact).max()
    numpy_error = np.abs(np.sum(x, axis=0) - exact).max()
    assert ours <= numpy_error and ours < 1e-6 * exact.max()


def test_the_array_api_form_sums_the_leading_axes():
    x = np.arange(60.0).reshape(3, 4, 5)
    np.testing.assert_array_equal(np.asarray(runtime_xp.sum_leading(xp.asarray(x), 2)), x.sum((0, 1)))


def _conv_layer():
    rng = np.random.default_rng(2)
    images = tf.placeholder(tf.float32, [64, 28, 28, 1])
    kernel = tf.Variable((rng.standard_normal((3, 3, 1, 16)) * 0.3).astype(np.float32))
    bias = tf.Variable(np.zeros(16, np.float32))
    h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(images, kernel, [1, 1, 1, 1], "SAME"), bias))
    return images, kernel, bias, h, {images: rng.standard_normal((64, 28, 28, 1)).astype(np.float32)}


def test_a_bias_gradient_over_images_is_sum_leading():
    images, kernel, bias, h, feed = _conv_layer()
    g_bias, = tf.gradients(tf.reduce_sum(h * h), [bias])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert "rt.sum_leading(" in sess.source(g_bias, feed)
        conv = sess.run(tf.nn.conv2d(images, kernel, [1, 1, 1, 1], "SAME"), feed).astype(np.float64)
        np.testing.assert_allclose(sess.run(g_bias, feed), np.sum(2 * np.maximum(conv, 0), axis=(0, 1, 2)),
                                   rtol=1e-5)


@pytest.mark.parametrize("reduce", [tf.reduce_sum, tf.reduce_mean])
def test_a_batch_reduction_over_images_is_sum_leading(reduce):
    _, _, _, h, feed = _conv_layer()
    moment = reduce(h, axis=[0, 1, 2])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert "rt.sum_leading(" in sess.source(moment, feed)
        value = sess.run(h, feed).astype(np.float64)
        expected = value.sum((0, 1, 2)) / (1 if reduce is tf.reduce_sum else 64 * 28 * 28)
        got = sess.run(moment, feed)
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, expected, rtol=1e-5)


@pytest.mark.parametrize("shape, axis, keepdims", [((64, 28, 28, 16), [0, 1, 2], True),   # keepdims
                                                   ((64, 28, 28, 16), [1, 2], False),     # not leading
                                                   ((50176, 1), [0], False),              # a column: pairwise
                                                   ((128, 10), [0], False)])              # small
def test_other_reductions_stay_np_sum(shape, axis, keepdims):
    x = tf.placeholder(tf.float32, shape)
    total = tf.reduce_sum(x, axis=axis, keepdims=keepdims)
    feed = {x: np.ones(shape, np.float32)}
    with tf.Session() as sess:
        source = sess.source(total, feed)
        assert "np.sum(" in source and "rt.sum_leading" not in source
        np.testing.assert_array_equal(sess.run(total, feed), np.sum(feed[x], axis=tuple(axis), keepdims=keepdims))
