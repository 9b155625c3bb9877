"""``tf.metrics``: streaming metrics. Each returns ``(value, update_op)``: ``update_op`` folds a
batch into local variables (``<name>/total``, ``<name>/count``... in the ``local_variables`` and
``metric_variables`` collections, zeroed by ``tf.local_variables_initializer()``) and returns the
metric including that batch; ``value`` is the metric of the batches folded in by earlier runs.

>>> # acc, acc_update = tf.metrics.accuracy(labels, predictions)
>>> # sess.run(tf.local_variables_initializer()); sess.run(acc_update, feeds); sess.run(acc)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import dtypes as _dt
from .graph_keys import GraphKeys
from .ops import array_ops as a
from .ops import math_ops as m
from .ops import reduce_ops as r
from .ops import variables as v
from .ops.convert import convert_to_tensor, graph_of
from .ssa.graph import Tensor
from .tf1_api import missing_names as _missing_names

__all__ = ["accuracy", "mean", "precision", "recall", "auc", "mean_iou", "mean_squared_error",
           "root_mean_squared_error", "mean_absolute_error", "true_positives", "false_positives",
           "false_negatives", "true_negatives"]

_AUC_EPSILON = 1e-7


def _metric_variable(shape: list[int], dtype: Any, name: str) -> v.Variable:
    """A zero-initialised local variable of the metric."""
    return v.Variable(a.zeros(shape, dtype), trainable=False, name=name,
                      collections=[GraphKeys.LOCAL_VARIABLES, GraphKeys.METRIC_VARIABLES])


def _collect(value: Tensor, update: Tensor, metrics_collections: Any, updates_collections: Any) -> None:
    for key in metrics_collections or []:
        value.graph.add_to_collection(key, value)
    for key in updates_collections or []:
        update.graph.add_to_collection(key, update)


def _squeeze_last(t: Tensor, other: Tensor) -> Tensor:
    """``t`` without a trailing size-1 axis when that is all that makes its rank exceed ``other``'s."""
    sizes, other_rank = t.shape.sizes, other.shape.rank
    if sizes is not None and other_rank is not None and len(sizes) == other_rank + 1 and sizes[-1] == 1:
        return a.squeeze(t, [-1])
    return t


def _pair(labels: Any, predictions: Any, dtype: Any = None) -> tuple[Tensor, Tensor]:
    """Labels and predictions (cast to ``dtype`` when given) of compatible shapes."""
    if labels is None or predictions is None:
        raise ValueError("Arguments `labels` and `predictions` must not be None.")
    labels, predictions = convert_to_tensor(labels), convert_to_tensor(predictions)
    if dtype is not None:
        labels, predictions = m.cast(labels, dtype), m.cast(predictions, dtype)
    labels, predictions = _squeeze_last(labels, predictions), _squeeze_last(predictions, labels)
    if not predictions.shape.is_compatible_with(labels.shape):
        raise ValueError(f"Shapes {predictions.shape} and {labels.shape} are incompatible (predictions and labels)")
    return labels, predictions


def _weights(weights: Any, values: Tensor) -> Tensor:
    """Float32 ``weights`` broadcast to ``values`` (a scalar, or each axis 1 or equal)."""
    w = _squeeze_last(m.cast(convert_to_tensor(weights), _dt.float32), values)
    ws, vs = w.shape.sizes, values.shape.sizes
    if ws is not None and vs is not None and ws:
        if len(ws) != len(vs) or any(x not in (1, None) and y is not None and x != y
                                     for x, y in zip(ws, vs, strict=True)):
            raise ValueError(f"weights can not be broadcast to values. values.shape={values.shape}, "
                             f"weights.shape={w.shape}")
    return w * a.ones_like(values, dtype=_dt.float32)


def mean(values: Any, weights: Any = None, metrics_collections: Any = None, updates_collections: Any = None,
         name: str | None = None) -> tuple[Tensor, Tensor]:
    """The (weighted) mean of all values seen: ``total / count`` (0 before any)."""
    graph = graph_of([values, weights])
    with graph.as_default(), graph.name_scope(name or "mean"):
        values = m.cast(convert_to_tensor(values), _dt.float32)
        total = _metric_variable([], _dt.float32, "total")
        count = _metric_variable([], _dt.float32, "count")
        if weights is None:
            num_values = m.cast(a.size(values), _dt.float32)
        else:
            w = _weights(weights, values)
            values, num_values = values * w, r.reduce_sum(w)
        total_t = v.assign_add(total, r.reduce_sum(values))
        count_t = v.assign_add(count, num_values)
        value = m.divide_no_nan(total, m.maximum(count, 0.0), name="value")
        update = m.divide_no_nan(total_t, m.maximum(count_t, 0.0), name="update_op")
    _collect(value, update, metrics_collections, updates_collections)
    return value, update


def accuracy(labels: Any, predictions: Any, weights: Any = None, metrics_collections: Any = None,
             updates_collections: Any = None, name: str | None = None) -> tuple[Tensor, Tensor]:
    """How often ``predictions`` equal ``labels`` (weighted).

    >>> # acc, update = tf.metrics.accuracy(labels=y, predictions=tf.argmax(logits, 1))
    """
    labels, predictions = _pair(labels, predictions)
    if predictions.dtype is not labels.dtype:
        predictions = m.cast(predictions, labels.dtype)
    is_correct = m.cast(m.equal(predictions, labels), _dt.float32)
    return mean(is_correct, weights, metrics_collections, updates_collections, name or "accuracy")


def _mean_of(elementwise: Callable[[Tensor, Tensor], Tensor], default_name: str) -> Callable[..., Any]:
    def metric(labels: Any, predictions: Any, weights: Any = None, metrics_collections: Any = None,
               updates_collections: Any = None, name: str | None = None) -> tuple[Tensor, Tensor]:
        labels, predictions = _pair(labels, predictions, _dt.float32)
        return mean(elementwise(labels, predictions), weights, metrics_collections, updates_collections,
                    name or default_name)
    metric.__name__ = default_name
    return metric


mean_squared_error = _mean_of(m.squared_difference, "mean_squared_error")
mean_squared_error.__doc__ = "The (weighted) mean of ``(predictions - labels) ** 2`` over all batches."
mean_absolute_error = _mean_of(lambda y, p: m.abs(p - y), "mean_absolute_error")
mean_absolute_error.__doc__ = "The (weighted) mean of ``|predictions - labels|`` over all batches."


def root_mean_squared_error(labels: Any, predictions: Any, weights: Any = None, metrics_collections: Any = None,
                            updates_collections: Any = None, name: str | None = None) -> tuple[Tensor, Tensor]:
    """The square root of ``mean_squared_error`` (its variables under ``root_mean_squared_error/``)."""
    mse, update = mean_squared_error(labels, predictions, weights, None, None, name or "root_mean_squared_error")
    value, update = m.sqrt(mse), m.sqrt(update)
    _collect(value, update, metrics_collections, updates_collections)
    return value, update


# -- counts of true/false positives/negatives ---------------------------------------------------------

def _count(condition: Callable[[Tensor, Tensor], Tensor], default_name: str) -> Callable[..., Any]:
    def metric(labels: Any, predictions: Any, weights: Any = None, metrics_collections: Any = None,
               updates_collections: Any = None, name: str | None = None) -> tuple[Tensor, Tensor]:
        labels, predictions = _pair(labels, predictions, _dt.bool)
        graph = labels.graph
        with graph.as_default(), graph.name_scope(name or default_name):
            count = _metric_variable([], _dt.float32, "count")
            hits = m.cast(condition(labels, predictions), _dt.float32)
            if weights is not None:
                hits = hits * _weights(weights, hits)
            value, update = a.identity(count), v.assign_add(count, r.reduce_sum(hits))
        _collect(value, update, metrics_collections, updates_collections)
        return value, update
    metric.__name__ = default_name
    metric.__doc__ = f"The (weighted) number of {default_name.replace('_', ' ')} over all batches."
    return metric


true_positives = _count(m.logical_and, "true_positives")
false_positives = _count(lambda y, p: m.logical_and(m.logical_not(y), p), "false_positives")
false_negatives = _count(lambda y, p: m.logical_and(y, m.logical_not(p)), "false_negatives")
true_negatives = _count(lambda y, p: m.logical_and(m.logical_not(y), m.logical_not(p)), "true_negatives")


def _ratio(hits: Tensor, misses: Tensor, name: str) -> Tensor:
    """``hits / (hits + misses)``, 0 when both are 0."""
    total = hits + misses
    return a.where(m.greater(total, 0.0), m.divide_no_nan(hits, total), a.zeros_like(total), name=name)


def _precision_or_recall(labels: Any, predictions: Any, weights: Any, metrics_collections: Any,
                         updates_collections: Any, name: str, against: Callable[..., Any]) -> tuple[Tensor, Tensor]:
    graph = graph_of([labels, predictions, weights])
    with graph.as_default(), graph.name_scope(name):
        labels, predictions = _pair(labels, predictions, _dt.bool)
        tp, tp_update = true_positives(labels, predictions, weights)
        other, other_update = against(labels, predictions, weights)
        value, update = _ratio(tp, other, "value"), _ratio(tp_update, other_update, "update_op")
    _collect(value, update, metrics_collections, updates_collections)
    return value, update


def precision(labels: Any, predictions: Any, weights: Any = None, metrics_collections: Any = None,
              updates_collections: Any = None, name: str | None = None) -> tuple[Tensor, Tensor]:
    """``true_positives / (true_positives + false_positives)`` of boolean predictions."""
    return _precision_or_recall(labels, predictions, weights, metrics_collections, updates_collections,
                                name or "precision", false_positives)


def recall(labels: Any, predictions: Any, weights: Any = None, metrics_collections: Any = None,
           updates_collections: Any = None, name: str | None = None) -> tuple[Tensor, Tensor]:
    """``true_positives / (true_positives + false_negatives)`` of boolean predictions."""
    return _precision_or_recall(labels, predictions, weights, metrics_collections, updates_collections,
                                name or "recall", false_negatives)



# -- confusion matrices: auc and mean_iou -------------------------------------------------------------

def _at_thresholds(labels: Tensor, predictions: Tensor, weights: Any, thresholds: list[float]) -> dict:
    """Local variables ``true_positives``, ``false_negatives``, ``true_negatives``, ``false_positives`` (one
    entry per threshold, a prediction counting as positive above it) and their updated values."""
    scores = a.reshape(m.cast(predictions, _dt.float32), [1, -1])
    positive = a.reshape(m.cast(labels, _dt.bool), [1, -1], name="label_is_pos")
    thresholds_column = a.reshape(convert_to_tensor(np.array(thresholds, np.float32)), [-1, 1], name="thresholds")
    above = m.greater(scores, thresholds_column, name="pred_is_pos")
    w = None if weights is None else a.reshape(_weights(weights, m.cast(predictions, _dt.float32)), [1, -1])
    negative, below = m.logical_not(positive, name="label_is_neg"), m.logical_not(above, name="pred_is_neg")
    cases = {"tp": ("true_positives", positive, above), "fn": ("false_negatives", positive, below),
             "tn": ("true_negatives", negative, below), "fp": ("false_positives", negative, above)}
    variables, updates = {}, {}
    for key, (name, label_is, prediction_is) in cases.items():
        variables[key] = _metric_variable([len(thresholds)], _dt.float32, name)
        hits = m.cast(m.logical_and(label_is, prediction_is), _dt.float32)
        if w is not None:
            hits = hits * w
        updates[key] = v.assign_add(variables[key], r.reduce_sum(hits, 1))
    return {"value": variables, "update_op": updates}


def _interpolated_pr_auc(tp: Tensor, fp: Tensor, fn: Tensor) -> Tensor:
    """The PR curve's area with precision interpolated between thresholds as TF's careful_interpolation."""
    dtp = tp[:-1] - tp[1:]
    p = tp + fp
    slope = m.divide_no_nan(dtp, m.maximum(p[:-1] - p[1:], 0.0), name="prec_slope")
    intercept = tp[1:] - slope * p[1:]
    both = m.logical_and(m.greater(p[:-1], 0.0), m.greater(p[1:], 0.0))
    ratio = a.where(both, m.divide_no_nan(p[:-1], m.maximum(p[1:], 0.0)), a.ones_like(p[1:]))
    increments = m.divide_no_nan(slope * (dtp + intercept * m.log(ratio)), m.maximum(tp[1:] + fn[1:], 0.0))
    return r.reduce_sum(increments, name="interpolate_pr_auc")   # TF's name, for value and update_op alike


def _area(counts: dict, curve: str, summation_method: str, name: str) -> Tensor:
    tp, fn, tn, fp = (counts[k] for k in ("tp", "fn", "tn", "fp"))
    if curve == "PR" and summation_method == "careful_interpolation":
        return _interpolated_pr_auc(tp, fp, fn)
    epsilon = 1e-6
    recall_at = m.truediv(tp + epsilon, tp + fn + epsilon, name="recall")
    if curve == "ROC":
        x, y = m.truediv(fp, fp + tn + epsilon, name="fp_rate"), recall_at
    else:
        x, y = recall_at, m.truediv(tp + epsilon, tp + fp + epsilon, name="precision")
    heights = {"trapezoidal": (y[:-1] + y[1:]) / 2.0, "careful_interpolation": (y[:-1] + y[1:]) / 2.0,
               "minoring": m.minimum(y[:-1], y[1:]), "majoring": m.maximum(y[:-1], y[1:])}[summation_method]
    return r.reduce_sum((x[:-1] - x[1:]) * heights, name=name)


def auc(labels: Any, predictions: Any, weights: Any = None, num_thresholds: int = 200,
        metrics_collections: Any = None, updates_collections: Any = None, curve: str = "ROC",
        name: str | None = None, summation_method: str = "trapezoidal",
        thresholds: Any = None) -> tuple[Tensor, Tensor]:
    """Area under the ROC or PR curve of scores in [0, 1], from confusion counts at ``num_thresholds``
    evenly spaced thresholds (or the given ``thresholds``, with -1e-7 and 1 + 1e-7 added).

    >>> # auc, update = tf.metrics.auc(labels=y, predictions=tf.sigmoid(logits))
    """
    if curve not in ("ROC", "PR"):
        raise ValueError(f"curve must be either ROC or PR, {curve} unknown")
    if summation_method not in ("trapezoidal", "careful_interpolation", "minoring", "majoring"):
        raise ValueError(f"Invalid summation_method: {summation_method}")
    if thresholds is not None:
        inner = sorted(float(t) for t in thresholds)
    else:
        if not isinstance(num_thresholds, int) or num_thresholds < 2:
            raise ValueError(f"num_thresholds must be an integer > 1, got {num_thresholds!r}")
        inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
    graph = graph_of([labels, predictions, weights])
    with graph.as_default(), graph.name_scope(name or "auc"):
        labels, predictions = _pair(labels, predictions)
        counts = _at_thresholds(labels, predictions, weights, [-_AUC_EPSILON, *inner, 1.0 + _AUC_EPSILON])
        value = _area(counts["value"], curve, summation_method, "value")
        update = _area(counts["update_op"], curve, summation_method, "update_op")
    _collect(value, update, metrics_collections, updates_collections)
    return value, update


def mean_iou(labels: Any, predictions: Any, num_classes: int, weights: Any = None, metrics_collections: Any = None,
             updates_collections: Any = None, name: str | None = None) -> tuple[Tensor, Tensor]:
    """Mean over classes of ``true / (true + false positives + false negatives)`` from a streaming
    ``[num_classes, num_classes]`` float64 confusion matrix (rows: labels); classes never seen are
    left out. ``update_op`` returns the updated confusion matrix, as in TF.
    """
    if not isinstance(num_classes, int) or isinstance(num_classes, bool) or num_classes < 1:
        raise ValueError(f"num_classes must be a positive Python int, got {num_classes!r}")
    graph = graph_of([labels, predictions, weights])
    with graph.as_default(), graph.name_scope(name or "mean_iou"):
        labels, predictions = _pair(labels, predictions, _dt.int64)
        total = _metric_variable([num_classes, num_classes], _dt.float64, "total_confusion_matrix")
        in_range = m.logical_and(m.logical_and(m.greater_equal(labels, 0), m.less(labels, num_classes)),
                                 m.logical_and(m.greater_equal(predictions, 0), m.less(predictions, num_classes)))
        # a class outside [0, num_classes) gets an out-of-range cell: the run fails, as TF's does
        cells = a.reshape(a.where(in_range, labels * num_classes + predictions,
                                  a.fill(a.shape(labels), np.int64(num_classes * num_classes))), [-1])
        w = a.ones_like(cells, dtype=_dt.float64) if weights is None else \
            a.reshape(m.cast(_weights(weights, m.cast(labels, _dt.float32)), _dt.float64), [-1])
        batch = a.reshape(a.unsorted_segment_sum(w, cells, num_classes * num_classes), [num_classes, num_classes])
        update = v.assign_add(total, batch)
        cm = m.cast(total, _dt.float32)
        diagonal = r.reduce_sum(cm * np.eye(num_classes, dtype=np.float32), 1)
        denominator = r.reduce_sum(cm, 0) + r.reduce_sum(cm, 1) - diagonal
        valid = r.reduce_sum(m.cast(m.not_equal(denominator, 0.0), _dt.float32))
        iou = diagonal / a.where(m.greater(denominator, 0.0), denominator, a.ones_like(denominator))
        value = a.where(m.greater(valid, 0.0), r.reduce_sum(iou, name="mean_iou") / valid, a.zeros_like(valid),
                        name="value")
    _collect(value, update, metrics_collections, updates_collections)
    return value, update


__getattr__ = _missing_names("metrics", __name__)
