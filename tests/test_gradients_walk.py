"""TensorFlow's gradient walk: stop_gradients, unconnected xs, integers, ys on ys, xs on xs,
duplicates, Variables, missing rules."""
import numpy as np
import pytest

import s2sgrad as tf
from evaluate import evaluate

# -- stop_gradients ----------------------------------------------------------------------------------

def test_stop_gradients_docstring_example():
    a = tf.constant(0.0)
    b = 2 * a
    assert evaluate(tf.gradients(a + b, [a, b], stop_gradients=[a, b])) == [1.0, 1.0]
    assert evaluate(tf.gradients(a + b, [a, b])) == [3.0, 1.0]


def test_stop_gradients_are_op_granular():
    x = tf.constant([1.0, 2.0])
    first, second = tf.split(x, 2)
    y = tf.reduce_sum(first * second)
    np.testing.assert_array_equal(evaluate(tf.gradients(y, x))[0], [2.0, 1.0])
    # naming one output stops the whole split op, so nothing reaches x through `second` either
    assert tf.gradients(y, x, stop_gradients=[first]) == [None]
    got = evaluate(tf.gradients(y, [second, x], stop_gradients=first)[0])
    np.testing.assert_array_equal(got, [1.0])


def test_an_x_that_is_a_stop_still_gets_its_total():
    x = tf.constant(1.0)
    y = 2.0 * x
    z = y * y + y
    got = tf.gradients(z, [x, y], stop_gradients=[y])
    assert got[0] is None
    assert evaluate(got[1]) == 2 * 2.0 + 1.0


def test_stop_gradients_not_between_xs_and_ys_are_ignored():
    x = tf.constant(3.0)
    unrelated = tf.constant(5.0) * 2.0
    y = x * x
    downstream = y + 1.0
    got = tf.gradients(y, x, stop_gradients=[unrelated, downstream])
    assert evaluate(got) == [6.0]


def test_stop_gradients_accept_a_single_tensor_or_variable():
    v = tf.Variable(2.0)
    y = v * 3.0
    z = y * v
    assert evaluate(tf.gradients(z, v, stop_gradients=y)) == [6.0]       # only the direct path: y
    assert evaluate(tf.gradients(z, v, stop_gradients=[v])) == [12.0]   # v is an x: it keeps its total


def test_stop_gradient_op_and_argument_together_stop_at_whichever_comes_first():
    x = tf.constant(1.0)
    y = x * 3.0
    z = tf.stop_gradient(y) * x + y * y
    assert evaluate(tf.gradients(z, x)) == [3.0 + 18.0]
    assert evaluate(tf.gradients(z, x, stop_gradients=[y])) == [3.0]


# -- unconnected xs ---------------------------------------------------------------------------------

def test_unconnected_xs_get_none_by_default():
    x, other = tf.constant(2.0), tf.constant([1.0, 2.0])
    got = tf.gradients(x * x, [x, other])
    assert got[1] is None and evaluate(got[0]) == 4.0


@pytest.mark.parametrize("how", ["zero", tf.UnconnectedGradients.ZERO])
def test_unconnected_zero_gives_zeros_in_the_dtype_of_x(how):
    x = tf.constant(2.0)
    floats = tf.constant([[1.0, 2.0]])
    ints = tf.constant([1, 2, 3])
    wide = tf.Variable(np.zeros(2, np.float64))
    got = evaluate(tf.gradients(x * x, [x, floats, ints, wide], unconnected_gradients=how))
    assert got[0] == 4.0
    np.testing.assert_array_equal(got[1], [[0.0, 0.0]])
    np.testing.assert_array_equal(got[2], [0, 0, 0])
    np.testing.assert_array_equal(got[3], [0.0, 0.0])
    assert [g.dtype for g in got[1:]] == [np.float32, np.int32, np.float64]


@pytest.mark.parametrize("how", ["none", tf.UnconnectedGradients.NONE])
def test_unconnected_none_spelled_both_ways(how):
    x, other = tf.constant(2.0), tf.constant(1.0)
    assert tf.gradients(x * x, other, unconnected_gradients=how) == [None]


@pytest.mark.parametrize("value, text", [("nonsense", "'nonsense'"), (3, "'3'"), ("ZERO", "'ZERO'")])
def test_unknown_unconnected_gradients_values_are_refused(value, text):
    x = tf.constant(2.0)
    with pytest.raises(ValueError, match=f"^Unknown value for unconnected_gradients: {text}$"):
        tf.gradients(x * x, x, unconnected_gradients=value)


def test_a_path_cut_on_all_sides_gives_none_not_zero():
    x = tf.constant(2.0)
    y = tf.stop_gradient(x) * 3.0
    assert tf.gradients(y, x) == [None]
    assert evaluate(tf.gradients(y, x, unconnected_gradients="zero")) == [0.0]


def test_zero_also_covers_an_output_whose_sibling_got_a_gradient():
    v = tf.constant([1.0, 2.0])
    first, second = tf.unstack(v)
    y = second * 3.0
    # checked against TensorFlow 2.21: [zeros_like(first), 3.0]; with 'none' first gets None
    assert tf.gradients(y, [first, second])[0] is None
    assert evaluate(tf.gradients(y, [first, second], unconnected_gradients="zero")) == [0.0, 3.0]


# -- integers and other non-float tensors ------------------------------------------------------------

def test_integer_xs_never_get_gradients():
    i = tf.constant(3)
    assert tf.gradients(i * 2, i) == [None]
    assert evaluate(tf.gradients(i * 2, i, unconnected_gradients="zero")) == [0]


def test_a_cast_round_trip_through_int_cuts_the_path():
    x = tf.constant(2.7)
    y = tf.cast(tf.cast(x, tf.int32), tf.float32) * 2.0
    assert tf.gradients(y, x) == [None]
    both = y + x * x
    assert evaluate(tf.gradients(both, x)) == [pytest.approx(5.4)]


def test_argmax_and_comparisons_carry_no_gradient():
    x = tf.constant([1.0, 3.0, 2.0])
    y = tf.cast(tf.argmax(x), tf.float32) + tf.cast(x > 1.5, tf.float32)[0]
    assert tf.gradients(y, x) == [None]


def test_gradient_of_an_int_tensor_with_respect_to_itself_is_the_seed():
    i = tf.constant([3, 4])
    got = evaluate(tf.gradients(i, i) + tf.gradients(i, i, grad_ys=tf.constant([5, 6])))
    np.testing.assert_array_equal(got[0], [1, 1])
    np.testing.assert_array_equal(got[1], [5, 6])
    assert got[0].dtype == np.int32
    flag = tf.constant(False)
    assert evaluate(tf.gradients(flag, flag))[0] == np.True_


# -- ys on ys, xs on xs, duplicates --------------------------------------------------------------------

@pytest.mark.parametrize("order", [0, 1])
def test_ys_depending_on_other_ys_equal_the_gradient_of_their_sum(order):
    x = tf.constant(2.0)
    y = x * x
    y2 = 3.0 * y
    ys = [y, y2] if order == 0 else [y2, y]
    got = evaluate(tf.gradients(ys, x) + tf.gradients(y + y2, x))
    assert got == [16.0, 16.0]


def test_xs_downstream_of_other_xs_keep_propagating():
    x = tf.constant(1.0)
    y = 2 * x
    z = 3 * y
    assert evaluate(tf.gradients(z, [x, y])) == [6.0, 3.0]


def test_duplicated_xs_get_the_same_gradient_tensor():
    x = tf.constant(2.0)
    got = tf.gradients(x * x * x, [x, x])
    assert got[0] is got[1]
    assert evaluate(got) == [12.0, 12.0]


def test_duplicated_ys_add_up():
    x = tf.constant(2.0)
    y = x * x
    assert evaluate(tf.gradients([y, y, y], x)) == [12.0]


def test_a_y_not_connected_to_any_x_contributes_nothing():
    x, other = tf.constant(2.0), tf.constant(5.0)
    assert evaluate(tf.gradients([x * x, other * other, tf.constant(1.0)], x)) == [4.0]
    assert tf.gradients([other * other], x) == [None]


def test_y_times_itself_counts_both_edges():
    x = tf.constant(3.0)
    y = x * 2.0
    assert evaluate(tf.gradients(y * y, x)) == [2 * 6.0 * 2.0]


# -- Variables ----------------------------------------------------------------------------------------

def test_variables_as_xs_and_ys():
    v = tf.Variable(3.0)
    w = tf.Variable([1.0, 2.0], dtype=tf.float64)
    assert evaluate(tf.gradients(v * v, v)) == [6.0]
    assert evaluate(tf.gradients(v, v)) == [1.0]
    np.testing.assert_array_equal(evaluate(tf.gradients(tf.reduce_sum(w * w), w))[0], [2.0, 4.0])
    assert evaluate(tf.gradients(v.read_value() * 2.0, v)) == [2.0]
    assert tf.gradients(v, v.initial_value) == [None]   # a variable's value is not its initializer


def test_assignments_are_not_differentiable():
    v = tf.Variable(3.0)
    assert tf.gradients(tf.assign(v, 5.0), v) == [None]


# -- gradient functions -------------------------------------------------------------------------------

def _square_using(gradient_name, x):
    """``tf.square(x)`` whose gradient is the one registered as ``gradient_name``."""
    with tf.get_default_graph().gradient_override_map({"Square": gradient_name}):
        return tf.square(x)


def test_an_op_without_a_gradient_raises_lookup_error():
    x = tf.constant(2.0)
    y = _square_using("NoSuchGradientAnywhere", x)
    with pytest.raises(LookupError, match=r"^No gradient defined for operation 'Square' \(op type: Square\)"):
        tf.gradients(y, x)


def test_a_missing_gradient_is_only_an_error_on_the_path():
    x = tf.constant(2.0)
    off_path = _square_using("NoSuchGradientAnywhere", tf.constant(1.0))
    assert evaluate(tf.gradients(x * off_path, x)) == [1.0]


def test_a_none_gradient_on_another_float_output_becomes_zeros():
    x = tf.constant([1.0, 2.0, 3.0, 4.0])
    first, _ = tf.split(x, 2)
    got = evaluate(tf.gradients(tf.reduce_sum(first * 2.0), x))[0]
    np.testing.assert_array_equal(got, [2.0, 2.0, 0.0, 0.0])


def test_a_gradient_function_must_return_one_entry_per_input():
    tf.RegisterGradient("WalkTestTwoGrads")(lambda op, grad: [grad, grad])
    x = tf.constant(2.0)
    y = _square_using("WalkTestTwoGrads", x)
    with pytest.raises(ValueError, match=r"^Num gradients 2 generated for op .* do not match num inputs 1$"):
        tf.gradients(y, x)


def test_rules_whose_gradient_has_the_wrong_shape_are_refused():
    tf.RegisterGradient("WalkTestWrongShape")(lambda op, grad: [tf.ones([3])])
    y = _square_using("WalkTestWrongShape", tf.constant([1.0, 2.0]))
    with pytest.raises(ValueError, match="Incompatible shapes between op input and calculated input gradient"):
        tf.gradients(y, y.op.inputs[0])
