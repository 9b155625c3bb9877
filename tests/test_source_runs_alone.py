"""The shown source is the whole program: the text of a compiled module, exec'd on its own
(no s2sgrad namespace), computes what Session.run computed; only arrays too large to print
come from outside, as ``_constants``, which the text says."""
import contextlib
import io
import os
import runpy

import numpy as np
import pytest

import s2sgrad as tf
from conftest import EXAMPLES
from s2sgrad.codegen import compiler
from s2sgrad.codegen.emit import CONSTANTS_NOTE, MAX_LINE, RUNTIME_IMPORT


@contextlib.contextmanager
def recorded_calls():
    """(source, constants, args, results) of the first call of every module compiled inside."""
    calls = []

    def hook(fn, label, constants, origin):
        def run(*args):
            results = fn(*args)
            if not any(c[0] is fn.source for c in calls):
                calls.append((fn.source, constants, [_copy(a) for a in args], [_copy(r) for r in results]))
            return results
        run.source, run.filename = fn.source, fn.filename
        return run

    compiler.compile_hooks.append(hook)
    try:
        yield calls
    finally:
        compiler.compile_hooks.remove(hook)


def _copy(value):
    return value.copy() if isinstance(value, np.ndarray) else value


def run_alone(source, constants, args):
    """Exec ``source`` in an empty namespace (plus ``_constants`` when it says it needs them)."""
    namespace = {"__name__": "alone"}
    if CONSTANTS_NOTE in source:
        namespace["_constants"] = dict(constants)
    exec(compile(source, "<alone>", "exec"), namespace)  # generated text under test
    return namespace["run"](*[_copy(a) for a in args])


def check_alone(calls):
    assert calls
    for source, constants, args, expected in calls:
        got = run_alone(source, constants, args)
        assert len(got) == len(expected), source
        for g, e in zip(got, expected, strict=True):
            if isinstance(e, np.random.Generator):
                continue
            np.testing.assert_array_equal(np.asarray(g), np.asarray(e), err_msg=source)
        assert max(len(line) for line in source.splitlines()) <= MAX_LINE, source


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_seed_programs_run_from_their_printed_text(n):
    with recorded_calls() as calls, contextlib.redirect_stdout(io.StringIO()):
        runpy.run_path(os.path.join(EXAMPLES, f"seed_program_{n}.py"), run_name="__main__")
    check_alone(calls)


def _mlp():
    rng = np.random.default_rng(0)
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    labels = tf.placeholder(tf.int32, [None], name="labels")
    w1 = tf.Variable(rng.normal(size=(4, 8)).astype(np.float32), name="w1")
    w2 = tf.Variable(rng.normal(size=(8, 3)).astype(np.float32), name="w2")
    h = tf.tanh(tf.matmul(x, w1) + 0.1)
    logits = tf.matmul(h, w2)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    feed = {x: rng.normal(size=(6, 4)).astype(np.float32), labels: rng.integers(0, 3, 6).astype(np.int32)}
    return loss, train, feed


def test_an_mlp_with_softmax_cross_entropy_runs_from_its_printed_text():
    loss, train, feed = _mlp()
    with recorded_calls() as calls, tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run([loss, train], feed)
        shown = sess.source([loss, train], feed)
    training = [c for c in calls if c[0] == shown]
    assert RUNTIME_IMPORT in shown and "rt.sparse_softmax_xent(logits, labels)" in shown, shown
    assert len(training) == 1
    check_alone(calls)


def test_tf_source_text_runs_alone_and_matches_session_run():
    loss, _, feed = _mlp()
    grads = tf.gradients(loss, tf.trainable_variables())
    shown = tf.source([loss, *grads], feed_dict=feed)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        expected = sess.run([loss, *grads], feed)
        params = [feed[t] for t in feed] + sess.run(tf.trainable_variables())
    got = run_alone(shown, {}, params)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g, e, rtol=0, atol=0)


def test_a_big_constant_comes_from_constants_and_the_text_says_so():
    table = np.arange(4000, dtype=np.float64).reshape(1000, 4) / 7
    x = tf.placeholder(tf.float64, [1000, 4], name="x")
    scores = tf.reduce_sum(tf.constant(table) * x, axis=1)
    with recorded_calls() as calls, tf.Session() as sess:
        sess.run(scores, {x: np.ones((1000, 4))})
    source, constants, _, _ = calls[0]
    assert CONSTANTS_NOTE in source and "= _constants['" in source, source
    assert len(constants) == 1 and np.array_equal(next(iter(constants.values())), table)
    check_alone(calls)
    with pytest.raises(NameError, match="_constants"):
        exec(compile(source, "<alone>", "exec"), {"__name__": "alone"})


def test_a_module_without_helpers_imports_only_numpy():
    x = tf.placeholder(tf.float32, [3], name="x")
    shown = tf.source(tf.square(x) + 1.0, [x])
    assert "import numpy as np\n" in shown and RUNTIME_IMPORT not in shown and CONSTANTS_NOTE not in shown
