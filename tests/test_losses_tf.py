"""The tf.losses family with every Reduction and several weights (Python numbers, scalars,
broadcast columns/rows, full) against TensorFlow's values (tests/data/train_tf/losses.json):
the value, its name, the losses collection, and the errors TF raises for weights that do not
broadcast."""
import numpy as np
import pytest

import s2sgrad as tf
from train_programs import loss_case, loss_keys
from train_tf_data import assert_matches, load

RECORDED = load("losses")
INPUTS = {k: np.array(v, np.int32 if k == "ids" else np.float32) for k, v in RECORDED["inputs"].items()}


@pytest.mark.parametrize("key", sorted(RECORDED["cases"]))
def test_matches_tensorflow(key):
    assert_matches(loss_case(tf, INPUTS, *key.split("|")), RECORDED["cases"][key], rtol=2e-6, atol=2e-6)


def test_dtypes_as_tensorflow():
    """Losses of predictions compute in float32 (float64 inputs too); those of logits keep the logits' dtype."""
    y64, p64 = INPUTS["y"].astype(np.float64), INPUTS["p"].astype(np.float64)
    assert tf.losses.log_loss(y64, p64).dtype == tf.float32
    assert tf.losses.huber_loss(y64, p64).dtype == tf.float32
    assert tf.losses.hinge_loss(y64, p64).dtype == tf.float32
    assert tf.losses.sigmoid_cross_entropy(y64, p64).dtype == tf.float64
    assert tf.losses.compute_weighted_loss(p64).dtype == tf.float64


def test_every_reduction_was_recorded():
    assert sorted(RECORDED["cases"]) == sorted("|".join(key) for key in loss_keys())
    reductions = {key.split("|")[2] for key in RECORDED["cases"]}
    assert reductions == {"NONE", "SUM", "MEAN", "SUM_OVER_BATCH_SIZE", "SUM_BY_NONZERO_WEIGHTS", "default"}
    assert tf.losses.Reduction.SUM_OVER_NONZERO_WEIGHTS == tf.losses.Reduction.SUM_BY_NONZERO_WEIGHTS
    assert tf.losses.Reduction.all() == ("none", "weighted_sum", "weighted_mean", "weighted_sum_over_batch_size",
                                         "weighted_sum_by_nonzero_weights")


def test_loss_collection_none_collects_nothing():
    tf.losses.huber_loss([1.0, 2.0], [1.5, 0.0], loss_collection=None)
    custom = tf.losses.log_loss([1.0, 0.0], [0.9, 0.2], loss_collection="mine")
    assert tf.get_collection(tf.GraphKeys.LOSSES) == [] and tf.get_collection("mine") == [custom]


@pytest.mark.parametrize("call, error, match", [
    (lambda: tf.losses.cosine_distance([[1.0, 0.0]], [[0.0, 1.0]]), ValueError, "You must specify 'axis'"),
    (lambda: tf.losses.cosine_distance([[1.0, 0.0]], [[0.0, 1.0]], axis=1, dim=1), ValueError, "both"),
    (lambda: tf.losses.hinge_loss([1.0, 0.0], None), ValueError, "`logits` must not be None"),
    (lambda: tf.losses.huber_loss(None, [1.0]), ValueError, "`labels` must not be None"),
    (lambda: tf.losses.log_loss([1.0, 0.0], [0.5, 0.5, 0.5]), ValueError, "incompatible"),
    (lambda: tf.losses.mean_squared_error([[1.0, 0.0]], [[0.5, 0.5]], weights=[[1.0, 2.0, 3.0]]), ValueError,
     "can not be broadcast"),
    (lambda: tf.losses.absolute_difference([1.0], [1.0], reduction="mean"), ValueError, "Invalid Reduction Key"),
])
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_gradients_of_the_new_losses_match_finite_differences():
    rng = np.random.RandomState(3)
    y = rng.uniform(0.1, 0.9, (3, 4))
    x0 = rng.uniform(0.2, 0.8, (3, 4))
    x = tf.placeholder(tf.float64, [3, 4])
    losses = [tf.losses.huber_loss(y, x * 3.0, delta=0.5), tf.losses.log_loss(np.round(y), x),
              tf.losses.hinge_loss(np.round(y), x - 0.5), tf.losses.cosine_distance(y, x, axis=1),
              tf.losses.mean_pairwise_squared_error(y, x, weights=[[1.0], [0.0], [2.0]])]
    with tf.Session() as sess:
        for loss in losses:
            grad = sess.run(tf.gradients(loss, x)[0], {x: x0})
            numeric = np.zeros_like(x0)
            for i in np.ndindex(*x0.shape):
                step = np.zeros_like(x0)
                step[i] = 1e-3
                plus, minus = (sess.run(loss, {x: x0 + s}) for s in (step, -step))
                numeric[i] = (plus - minus) / 2e-3
            np.testing.assert_allclose(grad, numeric, rtol=2e-3, atol=2e-4)
