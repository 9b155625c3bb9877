"""Plain NumPy functions, as a numerical user writes them (no s2sgrad import): the corpus that
``test_decorator_corpus.py`` differentiates with ``s2sgrad.grad`` and checks against finite
differences, NumPy's own values and, where easy, analytic gradients."""
import numpy as np

# -- helpers the functions below call -------------------------------------------------------------

def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def logsumexp(z, axis=-1):
    top = np.max(z, axis=axis, keepdims=True)
    return np.log(np.sum(np.exp(z - top), axis=axis)) + np.squeeze(top, axis=axis)


def softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def dense(x, w, b):
    return np.tanh(x @ w + b)


def stats(x):
    return x.mean(), x.std()


# -- elementwise and reductions -------------------------------------------------------------------

def sin_times_x(x):
    return np.sum(np.sin(x) * x)


def rosenbrock(x):
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def elementwise_zoo(x):
    y = np.exp(x) + np.expm1(x) + np.tanh(x) + np.arctan(x) + np.sinh(x) + np.cosh(x)
    y = y + np.log1p(x ** 2) + np.sqrt(x ** 2 + 1) + np.cbrt(x + 5) + np.arcsinh(x)
    return np.sum(y + np.log2(x ** 2 + 1) + np.log10(x ** 2 + 1) + np.exp2(x) + np.hypot(x, 1.5))


def powers(x):
    return np.sum(np.abs(x) ** 1.5 + 2.0 ** x + np.power(x, 3) + x / np.sum(x ** 2))


def row_normalize(a):
    return np.sum(a / np.sum(a ** 2, axis=1, keepdims=True))


def moments(a):
    return np.std(a, axis=0).sum() + np.var(a, ddof=1) + np.mean(a, axis=(0, 1))


def products(a):
    return np.prod(a, axis=1).sum() + a.prod()


def extremes(a):
    return np.max(a, axis=0).sum() - np.min(a) + a.max(axis=1, keepdims=True).mean() + np.ptp(a, axis=1).sum()


def scans(x):
    return np.sum(np.cumsum(x) * x) + np.cumprod(x)[-1] + np.sum(np.cumsum(x[::-1]) ** 2)


def weighted_average(a):
    return np.average(a, axis=0, weights=np.array([1.0, 2.0, 3.0, 4.0])).sum() + np.average(a)


# -- selection ---------------------------------------------------------------------------------------

def leaky_relu(x):
    return np.sum(np.where(x > 0, x, 0.1 * x))


def relu_mix(x):
    return np.sum(np.maximum(x, 0.0) ** 2 + np.minimum(x, 0.0))


def clipped(x):
    return np.sum(np.clip(x, -0.5, 0.5) ** 2 + x.clip(min=-1.0))


def log_add_exp(x):
    return np.logaddexp(x[0], x[4]) + np.arctan2(x[2], x[3]) + np.sum(np.logaddexp(x, 0.0))


# -- indexing ----------------------------------------------------------------------------------------

def finite_differences(x):
    return np.sum((x[1:] - x[:-1]) ** 2) + np.sum(np.diff(x, 2) ** 2)


def strided(x):
    return np.sum(x[::2][:2] * x[1::2]) + x[-1] * x[0] + x[-2]


def outer_slices(x):
    return np.sum(x[1:, None] * x[None, :-1])


def gathers(a):
    idx = np.array([0, 2, 2])
    return np.sum(a[idx, 1:] ** 2) + np.sum(a[[0, 2], [1, 0]]) + np.sum(a[:, [1, 0]] ** 3) + np.sum(a[..., -1])


def masks(x):
    keep = np.array([True, False, True, True, False])
    return np.sum(x[keep] ** 2) + np.sum(x[x.shape[0] // 2:])


def take_rows(a):
    picked = np.take_along_axis(a, np.argmax(a, axis=1)[:, None], axis=1)
    return np.sum(picked ** 2) + np.sum(np.take(a, [0, -1], axis=1)) + a.take(5)


# -- structure ---------------------------------------------------------------------------------------

def stacking(x):
    powers = np.stack([x, x ** 2, x ** 3])
    return np.sum(powers * np.arange(3.0)[:, None]) + np.sum(np.concatenate([x, 2 * x]) ** 2)


def reshaping(a):
    b = a.reshape(2, 6).T
    return np.sum(b * np.arange(12.0).reshape(6, 2)) + np.sum(np.moveaxis(a.reshape(2, 2, 3), 0, -1) ** 2)


def tiles_and_pads(x):
    t = np.sum(np.tile(x, 2) * np.arange(10.0)) + np.sum(np.repeat(x, 2) ** 2)
    return t + np.flip(x)[0] * np.roll(x, 1)[0] + np.sum(np.pad(x, 2) ** 2) + np.sum(np.pad(x, (1, 2), "reflect") ** 3)


def split_parts(x):
    return sum(np.sum(p ** 2) * (i + 1) for i, p in enumerate(np.array_split(x, 3)))


def broadcasting(a, b):
    return np.sum((a[:, None, :] - b[None, :, :]) ** 2 * np.arange(1.0, 4.0))


def rbf_kernel(a):
    sq = np.sum((a[:, None, :] - a[None, :, :]) ** 2, axis=-1)
    return np.sum(np.exp(-sq))


# -- linear algebra ----------------------------------------------------------------------------------

def quadratic_form(x, m):
    return x @ m @ x


def dots(x):
    return np.dot(x, x) + np.outer(x, x).sum() + x @ x + np.inner(x, 2 * x)


def traces(a):
    return np.trace(a @ a.T) + np.diag(a).sum() + np.sum(np.diag(a[0]) @ a.T) + np.trace(a, offset=1)


def triangles(m):
    return np.sum(np.triu(m) * 2 + np.tril(m, -1) * 3)


def einsums(a, b):
    return (np.einsum("ij,jk->ik", a, b).sum() + np.einsum("ii->", b @ a.T @ a)
            + np.sum(np.einsum("bi,bi->b", a, a) ** 2) + np.einsum("ij,ij", a, a))


def norms(a):
    return (np.linalg.norm(a) + np.linalg.norm(a, axis=1).sum() + np.linalg.norm(a[0], ord=1)
            + np.linalg.norm(a, "fro") + np.linalg.norm(a[1], ord=np.inf) + np.linalg.norm(a[2], 3))


def batched_matmul(a):
    return np.sum(np.broadcast_to(a, (2, 4, 3)) @ np.ones((2, 3, 2)) * np.arange(2.0))


def tensordot_sum(a, b):
    return np.sum(np.tensordot(a, b, axes=([1], [0])) ** 2) + np.vdot(a[0], b)


def torques(r, f):
    tau = np.cross(r, f)
    return np.sum(np.append(tau, np.real(r[:, 0])) ** 2) + round(np.sum(r)) * 0.0


# -- models ------------------------------------------------------------------------------------------

def logistic_loss(w, x, y):
    margins = y * (x @ w)
    return np.mean(np.log1p(np.exp(-margins)))


def softmax_cross_entropy(logits, labels):
    return np.mean(logsumexp(logits) - np.sum(labels * logits, axis=-1))


def two_layer_mlp(w1, b1, w2, x, y):
    h = dense(x, w1, b1)
    return 0.5 * np.mean((h @ w2 - y) ** 2)


def attention(q, k):
    scores = q @ k.T / np.sqrt(q.shape[-1])
    return np.sum(softmax(scores) @ k)


def standardized(x):
    mean, std = stats(x)
    z = (x - mean) / std
    return np.sum(z ** 3)


def classifier(w, x):
    return np.sum(sigmoid(x @ w) ** 2)


# -- Python control flow, loops and scalars ------------------------------------------------------

def unrolled_iteration(x, steps):
    for _ in range(steps):
        x = 0.5 * x + np.sin(x)
    return np.sum(x)


def loop_over_rows(a):
    total = 0.0
    for row in a:
        total = total + np.dot(row, row)
    return total


def shape_branches(a):
    if a.ndim == 2 and a.shape[0] > 2:
        a = a[:2]
    n = len(a)
    return np.sum(a) / n + a.size


def scaled(x, alpha=0.5, power=2):
    return alpha * np.sum(x ** power)


def python_float(x):
    return x ** 3 + 2.0 * x


def with_inplace_updates(x):
    y = x.copy()
    y *= 2
    y += x
    out = np.zeros_like(x)
    out[0] = x[0] ** 2
    out[1:] = y[1:] * 2
    out[out > 1.0] = 1.0
    return np.sum(out ** 2)


def mixed_precision(x):
    return np.sum(x.astype(np.float64) ** 2) + float(x.shape[0])


def float32_model(w, x):
    z = x @ w * 0.5 + 1
    return np.mean(np.tanh(z) ** 2) + 1e-3 * np.sum(w * w)
