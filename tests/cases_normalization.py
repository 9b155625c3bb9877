"""Op cases: tf.nn normalization (batch_normalization, fused_batch_norm, moments, weighted_moments,
LRN), top_k / in_top_k, crelu, swish, weighted cross-entropy and partitioned embedding_lookup.

References are NumPy written from the definitions (LRN by a loop over the channels)."""
import numpy as np

import s2sgrad as tf
from optable import OpCase

R = np.random.default_rng(1414)
X4 = R.standard_normal((2, 3, 2, 4))
NCHW = R.standard_normal((2, 3, 2, 2))
GAMMA, BETA = R.uniform(0.5, 1.5, 4), R.standard_normal(4)
MEAN, VAR = R.standard_normal(4), R.uniform(0.5, 2.0, 4)
X = R.standard_normal((3, 5))
W = R.uniform(0.0, 2.0, (3, 5))
DISTINCT = R.permutation(24).reshape(4, 6) / 7.0 - 1.0        # no ties: finite differences are meaningful
TIES = np.array([[1.0, 3.0, 3.0, 2.0, 3.0], [0.5, 0.5, 0.5, 0.5, 0.5]])
LOGITS = R.standard_normal((4, 5)).astype(np.float32)
LABELS = R.uniform(0.0, 1.0, (3, 5))
EPS = 1e-3


def batch_norm(x, mean, var, offset, scale, eps):
    return (x - mean) / np.sqrt(var + eps) * scale + offset


def fused_train(x, gamma, beta, channel=-1):
    axes = tuple(i for i in range(x.ndim) if i != channel % x.ndim)
    mean, var = x.mean(axes), x.var(axes)
    shape = [1] * x.ndim
    shape[channel] = -1
    y = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + EPS) * gamma.reshape(shape) + beta.reshape(shape)
    n = x.size / mean.size
    return [y, mean, var * n / (n - 1)]


def lrn(x, radius, bias, alpha, beta):
    out = np.empty_like(x)
    depth = x.shape[-1]
    for d in range(depth):
        window = x[..., max(0, d - radius):min(depth, d + radius + 1)]
        out[..., d] = x[..., d] / (bias + alpha * np.sum(window ** 2, axis=-1)) ** beta
    return out


def top_k_reference(x, k):
    order = np.array([sorted(range(x.shape[-1]), key=lambda j: (-row[j], j))[:k] for row in x.reshape(-1, x.shape[-1])])
    order = order.reshape(x.shape[:-1] + (k,))
    return [np.take_along_axis(x, order, -1), order.astype(np.int32)]


def in_top_k_reference(p, t, k):
    return np.array([np.sum(row > row[c]) < k for row, c in zip(p, t, strict=True)])


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


TABLE = R.standard_normal((7, 3))
PARTS_MOD = [TABLE[k::3] for k in range(3)]        # id i is row i // 3 of partition i % 3
PARTS_DIV = [TABLE[0:3], TABLE[3:5], TABLE[5:7]]   # 7 ids over 3 partitions: 3, 2, 2
IDS = np.array([[6, 0, 4], [1, 1, 5]], np.int32)


def clip_rows(rows, max_norm):
    norm = np.sqrt(np.sum(rows ** 2, axis=-1, keepdims=True))
    return rows * max_norm / np.maximum(norm, max_norm)


CASES = [
    OpCase("batch_normalization", lambda x, mu, v, b, s: tf.nn.batch_normalization(x, mu, v, b, s, EPS),
           [X4, MEAN, VAR, BETA, GAMMA], lambda x, mu, v, b, s: batch_norm(x, mu, v, b, s, EPS), order2=True),
    OpCase("batch_normalization_no_scale_offset", lambda x, mu, v: tf.nn.batch_normalization(x, mu, v, None, None, EPS),
           [X4, MEAN, VAR], lambda x, mu, v: batch_norm(x, mu, v, 0.0, 1.0, EPS)),
    # the batch statistics carry no gradient (as TF's fused op): the gradient cases differentiate y
    OpCase("batch_norm_with_global_normalization", lambda x, mu, v, b, s: tf.nn.batch_norm_with_global_normalization(
        x, mu, v, b, s, EPS, scale_after_normalization=True), [X4, MEAN, VAR, BETA, GAMMA],
           lambda x, mu, v, b, s: batch_norm(x, mu, v, b, s, EPS)),
    OpCase("fused_batch_norm_train", lambda x, g, b: list(tf.nn.fused_batch_norm(x, g, b, epsilon=EPS)),
           [X4, GAMMA, BETA], fused_train, grad=False),
    OpCase("fused_batch_norm_train_y", lambda x, g, b: tf.nn.fused_batch_norm(x, g, b, epsilon=EPS)[0],
           [X4, GAMMA, BETA], lambda x, g, b: fused_train(x, g, b)[0], order2=True),
    OpCase("fused_batch_norm_train_nchw",
           lambda x, g, b: list(tf.nn.fused_batch_norm(x, g, b, epsilon=EPS, data_format="NCHW")),
           [NCHW, GAMMA[:3], BETA[:3]], lambda x, g, b: fused_train(x, g, b, channel=1), grad=False),
    OpCase("fused_batch_norm_train_nchw_y",
           lambda x, g, b: tf.nn.fused_batch_norm(x, g, b, epsilon=EPS, data_format="NCHW")[0],
           [NCHW, GAMMA[:3], BETA[:3]], lambda x, g, b: fused_train(x, g, b, channel=1)[0]),
    OpCase("fused_batch_norm_inference",
           lambda x, g, b, mu, v: list(tf.nn.fused_batch_norm(x, g, b, mu, v, epsilon=EPS, is_training=False)),
           [X4, GAMMA, BETA, MEAN, VAR], lambda x, g, b, mu, v: [batch_norm(x, mu, v, b, g, EPS), mu, v],
           grad_inputs=[0, 1, 2], order2=True),
    OpCase("fused_batch_norm_avg_factor",
           lambda x, g, b, mu, v: list(tf.nn.fused_batch_norm(x, g, b, mu, v, epsilon=EPS,
                                                              exponential_avg_factor=0.25)),
           [X4, GAMMA, BETA, MEAN, VAR],
           lambda x, g, b, mu, v: [fused_train(x, g, b)[0], 0.75 * mu + 0.25 * fused_train(x, g, b)[1],
                                   0.75 * v + 0.25 * fused_train(x, g, b)[2]], grad=False),
    OpCase("moments_shift", lambda x: list(tf.nn.moments(x, axes=[1], shift=0.5, keep_dims=True)), [X],
           lambda x: [x.mean(1, keepdims=True), x.var(1, keepdims=True)]),
    OpCase("weighted_moments", lambda x, w: list(tf.nn.weighted_moments(x, [1], w)), [X, W],
           lambda x, w: [np.sum(w * x, 1) / np.sum(w, 1),
                         np.sum(w * (x - (np.sum(w * x, 1) / np.sum(w, 1))[:, None]) ** 2, 1) / np.sum(w, 1)],
           order2=True),
    OpCase("weighted_moments_broadcast_weights",
           lambda x, w: list(tf.nn.weighted_moments(x, [0, 1], w[:1], keepdims=True)),
           [X, W], lambda x, w: [np.sum(w[:1] * x, keepdims=True) / (3 * np.sum(w[:1])),
                                 np.sum(w[:1] * (x - np.sum(w[:1] * x) / (3 * np.sum(w[:1]))) ** 2, keepdims=True)
                                 / (3 * np.sum(w[:1]))]),
    OpCase("lrn", lambda x: tf.nn.lrn(x, depth_radius=1, bias=1.5, alpha=0.3, beta=0.75), [X4],
           lambda x: lrn(x, 1, 1.5, 0.3, 0.75), order2=True),
    OpCase("local_response_normalization_defaults", tf.nn.local_response_normalization, [X4],
           lambda x: lrn(x, 5, 1.0, 1.0, 0.5), order2=True),
    OpCase("top_k", lambda x: list(tf.nn.top_k(x, 3)), [DISTINCT], lambda x: top_k_reference(x, 3), order2=True),
    OpCase("top_k_ties", lambda x: list(tf.nn.top_k(x, 4)), [TIES], lambda x: top_k_reference(x, 4), grad=False),
    OpCase("top_k_int64_indices", lambda x: tf.nn.top_k(x, 2, index_type=tf.int64).indices, [DISTINCT],
           lambda x: top_k_reference(x, 2)[1].astype(np.int64), grad=False),
    OpCase("in_top_k", lambda p, t: tf.nn.in_top_k(p, t, 2), [LOGITS, np.array([0, 1, 2, 4], np.int32)],
           lambda p, t: in_top_k_reference(p, t, 2), grad=False),
    OpCase("in_top_k_ties", lambda p, t: tf.nn.in_top_k(p, t, 1), [TIES.astype(np.float32), np.array([2, 4], np.int32)],
           lambda p, t: np.array([True, True]), grad=False),
    OpCase("crelu", tf.nn.crelu, [X], lambda x: np.concatenate([np.maximum(x, 0), np.maximum(-x, 0)], -1),
           order2=True),
    OpCase("crelu_axis0", lambda x: tf.nn.crelu(x, axis=0), [X],
           lambda x: np.concatenate([np.maximum(x, 0), np.maximum(-x, 0)], 0)),
    OpCase("swish", tf.nn.swish, [X], lambda x: x * sigmoid(x), order2=True),
    OpCase("swish_beta", lambda x: tf.nn.swish(x, beta=2.0), [X], lambda x: x * sigmoid(2 * x), order2=True),
    OpCase("weighted_cross_entropy", lambda z, x: tf.nn.weighted_cross_entropy_with_logits(z, x, 3.0),
           [LABELS, X * 3], lambda z, x: -3.0 * z * np.log(sigmoid(x)) - (1 - z) * np.log(1 - sigmoid(x)),
           order2=True),
    OpCase("weighted_cross_entropy_targets", lambda z, x: tf.nn.weighted_cross_entropy_with_logits(
        targets=z, logits=x, pos_weight=0.5), [LABELS, X * 3],
           lambda z, x: -0.5 * z * np.log(sigmoid(x)) - (1 - z) * np.log(1 - sigmoid(x))),
    OpCase("embedding_lookup_mod", lambda *p: tf.nn.embedding_lookup(list(p), IDS), PARTS_MOD,
           lambda *p: TABLE[IDS], order2=True),
    OpCase("embedding_lookup_div", lambda *p: tf.nn.embedding_lookup(list(p), IDS, partition_strategy="div"),
           PARTS_DIV, lambda *p: TABLE[IDS]),
    OpCase("embedding_lookup_max_norm", lambda t: tf.nn.embedding_lookup(t, IDS, max_norm=1.2), [TABLE],
           lambda t: clip_rows(t[IDS], 1.2), order2=True, known_rank=True),
    OpCase("embedding_lookup_mod_max_norm", lambda *p: tf.nn.embedding_lookup(list(p), IDS, max_norm=1.0),
           PARTS_MOD, lambda *p: clip_rows(TABLE[IDS], 1.0), known_rank=True),
]
