"""Op cases: matrix functions and decompositions (inverse, determinants, Cholesky, solves, eigh,
SVD, QR) and the band/diagonal ops. References are NumPy's ``np.linalg``; inputs are well
conditioned (and symmetric positive definite where the op needs it). Decompositions are checked
through quantities that do not depend on sign or ordering conventions where those differ."""
import numpy as np

import s2sgrad as tf
from optable import OpCase

R = np.random.default_rng(21)
A = R.standard_normal((3, 3)) + 3 * np.eye(3)
AB = R.standard_normal((2, 3, 3)) + 3 * np.eye(3)
B = R.standard_normal((3, 2))
TALL = R.standard_normal((4, 3))
_S = R.standard_normal((3, 3))
SPD = _S @ _S.T + 3 * np.eye(3)
LOWER = np.tril(A)
SYM = (_S + _S.T) / 2 + np.diag([0.0, 2.0, 5.0])   # distinct eigenvalues


def _sym(x):
    """A symmetric input built from ``x``, so gradients see the symmetric perturbations ops assume."""
    return (x + tf.linalg.matrix_transpose(x)) / 2


def _spd(x):
    return tf.matmul(x, x, transpose_b=True) + 3 * tf.eye(3, dtype=x.dtype)


def _np_spd(x):
    return x @ x.T + 3 * np.eye(3)


def _eig_fn(x):
    e, v = tf.linalg.eigh(_sym(x))
    return e * 2.0 + tf.reduce_sum(tf.abs(v[:, 0]) * tf.abs(v[:, 1]))   # |v|: sign-free


def _eig_ref(x):
    e, v = np.linalg.eigh((x + x.T) / 2)
    return e * 2.0 + np.sum(np.abs(v[:, 0]) * np.abs(v[:, 1]))


def _qr_fn(x):
    q, r = tf.linalg.qr(x)
    signs = tf.sign(tf.linalg.diag_part(r))   # fix the factors' signs: r's diagonal positive
    return tf.matmul(q * signs, tf.linalg.diag(signs) @ r) + q * signs


def _qr_ref(x):
    q, r = np.linalg.qr(x)
    s = np.sign(np.diag(r))
    return (q * s) @ (np.diag(s) @ r) + q * s


def _svd_fn(x, full_matrices=False):
    s, u, v = tf.linalg.svd(x, full_matrices=full_matrices)
    return tf.concat([u * u, v * v, tf.expand_dims(s, 0)], 0)   # squares: sign-free


def _svd_ref(x, full_matrices=False):
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    return np.concatenate([u * u, vh.T * vh.T, s[None, :]], 0)


def _matrix_case(*args, **kwargs):
    """A case whose op needs the matrix ranks and sizes statically (its unknown-shape variant keeps them)."""
    return OpCase(*args, known_rank=True, **kwargs)


CASES = [
    _matrix_case("matrix_inverse", tf.linalg.inv, [A], np.linalg.inv, order2=True),
    _matrix_case("matrix_inverse_adjoint", lambda x: tf.matrix_inverse(x, adjoint=True), [A],
           lambda x: np.linalg.inv(x.T)),
    _matrix_case("matrix_inverse_batched", tf.linalg.inv, [AB], np.linalg.inv),
    _matrix_case("matrix_determinant", tf.linalg.det, [A], np.linalg.det, order2=True),
    _matrix_case("matrix_determinant_batched", tf.matrix_determinant, [AB], np.linalg.det),
    _matrix_case("log_matrix_determinant", lambda x: tf.linalg.slogdet(x)[1], [A],
                 lambda x: np.linalg.slogdet(x)[1],
           order2=True),
    _matrix_case("log_matrix_determinant_sign", lambda x: tf.linalg.slogdet(x)[0], [-A],
                 lambda x: np.linalg.slogdet(x)[0],
           grad=False),
    _matrix_case("logdet", lambda x: tf.linalg.logdet(_spd(x)), [A], lambda x: np.linalg.slogdet(_np_spd(x))[1]),
    _matrix_case("cholesky", lambda x: tf.cholesky(_spd(x)), [A], lambda x: np.linalg.cholesky(_np_spd(x)),
                 order2=True),
    _matrix_case("matrix_solve", tf.linalg.solve, [A, B], np.linalg.solve, order2=True),
    _matrix_case("matrix_solve_adjoint", lambda a, b: tf.matrix_solve(a, b, adjoint=True), [A, B],
           lambda a, b: np.linalg.solve(a.T, b)),
    _matrix_case("matrix_triangular_solve", tf.linalg.triangular_solve, [A, B],
           lambda a, b: np.linalg.solve(np.tril(a), b), order2=True),
    _matrix_case("matrix_triangular_solve_upper_adjoint",
           lambda a, b: tf.matrix_triangular_solve(a, b, lower=False, adjoint=True), [A, B],
           lambda a, b: np.linalg.solve(np.triu(a).T, b)),
    _matrix_case("self_adjoint_eig", _eig_fn, [SYM], _eig_ref),
    _matrix_case("self_adjoint_eigvals", lambda x: tf.self_adjoint_eigvals(_sym(x)), [SYM],
           lambda x: np.linalg.eigvalsh((x + x.T) / 2), order2=True),
    _matrix_case("svd_values", lambda x: tf.svd(x, compute_uv=False), [TALL],
                 lambda x: np.linalg.svd(x, compute_uv=False), order2=True),
    _matrix_case("svd_values_full", lambda x: tf.linalg.svd(x, full_matrices=True)[0], [TALL.T.copy()],
           lambda x: np.linalg.svd(x, compute_uv=False)),
    _matrix_case("svd_vectors", _svd_fn, [TALL], _svd_ref, order2=True),
    _matrix_case("svd_vectors_wide", lambda x: tf.transpose(_svd_fn(x)), [TALL.T.copy()],
                 lambda x: _svd_ref(x).T),
    _matrix_case("svd_vectors_full", lambda x: _svd_fn(x, True), [A], lambda x: _svd_ref(x, True)),
    _matrix_case("qr", _qr_fn, [TALL], _qr_ref),
    _matrix_case("qr_wide", lambda x: tf.concat(tf.linalg.qr(x), 1), [TALL.T.copy()],
                 lambda x: np.concatenate(np.linalg.qr(x), 1)),
    _matrix_case("matrix_diag", tf.linalg.diag, [B.T.copy()], lambda v: np.stack([np.diag(r) for r in v]), order2=True),
    _matrix_case("matrix_diag_part", tf.linalg.diag_part, [TALL], lambda x: np.diagonal(x), order2=True),
    _matrix_case("matrix_set_diag", tf.linalg.set_diag, [A, B[:, 0].copy()],
                 lambda x, d: x - np.diag(np.diag(x)) + np.diag(d), order2=True),
    _matrix_case("matrix_set_diag_wide", tf.linalg.set_diag, [TALL.T.copy(), B[:, 0].copy()],
                 lambda x, d: x - np.eye(3, 4) * x + np.eye(3, 4) * np.concatenate([d, [0.0]])[None, :]),
    _matrix_case("matrix_band_part", lambda x: tf.linalg.band_part(x, 1, 0), [TALL],
           lambda x: np.tril(x) - np.tril(x, -2), order2=True),
    _matrix_case("matrix_band_part_upper", lambda x: tf.matrix_band_part(x, 0, -1), [AB], np.triu),
    _matrix_case("trace", tf.linalg.trace, [AB], lambda x: np.trace(x, axis1=-2, axis2=-1), order2=True),
]
