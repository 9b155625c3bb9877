"""TF-1.x's Dimension and TensorShape, and the user idioms built on them, checked against TensorFlow.

TF1_BEHAVIOUR was recorded once from real TensorFlow (2.21, tensorflow-cpu) with ``tf.compat.v1``,
``disable_eager_execution()`` and ``disable_v2_tensorshape()`` (TF-1.x shapes), by evaluating each
expression with ``D = tf.compat.v1.Dimension`` and ``S = tf.TensorShape`` and writing down ``repr`` of the
result, or the error's type and message. A message of None marks where s2sgrad words the error its own
way (the type is the same). TensorFlow is not needed to run these tests.
"""
import pickle

import numpy as np
import pytest

import s2sgrad as tf
from s2sgrad.shapes import TensorShape

D, S, dv, dai = tf.Dimension, tf.TensorShape, tf.dimension_value, tf.dimension_at_index

TF1_BEHAVIOUR = [
    ('D(3) + 1', 'Dimension(4)'),
    ('1 + D(3)', 'Dimension(4)'),
    ('D(None) + 1', 'Dimension(None)'),
    ('D(3) + None', 'Dimension(None)'),
    ('None + D(3)', 'Dimension(None)'),
    ('D(3) + D(None)', 'Dimension(None)'),
    ('D(None) + D(None)', 'Dimension(None)'),
    ('D(3) - 1', 'Dimension(2)'),
    ('5 - D(3)', 'Dimension(2)'),
    ('D(3) * 2', 'Dimension(6)'),
    ('2 * D(3)', 'Dimension(6)'),
    ('D(None) * 2', 'Dimension(None)'),
    ('D(7) // 2', 'Dimension(3)'),
    ('7 // D(2)', 'Dimension(3)'),
    ('D(7) // D(None)', 'Dimension(None)'),
    ('D(7) % 3', 'Dimension(1)'),
    ('7 % D(3)', 'Dimension(1)'),
    ('D(3) - 5', ('ValueError', 'Dimension -2 must be >= 0')),
    ('D(3) + (-5)', ('TypeError', "unsupported operand type(s) for +: 'Dimension' and 'int'")),
    ('D(3) * 1.5', ('TypeError', "unsupported operand type(s) for *: 'Dimension' and 'float'")),
    ('D(3) + 1.0', ('TypeError', "unsupported operand type(s) for +: 'Dimension' and 'float'")),
    ("D(3) + 'a'", ('TypeError', "unsupported operand type(s) for +: 'Dimension' and 'str'")),
    ('D(7) / 2', ('TypeError', "unsupported operand type(s) for /: 'Dimension' and 'int', please use // instead")),
    ('7 / D(2)', ('TypeError', "unsupported operand type(s) for /: 'int' and 'Dimension', please use // instead")),
    ('D(3) // 0', ('ZeroDivisionError', 'integer division or modulo by zero')),
    ('D(3) == 3', 'True'),
    ('3 == D(3)', 'True'),
    ('D(3) == D(3)', 'True'),
    ('D(3) == 4', 'False'),
    ('D(3) == None', 'None'),
    ('D(None) == None', 'None'),
    ('D(None) == 3', 'None'),
    ('D(None) == D(None)', 'None'),
    ('D(3) != 3', 'False'),
    ('D(3) != 4', 'True'),
    ('D(3) != None', 'None'),
    ("D(3) == 'a'", 'False'),
    ('D(4) == 4.0', 'False'),
    ('D(3) == np.int64(3)', 'True'),
    ('D(3) < 4', 'True'),
    ('D(3) <= 3', 'True'),
    ('D(3) > 4', 'False'),
    ('D(3) >= 3', 'True'),
    ('4 > D(3)', 'True'),
    ('D(3) < None', 'None'),
    ('D(None) < 3', 'None'),
    ('D(None) >= D(None)', 'None'),
    ("D(3) < 'a'", ('TypeError', None)),
    ('int(D(3))', '3'),
    ('float(D(3))', '3.0'),
    ('[0, 1, 2, 3][D(1)]', '1'),
    ('range(D(3))', 'range(0, 3)'),
    ('bool(D(0))', 'False'),
    ('bool(D(3))', 'True'),
    ('bool(D(None))', 'False'),
    ('repr(D(3))', "'Dimension(3)'"),
    ('str(D(3))', "'3'"),
    ('repr(D(None))', "'Dimension(None)'"),
    ('str(D(None))', "'?'"),
    ('D(3).value', '3'),
    ('D(None).value', 'None'),
    ('D(np.int64(4))', 'Dimension(4)'),
    ('D(D(3))', 'Dimension(3)'),
    ('D(-1)', ('ValueError', 'Dimension -1 must be >= 0')),
    ('D(2.0)', ('TypeError', None)),
    ("D('a')", ('TypeError', None)),
    ('hash(D(3))', ('TypeError', "unhashable type: 'Dimension'")),
    ('D(3).merge_with(3)', 'Dimension(3)'),
    ('D(None).merge_with(4)', 'Dimension(4)'),
    ('D(3).merge_with(None)', 'Dimension(3)'),
    ('D(3).merge_with(4)', ('ValueError', 'Dimensions 3 and 4 are not compatible')),
    ('D(3).is_compatible_with(None)', 'True'),
    ('D(3).is_compatible_with(4)', 'False'),
    ('D(3).is_compatible_with(D(3))', 'True'),
    ('D(3).assert_is_compatible_with(4)', ('ValueError', 'Dimensions 3 and 4 are not compatible')),
    ('dv(D(3))', '3'),
    ('dv(D(None))', 'None'),
    ('dv(5)', '5'),
    ('dv(None)', 'None'),
    ('max(D(3), D(4))', 'Dimension(4)'),
    ('sorted([D(3), D(1)])', '[Dimension(1), Dimension(3)]'),
    ('D(3) in [3]', 'True'),
    ('D(None) in [3]', 'False'),
    ("'%d' % D(3)", "'3'"),
    ('np.zeros([D(2), D(3)]).shape', '(2, 3)'),
    ('S([2, None])', 'TensorShape([Dimension(2), Dimension(None)])'),
    ('S(None)', 'TensorShape(None)'),
    ('S([])', 'TensorShape([])'),
    ('S(3)', 'TensorShape([Dimension(3)])'),
    ('S(np.int64(3))', 'TensorShape([Dimension(3)])'),
    ('S(np.array([2, 3]))', 'TensorShape([Dimension(2), Dimension(3)])'),
    ('S((2, 3))', 'TensorShape([Dimension(2), Dimension(3)])'),
    ('S([D(2), None])', 'TensorShape([Dimension(2), Dimension(None)])'),
    ('S(S([2]))', 'TensorShape([Dimension(2)])'),
    ('S([2.0])', ('TypeError', None)),
    ('S([[2]])', ('TypeError', None)),
    ('S([2, None])[0]', 'Dimension(2)'),
    ('S([2, None])[1]', 'Dimension(None)'),
    ('S([2, None])[-1]', 'Dimension(None)'),
    ('S([2, None])[5]', ('IndexError', None)),
    ('S([2, 3])[np.int64(0)]', 'Dimension(2)'),
    ('S([2, 3])[D(1)]', 'Dimension(3)'),
    ("S([2, 3])['a']", ('TypeError', None)),
    ('S(None)[0]', 'Dimension(None)'),
    ('S(None)[-1]', 'Dimension(None)'),
    ('S(None)[1:]', 'TensorShape(None)'),
    ('S(None)[1:3]', 'TensorShape([Dimension(None), Dimension(None)])'),
    ('S(None)[::2]', ('ValueError', 'Steps are not yet handled')),
    ('S([2, None, 4])[1:]', 'TensorShape([Dimension(None), Dimension(4)])'),
    ('S([2, None, 4])[::2]', 'TensorShape([Dimension(2), Dimension(4)])'),
    ('S([1, 2])[0:0]', 'TensorShape([])'),
    ('S([2, None]).dims', '[Dimension(2), Dimension(None)]'),
    ('S(None).dims', 'None'),
    ('S([]).dims', '[]'),
    ('S([2, None]).ndims', '2'),
    ('S(None).ndims', 'None'),
    ('S([2, None]).rank', '2'),
    ('S([2, None]).as_list()', '[2, None]'),
    ('S(None).as_list()', ('ValueError', 'as_list() is not defined on an unknown TensorShape.')),
    ('list(S([2, None]))', '[Dimension(2), Dimension(None)]'),
    ('tuple(S([2, 3]))', '(Dimension(2), Dimension(3))'),
    ('list(S(None))', ('ValueError', 'Cannot iterate over a shape with unknown rank.')),
    ('len(S([2, None]))', '2'),
    ('len(S(None))', ('ValueError', 'Cannot take the length of shape with unknown rank.')),
    ('bool(S([]))', 'True'),
    ('bool(S(None))', 'False'),
    ('S([2, 3]).num_elements()', '6'),
    ('S([2, None]).num_elements()', 'None'),
    ('S(None).num_elements()', 'None'),
    ('S([]).num_elements()', '1'),
    ('S([2, 3]).is_fully_defined()', 'True'),
    ('S([2, None]).is_fully_defined()', 'False'),
    ('S(None).is_fully_defined()', 'False'),
    ('S([2, None]).is_compatible_with([2, 3])', 'True'),
    ('S([2, None]).is_compatible_with([3, 3])', 'False'),
    ('S([2]).is_compatible_with([2, 3])', 'False'),
    ('S(None).is_compatible_with([2])', 'True'),
    ('S([2]).is_compatible_with(None)', 'True'),
    ('S([2, None]).merge_with([None, 3])', 'TensorShape([Dimension(2), Dimension(3)])'),
    ('S([2, None]).merge_with([3, 3])', ('ValueError', 'Shapes (2, ?) and (3, 3) are not compatible')),
    ('S([2]).merge_with([2, 3])', ('ValueError', 'Shapes (2,) and (2, 3) are not compatible')),
    ('S(None).merge_with([2])', 'TensorShape([Dimension(2)])'),
    ('S([2]).merge_with(S(None))', 'TensorShape([Dimension(2)])'),
    ('S([2]).concatenate([3, None])', 'TensorShape([Dimension(2), Dimension(3), Dimension(None)])'),
    ('S([2]).concatenate(None)', 'TensorShape(None)'),
    ('S(None).concatenate([2])', 'TensorShape(None)'),
    ('S([2]) + S([3])', 'TensorShape([Dimension(2), Dimension(3)])'),
    ('S([2]) + [3]', 'TensorShape([Dimension(2), Dimension(3)])'),
    ('[3] + S([2])', 'TensorShape([Dimension(3), Dimension(2)])'),
    ('S([2, None]).with_rank(2)', 'TensorShape([Dimension(2), Dimension(None)])'),
    ('S([2, None]).with_rank(3)', ('ValueError', 'Shape (2, ?) must have rank 3')),
    ('S(None).with_rank(2)', 'TensorShape([Dimension(None), Dimension(None)])'),
    ('S([2]).with_rank_at_least(2)', ('ValueError', 'Shape (2,) must have rank at least 2')),
    ('S([2, 3]).with_rank_at_least(1)', 'TensorShape([Dimension(2), Dimension(3)])'),
    ('S(None).with_rank_at_least(2)', 'TensorShape(None)'),
    ('S([2, 3]).with_rank_at_most(1)', ('ValueError', 'Shape (2, 3) must have rank at most 1')),
    ('S([2]).with_rank_at_most(3)', 'TensorShape([Dimension(2)])'),
    ('S([2, None]).most_specific_compatible_shape([2, 3])', 'TensorShape([Dimension(2), Dimension(None)])'),
    ('S([2, 4]).most_specific_compatible_shape([2, 3])', 'TensorShape([Dimension(2), Dimension(None)])'),
    ('S([2]).most_specific_compatible_shape([2, 3])', 'TensorShape(None)'),
    ('S(None).most_specific_compatible_shape([2, 3])', 'TensorShape(None)'),
    ('S([2, None]).assert_is_compatible_with([3, 3])', ('ValueError', 'Shapes (2, ?) and [3, 3] are incompatible')),
    ('S([2, None]).assert_is_compatible_with([2, 3])', 'None'),
    ('S([2]).assert_has_rank(2)', ('ValueError', 'Shape (2,) must have rank 2')),
    ('S([2]).assert_has_rank(1)', 'None'),
    ('S(None).assert_has_rank(2)', 'None'),
    ('S([2]).assert_same_rank([2, 3])', ('ValueError', 'Shapes (2,) and (2, 3) must have the same rank')),
    ('S([2]).assert_same_rank(None)', 'None'),
    ('S([2, None]).assert_is_fully_defined()', ('ValueError', 'Shape (2, ?) is not fully defined')),
    ('S([2, 3]).assert_is_fully_defined()', 'None'),
    ('S([2, None]) == S([2, None])', 'True'),
    ('S([2, None]) == [2, None]', 'True'),
    ('S([2, 3]) == [2, 3]', 'True'),
    ('S([2, 3]) == (2, 3)', 'True'),
    ('S(None) == S(None)', 'True'),
    ('S(None) == S([2])', 'False'),
    ('S([2, 3]) == S([2, 4])', 'False'),
    ('S([2, 3]) != [2, 3]', 'False'),
    ('S([2, None]) != [2, None]', 'False'),
    ('S([2, 3]) != [2, 4]', 'True'),
    ("S([2, 3]) == 'a'", 'False'),
    ('S([2, 3]) == None', 'False'),
    ('hash(S([2, 3])) == hash(S([2, 3]))', 'True'),
    ('hash(S([2, None])) == hash(S([2, None]))', 'True'),
    ('repr(S([2, None]))', "'TensorShape([Dimension(2), Dimension(None)])'"),
    ('str(S([2, None]))', "'(2, ?)'"),
    ('repr(S(None))', "'TensorShape(None)'"),
    ('str(S(None))', "'<unknown>'"),
    ('str(S([2]))', "'(2,)'"),
    ('repr(S([]))', "'TensorShape([])'"),
    ('str(S([]))', "'()'"),
    ('repr(S([2]))', "'TensorShape([Dimension(2)])'"),
    ('S([2, 3])[1] * 2', 'Dimension(6)'),
    ('int(S([2, 3])[1])', '3'),
    ('S([2, 3])[1] == 3', 'True'),
    ('S([2, None])[1].value', 'None'),
    ('S([2, None])[0].value', '2'),
    ('D(3) in S([2, 3])', 'True'),
    ('3 in S([2, 3])', 'True'),
    ('np.zeros(S([2, 3])).shape', '(2, 3)'),
    ('dv(S([2, None])[0])', '2'),
    ('dv(S([2, None])[1])', 'None'),
    ('dai(S([2, 3]), 1)', 'Dimension(3)'),
    ('dai(S(None), 1)', 'Dimension(None)'),
]


@pytest.mark.parametrize("expr, expected", TF1_BEHAVIOUR, ids=[e for e, _ in TF1_BEHAVIOUR])
def test_dimension_and_tensorshape_behave_as_tf1(expr, expected):
    if isinstance(expected, str):
        assert repr(eval(expr)) == expected
        return
    error, message = expected
    with pytest.raises(Exception) as info:
        eval(expr)
    assert type(info.value).__name__ == error
    if message is not None:
        assert str(info.value) == message


def test_unknown_dimension_is_not_an_int():
    with pytest.raises(TypeError, match="unknown Dimension"):
        int(D(None))
    with pytest.raises(TypeError, match="unknown Dimension"):
        [1, 2][D(None)]


def test_pickle_and_internal_sizes():
    for value in (D(3), D(None), S([2, None]), S(None)):
        again = pickle.loads(pickle.dumps(value))
        assert type(again) is type(value) and repr(again) == repr(value)
    assert S([2, None]).sizes == (2, None) and S(None).sizes is None and S([D(4)]).sizes == (4,)
    assert all(type(d) is int for d in S([np.int64(2), D(3)]).sizes)


def test_minus_one_is_an_unknown_size():
    # deliberate leniency: TF refuses -1 in a static shape ("Dimension -1 must be >= 0"); s2sgrad reads it
    # as unknown, so tf.placeholder(tf.float32, [-1, 3]) works
    assert S([-1, 3]).as_list() == [None, 3]
    with pytest.raises(ValueError, match=r"^Dimension -2 must be >= 0$"):
        S([-2])


def test_dimension_at_index_refuses_a_bad_index_clearly():
    # deliberate difference: TF raises IndexError (or fails an assertion for negative indices)
    assert repr(dai([2, 3], -1)) == "Dimension(3)"
    with pytest.raises(ValueError, match="out of range"):
        dai([2, 3], 2)
    with pytest.raises(TypeError, match="index must be an int"):
        dai([2, 3], "1")


def test_v2_tensorshape_switch():
    try:
        tf.enable_v2_tensorshape()
        shape = S([2, None])
        assert shape[0] == 2 and type(shape[0]) is int and shape[1] is None and list(shape) == [2, None]
        assert repr(shape) == "TensorShape([2, None])" and str(shape) == "(2, None)"
        assert repr(shape.dims) == "[Dimension(2), Dimension(None)]"  # TF 2 keeps Dimensions here
    finally:
        tf.disable_v2_tensorshape()
    assert repr(S([2])[0]) == "Dimension(2)" and str(S([None])) == "(?,)"


def test_tensor_and_variable_texts_write_unknown_sizes_as_tf1():
    with tf.Graph().as_default():
        x = tf.placeholder("float", [None, 3], name="x")
        v = tf.Variable(tf.zeros([2]), name="v")
        assert repr(x) == "<tf.Tensor 'x:0' shape=(?, 3) dtype=float32>"
        assert str(x) == 'Tensor("x:0", shape=(?, 3), dtype=float32)'
        u = tf.Variable(tf.placeholder_with_default([1.0], [None]), validate_shape=False, name="u")
        assert repr(v) == "<tf.Variable 'v:0' shape=(2,) dtype=float32>"
        assert repr(u) == "<tf.Variable 'u:0' shape=<unknown> dtype=float32>"


def test_user_idioms_in_a_graph_program():
    with tf.Graph().as_default():
        x = tf.placeholder("float", [None, 4])
        n_in = x.get_shape()[1].value
        assert n_in == 4 and int(x.shape[1]) == 4 and x.shape[1] * 2 == 8 and x.shape[0].value is None
        assert x.shape.as_list() == [None, 4] and x.shape.ndims == 2 and tf.dimension_value(x.shape[1]) == 4
        w = tf.get_variable("w", [x.shape[1], x.shape[1] * 2], initializer=tf.ones_initializer())
        b = tf.Variable(tf.zeros([w.shape[1]]))
        flat = tf.reshape(x, [-1, x.shape[1]])
        halves = tf.reshape(x, [-1, x.shape[1] // 2, 2])
        y = tf.matmul(flat, w) + b
        assert y.shape.as_list() == [None, 8] and halves.shape.as_list() == [None, 2, 2]
        filled = tf.fill([x.shape[1]], 3.0)
        zeros = tf.zeros(w.shape)
        like = tf.ones(x.shape[1:])
        sized = tf.constant(x.shape[1])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            feed = {x: np.arange(8, dtype=np.float32).reshape(2, 4)}
            got_y, got_h, got_f, got_z, got_l, got_s = sess.run([y, halves, filled, zeros, like, sized], feed)
    np.testing.assert_array_equal(got_y, np.tile(np.array([[6.0], [22.0]]), (1, 8)))
    assert got_h.shape == (2, 2, 2) and got_f.tolist() == [3.0] * 4 and got_z.shape == (4, 8)
    assert got_l.tolist() == [1.0] * 4 and got_s == 4 and got_s.dtype == np.int32


def test_unknown_dimension_inside_a_shape_list_is_a_clear_error():
    with tf.Graph().as_default():
        x = tf.placeholder("float", [None, 3])
        with pytest.raises(TypeError, match=r"Failed to convert elements of \[Dimension\(None\), 3\] to Tensor"):
            tf.reshape(x, [x.shape[0], 3])
        with pytest.raises(ValueError, match=r"^Cannot convert a partially known TensorShape \(\?, 3\) to a Tensor\.$"):
            tf.zeros(x.shape)
        with pytest.raises(ValueError, match=r"^Cannot convert an unknown Dimension to a Tensor: \?$"):
            tf.constant(x.shape[0])


def test_shapes_accept_dimensions_and_tensorshapes():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        y = tf.placeholder(tf.float32, TensorShape([D(None), x.shape[1]]))
        z = tf.placeholder(tf.float32, x.shape)
        assert y.shape == x.shape == z.shape and y.shape.merge_with([5, None]).as_list() == [5, 3]
        x.set_shape([D(7), 3])
        assert x.shape.as_list() == [7, 3]


X = np.arange(8, dtype=np.float32).reshape(2, 4)
# (expression using n = x.shape[1], a Dimension(4); static shape; value) - shapes and values as TF1-mode TF
# gave them for the same expressions (recorded with the same x and feed)
DIMENSION_ARGUMENTS = [
    ("tf.split(x, n, axis=1)[0]", [None, 1], X[:, :1]),
    ("tf.split(x, [1, n - 1], axis=1)[1]", [None, 3], X[:, 1:]),  # TF refuses a Dimension inside the list
    ("tf.one_hot([1], depth=n)", [1, 4], [[0, 1, 0, 0]]),
    ("tf.range(n)", [4], [0, 1, 2, 3]),
    ("tf.linspace(0.0, 1.0, n)", [4], np.linspace(0, 1, 4)),
    ("tf.slice(x, [0, 0], [-1, n])", [None, 4], X),
    ("tf.expand_dims(x, axis=tf.Dimension(1))", [None, 1, 4], X[:, None]),
    ("tf.reduce_sum(x, axis=tf.Dimension(1))", [None], X.sum(1)),
    ("tf.reduce_mean(x, axis=[tf.Dimension(0)])", [4], X.mean(0)),
    ("tf.tile(x, [1, n])", [None, 16], np.tile(X, (1, 4))),
    ("tf.ones([n])", [4], np.ones(4)),
    ("tf.fill([n, 1], 2.0)", [4, 1], np.full((4, 1), 2.0)),
    ("tf.reshape(x, [-1, n * 1])", [None, 4], X),
    ("tf.zeros(tf.TensorShape([n]))", [4], np.zeros(4)),
    ("x / tf.cast(n, tf.float32)", [None, 4], X / 4),
    ("tf.transpose(x, [tf.Dimension(1), 0])", [4, None], X.T),
    ("tf.gather(x, [0], axis=tf.Dimension(1))", [None, 1], X[:, :1]),
    ("tf.concat([x, x], axis=tf.Dimension(1))", [None, 8], np.concatenate([X, X], 1)),
    ("tf.stack([x, x], axis=tf.Dimension(0))", [2, None, 4], np.stack([X, X])),
    ("tf.unstack(x, num=n, axis=1)[0]", [None], X[:, 0]),
    ("tf.matmul(x, tf.ones([n, 2]))", [None, 2], X @ np.ones((4, 2))),
    ("float(n) * x", [None, 4], 4 * X),
    ("tf.pad(x, [[0, 0], [0, n]])", [None, 8], np.pad(X, [(0, 0), (0, 4)])),
]


@pytest.mark.parametrize("expr, static, expected", DIMENSION_ARGUMENTS, ids=[e for e, _, _ in DIMENSION_ARGUMENTS])
def test_dimensions_are_accepted_where_ints_are(expr, static, expected):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 4])
        t = eval(expr, {"tf": tf, "x": x, "n": x.shape[1]})
        assert t.shape.as_list() == static
        with tf.Session() as sess:
            np.testing.assert_allclose(sess.run(t, {x: X}), expected, rtol=1e-6)
