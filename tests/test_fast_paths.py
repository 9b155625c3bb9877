"""The cached paths behave like the general ones: ``Session.run``'s checked step (feed checks, shape
guard and step in one generated function) and the decorator's generated guard (the compiled run
and its result inline)."""
from __future__ import annotations

import collections
import traceback

import numpy as np
import pytest

import s2sgrad
import s2sgrad as tf
from s2sgrad import errors, threads
from s2sgrad.pipeline import MAX_SHAPES_PER_PLAN
from s2sgrad.tracebacks import is_internal


def _linear_session():
    x = tf.placeholder(tf.float32, [None], name="x")
    w = tf.Variable(np.float32(2.0), name="w")
    loss = tf.reduce_sum(x * w)
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    sess = tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=1))   # steps are bare from the start
    sess.run(w.initializer)
    return sess, x, w, loss, train


def _runner(sess, fed):
    return next(r for r in sess._runners.values() if list(r.plan.fed) == [fed])


def test_the_checked_step_runs_the_last_shape_and_hands_others_to_the_dispatcher():
    sess, x, w, loss, _ = _linear_session()
    with sess:
        assert sess.run(loss, {x: np.ones(3, np.float32)}) == 6.0
        runner = _runner(sess, x)
        assert runner.dispatch is runner.steps[((3,),)].checked
        for n in [3, 4, 3, 5, 5, 3]:   # alternating shapes: each gets its own step's result
            assert sess.run(loss, {x: np.arange(n, dtype=np.float32)}) == 2.0 * sum(range(n))
        assert sess.run(loss, {x: [1.0, 2.0]}) == 6.0                # a list converts as before
        assert sess.run(loss, {x: np.ones(2, np.float64)}) == 4.0    # so does another dtype
        with pytest.raises(ValueError, match="Cannot feed value of shape"):
            sess.run(loss, {x: np.ones((2, 2), np.float32)})
        with pytest.raises(TypeError, match="Cannot feed complex values"):
            sess.run(loss, {x: np.ones(3, np.complex64)})


def test_a_failed_run_on_the_checked_step_commits_nothing():
    x = tf.placeholder(tf.int32, [None], name="rows")
    w = tf.Variable(np.ones(3, np.float32), name="w")
    loss = tf.reduce_sum(tf.gather(w, x))
    train = tf.train.GradientDescentOptimizer(1.0).minimize(loss)
    with tf.Session(config=tf.ConfigProto(intra_op_parallelism_threads=1)) as sess:
        sess.run(w.initializer)
        sess.run(train, {x: [0, 1]})
        runner = _runner(sess, x)
        assert runner.dispatch is runner.steps[((2,),)].checked
        before = sess.run(w).copy()
        with pytest.raises(errors.InvalidArgumentError, match="out of range"):
            sess.run(train, {x: [0, 7]})     # same shape: the checked step itself fails
        np.testing.assert_array_equal(sess.run(w), before)
        sess.run(train, {x: [2, 2]})
        np.testing.assert_array_equal(sess.run(w), before - np.array([0, 0, 2], np.float32))


def test_an_evicted_shape_leaves_the_checked_step():
    sess, x, _, loss, _ = _linear_session()
    with sess:
        for n in range(1, MAX_SHAPES_PER_PLAN + 2):
            assert sess.run(loss, {x: np.ones(n, np.float32)}) == 2.0 * n
        runner = _runner(sess, x)
        assert runner.dispatch is runner.steps[((MAX_SHAPES_PER_PLAN + 1,),)].checked
        assert ((1,),) not in runner.steps
        runner.forget(((MAX_SHAPES_PER_PLAN + 1,),))
        assert runner.dispatch is runner.dispatcher
        assert sess.run(loss, {x: np.ones(1, np.float32)}) == 2.0


def test_the_auto_thread_wrapper_hands_a_short_step_to_the_checked_step(monkeypatch):
    monkeypatch.setattr(threads, "SHORT_STEP", 10.0)   # every step is short, however busy the machine
    x = tf.placeholder(tf.float32, [], name="x")
    y = x * 3.0
    with tf.Session() as sess:
        for _ in range(20):
            assert sess.run(y, {x: 2.0}) == 6.0
        runner = _runner(sess, x)
        assert runner.dispatch is runner.steps[((),)].checked


def test_the_decorators_fast_path_reads_closure_cells_live():
    def make():
        scale = 2.0

        def f(x):
            return np.sum(x * scale)

        def drop():
            nonlocal scale
            del scale
        return f, drop
    f, drop = make()
    g = s2sgrad.value_and_grad(f)
    x = np.ones(3)
    for _ in range(3):
        value, grad = g(x)
        assert value == 6.0
        np.testing.assert_array_equal(grad, 2 * x)
    drop()
    with pytest.raises(NameError, match="scale"):
        g(x)


def gather_rows(x, rows):
    return np.sum(x[rows] ** 2)


def test_errors_on_the_decorators_fast_path_show_the_users_frames_only():
    g = s2sgrad.grad(gather_rows)
    g(np.ones(3), np.array([0, 1]))
    assert g._fast is not None
    with pytest.raises(errors.InvalidArgumentError, match="out of bounds") as info:
        g(np.ones(3), np.array([0, 7]))   # the same signature: the fast path raises
    files = [frame.filename for frame in traceback.extract_tb(info.value.__traceback__)]
    assert files[0] == __file__ and not any(is_internal(f) for f in files), files
    np.testing.assert_array_equal(g(np.ones(3), np.array([0, 1])), [2.0, 2.0, 0.0])


def test_the_last_calls_runner_is_reused_only_for_the_same_fetches_and_feed_keys():
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.placeholder(tf.float32, [], name="y")
    a, b = x * 2.0, x - y
    with tf.Session() as sess:
        fetches = [a, b]
        for _ in range(4):   # the third call remembers (found twice in a row), the fourth reuses
            assert sess.run(fetches, {x: 3.0, y: 1.0}) == [6.0, 2.0]
        assert sess.run([a, b], {x: 3.0, y: 1.0}) == [6.0, 2.0]   # an equal list
        assert sess.run(fetches, {y: 1.0, x: 3.0}) == [6.0, 2.0]   # the keys in another order
        fetches[1] = x + y                                         # changed in place
        assert sess.run(fetches, {x: 3.0, y: 1.0}) == [6.0, 4.0]
        assert sess.run(fetches, {x: 3.0, y: 1.0}) == [6.0, 4.0]
        assert sess.run(tuple(fetches), {x: 3.0, y: 1.0}) == (6.0, 4.0)   # another kind of sequence
        assert sess.run(a, {x: 3.0, "y:0": 1.0}) == 6.0
        assert sess.run(a, {x: 3.0, "y:0": 1.0}) == 6.0
        assert sess.run(a, {x: 5.0, y: 1.0}) == 10.0                # as many keys, another one
        assert sess.run(a, {"x:0": 4.0}) == 8.0                     # fewer keys
        assert sess.run(a, {"x:0": 4.0}) == 8.0
        with pytest.raises(errors.InvalidArgumentError, match="placeholder tensor 'x'"):   # the usual error
            sess.run(a, collections.defaultdict(float, {y: 1.0}))
        with pytest.raises(TypeError):                              # a fetch that does not compare
            sess.run([a, np.ones(2)], {"x:0": 4.0})


def test_closing_a_session_forgets_its_last_call():
    x = tf.placeholder(tf.float32, [], name="x")
    sess = tf.Session()
    for _ in range(3):
        assert sess.run(x * 2.0 if _ == 0 else sess.graph.get_tensor_by_name("mul:0"), {x: 1.0}) == 2.0
    assert sess._last_call[-1] is not None and sess._last_found is not None
    sess.close()
    assert sess._last_call[-1] is None and sess._last_found is None
    with pytest.raises(RuntimeError, match="closed"):
        sess.run(sess.graph.get_tensor_by_name("mul:0"), {x: 1.0})
