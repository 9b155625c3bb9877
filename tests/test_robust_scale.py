"""Scale: graphs of 100,000 ops build, differentiate, compile and run without RecursionError,
and the memory a graph takes grows linearly with its number of ops.

Every stage is iterative (graph walks, gradient walk, emission); the places where a naive
implementation recurses on graph size are exercised on purpose: a long chain (the gradient
walk, slicing, codegen), a tensor with thousands of consumers (gradient aggregation into one
AddN, whose ``a + b + ...`` expression would nest thousands deep), a long chain of identities
(constant-value lookups through it), printing the IR, and copying graph elements.
"""
from __future__ import annotations

import copy
import gc
import pickle
import tracemalloc

import numpy as np
import pytest

import s2sgrad as tf

N_OPS = 100_000
FAN_OUT = 3_000


def _build(n_ops: int, fan_out: int) -> tuple:
    """A float64 program of about ``n_ops`` ops: x -> a long chain -> a wide sum -> loss."""
    x = tf.placeholder(tf.float64, [8], name="x")
    w = tf.Variable(np.linspace(0.5, 1.5, 8), name="w")
    h = x * w
    for i in range(_steps(n_ops, fan_out)):
        h = tf.tanh(h * 0.999 + 0.001) if i % 2 else h * 1.0005 - 0.001
    wide = tf.add_n([h * float(k % 7) for k in range(fan_out)])
    shape = tf.constant([2, 4])
    for _ in range(fan_out):
        shape = tf.identity(shape)
    loss = tf.reduce_sum(tf.reshape(wide, shape) ** 2)
    return x, w, loss


def _steps(n_ops: int, fan_out: int) -> int:
    """Chain steps so that the graph has about ``n_ops`` ops: 4.5 per step, 3 per wide term."""
    return -(-(n_ops - 3 * fan_out) * 2 // 9)


def _reference(x: np.ndarray, w: np.ndarray, n_ops: int, fan_out: int) -> complex:
    """The loss in NumPy (complex-safe, so that the complex step gives exact derivatives)."""
    h = x * w
    for i in range(_steps(n_ops, fan_out)):
        h = np.tanh(h * 0.999 + 0.001) if i % 2 else h * 1.0005 - 0.001
    wide = sum(k % 7 for k in range(fan_out)) * h
    return np.sum(wide ** 2)


@pytest.mark.slow
def test_a_100k_op_graph_builds_differentiates_compiles_and_runs():
    x, w, loss = _build(N_OPS, FAN_OUT)
    graph = tf.get_default_graph()
    assert N_OPS <= len(graph.get_operations()) < N_OPS + 100
    (g_w,) = tf.gradients(loss, [w])
    assert len(graph.get_operations()) > 1.25 * N_OPS
    assert tf.ir(loss).count("\n") >= N_OPS - 10_000

    data = np.linspace(-1.0, 1.0, 8)
    with tf.Session() as sess:
        sess.run(w.initializer)
        got_loss, got_grad = sess.run([loss, g_w], {x: data})
        w0 = sess.run(w)
        assert got_loss == pytest.approx(_reference(data, w0, N_OPS, FAN_OUT), rel=1e-12)
        # the gradient along one direction, against the complex-step derivative of the reference
        direction = np.cos(np.arange(8.0))
        slope = _reference(data, w0 + 1e-30j * direction, N_OPS, FAN_OUT).imag / 1e-30
        assert float(got_grad @ direction) == pytest.approx(slope, rel=1e-10)


def _memory(n_ops: int) -> tuple[int, int, int]:
    """(ops, bytes held by the graph, peak bytes while also generating its code) for a graph of
    about ``n_ops`` ops and its gradient."""
    gc.collect()
    tracemalloc.start()
    try:
        with tf.Graph().as_default() as graph:
            x, w, loss = _build(n_ops, fan_out=n_ops // 20)
            grads = tf.gradients(loss, [w])
            held = tracemalloc.get_traced_memory()[0]
            tf.source([loss] + grads, [x])
            return len(graph.get_operations()), held, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_grows_linearly_with_the_number_of_ops():
    small_ops, small_held, small_peak = _memory(600)
    large_ops, large_held, large_peak = _memory(2_400)
    assert large_ops > 3.5 * small_ops
    assert large_held / large_ops < 1.25 * small_held / small_ops, (small_held, large_held)
    assert large_peak / large_ops < 1.25 * small_peak / small_ops, (small_peak, large_peak)
    assert large_held / large_ops < 4_000  # bytes per op, gradient ops included


def test_long_sums_are_written_as_one_flat_call():
    x = tf.placeholder(tf.float32, [3], name="x")
    terms = [x * float(i) for i in range(40)]
    total = tf.add_n(terms)
    source = tf.source(total, [x])
    assert "rt.add_n([" in source
    assert "total = rt.add_n([" in source
    small = tf.add_n(terms[:3])
    assert "rt.add_n" not in tf.source(small, [x])
    with tf.Session() as sess:
        data = np.array([1.0, 2.0, 3.0], np.float32)
        expected = sum((data * np.float32(i) for i in range(40)), np.zeros(3, np.float32))
        np.testing.assert_array_equal(sess.run(total, {x: data}), expected)
        assert sess.run(tf.add_n([tf.constant(2.0)] * 40) + x[0], {x: data}) == 81.0


def test_copying_or_pickling_graph_elements_does_not_walk_the_graph():
    h = tf.placeholder(tf.float32, [], name="x")
    for _ in range(3_000):   # deeper than Python's recursion limit
        h = h * 1.001
    w = tf.Variable(1.0)
    for element in (h, h.op, w, tf.get_default_graph()):
        assert copy.copy(element) is element and copy.deepcopy(element) is element
        with pytest.raises(TypeError, match="Cannot pickle .*graph elements are symbolic"):
            pickle.dumps(element)
    config = {"output": h, "weights": [w], "rate": [0.1]}
    cloned = copy.deepcopy(config)
    assert cloned["output"] is h and cloned["weights"][0] is w and cloned["rate"] is not config["rate"]
