"""Op cases: nce_loss and sampled_softmax_loss with fixed samples (``sampled_values=``), against
NumPy written from their definitions (logits of the true and sampled classes, minus the log of
each class's expected count; accidental hits pushed to -FLT_MAX)."""
import numpy as np

import s2sgrad as tf
from optable import OpCase

R = np.random.default_rng(21)
CLASSES, DIM, BATCH = 10, 4, 3
W = R.standard_normal((CLASSES, DIM))
B = R.standard_normal(CLASSES)
X = R.standard_normal((BATCH, DIM))
LABELS = np.array([[2, 7], [4, 0], [9, 2]], np.int64)
SAMPLED = np.array([7, 3, 5, 2, 8], np.int64)            # 7 and 2 are accidental hits of rows 0 and 2
TRUE_COUNT = R.uniform(0.2, 0.9, (BATCH, 2)).astype(np.float32)
SAMPLED_COUNT = R.uniform(0.2, 0.9, 5).astype(np.float32)
VALUES = (SAMPLED, TRUE_COUNT, SAMPLED_COUNT)


def logits_and_labels(w, b, x, remove_hits, num_true=2):
    true = np.einsum("id,ijd->ij", x, w[LABELS[:, :num_true]]) + b[LABELS[:, :num_true]]
    true = true - np.log(TRUE_COUNT[:, :num_true].astype(np.float64))
    sampled = x @ w[SAMPLED].T + b[SAMPLED] - np.log(SAMPLED_COUNT.astype(np.float64))
    if remove_hits:
        hit = (LABELS[:, :num_true, None] == SAMPLED[None, None, :]).any(1)
        sampled = sampled + hit * np.float64(np.finfo(np.float32).min)
    labels = np.concatenate([np.full(true.shape, 1.0 / num_true), np.zeros(sampled.shape)], 1)
    return np.concatenate([true, sampled], 1), labels


def nce(w, b, x, remove_hits=False, num_true=2):
    z, y = logits_and_labels(w, b, x, remove_hits, num_true)
    return np.sum(np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z))), 1)


def sampled_softmax(w, b, x, remove_hits=True, num_true=2):
    z, y = logits_and_labels(w, b, x, remove_hits, num_true)
    shifted = z - z.max(1, keepdims=True)
    return -np.sum(y * (shifted - np.log(np.sum(np.exp(shifted), 1, keepdims=True))), 1)


def _values(num_true):
    return SAMPLED, TRUE_COUNT[:, :num_true], SAMPLED_COUNT


CASES = [
    OpCase("nce_loss", lambda w, b, x: tf.nn.nce_loss(w, b, LABELS, x, 5, CLASSES, num_true=2, sampled_values=VALUES),
           [W, B, X], nce, order2=True),
    OpCase("nce_loss_remove_accidental_hits",
           lambda w, b, x: tf.nn.nce_loss(w, b, LABELS, x, 5, CLASSES, num_true=2, sampled_values=VALUES,
                                          remove_accidental_hits=True),
           [W, B, X], lambda w, b, x: nce(w, b, x, True)),
    OpCase("nce_loss_partitioned",
           lambda w0, w1, b, x: tf.nn.nce_loss([w0, w1], b, LABELS[:, :1], x, 5, CLASSES, sampled_values=_values(1)),
           [W[0::2], W[1::2], B, X],
           lambda w0, w1, b, x: nce(np.stack([w0, w1], 1).reshape(CLASSES, DIM), b, x, num_true=1)),
    OpCase("sampled_softmax_loss",
           lambda w, b, x: tf.nn.sampled_softmax_loss(w, b, LABELS, x, 5, CLASSES, num_true=2, sampled_values=VALUES),
           [W, B, X], sampled_softmax, order2=True),
    OpCase("sampled_softmax_loss_keep_hits",
           lambda w, b, x: tf.nn.sampled_softmax_loss(w, b, LABELS[:, :1], x, 5, CLASSES, sampled_values=_values(1),
                                                      remove_accidental_hits=False),
           [W, B, X], lambda w, b, x: sampled_softmax(w, b, x, False, num_true=1)),
]


def all_classes_sorted(sampler):
    """``range_max`` unique draws from ``range_max`` classes are every class once: sorted, a range."""
    def build(true_classes):
        sampled, true_count, sampled_count = sampler(true_classes, 2, 6, True, 6, seed=3)
        return [tf.nn.top_k(tf.cast(sampled, tf.float64), 6).values, tf.shape(true_count), tf.shape(sampled_count)]
    return build


CASES += [
    OpCase("log_uniform_candidate_sampler_all_classes", all_classes_sorted(tf.nn.log_uniform_candidate_sampler),
           [LABELS % 6], lambda t: [np.arange(5.0, -1.0, -1.0), np.array([3, 2], np.int32), np.array([6], np.int32)],
           grad=False),
    OpCase("uniform_candidate_sampler_all_classes", all_classes_sorted(tf.nn.uniform_candidate_sampler),
           [LABELS % 6], lambda t: [np.arange(5.0, -1.0, -1.0), np.array([3, 2], np.int32), np.array([6], np.int32)],
           grad=False),
]
