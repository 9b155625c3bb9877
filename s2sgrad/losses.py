"""``tf.losses``: weighted losses reduced TF-v1 style (default: the sum over the elements with
nonzero weight divided by their count) and collected in the graph's ``losses`` collection.

As in TensorFlow, losses are computed in float32 and cast back to the input's dtype.
"""
from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Any

from . import dtypes as _dt
from .ops import array_ops as a
from .ops import math_ops as m
from .ops import nn_ops as nn
from .ops import reduce_ops as r
from .ops.convert import convert_to_tensor, graph_of
from .regularizers import get_regularization_loss
from .ssa.graph import Tensor, get_default_graph
from .tf1_api import missing_names as _missing_names

__all__ = ["Reduction", "compute_weighted_loss", "mean_squared_error", "absolute_difference",
           "softmax_cross_entropy", "sparse_softmax_cross_entropy", "sigmoid_cross_entropy", "add_loss",
           "get_losses", "get_regularization_losses", "get_total_loss", "get_regularization_loss"]

LOSSES = "losses"
REGULARIZATION_LOSSES = "regularization_losses"


class Reduction:
    """How ``compute_weighted_loss`` reduces the weighted losses."""

    NONE = "none"
    SUM = "weighted_sum"
    SUM_OVER_BATCH_SIZE = "weighted_sum_over_batch_size"
    MEAN = "weighted_mean"
    SUM_BY_NONZERO_WEIGHTS = "weighted_sum_by_nonzero_weights"
    SUM_OVER_NONZERO_WEIGHTS = SUM_BY_NONZERO_WEIGHTS

    @classmethod
    def all(cls) -> tuple:
        return (cls.NONE, cls.SUM, cls.MEAN, cls.SUM_OVER_BATCH_SIZE, cls.SUM_OVER_NONZERO_WEIGHTS)

    @classmethod
    def validate(cls, key: object) -> None:
        if not isinstance(key, str) or key not in cls.all():
            raise ValueError(f"Invalid Reduction Key {key}.")


def _safe_mean(total: Tensor, count: int | Tensor) -> Tensor:
    """``total / count``, or 0 when ``count`` is 0 (``count`` may be a known Python number)."""
    if isinstance(count, numbers.Real):
        return m.truediv(total, float(count), name="value") if count else a.zeros_like(total, name="value")
    empty = m.equal(count, 0.0)
    return a.where(empty, a.zeros_like(total), total / a.where(empty, a.ones_like(count), count), name="value")


def _num_elements(losses: Tensor) -> int | Tensor:
    known = losses.shape.num_elements()
    return known if known is not None else m.cast(a.size(losses), _dt.float32)


def _num_present(losses: Tensor, weights: Tensor, raw_weights: Any) -> int | Tensor:
    """How many elements of ``losses`` carry a nonzero weight."""
    if isinstance(raw_weights, numbers.Real) and not isinstance(raw_weights, bool):
        return _num_elements(losses) if raw_weights != 0 else 0
    present = a.where(m.equal(weights, 0.0), a.zeros_like(weights), a.ones_like(weights))
    return r.reduce_sum(present * a.ones_like(losses), name="num_present")


def _check_broadcastable(weights: Tensor, losses: Tensor) -> None:
    """Weights are a scalar or have the losses' rank with each dimension 1 or equal (as TF requires)."""
    w, v = weights.shape, losses.shape
    if w.sizes is None or v.sizes is None or w.rank == 0:
        return
    if w.rank != v.rank or any(wd not in (1, None) and vd is not None and wd != vd
                               for wd, vd in zip(w.sizes, v.sizes, strict=True)):
        raise ValueError(f"weights can not be broadcast to values. weights.shape={w}, values.shape={v}")


def compute_weighted_loss(losses: Any, weights: Any = 1.0, scope: str | None = None,
                          loss_collection: str | None = LOSSES,
                          reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """``losses * weights`` reduced by ``reduction``; added to ``loss_collection``.

    >>> # tf.losses.compute_weighted_loss(per_example, weights=mask)
    """
    Reduction.validate(reduction)
    losses = convert_to_tensor(losses)
    graph = graph_of([losses, weights])
    with graph.as_default(), graph.name_scope(scope or "weighted_loss"):
        input_dtype = losses.dtype
        values = m.cast(losses, _dt.float32)
        w = m.cast(convert_to_tensor(weights), _dt.float32)
        _check_broadcastable(w, values)
        weighted = m.multiply(values, w)
        if reduction == Reduction.NONE:
            loss = weighted
        else:
            loss = r.reduce_sum(weighted)
            if reduction == Reduction.MEAN:
                loss = _safe_mean(loss, r.reduce_sum(a.ones_like(values) * w))
            elif reduction == Reduction.SUM_BY_NONZERO_WEIGHTS:
                loss = _safe_mean(loss, _num_present(values, w, weights))
            elif reduction == Reduction.SUM_OVER_BATCH_SIZE:
                loss = _safe_mean(loss, _num_elements(values))
        loss = m.cast(loss, input_dtype, name="value")
        add_loss(loss, loss_collection)
        return loss


def _pair(labels: Any, predictions: Any) -> tuple[Tensor, Tensor]:
    if labels is None:
        raise ValueError("Argument `labels` must not be None.")
    if predictions is None:
        raise ValueError("Argument `predictions` must not be None.")
    predictions = m.cast(convert_to_tensor(predictions), _dt.float32)
    labels = m.cast(convert_to_tensor(labels), _dt.float32)
    if not predictions.shape.is_compatible_with(labels.shape):
        raise ValueError(f"Shapes {predictions.shape} and {labels.shape} are incompatible "
                         "(predictions and labels)")
    return labels, predictions


def _pointwise_loss(default_scope: str, elementwise: Callable[[Tensor, Tensor], Tensor],
                    doc: str) -> Callable[..., Tensor]:
    """A ``(labels, predictions, weights, ...)`` loss from ``elementwise(predictions, labels)``."""
    def loss(labels: Any, predictions: Any, weights: Any = 1.0, scope: str | None = None,
             loss_collection: str | None = LOSSES, reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
        graph = graph_of([labels, predictions, weights])
        with graph.as_default(), graph.name_scope(scope or default_scope) as name:
            labels, predictions = _pair(labels, predictions)
            losses = elementwise(predictions, labels)
            return compute_weighted_loss(losses, weights, name, loss_collection, reduction)
    loss.__name__ = default_scope
    loss.__doc__ = doc
    return loss


mean_squared_error = _pointwise_loss(
    "mean_squared_error", m.squared_difference,
    """Weighted ``(predictions - labels) ** 2``, by default averaged over the nonzero weights.

    >>> # loss = tf.losses.mean_squared_error(labels=y, predictions=y_hat)
    """)
absolute_difference = _pointwise_loss(
    "absolute_difference", lambda p, y: m.abs(m.subtract(p, y)),
    """Weighted ``|predictions - labels|``, by default averaged over the nonzero weights.

    >>> # loss = tf.losses.absolute_difference(labels=y, predictions=y_hat)
    """)


def _logits_and(labels: Any, logits: Any, what: str) -> tuple[Tensor, Tensor]:
    if labels is None:
        raise ValueError(f"Argument `{what}` must not be None.")
    if logits is None:
        raise ValueError("Argument `logits` must not be None.")
    logits = convert_to_tensor(logits)
    labels = m.cast(convert_to_tensor(labels), logits.dtype)
    if not logits.shape.is_compatible_with(labels.shape):
        raise ValueError(f"Shapes {logits.shape} and {labels.shape} are incompatible (logits and {what})")
    return labels, logits


def softmax_cross_entropy(onehot_labels: Any, logits: Any, weights: Any = 1.0, label_smoothing: float = 0,
                          scope: str | None = None, loss_collection: str | None = LOSSES,
                          reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """Softmax cross-entropy of one-hot labels (smoothed towards uniform by ``label_smoothing``);
    no gradient flows into the labels.

    >>> # loss = tf.losses.softmax_cross_entropy(onehot_labels=y, logits=z, label_smoothing=0.1)
    """
    graph = graph_of([onehot_labels, logits, weights])
    with graph.as_default(), graph.name_scope(scope or "softmax_cross_entropy_loss") as name:
        labels, logits = _logits_and(onehot_labels, logits, "onehot_labels")
        if _smoothing(label_smoothing) > 0:
            classes = m.cast(a.shape(labels)[-1], logits.dtype)
            labels = labels * (1.0 - label_smoothing) + label_smoothing / classes
        labels = a.stop_gradient(labels, name="labels_stop_gradient")
        losses = nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, name, loss_collection, reduction)


def sparse_softmax_cross_entropy(labels: Any, logits: Any, weights: Any = 1.0, scope: str | None = None,
                                 loss_collection: str | None = LOSSES,
                                 reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """Softmax cross-entropy against integer class labels (a trailing label axis of size 1 is dropped).

    >>> # loss = tf.losses.sparse_softmax_cross_entropy(labels=class_ids, logits=z)
    """
    if labels is None or logits is None:
        raise ValueError("Arguments `labels` and `logits` must not be None.")
    graph = graph_of([labels, logits, weights])
    with graph.as_default(), graph.name_scope(scope or "sparse_softmax_cross_entropy_loss") as name:
        labels, logits = convert_to_tensor(labels), convert_to_tensor(logits)
        if labels.shape.rank is not None and logits.shape.rank is not None \
                and labels.shape.rank == logits.shape.rank and labels.shape.sizes[-1] == 1:
            labels = a.squeeze(labels, [-1])
        losses = nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, name, loss_collection, reduction)


def sigmoid_cross_entropy(multi_class_labels: Any, logits: Any, weights: Any = 1.0, label_smoothing: float = 0,
                          scope: str | None = None, loss_collection: str | None = LOSSES,
                          reduction: str = Reduction.SUM_BY_NONZERO_WEIGHTS) -> Tensor:
    """Elementwise sigmoid cross-entropy (labels smoothed towards 1/2 by ``label_smoothing``).

    >>> # loss = tf.losses.sigmoid_cross_entropy(multi_class_labels=y, logits=z)
    """
    graph = graph_of([multi_class_labels, logits, weights])
    with graph.as_default(), graph.name_scope(scope or "sigmoid_cross_entropy_loss") as name:
        labels, logits = _logits_and(multi_class_labels, logits, "multi_class_labels")
        if _smoothing(label_smoothing) > 0:
            labels = labels * (1 - label_smoothing) + 0.5 * label_smoothing
        losses = nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights, name, loss_collection, reduction)


def _smoothing(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"label_smoothing must be a Python number, got {value!r}")
    if not 0 <= float(value) <= 1:
        raise ValueError(f"label_smoothing must be in [0, 1], got {value!r}")
    return float(value)


# -- the losses collection ------------------------------------------------------------------------------

def add_loss(loss: Tensor, loss_collection: str | None = LOSSES) -> None:
    """Add ``loss`` to ``loss_collection`` (nothing when it is None)."""
    if not isinstance(loss, Tensor):
        raise TypeError(f"add_loss expects a Tensor, got {loss!r}")
    if loss_collection:
        loss.graph.add_to_collection(loss_collection, loss)


def get_losses(scope: str | None = None, loss_collection: str = LOSSES) -> list[Tensor]:
    """The losses collected in the default graph (those under ``scope``, when given)."""
    return get_default_graph().get_collection(loss_collection, scope)


def get_regularization_losses(scope: str | None = None) -> list[Tensor]:
    """The default graph's ``regularization_losses`` collection."""
    return get_default_graph().get_collection(REGULARIZATION_LOSSES, scope)


def get_total_loss(add_regularization_losses: bool = True, name: str = "total_loss",
                   scope: str | None = None) -> Tensor:
    """The sum of the collected losses (and regularization losses).

    >>> # total = tf.losses.get_total_loss()
    """
    losses = get_losses(scope)
    if add_regularization_losses:
        losses = losses + get_regularization_losses(scope)
    if not losses:
        raise ValueError("No losses found in the `losses` collection.")
    return m.add_n(losses, name=name)


__getattr__ = _missing_names("losses", __name__)
