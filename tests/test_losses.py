"""tf.losses: TF-v1 reductions (default SUM_BY_NONZERO_WEIGHTS), weights, float32 computation,
the losses collection, and the cross-entropy losses."""
import numpy as np
import pytest

import s2sgrad as tf

LABELS = np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 4.0]])
PREDICTIONS = np.array([[1.5, 2.0, 1.0], [1.0, -3.0, 4.5]])
SQUARED = (PREDICTIONS - LABELS) ** 2


def run(fetches, feeds=None):
    with tf.Session() as sess:
        return sess.run(fetches, feeds)


def test_mean_squared_error_defaults_to_the_mean_in_float32_and_is_collected():
    predictions = tf.placeholder(tf.float64, [2, 3])
    loss = tf.losses.mean_squared_error(LABELS, predictions)
    assert loss.dtype == tf.float32 and loss.name == "mean_squared_error/value:0"
    assert tf.losses.get_losses() == [loss]
    value = run(loss, {predictions: PREDICTIONS})
    assert isinstance(value, np.float32)
    np.testing.assert_allclose(value, SQUARED.mean(), rtol=1e-6)
    grad = run(tf.gradients(loss, predictions)[0], {predictions: PREDICTIONS})
    assert grad.dtype == np.float64
    np.testing.assert_allclose(grad, 2 * (PREDICTIONS - LABELS) / 6, rtol=1e-6)


@pytest.mark.parametrize("reduction, expected", [
    (tf.losses.Reduction.NONE, SQUARED * [[1.0], [0.0]] * [1, 2, 0.5]),
    (tf.losses.Reduction.SUM, np.sum(SQUARED * [[1.0], [0.0]] * [1, 2, 0.5])),
    (tf.losses.Reduction.MEAN, np.sum(SQUARED * [[1.0], [0.0]] * [1, 2, 0.5]) / 3.5),
    (tf.losses.Reduction.SUM_OVER_BATCH_SIZE, np.sum(SQUARED * [[1.0], [0.0]] * [1, 2, 0.5]) / 6),
    (tf.losses.Reduction.SUM_BY_NONZERO_WEIGHTS, np.sum(SQUARED * [[1.0], [0.0]] * [1, 2, 0.5]) / 3),
])
def test_reductions_with_broadcast_weights(reduction, expected):
    weights = tf.constant([[1.0], [0.0]]) * tf.constant([1.0, 2.0, 0.5])
    loss = tf.losses.mean_squared_error(LABELS, PREDICTIONS, weights=weights, reduction=reduction)
    np.testing.assert_allclose(run(loss), expected, rtol=1e-6)


def test_zero_weights_give_zero_not_nan():
    assert run(tf.losses.mean_squared_error(LABELS, PREDICTIONS, weights=0.0)) == 0.0
    assert run(tf.losses.absolute_difference(LABELS, PREDICTIONS, weights=tf.zeros([2, 3]))) == 0.0


def test_absolute_difference_and_total_loss():
    first = tf.losses.absolute_difference(LABELS, PREDICTIONS, weights=2.0)
    second = tf.losses.mean_squared_error(LABELS, PREDICTIONS, loss_collection=None)
    assert tf.losses.get_losses() == [first]
    np.testing.assert_allclose(run(first), np.mean(2 * np.abs(PREDICTIONS - LABELS)), rtol=1e-6)
    np.testing.assert_allclose(run(tf.losses.get_total_loss()), run(first), rtol=1e-6)
    assert second.dtype == tf.float32


def test_softmax_cross_entropy_smooths_labels_and_stops_their_gradient():
    logits = tf.constant([[2.0, 0.0, -1.0], [0.5, 0.5, 0.5]])
    onehot = tf.constant([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    loss = tf.losses.softmax_cross_entropy(onehot, logits, label_smoothing=0.3)
    assert tf.gradients(loss, onehot) == [None]
    z = np.array([[2.0, 0.0, -1.0], [0.5, 0.5, 0.5]])
    smooth = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]) * 0.7 + 0.1
    log_softmax = z - np.log(np.exp(z).sum(1, keepdims=True))
    np.testing.assert_allclose(run(loss), np.mean(-np.sum(smooth * log_softmax, 1)), rtol=1e-6)


def test_sparse_and_sigmoid_cross_entropy():
    logits = np.array([[2.0, 0.0, -1.0], [0.5, 1.5, 0.5]])
    log_softmax = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    sparse = tf.losses.sparse_softmax_cross_entropy(tf.constant([[0], [1]]), logits)
    np.testing.assert_allclose(run(sparse), -np.mean([log_softmax[0, 0], log_softmax[1, 1]]), rtol=1e-6)
    labels = np.array([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])
    sigmoid = tf.losses.sigmoid_cross_entropy(labels, logits, label_smoothing=0.2)
    smooth, p = labels * 0.8 + 0.1, 1 / (1 + np.exp(-logits))
    expected = np.mean(-smooth * np.log(p) - (1 - smooth) * np.log(1 - p))
    np.testing.assert_allclose(run(sigmoid), expected, rtol=1e-6)


def test_bad_arguments():
    with pytest.raises(ValueError, match="Invalid Reduction Key"):
        tf.losses.mean_squared_error(LABELS, PREDICTIONS, reduction="average")
    with pytest.raises(ValueError, match="weights can not be broadcast to values"):
        tf.losses.mean_squared_error(LABELS, PREDICTIONS, weights=tf.ones([3, 2]))
    with pytest.raises(ValueError, match="`labels` must not be None"):
        tf.losses.mean_squared_error(None, PREDICTIONS)
    with pytest.raises(ValueError, match="incompatible"):
        tf.losses.mean_squared_error(LABELS, PREDICTIONS[:, :2])
    with pytest.raises(ValueError, match="No losses found"):
        tf.losses.get_total_loss()
