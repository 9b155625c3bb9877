"""LSTM training step: ``tf.nn.dynamic_rnn`` over a BasicLSTMCell against a hand-written NumPy LSTM BPTT.

Shapes as ../shared/bench/rnn_step.py: T=50, batch 32, input 16, hidden 64, output 4, float32, SGD
lr 0.01; loss = mean over the batch of sum((h_T @ V - y)^2). The gates are TF's ``i, j, f, o`` with
forget bias 1, so the NumPy step and the TF-1.x program compute the same numbers.
"""
from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np

T, B, D, H, OUT = 50, 32, 16, 64, 4
LR = np.float32(0.01)


def _data():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((T, B, D)).astype(np.float32)
    Y = rng.standard_normal((B, OUT)).astype(np.float32)
    kernel = (rng.standard_normal((D + H, 4 * H)) * 0.1).astype(np.float32)
    bias = np.zeros(4 * H, np.float32)
    V = (rng.standard_normal((H, OUT)) * 0.2).astype(np.float32)
    return X, Y, [kernel, bias, V]


def _sigmoid(z, out=None):
    out = np.negative(z, out=out)
    np.exp(out, out=out)
    out += 1
    return np.reciprocal(out, out=out)


def lstm_numpy() -> Callable:
    X, Y, P = _data()
    Xf = X.reshape(T * B, D)
    hs, cs = np.zeros((T + 1, B, H), np.float32), np.zeros((T + 1, B, H), np.float32)
    gates = np.empty((T, B, 4 * H), np.float32)        # sigmoid(i), tanh(j), sigmoid(f + 1), sigmoid(o)
    tanh_c = np.empty((T, B, H), np.float32)
    gz = np.empty((T, B, 4 * H), np.float32)

    def step():
        kernel, bias, V = P
        Wx, Wh = kernel[:D], kernel[D:]
        xw = (Xf @ Wx + bias).reshape(T, B, 4 * H)    # the input projection of every step in one GEMM
        for t in range(T):
            z = gates[t]
            np.add(xw[t], hs[t] @ Wh, out=z)
            z[:, 2 * H:3 * H] += 1.0
            _sigmoid(z[:, :H], out=z[:, :H])
            np.tanh(z[:, H:2 * H], out=z[:, H:2 * H])
            _sigmoid(z[:, 2 * H:], out=z[:, 2 * H:])
            i, j, f, o = z[:, :H], z[:, H:2 * H], z[:, 2 * H:3 * H], z[:, 3 * H:]
            np.add(cs[t] * f, i * j, out=cs[t + 1])
            np.tanh(cs[t + 1], out=tanh_c[t])
            np.multiply(tanh_c[t], o, out=hs[t + 1])
        r = hs[T] @ V - Y
        loss = np.sum(r * r) / B
        g_out = (2 / B) * r
        gV, gh = hs[T].T @ g_out, g_out @ V.T
        gc = np.zeros((B, H), np.float32)
        Wh_t = np.ascontiguousarray(Wh.T)              # a transposed view is a slow BLAS operand here
        for t in range(T - 1, -1, -1):
            z, tc = gates[t], tanh_c[t]
            i, j, f, o = z[:, :H], z[:, H:2 * H], z[:, 2 * H:3 * H], z[:, 3 * H:]
            g = gz[t]
            np.multiply(gh * tc, o * (1 - o), out=g[:, 3 * H:])
            gc += gh * o * (1 - tc * tc)
            np.multiply(gc * cs[t], f * (1 - f), out=g[:, 2 * H:3 * H])
            np.multiply(gc * j, i * (1 - i), out=g[:, :H])
            np.multiply(gc * i, 1 - j * j, out=g[:, H:2 * H])
            gc *= f
            gh = g @ Wh_t
        gzf = gz.reshape(T * B, 4 * H)
        g_kernel = np.concatenate([Xf.T @ gzf, hs[:T].reshape(T * B, H).T @ gzf])
        for p, gp in zip(P, [g_kernel, gzf.sum(0), gV], strict=True):
            p -= LR * gp
        return loss
    return step


def _lstm_session(tf, fetches_of):
    X, Y, params = _data()
    with tf.Graph().as_default():  # its own graph: the variables keep TF's names in every variant
        x = tf.placeholder(tf.float32, [T, B, D])
        y = tf.placeholder(tf.float32, [B, OUT])
        _, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicLSTMCell(H), x, dtype=tf.float32, time_major=True)
        V = tf.Variable(params[2])
        loss = tf.reduce_mean(tf.reduce_sum(tf.square(tf.matmul(state.h, V) - y), 1))
        variables = tf.trainable_variables()
        fetches = fetches_of(tf, loss, variables)
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())
        for v, value in zip(variables, params, strict=True):
            v.load(value, sess)
    return lambda: sess.run(fetches, {x: X, y: Y})


def _train(tf, loss, params):
    return [tf.train.GradientDescentOptimizer(float(LR)).minimize(loss), loss]


def lstm_s2sgrad() -> Callable:
    import s2sgrad as tf
    return _lstm_session(tf, _train)


def lstm_tf1() -> Callable:
    # TF >= 2.16 ships Keras 3, which has no BasicLSTMCell; tf.compat.v1's rnn cells come back with
    # Keras 2 (``pip install tf-keras``) chosen before TensorFlow is imported (the peer has its own process).
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    import tensorflow.compat.v1 as tf
    tf.disable_eager_execution()
    return _lstm_session(tf, _train)


def _s2sgrad_session(fetches_of) -> Callable:
    import s2sgrad as tf
    return _lstm_session(tf, fetches_of)


def lstm_variants() -> dict[str, Callable]:
    """The loss alone and the loss with its gradients (no update), to show what the gradient costs."""
    return {"s2sgrad_forward": lambda: _s2sgrad_session(lambda tf, loss, params: loss),
            "s2sgrad_loss_and_grad": lambda: _s2sgrad_session(lambda tf, loss, params: [loss] +
                                                              tf.gradients(loss, params))}
