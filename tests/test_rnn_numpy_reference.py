"""The cells, static_rnn and dynamic_rnn against a NumPy implementation written here from the
cells' equations; gradients against finite differences in float64."""
import numpy as np
import pytest

import rnn_programs as rp
import s2sgrad as tf
from s2sgrad.testing import check_gradients

rc = tf.nn.rnn_cell


def sigmoid(z):
    return 1 / (1 + np.exp(-z))


def np_basic_rnn(w, scope, act=np.tanh):
    k, b = w[f"{scope}/kernel"], w[f"{scope}/bias"]

    def step(x, h):
        h = act(np.concatenate([x, h], 1) @ k + b)
        return h, h
    return step


def np_lstm(w, scope, forget_bias=1.0, peepholes=False, cell_clip=None, proj=False, proj_clip=None):
    k, b = w[f"{scope}/kernel"], w[f"{scope}/bias"]

    def step(x, state):
        c, h = state
        i, j, f, o = np.split(np.concatenate([x, h], 1) @ k + b, 4, axis=1)
        if peepholes:
            f, i = f + w[f"{scope}/w_f_diag"] * c, i + w[f"{scope}/w_i_diag"] * c
        c = sigmoid(f + forget_bias) * c + sigmoid(i) * np.tanh(j)
        if cell_clip is not None:
            c = np.clip(c, -cell_clip, cell_clip)
        if peepholes:
            o = o + w[f"{scope}/w_o_diag"] * c
        h = sigmoid(o) * np.tanh(c)
        if proj:
            h = h @ w[f"{scope}/projection/kernel"]
            if proj_clip is not None:
                h = np.clip(h, -proj_clip, proj_clip)
        return h, (c, h)
    return step


def np_gru(w, scope):
    def step(x, h):
        gates = np.concatenate([x, h], 1) @ w[f"{scope}/gates/kernel"] + w[f"{scope}/gates/bias"]
        r, u = np.split(sigmoid(gates), 2, 1)
        cand = np.tanh(np.concatenate([x, r * h], 1) @ w[f"{scope}/candidate/kernel"] + w[f"{scope}/candidate/bias"])
        h = u * h + (1 - u) * cand
        return h, h
    return step


def np_unroll(step, xs, state, lengths=None):
    """Time-major ``xs``; rows past their length output zeros and keep their state."""
    outputs = []
    for t, x in enumerate(xs):
        out, new = step(x, state)
        if lengths is not None:
            done = (t >= lengths)[:, None]
            out = np.where(done, 0.0, out)
            new = tuple(np.where(done, s, n) for s, n in zip(state, new, strict=True)) if isinstance(new, tuple) \
                else np.where(done, state, new)
        outputs.append(out)
        state = new
    return outputs, state


def _weights(variables, dtype=np.float32):
    return {v.name.split(":")[0]: rp.weight(v.name, v.shape.as_list(), dtype) for v in variables}


def _run(fetches, variables, x, lengths):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        rp.set_weights(tf, sess, variables)
        return sess.run(fetches, {x: rp.inputs(), lengths: rp.LENGTHS})


def _placeholders(dtype=tf.float32):
    x = tf.placeholder(dtype, [rp.BATCH, rp.TIME, rp.DEPTH])
    return x, tf.placeholder(tf.int32, [rp.BATCH])


ZERO = np.zeros((rp.BATCH, 5))
CASES = {  # cell, NumPy step from weights, zero state
    "basic_rnn": (lambda: rc.BasicRNNCell(5), lambda w: np_basic_rnn(w, "rnn/basic_rnn_cell"), ZERO),
    "basic_rnn_sigmoid": (lambda: rc.BasicRNNCell(5, activation=tf.sigmoid),
                          lambda w: np_basic_rnn(w, "rnn/basic_rnn_cell", sigmoid), ZERO),
    "basic_lstm": (lambda: rc.BasicLSTMCell(5, forget_bias=0.25),
                   lambda w: np_lstm(w, "rnn/basic_lstm_cell", 0.25), (ZERO, ZERO)),
    "lstm_all_options": (lambda: rc.LSTMCell(5, use_peepholes=True, cell_clip=0.5, num_proj=3, proj_clip=0.3),
                         lambda w: np_lstm(w, "rnn/lstm_cell", 1.0, True, 0.5, True, 0.3),
                         (ZERO, np.zeros((rp.BATCH, 3)))),
    "gru": (lambda: rc.GRUCell(5), lambda w: np_gru(w, "rnn/gru_cell"), ZERO),
}


def _leaves(structure):
    return rp.flat(structure)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("kind", ["static", "dynamic", "dynamic_time_major"])
@pytest.mark.parametrize("with_lengths", [False, True])
def test_forward_matches_numpy(case, kind, with_lengths, fresh_graph):
    make_cell, numpy_step, zero = CASES[case]
    x, lengths = _placeholders()
    seq = lengths if with_lengths else None
    if kind == "static":
        outputs, state = tf.nn.static_rnn(make_cell(), tf.unstack(x, axis=1), dtype=tf.float32, sequence_length=seq)
    elif kind == "dynamic":
        outputs, state = tf.nn.dynamic_rnn(make_cell(), x, sequence_length=seq, dtype=tf.float32)
    else:
        outputs, state = tf.nn.dynamic_rnn(make_cell(), tf.transpose(x, [1, 0, 2]), sequence_length=seq,
                                           dtype=tf.float32, time_major=True)
    got_outputs, got_state = _run([outputs, _leaves(state)], tf.trainable_variables(), x, lengths)
    want_outputs, want_state = np_unroll(numpy_step(_weights(tf.trainable_variables())),
                                         rp.inputs().transpose(1, 0, 2), zero, rp.LENGTHS if with_lengths else None)
    got_outputs = np.asarray(got_outputs)
    if kind == "dynamic":
        got_outputs = got_outputs.transpose(1, 0, 2)
    np.testing.assert_allclose(got_outputs, np.asarray(want_outputs), rtol=1e-5, atol=1e-6)
    for got, want in zip(got_state, _leaves(want_state), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_a_stack_and_both_directions_match_numpy(fresh_graph):
    x, lengths = _placeholders()
    stack = rc.MultiRNNCell([rc.GRUCell(5), rc.BasicLSTMCell(4)])
    (fw, bw), (state_fw, state_bw) = tf.nn.bidirectional_dynamic_rnn(stack, rc.BasicRNNCell(3), x,
                                                                      sequence_length=lengths, dtype=tf.float32)
    got = _run([fw, bw, _leaves(state_fw), state_bw], tf.trainable_variables(), x, lengths)
    w = _weights(tf.trainable_variables())
    gru, lstm = np_gru(w, "bidirectional_rnn/fw/multi_rnn_cell/cell_0/gru_cell"), \
        np_lstm(w, "bidirectional_rnn/fw/multi_rnn_cell/cell_1/basic_lstm_cell")

    def stacked(x, state):
        h0, s0 = gru(x, state[0])
        h1, s1 = lstm(h0, state[1])
        return h1, (s0, s1)
    xs = rp.inputs().transpose(1, 0, 2)
    outs, state = [], (ZERO, (np.zeros((3, 4)), np.zeros((3, 4))))
    for t, x_t in enumerate(xs):  # the stack's state is nested: mask it leaf by leaf here
        out, new = stacked(x_t, state)
        done = (t >= rp.LENGTHS)[:, None]
        outs.append(np.where(done, 0, out))
        lstm_state = tuple(np.where(done, s, n) for s, n in zip(state[1], new[1], strict=True))
        state = (np.where(done, state[0], new[0]), lstm_state)
    np.testing.assert_allclose(got[0], np.stack(outs, 1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[2][0], state[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[2][2], state[1][1], rtol=1e-5, atol=1e-6)
    reversed_xs = np.stack([np.concatenate([x[:n][::-1], x[n:]])
                            for x, n in zip(rp.inputs(), rp.LENGTHS, strict=True)], 1)
    bw_outs, bw_state = np_unroll(np_basic_rnn(w, "bidirectional_rnn/bw/basic_rnn_cell"), reversed_xs,
                                  np.zeros((3, 3)), rp.LENGTHS)
    bw_outs = np.stack(bw_outs, 1)
    bw_outs = np.stack([np.concatenate([o[:n][::-1], o[n:]]) for o, n in zip(bw_outs, rp.LENGTHS, strict=True)])
    np.testing.assert_allclose(got[1], bw_outs, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[3], bw_state, rtol=1e-5, atol=1e-6)


GRADIENT_PROGRAMS = ["basic_lstm_static", "lstm_peepholes_projection", "lstm_dynamic_lengths", "gru_static_lengths",
                     "multi_dynamic_lengths", "multi_concat_state_static", "bidirectional_static_lengths",
                     "bidirectional_dynamic_lengths", "gru_time_major_initial_state", "cell_called_directly"]


@pytest.mark.parametrize("name", GRADIENT_PROGRAMS)
def test_gradients_match_finite_differences_in_float64(name, fresh_graph):
    x, lengths, leaves, loss, variables = rp.build(tf, name, tf.float64)
    assert all(v.dtype == tf.float64 for v in variables)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        rp.set_weights(tf, sess, variables, np.float64)
        feeds = {x: rp.inputs(np.float64), lengths: rp.LENGTHS}
        check_gradients(loss, [x, *variables], feeds, session=sess, directions=3)


def test_dynamic_rnn_with_time_and_batch_known_only_at_run_time(fresh_graph):
    x = tf.placeholder(tf.float64, [None, None, rp.DEPTH])
    lengths = tf.placeholder(tf.int32, [None])
    (fw, bw), (state_fw, state_bw) = tf.nn.bidirectional_dynamic_rnn(rc.GRUCell(5), rc.GRUCell(5), x,
                                                                      sequence_length=lengths, dtype=tf.float64)
    assert fw.shape.as_list() == [None, None, 5]
    loss = tf.reduce_sum(fw * fw) + tf.reduce_sum(bw) + tf.reduce_sum(state_fw * state_bw)
    variables = tf.trainable_variables()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        rp.set_weights(tf, sess, variables, np.float64)
        for batch, steps in [(3, 5), (2, 7)]:
            xs = np.random.RandomState(steps).uniform(-1, 1, (batch, steps, rp.DEPTH))
            ns = np.arange(batch) % steps + 1
            got_fw, got_state = sess.run([fw, state_fw], {x: xs, lengths: ns})
            want_fw, want_state = np_unroll(np_gru(_weights(variables, np.float64), "bidirectional_rnn/fw/gru_cell"),
                                            xs.transpose(1, 0, 2), np.zeros((batch, 5)), ns)
            np.testing.assert_allclose(got_fw, np.stack(want_fw, 1), rtol=1e-10)
            np.testing.assert_allclose(got_state, want_state, rtol=1e-10)
            check_gradients(loss, [x, *variables], {x: xs, lengths: ns}, session=sess)
