"""Threads: one Session shared by 8 threads, graphs built concurrently, concurrent compilation,
and the decorator's cache.

What "correct" means for concurrent training steps on one Session: every run reads one
consistent snapshot of the variables (a single C-level ``itemgetter`` call on the store) and
commits all its assignments at once (a single ``dict.update``); both are atomic under the GIL.
So no run ever sees a mix of two commits, and no commit is ever half applied. Runs are not
serialized, though: two runs that read the same snapshot both commit, and the later commit
wins (TensorFlow's ``use_locking=False``, "Hogwild" updates). The tests check exactly that:
an invariant that every step preserves holds at every moment, in every snapshot.
"""
from __future__ import annotations

import sys
import threading
import warnings

import numpy as np
import pytest

import s2sgrad as tf
from s2sgrad.codegen import compiler

THREADS = 8


@pytest.fixture(autouse=True)
def frequent_switches():
    """Switch threads every microsecond (not every 5 ms), so that races would show."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


def run_threads(target, n=THREADS) -> list:
    """Run ``target(i)`` in ``n`` threads started together; re-raise the first failure."""
    barrier = threading.Barrier(n)
    results: list = [None] * n
    errors: list = []

    def work(i):
        try:
            barrier.wait()
            results[i] = target(i)
        except BaseException as e:  # reported to the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    if errors:
        raise errors[0]
    return results


class CompileCounter:
    """Counts the modules compiled while active, by label."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, label, source, constants) -> None:
        self.count += 1

    def __enter__(self):
        compiler.compile_listeners.append(self)
        return self

    def __exit__(self, *exc) -> None:
        compiler.compile_listeners.remove(self)


def test_read_only_fetches_from_eight_threads_are_correct():
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    w = tf.Variable(np.linspace(-1, 1, 8).reshape(4, 2).astype(np.float32), name="w")
    y = tf.nn.softmax(tf.matmul(x, w))
    (g,) = tf.gradients(tf.reduce_sum(y * y), [x])
    with tf.Session() as sess:
        sess.run(w.initializer)
        w0 = sess.run(w)

        def work(i):
            rng = np.random.default_rng(i)
            for n in range(30):
                data = rng.standard_normal((1 + (i + n) % 5, 4)).astype(np.float32)
                got_y, got_g = sess.run([y, g], {x: data})
                logits = data @ w0
                e = np.exp(logits - logits.max(axis=1, keepdims=True))
                np.testing.assert_allclose(got_y, e / e.sum(axis=1, keepdims=True), rtol=1e-5)
                assert got_g.shape == data.shape
            return True

        assert all(run_threads(work))


def test_concurrent_training_steps_see_consistent_snapshots_and_commit_atomically():
    n = 50_000  # large enough that NumPy releases the GIL inside each step
    a = tf.Variable(np.zeros(n), name="a")
    b = tf.Variable(np.full(n, 100.0), name="b")
    step_count = tf.train.get_or_create_global_step()
    amount = tf.placeholder(tf.float64, [], name="amount")
    moved = tf.tanh(b) * amount + tf.reduce_mean(a) * 0.0   # reads both variables
    # every step moves the same amount from b to a: a + b stays 100 everywhere
    step = tf.group(tf.assign(a, a + moved), tf.assign(b, b - moved), tf.assign_add(step_count, 1))
    totals = a + b
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())

        def train(i):
            for k in range(25):
                sess.run(step, {amount: 0.01 * (i + 1)})
                if k % 5 == 0:
                    snapshot = sess.run(totals)
                    assert np.allclose(snapshot, 100.0), "a run saw a torn snapshot"
            return True

        assert all(run_threads(train))
        final_a, final_b, steps = sess.run([a, b, step_count])
    np.testing.assert_allclose(final_a + final_b, 100.0)
    assert 1 <= steps <= THREADS * 25           # later commits may overwrite earlier ones (Hogwild)
    assert np.all(final_a > 0)


def test_one_signature_is_compiled_once_when_eight_threads_ask_for_it():
    x = tf.placeholder(tf.float32, [None], name="x")
    y = tf.reduce_sum(tf.square(x)) * 3.0
    with tf.Session() as sess, CompileCounter() as counter:
        results = run_threads(lambda i: sess.run(y, {x: np.arange(5, dtype=np.float32)}))
        assert results == [3.0 * 30] * THREADS
        assert counter.count == 1
        run_threads(lambda i: sess.run(y, {x: np.ones(10 + i, np.float32)}))   # eight new shapes
        assert counter.count == 1 + THREADS


def test_graphs_built_concurrently_do_not_interfere():
    def build_and_run(i):
        graph = tf.Graph()
        with graph.as_default():
            assert tf.get_default_graph() is graph
            with tf.name_scope(f"model{i}"):
                x = tf.placeholder(tf.float32, [3], name="x")
                w = tf.Variable(np.full(3, float(i), np.float32), name="w")
                loss = tf.reduce_sum(x * w, name="loss")
            (g,) = tf.gradients(loss, [w])
            train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
            with tf.Session() as sess:
                assert tf.get_default_session() is sess
                sess.run(tf.global_variables_initializer())
                got = sess.run([loss, g], {x: [1.0, 2.0, 3.0]})
                sess.run(train, {x: [1.0, 2.0, 3.0]})
                after = sess.run(w)
        assert loss.name == f"model{i}/loss:0"
        assert all(op.graph is graph for op in graph.get_operations())
        assert got[0] == 6.0 * i
        np.testing.assert_array_equal(got[1], [1.0, 2.0, 3.0])
        np.testing.assert_allclose(after, i - 0.5 * np.array([1.0, 2.0, 3.0]))
        return len(graph.get_operations())

    counts = run_threads(build_and_run)
    assert len(set(counts)) == 1


def test_default_graph_session_and_name_scope_are_per_thread():
    shared = tf.Graph()
    inside = threading.Event()
    done = threading.Event()
    seen = {}

    def scoped():
        with shared.as_default(), shared.name_scope("mine"), tf.Session(graph=shared) as sess:
            seen["scoped"] = tf.constant(1.0, name="c").name, tf.get_default_session() is sess
            inside.set()
            done.wait(10)

    def other():
        inside.wait(10)
        seen["default graph"] = tf.get_default_graph() is not shared
        seen["default session"] = tf.get_default_session()
        with shared.as_default():
            seen["other"] = tf.constant(2.0, name="c").name
        done.set()

    threads = [threading.Thread(target=scoped), threading.Thread(target=other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert seen == {"scoped": ("mine/c:0", True), "default graph": True, "default session": None, "other": "c:0"}


def test_the_decorators_cache_under_threads():
    def loss(w, x):
        return np.sum(np.tanh(x @ w) ** 2)

    grad = tf.grad(loss)
    w = np.linspace(-1, 1, 6).reshape(3, 2)
    with CompileCounter() as counter:
        got = run_threads(lambda i: grad(w, np.full((4, 3), i / 8)))
        assert counter.count == 1 and len(grad._programs) == 1
    for i, g in enumerate(got):
        x = np.full((4, 3), i / 8)
        t = np.tanh(x @ w)
        np.testing.assert_allclose(g, x.T @ (2 * t * (1 - t ** 2)), rtol=1e-12)
    run_threads(lambda i: [grad(w, np.ones((n, 3))) for n in range(5, 16)])   # 11 new signatures at once
    assert len(grad._programs) == 12


def test_concurrent_compilation_leaves_the_users_warning_filters_alone():
    x = tf.placeholder(tf.float32, [None], name="x")
    ys = [tf.log(x * float(k)) / tf.constant(0.0) for k in range(THREADS)]
    with warnings.catch_warnings():
        warnings.simplefilter("default")
        warnings.filterwarnings("error", message="my marker")
        mine = [f for f in warnings.filters if f[1] is not None and f[1].pattern == "my marker"]
        with tf.Session() as sess:
            run_threads(lambda i: sess.run(ys[i], {x: np.ones(i + 1, np.float32)}))
        assert all(f in warnings.filters for f in mine)
        assert warnings.filters[0][0] == "ignore"  # s2sgrad's quiet filter is first, the rest kept


def test_a_seeded_random_op_first_used_by_eight_threads_draws_from_one_stream():
    noise = tf.random_normal([], seed=7)
    with tf.Session() as sess:
        serial = [sess.run(noise) for _ in range(THREADS)]
    with tf.Session() as sess:
        concurrent = run_threads(lambda i: sess.run(noise))
    assert sorted(concurrent) == sorted(serial)


def test_scopes_opened_concurrently_in_one_graph_get_distinct_names():
    graph = tf.Graph()

    def open_scope(i):
        with graph.as_default(), graph.name_scope("layer") as scope:
            return scope

    assert len(set(run_threads(open_scope))) == THREADS
