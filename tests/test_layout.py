"""A matrix used transposed by several products is transposed once, into a contiguous copy."""
import numpy as np

import s2sgrad as tf


def _rnn(steps):
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((steps, 4, 3))
    x = tf.placeholder(tf.float64, xs.shape, name="x")
    wx = tf.placeholder(tf.float64, [3, 5], name="wx")
    wh = tf.placeholder(tf.float64, [5, 5], name="wh")
    h = tf.zeros([4, 5], tf.float64)
    for t in range(steps):
        h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh))
    loss = tf.reduce_sum(h * h)
    feeds = {x: xs, wx: rng.standard_normal((3, 5)) * 0.5, wh: rng.standard_normal((5, 5)) * 0.5}
    return loss, [wx, wh], feeds


def test_a_shared_transpose_is_made_once_and_contiguous():
    loss, params, feeds = _rnn(4)
    source = tf.source(tf.gradients(loss, params), feed_dict=feeds)
    assert source.count("wh_t = np.ascontiguousarray(wh.T)") == 1
    assert "wh.T" not in source.replace("np.ascontiguousarray(wh.T)", "")
    assert source.count("@ wh_t") == 3          # the three recurrent steps back


def test_a_single_transposed_use_keeps_the_view():
    x = tf.placeholder(tf.float64, [4, 3], name="x")
    w = tf.placeholder(tf.float64, [3, 2], name="w")
    y = tf.reduce_sum(tf.tanh(tf.matmul(x, w)))
    source = tf.source(tf.gradients(y, x), feed_dict={x: np.ones((4, 3)), w: np.ones((3, 2))})
    assert "ascontiguousarray" not in source and "@ w.T" in source


def test_gradients_through_shared_transposes_match_finite_differences():
    loss, params, feeds = _rnn(5)
    from s2sgrad.testing import check_gradients
    check_gradients(loss, params, feeds)
