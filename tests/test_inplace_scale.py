"""The scale_in_place pass: a dying gradient the module made is scaled in its own array (``g *= lr``),
and never a gradient anything else can see: a feed, a variable's value, a view of one, a fetched
gradient, one another update reads too."""
from __future__ import annotations

import numpy as np

import s2sgrad as tf
from conftest import central_differences, run_peak
from s2sgrad.codegen import stages
from s2sgrad.codegen.inplace import scale_in_place

N = 64   # 64 x 64 weights: gradients of 4096 elements, worth scaling in place


def _data():
    rng = np.random.default_rng(5)
    return rng.standard_normal((16, N)), rng.standard_normal((N, N)) * 0.1


def _loss(x, w):
    return np.sum(np.tanh(x @ w) ** 2)


def _graph():
    """The data, then ``x``, ``w`` and the loss ``_loss`` in the graph."""
    xs, w0 = _data()
    x = tf.placeholder(tf.float64, xs.shape, name="x")
    w = tf.Variable(w0, name="w")
    return xs, w0, x, w, tf.reduce_sum(tf.square(tf.tanh(tf.matmul(x, w))))


def test_a_gradient_descent_step_scales_the_gradient_in_place_and_steps_as_by_hand():
    xs, w0, x, w, loss = _graph()
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    with tf.Session() as sess:
        sess.run(w.initializer)
        source = sess.source(train, {x: xs})
        sess.run(train, {x: xs})
        stepped = sess.run(w)
    lines = [line.split("#")[0].strip() for line in source.splitlines()]
    assert "g_w *= 0.5" in lines and "new_w = w - g_w" in lines, source
    np.testing.assert_allclose(stepped, w0 - 0.5 * central_differences(lambda v: _loss(xs, v), w0), atol=1e-6)


def test_a_fed_gradient_is_not_scaled_in_place():
    # d/dw sum(w * x) is x itself: the fed array, which the step must leave as it was
    xs = np.arange(N * N, dtype=np.float64).reshape(N, N)
    fed = xs.copy()
    x = tf.placeholder(tf.float64, [N, N], name="x")
    w = tf.Variable(np.zeros((N, N)), name="w")
    train = tf.train.GradientDescentOptimizer(0.5).minimize(tf.reduce_sum(w * x))
    with tf.Session() as sess:
        sess.run(w.initializer)
        for _ in range(2):
            sess.run(train, {x: fed})
        np.testing.assert_array_equal(fed, xs)
        np.testing.assert_array_equal(sess.run(w), -xs)
        assert " *= " not in sess.source(train, {x: fed})


def test_a_view_of_a_feed_or_another_variable_is_not_scaled_in_place():
    # the gradients are x's transpose (a view of the fed array) and v itself (a variable's value)
    xs = np.arange(N * N, dtype=np.float64).reshape(N, N)
    fed = xs.copy()
    x = tf.placeholder(tf.float64, [N, N], name="x")
    w, u = tf.Variable(np.zeros((N, N)), name="w"), tf.Variable(np.zeros((N, N)), name="u")
    v = tf.Variable(np.ones((N, N)), name="v")
    loss = tf.reduce_sum(tf.transpose(w) * x) + tf.reduce_sum(u * v)
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss, var_list=[w, u])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(2):
            sess.run(train, {x: fed})
        np.testing.assert_array_equal(fed, xs)
        np.testing.assert_array_equal(sess.run(v), np.ones((N, N)))
        np.testing.assert_array_equal(sess.run(w), -xs.T)
        np.testing.assert_array_equal(sess.run(u), -np.ones((N, N)))
        assert " *= " not in sess.source(train, {x: fed})


def test_a_fetched_gradient_is_the_gradient_unscaled():
    xs, w0, x, w, loss = _graph()
    opt = tf.train.GradientDescentOptimizer(0.5)
    ((g, _),) = opt.compute_gradients(loss, [w])
    train = opt.apply_gradients([(g, w)])
    with tf.Session() as sess:
        sess.run(w.initializer)
        _, got = sess.run([train, g], {x: xs})
        assert " *= " not in sess.source([train, g], {x: xs})
        np.testing.assert_allclose(sess.run(w), w0 - 0.5 * got, atol=1e-12)
    np.testing.assert_allclose(got, central_differences(lambda v: _loss(xs, v), w0), atol=1e-6)


def test_two_updates_reading_one_gradient_each_get_it_unscaled():
    xs, w0, x, w, loss = _graph()
    w2 = tf.Variable(w0, name="w2")
    ((g, _),) = tf.train.GradientDescentOptimizer(0.5).compute_gradients(loss, [w])
    train = tf.group(tf.train.GradientDescentOptimizer(0.5).apply_gradients([(g, w)]),
                     tf.train.GradientDescentOptimizer(0.25).apply_gradients([(g, w2)]))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {x: xs})
        expected = central_differences(lambda v: _loss(xs, v), w0)
        np.testing.assert_allclose(sess.run(w), w0 - 0.5 * expected, atol=1e-6)
        np.testing.assert_allclose(sess.run(w2), w0 - 0.25 * expected, atol=1e-6)


def test_scaling_in_place_lowers_the_peak_of_a_step_by_a_gradient(monkeypatch):
    rng = np.random.default_rng(2)
    xs = rng.standard_normal((8, 256)).astype(np.float32)

    def peak():
        with tf.Graph().as_default():
            x = tf.placeholder(tf.float32, xs.shape)
            w = tf.Variable((rng.standard_normal((256, 256)) * 0.05).astype(np.float32))
            loss = tf.reduce_sum(tf.tanh(tf.matmul(x, w)))
            return run_peak(tf.train.GradientDescentOptimizer(0.1).minimize(loss), {x: xs})
    in_place = peak()
    monkeypatch.setattr(stages, "PASSES", tuple(p for p in stages.PASSES if p is not scale_in_place))
    assert in_place < peak() - 0.9 * 256 * 256 * 4
