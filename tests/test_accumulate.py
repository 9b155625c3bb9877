"""The accumulate pass: a gradient summed over terms made at different times becomes running sums."""
from __future__ import annotations

import numpy as np

import s2sgrad as tf
from conftest import central_differences, run_peak
from s2sgrad.codegen import stages
from s2sgrad.codegen.accumulate import accumulate

T, B, D, H = 6, 32, 4, 32   # each step's gradient has 1024 elements: an array worth freeing early


def _data(batch=B):
    rng = np.random.default_rng(7)
    return (rng.standard_normal((T, batch, D)), rng.standard_normal((D, H)) * 0.3, rng.standard_normal((H, H)) * 0.2)


def _unrolled(xs, wx, wh):
    """The unrolled tanh RNN in NumPy (float64): the loss at the last state."""
    h = np.zeros((xs.shape[1], H))
    for x in xs:
        h = np.tanh(x @ wx + h @ wh)
    return np.sum(h * h) / 2


def _unrolled_graph(xs, wx0, wh0):
    xp = tf.placeholder(tf.float64, xs.shape)
    wx, wh = tf.Variable(wx0), tf.Variable(wh0)
    h = tf.zeros([xs.shape[1], H], tf.float64)
    for t in range(T):
        h = tf.tanh(tf.matmul(xp[t], wx) + tf.matmul(h, wh))
    loss = tf.reduce_sum(h * h) / 2
    return xp, wx, wh, loss


def _weight_gradients(batch=B):
    """The unrolled RNN's weight gradients: the module text, their values and the data."""
    xs, wx0, wh0 = _data(batch)
    xp, wx, wh, loss = _unrolled_graph(xs, wx0, wh0)
    grads = tf.gradients(loss, [wx, wh])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.source(grads, {xp: xs}), sess.run(grads, {xp: xs}), (xs, wx0, wh0)


def test_unrolled_weight_gradients_are_running_sums_and_match_central_differences():
    source, (g_wx, g_wh), (xs, wx0, wh0) = _weight_gradients()
    assert "add_n" not in source, source
    lines = [line.strip() for line in source.splitlines()]
    running = [line for line in lines if " += " in line]
    assert len(running) == 2 * (T - 2), source   # each weight: a first sum of two terms, then one += per step
    assert all("grad of MatMul" in line for line in running), source
    np.testing.assert_allclose(g_wx, central_differences(lambda w: _unrolled(xs, w, wh0), wx0), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(g_wh, central_differences(lambda w: _unrolled(xs, wx0, w), wh0), rtol=1e-6, atol=1e-6)


def test_each_term_is_added_before_the_next_step_gradient_is_computed():
    body = _weight_gradients()[0].split("def run", 1)[1].splitlines()
    tanh_grads = [i for i, line in enumerate(body) if "# grad of Tanh" in line]
    sums = [i for i, line in enumerate(body) if " += " in line]
    # from the third step back on, both weights get their term before the next step's gradient
    assert len(tanh_grads) == T
    for first, second in zip(tanh_grads[2:], tanh_grads[3:] + [len(body)], strict=True):
        assert sum(first < i < second for i in sums) == 2, "\n".join(body)


def test_a_sum_of_small_arrays_made_from_small_arrays_stays_one_sum():
    # batch 2: each step's gradient has 64 elements, wx's terms 128; wh's terms are 32x32 = 1024 (large)
    source, (g_wx, g_wh), (xs, wx0, wh0) = _weight_gradients(batch=2)
    assert "# sum of gradients of Variable  " in source and "g_variable += " not in source, source
    assert "g_variable_1 += " in source, source
    np.testing.assert_allclose(g_wx, central_differences(lambda w: _unrolled(xs, w, wh0), wx0), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(g_wh, central_differences(lambda w: _unrolled(xs, wx0, w), wh0), rtol=1e-6, atol=1e-6)


def _peak_of_gradient_step() -> int:
    """tracemalloc's peak over one run of the weight gradients of a 20-step unrolled tanh RNN."""
    rng = np.random.default_rng(3)
    steps, batch, width, hidden = 20, 32, 16, 64
    xs = rng.standard_normal((steps, batch, width)).astype(np.float32)
    with tf.Graph().as_default():
        xp = tf.placeholder(tf.float32, xs.shape)
        wx = tf.Variable((rng.standard_normal((width, hidden)) * 0.2).astype(np.float32))
        wh = tf.Variable((rng.standard_normal((hidden, hidden)) * 0.2).astype(np.float32))
        h = tf.zeros([batch, hidden])
        for t in range(steps):
            h = tf.tanh(tf.matmul(xp[t], wx) + tf.matmul(h, wh))
        return run_peak(tf.gradients(tf.reduce_sum(h * h), [wx, wh]), {xp: xs})


def test_running_sums_keep_fewer_arrays_alive_than_one_sum_at_the_end(monkeypatch):
    running = _peak_of_gradient_step()
    monkeypatch.setattr(stages, "PASSES", tuple(p for p in stages.PASSES if p is not accumulate))
    one_sum = _peak_of_gradient_step()
    state = 32 * 64 * 4
    # one sum at the end keeps every step's gradient (20 states) alive until the terms are made from them
    assert running < one_sum - 15 * state, (running, one_sum)


def test_a_fetched_running_sum_is_its_own_array_and_equal_on_every_run():
    xs, wx0, wh0 = _data()
    xp, wx, wh, loss = _unrolled_graph(xs, wx0, wh0)
    (g_wh,) = tf.gradients(loss, [wh])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(g_wh, {xp: xs})
        kept = first.copy()
        second = sess.run(g_wh, {xp: xs})
    assert second is not first
    np.testing.assert_array_equal(first, kept)
    np.testing.assert_array_equal(second, kept)


def test_terms_made_together_stay_one_sum():
    x = tf.placeholder(tf.float64, [3])
    y = tf.sin(x) + tf.cos(x) + tf.exp(x)     # x's three contributions come from one line, one after the other
    (g,) = tf.gradients(tf.reduce_sum(y * y), [x])
    value = np.array([0.1, 0.5, -0.3])
    with tf.Session() as sess:
        source = sess.source(g, {x: value})
        got = sess.run(g, {x: value})
    assert " += " not in source, source

    def f(v):
        s = np.sin(v) + np.cos(v) + np.exp(v)
        return np.sum(s * s)
    np.testing.assert_allclose(got, central_differences(f, value), rtol=1e-6)


def test_a_users_add_n_is_not_split():
    x = tf.placeholder(tf.float64, [2])
    a = tf.sin(x)
    b = tf.matmul(tf.reshape(a, [1, 2]), tf.ones([2, 2], tf.float64))
    c = tf.exp(tf.reduce_sum(b))
    total = tf.add_n([a, tf.reshape(b, [2]), c * tf.ones([2], tf.float64)])
    with tf.Session() as sess:
        source = sess.source(total, {x: [0.2, 0.4]})
        got = sess.run(total, {x: [0.2, 0.4]})
    assert " += " not in source, source
    s = np.sin([0.2, 0.4])
    np.testing.assert_allclose(got, s + s.sum() + np.exp(2 * s.sum()))
