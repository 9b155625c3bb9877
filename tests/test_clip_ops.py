"""tf.clip_by_value / clip_by_norm / clip_by_average_norm / global_norm / clip_by_global_norm against
TensorFlow (tests/data/train_tf/clipping.json): values, names, None entries, IndexedSlices; the
gradients of the clipped values against finite differences; errors."""
import numpy as np
import pytest

import s2sgrad as tf
from train_tf_data import assert_close, load

RECORDED = load("clipping")
A = np.array([[3.0, -4.0], [1.0, 2.0]], np.float32)
B = np.array([12.0, 0.5, -1.0], np.float32)


def fetches():
    """The recording's fetches, built in its order (so the default op names agree)."""
    a, b = tf.constant(A), tf.constant(B)
    rows = tf.IndexedSlices(tf.constant([[1.0, 2.0], [-2.0, 0.5]]), tf.constant([0, 3]), tf.constant([5, 2]))
    out = {"global_norm": tf.global_norm([a, None, b]), "global_norm_slices": tf.global_norm([rows, a])}
    with_none, _ = tf.clip_by_global_norm([a, None, b], 5.0)
    assert with_none[1] is None
    out.update({
        "clip_by_global_norm": with_none[::2],
        "clip_by_global_norm_norm": tf.clip_by_global_norm([a, b], 5.0)[1],
        "clip_by_global_norm_large": tf.clip_by_global_norm([a, b], 100.0)[0],
        "clip_by_global_norm_use_norm": tf.clip_by_global_norm([a, b], 1.0, use_norm=tf.constant(2.0))[0]})
    clipped_slices = tf.clip_by_global_norm([rows, b], 2.0)[0][0]
    assert isinstance(clipped_slices, tf.IndexedSlices) and clipped_slices.indices is rows.indices
    out["clip_by_global_norm_slices"] = clipped_slices.values
    out.update({"clip_by_norm": tf.clip_by_norm(a, 2.0), "clip_by_norm_axes": tf.clip_by_norm(a, 2.0, axes=[1]),
                "clip_by_norm_negative": tf.clip_by_norm(a, -1.0)})
    by_norm_slices = tf.clip_by_norm(rows, 1.0)
    assert isinstance(by_norm_slices, tf.IndexedSlices) and by_norm_slices.dense_shape is rows.dense_shape
    out.update({"clip_by_norm_slices": by_norm_slices.values, "clip_by_average_norm": tf.clip_by_average_norm(a, 0.5),
                "clip_by_value": tf.clip_by_value(a, -1.0, 2.5),
                "clip_by_value_tensor_bounds": tf.clip_by_value(a, [[-1.0], [1.5]], 2.5)})
    return out


def test_matches_tensorflow():
    got = fetches()
    names = {"global_norm": got["global_norm"].name, "clip_by_global_norm": [t.name for t in got["clip_by_global_norm"]],
             "clip_by_norm": got["clip_by_norm"].name, "clip_by_value": got["clip_by_value"].name,
             "clip_by_average_norm": got["clip_by_average_norm"].name}
    assert names == RECORDED["names"]
    with tf.Session() as sess:
        values = sess.run(got)
    assert set(values) == set(RECORDED) - {"names"}
    for key, value in values.items():
        if isinstance(value, list):
            for g, w in zip(value, RECORDED[key], strict=True):
                assert_close(g, w)
        else:
            assert_close(value, RECORDED[key])


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
