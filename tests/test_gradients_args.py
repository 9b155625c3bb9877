"""``tf.gradients`` arguments, as in TensorFlow: list results, grad_ys, name scopes, aggregation."""
import numpy as np
import pytest

import s2sgrad as tf
from evaluate import evaluate

# -- results are lists -----------------------------------------------------------------------------

def test_result_is_a_list_for_a_single_x_and_for_a_tuple_of_xs():
    x = tf.constant(3.0)
    y = x * x
    single = tf.gradients(y, x)
    pair = tf.gradients(y, (x, x))
    assert type(single) is list and len(single) == 1
    assert type(pair) is list and len(pair) == 2
    assert evaluate(single) == [6.0]


def test_empty_xs_give_an_empty_list():
    x = tf.constant(3.0)
    assert tf.gradients(x * x, []) == []


def test_empty_ys_give_none_per_x_or_zeros_with_unconnected_zero():
    x = tf.constant([1.0, 2.0])
    i = tf.constant(4)
    assert tf.gradients([], [x, i]) == [None, None]
    zeros = tf.gradients([], [x, i], unconnected_gradients="zero")
    values = evaluate(zeros)
    np.testing.assert_array_equal(values[0], [0.0, 0.0])
    assert values[0].dtype == np.float32 and values[1].dtype == np.int32 and values[1] == 0


def test_a_call_that_returns_nothing_still_takes_its_name_scope():
    x = tf.constant(3.0)
    tf.gradients(x * x, [])
    g = tf.gradients(x * x, x)[0]
    assert g.name.startswith("gradients_1/")


# -- grad_ys ---------------------------------------------------------------------------------------

def test_grad_ys_length_mismatch_is_reported_like_tensorflow():
    x = tf.constant([1.0, 2.0])
    y = x * x
    with pytest.raises(ValueError, match=r"^Length mismatch. Passed 2 grad_ys for 1 ys$"):
        tf.gradients(y, x, grad_ys=[1.0, 2.0])   # a list is one entry per y, as in TF
    with pytest.raises(ValueError, match=r"^Length mismatch. Passed 1 grad_ys for 2 ys$"):
        tf.gradients([y, 2 * y], x, grad_ys=[tf.ones([2])])


def test_a_none_entry_means_ones_like_y():
    x = tf.constant([1.0, 2.0])
    y1, y2 = x * x, 3.0 * x
    got = evaluate(tf.gradients([y1, y2], x, grad_ys=[None, tf.constant([10.0, 20.0])]))
    np.testing.assert_allclose(got[0], 2 * np.array([1.0, 2.0]) + 3.0 * np.array([10.0, 20.0]))


def test_nested_list_grad_y_for_one_y_is_wrapped_in_a_list():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    y = x * x
    got = evaluate(tf.gradients(y, x, grad_ys=[[[1.0, 0.0], [2.0, 3.0]]]))[0]
    np.testing.assert_allclose(got, [[2.0, 0.0], [12.0, 24.0]])
    got = evaluate(tf.gradients([y, x], x, grad_ys=[[[1.0, 1.0], [1.0, 1.0]], None]))[0]
    np.testing.assert_allclose(got, 2 * np.array([[1.0, 2.0], [3.0, 4.0]]) + 1.0)


def test_array_and_python_scalar_grad_ys_adopt_the_dtype_of_y():
    x = tf.constant([1.0, 2.0], tf.float64)
    y = x * x
    got = evaluate(tf.gradients(y, x, grad_ys=np.array([1, 2])) + tf.gradients(y, x, grad_ys=2))
    np.testing.assert_allclose(got[0], [2.0, 8.0])
    np.testing.assert_allclose(got[1], [4.0, 8.0])
    assert got[0].dtype == got[1].dtype == np.float64


def test_a_scalar_grad_y_broadcasts_where_the_rule_broadcasts():
    x = tf.constant(np.full((2, 3), 2.0, np.float32))
    got = evaluate(tf.gradients(tf.square(x), x, grad_ys=3.0) + tf.gradients(x * x, x, grad_ys=3.0))
    for g in got:
        np.testing.assert_allclose(g, np.full((2, 3), 12.0))
        assert g.shape == (2, 3)


def test_grad_y_shapes_are_not_checked_up_front():
    x = tf.constant(np.ones((2, 3), np.float32))
    g = tf.gradients(x * 3.0, x, grad_ys=2.0)[0]   # TF builds this; the reshape fails when it runs
    with pytest.raises(tf.errors.InvalidArgumentError, match="reshape"):
        evaluate(g)


def test_grad_y_kind_must_match_y_kind():
    x = tf.constant(2.0)
    with pytest.raises(TypeError, match="Gradient type bool generated for real or integer-valued tensor"):
        tf.gradients(x * x, x, grad_ys=tf.constant(True))
    with pytest.raises(TypeError, match="Gradient type string generated for real or integer-valued"):
        tf.gradients(x * x, x, grad_ys=tf.constant("one"))


def test_an_int_grad_y_passes_the_kind_check_for_a_float_y():
    x = tf.constant(2.0)
    # kinds agree (both real), so the check passes; the Mul rule then refuses int32 * float32
    with pytest.raises(TypeError, match="int32"):
        tf.gradients(x * x, x, grad_ys=tf.constant(1))


def test_a_float_grad_y_for_an_int_y_is_the_seed_itself():
    i = tf.constant(4)
    got = evaluate(tf.gradients(i, i, grad_ys=tf.constant(2.5)))[0]
    assert got == 2.5 and got.dtype == np.float32


def test_complex_y_needs_grad_ys_of_complex_kind():
    c = tf.constant(np.complex64(1 + 2j))
    with pytest.raises(TypeError, match=r"Gradients of complex tensors \(.*\) must set grad_ys "
                                        r"\(y.dtype = complex64\)"):
        tf.gradients(c, c)
    with pytest.raises(TypeError, match="generated for complex-valued tensor"):
        tf.gradients(c, c, grad_ys=tf.constant(1.0))
    got = evaluate(tf.gradients(c, c, grad_ys=tf.constant(np.complex64(2 - 1j))))[0]
    assert got == np.complex64(2 - 1j)


def test_non_numeric_y_with_a_grad_y_is_refused():
    s = tf.constant("text")
    with pytest.raises(TypeError, match="must be numeric to obtain a default gradient"):
        tf.gradients(s, s, grad_ys=tf.constant("g"))


# -- name scopes -----------------------------------------------------------------------------------

def test_gradient_ops_live_in_uniquified_name_scopes():
    x = tf.constant(3.0)
    y = x * x
    first = tf.gradients(y, x)[0]
    second = tf.gradients(y, x)[0]
    custom = tf.gradients(y, x, name="my_grads")[0]
    default = tf.gradients(y, x, name=None)[0]
    assert first.name == "gradients/AddN:0"
    assert second.name == "gradients_1/AddN:0"
    assert custom.name == "my_grads/AddN:0"
    assert default.name == "gradients_2/AddN:0"
    names = [op.name for op in tf.get_default_graph().get_operations()]
    assert "gradients/mul_grad/Mul" in names and "gradients/mul_grad/Mul_1" in names
    assert evaluate([first, second, custom, default]) == [6.0] * 4


def test_gradient_op_names_follow_the_forward_op_names():
    w1, w2 = tf.Variable(2.0), tf.Variable(2.0)
    a = tf.multiply(w1, 3.0)
    b = tf.multiply(tf.stop_gradient(a), w2)
    grads = tf.gradients(b, xs=[w1, w2])
    assert grads[0] is None
    assert repr(grads[1]) == "<tf.Tensor 'gradients/Mul_1_grad/Mul_1:0' shape=() dtype=float32>"
    assert evaluate(grads[1]) == 6.0


def test_gradients_inside_a_user_name_scope():
    x = tf.constant(3.0)
    with tf.name_scope("outer"):
        g = tf.gradients(x * x, x)[0]
    assert g.name == "outer/gradients/AddN:0"


# -- aggregation -----------------------------------------------------------------------------------

def _three_contributions():
    """y = x*x + x: x receives three contributions (7.0 in total at x=3)."""
    x = tf.constant(3.0, name="x")
    return x, x * x + x


@pytest.mark.parametrize("method", [None, tf.AggregationMethod.ADD_N, tf.AggregationMethod.DEFAULT])
def test_add_n_aggregation_is_one_n_ary_sum(method):
    x, y = _three_contributions()
    g = tf.gradients(y, x, aggregation_method=method)[0]
    assert g.op.type == "AddN" and len(g.op.inputs) == 3 and g.name == "gradients/AddN:0"
    assert evaluate(g) == 7.0


@pytest.mark.parametrize("method", [tf.AggregationMethod.EXPERIMENTAL_TREE,
                                    tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N])
def test_tree_aggregation_adds_pairwise_left_to_right(method):
    x, y = _three_contributions()
    g = tf.gradients(y, x, aggregation_method=method)[0]
    assert g.name == "gradients/x_gradient_sum/AddN_1:0"
    first = g.op.inputs[0]
    assert first.name == "gradients/x_gradient_sum/AddN:0"
    assert len(g.op.inputs) == len(first.op.inputs) == 2
    # contributions in the order they arrive: the add (visited first) passes its seed through
    assert first.op.inputs[0].name == "gradients/grad_ys_0:0"
    assert first.op.inputs[1].name == "gradients/mul_grad/Mul:0"
    assert g.op.inputs[1].name == "gradients/mul_grad/Mul_1:0"
    assert evaluate(g) == 7.0


@pytest.mark.parametrize("method", [7, -1, "ADD_N"])
def test_an_invalid_aggregation_method_raises_when_an_op_is_visited(method):
    x = tf.constant(3.0)
    with pytest.raises(ValueError, match=r"^Invalid `aggregation_method` specified .*\. "
                                         r"Accepted values are \[0, 1, 2\]\.$"):
        tf.gradients(x + 1.0, x, aggregation_method=method)   # one contribution is enough, as in TF


def test_an_invalid_aggregation_method_is_not_checked_when_nothing_is_visited():
    x, other = tf.constant(3.0), tf.constant(1.0)
    assert tf.gradients(other * 2.0, x, aggregation_method=7) == [None]
    assert tf.gradients([], x, aggregation_method=7) == [None]


# -- placement hints ---------------------------------------------------------------------------------

def test_colocate_and_gate_gradients_change_nothing():
    x = tf.constant([1.0, 2.0])
    y = tf.reduce_sum(x * x * x)
    plain = tf.gradients(y, x)
    hinted = tf.gradients(y, x, colocate_gradients_with_ops=True, gate_gradients=True)
    got = evaluate(plain + hinted)
    np.testing.assert_array_equal(got[0], [3.0, 12.0])
    np.testing.assert_array_equal(got[1], got[0])
