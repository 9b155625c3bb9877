"""Resource hygiene: compiled-module caches are bounded or die with what owns them, a closed
Session lets go of its variables, no global cache keeps a graph alive, and nothing is
written to disk."""
from __future__ import annotations

import gc
import linecache
import os
import subprocess
import sys
import weakref

import numpy as np

import s2sgrad as tf
from conftest import checkout_env
from s2sgrad.codegen.compiler import GENERATED_PREFIX
from s2sgrad.pipeline import MAX_SHAPES_PER_PLAN
from s2sgrad.tracing.api import MAX_PROGRAMS


def generated_lines() -> set[str]:
    gc.collect()
    return {name for name in linecache.cache if name.startswith(GENERATED_PREFIX)}


def test_a_session_keeps_a_bounded_number_of_feed_shapes_per_plan():
    x = tf.placeholder(tf.float32, [None], name="x")
    y = tf.reduce_sum(x * 2.0)
    before = generated_lines()
    with tf.Session() as sess:
        for n in range(MAX_SHAPES_PER_PLAN + 10):
            assert sess.run(y, {x: np.ones(n + 1, np.float32)}) == 2.0 * (n + 1)
        (runner,) = sess._runners.values()
        assert len(runner.plan.executables) == len(runner.steps) == MAX_SHAPES_PER_PLAN
        del runner
        assert len(generated_lines() - before) == MAX_SHAPES_PER_PLAN   # evicted modules left linecache
        assert sess.run(y, {x: np.ones(1, np.float32)}) == 2.0         # an evicted shape compiles again
    assert generated_lines() - before == set()                      # closing released the rest


def test_closing_a_session_releases_its_variables_and_modules():
    big = tf.Variable(np.zeros((256, 256)), name="big")
    total = tf.reduce_sum(big + 1.0)
    sess = tf.Session()
    sess.run(big.initializer)
    assert sess.run(total) == 256 * 256
    (stored,) = [v for v in sess.variable_store.values.values() if np.shape(v) == (256, 256)]
    value = weakref.ref(stored)
    del stored
    before = generated_lines()
    sess.close()
    gc.collect()
    assert value() is None
    assert sess.variable_store.values == {} and sess._runners == {}
    assert generated_lines() < before


def test_the_decorator_keeps_a_bounded_number_of_signatures():
    def f(x, k):
        return np.sum(x ** k)

    grad = tf.grad(f)
    before = generated_lines()
    for k in range(MAX_PROGRAMS + 6):   # k is static: each value is its own signature
        np.testing.assert_allclose(grad(np.array([2.0]), k), [k * 2.0 ** (k - 1)] if k else [0.0])
    assert len(grad._programs) == MAX_PROGRAMS
    assert len(generated_lines() - before) == MAX_PROGRAMS
    np.testing.assert_allclose(grad(np.array([2.0]), 3), [12.0])   # an evicted signature is traced again
    del grad
    assert generated_lines() - before == set()   # the compiled code died with the function


def test_no_global_cache_keeps_a_graph_alive():
    def use_everything():
        graph = tf.Graph()
        with graph.as_default():
            x = tf.placeholder(tf.float32, [None], name="x")
            w = tf.Variable([1.0, 2.0], name="w")
            loss = tf.reduce_sum(tf.tanh(x * w[0]) + w[1])
            step = tf.train.AdamOptimizer(0.1).minimize(loss)
            tf.source([loss, step], [x])
            tf.ir(loss)
            tf.explain(loss, [x, w])
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run([step, loss], {x: [1.0, 2.0]})
                call = sess.make_callable(loss, [x])
                call([3.0])
        return weakref.ref(graph)

    graph = use_everything()
    gc.collect()
    assert graph() is None

    tf.get_default_graph()
    default = weakref.ref(tf.get_default_graph())
    tf.constant(1.0)
    tf.reset_default_graph()
    gc.collect()
    assert default() is None


def test_decorated_functions_do_not_keep_their_traces_alive_after_they_die():
    grad = tf.grad(lambda x: np.sum(np.sin(x)))
    grad(np.ones(3))
    (program,) = grad._programs.values()
    graph = weakref.ref(program.trace.graph)
    del grad, program
    gc.collect()
    assert graph() is None


AUDIT = r'''
import os, sys
writes = []
def audit(event, args):
    if event == "open" and args[0] is not None:
        mode, flags = args[1], args[2]
        if (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)):
            writes.append(str(args[0]))
sys.addaudithook(audit)
import numpy as np
import s2sgrad as tf
x = tf.placeholder(tf.float32, [None], name="x")
w = tf.Variable([0.5], name="w")
loss = tf.reduce_sum(tf.square(x * w - 1.0))
step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        sess.run([step, loss], {x: [1.0, 2.0]})
    sess.source(loss, {x: [1.0]})
tf.ir(loss)
tf.grad(lambda v: np.sum(v ** 2))(np.ones(2))
try:
    sess.run(loss)
except RuntimeError:
    pass
print("writes:", writes)
'''


def test_nothing_is_written_to_disk(tmp_path):
    env = checkout_env(PYTHONDONTWRITEBYTECODE="1", HOME=str(tmp_path), TMPDIR=str(tmp_path))
    result = subprocess.run([sys.executable, "-c", AUDIT], capture_output=True, text=True, timeout=120,
                            env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "writes: []"
    assert os.listdir(tmp_path) == []
