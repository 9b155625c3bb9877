"""Op cases: tf.nn activations (and their gradient ops), softmax, cross-entropies, bias_add, l2.

References are written directly in NumPy from the definitions; inputs stay away from the
activations' kinks so finite differences are meaningful.
"""
import numpy as np

import s2sgrad as tf
from optable import OpCase

R = np.random.default_rng(7)


def _away_from(values, points, margin=0.1):
    """``values`` with every element within ``margin`` of a kink moved off it."""
    out = values.copy()
    for p in points:
        near = np.abs(out - p) < margin
        out[near] = p + np.where(out[near] >= p, margin, -margin) * 2
    return out


X = _away_from(R.uniform(-2.0, 2.0, (3, 4)), [0.0])
X6 = _away_from(R.uniform(-2.0, 8.0, (3, 5)), [0.0, 6.0])
G = R.standard_normal((3, 4))
G6 = R.standard_normal((3, 5))
LOGITS = R.standard_normal((4, 5)) * 2
LABELS = R.dirichlet(np.ones(5), size=4)       # rows sum to 1 (the fused gradient assumes it)
LABELS0 = R.dirichlet(np.ones(4), size=5).T    # columns sum to 1
CLASSES = np.array([0, 4, 2, 2], dtype=np.int32)
BIAS = R.standard_normal(4)
IMAGES = R.standard_normal((2, 3, 2, 4))
SELU_SCALE, SELU_ALPHA = 1.0507009873554805, 1.6732632423543772


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax(x, axis=-1):
    return np.log(softmax(x, axis))


def elu(x):
    return np.where(x < 0, np.exp(x) - 1, x)


def selu(x):
    return SELU_SCALE * np.where(x < 0, SELU_ALPHA * (np.exp(x) - 1), x)


def gradient_of(activation, **kwargs):
    """The gradient op of ``activation`` as the op under test: ``d/dx <activation(x), g>``."""
    return lambda x, g: tf.gradients(activation(x, **kwargs), x, grad_ys=g)[0]


def xent_gradient(logits, labels):
    """The logits gradient of the fused cross-entropy (exercises its second-order rule)."""
    loss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
    return tf.gradients(loss * tf.range(1.0, 5.0, dtype=tf.float64), logits)[0]


CASES = [
    # activations
    OpCase("relu", tf.nn.relu, [X], lambda x: np.maximum(x, 0), order2=True),
    OpCase("relu_int32", tf.nn.relu, [np.array([-3, 0, 5], np.int32)], lambda x: np.maximum(x, 0), grad=False),
    OpCase("relu6", tf.nn.relu6, [X6], lambda x: np.minimum(np.maximum(x, 0), 6), order2=True),
    OpCase("elu", tf.nn.elu, [X], elu, order2=True),
    OpCase("selu", tf.nn.selu, [X], selu, order2=True),
    OpCase("softplus", tf.nn.softplus, [X * 10], lambda x: np.log1p(np.exp(x)), order2=True),
    OpCase("softsign", tf.nn.softsign, [X], lambda x: x / (1 + np.abs(x)), order2=True),
    OpCase("leaky_relu", lambda x: tf.nn.leaky_relu(x, alpha=0.1), [X], lambda x: np.where(x > 0, x, 0.1 * x),
           order2=True),
    OpCase("leaky_relu_alpha_above_1", lambda x: tf.nn.leaky_relu(x, alpha=2.5), [X],
           lambda x: np.where(x > 0, x, 2.5 * x)),
    OpCase("leaky_relu_negative_alpha", lambda x: tf.nn.leaky_relu(x, alpha=-0.5), [X],
           lambda x: np.where(x > 0, x, -0.5 * x)),
    OpCase("nn_sigmoid", tf.nn.sigmoid, [X], sigmoid, order2=True),
    # the activations' gradient ops, differentiated in turn (second order)
    OpCase("relu_grad", gradient_of(tf.nn.relu), [X, G], lambda x, g: g * (x > 0), order2=True),
    OpCase("relu6_grad", gradient_of(tf.nn.relu6), [X6, G6], lambda x, g: g * ((x > 0) & (x < 6)), order2=True),
    OpCase("elu_grad", gradient_of(tf.nn.elu), [X, G], lambda x, g: g * np.where(x < 0, np.exp(x), 1),
           order2=True),
    OpCase("selu_grad", gradient_of(tf.nn.selu), [X, G],
           lambda x, g: g * SELU_SCALE * np.where(x < 0, SELU_ALPHA * np.exp(x), 1), order2=True),
    OpCase("softplus_grad", gradient_of(tf.nn.softplus), [X, G], lambda x, g: g * sigmoid(x), order2=True),
    OpCase("softsign_grad", gradient_of(tf.nn.softsign), [X, G], lambda x, g: g / (1 + np.abs(x)) ** 2,
           order2=True),
    OpCase("leaky_relu_grad", gradient_of(tf.nn.leaky_relu, alpha=0.3), [X, G],
           lambda x, g: np.where(x > 0, g, 0.3 * g), order2=True),
    # softmax
    OpCase("softmax", tf.nn.softmax, [LOGITS], softmax, order2=True),
    OpCase("softmax_axis0", lambda x: tf.nn.softmax(x, axis=0), [LOGITS], lambda x: softmax(x, 0), order2=True),
    OpCase("softmax_rank3_dim1", lambda x: tf.nn.softmax(x, dim=1), [IMAGES], lambda x: softmax(x, 1)),
    OpCase("log_softmax", tf.nn.log_softmax, [LOGITS], log_softmax, order2=True),
    OpCase("log_softmax_axis0", lambda x: tf.nn.log_softmax(x, axis=0), [LOGITS], lambda x: log_softmax(x, 0),
           order2=True),
    # cross-entropies
    OpCase("softmax_xent", lambda z, y: tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=z),
           [LOGITS, LABELS], lambda z, y: -np.sum(y * log_softmax(z), -1), order2=True,
           grad_inputs=[0]),  # TF-1.x's v1 stops the labels' gradient; the _v2 cases check theirs
    OpCase("softmax_xent_v2_axis0", lambda z, y: tf.nn.softmax_cross_entropy_with_logits_v2(y, z, axis=0),
           [LOGITS, LABELS0], lambda z, y: -np.sum(y * log_softmax(z, 0), 0), order2=True),
    OpCase("softmax_xent_rank3", lambda z, y: tf.nn.softmax_cross_entropy_with_logits_v2(y, z),
           [IMAGES, softmax(IMAGES * 3)], lambda z, y: -np.sum(y * log_softmax(z), -1)),
    OpCase("softmax_xent_logits_grad", xent_gradient, [LOGITS, LABELS],
           lambda z, y: (softmax(z) - y) * np.arange(1.0, 5.0)[:, None], order2=True),
    OpCase("sparse_softmax_xent", lambda z, c: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=c, logits=z),
           [LOGITS, CLASSES], lambda z, c: -log_softmax(z)[np.arange(4), c], order2=True),
    OpCase("sigmoid_xent", lambda z, y: tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=z),
           [X * 5, sigmoid(G)], lambda z, y: -y * np.log(sigmoid(z)) - (1 - y) * np.log(1 - sigmoid(z)),
           order2=True, rtol=1e-9),
    # bias_add, l2
    OpCase("bias_add", tf.nn.bias_add, [X, BIAS], lambda x, b: x + b, order2=True),
    OpCase("bias_add_nhwc", tf.nn.bias_add, [IMAGES, BIAS], lambda x, b: x + b),
    OpCase("bias_add_nchw", lambda x, b: tf.nn.bias_add(x, b[:3], data_format="NCHW"), [IMAGES, BIAS],
           lambda x, b: x + b[:3, None, None]),
    OpCase("xw_plus_b", tf.nn.xw_plus_b, [X, LOGITS, R.standard_normal(5)], lambda x, w, b: x @ w + b),
    OpCase("l2_loss", tf.nn.l2_loss, [X], lambda x: np.sum(x * x) / 2, order2=True),
    OpCase("l2_normalize", lambda x: tf.nn.l2_normalize(x, axis=1), [X],
           lambda x: x / np.sqrt(np.sum(x * x, 1, keepdims=True)), order2=True),
    # TF's variance stops the gradient through the mean: exact at first order only, so no order2
    OpCase("moments", lambda x: list(tf.nn.moments(x, axes=[0])), [X], lambda x: [x.mean(0), x.var(0)]),
    OpCase("moments_keepdims", lambda x: list(tf.nn.moments(x, axes=[0, 2], keepdims=True)), [IMAGES],
           lambda x: [x.mean((0, 2), keepdims=True), x.var((0, 2), keepdims=True)]),
]
