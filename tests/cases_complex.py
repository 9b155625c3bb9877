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
