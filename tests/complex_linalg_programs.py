"""Real losses of complex matrices, written once for TensorFlow 1.x's API: run by
tests/data/complex_linalg_tf/record.py under TensorFlow (``tf.compat.v1``) and by
tests/test_complex_linalg_graph.py under s2sgrad. ``Z`` (3 x 3) and ``W`` (3 x 2) are the fed values.

``TF_DIFFERS`` names the programs whose TensorFlow 2.21 gradient is not the derivative (finite
differences disagree with it), and says how."""
import numpy as np

_R = np.random.default_rng(5)
Z = _R.uniform(-1.0, 1.0, (3, 3)) + 3 * np.eye(3) + 1j * _R.uniform(-1.0, 1.0, (3, 3))
W = _R.uniform(-1.0, 1.0, (3, 2)) + 1j * _R.uniform(-1.0, 1.0, (3, 2))


def _parts(tf, t):
    return tf.reduce_sum(tf.real(t) * 1.3 + tf.imag(t) * 0.7)


def _hpd(tf, z):
    return tf.matmul(z, z, adjoint_b=True) + 3 * tf.eye(3, dtype=z.dtype)


def _herm(tf, z):
    return (z + tf.linalg.adjoint(z)) / 2 + tf.cast(tf.linalg.diag(tf.constant([0.0, 3.0, 6.0], tf.float64)), z.dtype)


def inverse(tf, z, w):
    return _parts(tf, tf.linalg.inv(z)) + _parts(tf, tf.matmul(tf.linalg.inv(z, adjoint=True), w))


def solve(tf, z, w):
    return _parts(tf, tf.linalg.solve(z, w)) + _parts(tf, tf.matrix_solve(z, w, adjoint=True) * 0.5)


def triangular_solve(tf, z, w):
    lower = tf.linalg.triangular_solve(z, w)
    upper = tf.linalg.triangular_solve(z, w, lower=False, adjoint=True)
    return _parts(tf, lower) + _parts(tf, upper * 2.0)


def cholesky(tf, z, w):
    return _parts(tf, tf.cholesky(_hpd(tf, z))) + tf.linalg.logdet(_hpd(tf, z))


def log_abs_determinant(tf, z, w):
    return tf.real(tf.linalg.slogdet(z)[1]) * 1.5


def eigh(tf, z, w):
    e, v = tf.linalg.eigh(_herm(tf, z))
    return _parts(tf, e) + tf.reduce_sum(tf.abs(v[:, 0]) * tf.abs(v[:, 2]))     # |v|: phase-free


def singular_values(tf, z, w):
    return tf.reduce_sum(tf.svd(w, compute_uv=False) * [1.0, 2.0]) + tf.reduce_sum(tf.linalg.svd(z)[0])


def qr(tf, z, w):
    q, r = tf.linalg.qr(w)
    q2, r2 = tf.qr(z)
    q3, r3 = tf.qr(tf.transpose(w))     # wide
    return _parts(tf, q) + _parts(tf, r * 0.5) + _parts(tf, q2 * 2.0) + _parts(tf, r2) + _parts(tf, q3 - r3[:, 1:])


def adjoints(tf, z, w):
    products = tf.matmul(w, z, adjoint_a=True) + tf.matmul(w, z, adjoint_a=True, adjoint_b=True)
    flips = tf.linalg.adjoint(z) * 2.0 + tf.matrix_transpose(z, conjugate=True) + tf.transpose(z, conjugate=True)
    return _parts(tf, products) + _parts(tf, tf.matmul(flips, w)) + _parts(tf, tf.linalg.trace(z))


def determinant(tf, z, w):
    return _parts(tf, tf.linalg.det(z))


def slogdet_sign(tf, z, w):
    return _parts(tf, tf.linalg.slogdet(z)[0])


PROGRAMS = {f.__name__: f for f in (inverse, solve, triangular_solve, cholesky, log_abs_determinant, eigh,
                                     singular_values, qr, adjoints, determinant, slogdet_sign)}

TF_DIFFERS = {
    "determinant": "TensorFlow multiplies by det where the derivative has conj(det): its gradient is ours * det / "
                   "conj(det)",
    "slogdet_sign": "TensorFlow ignores the sign's gradient (zeros); a complex sign's phase depends on the matrix",
}
