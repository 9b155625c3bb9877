"""Initializers (statistics of large samples against their definitions; exact values where they are
deterministic) and the contrib regularizers (values against NumPy, names and errors as TF's).

s2sgrad's random streams are not TensorFlow's: seeded samples repeat within s2sgrad but differ
from TF's, so random initializers are checked by their distributions."""
import math

import numpy as np
import pytest

import s2sgrad as tf

TRUNCATED_STDDEV = 0.87962566103423978  # stddev of a unit normal truncated at +-2


@pytest.fixture(autouse=True)
def fresh_graph():
    with tf.Graph().as_default() as g:
        yield g


def sample(initializer, shape, dtype=tf.float32):
    with tf.Session() as sess:
        return sess.run(initializer(shape, dtype=dtype))


FAN_IN, FAN_OUT = 30 * 3 * 3, 40 * 3 * 3  # a [3, 3, 30, 40] kernel
CASES = [  # (initializer, expected variance, kind)
    (tf.variance_scaling_initializer(2.0, "fan_in", "truncated_normal", seed=1), 2.0 / FAN_IN, "truncated"),
    (tf.variance_scaling_initializer(1.0, "fan_out", "untruncated_normal", seed=2), 1.0 / FAN_OUT, "normal"),
    (tf.variance_scaling_initializer(3.0, "fan_avg", "uniform", seed=3), 6.0 / (FAN_IN + FAN_OUT), "uniform"),
    (tf.variance_scaling_initializer(1.0, "fan_avg", "normal", seed=3), 2.0 / (FAN_IN + FAN_OUT), "truncated"),
    (tf.glorot_uniform_initializer(seed=4), 2.0 / (FAN_IN + FAN_OUT), "uniform"),
    (tf.glorot_normal_initializer(seed=5), 2.0 / (FAN_IN + FAN_OUT), "truncated"),
    (tf.initializers.he_uniform(seed=6), 2.0 / FAN_IN, "uniform"),
    (tf.initializers.he_normal(seed=7), 2.0 / FAN_IN, "truncated"),
    (tf.initializers.lecun_uniform(seed=8), 1.0 / FAN_IN, "uniform"),
    (tf.initializers.lecun_normal(seed=9), 1.0 / FAN_IN, "truncated"),
    (tf.uniform_unit_scaling_initializer(1.5, seed=10), 1.5 ** 2 / FAN_IN, "uniform"),
]


@pytest.mark.parametrize("initializer, variance, kind", CASES, ids=[f"{i}" for i in range(len(CASES))])
def test_variance_and_support(initializer, variance, kind):
    x = sample(initializer, [3, 3, 30, 40]).astype(np.float64)
    assert abs(x.mean()) < 4 * math.sqrt(variance / x.size)
    assert x.var() == pytest.approx(variance, rel=0.03)
    if kind == "uniform":  # bounded by sqrt(3 * variance), and flat
        limit = math.sqrt(3 * variance)
        assert np.abs(x).max() <= limit * (1 + 1e-6) and np.abs(x).max() > 0.99 * limit
    elif kind == "truncated":  # the normal before truncation had stddev sqrt(variance) / 0.8796...
        assert np.abs(x).max() <= 2 * math.sqrt(variance) / TRUNCATED_STDDEV * (1 + 1e-6)
    else:
        assert np.abs(x).max() > 2 * math.sqrt(variance) / TRUNCATED_STDDEV


def test_truncated_normal_initializer_and_seeded_repeatability():
    init = tf.truncated_normal_initializer(mean=1.0, stddev=0.5, seed=3)
    x = sample(init, [20000]).astype(np.float64)
    assert np.all(np.abs(x - 1.0) <= 1.0) and x.std() == pytest.approx(0.5 * TRUNCATED_STDDEV, rel=0.03)
    np.testing.assert_array_equal(sample(init, [5]), sample(init, [5]))


def test_variance_scaling_arguments_are_checked():
    for kwargs, message in (({"scale": -1.0}, "`scale` must be positive float."),
                            ({"mode": "fan"}, "Invalid `mode` argument"),
                            ({"distribution": "cauchy"}, "Invalid `distribution` argument")):
        with pytest.raises(ValueError, match=message):
            tf.variance_scaling_initializer(**kwargs)


@pytest.mark.parametrize("shape", [[5, 5], [6, 3], [3, 6], [2, 2, 3, 4]])
def test_orthogonal_is_orthogonal_times_gain(shape):
    q = sample(tf.orthogonal_initializer(gain=2.0, seed=1), shape, tf.float64).reshape(-1, shape[-1])
    small = min(q.shape)
    gram = q.T @ q if q.shape[0] >= q.shape[1] else q @ q.T
    np.testing.assert_allclose(gram, 4.0 * np.eye(small), atol=1e-12)


def test_orthogonal_rows_are_uniformly_oriented():
    """The sign fix makes Q Haar-distributed: the mean of many draws of a fixed entry is 0."""
    draws = [sample(tf.orthogonal_initializer(seed=s), [4, 4], tf.float64)[0, 0] for s in range(200)]
    assert abs(np.mean(draws)) < 4 * 0.5 / math.sqrt(200)


def test_orthogonal_and_identity_errors_and_identity_values():
    with pytest.raises(ValueError, match="^The tensor to initialize must be at least two-dimensional$"):
        tf.orthogonal_initializer()([3])
    with pytest.raises(ValueError, match="^Identity matrix initializer can only be used for 2D matrices.$"):
        tf.initializers.identity()([2, 2, 2])
    np.testing.assert_array_equal(sample(tf.initializers.identity(gain=3.0), [2, 3]), 3.0 * np.eye(2, 3))


def test_constant_ones_zeros_random():
    np.testing.assert_array_equal(sample(tf.constant_initializer([1, 2, 3, 4]), [2, 2]), [[1, 2], [3, 4]])
    np.testing.assert_array_equal(sample(tf.ones_initializer(), [2]), [1, 1])
    np.testing.assert_array_equal(sample(tf.zeros_initializer(), [2], tf.int32), [0, 0])
    u = sample(tf.random_uniform_initializer(-2.0, 3.0, seed=1), [20000]).astype(np.float64)
    assert u.min() >= -2.0 and u.max() < 3.0 and u.mean() == pytest.approx(0.5, abs=0.05)
    n = sample(tf.random_normal_initializer(1.0, 2.0, seed=1), [20000]).astype(np.float64)
    assert n.mean() == pytest.approx(1.0, abs=0.05) and n.std() == pytest.approx(2.0, rel=0.03)


# -- regularizers -------------------------------------------------------------------------------

W = np.array([[1.0, -2.0], [3.0, -0.5]])


def evaluate(tensor):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(tensor)


def test_regularizer_values_and_names():
    w = tf.get_variable("w", initializer=tf.constant(W), regularizer=tf.contrib.layers.l2_regularizer(0.1))
    l1 = tf.contrib.layers.l1_regularizer(0.2)(w)
    both = tf.contrib.layers.l1_l2_regularizer(0.2, 0.1)(w)
    (l2,) = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    assert (l2.name, l1.name, both.name) == ("w/Regularizer/l2_regularizer:0", "l1_regularizer:0",
                                             "l1_l2_regularizer:0")
    values = evaluate([l2, l1, both])
    np.testing.assert_allclose(values, [0.1 * (W ** 2).sum() / 2, 0.2 * np.abs(W).sum(),
                                        0.2 * np.abs(W).sum() + 0.1 * (W ** 2).sum() / 2])


def test_regularizer_scale_checks():
    with pytest.raises(ValueError, match="^scale cannot be an integer: 1$"):
        tf.contrib.layers.l2_regularizer(1)
    with pytest.raises(ValueError, match="^Setting a scale less than 0 on a regularizer: -0.5$"):
        tf.contrib.layers.l1_regularizer(-0.5)
    with pytest.raises(ValueError, match="^scale_l2 cannot be an integer: 2$"):
        tf.contrib.layers.l1_l2_regularizer(1.0, 2)
    assert tf.contrib.layers.l2_regularizer(0.0)(tf.constant(W)) is None
    assert tf.contrib.layers.sum_regularizer([None]) is None


def test_apply_regularization_and_the_totals():
    with pytest.raises(ValueError, match="^No weights to regularize.$"):
        tf.contrib.layers.apply_regularization(tf.contrib.layers.l1_regularizer(1.0))
    assert evaluate(tf.losses.get_regularization_loss()) == 0.0
    a = tf.get_variable("a", initializer=tf.constant(W))
    b = tf.get_variable("b", initializer=tf.constant(W[0]))
    penalty = tf.contrib.layers.apply_regularization(tf.contrib.layers.l1_regularizer(0.5), [a, b])
    assert penalty.name == "get_regularization_penalty:0"
    assert tf.losses.get_regularization_losses() == [penalty]
    tf.losses.add_loss(tf.constant(1.0, tf.float64))
    total, reg = evaluate([tf.losses.get_total_loss(), tf.losses.get_regularization_loss()])
    expected = 0.5 * (np.abs(W).sum() + np.abs(W[0]).sum())
    assert reg == pytest.approx(expected) and total == pytest.approx(expected + 1.0)
