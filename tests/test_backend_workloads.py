"""The seed programs, an MLP, a CNN and static RNNs train on the torch and jax backends (CPU) with
NumPy's numbers; each backend's test is skipped when its package is not installed."""
from __future__ import annotations

import numpy as np
import pytest

import rnn_programs
import s2sgrad as tf
from evaluate import exec_program
from programs import SEED3, SEED4

BACKENDS = ["torch", "jax", "array_api_strict"]
pytestmark = pytest.mark.filterwarnings("ignore")


@pytest.fixture(params=BACKENDS)
def backend(request):
    pytest.importorskip({"torch": "torch", "jax": "jax", "array_api_strict": "array_api_strict"}[request.param])
    if request.param == "torch":
        pytest.importorskip("array_api_compat")
    return request.param


def _same(got, expected, rtol=2e-5, atol=1e-6):
    for g, e in zip(got, expected, strict=True):
        assert np.asarray(g).dtype == np.asarray(e).dtype
        np.testing.assert_allclose(g, e, rtol=rtol, atol=atol)


def _train(build, backend_name, steps):
    """Per step the fetched values of ``build()``'s (fetches, feeds), then the final variables."""
    with tf.Graph().as_default():
        fetches, feeds = build()
        with tf.Session(backend=backend_name) as sess:
            sess.run(tf.global_variables_initializer())
            history = [sess.run(fetches, feeds) for _ in range(steps)]
            final = sess.run(tf.trainable_variables())
    return [v for step in history for v in step if v is not None] + final


@pytest.mark.parametrize("program", [SEED3, SEED4], ids=["seed3", "seed4"])
def test_seed_programs(program, backend):
    results = []
    for name in ("numpy", backend):
        with tf.Graph().as_default():
            ns = exec_program(program)
            with tf.Session(backend=name) as sess:
                sess.run(tf.global_variables_initializer())
                results.append(sess.run([g for g in ns["g" if "g" in ns else "gradients"] if g is not None]))
    _same(results[1], results[0])


def _seed_regression():
    rng = np.random.RandomState(0)
    x_pure = rng.randint(-10, 100, 32)
    xs, ys = (x_pure + rng.randn(32) / 32).astype(np.float32), (3 * x_pure + 2 + rng.randn(32) / 32).astype(np.float32)
    x, y = tf.placeholder(tf.float32), tf.placeholder(tf.float32)
    w, b = tf.Variable(2.0), tf.Variable(1.0)
    loss = tf.reduce_sum(tf.pow(y - (x * w + b), 2)) / 64
    return [tf.train.GradientDescentOptimizer(1e-4).minimize(loss), loss], {x: xs, y: ys}


def _mlp():
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((16, 20)).astype(np.float32)
    ys = np.eye(5, dtype=np.float32)[rng.integers(0, 5, 16)]
    x, y = tf.placeholder(tf.float32, [None, 20]), tf.placeholder(tf.float32, [None, 5])
    w1 = tf.Variable((rng.standard_normal((20, 32)) * 0.2).astype(np.float32))
    w2 = tf.Variable((rng.standard_normal((32, 5)) * 0.2).astype(np.float32))
    h = tf.nn.relu(tf.matmul(x, w1) + tf.Variable(np.zeros(32, np.float32)))
    logits = tf.matmul(h, w2) + tf.Variable(np.zeros(5, np.float32))
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
    return [tf.train.GradientDescentOptimizer(0.1).minimize(loss), loss], {x: xs, y: ys}


def _cnn():
    rng = np.random.default_rng(1)
    xs = rng.standard_normal((4, 12, 12, 2)).astype(np.float32)
    ys = np.eye(3, dtype=np.float32)[rng.integers(0, 3, 4)]
    x, y = tf.placeholder(tf.float32, [None, 12, 12, 2]), tf.placeholder(tf.float32, [None, 3])
    k1 = tf.Variable((rng.standard_normal((3, 3, 2, 4)) * 0.3).astype(np.float32))
    k2 = tf.Variable((rng.standard_normal((3, 3, 4, 6)) * 0.2).astype(np.float32))
    w = tf.Variable((rng.standard_normal((3 * 3 * 6, 3)) * 0.1).astype(np.float32))
    h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, k1, [1, 1, 1, 1], "SAME"), tf.Variable(np.zeros(4, np.float32))))
    h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    h = tf.nn.relu(tf.nn.conv2d(h, k2, [1, 2, 2, 1], "SAME"))
    h = tf.nn.avg_pool(h, [1, 2, 2, 1], [1, 1, 1, 1], "SAME")
    logits = tf.matmul(tf.reshape(h, [-1, 3 * 3 * 6]), w)
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
    return [tf.train.MomentumOptimizer(0.05, 0.9).minimize(loss), loss], {x: xs, y: ys}


@pytest.mark.parametrize("build", [_seed_regression, _mlp, _cnn], ids=["seed_regression", "mlp", "cnn"])
def test_training_matches_numpy(build, backend):
    _same(_train(build, backend, 4), _train(build, "numpy", 4))


@pytest.mark.parametrize("program", ["basic_rnn_static", "basic_lstm_static", "gru_static_lengths",
                                     "multi_concat_state_static"])
def test_static_rnn_loss_and_gradients_match_numpy(program, backend):
    results = []
    for name in ("numpy", backend):
        with tf.Graph().as_default():
            x, lengths, leaves, loss, variables = rnn_programs.build(tf, program)
            grads = tf.gradients(loss, [x, *variables])
            with tf.Session(backend=name) as sess:
                sess.run(tf.global_variables_initializer())
                rnn_programs.set_weights(tf, sess, variables)
                results.append(sess.run([loss, *grads], {x: rnn_programs.inputs(), lengths: rnn_programs.LENGTHS}))
    _same(results[1], results[0], rtol=1e-4, atol=1e-5)


def test_variables_stay_on_the_device_and_fetches_come_back_as_numpy(backend):
    with tf.Graph().as_default():
        fetches, feeds = _mlp()
        with tf.Session(backend=backend) as sess:
            sess.run(tf.global_variables_initializer())
            _, loss = sess.run(fetches, feeds)
            stored = list(sess.variable_store.values.values())
            weights = sess.run(tf.trainable_variables())
    assert isinstance(loss, (np.floating, np.ndarray))
    assert all(isinstance(w, np.ndarray) for w in weights)
    assert not any(isinstance(v, np.ndarray) for v in stored)   # the backend's arrays, kept between runs
