"""``gather`` gradients are ``tf.IndexedSlices``: fetching, densifying, aggregation."""
import numpy as np
import pytest

import s2sgrad as tf
from evaluate import evaluate

PARAMS = np.arange(12.0, dtype=np.float32).reshape(4, 3)
WEIGHTS = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], np.float32)


def _gather_gradient(indices=(0, 2, 0)):
    p = tf.constant(PARAMS)
    y = tf.reduce_sum(tf.gather(p, list(indices)) * WEIGHTS)
    return p, y, tf.gradients(y, p)[0]


def test_the_gradient_of_gather_is_indexed_slices():
    _, _, g = _gather_gradient()
    assert isinstance(g, tf.IndexedSlices)
    assert all(isinstance(t, tf.Tensor) for t in (g.values, g.indices, g.dense_shape))
    assert g.dtype == tf.float32
    assert g.shape.as_list() == [4, 3]
    assert g.values.shape.as_list() == [3, 3]
    assert repr(g) == (f"IndexedSlices(indices={g.indices.name}, values={g.values.name}, "
                       f"dense_shape={g.dense_shape.name})")


def test_running_indexed_slices_gives_an_indexed_slices_value():
    _, _, g = _gather_gradient()
    got = evaluate(g)
    assert isinstance(got, tf.IndexedSlicesValue)
    np.testing.assert_array_equal(got.values, WEIGHTS)
    np.testing.assert_array_equal(got.indices, [0, 2, 0])
    np.testing.assert_array_equal(got.dense_shape, [4, 3])
    nested = evaluate({"g": [g], "n": g.indices})
    assert isinstance(nested["g"][0], tf.IndexedSlicesValue)
    np.testing.assert_array_equal(nested["n"], [0, 2, 0])


def test_convert_to_tensor_densifies_and_duplicate_indices_add_up():
    _, _, g = _gather_gradient()
    dense = tf.convert_to_tensor(g)
    assert isinstance(dense, tf.Tensor) and dense.shape.as_list() == [4, 3]
    expected = np.zeros((4, 3), np.float32)
    expected[0] = WEIGHTS[0] + WEIGHTS[2]
    expected[2] = WEIGHTS[1]
    np.testing.assert_array_equal(evaluate(dense), expected)
    np.testing.assert_array_equal(evaluate(tf.multiply(g, 2.0)), 2 * expected)   # op arguments densify
    np.testing.assert_array_equal(evaluate(tf.add(g, 1.0)), expected + 1.0)


def test_indexed_slices_and_dense_contributions_are_summed_densely():
    p = tf.constant(PARAMS)
    y = tf.reduce_sum(tf.gather(p, [1, 1])) + tf.reduce_sum(p * 2.0)
    g = tf.gradients(y, p)[0]
    assert isinstance(g, tf.Tensor) and g.op.type == "AddN"
    expected = np.full((4, 3), 2.0, np.float32)
    expected[1] += 2.0
    np.testing.assert_array_equal(evaluate(g), expected)


@pytest.mark.parametrize("method", [None, tf.AggregationMethod.EXPERIMENTAL_TREE])
def test_indexed_slices_contributions_are_concatenated(method):
    p = tf.constant(PARAMS)
    y = tf.reduce_sum(tf.gather(p, [0, 3])) + 10.0 * tf.reduce_sum(tf.gather(p, [3]))
    g = tf.gradients(y, p, aggregation_method=method)[0]
    assert isinstance(g, tf.IndexedSlices)
    got = evaluate(g)
    assert sorted(got.indices.tolist()) == [0, 3, 3]
    by_index = {int(i): row for i, row in zip(got.indices[:2], got.values[:2], strict=True)}
    np.testing.assert_array_equal(by_index[0], [1.0, 1.0, 1.0])
    dense = evaluate(tf.convert_to_tensor(g))
    np.testing.assert_array_equal(dense, [[1.0] * 3, [0.0] * 3, [0.0] * 3, [11.0] * 3])


def test_multi_dimensional_indices_flatten_into_rows():
    p = tf.constant(PARAMS)
    y = tf.reduce_sum(tf.gather(p, [[3, 1], [1, 0]]) * np.arange(1.0, 13.0, dtype=np.float32).reshape(2, 2, 3))
    got = evaluate(tf.gradients(y, p)[0])
    np.testing.assert_array_equal(got.indices, [3, 1, 1, 0])
    assert got.values.shape == (4, 3)
    dense = evaluate(tf.convert_to_tensor(tf.gradients(y, p)[0]))
    np.testing.assert_array_equal(dense[1], [4.0 + 7.0, 5.0 + 8.0, 6.0 + 9.0])


def test_gather_along_another_axis_has_a_dense_gradient():
    p = tf.constant(PARAMS)
    g = tf.gradients(tf.reduce_sum(tf.gather(p, [2, 2, 0], axis=1)), p)[0]
    assert isinstance(g, tf.Tensor)
    np.testing.assert_array_equal(evaluate(g), np.tile([1.0, 0.0, 2.0], (4, 1)))


def test_indexed_slices_flow_on_through_earlier_ops():
    x = tf.constant(PARAMS)
    p = x * 3.0
    g = tf.gradients(tf.reduce_sum(tf.gather(p, [2, 2])), x)[0]
    expected = np.zeros((4, 3), np.float32)
    expected[2] = 6.0
    np.testing.assert_array_equal(evaluate(g), expected)


def test_second_order_through_a_densified_gather_gradient():
    p = tf.constant(PARAMS)
    y = tf.reduce_sum(tf.gather(p, [1, 1, 3]) ** 2.0)
    g = tf.gradients(y, p)[0]
    gg = tf.gradients(tf.reduce_sum(tf.convert_to_tensor(g)), p)[0]
    expected = np.zeros((4, 3), np.float32)
    expected[1], expected[3] = 4.0, 2.0
    np.testing.assert_array_equal(evaluate(tf.convert_to_tensor(gg)), expected)


def test_a_variable_updated_with_a_gather_gradient():
    table = tf.Variable(PARAMS)
    loss = tf.reduce_sum(tf.gather(table, [0, 0, 2]))
    step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(step)
        got = sess.run(table)
    expected = PARAMS.copy()
    expected[0] -= 1.0
    expected[2] -= 0.5
    np.testing.assert_array_equal(got, expected)


def test_user_built_indexed_slices():
    values = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    slices = tf.IndexedSlices(values, tf.constant([2, 0]), tf.constant([3, 2]))
    assert slices.shape.as_list() == [3, 2]
    np.testing.assert_array_equal(evaluate(tf.convert_to_tensor(slices)), [[3.0, 4.0], [0.0, 0.0], [1.0, 2.0]])
    no_shape = tf.IndexedSlices(values, tf.constant([2, 0]))
    assert no_shape.shape.as_list() == [None, 2]
    assert evaluate(no_shape).dense_shape is None
    with pytest.raises(ValueError, match="without a dense_shape"):
        tf.convert_to_tensor(no_shape)


def test_an_indexed_slices_grad_y_seeds_the_walk():
    p = tf.constant(PARAMS)
    seed = tf.IndexedSlices(tf.constant([[1.0, 1.0, 1.0]]), tf.constant([3]), tf.constant([4, 3]))
    g = tf.gradients(p * 2.0, p, grad_ys=seed)[0]
    expected = np.zeros((4, 3), np.float32)
    expected[3] = 2.0
    np.testing.assert_array_equal(evaluate(g), expected)
