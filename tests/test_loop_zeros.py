"""The loop_zeros pass: a zero gradient a gradient loop carries unchanged is dropped from it."""
from __future__ import annotations

import numpy as np

import s2sgrad as tf
from conftest import central_differences, run_peak
from s2sgrad.codegen import stages
from s2sgrad.codegen.loop_zeros import drop_zero_carries

T, B, D, H = 5, 2, 3, 4


def _data():
    rng = np.random.default_rng(11)
    return rng.standard_normal((T, B, D)), rng.standard_normal((D + H, H)) * 0.5, rng.standard_normal(H) * 0.1


def _rnn_numpy(xs, kernel, bias, use_outputs):
    h = np.zeros((B, H))
    total = 0.0
    for x in xs:
        h = np.tanh(np.concatenate([x, h], 1) @ kernel + bias)
        total += np.sum(np.sin(h)) if use_outputs else 0.0
    return total + np.sum(h * h)


def _rnn_graph(use_outputs):
    x = tf.placeholder(tf.float64, [T, B, D])
    outputs, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicRNNCell(H), x, dtype=tf.float64, time_major=True)
    loss = tf.reduce_sum(state * state)
    if use_outputs:
        loss += tf.reduce_sum(tf.sin(outputs))
    kernel, bias = tf.trainable_variables()
    return x, loss, kernel, bias


def _gradient_and_source(use_outputs):
    xs, kernel0, bias0 = _data()
    x, loss, kernel, bias = _rnn_graph(use_outputs)
    grads = tf.gradients(loss, [kernel, bias])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        kernel.load(kernel0, sess)
        bias.load(bias0, sess)
        return sess.run(grads, {x: xs}), sess.source(grads, {x: xs}), (xs, kernel0, bias0)


def test_final_state_only_the_outputs_gradient_is_never_made():
    (g_kernel, g_bias), source, (xs, kernel0, bias0) = _gradient_and_source(use_outputs=False)
    assert "zeros_like(" not in source, source       # no zeros the size of the whole output sequence
    backward = source.split("for k in reversed(range(trips)):", 1)[1]
    assert " + step" not in backward and "step = " not in backward, source
    np.testing.assert_allclose(g_kernel, central_differences(lambda k: _rnn_numpy(xs, k, bias0, False), kernel0),
                               rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(g_bias, central_differences(lambda b: _rnn_numpy(xs, kernel0, b, False), bias0),
                               rtol=1e-6, atol=1e-9)


def test_used_outputs_keep_their_gradient():
    (g_kernel, g_bias), source, (xs, kernel0, bias0) = _gradient_and_source(use_outputs=True)
    backward = source.split("for k in reversed(range(trips)):", 1)[1]
    assert "step" in backward, source   # each step reads its output's gradient
    np.testing.assert_allclose(g_kernel, central_differences(lambda k: _rnn_numpy(xs, k, bias0, True), kernel0),
                               rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(g_bias, central_differences(lambda b: _rnn_numpy(xs, kernel0, b, True), bias0),
                               rtol=1e-6, atol=1e-9)


def test_the_unread_output_sequence_is_deleted_after_the_forward_loop():
    _, source, _ = _gradient_and_source(use_outputs=False)
    body = source.split("def run", 1)[1].splitlines()
    loop_end = next(i for i, line in enumerate(body) if line.startswith("    for k in"))
    writes = [line.split(" = rt.ta_write(")[0].strip() for line in body if " = rt.ta_write(" in line]
    assert len(writes) == 1, source
    deleted = [name.strip() for line in body[:loop_end] if line.strip().startswith("del ")
               for name in line.strip()[4:].split(",")]
    assert writes[0] in deleted, source


def _peak(steps=40, batch=16, hidden=32) -> int:
    rng = np.random.default_rng(5)
    xs = rng.standard_normal((steps, batch, 8)).astype(np.float32)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, xs.shape)
        _, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(hidden), x, dtype=tf.float32, time_major=True)
        return run_peak(tf.gradients(tf.reduce_sum(state.h), tf.trainable_variables()), {x: xs})


def test_dropping_the_zero_gradient_lowers_the_peak(monkeypatch):
    dropped = _peak()
    monkeypatch.setattr(stages, "PASSES", tuple(p for p in stages.PASSES if p is not drop_zero_carries))
    carried = _peak()
    sequence = 40 * 16 * 32 * 4   # the output sequence's size: its zero gradient was made (and read) whole
    assert dropped < carried - sequence, (dropped, carried)
