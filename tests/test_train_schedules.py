"""tf.train learning-rate schedules over steps 0..29 against TensorFlow's values
(tests/data/train_tf/schedules.json), their names and dtypes, the global step and errors."""
import numpy as np
import pytest

import s2sgrad as tf
from train_programs import schedule_case
from train_tf_data import assert_matches, load

RECORDED = load("schedules")
# TF names piecewise_constant's result after an op of its tf.case (PiecewiseConstant/case/cond/Identity)
INNER_NAMES = ("piecewise", "piecewise_int")


@pytest.mark.parametrize("case", sorted(RECORDED))
def test_matches_tensorflow(case):
    want = RECORDED[case]
    rtol = 1e-12 if want["dtype"] == "float64" else 2e-6
    assert_matches(schedule_case(tf, want["expr"]), want, rtol=rtol, atol=1e-8,
                   ignore=("name",) if case in INNER_NAMES else ())


def test_every_schedule_is_recorded():
    recorded = {want["expr"].split("(")[0].split(".")[-1] for want in RECORDED.values()}
    assert recorded | {"noisy_linear_cosine_decay", "piecewise_constant_decay"} == \
        {n for n in tf.train.__all__ if n.endswith(("_decay", "piecewise_constant", "_restarts"))}


def test_decays_a_variable_step_during_training():
    step = tf.train.get_or_create_global_step()
    lr = tf.train.exponential_decay(0.5, step, 2, 0.5, staircase=True)
    w = tf.Variable(0.0)
    train = tf.train.GradientDescentOptimizer(lr).minimize(-w, global_step=step)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(5):
            sess.run(train)
        # steps 0..4 use 0.5, 0.5, 0.25, 0.25, 0.125
        assert sess.run(w) == pytest.approx(1.625)
        assert tf.train.global_step(sess, step) == 5


def test_noisy_linear_cosine_decay_stays_near_the_linear_cosine():
    step = tf.placeholder(tf.int64, [])
    noisy = tf.train.noisy_linear_cosine_decay(0.1, step, 10, initial_variance=1e-6)
    plain = tf.train.linear_cosine_decay(0.1, step, 10)
    assert noisy.name == "NoisyLinearCosineDecay:0"
    with tf.Session() as sess:
        for s in (0, 3, 9, 20):
            got, want = sess.run([noisy, plain], {step: s})
            assert abs(got - want) < 0.1 * 5e-3


def test_global_step_as_tensorflow_creates_it():
    assert tf.train.get_global_step() is None
    with tf.name_scope("outer"):
        step = tf.train.get_or_create_global_step()
    assert step.name == "global_step:0" and step.dtype == tf.int64 and not step.trainable
    assert tf.get_collection(tf.GraphKeys.GLOBAL_STEP) == [step]
    assert step in tf.global_variables() and step not in tf.trainable_variables()
    assert tf.train.get_global_step() is step and tf.train.get_or_create_global_step() is step
    with pytest.raises(ValueError, match='"global_step" already exists'):
        tf.train.create_global_step()
    with tf.Graph().as_default() as g:
        assert tf.train.create_global_step(g).graph is g
    with pytest.raises(TypeError, match="graph must be a tf.Graph"):
        tf.train.get_global_step("graph")


def test_a_float_global_step_is_rejected():
    tf.Variable(0.0, name="global_step")
    with pytest.raises(TypeError, match="does not have integer type"):
        tf.train.get_global_step()


@pytest.mark.parametrize("call, error, match", [
    (lambda: tf.train.exponential_decay(0.1, None, 10, 0.5), ValueError, "global_step is required"),
    (lambda: tf.train.cosine_decay(0.1, None, 10), ValueError, "global_step is required for cosine_decay"),
    (lambda: tf.train.natural_exp_decay(0.1, None, 10, 0.5), ValueError, "global_step is required"),
    (lambda: tf.train.piecewise_constant(tf.constant(1), [1, 2], [0.1, 0.2]), ValueError, "1 less than"),
    (lambda: tf.train.piecewise_constant(tf.constant(1), [1], [0.1, 2]), ValueError, "same dtype"),
    (lambda: tf.train.piecewise_constant(tf.constant(1), [1.5], [0.1, 0.2]), ValueError,
     r"Boundaries \(float32\) must have the same dtype as x \(int32\)"),
    (lambda: tf.train.exponential_decay(1, tf.constant(1), 10, 0.5), TypeError, "floating-point"),
])
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_piecewise_constant_int32_boundaries_with_an_int64_step():
    step = tf.placeholder(tf.int64, [])
    lr = tf.train.piecewise_constant(step, [tf.constant(2, tf.int32)], [np.float32(1.0), np.float32(0.5)])
    with tf.Session() as sess:
        assert [sess.run(lr, {step: s}) for s in (1, 2, 3)] == [1.0, 1.0, 0.5]
