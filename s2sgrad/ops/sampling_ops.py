"""Sampled losses: ``tf.nn.nce_loss`` and ``tf.nn.sampled_softmax_loss`` over a few sampled
classes instead of all of them, the candidate samplers they draw from (log-uniform by default,
as TF) and ``compute_accidental_hits``. Compositions of gathers, products and the cross-entropies,
as TensorFlow writes them; ``sampled_values=`` fixes the samples."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import dtypes as _dt
from ..primitives.core import Primitive
from ..primitives.sampling import LOG_UNIFORM_CANDIDATE_SAMPLER, UNIFORM_CANDIDATE_SAMPLER
from ..ssa.graph import Tensor, get_default_graph
from . import array_ops as a
from . import math_ops as m
from . import nn_ops
from . import reduce_ops as r
from .convert import convert_to_tensor, graph_of, record
from .embedding_ops import embedding_lookup
from .random_ops import get_seed

__all__ = ["log_uniform_candidate_sampler", "uniform_candidate_sampler", "compute_accidental_hits", "nce_loss",
           "sampled_softmax_loss"]

LOWEST_FLOAT32 = float(np.finfo(np.float32).min)   # what an accidental hit adds to its logit, as in TF


def _sampler(prim: Primitive, what: str) -> Any:
    def sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int,
                seed: int | None = None, name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
        classes = convert_to_tensor(true_classes)
        with graph_of([classes]).as_default():
            if not classes.dtype.is_integer:
                raise TypeError(f"true_classes must be integer class ids, got {classes.dtype.name}")
            classes = m.cast(classes, _dt.int64)
            seeds = get_seed(seed)
            if not isinstance(unique, (bool, np.bool_)):
                raise TypeError(f"unique must be a Python bool, got {unique!r}")
            attrs = {"num_true": a.static_int(num_true, "num_true"), "num_sampled": a.static_int(num_sampled,
                     "num_sampled"), "unique": bool(unique), "range_max": a.static_int(range_max, "range_max"),
                     "seed": seeds[0], "seed2": seeds[1]}
            outs = record(prim, [classes], attrs, name or prim.name).outputs
            return outs[0], outs[1], outs[2]
    sampler.__name__ = what
    sampler.__doc__ = (f"``(sampled_candidates, true_expected_count, sampled_expected_count)``: ``num_sampled`` "
                       f"classes of ``[0, range_max)`` drawn {'log-uniformly' if 'log' in what else 'uniformly'} (all "
                       f"different when ``unique``), and the expected counts of the true and the sampled classes."
                       f"\n\n    >>> # sampled = tf.nn.{what}(labels, 1, 64, True, vocabulary_size)\n")
    return sampler


log_uniform_candidate_sampler = _sampler(LOG_UNIFORM_CANDIDATE_SAMPLER, "log_uniform_candidate_sampler")
uniform_candidate_sampler = _sampler(UNIFORM_CANDIDATE_SAMPLER, "uniform_candidate_sampler")


def _hits(true_classes: Tensor, sampled: Tensor) -> Tensor:
    """``[batch, num_true, num_sampled]``: whether sample ``s`` is true class ``j`` of row ``i``."""
    return m.equal(a.expand_dims(true_classes, 2), a.reshape(sampled, [1, 1, -1]))


def compute_accidental_hits(true_classes: Any, sampled_candidates: Any, num_true: int, seed: int | None = None,
                            name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """``(indices, ids, weights)``: for each sampled candidate equal to a true class of row
    ``indices[k]``, its position ``ids[k]`` among the samples and the weight -FLT_MAX (in row, then
    true class, then sample order).

    >>> # rows, positions, weights = tf.nn.compute_accidental_hits(labels, sampled, num_true=1)
    """
    classes = convert_to_tensor(true_classes)
    graph = graph_of([classes, sampled_candidates])
    with graph.as_default(), graph.name_scope(name or "ComputeAccidentalHits"):
        sampled = m.cast(convert_to_tensor(sampled_candidates), _dt.int64)
        found = a.where(_hits(m.cast(classes, _dt.int64), sampled))
        ids = found[:, 2]
        return m.cast(found[:, 0], _dt.int32), ids, a.fill(a.shape(ids), np.float32(LOWEST_FLOAT32))


def _sampled_logits(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int, num_classes: int,
                    num_true: int, sampled_values: Any, remove_accidental_hits: bool, partition_strategy: str,
                    seed: int | None) -> tuple[Tensor, Tensor]:
    """Logits of the true and the sampled classes (``[batch, num_true + num_sampled]``, the log of
    each class's expected count subtracted) and their labels (``1 / num_true`` for the true ones)."""
    with get_default_graph().name_scope("logits"):  # short names for the generated code: logits_true_w...
        x = convert_to_tensor(inputs)
        classes = m.cast(convert_to_tensor(labels), _dt.int64)
        if sampled_values is None:
            sampled_values = log_uniform_candidate_sampler(classes, num_true, num_sampled, True, num_classes,
                                                           seed=seed)
        sampled, true_count, sampled_count = (a.stop_gradient(v) for v in sampled_values)
        sampled = m.cast(sampled, _dt.int64)
        flat = a.reshape(classes, [-1])
        true_w = m.cast(embedding_lookup(weights, flat, partition_strategy, name="true_w"), x.dtype)
        sampled_w = m.cast(embedding_lookup(weights, sampled, partition_strategy, name="sampled_w"), x.dtype)
        true_b = m.cast(embedding_lookup(biases, flat, partition_strategy, name="true_b"), x.dtype)
        sampled_b = m.cast(embedding_lookup(biases, sampled, partition_strategy, name="sampled_b"), x.dtype)
        example = m.floordiv(r.cumsum(a.ones_like(flat), exclusive=True), num_true)  # the row of each true label
        dots = r.reduce_sum(a.gather(x, example) * true_w, 1)
        true_logits = a.reshape(dots, [-1, num_true]) + a.reshape(true_b, [-1, num_true])
        sampled_logits = m.matmul(x, sampled_w, transpose_b=True) + sampled_b
        if remove_accidental_hits:
            hit = r.reduce_any(_hits(classes, sampled), 1)
            sampled_logits += m.cast(hit, x.dtype) * LOWEST_FLOAT32
        true_logits -= m.log(m.cast(true_count, x.dtype))
        sampled_logits -= m.log(m.cast(sampled_count, x.dtype))
        logits = a.concat([true_logits, sampled_logits], 1)
        targets = a.concat([a.ones_like(true_logits) / float(num_true), a.zeros_like(sampled_logits)], 1)
        return logits, targets


def nce_loss(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int, num_classes: int,
             num_true: int = 1, sampled_values: Any = None, remove_accidental_hits: bool = False,
             partition_strategy: str = "mod", name: str = "nce_loss") -> Tensor:
    """Noise-contrastive estimation loss per example (``[batch]``): logistic losses of the true
    classes against ``num_sampled`` sampled ones. ``weights`` is ``[num_classes, dim]`` (or its
    partitions), ``labels`` ``[batch, num_true]``.

    >>> # loss = tf.reduce_mean(tf.nn.nce_loss(w, b, labels, embed, num_sampled=64, num_classes=50000))
    """
    graph = graph_of([weights if not isinstance(weights, (list, tuple)) else weights[0], biases, labels, inputs])
    with graph.as_default(), graph.name_scope(name):
        logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                          sampled_values, remove_accidental_hits, partition_strategy, None)
        losses = nn_ops.sigmoid_cross_entropy_with_logits(labels=targets, logits=logits, name="sampled_losses")
        return r.reduce_sum(losses, 1)


def sampled_softmax_loss(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int, num_classes: int,
                         num_true: int = 1, sampled_values: Any = None, remove_accidental_hits: bool = True,
                         partition_strategy: str = "mod", name: str = "sampled_softmax_loss",
                         seed: int | None = None) -> Tensor:
    """Softmax cross-entropy per example (``[batch]``) over the true classes and ``num_sampled``
    sampled ones, a training-time stand-in for the full softmax over ``num_classes``.

    >>> # loss = tf.reduce_mean(tf.nn.sampled_softmax_loss(w, b, labels, h, 64, vocabulary_size))
    """
    graph = graph_of([weights if not isinstance(weights, (list, tuple)) else weights[0], biases, labels, inputs])
    with graph.as_default(), graph.name_scope(name):
        logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                          sampled_values, remove_accidental_hits, partition_strategy, seed)
        targets = a.stop_gradient(targets, name="labels_stop_gradient")
        return nn_ops.softmax_cross_entropy_with_logits_v2(labels=targets, logits=logits)
