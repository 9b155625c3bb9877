"""Losses of the singular vectors ``s, u, v = tf.linalg.svd(x, ...)``, written once for TensorFlow 1.x's
API: run by tests/data/svd_vectors_tf/record.py under TensorFlow (``tf.compat.v1``) and by
tests/test_svd_vectors.py under s2sgrad. Each loss is unchanged when a singular pair changes sign
(or, for complex matrices, phase), so its gradient is the derivative whichever pair LAPACK returns.

``PROGRAMS`` maps a name to ``(x, full_matrices, loss(tf, s, u, v))``; ``x`` is the fed value."""
import numpy as np

_R = np.random.default_rng(16)


def _real(*shape):
    return _R.uniform(-1.0, 1.0, shape)


def _complex(*shape):
    return _R.uniform(-1.0, 1.0, shape) + 1j * _R.uniform(-1.0, 1.0, shape)


def _weights(*shape):
    return np.cos(np.arange(int(np.prod(shape)), dtype=np.float64)).reshape(shape) + 1.5


def squares(tf, s, u, v):
    """Weighted squares of both sets of vectors and a cube of the values."""
    uw = _weights(*u.shape.as_list()[-2:])
    vw = _weights(*v.shape.as_list()[-2:])[::-1].copy()
    return tf.reduce_sum(u * u * uw) + tf.reduce_sum(v * v * vw) + tf.reduce_sum(s * s * s)


def only_u(tf, s, u, v):
    return tf.reduce_sum(tf.abs(u) * _weights(*u.shape.as_list()[-2:]))


def only_v(tf, s, u, v):
    return tf.reduce_sum(tf.square(v) * _weights(*v.shape.as_list()[-2:]))


def rebuilt(tf, s, u, v):
    """``u diag(s) v^H`` rebuilt from its factors (x itself), through a nonlinearity."""
    k = s.shape.as_list()[-1]
    x = tf.matmul(u[..., :, :k] * tf.expand_dims(s, -2), v[..., :, :k], adjoint_b=True)
    return tf.reduce_sum(tf.sin(x) * _weights(*x.shape.as_list()[-2:]))


def outer(tf, s, u, v):
    """The projector ``u1 u1^H`` onto the leading left singular vector, and ``v1 v1^H``."""
    pu = tf.matmul(u[..., :, :1], u[..., :, :1], adjoint_b=True)
    pv = tf.matmul(v[..., :, :1], v[..., :, :1], adjoint_b=True)
    return tf.reduce_sum(pu * _weights(*pu.shape.as_list()[-2:])) + tf.reduce_sum(pv * pv)


def complex_moduli(tf, s, u, v):
    """Weighted ``|u|^2``, ``|v|^2`` and ``s``: real and unchanged by a phase per singular pair."""
    au, av = tf.abs(u), tf.abs(v)
    return (tf.reduce_sum(au * au * _weights(*u.shape.as_list()[-2:])) + tf.reduce_sum(av * av * 0.5)
            + tf.reduce_sum(s * s))


def complex_rebuilt(tf, s, u, v):
    k = s.shape.as_list()[-1]
    x = tf.matmul(u[..., :, :k] * tf.cast(tf.expand_dims(s, -2), u.dtype), v[..., :, :k], adjoint_b=True)
    return tf.reduce_sum(tf.real(x) * 1.3 + tf.imag(x) * 0.7 + tf.abs(x) ** 3)


PROGRAMS = {
    "square": (_real(3, 3), False, squares),
    "tall": (_real(4, 3), False, squares),
    "wide": (_real(3, 5), False, squares),
    "batch": (_real(2, 4, 3), False, squares),
    "batch_wide": (_real(2, 2, 3), False, outer),
    "full_square": (_real(3, 3), True, squares),
    "full_tall_by_one": (_real(4, 3), True, squares),
    "full_wide_by_one": (_real(3, 4), True, only_v),
    "only_u": (_real(4, 2), False, only_u),
    "only_v": (_real(2, 4), False, only_v),
    "rebuilt": (_real(3, 4), False, rebuilt),
    "outer": (_real(4, 4), False, outer),
    "complex_square": (_complex(3, 3), False, complex_moduli),
    "complex_tall": (_complex(4, 2), False, complex_moduli),
    "complex_wide": (_complex(2, 3), False, complex_moduli),
    "complex_batch": (_complex(2, 3, 3), True, complex_moduli),
    "complex_rebuilt": (_complex(3, 4), False, complex_rebuilt),
}
