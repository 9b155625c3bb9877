"""NaN and inf are values: they propagate exactly as NumPy computes them, and NumPy's
floating-point warnings from generated code (and the runtime helpers it calls) are silenced,
whatever the user's warning filters, unless ``s2sgrad.show_numpy_warnings(True)``."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import s2sgrad as tf

SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e38, -1e38, 1e-45, 1.0, -2.5]
special_arrays = hnp.arrays(np.float32, st.integers(1, 6), elements=st.sampled_from(SPECIAL))

UNARY = {
    "log": (tf.log, np.log), "exp": (tf.exp, np.exp), "sqrt": (tf.sqrt, np.sqrt), "tanh": (tf.tanh, np.tanh),
    "reciprocal": (tf.reciprocal, np.reciprocal), "square": (tf.square, np.square), "abs": (tf.abs, np.abs),
    "log1p": (tf.log1p, np.log1p), "sin": (tf.sin, np.sin), "neg": (tf.negative, np.negative),
    "relu": (tf.nn.relu, lambda x: np.maximum(x, np.float32(0))),
    "sum": (tf.reduce_sum, np.sum), "max": (tf.reduce_max, np.max), "mean": (tf.reduce_mean, np.mean),
}
BINARY = {
    "div": (tf.divide, np.divide), "mul": (tf.multiply, np.multiply), "sub": (tf.subtract, np.subtract),
    "pow": (tf.pow, np.power), "maximum": (tf.maximum, np.maximum), "floordiv": (tf.floordiv, np.floor_divide),
    "mod": (tf.floormod, np.mod),
}


@pytest.fixture(autouse=True)
def loud_warnings():
    """Every test runs with the loudest filters a user can set: any warning would show (or raise)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield caught
    assert [w for w in caught if issubclass(w.category, RuntimeWarning)] == []


@given(x=special_arrays, op=st.sampled_from(sorted(UNARY)))
def test_unary_ops_propagate_nan_and_inf_like_numpy(x, op):
    ours, numpy = UNARY[op]
    with tf.Graph().as_default(), tf.Session() as sess:
        p = tf.placeholder(tf.float32, [None])
        got = sess.run(ours(p), {p: x})
    with np.errstate(all="ignore"):
        expected = numpy(x)
    np.testing.assert_array_equal(got, expected)
    assert np.asarray(got).dtype == np.float32


@given(x=special_arrays, y=st.sampled_from(SPECIAL), op=st.sampled_from(sorted(BINARY)))
def test_binary_ops_propagate_nan_and_inf_like_numpy(x, y, op):
    ours, numpy = BINARY[op]
    with tf.Graph().as_default(), tf.Session() as sess:
        p = tf.placeholder(tf.float32, [None])
        q = tf.placeholder(tf.float32, [])
        got = sess.run([ours(p, q), ours(q, p)], {p: x, q: y})
    with np.errstate(all="ignore"):
        expected = [numpy(x, np.float32(y)), numpy(np.float32(y), x)]
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])


def test_gradients_and_runtime_helpers_give_nan_and_inf_quietly(loud_warnings):
    x = tf.placeholder(tf.float32, [3])
    (g_sqrt,) = tf.gradients(tf.reduce_sum(tf.sqrt(x)), [x])
    softmax, log_softmax = tf.nn.softmax(x), tf.nn.log_softmax(x)
    xent = tf.nn.softmax_cross_entropy_with_logits_v2(labels=[[0.0, 1.0, 0.0]], logits=x[None])
    (g_xent,) = tf.gradients(xent, [x])
    data = np.array([0.0, np.inf, 1.0], np.float32)
    with tf.Session() as sess:
        got = sess.run([g_sqrt, softmax, log_softmax, xent, g_xent], {x: data})
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got[0], 0.5 / np.sqrt(data))
        shifted = data - np.max(data)
        np.testing.assert_array_equal(got[1], np.exp(shifted) / np.sum(np.exp(shifted)))
    assert np.isnan(got[2]).all() and np.isnan(got[3]).all() and np.isnan(got[4]).all()


def test_constants_folded_at_compile_time_are_quiet_too():
    zero = tf.constant(0.0)
    folded = [zero / zero, tf.log(zero), tf.cast(tf.constant(1 + 2j), tf.float32), tf.exp(tf.constant(1e3))]
    with tf.Session() as sess:
        got = sess.run(folded)
    assert np.isnan(got[0]) and got[1] == -np.inf and got[2] == 1.0 and got[3] == np.inf


def test_error_filters_do_not_turn_values_into_exceptions():
    x = tf.placeholder(tf.float32, [2])
    y = tf.nn.log_softmax(x / 0.0)
    with tf.Session() as sess:
        sess.run(y, {x: [1.0, -1.0]})
        warnings.simplefilter("error")  # set after s2sgrad's filter: it must still come first
        assert np.isnan(sess.run(y, {x: [1.0, -1.0]})).all()
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            assert np.isnan(sess.run(y, {x: [2.0, -1.0]})).all()


def test_the_decorator_is_quiet_too():
    grad = tf.grad(lambda x: np.sum(np.sqrt(x) / x))
    assert np.isnan(grad(np.array([0.0, 1.0]))[0])
    assert np.isnan(grad(np.array([0.0, 4.0]))[0])


def test_users_own_numpy_warnings_still_show(loud_warnings):
    x = tf.placeholder(tf.float32, [1])
    with tf.Session() as sess:
        sess.run(x / 0.0, {x: [1.0]})
    with warnings.catch_warnings(record=True) as mine:
        warnings.simplefilter("always")
        np.log(np.zeros(1))
    assert [str(w.message) for w in mine] == ["divide by zero encountered in log"]


def test_show_numpy_warnings_lets_them_through_from_the_generated_line():
    x = tf.placeholder(tf.float32, [2])
    y = tf.log(x) * 2.0
    with tf.Session() as sess:
        tf.show_numpy_warnings(True)
        try:
            with warnings.catch_warnings(record=True) as shown:
                warnings.simplefilter("always")
                sess.run(y, {x: [0.0, 1.0]})
        finally:
            tf.show_numpy_warnings(False)
        assert [str(w.message) for w in shown] == ["divide by zero encountered in log"]
        assert shown[0].filename.startswith("<s2sgrad:")
        with warnings.catch_warnings(record=True) as quiet:
            warnings.simplefilter("always")
            sess.run(y, {x: [0.0, 1.0]})
        assert quiet == []
