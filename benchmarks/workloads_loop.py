"""The RNN BPTT workload of ``../shared/bench/rnn_step.py``: a vanilla RNN over T=50 steps (batch 32,
in 16, hidden 64, out 4, float32, SGD), the graph as a ``tf.while_loop`` over a ``TensorArray``,
against a hand-written NumPy loop (forward, then the reverse loop)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

T, B, D, H, OUT = 50, 32, 16, 64, 4


def _data() -> tuple:
    rng = np.random.default_rng(0)
    X = rng.standard_normal((T, B, D)).astype(np.float32)
    Y = rng.standard_normal((B, OUT)).astype(np.float32)
    U = (rng.standard_normal((D, H)) * 0.2).astype(np.float32)
    W = (rng.standard_normal((H, H)) * 0.1).astype(np.float32)
    return X, Y, (U, W, np.zeros(H, np.float32), (rng.standard_normal((H, OUT)) * 0.2).astype(np.float32))


def loop_rnn_numpy() -> Callable:
    X, Y, init = _data()
    P = [v.copy() for v in init]
    hs = np.zeros((T + 1, B, H), np.float32)
    gz = np.empty((T, B, H), np.float32)
    Xf = X.reshape(T * B, D)
    lr = np.float32(0.01)

    def step() -> Any:
        U, W, b, V = P
        xu = (Xf @ U + b).reshape(T, B, H)
        for t in range(T):
            np.tanh(xu[t] + hs[t] @ W, out=hs[t + 1])
        r = hs[T] @ V - Y
        loss = np.sum(r * r) / B
        gV = hs[T].T @ (2 / B * r)
        gh = (2 / B * r) @ V.T
        for t in range(T - 1, -1, -1):
            h = hs[t + 1]
            np.multiply(gh, 1 - h * h, out=gz[t])
            gh = gz[t] @ W.T
        gzf = gz.reshape(T * B, H)
        for p, g in zip(P, [Xf.T @ gzf, hs[:T].reshape(T * B, H).T @ gzf, gzf.sum(0), gV], strict=True):
            p -= lr * g
        return loss
    return step


def _loop_rnn_session(tf: Any) -> Callable:
    X, Y, init = _data()
    x = tf.placeholder(tf.float32, [T, B, D])
    y = tf.placeholder(tf.float32, [B, OUT])
    U, W, b, V = [tf.Variable(v) for v in init]
    xs = tf.TensorArray(tf.float32, size=T).unstack(x)

    def body(t: Any, h: Any) -> tuple:
        return t + 1, tf.tanh(tf.matmul(xs.read(t), U) + tf.matmul(h, W) + b)

    _, h_last = tf.while_loop(lambda t, h: t < T, body, [tf.constant(0), tf.zeros([B, H])])
    loss = tf.reduce_mean(tf.reduce_sum(tf.square(tf.matmul(h_last, V) - y), 1))
    train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    feeds = {x: X, y: Y}

    def step() -> Any:
        return sess.run([train, loss], feeds)[1]
    return step


def loop_rnn_s2sgrad() -> Callable:
    import s2sgrad
    return _loop_rnn_session(s2sgrad)


def loop_rnn_tf1() -> Callable:
    import tensorflow.compat.v1 as tf
    tf.disable_eager_execution()
    return _loop_rnn_session(tf)
