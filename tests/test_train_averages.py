"""tf.train.ExponentialMovingAverage against TensorFlow (tests/data/train_tf/averages.json): shadow
names, values after each step, num_updates, variables_to_restore; tensors and zero_debias by hand."""
import numpy as np
import pytest

import s2sgrad as tf
from train_programs import averages_case, tensor_averages
from train_tf_data import assert_close, assert_matches, load

RECORDED = load("averages")


@pytest.mark.parametrize("case", sorted(set(RECORDED) - {"tensors"}))
def test_matches_tensorflow(case):
    assert_matches(averages_case(tf, case), RECORDED[case])


def test_tensor_averages_plain_and_zero_debiased_match_tensorflow():
    assert_matches(tensor_averages(tf), RECORDED["tensors"])


def test_shadow_variables_are_global_and_not_trainable():
    w = tf.Variable(np.ones(2, np.float32), name="w")
    ema = tf.train.ExponentialMovingAverage(0.9)
    ema.apply([w])
    assert not ema.average(w).trainable and ema.average(w) in tf.global_variables()
    assert ema.average(w) not in tf.trainable_variables()


def test_variables_to_restore_maps_shadow_names_to_the_variables():
    w, other = tf.Variable(1.0, name="w"), tf.Variable(2.0, name="other", trainable=False)
    ema = tf.train.ExponentialMovingAverage(0.9)
    ema.apply([w])
    assert ema.variables_to_restore() == {"w/ExponentialMovingAverage": w, "other": other}
    assert ema.variables_to_restore([other]) == {"other/ExponentialMovingAverage": other, "w": w,
                                                 "w/ExponentialMovingAverage": ema.average(w)}


@pytest.mark.parametrize("zero_debias", [False, True])
def test_tensor_averages_start_at_zero_and_can_be_debiased(zero_debias):
    x = tf.placeholder(tf.float32, [2], name="x")
    ema = tf.train.ExponentialMovingAverage(0.8, zero_debias=zero_debias)
    op = ema.apply([x])
    avg = ema.average(x)
    assert avg.name == "x/ExponentialMovingAverage:0"
    if zero_debias:
        assert {"x/ExponentialMovingAverage/biased:0", "x/ExponentialMovingAverage/local_step:0"} <= \
            {v.name for v in tf.global_variables()}
    shadow, biased = np.zeros(2, np.float32), np.zeros(2, np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for k, value in enumerate([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]], start=1):
            sess.run(op, {x: value})
            value = np.float32(value)
            if zero_debias:
                biased = biased - (biased - value) * np.float32(0.2)
                shadow = biased / (1 - np.float32(0.8) ** k)
            else:
                shadow = shadow - (shadow - value) * np.float32(0.2)
            assert_close(sess.run(avg), shadow, rtol=1e-6)


def test_errors():
    ema = tf.train.ExponentialMovingAverage(0.9)
    with pytest.raises(TypeError, match="half, float, or double: n:0"):
        ema.apply([tf.Variable(1, name="n")])
    with pytest.raises(TypeError, match="Variables or Tensors"):
        ema.apply([1.0])
    with pytest.raises(ValueError, match="fully defined"):
        ema.apply([tf.placeholder(tf.float32, [None])])
    assert ema.average(tf.Variable(1.0)) is None
