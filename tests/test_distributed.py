"""Data-parallel training on a Dask LocalCluster with worker processes (s2sgrad.distributed)."""
import os

import numpy as np
import pytest

import s2sgrad as tf
from s2sgrad.distributed.payload import split_batch, weighted_sum

distributed = pytest.importorskip("distributed")
sd = pytest.importorskip("s2sgrad.distributed")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                       silence_logs=40)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def digits_data(n=90, seed=0):
    rng = np.random.default_rng(seed)
    xs = rng.normal(size=(n, 8)).astype(np.float32)
    labels = (xs[:, :3].sum(axis=1) > 0).astype(np.int64) + (xs[:, 3] > 1)
    return xs, np.eye(3, dtype=np.float32)[labels]


def mlp(optimizer):
    """A two-layer softmax classifier and its optimizer; returns (x, y, loss, variables)."""
    x = tf.placeholder(tf.float32, [None, 8], name="x")
    y = tf.placeholder(tf.float32, [None, 3], name="y")
    init = np.random.default_rng(1)
    w1 = tf.Variable(init.normal(scale=0.5, size=(8, 16)).astype(np.float32), name="w1")
    b1 = tf.Variable(np.zeros(16, np.float32), name="b1")
    w2 = tf.Variable(init.normal(scale=0.5, size=(16, 3)).astype(np.float32), name="w2")
    b2 = tf.Variable(np.zeros(3, np.float32), name="b2")
    logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
    return x, y, loss, [w1, b1, w2, b2]


def single_process_losses(make_optimizer, xs, ys, steps):
    tf.reset_default_graph()
    x, y, loss, variables = mlp(None)
    train = make_optimizer().minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = [sess.run([train, loss], {x: xs, y: ys})[1] for _ in range(steps)]
        return losses, sess.run(variables)


@pytest.mark.parametrize("make_optimizer", [lambda: tf.train.GradientDescentOptimizer(0.5),
                                            lambda: tf.train.AdamOptimizer(0.05)], ids=["sgd", "adam"])
@pytest.mark.parametrize("n_shards", [2, 3])
def test_mlp_on_split_batches_matches_one_process_step_for_step(client, make_optimizer, n_shards):
    xs, ys = digits_data()
    expected, expected_vars = single_process_losses(make_optimizer, xs, ys, steps=4)
    tf.reset_default_graph()
    x, y, loss, variables = mlp(None)
    dp = sd.DataParallel(client, loss, make_optimizer(), feeds=[x, y])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = [dp.run({x: xs, y: ys}, n_shards=n_shards) for _ in range(4)]
        np.testing.assert_allclose(losses, expected, rtol=1e-5)
        for got, want in zip(sess.run(variables), expected_vars, strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


def make_shard(index):
    """Shard ``index`` of digits_data, made on the worker (a loader for DataParallel.load)."""
    xs, ys = digits_data()
    part = slice(index * 30, (index + 1) * 30)
    return {"x": xs[part], "y:0": ys[part]}


def make_shard_once_killing_the_worker(index, marker):
    """Like make_shard, but the first attempt at shard 0 kills its worker process mid-task."""
    if index == 0 and not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(1)
    return make_shard(index)


def test_shards_made_on_the_workers_survive_a_lost_worker(client, tmp_path):
    xs, ys = digits_data()
    expected, expected_vars = single_process_losses(lambda: tf.train.AdamOptimizer(0.05), xs, ys, steps=3)
    tf.reset_default_graph()
    x, y, loss, variables = mlp(None)
    dp = sd.DataParallel(client, loss, tf.train.AdamOptimizer(0.05), feeds=[x, y])
    marker = str(tmp_path / "killed")
    shards = dp.load(lambda i: make_shard_once_killing_the_worker(i, marker), n_shards=3)
    assert os.path.exists(marker)                  # a worker died while making shard 0; Dask retried it
    assert shards.sizes == [30, 30, 30]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = [dp.run(shards)]
        # lose a worker holding shards between steps: Dask recomputes its shards from the loader
        victim = next(iter(client.who_has(shards.futures[0]).values()))[0]
        client.run(os._exit, 1, workers=[victim], on_error="ignore")
        losses += [dp.run(shards) for _ in range(2)]
        np.testing.assert_allclose(losses, expected, rtol=1e-5)
        for got, want in zip(sess.run(variables), expected_vars, strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


def test_decorated_gradient_over_shards_equals_the_whole_batch(client):
    xs, ys = digits_data(n=50)
    rng = np.random.default_rng(2)
    w = rng.normal(size=(8, 3))

    def loss(w, x, y):
        logits = x @ w
        logp = logits - np.log(np.sum(np.exp(logits), axis=1, keepdims=True))
        return -np.mean(np.sum(y * logp, axis=1))

    whole = tf.value_and_grad(loss)
    step = sd.data_parallel(whole, client, data_args=(1, 2), n_shards=3)
    value, g = step(w, xs.astype(np.float64), ys.astype(np.float64))
    want_value, want_g = whole(w, xs.astype(np.float64), ys.astype(np.float64))
    np.testing.assert_allclose(value, want_value, rtol=1e-12)
    np.testing.assert_allclose(g, want_g, rtol=1e-12, atol=1e-15)

    by_address = sd.data_parallel(whole, client.scheduler.address, data_args=(1, 2))   # any scheduler address
    np.testing.assert_allclose(by_address(w, xs.astype(np.float64), ys.astype(np.float64))[1], want_g, rtol=1e-12)
    by_address.close()

    summed = sd.data_parallel(tf.grad(lambda w, x: np.sum(np.tanh(x @ w))), client, data_args=1, reduction="sum")
    np.testing.assert_allclose(summed(w, xs), tf.grad(lambda w, x: np.sum(np.tanh(x @ w)))(w, xs), rtol=1e-5)


def test_a_failure_on_a_worker_raises_and_changes_no_variable(client):
    x = tf.placeholder(tf.float32, [None], name="x")
    w = tf.Variable(1.0, name="w")
    loss = tf.reduce_mean(tf.debugging.check_numerics(tf.log(x * w), "log of x*w"))
    dp = sd.DataParallel(client, loss, tf.train.GradientDescentOptimizer(0.1), feeds=[x])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with pytest.raises(Exception, match="log of x\\*w"):
            dp.run({x: np.array([1.0, 2.0, -1.0, 3.0], np.float32)})
        assert sess.run(w) == 1.0


def test_bad_arguments_name_what_is_wrong(client):
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    z = tf.placeholder(tf.float32, [None, 2], name="z")
    w = tf.Variable(np.ones((2, 1), np.float32), name="w")
    loss = tf.reduce_mean(tf.matmul(x, w))
    sgd = tf.train.GradientDescentOptimizer(0.1)
    with pytest.raises(ValueError, match="reduction must be one of"):
        sd.DataParallel(client, loss, sgd, feeds=[x], reduction="max")
    with pytest.raises(TypeError, match="tf.train optimizer"):
        sd.DataParallel(client, loss, "sgd", feeds=[x])
    with pytest.raises(TypeError, match="dask.distributed.Client"):
        sd.DataParallel(object(), loss, sgd, feeds=[x])
    with pytest.raises(TypeError, match="non-empty list of the placeholders"):
        sd.DataParallel(client, loss, sgd, feeds=x)
    with pytest.raises(ValueError, match="must be a scalar"):
        sd.DataParallel(client, tf.matmul(x, w), sgd, feeds=[x])
    dp = sd.DataParallel(client, loss, sgd, feeds=[x])
    with tf.Session():
        tf.get_default_session().run(tf.global_variables_initializer())
        with pytest.raises(ValueError, match=r"missing \['x:0'\], not in feeds \['z:0'\]"):
            dp.run({z: np.ones((4, 2))})
        with pytest.raises(ValueError, match="n_shards must be a positive int"):
            dp.run({x: np.ones((4, 2))}, n_shards=0)
        with pytest.raises(ValueError, match="the batch is empty"):
            dp.run({x: np.ones((0, 2))})
        with pytest.raises(TypeError, match="feed dict or Shards"):
            dp.run([np.ones((4, 2))])
    with pytest.raises(ValueError, match="needs a session"):
        dp.run({x: np.ones((4, 2))})
    noisy = tf.reduce_mean(tf.matmul(x, w) * tf.random_uniform([1]))
    with tf.Session() as sess, pytest.raises(ValueError, match="draws random numbers"):
        sess.run(tf.global_variables_initializer())
        sd.DataParallel(client, noisy, sgd, feeds=[x]).run({x: np.ones((4, 2))})
    with pytest.raises(ValueError, match="with respect to data argument"):
        sd.data_parallel(tf.grad(lambda w, x: np.sum(x * w), wrt=(0, 1)), client, data_args=1)
    noisy_fn = sd.data_parallel(tf.grad(lambda w, x: np.mean(x @ w * np.random.uniform(size=len(x)))), client)
    with pytest.raises(ValueError, match="draws random numbers"):
        noisy_fn(np.ones(2), np.ones((4, 2)))
    with pytest.raises(TypeError, match="decorated gradient"):
        sd.data_parallel(np.sum, client)


def test_split_batch_and_weighted_sum():
    a = np.arange(10.0)
    pieces = split_batch([a, a * 2], 3)
    assert [len(p[0]) for p in pieces] == [3, 4, 3]
    np.testing.assert_array_equal(np.concatenate([p[1] for p in pieces]), a * 2)
    assert len(split_batch([a[:2]], 5)) == 2       # never an empty shard
    with pytest.raises(ValueError, match="same number of examples"):
        split_batch([a, a[:3]], 2)
    parts = [[np.float32(2.0)], [np.float32(5.0)]]
    assert weighted_sum([[np.asarray(v) for v in p] for p in parts], [1, 3], "mean")[0] == np.float32(4.25)
    assert weighted_sum([[np.asarray(v) for v in p] for p in parts], [1, 3], "sum")[0].dtype == np.float32
