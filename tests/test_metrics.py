"""tf.metrics: sequences of update_op / value over four batches against TensorFlow's values
(tests/data/train_tf/metrics.json), the local variables' names and collections, the update and
value names, collections arguments and errors."""
import numpy as np
import pytest

import s2sgrad as tf
from train_programs import metric_case
from train_tf_data import assert_matches, load

RECORDED = load("metrics")
BATCHES = [{k: np.array(v, np.float32 if k in ("scores", "weights", "values") else np.int64) for k, v in b.items()}
           for b in RECORDED["batches"]]
# TF names mean_iou's value after an inner op (mean_iou/Select_1) and its update is a resource op
INNER_NAMES = ("mean_iou", "mean_iou_weighted")


@pytest.mark.parametrize("case", sorted(RECORDED["cases"]))
def test_matches_tensorflow(case):
    want = RECORDED["cases"][case]
    got = metric_case(tf, want["expr"], BATCHES)
    assert_matches(got, want, rtol=1e-5, atol=1e-6,
                   ignore=("value_name", "update_name") if case in INNER_NAMES else ())


def test_metric_variables_are_local_only():
    tf.metrics.auc([1, 0], [0.5, 0.2])
    assert len(tf.local_variables()) == 4 and not tf.global_variables() and not tf.trainable_variables()


def test_value_and_update_in_one_run_and_reinitialising():
    x = tf.placeholder(tf.float32, [None])
    value, update = tf.metrics.mean(x)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        assert sess.run([value, update], {x: [1.0, 3.0]}) == [0.0, 2.0]
        assert sess.run([value, update], {x: [8.0]}) == [2.0, 4.0]
        sess.run(tf.local_variables_initializer())
        assert sess.run(value) == 0.0


def test_collections_and_default_names_are_unique():
    labels = tf.constant([1, 0, 1])
    a_value, a_update = tf.metrics.accuracy(labels, labels, metrics_collections=["m"], updates_collections=["u"])
    b_value, _ = tf.metrics.accuracy(labels, labels)
    assert tf.get_collection("m") == [a_value] and tf.get_collection("u") == [a_update]
    assert b_value.name == "accuracy_1/value:0"
    assert "accuracy_1/total:0" in [v.name for v in tf.local_variables()]


def test_broadcast_weights_and_squeezable_labels():
    labels = tf.constant([[1], [2], [3]])
    predictions = tf.constant([1, 0, 3])
    value, update = tf.metrics.accuracy(labels, predictions, weights=[[2.0], [1.0], [1.0]])
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        assert sess.run(update) == pytest.approx(0.75)


@pytest.mark.parametrize("call, error, match", [
    (lambda: tf.metrics.accuracy([1, 2], [1, 2, 3]), ValueError, "incompatible"),
    (lambda: tf.metrics.mean([1.0, 2.0], weights=[1.0, 2.0, 3.0]), ValueError, "can not be broadcast"),
    (lambda: tf.metrics.auc([1, 0], [0.5, 0.2], curve="XY"), ValueError, "ROC or PR"),
    (lambda: tf.metrics.auc([1, 0], [0.5, 0.2], summation_method="simpson"), ValueError, "summation_method"),
    (lambda: tf.metrics.auc([1, 0], [0.5, 0.2], num_thresholds=1), ValueError, "num_thresholds"),
    (lambda: tf.metrics.mean_iou([1, 0], [1, 1], num_classes=0), ValueError, "num_classes"),
    (lambda: tf.metrics.precision(None, [True]), ValueError, "must not be None"),
    (lambda: tf.metrics.recall_at_k, AttributeError, "recall_at_k"),
])
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("labels, predictions", [([0, 1], [1, 3]), ([0, -1], [1, 1]), ([3, 0], [0, 0])])
def test_mean_iou_classes_out_of_range_fail_the_run_and_count_nothing(labels, predictions):
    y, p = tf.placeholder(tf.int64, [2]), tf.placeholder(tf.int64, [2])
    value, update = tf.metrics.mean_iou(y, p, num_classes=3)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(update, {y: labels, p: predictions})
        assert sess.run(tf.local_variables()[0]).sum() == 0


def test_auc_with_explicit_thresholds():
    labels, scores = tf.constant([1, 0, 1, 0]), tf.constant([0.9, 0.4, 0.6, 0.1])
    value, update = tf.metrics.auc(labels, scores, thresholds=[0.5, 0.25, 0.75])
    assert tf.local_variables()[0].shape.as_list() == [5]
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        assert sess.run(update) == pytest.approx(1.0, abs=1e-5)
