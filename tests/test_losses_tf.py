"""The tf.losses family with every Reduction and several weights (Python numbers, scalars,
broadcast columns/rows, full) against TensorFlow's values (tests/data/train_tf/losses.json):
the value, its name, the losses collection, and the errors TF raises for weights that do not
broadcast."""
import numpy as np
import pytest

import s2sgrad as tf
from train_tf_data import assert_close, load

RECORDED = load("losses")
sys_templates = {
    "absolute_difference": "tf1.losses.absolute_difference(yreg, z, weights=W{r})",
    "mean_squared_error": "tf1.losses.mean_squared_error(yreg, z, weights=W{r})",
    "huber_loss": "tf1.losses.huber_loss(yreg, z, weights=W{r})",
    "huber_loss_delta": "tf1.losses.huber_loss(yreg, z, weights=W, delta=0.7{r})",
    "hinge_loss": "tf1.losses.hinge_loss(y, z, weights=W{r})",
    "log_loss": "tf1.losses.log_loss(y, p, weights=W{r})",
    "log_loss_epsilon": "tf1.losses.log_loss(y, p, weights=W, epsilon=0.1{r})",
    "cosine_distance": "tf1.losses.cosine_distance(u, v, axis=1, weights=WC{r})",
    "cosine_distance_dim": "tf1.losses.cosine_distance(u, v, dim=1, weights=WC{r})",
    "sigmoid_cross_entropy": "tf1.losses.sigmoid_cross_entropy(y, z, weights=W{r})",
    "sigmoid_cross_entropy_smoothing": "tf1.losses.sigmoid_cross_entropy(y, z, weights=W, label_smoothing=0.2{r})",
    "softmax_cross_entropy": "tf1.losses.softmax_cross_entropy(onehot, z, weights=WB{r})",
    "softmax_cross_entropy_smoothing": "tf1.losses.softmax_cross_entropy(onehot, z, weights=WB, "
                                       "label_smoothing=0.3{r})",
    "sparse_softmax_cross_entropy": "tf1.losses.sparse_softmax_cross_entropy(ids, z, weights=WB{r})",
    "mean_pairwise_squared_error": "tf1.losses.mean_pairwise_squared_error(yreg, z, weights=WC)",
}


def build(key):
    case, wname, reduction = key.split("|")
    w, wc, wb = RECORDED["weights"][wname]
    r = "" if reduction == "default" else f", reduction=tf1.losses.Reduction.{reduction}"
    inputs = {k: np.array(v, np.int32 if k == "ids" else np.float32) for k, v in RECORDED["inputs"].items()}
    env = {k: tf.constant(v) for k, v in inputs.items()}
    python = wname.startswith("py_")
    env.update({k: value if python else tf.constant(value, tf.float32) for k, value in (("W", w), ("WC", wc),
                                                                                          ("WB", wb))})
    env["tf1"] = tf
    return eval(sys_templates[case].format(r=r), env)


@pytest.mark.parametrize("key", sorted(RECORDED["cases"]))
def test_matches_tensorflow(key):
    want = RECORDED["cases"][key]
    if "error" in want:
        with pytest.raises(getattr(tf.errors, want["error"], None) or ValueError):
            build(key)
        return
    loss = build(key)
    with tf.Session() as sess:
        got = sess.run(loss)
    assert got.dtype == np.float32
    assert_close(got, want["value"], rtol=2e-6, atol=2e-6)
    assert len(tf.get_collection(tf.GraphKeys.LOSSES)) == len(want["collected"])
    assert tf.get_collection(tf.GraphKeys.LOSSES)[-1] is loss
    if not key.endswith("|NONE"):
        assert loss.name == want["name"]


def test_every_reduction_was_recorded():
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
