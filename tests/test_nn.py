"""tf.nn behaviour beyond the op table: TF's gradient conventions at kinks, numerical
stability, the fused cross-entropy semantics, dropout, argument errors, generated code."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import s2sgrad as tf


def run(fetches, feeds=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feeds)


# -- TF's conventions at the kinks ------------------------------------------------------------------

def test_relu_family_gradients_at_the_kinks_are_those_of_tensorflow():
    x = tf.constant([-1.0, 0.0, 3.0, 6.0, 7.0])
    grads = [tf.gradients(f(x), x)[0] for f in (tf.nn.relu, tf.nn.relu6, tf.nn.elu, tf.nn.leaky_relu)]
    relu, relu6, elu, leaky = run(grads)
    np.testing.assert_array_equal(relu, [0, 0, 1, 1, 1])        # ReluGrad: g * (y > 0)
    np.testing.assert_array_equal(relu6, [0, 0, 1, 0, 0])       # y in (0, 6)
    np.testing.assert_allclose(elu, [np.exp(-1.0), 1, 1, 1, 1], rtol=1e-6)
    np.testing.assert_allclose(leaky, [0.2, 0.2, 1, 1, 1], rtol=1e-6)


def test_relu_second_derivative_is_zero_not_none():
    x = tf.constant([[-1.0, 2.0]])
    (h,) = tf.hessians(tf.reduce_sum(tf.nn.relu(x) * 3.0), x)
    np.testing.assert_array_equal(run(h), np.zeros((1, 2, 1, 2)))


def test_sigmoid_xent_gradient_at_zero_is_sigmoid_minus_label():
    logits = tf.constant([0.0, 0.0, 2.0])
    labels = tf.constant([1.0, 0.3, 0.0])
    loss = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
    g_logits, g_labels = run(tf.gradients(loss, [logits, labels]))
    np.testing.assert_allclose(g_logits, [-0.5, 0.2, 1 / (1 + np.exp(-2.0))], rtol=1e-6)
    np.testing.assert_allclose(g_labels, [0.0, 0.0, -2.0])


# -- stability ---------------------------------------------------------------------------------------

@given(hnp.arrays(np.float32, (3, 4), elements=st.floats(-1e4, 1e4, width=32)))
def test_softmax_family_is_finite_for_large_logits(logits):
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [3, 4])
    labels = np.full((3, 4), 0.25, np.float32)
    outs = run([tf.nn.softmax(x), tf.nn.log_softmax(x),
                tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=x),
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1, 3], logits=x),
                tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=x), tf.nn.softplus(x)], {x: logits})
    for out in outs:
        assert np.all(np.isfinite(out)) and out.dtype == np.float32
    np.testing.assert_allclose(outs[0].sum(axis=1), 1.0, rtol=1e-5)
    shifted = logits.astype(np.float64) - logits.max(1, keepdims=True)
    log_softmax = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
    np.testing.assert_allclose(outs[1], log_softmax, rtol=1e-5, atol=1e-3)


@given(st.data())
def test_softmax_family_along_any_axis_matches_numpy(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4))
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    logits = data.draw(hnp.arrays(np.float64, shape, elements=st.floats(-30, 30)))
    labels = data.draw(hnp.arrays(np.float64, shape, elements=st.floats(0, 1)))
    tf.reset_default_graph()
    z, y = tf.placeholder(tf.float64, shape), tf.placeholder(tf.float64)
    loss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=z, axis=axis)
    outs = run([tf.nn.softmax(z, axis), tf.nn.log_softmax(z, axis), loss, tf.gradients(loss, z)[0]],
               {z: logits, y: labels})
    shifted = logits - logits.max(axis, keepdims=True)
    log_softmax = shifted - np.log(np.exp(shifted).sum(axis, keepdims=True))
    expected = [np.exp(log_softmax), log_softmax, -np.sum(labels * log_softmax, axis),
                np.exp(log_softmax) - labels]      # TF's fused gradient: softmax - labels
    for got, want in zip(outs, expected, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_softplus_matches_its_limits():
    x = tf.constant([-100.0, 0.0, 100.0], tf.float64)
    np.testing.assert_allclose(run(tf.nn.softplus(x)), [np.exp(-100.0), np.log(2.0), 100.0], rtol=1e-15)


# -- the fused cross-entropies ---------------------------------------------------------------------------

def test_softmax_xent_logits_gradient_is_softmax_minus_labels_as_in_tensorflow():
    """TF's fused kernel returns softmax - labels even when the labels do not sum to 1."""
    logits = tf.constant([[1.0, 2.0, 3.0]], tf.float64)
    labels = tf.constant([[0.5, 1.0, 0.0]], tf.float64)
    loss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
    g_logits, g_labels = run(tf.gradients(loss, [logits, labels]))
    z = np.array([[1.0, 2.0, 3.0]])
    softmax = np.exp(z) / np.exp(z).sum()
    np.testing.assert_allclose(g_logits, softmax - [[0.5, 1.0, 0.0]], rtol=1e-12)
    np.testing.assert_allclose(g_labels, -np.log(softmax), rtol=1e-12)


def test_softmax_xent_v1_stops_label_gradients_and_needs_named_arguments():
    logits = tf.constant([[1.0, 2.0]])
    labels = tf.constant([[0.25, 0.75]])
    loss = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    assert tf.gradients(loss, labels)[0] is None     # TF-1.x puts the labels behind stop_gradient (v2 does not)
    with pytest.raises(ValueError, match="Only call `softmax_cross_entropy_with_logits` with named arguments"):
        tf.nn.softmax_cross_entropy_with_logits(labels, logits)
    with pytest.raises(ValueError, match="Both `labels` and `logits` must be provided"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(logits=logits)


def test_softmax_xent_shape_errors():
    with pytest.raises(ValueError, match="must have the same shape"):
        tf.nn.softmax_cross_entropy_with_logits_v2(labels=tf.zeros([2, 4]), logits=tf.zeros([2, 3]))
    with pytest.raises(ValueError, match="should equal the shape of logits except for the last dimension"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1, 2], logits=tf.zeros([2, 3]))
    with pytest.raises(TypeError, match="labels must be int32 or int64"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0.0, 1.0], logits=tf.zeros([2, 3]))
    with pytest.raises(ValueError, match="Cannot specify both 'axis' and 'dim'"):
        tf.nn.softmax(tf.zeros([2, 3]), axis=0, dim=1)
    with pytest.raises(ValueError, match="Invalid Softmax dimension 2"):
        tf.nn.softmax(tf.zeros([2, 3]), axis=2)
    with pytest.raises(TypeError, match="not allowed for Softmax"):
        tf.nn.softmax(tf.constant([1, 2]))


def test_sparse_xent_label_out_of_range_is_an_invalid_argument_error():
    labels = tf.placeholder(tf.int32, [2])
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=tf.zeros([2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Received a label value of 3 which is outside"):
        run(loss, {labels: [0, 3]})
    np.testing.assert_allclose(run(loss, {labels: [0, 2]}), [np.log(3.0)] * 2, rtol=1e-6)


def test_float16_cross_entropy_is_computed_in_float32():
    logits = tf.constant([[1.0, 2.0, 3.0]], tf.float16)
    loss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=[[0.0, 0.0, 1.0]], logits=logits)
    sparse = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[2], logits=logits)
    assert loss.dtype == tf.float16 and sparse.dtype == tf.float16
    ops = {op.type: op for op in tf.get_default_graph().get_operations()}
    assert ops["SoftmaxCrossEntropyWithLogits"].inputs[0].dtype == tf.float32
    expected = np.log(np.exp([1.0, 2.0, 3.0]).sum()) - 3.0
    np.testing.assert_allclose(run([loss, sparse]), [[expected], [expected]], rtol=1e-3)


# -- dropout --------------------------------------------------------------------------------------------

def test_dropout_scales_kept_elements_and_is_seedable():
    x = tf.ones([200, 50])
    tf.set_random_seed(3)
    dropped = tf.nn.dropout(x, keep_prob=0.8, seed=5)
    with tf.Session() as sess:
        first, second = sess.run(dropped), sess.run(dropped)
    with tf.Session() as sess:
        again = sess.run(dropped)
    assert set(np.unique(first)) == {np.float32(0.0), np.float32(1.25)}
    assert 0.75 < np.mean(first > 0) < 0.85
    assert not np.array_equal(first, second)          # a new mask each run
    np.testing.assert_array_equal(first, again)        # the same sequence in a new session


def test_dropout_gradient_is_the_scaled_mask_and_noise_shape_broadcasts():
    x = tf.placeholder(tf.float32, [4, 6])
    y = tf.nn.dropout(x, rate=0.5, noise_shape=[4, 1], seed=1)
    out, grad = run([y, tf.gradients(y, x)[0]], {x: np.ones((4, 6), np.float32)})
    np.testing.assert_array_equal(out, grad)
    assert all(len(set(row)) == 1 for row in out)      # one decision per row
    assert set(np.unique(out)) <= {0.0, 2.0}


def test_dropout_arguments():
    x = tf.ones([3])
    assert tf.nn.dropout(x, rate=0.0) is x
    keep = tf.placeholder(tf.float32, [])
    np.testing.assert_array_equal(run(tf.nn.dropout(x, keep_prob=keep), {keep: 1.0}), [1, 1, 1])
    with pytest.raises(ValueError, match="Cannot specify both 'keep_prob' and 'rate'"):
        tf.nn.dropout(x, keep_prob=0.5, rate=0.5)
    with pytest.raises(ValueError, match="in the range \\[0, 1\\)"):
        tf.nn.dropout(x, rate=1.0)
    with pytest.raises(ValueError, match="keep_prob must be"):
        tf.nn.dropout(x, keep_prob=0.0)
    with pytest.raises(ValueError, match="You must provide a `rate`"):
        tf.nn.dropout(x)
    with pytest.raises(ValueError, match="floating point tensor"):
        tf.nn.dropout(tf.constant([1, 2]), rate=0.5)


# -- other ops ---------------------------------------------------------------------------------------

def test_bias_add_checks_shapes_and_layouts():
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4"):
        tf.nn.bias_add(tf.zeros([2, 3]), tf.zeros([4]))
    with pytest.raises(ValueError, match="Shape must be rank 1"):
        tf.nn.bias_add(tf.zeros([2, 3]), tf.zeros([1, 3]))
    with pytest.raises(ValueError, match="at least rank 2"):
        tf.nn.bias_add(tf.zeros([3]), tf.zeros([3]))
    with pytest.raises(ValueError, match="data_format"):
        tf.nn.bias_add(tf.zeros([2, 3]), tf.zeros([3]), data_format="HWCN")
    assert tf.nn.bias_add(tf.zeros([2, 3, 4]), tf.zeros([3]), data_format="NCW").shape.as_list() == [2, 3, 4]


def test_leaky_relu_casts_integers_and_moments_keep_dims():
    assert tf.nn.leaky_relu(tf.constant([-2, 3])).dtype == tf.float32
    np.testing.assert_allclose(run(tf.nn.leaky_relu(tf.constant([-2, 3]), alpha=0.5)), [-1.0, 3.0])
    mean, variance = tf.nn.moments(tf.constant([[1.0, 3.0], [5.0, 7.0]]), axes=[1], keep_dims=True)
    assert mean.shape.as_list() == [2, 1]
    np.testing.assert_allclose(run([mean, variance]), [[[2.0], [6.0]], [[1.0], [1.0]]])


def test_float32_stays_float32_even_with_uniform_gradients():
    """The default gradient (ones) is a uniform constant; it must not turn results into float64."""
    x = tf.placeholder(tf.float32, [2, 3])
    labels = tf.placeholder(tf.float32, [2, 3])
    outs = [f(x) for f in (tf.nn.relu, tf.nn.relu6, tf.nn.elu, tf.nn.selu, tf.nn.softplus, tf.nn.softsign,
                           tf.nn.leaky_relu, tf.nn.softmax, tf.nn.log_softmax, tf.nn.l2_loss, tf.nn.l2_normalize)]
    outs += [tf.nn.bias_add(tf.reshape(x, [1, 3, 2]), tf.ones([3]), data_format="NCHW"),
             tf.nn.bias_add(x, tf.ones([3])),
             tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.ones([2, 3]), logits=x),
             tf.nn.sigmoid_cross_entropy_with_logits(labels=x, logits=tf.ones([2, 3])),
             tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=x)]
    outs += [tf.gradients(o, x)[0] for o in outs]
    values = run(outs, {x: [[-1.0, 0.5, 2.0], [3.0, -4.0, 7.0]], labels: np.full((2, 3), 1 / 3)})
    assert [v.dtype for v in values] == [np.float32] * len(outs)


def test_embedding_lookup_gathers_rows():
    table = tf.constant(np.arange(6.0).reshape(3, 2))
    np.testing.assert_array_equal(run(tf.nn.embedding_lookup(table, [2, 0])), [[4.0, 5.0], [0.0, 1.0]])
    # two partitions ('mod'): id 3 is row 1 of partition 1
    np.testing.assert_array_equal(run(tf.nn.embedding_lookup([table, table + 10], [3, 0])), [[12.0, 13.0], [0.0, 1.0]])


# -- generated code ---------------------------------------------------------------------------------

def test_mlp_step_code_is_lean():
    """Relu and its gradient as a person writes them; the fused xent backprop reused directly."""
    x = tf.placeholder(tf.float32, [None, 5])
    y = tf.placeholder(tf.float32, [None, 3])
    w1, b1 = tf.Variable(np.ones((5, 4), np.float32)), tf.Variable(np.zeros(4, np.float32))
    w2 = tf.Variable(np.ones((4, 3), np.float32))
    h = tf.nn.relu(tf.matmul(x, w1) + b1)
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=tf.matmul(h, w2)))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        source = sess.source([train, loss], {x: np.ones((8, 5)), y: np.ones((8, 3)) / 3})
    lines = [line.split("#")[0].strip() for line in source.splitlines()]
    assert "h = np.maximum(x @ variable + variable_1, 0)" in lines
    assert "g_add = g_h * (h > 0)" in lines
    assert "g_mat_mul_1 = 0.125 * softmax_cross_entropy_with_logits_1" in lines
    assert "np.where" not in source and "broadcast_to" not in source
