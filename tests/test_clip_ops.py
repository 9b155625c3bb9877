"""tf.clip_by_value / clip_by_norm / clip_by_average_norm / global_norm / clip_by_global_norm against
TensorFlow (tests/data/train_tf/clipping.json): values, names, None entries, IndexedSlices; the
gradients of the clipped values against finite differences; errors."""
import numpy as np
import pytest

import s2sgrad as tf
from train_programs import clipping
from train_tf_data import assert_matches, load

RECORDED = load("clipping")


def test_matches_tensorflow():
    assert_matches(clipping(tf), RECORDED)


def test_indexed_slices_and_none_entries_keep_their_form():
    a = tf.constant([[3.0, -4.0]])
    rows = tf.IndexedSlices(tf.constant([[1.0, 2.0], [-2.0, 0.5]]), tf.constant([0, 3]), tf.constant([5, 2]))
    (clipped_rows, none, clipped_a), norm = tf.clip_by_global_norm([rows, None, a], 2.0)
    assert isinstance(clipped_rows, tf.IndexedSlices) and clipped_rows.indices is rows.indices
    assert none is None and not isinstance(clipped_a, tf.IndexedSlices)
    by_norm = tf.clip_by_norm(rows, 1.0)
    assert isinstance(by_norm, tf.IndexedSlices) and by_norm.dense_shape is rows.dense_shape
    assert isinstance(tf.clip_by_value(rows, -1.0, 1.0), tf.IndexedSlices)


def test_an_infinite_norm_gives_nan_and_a_zero_tensor_is_kept():
    clipped, norm = tf.clip_by_global_norm([tf.constant([np.inf, 1.0])], 1.0)
    zero = tf.clip_by_norm(tf.zeros([3]), 1.0)
    with tf.Session() as sess:
        c, n, z = sess.run([clipped[0], norm, zero])
    assert n == np.inf and np.isnan(c).all()
    np.testing.assert_array_equal(z, np.zeros(3))


@pytest.mark.parametrize("clip", ["global", "norm", "norm_axes", "average", "value"])
def test_gradients_match_finite_differences(clip):
    x0 = np.array([[0.7, -1.2, 0.4], [2.0, 0.3, -0.9]])
    x = tf.placeholder(tf.float64, [2, 3])
    y = {"global": lambda: tf.clip_by_global_norm([x, 2.0 * x], 1.5)[0][1],
         "norm": lambda: tf.clip_by_norm(x, 1.0),
         "norm_axes": lambda: tf.clip_by_norm(x, 1.0, axes=[1]),
         "average": lambda: tf.clip_by_average_norm(x, tf.constant(0.2, tf.float64)),
         "value": lambda: tf.clip_by_value(x, -1.0, 1.0)}[clip]()
    loss = tf.reduce_sum(y * np.arange(6.0).reshape(2, 3))
    with tf.Session() as sess:
        grad = sess.run(tf.gradients(loss, x)[0], {x: x0})
        numeric = np.zeros_like(x0)
        for i in np.ndindex(*x0.shape):
            step = np.zeros_like(x0)
            step[i] = 1e-6
            numeric[i] = (sess.run(loss, {x: x0 + step}) - sess.run(loss, {x: x0 - step})) / 2e-6
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("call, error, match", [
    (lambda: tf.clip_by_global_norm(tf.constant([1.0]), 1.0), TypeError, "should be a sequence of tensors"),
    (lambda: tf.global_norm("abc"), TypeError, "should be a sequence of tensors"),
    (lambda: tf.global_norm([None]), ValueError, "no tensors"),
    (lambda: tf.global_norm([tf.constant([1.0]), tf.constant([1.0], tf.float64)]), TypeError, "one dtype"),
    (lambda: tf.clip_by_value(tf.constant(1.0), [0.0, 0.5], 2.0), ValueError, "change the shape"),
])
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
