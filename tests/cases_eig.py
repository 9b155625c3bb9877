"""Op cases: ``RealEig`` (``np.linalg.eig`` of real matrices with real eigenvalues). Inputs are
non-symmetric with well-separated eigenvalues; eigenvectors enter through sign-free quantities."""
import numpy as np

import s2sgrad as tf
from optable import OpCase
from s2sgrad.ops.eig_ops import real_eig

R = np.random.default_rng(23)
_S = R.standard_normal((3, 3)) + 2 * np.eye(3)
NONSYMMETRIC = _S @ np.diag([1.0, 2.5, 4.0]) @ np.linalg.inv(_S)
BATCH = np.stack([NONSYMMETRIC, NONSYMMETRIC.T + 0.1 * np.eye(3)])
WEIGHTS = np.array([0.7, 1.3, 0.4])


def _values(x):
    return real_eig(x)[0] * 1.5


def _sign_free(x):
    w, v = real_eig(x)
    return tf.reduce_sum(w * WEIGHTS, axis=-1, keepdims=True) + tf.reduce_sum(tf.square(v) * WEIGHTS, axis=-1)


def _sign_free_ref(x):
    w, v = np.linalg.eig(x)
    return np.sum(w.real * WEIGHTS, axis=-1)[..., None] + np.sum(np.square(v.real) * WEIGHTS, axis=-1)


CASES = [
    OpCase("real_eig_values", _values, [NONSYMMETRIC], lambda x: np.linalg.eig(x)[0].real * 1.5, order2=True,
           rtol=1e-6, atol=1e-7),
    OpCase("real_eig_vectors", _sign_free, [NONSYMMETRIC], _sign_free_ref, order2=True, rtol=1e-6, atol=1e-7),
    OpCase("real_eig_batch", _sign_free, [BATCH], _sign_free_ref, rtol=1e-6, atol=1e-7),
]
