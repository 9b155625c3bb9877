"""tf.Assert, the tf.assert_* family, check_numerics and add_check_numerics_ops in graph mode:
when they run, what a failure leaves behind, and the build-time checks (messages as TF 2.21's
tf.compat.v1 gives them; run-time messages are checked against recorded TF output in
test_nnops_tf.py)."""
import numpy as np
import pytest

import s2sgrad as tf


def test_a_failed_assert_changes_no_variable():
    x = tf.placeholder(tf.float32, [3], name="x")
    v = tf.Variable(1.0, name="v")
    with tf.control_dependencies([tf.assert_positive(x)]):
        step = tf.assign_add(v, 1.0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(step, {x: [1.0, 2.0, 3.0]})
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"Condition x > 0 did not hold"):
            sess.run(step, {x: [1.0, -2.0, 3.0]})
        assert sess.run(v) == 2.0


def test_an_assert_runs_only_when_something_that_runs_depends_on_it():
    x = tf.placeholder(tf.float32, [2], name="x")
    check = tf.Assert(tf.reduce_all(x > 0), [x])
    y = x * 2.0
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {x: [-1.0, 1.0]}), [-2.0, 2.0])   # not fetched: not run
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"assertion failed: \[-1 1\]"):
            sess.run([y, check], {x: [-1.0, 1.0]})


def test_checks_decided_while_building_raise_then():
    with tf.Graph().as_default():
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            tf.assert_equal(tf.constant([1, 2]), tf.constant([1, 3]))
        assert info.value.message == "Condition x == y did not hold element-wise:\nx (Const:0) = \n[1 2]\n" \
                                     "y (Const_1:0) = \n[1 3]"
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"^mm\nCondition x < y did not hold"):
            tf.assert_less(tf.constant(1), tf.constant(0), message="mm")
        x = tf.placeholder(tf.float32, [3], name="x")
        with pytest.raises(ValueError, match=r"^Tensor x:0 must have rank 2\.  Received rank 1, shape \(3,\)$"):
            tf.assert_rank(x, 2)
        with pytest.raises(ValueError, match=r"^mm\.  Tensor x:0 must have rank at least 2\.  Received rank 1"):
            tf.assert_rank_at_least(x, 2, message="mm")
        with pytest.raises(ValueError, match=r"^Tensor x:0 must have rank in \(0, 2\)\.  Received rank 1"):
            tf.assert_rank_in(x, [0, 2])
        with pytest.raises(TypeError, match=r"^x:0 must be of type tf\.int32; got tf\.float32$"):
            tf.assert_type(x, tf.int32)
        with pytest.raises(TypeError, match=r"^Expected \"x\" to be integer type\.  Found: x:0 of dtype "
                                            r"<dtype: 'float32'>$"):
            tf.assert_integer(x)
        with pytest.raises(ValueError, match=r"^Expected scalar shape for x:0, saw shape: \(3,\)\.$"):
            tf.assert_scalar(x)
        assert tf.assert_rank(x, 1).name == "assert_rank_1/static_checks_determined_all_ok"


def test_a_rank_unknown_until_run_time_is_checked_then():
    x = tf.placeholder(tf.float32, name="x")
    with tf.control_dependencies([tf.assert_rank(x, 2)]):
        y = tf.identity(x)
    with tf.Session() as sess:
        sess.run(y, {x: np.ones((2, 2))})
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(y, {x: np.ones(3)})
    assert info.value.message.startswith("assertion failed: [] [Tensor x:0 must have rank] [2] [Received shape: ] [3]")


def test_check_numerics_checks_the_gradient_too():
    x = tf.placeholder(tf.float64, [2], name="x")
    y = tf.check_numerics(x * 2.0, "doubled")
    g = tf.gradients(y, x, grad_ys=tf.constant([1.0, np.nan], tf.float64))[0]
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(g, {x: [1.0, 2.0]})
    assert info.value.message.startswith("Not a number (NaN) or infinity (Inf) values detected in gradient. "
                                         "doubled : Tensor had NaN values")


def test_add_check_numerics_ops_checks_every_float_tensor():
    x = tf.placeholder(tf.float32, [2], name="x")
    y = tf.log(x)
    check = tf.add_check_numerics_ops()
    with tf.Session() as sess:
        sess.run([y, check], {x: [1.0, 2.0]})
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"^Log:0 : Tensor had NaN values"):
            sess.run([y, check], {x: [1.0, -2.0]})


def test_print_first_n_is_refused_clearly():
    with pytest.raises(NotImplementedError, match="first_n"):
        tf.Print(tf.constant(1.0), [tf.constant(2.0)], first_n=2)


def test_fused_batch_norm_statistics_carry_no_gradient():
    x = tf.placeholder(tf.float32, [2, 1, 1, 3], name="x")
    y, mean, variance = tf.nn.fused_batch_norm(x, tf.ones([3]), tf.zeros([3]))
    assert tf.gradients(mean, x) == [None] and tf.gradients(variance, x) == [None]
    assert tf.gradients(y, x)[0] is not None


def test_an_assert_in_a_cond_branch_runs_only_with_that_branch():
    x = tf.placeholder(tf.float32, [2], name="x")
    take = tf.placeholder(tf.bool, [], name="take")

    def checked():
        with tf.control_dependencies([tf.assert_positive(x)]):
            return tf.identity(x) * 2.0

    y = tf.cond(take, checked, lambda: x - 1.0)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {x: [-1.0, 2.0], take: False}), [-2.0, 1.0])
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"Condition x > 0 did not hold"):
            sess.run(y, {x: [-1.0, 2.0], take: True})
