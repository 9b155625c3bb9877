"""TF behaviours of the op library that the op tables do not pin down: op types and names,
gradients TF defines in a particular way, data-dependent shapes, namespaces."""
import numpy as np
import pytest

import s2sgrad as tf

OP_TYPES = [
    (lambda x, i: tf.tile(x, [2, 1]), "Tile", "Tile"),
    (lambda x, i: tf.pad(x, [[1, 1], [0, 0]]), "Pad", "Pad"),
    (lambda x, i: tf.pad(x, [[1, 1], [0, 0]], constant_values=2.0), "PadV2", "PadV2"),
    (lambda x, i: tf.pad(x, [[1, 1], [0, 0]], "reflect"), "MirrorPad", "MirrorPad"),
    (lambda x, i: tf.slice(x, [0, 0], [1, 2]), "Slice", "Slice"),
    (lambda x, i: tf.reverse(x, [1]), "ReverseV2", "ReverseV2"),
    (lambda x, i: tf.broadcast_to(x, [4, 2, 3]), "BroadcastTo", "BroadcastTo"),
    (lambda x, i: tf.one_hot(i, 3), "OneHot", "one_hot"),
    (lambda x, i: tf.gather_nd(x, [[0, 1]]), "GatherNd", "GatherNd"),
    (lambda x, i: tf.scatter_nd([[1]], [[1.0, 2.0]], [3, 2]), "ScatterNd", "ScatterNd"),
    (lambda x, i: tf.where(x > 0), "Where", "Where"),
    (lambda x, i: tf.where(x > 0, x, -x), "Select", "Select"),
    (lambda x, i: tf.where_v2(x > 0, x, 0.0), "SelectV2", "SelectV2"),
    (lambda x, i: tf.einsum("ij->j", x), "Einsum", "einsum"),
    (lambda x, i: tf.tensordot(x, x, [[0], [0]]), "Einsum", "Tensordot"),
    (lambda x, i: tf.boolean_mask(x, [True, False]), "GatherV2", "boolean_mask/GatherV2"),
    (lambda x, i: tf.split(x, 3, axis=1)[0], "Split", "split"),
    (lambda x, i: tf.split(x, [1, 2], axis=1)[0], "SplitV", "split"),
    (lambda x, i: tf.div_no_nan(x, x), "DivNoNan", "div_no_nan"),
]


@pytest.mark.parametrize("build, op_type, name", OP_TYPES, ids=[t[1] + "_" + t[2] for t in OP_TYPES])
def test_op_types_and_default_names(build, op_type, name):
    out = build(tf.placeholder(tf.float32, [2, 3]), tf.placeholder(tf.int32, [2]))
    assert (out.op.type, out.op.name) == (op_type, name)


def _grads(ys, xs, feeds):
    grads = tf.gradients(ys, xs)
    with tf.Session() as sess:
        return [None if g is None else sess.run(g, feeds) for g in grads]


def test_reduce_max_shares_the_gradient_among_ties():
    x = tf.placeholder(tf.float64, [2, 3])
    (g,) = _grads(tf.reduce_max(x, 1), [x], {x: [[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]]})
    np.testing.assert_allclose(g, [[0, 0.5, 0.5], [1 / 3, 1 / 3, 1 / 3]])


def test_pad_constant_values_get_no_gradient_as_in_tf():
    x = tf.placeholder(tf.float64, [2])
    c = tf.placeholder(tf.float64, [])
    gx, gc = _grads(tf.reduce_sum(tf.pad(x, [[1, 2]], constant_values=c)), [x, c], {x: [1.0, 2.0], c: 3.0})
    np.testing.assert_array_equal(gx, [1.0, 1.0])
    assert gc is None


def test_one_hot_and_where_are_not_differentiable():
    on = tf.placeholder(tf.float32, [])
    x = tf.placeholder(tf.float32, [3])
    y = tf.reduce_sum(tf.one_hot([0, 2], 3, on_value=on, off_value=0.0)) + tf.cast(tf.reduce_sum(tf.where(x > 0)),
                                                                                   tf.float32)
    assert tf.gradients(y, [on, x]) == [None, None]


def test_gather_nd_gradient_adds_duplicate_indices():
    p = tf.placeholder(tf.float64, [3, 2])
    (g,) = _grads(tf.reduce_sum(tf.gather_nd(p, [[1], [1], [0]])), [p], {p: np.zeros((3, 2))})
    np.testing.assert_array_equal(g, [[1, 1], [2, 2], [0, 0]])


def test_mirror_pad_gradient_folds_back_onto_the_mirrored_elements():
    x = tf.placeholder(tf.float64, [4])
    weights = tf.constant([10.0, 20.0, 1.0, 2.0, 3.0, 4.0, 30.0], tf.float64)
    g_reflect, = _grads(tf.reduce_sum(tf.pad(x, [[2, 1]], "REFLECT") * weights), [x], {x: np.zeros(4)})
    g_symmetric, = _grads(tf.reduce_sum(tf.pad(x, [[2, 1]], "SYMMETRIC") * weights), [x], {x: np.zeros(4)})
    # REFLECT pads x2 x1 | x0 x1 x2 x3 | x2;  SYMMETRIC pads x1 x0 | x0 x1 x2 x3 | x3
    np.testing.assert_array_equal(g_reflect, [1.0, 2.0 + 20.0, 3.0 + 10.0 + 30.0, 4.0])
    np.testing.assert_array_equal(g_symmetric, [1.0 + 20.0, 2.0 + 10.0, 3.0, 4.0 + 30.0])


def test_einsum_gradient_of_index_summed_out_in_the_forward_pass():
    x = tf.placeholder(tf.float64, [2, 3])
    v = tf.placeholder(tf.float64, [3])
    gx, gv = _grads(tf.einsum("ij,j->", x, v), [x, v], {x: np.arange(6.0).reshape(2, 3), v: [1.0, 2.0, 3.0]})
    np.testing.assert_array_equal(gx, [[1, 2, 3], [1, 2, 3]])
    np.testing.assert_array_equal(gv, [3, 5, 7])


def test_boolean_mask_module_serves_any_number_of_true_elements():
    """One compiled module (same feed shapes) must handle every mask: nothing data-dependent is
    baked into the generated code."""
    x = tf.placeholder(tf.float64, [4, 2])
    m = tf.placeholder(tf.bool, [4])
    y = tf.boolean_mask(x, m)
    (g,) = tf.gradients(tf.reduce_sum(y * y), [x])
    xv = np.arange(8.0).reshape(4, 2)
    with tf.Session() as sess:
        for mask in ([True, False, True, True], [False] * 4, [True] * 4):
            mv = np.array(mask)
            out, grad = sess.run([y, g], {x: xv, m: mv})
            np.testing.assert_array_equal(out, xv[mv])
            np.testing.assert_array_equal(grad, 2 * xv * mv[:, None])
    source = tf.source([y, g], [x, m])
    assert "np.argwhere(" in source and "np.take(" in source


def test_slice_with_fed_begin_is_computed_at_run_time():
    x = tf.placeholder(tf.float32, [3, 4])
    begin = tf.placeholder(tf.int32, [2])
    y = tf.slice(x, begin, [2, -1])
    xv = np.arange(12, dtype=np.float32).reshape(3, 4)
    with tf.Session() as sess:
        for b in ([0, 1], [1, 3]):
            np.testing.assert_array_equal(sess.run(y, {x: xv, begin: b}), xv[b[0]:b[0] + 2, b[1]:])


def test_generated_code_for_layout_ops_is_plain_numpy():
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    y = tf.reduce_sum(tf.square(tf.tile(tf.pad(x, [[1, 1], [2, 0]], "REFLECT"), [2, 1])))
    (g,) = tf.gradients(y, [x])
    source = tf.source([y, g], [x])
    assert "np.tile(np.pad(x, ((1, 1), (2, 0)), mode='reflect'), (2, 1))" in source
    assert "np.reshape(" in source and "rt.mirror_pad_grad(" in source


def test_range_needs_constant_bounds():
    n = tf.placeholder(tf.int32, [])
    with pytest.raises(TypeError, match="known when the graph is built"):
        tf.range(n)
    assert tf.range(tf.constant(3)).op.type == "Const"


def test_math_namespace_aliases_the_top_level_ops():
    assert tf.math.reduce_sum is tf.reduce_sum and tf.math.log1p is tf.log1p
    assert tf.math.divide_no_nan is tf.div_no_nan and tf.math.floormod is tf.mod
    missing = [name for name in tf.math.__all__ if not callable(getattr(tf.math, name, None))]
    assert not missing
    with tf.Session() as sess:
        assert sess.run(tf.math.reduce_variance([1.0, 2.0, 3.0, 4.0])) == np.float32(1.25)


def test_zeros_and_ones_take_a_shape_held_by_a_variable():
    shape = tf.Variable([2, 3])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(tf.zeros(shape)).shape == (2, 3)
        assert sess.run(tf.ones(shape, tf.int32)).tolist() == [[1, 1, 1], [1, 1, 1]]


def test_old_and_new_argument_spellings_cannot_both_be_given():
    with pytest.raises(ValueError, match="Cannot specify both 'axis' and 'dim'"):
        tf.expand_dims(tf.zeros([2]), axis=0, dim=0)
    with pytest.raises(ValueError, match="Cannot specify both 'axis' and 'squeeze_dims'"):
        tf.squeeze(tf.zeros([1, 2]), axis=[0], squeeze_dims=[0])


def test_tile_gradient_with_unknown_rank_is_a_clear_error_and_known_rank_works():
    x = tf.placeholder(tf.float64, None, name="x")
    with pytest.raises(ValueError, match="gradient of tile needs the rank of x:0"):
        tf.gradients(tf.reduce_sum(tf.tile(x, tf.placeholder(tf.int32, None))), x)
    x2 = tf.placeholder(tf.float64, [None, None])
    multiples = tf.placeholder(tf.int32, [2])
    g = tf.gradients(tf.reduce_sum(tf.tile(x2, multiples)), x2)[0]
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(g, {x2: np.ones((2, 3)), multiples: [2, 1]}), np.full((2, 3), 2.0))


def test_a_tensor_as_a_python_bool_names_it_and_points_at_what_exists():
    t = tf.placeholder(tf.bool, [], name="flag")
    with pytest.raises(TypeError, match=r"tf.Tensor \(flag:0\) as a Python bool.*tf\.where.*sess\.run") as info:
        bool(t)
    assert "tf.cond" not in str(info.value)   # not in s2sgrad yet (issue 13): no advice that cannot be followed
