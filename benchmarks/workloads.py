"""Benchmark workloads. Each workload maps an implementation name to ``setup() -> step``.

``numpy`` is hand-written NumPy (the speed limit for generated NumPy code); ``s2sgrad``
uses the TF-v1 API; ``tf1``, ``jax``, ``torch`` and ``autograd`` run when installed.
Every workload also offers ``s2sgrad_forward`` / ``s2sgrad_loss_and_grad`` to measure
what the gradient costs relative to the loss alone.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
from cnn import cnn_numpy, cnn_session
from lstm_workload import lstm_numpy, lstm_s2sgrad, lstm_tf1, lstm_variants

Setup = Callable[[], Callable[[], object]]


from workloads_loop import loop_rnn_numpy, loop_rnn_s2sgrad, loop_rnn_tf1  # noqa: E402
from workloads_threads import DECORATED, blas_default, one_thread  # noqa: E402


def _import_tf1():
    import tensorflow.compat.v1 as tf
    tf.disable_eager_execution()
    return tf


# -- seed linear-regression step: one sample per step ---------------------------------------------

def _seed_data():
    rng = np.random.RandomState(0)
    x_pure = rng.randint(-10, 100, 32)
    x = (x_pure + rng.randn(32) / 32).astype(np.float32)
    y = (3 * x_pure + 2 + rng.randn(32) / 32).astype(np.float32)
    return x, y


def seed_numpy() -> Callable:
    x_train, y_train = _seed_data()
    lr, st, it = np.float32(1e-4), {"w": np.float32(2.0), "b": np.float32(1.0)}, [0]

    def step():
        i = it[0] = (it[0] + 1) % 32
        x, y = x_train[i], y_train[i]
        r = y - (x * st["w"] + st["b"])
        loss = r * r / np.float32(64)
        g_pred = -(np.float32(2) * r / np.float32(64))
        st["w"] = st["w"] - lr * (g_pred * x)
        st["b"] = st["b"] - lr * g_pred
        return loss
    return step


def _seed_graph(tf):
    x_input, y_input = tf.placeholder(tf.float32), tf.placeholder(tf.float32)
    w, b = tf.Variable(2.0), tf.Variable(1.0)
    y = tf.add(tf.multiply(x_input, w), b)
    loss = tf.reduce_sum(tf.pow(y_input - y, 2)) / (2 * 32)
    return x_input, y_input, w, b, loss


def _seed_session(tf, fetches_of):
    x_train, y_train = _seed_data()
    x_input, y_input, w, b, loss = _seed_graph(tf)
    fetches = fetches_of(tf, loss, [w, b])
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    it = [0]

    def step():
        i = it[0] = (it[0] + 1) % 32
        return sess.run(fetches, feed_dict={x_input: x_train[i], y_input: y_train[i]})
    return step


def _stepper(tf, fetches, feeds):
    """A step running ``fetches`` with fixed ``feeds`` in a fresh, initialised session."""
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    return lambda: sess.run(fetches, feeds)


def _train(tf, loss, params, lr=1e-4):
    return [tf.train.GradientDescentOptimizer(lr).minimize(loss), loss]


def _loss_only(tf, loss, params):
    return loss


def _loss_and_grad(tf, loss, params):
    return [loss] + tf.gradients(loss, params)


def seed_s2sgrad() -> Callable:
    import s2sgrad as tf
    return _seed_session(tf, _train)


def seed_tf1() -> Callable:
    return _seed_session(_import_tf1(), _train)


def seed_jax() -> Callable:
    import jax
    import jax.numpy as jnp
    x_train, y_train = _seed_data()
    lr = np.float32(1e-4)

    def loss(p, x, y):
        return jnp.sum((y - (x * p[0] + p[1])) ** 2) / 64

    @jax.jit
    def update(p, x, y):
        value, g = jax.value_and_grad(loss)(p, x, y)
        return p - lr * g, value
    st, it = {"p": jnp.array([2.0, 1.0], dtype=jnp.float32)}, [0]

    def step():
        i = it[0] = (it[0] + 1) % 32
        st["p"], value = update(st["p"], x_train[i], y_train[i])
        return value.block_until_ready()
    return step


def seed_torch() -> Callable:
    import torch
    torch.set_num_threads(1)
    x_train, y_train = _seed_data()
    xs, ys = torch.from_numpy(x_train), torch.from_numpy(y_train)
    w = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(1.0, requires_grad=True)
    it = [0]

    def step():
        i = it[0] = (it[0] + 1) % 32
        loss = torch.sum((ys[i] - (xs[i] * w + b)) ** 2) / 64
        gw, gb = torch.autograd.grad(loss, [w, b])
        with torch.no_grad():
            w.sub_(1e-4 * gw)
            b.sub_(1e-4 * gb)
        return loss
    return step


def seed_autograd() -> Callable:
    import autograd.numpy as anp
    from autograd import grad
    x_train, y_train = _seed_data()
    g = grad(lambda p, x, y: anp.sum((y - (x * p[0] + p[1])) ** 2) / 64)
    st, it = {"p": np.array([2.0, 1.0], dtype=np.float32)}, [0]

    def step():
        i = it[0] = (it[0] + 1) % 32
        st["p"] = st["p"] - np.float32(1e-4) * g(st["p"], x_train[i], y_train[i])
    return step


# -- MLP 784-512-512-10, batch 128, softmax cross-entropy, SGD ------------------------------------

def _mlp_data():
    rng = np.random.default_rng(0)
    B, D, H, C = 128, 784, 512, 10
    X = rng.standard_normal((B, D)).astype(np.float32)
    Y = np.eye(C, dtype=np.float32)[rng.integers(0, C, B)]
    params = [(rng.standard_normal((D, H)) * 0.05).astype(np.float32), np.zeros(H, np.float32),
              (rng.standard_normal((H, H)) * 0.05).astype(np.float32), np.zeros(H, np.float32),
              (rng.standard_normal((H, C)) * 0.05).astype(np.float32), np.zeros(C, np.float32)]
    return X, Y, params


def mlp_loss_and_gradients(P: list, X: np.ndarray, Y: np.ndarray) -> tuple:
    """The MLP's softmax cross-entropy and its gradients for the parameters ``P``, by hand."""
    W1, b1, W2, b2, W3, b3 = P
    z1 = X @ W1 + b1
    h1 = np.maximum(z1, 0)
    z2 = h1 @ W2 + b2
    h2 = np.maximum(z2, 0)
    lo = h2 @ W3 + b3
    m = lo.max(1, keepdims=True)
    e = np.exp(lo - m)
    s = e.sum(1, keepdims=True)
    loss = np.mean(-np.sum(Y * (lo - m - np.log(s)), 1))
    g = (e / s - Y) / X.shape[0]
    gW3, gb3, gh2 = h2.T @ g, g.sum(0), g @ W3.T
    gh2 *= z2 > 0
    gW2, gb2, gh1 = h1.T @ gh2, gh2.sum(0), gh2 @ W2.T
    gh1 *= z1 > 0
    return loss, [X.T @ gh1, gh1.sum(0), gW2, gb2, gW3, gb3]


def mlp_numpy() -> Callable:
    X, Y, P = _mlp_data()
    lr = np.float32(0.01)

    def step():
        loss, grads = mlp_loss_and_gradients(P, X, Y)
        for p, gp in zip(P, grads, strict=True):
            p -= lr * gp
        return loss
    return step


def _mlp_session(tf, fetches_of):
    X, Y, params = _mlp_data()
    x = tf.placeholder(tf.float32, [None, X.shape[1]])
    y = tf.placeholder(tf.float32, [None, Y.shape[1]])
    V = [tf.Variable(v) for v in params]
    h1 = tf.nn.relu(tf.matmul(x, V[0]) + V[1])
    h2 = tf.nn.relu(tf.matmul(h1, V[2]) + V[3])
    logits = tf.matmul(h2, V[4]) + V[5]
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
    return _stepper(tf, fetches_of(tf, loss, V), {x: X, y: Y})


def mlp_s2sgrad() -> Callable:
    import s2sgrad as tf
    return _mlp_session(tf, lambda tf, loss, V: _train(tf, loss, V, 0.01))


def mlp_tf1() -> Callable:
    return _mlp_session(_import_tf1(), lambda tf, loss, V: _train(tf, loss, V, 0.01))


# -- the MLP fed by a tf.data pipeline vs feed_dict: 4096 samples, shuffled, batches of 128 --------

def _mlp_input_data():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((4096, 784)).astype(np.float32)
    Y = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 4096)]
    return X, Y


def _mlp_model(tf, x, y):
    _, _, params = _mlp_data()
    V = [tf.Variable(v) for v in params]
    h1 = tf.nn.relu(tf.matmul(x, V[0]) + V[1])
    h2 = tf.nn.relu(tf.matmul(h1, V[2]) + V[3])
    logits = tf.matmul(h2, V[4]) + V[5]
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
    return _train(tf, loss, V, 0.01)


def _mlp_feed_dict(tf):
    """Each step feeds the next batch of a per-epoch permutation (the feed_dict way to shuffle)."""
    X, Y = _mlp_input_data()
    x, y = tf.placeholder(tf.float32, [None, 784]), tf.placeholder(tf.float32, [None, 10])
    fetches = _mlp_model(tf, x, y)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    rng, st = np.random.default_rng(2), {"order": np.arange(0), "at": 0}

    def step():
        if st["at"] + 128 > len(st["order"]):
            st["order"], st["at"] = rng.permutation(len(X)), 0
        batch = st["order"][st["at"]:st["at"] + 128]
        st["at"] += 128
        return sess.run(fetches, {x: X[batch], y: Y[batch]})
    return step


def _mlp_tf_data(tf):
    """The same batches from ``from_tensor_slices((X, Y)).shuffle(4096).batch(128).repeat()``."""
    X, Y = _mlp_input_data()
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).shuffle(4096, seed=2).batch(128, drop_remainder=True).repeat()
    x, y = tf.data.make_one_shot_iterator(ds).get_next()
    fetches = _mlp_model(tf, x, y)
    sess = tf.Session()
    sess.run(tf.global_variables_initializer())
    return lambda: sess.run(fetches)


def _with(module: str, make: Callable) -> Setup:
    import importlib
    return lambda: make(importlib.import_module("s2sgrad") if module == "s2sgrad" else _import_tf1())


def mlp_jax() -> Callable:
    import jax
    import jax.numpy as jnp
    X, Y, params = _mlp_data()

    def loss(P, X, Y):
        W1, b1, W2, b2, W3, b3 = P
        h1 = jax.nn.relu(X @ W1 + b1)
        h2 = jax.nn.relu(h1 @ W2 + b2)
        return jnp.mean(-jnp.sum(Y * jax.nn.log_softmax(h2 @ W3 + b3), 1))

    @jax.jit
    def update(P, X, Y):
        value, g = jax.value_and_grad(loss)(P, X, Y)
        return [p - 0.01 * gp for p, gp in zip(P, g, strict=True)], value
    st = {"P": [jnp.asarray(v) for v in params]}
    Xj, Yj = jnp.asarray(X), jnp.asarray(Y)

    def step():
        st["P"], value = update(st["P"], Xj, Yj)
        return value.block_until_ready()
    return step


def mlp_torch() -> Callable:
    import torch
    X, Y, params = _mlp_data()
    P = [torch.tensor(v, requires_grad=True) for v in params]
    Xt, Yt = torch.from_numpy(X), torch.from_numpy(Y)

    def step():
        W1, b1, W2, b2, W3, b3 = P
        h2 = torch.relu(torch.relu(Xt @ W1 + b1) @ W2 + b2)
        loss = torch.mean(-torch.sum(Yt * torch.log_softmax(h2 @ W3 + b3, 1), 1))
        gs = torch.autograd.grad(loss, P)
        with torch.no_grad():
            for p, gp in zip(P, gs, strict=True):
                p.sub_(0.01 * gp)
        return loss
    return step


# -- logistic regression, batch 256 x 100 features ------------------------------------------------

def _logreg_data():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((256, 100))
    y = (X @ rng.standard_normal(100) > 0).astype(np.float64)
    return X, y


def logreg_numpy() -> Callable:
    X, y = _logreg_data()
    st = {"w": np.zeros(100), "b": 0.0}

    def step():
        z = X @ st["w"] + st["b"]
        loss = np.mean(np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z))))
        g = (1 / (1 + np.exp(-z)) - y) / len(y)
        st["w"] = st["w"] - 0.1 * (X.T @ g)
        st["b"] = st["b"] - 0.1 * g.sum()
        return loss
    return step


def _logreg_session(tf, fetches_of):
    X, y = _logreg_data()
    xp = tf.placeholder(tf.float64, [None, 100])
    yp = tf.placeholder(tf.float64, [None])
    w = tf.Variable(np.zeros(100))
    b = tf.Variable(np.float64(0.0))
    z = tf.matmul(xp, tf.reshape(w, [100, 1]))[:, 0] + b
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=yp, logits=z))
    return _stepper(tf, fetches_of(tf, loss, [w, b]), {xp: X, yp: y})


def logreg_s2sgrad() -> Callable:
    import s2sgrad as tf
    return _logreg_session(tf, lambda tf, loss, V: _train(tf, loss, V, 0.1))


def logreg_tf1() -> Callable:
    return _logreg_session(_import_tf1(), lambda tf, loss, V: _train(tf, loss, V, 0.1))


# -- unrolled RNN: 20 tanh steps, batch 32, hidden 64 ---------------------------------------------

def _rnn_data():
    rng = np.random.default_rng(2)
    T, B, D, H = 20, 32, 16, 64
    xs = rng.standard_normal((T, B, D)).astype(np.float32)
    Wx = (rng.standard_normal((D, H)) * 0.2).astype(np.float32)
    Wh = (rng.standard_normal((H, H)) * 0.2).astype(np.float32)
    return xs, Wx, Wh


def rnn_numpy() -> Callable:
    xs, Wx, Wh = _rnn_data()
    P = [Wx.copy(), Wh.copy()]
    lr = np.float32(0.01)

    def step():
        Wx, Wh = P
        h = np.zeros((xs.shape[1], Wh.shape[0]), np.float32)
        hs = [h]
        for x in xs:
            h = np.tanh(x @ Wx + h @ Wh)
            hs.append(h)
        loss = np.sum(h * h) / 2
        gh = h.copy()
        gWx, gWh = np.zeros_like(Wx), np.zeros_like(Wh)
        for t in range(len(xs) - 1, -1, -1):
            ga = gh * (1 - hs[t + 1] * hs[t + 1])
            gWx += xs[t].T @ ga
            gWh += hs[t].T @ ga
            gh = ga @ Wh.T
        Wx -= lr * gWx
        Wh -= lr * gWh
        return loss
    return step


def _rnn_session(tf, fetches_of):
    xs, Wx0, Wh0 = _rnn_data()
    xp = tf.placeholder(tf.float32, xs.shape)
    Wx, Wh = tf.Variable(Wx0), tf.Variable(Wh0)
    h = tf.zeros([xs.shape[1], Wh0.shape[0]])
    for t in range(xs.shape[0]):
        h = tf.tanh(tf.matmul(xp[t], Wx) + tf.matmul(h, Wh))
    loss = tf.reduce_sum(h * h) / 2
    return _stepper(tf, fetches_of(tf, loss, [Wx, Wh]), {xp: xs})


def rnn_s2sgrad() -> Callable:
    import s2sgrad as tf
    return _rnn_session(tf, lambda tf, loss, V: _train(tf, loss, V, 0.01))


def rnn_tf1() -> Callable:
    return _rnn_session(_import_tf1(), lambda tf, loss, V: _train(tf, loss, V, 0.01))


def cnn_s2sgrad() -> Callable:
    import s2sgrad as tf
    return cnn_session(tf, lambda tf, loss, V: _train(tf, loss, V, 0.01))


def cnn_tf1() -> Callable:
    return cnn_session(_import_tf1(), lambda tf, loss, V: _train(tf, loss, V, 0.01))


def _s2sgrad_variants(session_maker) -> dict[str, Setup]:
    import importlib

    def make(fetches_of):
        return lambda: session_maker(importlib.import_module("s2sgrad"), fetches_of)
    return {"s2sgrad_forward": make(_loss_only), "s2sgrad_loss_and_grad": make(_loss_and_grad)}


WORKLOADS: dict[str, dict] = {
    "seed training step": {"unit": "us", "steps": 2000, "impls": {
        "numpy": seed_numpy, "s2sgrad": seed_s2sgrad, "tf1": seed_tf1, "jax": seed_jax, "torch": seed_torch,
        "autograd": seed_autograd, **_s2sgrad_variants(_seed_session)}},
    "MLP 784-512-512-10 SGD step": {"unit": "ms", "steps": 30, "impls": {
        "numpy": mlp_numpy, "s2sgrad": mlp_s2sgrad, "tf1": mlp_tf1, "jax": mlp_jax, "torch": mlp_torch,
        "numpy_1thread": one_thread(mlp_numpy), "s2sgrad_blas_default": blas_default(mlp_s2sgrad),
        **_s2sgrad_variants(_mlp_session)}},
    "MLP SGD step, input by tf.data vs feed_dict": {"unit": "ms", "steps": 30, "impls": {
        "s2sgrad_feed_dict": _with("s2sgrad", _mlp_feed_dict), "s2sgrad_tf_data": _with("s2sgrad", _mlp_tf_data),
        "tf1": _with("tf1", _mlp_tf_data)}},
    "logistic regression batch step": {"unit": "us", "steps": 200, "impls": {
        "numpy": logreg_numpy, "s2sgrad": logreg_s2sgrad, "tf1": logreg_tf1,
        **_s2sgrad_variants(_logreg_session)}},
    "CNN (2 conv + 2 maxpool + dense) SGD step": {"unit": "ms", "steps": 10, "impls": {
        "numpy": cnn_numpy, "s2sgrad": cnn_s2sgrad, "tf1": cnn_tf1, "numpy_1thread": one_thread(cnn_numpy),
        "s2sgrad_blas_default": blas_default(cnn_s2sgrad), **_s2sgrad_variants(cnn_session)}},
    "RNN BPTT while_loop (T=50) SGD step": {"unit": "ms", "steps": 20, "impls": {
        "numpy": loop_rnn_numpy, "s2sgrad": loop_rnn_s2sgrad, "tf1": loop_rnn_tf1,
        "numpy_1thread": one_thread(loop_rnn_numpy), "s2sgrad_blas_default": blas_default(loop_rnn_s2sgrad)}},
    "unrolled RNN (20 steps) SGD step": {"unit": "us", "steps": 50, "impls": {
        "numpy": rnn_numpy, "s2sgrad": rnn_s2sgrad, "tf1": rnn_tf1, **_s2sgrad_variants(_rnn_session)}},
    "LSTM dynamic_rnn (T=50, batch 32, hidden 64) SGD step": {"unit": "ms", "steps": 10, "impls": {
        "numpy": lstm_numpy, "s2sgrad": lstm_s2sgrad, "tf1": lstm_tf1, **lstm_variants()}},
    "decorated function call (value and gradient)": DECORATED,
}
# the workloads of the loaded-machine comparison (run.py --loaded)
THREADED = ("MLP 784-512-512-10 SGD step", "CNN (2 conv + 2 maxpool + dense) SGD step",
            "RNN BPTT while_loop (T=50) SGD step")
