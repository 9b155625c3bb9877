"""Custom gradients: ``tf.custom_gradient``, ``tf.RegisterGradient`` with ``gradient_override_map``,
``tf.NotDifferentiable``."""
import itertools

import numpy as np
import pytest

import s2sgrad as tf
from evaluate import evaluate
from s2sgrad.testing import check_gradients

_names = itertools.count()


def unique(name):
    """Gradient names are global (as in TF): one fresh name per registration."""
    return f"{name}_{next(_names)}"


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))

    return tf.log(1 + e), grad


# -- tf.custom_gradient ---------------------------------------------------------------------------------

def test_custom_gradient_replaces_the_derivative_of_the_function():
    x = tf.constant(100.0)
    y = log1pexp(x)
    naive = tf.gradients(tf.log(1 + tf.exp(x)), x)[0]
    got = evaluate([y, tf.gradients(y, x)[0], naive])
    assert got[1] == 1.0            # the custom rule stays finite where exp overflows
    assert np.isnan(got[2])


def test_custom_gradient_values_match_finite_differences():
    x = tf.placeholder(tf.float64, [4])
    y = tf.reduce_sum(log1pexp(x) * x)
    check_gradients(y, [x], {x: np.array([-2.0, -0.5, 0.3, 1.7])}, order=2)


def test_the_function_is_an_identity_op_with_an_overridden_gradient():
    x = tf.placeholder(tf.float32, [3], name="x")
    y = log1pexp(x)
    assert y.op.type == "IdentityN"
    assert y.op.inputs[1] is x
    assert y.op.get_attr("_gradient_op_type").startswith("CustomGradient-")
    statements = [line for line in tf.source(y, [x]).splitlines() if "#" in line]
    assert statements and not any("IdentityN" in line for line in statements)  # costs nothing at run time
    got = evaluate(y, {x: [0.0, 1.0, 2.0]})
    np.testing.assert_allclose(got, np.log1p(np.exp([0.0, 1.0, 2.0])), rtol=1e-6)


def test_nothing_flows_into_the_ops_of_the_function():
    @tf.custom_gradient
    def fake_square(x):
        return tf.square(x), lambda dy: 3.0 * dy

    x = tf.constant(5.0)
    assert evaluate(tf.gradients(fake_square(x), x)) == [3.0]


def test_the_custom_gradient_flows_on_to_upstream_ops():
    @tf.custom_gradient
    def double_grad(u):
        return tf.identity(u), lambda dy: 2.0 * dy

    x = tf.constant(3.0)
    y = double_grad(x * x) * 10.0
    assert evaluate(tf.gradients(y, x)) == [10.0 * 2.0 * 2 * 3.0]


def test_several_inputs():
    @tf.custom_gradient
    def product(a, b):
        def grad(dy):
            return dy * b * 10.0, dy * a

        return a * b, grad

    a, b = tf.constant(2.0), tf.constant(3.0)
    assert evaluate(tf.gradients(product(a, b), [a, b])) == [30.0, 2.0]


def test_several_outputs_each_get_a_gradient_and_unused_ones_get_zeros():
    @tf.custom_gradient
    def two(x):
        def grad(dy1, dy2):
            return 5.0 * dy1 + 7.0 * dy2

        return [2.0 * x, 3.0 * x], grad

    x = tf.constant(1.0)
    y1, y2 = two(x)
    got = evaluate(tf.gradients(y1, x) + tf.gradients(y1 + y2, x) + [y1, y2])
    assert got == [5.0, 12.0, 2.0, 3.0]


def test_nested_results_keep_their_structure():
    @tf.custom_gradient
    def nested(x, pair):
        first, second = pair

        def grad(da, db, dc):
            return da + db + dc, [10.0 * db, 100.0 * dc]

        return (x + 1.0, [first * 2.0, second * 3.0]), grad

    x, p, q = tf.constant(1.0), tf.constant(2.0), tf.constant(3.0)
    a, (b, c) = nested(x, [p, q])
    assert evaluate([a, b, c]) == [2.0, 4.0, 9.0]
    assert evaluate(tf.gradients(a + b + c, [x, p, q])) == [3.0, 10.0, 100.0]


def test_python_values_are_converted_like_any_op_argument():
    @tf.custom_gradient
    def plus_one(x):
        return x + 1.0, lambda dy: dy

    y = plus_one(2.0)
    assert y.dtype == tf.float32 and evaluate(y) == 3.0


def test_second_order_through_a_custom_gradient():
    x = tf.constant(np.array([-1.0, 0.5, 2.0]))
    g = tf.gradients(log1pexp(x), x)[0]
    gg = tf.gradients(g, x)[0]
    s = 1 / (1 + np.exp(-np.array([-1.0, 0.5, 2.0])))
    got = evaluate([g, gg])
    np.testing.assert_allclose(got[0], s)
    np.testing.assert_allclose(got[1], s * (1 - s))


def test_variables_read_by_the_function_get_gradients_from_grad_fn():
    w = tf.Variable(4.0, name="w")

    @tf.custom_gradient
    def scaled(x):
        def grad(dy, variables):
            assert variables == [w]
            return dy * w, [dy * x * 10.0]

        return x * w.read_value(), grad

    x = tf.constant(3.0)
    assert evaluate(tf.gradients(scaled(x), [x, w])) == [4.0, 30.0]


def test_a_function_reading_variables_needs_grad_fn_to_accept_them():
    w = tf.Variable(4.0, name="w")

    @tf.custom_gradient
    def scaled(x):
        return x * w, lambda dy: dy

    with pytest.raises(TypeError, match="grad_fn must accept keyword argument 'variables'.*w:0"):
        scaled(tf.constant(1.0))


def test_grad_fn_must_return_one_gradient_per_variable():
    w = tf.Variable(4.0)

    @tf.custom_gradient
    def scaled(x):
        return x * w, lambda dy, variables: (dy, [])

    y = scaled(tf.constant(1.0))
    with pytest.raises(ValueError, match="Must return gradient for each variable"):
        tf.gradients(y, w)


def test_grad_fn_must_return_one_gradient_per_argument():
    @tf.custom_gradient
    def product(a, b):
        return a * b, lambda dy: dy

    a = tf.constant(1.0)
    with pytest.raises(ValueError, match="Num gradients 2 generated for op .* do not match num inputs 3"):
        tf.gradients(product(a, 2.0), a)


def test_keyword_arguments_and_bad_returns_are_refused():
    with pytest.raises(ValueError, match="keywords arguments only when eager execution is enabled"):
        log1pexp(x=tf.constant(1.0))

    @tf.custom_gradient
    def no_grad_fn(x):
        return x, None

    with pytest.raises(TypeError, match="must return \\(result, grad_fn\\)"):
        no_grad_fn(tf.constant(1.0))


def test_decorator_with_parentheses():
    @tf.custom_gradient()
    def halve_grad(x):
        return tf.identity(x), lambda dy: dy / 2.0

    x = tf.constant(1.0)
    assert evaluate(tf.gradients(halve_grad(x), x)) == [0.5]


# -- tf.RegisterGradient and gradient_override_map ---------------------------------------------------------

def test_a_registered_gradient_overrides_an_op_in_the_map():
    name = unique("ClipSquareGrad")

    @tf.RegisterGradient(name)
    def _clip(op, grad):
        return [tf.clip_by_value(2.0 * op.inputs[0] * grad, -1.0, 1.0)]

    x = tf.constant([-3.0, 0.25, 3.0])
    graph = tf.get_default_graph()
    with graph.gradient_override_map({"Square": name}):
        clipped = tf.square(x)
    plain = tf.square(x)
    got = evaluate(tf.gradients(tf.reduce_sum(clipped), x) + tf.gradients(tf.reduce_sum(plain), x))
    np.testing.assert_array_equal(got[0], [-1.0, 0.5, 1.0])
    np.testing.assert_array_equal(got[1], [-6.0, 0.5, 6.0])


def test_an_override_can_name_a_built_in_gradient():
    x = tf.constant([0.3, 1.7])
    with tf.get_default_graph().gradient_override_map({"Floor": "Identity"}):
        y = tf.floor(x) * 3.0       # the straight-through estimator
    np.testing.assert_array_equal(evaluate(tf.gradients(tf.reduce_sum(y), x))[0], [3.0, 3.0])


def test_nested_override_maps_restore_the_outer_map():
    outer, inner = unique("Outer"), unique("Inner")
    tf.RegisterGradient(outer)(lambda op, grad: [grad * 10.0])
    tf.RegisterGradient(inner)(lambda op, grad: [grad * 100.0])
    x = tf.constant(1.0)
    graph = tf.get_default_graph()
    with graph.gradient_override_map({"Square": outer}):
        a = tf.square(x)
        with graph.gradient_override_map({"Square": inner}):
            b = tf.square(x)
        c = tf.square(x)
    d = tf.square(x)
    assert evaluate([tf.gradients(t, x)[0] for t in (a, b, c, d)]) == [10.0, 100.0, 10.0, 2.0]


def test_registering_a_name_twice_or_a_primitive_name_is_an_error():
    name = unique("Twice")
    tf.RegisterGradient(name)(lambda op, grad: [grad])
    with pytest.raises(KeyError, match=f"Registering two gradient with name '{name}'"):
        tf.RegisterGradient(name)(lambda op, grad: [grad])
    with pytest.raises(KeyError, match="Registering two gradient with name 'Square'"):
        tf.RegisterGradient("Square")(lambda op, grad: [grad])
    with pytest.raises(TypeError, match="op_type must be a string"):
        tf.RegisterGradient(3)


def test_gradient_override_map_needs_strings():
    with pytest.raises(TypeError, match="must be strings"):
        with tf.get_default_graph().gradient_override_map({"Square": 1}):
            pass


# -- tf.NotDifferentiable ----------------------------------------------------------------------------------

def test_not_differentiable_gives_none_instead_of_lookup_error():
    name = unique("NoGradHere")
    tf.NotDifferentiable(name)
    x = tf.constant(2.0)
    with tf.get_default_graph().gradient_override_map({"Square": name}):
        y = tf.square(x)
    assert tf.gradients(y, x) == [None]
    assert tf.gradients(y + x, x)[0] is not None
    with pytest.raises(KeyError):
        tf.NoGradient(name)


def test_not_differentiable_needs_a_string():
    with pytest.raises(TypeError, match="op_type must be a string"):
        tf.NotDifferentiable(None)
