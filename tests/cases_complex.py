"""Op cases: complex numbers. Each gradient case builds ``z = tf.complex(x, y)`` from real
placeholders and returns a real function of ``op(z)`` (``1.3 real + 0.7 imag``), so the
finite-difference check perturbs the real and the imaginary parts separately; what the rules
pass back for complex tensors is TF's ``dL/dx + i dL/dy`` (tests/test_decorator_complex.py
compares it with TensorFlow's recorded values)."""
import numpy as np

import s2sgrad as tf
from optable import OpCase

R = np.random.default_rng(7)
X = R.uniform(0.3, 1.2, (3, 4))          # real parts (away from the branch cut of log and sqrt)
Y = R.uniform(-0.9, 0.9, (3, 4))         # imaginary parts
Z = X + 1j * Y
XB, YB = R.uniform(0.4, 1.1, (4, 2)), R.uniform(-0.8, 0.8, (4, 2))  # a second operand (matmul)
ROW = R.uniform(0.5, 1.5, (4,))          # a real operand that broadcasts
Z64 = Z.astype(np.complex64)


def _parts(w):
    return tf.real(w) * 1.3 + tf.imag(w) * 0.7


def _np_parts(w):
    return np.real(w) * 1.3 + np.imag(w) * 0.7


def _case(name, build, ref, inputs, **kw):
    return OpCase(name, build, inputs, ref, **kw)


def _of_z(name, op, ref, inputs=(X, Y), **kw):
    """``op`` applied to ``tf.complex`` of the first two inputs, seen through ``_parts``."""
    def build(x, y, *rest):
        return _parts(op(tf.complex(x, y), *rest))

    def reference(x, y, *rest):
        return _np_parts(ref(x + 1j * y, *rest))
    return _case(f"complex_{name}", build, reference, list(inputs), **kw)


def _pair(name, op, ref, **kw):
    """A binary op on two complex operands, each built from its parts."""
    def build(x, y, u, v):
        return _parts(op(tf.complex(x, y), tf.complex(u, v)))

    def reference(x, y, u, v):
        return _np_parts(ref(x + 1j * y, u + 1j * v))
    return _case(f"complex_{name}", build, reference, [X, Y, X[::-1] * 0.8, Y[::-1]], **kw)


CASES = [
    _case("complex_parts_roundtrip", lambda x, y: tf.real(tf.complex(x, y)) * tf.imag(tf.complex(x, y)),
           lambda x, y: x * y, [X, Y], order2=True),
    _case("complex_broadcast_parts", lambda x, y: tf.abs(tf.complex(x, y)), lambda x, y: np.abs(x + 1j * y),
           [X, ROW], order2=True),
    _case("complex_float32_parts", tf.complex, lambda x, y: (x + 1j * y).astype(np.complex64),
           [X.astype(np.float32), Y.astype(np.float32)], grad=False, rtol=1e-6),
    _case("complex_real_of_complex_input", tf.real, np.real, [Z], grad=False),
    _case("complex_imag_of_complex_input", tf.math.imag, np.imag, [Z64], grad=False),
    _case("complex_conj_of_complex_input", tf.conj, np.conj, [Z], grad=False),
    _case("complex_angle_of_complex_input", tf.angle, np.angle, [Z], grad=False),
    _case("complex_abs_of_complex_input", tf.abs, np.abs, [Z64], grad=False, rtol=1e-6),
    _case("complex_real_of_real_is_itself", tf.real, np.real, [X]),
    _case("complex_imag_of_real_is_zeros", lambda x: tf.imag(x) + x, lambda x: x, [X]),
    _case("complex_angle_of_real", tf.math.angle, np.angle, [Y]),
    _of_z("conj", tf.conj, np.conj, order2=True),
    _of_z("abs", lambda z: tf.cast(tf.abs(z), tf.complex128), np.abs, order2=True),
    _of_z("angle", lambda z: tf.cast(tf.angle(z), tf.complex128), np.angle, order2=True),
    _of_z("exp", tf.exp, np.exp, order2=True),
    _of_z("log", tf.log, np.log, order2=True),
    _of_z("sin", tf.sin, np.sin),
    _of_z("cos", tf.cos, np.cos),
    _of_z("tan", tf.tan, np.tan),
    _of_z("tanh", tf.tanh, np.tanh),
    _of_z("sinh", tf.sinh, np.sinh),
    _of_z("cosh", tf.cosh, np.cosh),
    _of_z("sqrt", tf.sqrt, np.sqrt),
    _of_z("rsqrt", tf.rsqrt, lambda z: 1 / np.sqrt(z)),
    _of_z("square", tf.square, np.square, order2=True),
    _of_z("reciprocal", tf.reciprocal, np.reciprocal),
    _of_z("sigmoid", tf.sigmoid, lambda z: 1 / (1 + np.exp(-z))),
    _of_z("expm1", tf.math.expm1, np.expm1),
    _of_z("log1p", tf.math.log1p, np.log1p),
    _of_z("neg", tf.negative, np.negative),
    _of_z("pow_complex_exponent", lambda z: tf.pow(z, tf.constant(1.5 - 0.5j, tf.complex128)),
          lambda z: z ** (1.5 - 0.5j)),
    _of_z("sum_axis", lambda z: tf.reduce_sum(z, axis=1), lambda z: np.sum(z, axis=1)),
    _of_z("mean", tf.reduce_mean, np.mean),
    _of_z("prod_axis", lambda z: tf.reduce_prod(z, axis=0), lambda z: np.prod(z, axis=0)),
    _of_z("cumsum", lambda z: tf.cumsum(z, axis=1), lambda z: np.cumsum(z, axis=1)),
    _of_z("cumprod", lambda z: tf.cumprod(z, axis=1), lambda z: np.cumprod(z, axis=1)),
    _of_z("reshape_transpose", lambda z: tf.transpose(tf.reshape(z, [2, 6])), lambda z: z.reshape(2, 6).T),
    _of_z("concat_slice", lambda z: tf.concat([z[:, 1:], z[:1, :3] * 2.0], axis=0),
          lambda z: np.concatenate([z[:, 1:], z[:1, :3] * 2.0], axis=0)),
    _of_z("gather", lambda z: tf.gather(z, [2, 0, 2]), lambda z: z[[2, 0, 2]]),
    _of_z("times_real_constant", lambda z: z * tf.cast(tf.constant(ROW), tf.complex128), lambda z: z * ROW),
    _pair("add", tf.add, np.add),
    _pair("sub", tf.subtract, np.subtract),
    _pair("mul", tf.multiply, np.multiply, order2=True),
    _pair("div", tf.divide, np.divide, order2=True),
    _pair("pow", tf.pow, np.power),
    _case("complex_matmul", lambda x, y, u, v: _parts(tf.matmul(tf.complex(x, y), tf.complex(u, v))),
           lambda x, y, u, v: _np_parts((x + 1j * y) @ (u + 1j * v)), [X, Y, XB, YB], order2=True),
    _case("complex_matmul_transposed", lambda x, y, u, v: _parts(tf.matmul(tf.complex(x, y), tf.complex(u, v),
                                                                            transpose_b=True)),
           lambda x, y, u, v: _np_parts((x + 1j * y) @ (u + 1j * v).T), [X, Y, X[::-1], Y], order2=True),
    _case("complex_einsum", lambda x, y, u, v: _parts(tf.einsum("ij,jk->ik", tf.complex(x, y), tf.complex(u, v))),
           lambda x, y, u, v: _np_parts((x + 1j * y) @ (u + 1j * v)), [X, Y, XB, YB]),
]

# -- linear algebra: complex matrices built from their parts (TF's adjoint conventions) ---------------------------
MX, MY = R.uniform(-1.0, 1.0, (3, 3)) + 3 * np.eye(3), R.uniform(-1.0, 1.0, (3, 3))   # well conditioned
BX, BY = R.uniform(-1.0, 1.0, (3, 2)), R.uniform(-1.0, 1.0, (3, 2))
TX, TY = R.uniform(-1.0, 1.0, (4, 3)), R.uniform(-1.0, 1.0, (4, 3))                    # tall
MATRIX, RHS, TALL_PARTS = [MX, MY], [MX, MY, BX, BY], [TX, TY]


def _hpd(z):
    """A Hermitian positive definite matrix made from ``z`` (so every perturbation of z keeps it one)."""
    return tf.matmul(z, z, adjoint_b=True) + 3 * tf.eye(3, dtype=z.dtype)


def _np_hpd(z):
    return z @ z.conj().T + 3 * np.eye(3)


def _herm(z):
    """A Hermitian matrix with well separated eigenvalues."""
    return (z + tf.linalg.adjoint(z)) / 2 + tf.cast(tf.linalg.diag([0.0, 3.0, 6.0]), z.dtype)


def _np_herm(z):
    return (z + z.conj().T) / 2 + np.diag([0.0, 3.0, 6.0])


def _eigh_fn(z):
    e, v = tf.linalg.eigh(_herm(z))
    return tf.concat([e * 2.0, tf.cast(tf.abs(v[:, 0]) * tf.abs(v[:, 1]), z.dtype)], 0)   # |v|: phase-free


def _eigh_ref(z):
    e, v = np.linalg.eigh(_np_herm(z))
    return np.concatenate([e * 2.0, np.abs(v[:, 0]) * np.abs(v[:, 1])]).astype(z.dtype)


def _qr_fn(z):
    q, r = tf.linalg.qr(z)
    return tf.concat([q, tf.linalg.adjoint(r)], 0)


def _qr_ref(z):
    q, r = np.linalg.qr(z)
    return np.concatenate([q, r.conj().T], 0)


def _solve(name, op, ref, **kw):
    """``op(matrix, rhs)`` of two complex operands, the rhs 3 x 2."""
    def build(x, y, u, v):
        return _parts(op(tf.complex(x, y), tf.complex(u, v)))

    def reference(x, y, u, v):
        return _np_parts(ref(x + 1j * y, u + 1j * v))
    return _case(f"complex_{name}", build, reference, RHS, known_rank=True, **kw)


def _svd_fn(z):
    s, u, v = tf.linalg.svd(z)
    moduli = tf.concat([tf.abs(u) ** 2, tf.abs(v) ** 2, tf.expand_dims(s, 0)], 0)   # phase-free
    return tf.cast(moduli, z.dtype)


def _svd_ref(z):
    u, s, vh = np.linalg.svd(z, full_matrices=False)
    return np.concatenate([np.abs(u) ** 2, np.abs(vh.T) ** 2, s[None, :]], 0).astype(z.dtype)


def _matrix(name, op, ref, inputs=MATRIX, **kw):
    return _of_z(name, op, ref, inputs, known_rank=True, **kw)


CASES += [
    _matrix("matrix_inverse", tf.linalg.inv, np.linalg.inv, order2=True),
    _matrix("matrix_inverse_adjoint", lambda z: tf.linalg.inv(z, adjoint=True), lambda z: np.linalg.inv(z.conj().T)),
    _matrix("matrix_determinant", tf.linalg.det, np.linalg.det, order2=True),
    _matrix("slogdet_log", lambda z: tf.linalg.slogdet(z)[1], lambda z: np.linalg.slogdet(z)[1].astype(z.dtype)),
    _matrix("slogdet_sign", lambda z: tf.linalg.slogdet(z)[0], lambda z: np.linalg.slogdet(z)[0]),
    _matrix("logdet", lambda z: tf.cast(tf.linalg.logdet(_hpd(z)), z.dtype),
            lambda z: np.linalg.slogdet(_np_hpd(z))[1]),
    _matrix("cholesky", lambda z: tf.cholesky(_hpd(z)), lambda z: np.linalg.cholesky(_np_hpd(z)), order2=True),
    _matrix("self_adjoint_eig", _eigh_fn, _eigh_ref),
    _matrix("self_adjoint_eigvals", lambda z: tf.self_adjoint_eigvals(_herm(z)),
            lambda z: np.linalg.eigvalsh(_np_herm(z)).astype(z.dtype)),
    _matrix("svd_values", lambda z: tf.cast(tf.svd(z, compute_uv=False), z.dtype),
            lambda z: np.linalg.svd(z, compute_uv=False), inputs=TALL_PARTS),
    _matrix("svd_vectors", _svd_fn, _svd_ref, inputs=TALL_PARTS),
    _matrix("svd_vectors_square", _svd_fn, _svd_ref),
    _matrix("qr", _qr_fn, _qr_ref, inputs=TALL_PARTS),
    _matrix("qr_square", _qr_fn, _qr_ref),
    _matrix("qr_wide", lambda z: tf.concat(tf.linalg.qr(z), 1), lambda z: np.concatenate(np.linalg.qr(z), 1),
            inputs=[TX.T.copy(), TY.T.copy()]),
    _matrix("adjoint", tf.linalg.adjoint, lambda z: z.conj().T, order2=True),
    _matrix("matrix_transpose_conjugate", lambda z: tf.matrix_transpose(z, conjugate=True), lambda z: z.conj().T),
    _matrix("transpose_conjugate", lambda z: tf.transpose(z, conjugate=True), lambda z: z.conj().T),
    _matrix("trace", lambda z: tf.reshape(tf.linalg.trace(z), [1]), lambda z: np.trace(z)[None]),
    _matrix("band_part", lambda z: tf.linalg.band_part(z, 1, 0), lambda z: np.tril(z) - np.tril(z, -2)),
    _matrix("diag_part", tf.linalg.diag_part, np.diagonal),
    _solve("matrix_solve", tf.linalg.solve, np.linalg.solve, order2=True),
    _solve("matrix_solve_adjoint", lambda a, b: tf.matrix_solve(a, b, adjoint=True),
           lambda a, b: np.linalg.solve(a.conj().T, b)),
    _solve("triangular_solve", tf.linalg.triangular_solve, lambda a, b: np.linalg.solve(np.tril(a), b)),
    _solve("triangular_solve_upper_adjoint", lambda a, b: tf.linalg.triangular_solve(a, b, lower=False, adjoint=True),
           lambda a, b: np.linalg.solve(np.triu(a).conj().T, b)),
    _solve("matmul_adjoint_a", lambda a, b: tf.matmul(a, b, adjoint_a=True), lambda a, b: a.conj().T @ b, order2=True),
    _solve("matmul_adjoints", lambda a, b: tf.matmul(b, a, adjoint_a=True, adjoint_b=True),
           lambda a, b: b.conj().T @ a.conj().T, order2=True),
]
