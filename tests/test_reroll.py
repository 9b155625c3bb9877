"""Traced loops rolled up again (codegen/reroll.py): a long run of identical iterations is one
``for`` loop in the generated code, computing bitwise what the unrolled program computes."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import s2sgrad
import s2sgrad as tf
from s2sgrad.codegen import reroll


@pytest.fixture
def unrolled(monkeypatch):
    """Within ``with unrolled():`` nothing is rolled (the reference)."""
    import contextlib

    @contextlib.contextmanager
    def off():
        with monkeypatch.context() as m:
            m.setattr(reroll, "MIN_TRIPS", 10**9)
            yield
    return off


def _chain(n, dtype=tf.float64, fetch_middle=False):
    """The compile-time benchmark's chain: n layers of ``tanh(h * w_k + 0.1)``, its gradient, the source."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(dtype, [16])
        ws = np.linspace(0.5, 1.5, n)
        h, middle = x, None
        for k in range(n):
            h = tf.tanh(h * ws[k] + 0.1)
            if k == n // 2:
                middle = h
        grad = tf.gradients(tf.reduce_sum(h), x)[0]
        fetches = [grad, h] + ([middle] if fetch_middle else [])
        feed = {x: np.linspace(-1, 1, 16).astype(dtype.as_numpy_dtype)}
        with tf.Session() as sess:
            return sess.run(fetches, feed), sess.source(fetches, feed)


def _same(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x.dtype == y.dtype and x.shape == y.shape
        assert x.tobytes() == y.tobytes()


def test_a_long_chain_is_two_loops_with_the_unrolled_numbers(unrolled):
    values, source = _chain(300)
    with unrolled():
        reference, unrolled_source = _chain(300)
    _same(values, reference)
    assert "for k in range(300):" in source and "reversed(range(300))" in source
    assert len(source.splitlines()) < 40 < 300 < len(unrolled_source.splitlines())
    assert "300 traced iterations" in source


def test_the_layer_constants_are_one_stacked_constant_read_per_iteration():
    _, source = _chain(64)
    assert source.count("_steps = _constants[") == 1   # forward and gradient loops read the same one
    assert "_steps[k]" in source


def test_a_value_read_after_its_loop_comes_from_the_loop_record(unrolled):
    values, source = _chain(100, fetch_middle=True)
    with unrolled():
        reference, _ = _chain(100, fetch_middle=True)
    _same(values, reference)
    assert "_steps[50]" in source   # the fetched middle layer


def test_float32_chain(unrolled):
    values, _ = _chain(40, dtype=tf.float32)
    with unrolled():
        reference, _ = _chain(40, dtype=tf.float32)
    _same(values, reference)
    assert values[0].dtype == np.float32


def test_fewer_iterations_than_min_trips_stay_unrolled():
    _, source = _chain(reroll.MIN_TRIPS - 1)
    assert "for " not in source


def _simulate(x, w):
    for i in range(40):
        x = x - 0.01 * np.sin(x @ w) * (i * 0.1)
    return np.sum(x ** 2)


def test_a_decorated_loop_with_a_matrix_and_changing_constants(unrolled):
    args = (np.linspace(0, 1, 5), np.eye(5) * 0.7 + 0.01)
    grad = s2sgrad.grad(_simulate, wrt=(0, 1))
    got = grad(*args)
    assert "traced iterations" in grad.source(*args)
    with unrolled():
        reference = s2sgrad.grad(_simulate, wrt=(0, 1))(*args)
    _same(got, reference)
    eps = 1e-6
    step = np.zeros(5)
    step[2] = eps
    numeric = (_simulate(args[0] + step, args[1]) - _simulate(args[0] - step, args[1])) / (2 * eps)
    assert got[0][2] == pytest.approx(numeric, rel=1e-6)


def test_signed_zero_constants_are_not_merged(unrolled):
    def f(x):
        for i in range(32):
            x = np.tanh(x) * (0.0 if i % 2 else -0.0) + x
        return np.sum(np.abs(x) ** 0.5 * np.sign(x))
    x = np.array([1e-3, -2e-3, 0.0])
    got = s2sgrad.value_and_grad(f)(x)
    with unrolled():
        reference = s2sgrad.value_and_grad(f)(x)
    _same([np.asarray(v) for v in got], [np.asarray(v) for v in reference])


def test_a_value_two_iterations_back_is_never_rolled_wrongly(unrolled):
    def fib(x):
        a, b = x, x * 1.5
        for _ in range(30):
            a, b = b, np.sin(a) + b
        return np.sum(b)
    x = np.array([0.1, 0.2])
    got = s2sgrad.grad(fib)(x)
    with unrolled():
        reference = s2sgrad.grad(fib)(x)
    _same([got], [reference])


# Random loop bodies: each step is an operation on the loop's two variables, reading a fixed
# constant, a constant that changes per iteration, or an array fixed for the whole loop.
_STEP = st.tuples(st.sampled_from(["tanh", "mul_const", "mul_changing", "add_other", "mul_array", "square"]),
                  st.sampled_from([0, 1]))


@given(body=st.lists(_STEP, min_size=1, max_size=5), trips=st.integers(16, 40), odd=st.integers(-1, 40))
def test_random_loops_compute_the_unrolled_numbers(body, trips, odd):
    def f(a, b, m):
        for i in range(trips):
            for op, j in body:
                v = (a, b)[j]
                if op == "tanh":
                    v = np.tanh(v)
                elif op == "mul_const":
                    v = v * 0.9
                elif op == "mul_changing":
                    v = v * (1.0 + 0.01 * i)
                elif op == "add_other":
                    v = v + (b, a)[j]
                elif op == "mul_array":
                    v = v * m
                else:
                    v = v * v * 0.5
                if i == odd:   # one iteration unlike the others
                    v = np.cos(v)
                a, b = (v, b) if j == 0 else (a, v)
        return np.sum(a * b)
    args = (np.linspace(-0.5, 0.5, 3), np.linspace(0.2, 0.4, 3), np.array([0.9, 1.0, 1.1]))
    got = s2sgrad.value_and_grad(f, wrt=(0, 1, 2))(*args)
    reroll.MIN_TRIPS, saved = 10**9, reroll.MIN_TRIPS
    try:
        reference = s2sgrad.value_and_grad(f, wrt=(0, 1, 2))(*args)
    finally:
        reroll.MIN_TRIPS = saved
    _same([np.asarray(got[0]), *got[1]], [np.asarray(reference[0]), *reference[1]])


def test_a_loop_of_ops_that_may_fail_stays_unrolled_so_the_error_names_the_failing_op():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float64, [3])
        h = x
        for k in range(20):
            h = tf.gather(h, [0, 1, 5] if k == 13 else [2, 1, 0]) * 1.5
        with tf.Session() as sess:
            assert "traced iterations" not in sess.source(h, {x: np.ones(3)})
            with pytest.raises(Exception, match="GatherV2_13"):
                sess.run(h, {x: np.ones(3)})
