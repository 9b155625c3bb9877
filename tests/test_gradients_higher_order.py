"""Gradients of gradients, ``tf.stop_gradient`` at every order, and ``tf.hessians``."""
import numpy as np
import pytest

import s2sgrad as tf
from evaluate import evaluate
from s2sgrad.testing import check_gradients


def _derivatives(y, x, depth):
    out = [y]
    for _ in range(depth):
        out.append(tf.gradients(out[-1], x)[0])
    return out


# -- stop_gradient --------------------------------------------------------------------------------------

def test_stop_gradient_passes_values_and_blocks_gradients():
    x = tf.constant(3.0)
    s = tf.stop_gradient(x)
    assert s.op.type == "StopGradient"
    assert tf.gradients(s, x) == [None]
    assert evaluate(tf.gradients(s * x, x)) == [3.0]
    assert evaluate(tf.gradients(s, s)) == [1.0]   # its own output still receives gradients


def test_stop_gradient_example_from_the_seed_program():
    a, b = tf.Variable(1.0), tf.Variable(1.0)
    c = tf.add(a, b)
    e = tf.add(tf.stop_gradient(c), tf.add(a, b))
    assert evaluate(tf.gradients(e, xs=[a, b])) == [1.0, 1.0]


def test_stop_gradient_holds_at_every_order():
    x = tf.constant(2.0)
    y = x * x * x * tf.stop_gradient(x)             # x**4, but the last factor is a constant
    got = evaluate(_derivatives(y, x, 3))
    assert got == [16.0, 3 * 4.0 * 2.0, 6 * 2.0 * 2.0, 6 * 2.0]
    free = _derivatives(x * x * x * x, x, 3)
    assert evaluate(free) == [16.0, 32.0, 48.0, 48.0]


def test_a_stopped_first_derivative_has_no_second_derivative():
    x = tf.constant([1.0, 2.0])
    g = tf.gradients(tf.reduce_sum(x * tf.stop_gradient(x * x)), x)[0]   # = x*x, as a constant
    np.testing.assert_array_equal(evaluate(g), [1.0, 4.0])
    assert tf.gradients(tf.reduce_sum(g), x) == [None]
    g_full = tf.gradients(tf.reduce_sum(x * x * x), x)[0]
    assert tf.gradients(tf.reduce_sum(tf.stop_gradient(g_full)), x) == [None]
    np.testing.assert_array_equal(evaluate(tf.gradients(tf.reduce_sum(g_full), x))[0], [6.0, 12.0])


def test_stop_gradients_argument_acts_per_call_only():
    x = tf.constant(2.0)
    y = x * x
    z = y * x                                        # x**3
    g = tf.gradients(z, x, stop_gradients=[y])[0]    # = y (the direct path only): 4
    assert evaluate(g) == 4.0
    assert evaluate(tf.gradients(g, x)) == [4.0]     # d(y)/dx = 2x: the stop is not remembered


# -- gradients of gradients ----------------------------------------------------------------------------

def test_third_order_derivatives_of_a_polynomial():
    x = tf.constant(2.0)
    got = evaluate(_derivatives(x ** 5.0 + 3.0 * x * x, x, 3))
    assert got == pytest.approx([32.0 + 12.0, 80.0 + 12.0, 160.0 + 6.0, 240.0])


def test_third_order_derivatives_of_sin_times_x():
    values = np.array([0.3, -1.2, 2.0])
    x = tf.constant(values)
    ders = _derivatives(tf.sin(x) * x, x, 3)
    got = evaluate(ders)
    s, c = np.sin(values), np.cos(values)
    np.testing.assert_allclose(got[1], c * values + s)
    np.testing.assert_allclose(got[2], -s * values + 2 * c)
    np.testing.assert_allclose(got[3], -c * values - 3 * s)


def test_second_order_checked_against_finite_differences():
    x = tf.placeholder(tf.float64, [3])
    w = tf.placeholder(tf.float64, [3, 2])
    y = tf.reduce_sum(tf.tanh(tf.matmul(tf.reshape(x, [1, 3]), w)) ** 2.0)
    rng = np.random.default_rng(3)
    check_gradients(y, [x, w], {x: rng.standard_normal(3), w: rng.standard_normal((3, 2))}, order=2)


def test_gradients_of_gradients_get_their_own_name_scope():
    x = tf.constant(3.0)
    g = tf.gradients(x * x * x, x)[0]
    gg = tf.gradients(g, x)[0]
    assert g.name.startswith("gradients/") and gg.name.startswith("gradients_1/")
    assert evaluate(gg) == 18.0


# -- hessians ----------------------------------------------------------------------------------------

def test_hessian_of_a_vector_function():
    x = tf.constant([1.0, 2.0, 3.0])
    (h,) = tf.hessians(tf.reduce_sum(x * x * x), x)
    assert h.shape.as_list() == [3, 3]
    np.testing.assert_array_equal(evaluate(h), np.diag([6.0, 12.0, 18.0]))


def test_hessian_of_a_matrix_function_has_shape_x_plus_x():
    values = np.array([[1.0, 2.0], [3.0, 4.0]])
    x = tf.constant(values)
    (h,) = tf.hessians(tf.reduce_sum(tf.matmul(x, x)), x)
    assert h.shape.as_list() == [2, 2, 2, 2]
    eye = np.eye(2)
    # y = sum_ijk x_ik x_kj, so d2y / dx_ab dx_cd = [b == c] + [a == d]
    expected = np.einsum("bc,ad->abcd", eye, np.ones((2, 2))) + np.einsum("ad,bc->abcd", eye, np.ones((2, 2)))
    np.testing.assert_array_equal(evaluate(h), expected)


def test_hessians_for_several_xs_and_ys():
    a = tf.constant([1.0, 2.0])
    b = tf.constant(3.0)
    ha, hb = tf.hessians([tf.reduce_sum(a * a) * b, b * b * b], [a, b])
    got = evaluate([ha, hb])
    np.testing.assert_array_equal(got[0], 2 * 3.0 * np.eye(2))
    assert got[1] == 6 * 3.0 and got[1].shape == ()


def test_hessians_refuse_a_missing_second_derivative():
    x = tf.constant([1.0, 2.0])
    with pytest.raises(ValueError, match=r"^None values not supported\.$"):
        tf.hessians(tf.reduce_sum(2.0 * x), x)        # the gradient does not depend on x
    with pytest.raises(ValueError, match=r"^None values not supported\.$"):
        tf.hessians(tf.reduce_sum(tf.constant(1.0) * 3.0), x)   # not even a first derivative
