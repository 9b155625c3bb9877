"""The CNN training-step workload (``/work/shared/bench/cnn_step.py``, anchor benchmark B3).

NHWC, batch 64, 28x28x1, float32: conv3x3 SAME 1->16 + bias, relu, maxpool 2x2 -> conv3x3 SAME
16->32 + bias, relu, maxpool 2x2 -> dense 7*7*32->10 -> softmax cross-entropy mean; SGD lr 0.01.
``cnn_numpy`` is the hand-written reference: im2col matrix products, pooling by reshape.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

B, S, C0, C1, C2, C = 64, 28, 1, 16, 32, 10
F = 7 * 7 * C2


def _cnn_data():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((B, S, S, C0)).astype(np.float32)
    Y = np.eye(C, dtype=np.float32)[rng.integers(0, C, B)]
    params = [(rng.standard_normal((3, 3, C0, C1)) * 0.3).astype(np.float32), np.zeros(C1, np.float32),
              (rng.standard_normal((3, 3, C1, C2)) * 0.1).astype(np.float32), np.zeros(C2, np.float32),
              (rng.standard_normal((F, C)) * 0.05).astype(np.float32), np.zeros(C, np.float32)]
    return X, Y, params


def im2col(x, k=3):
    """(B, H, W, Ci) -> (B*H*W, k*k*Ci) for a kxk SAME window (k odd); columns ordered (kh, kw, Ci) like HWIO."""
    p = k // 2
    padded = np.pad(x, ((0, 0), (p, p), (p, p), (0, 0)))
    windows = sliding_window_view(padded, (k, k), axis=(1, 2))
    return windows.transpose(0, 1, 2, 4, 5, 3).reshape(-1, k * k * x.shape[3])


def pool2(a6):
    """2x2/2 max-pool of the (B, h, 2, w, 2, C) reshape."""
    m = np.maximum(a6[:, :, 0], a6[:, :, 1])
    return np.maximum(m[:, :, :, 0], m[:, :, :, 1])


def cnn_numpy() -> Callable:
    X, Y, P = _cnn_data()
    lr = np.float32(0.01)

    def step():
        K1, c1, K2, c2, W3, b3 = P
        col1 = im2col(X)
        z1 = (col1 @ K1.reshape(9 * C0, C1)).reshape(B, S, S, C1)
        z1 += c1
        a1 = np.maximum(z1, 0).reshape(B, 14, 2, 14, 2, C1)
        p1 = pool2(a1)
        col2 = im2col(p1)
        z2 = (col2 @ K2.reshape(9 * C1, C2)).reshape(B, 14, 14, C2)
        z2 += c2
        a2 = np.maximum(z2, 0).reshape(B, 7, 2, 7, 2, C2)
        p2 = pool2(a2)
        f = p2.reshape(B, F)
        lo = f @ W3 + b3
        m = lo.max(1, keepdims=True)
        e = np.exp(lo - m)
        s = e.sum(1, keepdims=True)
        loss = np.mean(-np.sum(Y * (lo - m - np.log(s)), 1))
        g = (e / s - Y) / B
        gW3, gb3, gp2 = f.T @ g, g.sum(0), (g @ W3.T).reshape(B, 7, 1, 7, 1, C2)
        gz2 = ((a2 == p2[:, :, None, :, None]) * gp2).reshape(B, 14, 14, C2)
        gz2 *= z2 > 0
        gK2, gc2 = (col2.T @ gz2.reshape(-1, C2)).reshape(3, 3, C1, C2), gz2.sum((0, 1, 2))
        flipped = K2[::-1, ::-1].transpose(0, 1, 3, 2).reshape(9 * C2, C1)
        gp1 = (im2col(gz2) @ flipped).reshape(B, 14, 1, 14, 1, C1)   # full correlation = input gradient
        gz1 = ((a1 == p1[:, :, None, :, None]) * gp1).reshape(B, S, S, C1)
        gz1 *= z1 > 0
        gK1, gc1 = (col1.T @ gz1.reshape(-1, C1)).reshape(3, 3, C0, C1), gz1.sum((0, 1, 2))
        for p, gp in zip(P, [gK1, gc1, gK2, gc2, gW3, gb3], strict=True):
            p -= lr * gp
        return loss
    return step


def cnn_session(tf, fetches_of):
    """The CNN as a TF-1.x program (``tf`` is s2sgrad or tensorflow.compat.v1)."""
    X, Y, params = _cnn_data()
    x = tf.placeholder(tf.float32, [None, S, S, C0])
    y = tf.placeholder(tf.float32, [None, C])
    V = [tf.Variable(v) for v in params]
    h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, V[0], [1, 1, 1, 1], "SAME"), V[1]))
    h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(h, V[2], [1, 1, 1, 1], "SAME"), V[3]))
    h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    logits = tf.matmul(tf.reshape(h, [-1, F]), V[4]) + V[5]
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    fetches = fetches_of(tf, loss, V)
    return lambda: sess.run(fetches, {x: X, y: Y})
