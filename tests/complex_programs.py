"""Real losses of complex tensors, written once for TensorFlow 1.x's API: run by
tests/data/complex_tf/record.py under TensorFlow (``tf.compat.v1``) and by
tests/test_decorator_complex.py under s2sgrad. ``Z`` and ``W`` are the fed values."""
import numpy as np

Z = np.array([1.0 + 2.0j, -0.5 + 0.3j, 0.7 - 1.1j])
W = np.array([[1.0 - 1.0j, 2.0 + 0.0j], [0.5j, 1.0 + 0.0j], [0.3 + 0.0j, -1.0 + 0.2j]])


def squared_modulus(tf, z, w):
    return tf.reduce_sum(tf.real(z * tf.conj(z))) + tf.reduce_sum(tf.imag(w))


def holomorphic_mix(tf, z, w):
    mixed = tf.real(tf.exp(z) * tf.log(z)) + tf.imag(tf.sin(z) / (z + 2.0)) + tf.abs(tf.sqrt(z))
    return tf.reduce_sum(mixed) + tf.reduce_sum(tf.real(tf.square(w) * tf.cos(w)))


def matmul_power(tf, z, w):
    zw = tf.matmul(tf.reshape(z, [1, 3]), w)
    return tf.reduce_sum(tf.abs(zw) ** 2) + tf.reduce_sum(tf.real(tf.pow(z, tf.constant(1.5 - 0.5j, tf.complex128))))


def angle_and_parts(tf, z, w):
    parts = tf.complex(tf.imag(z), tf.real(z) * 2.0)
    mixed = tf.angle(parts) * tf.abs(z) + tf.real(tf.tanh(parts) * tf.conj(z))
    return tf.reduce_sum(mixed) + tf.reduce_sum(tf.abs(tf.reduce_prod(w, axis=0)))


PROGRAMS = {f.__name__: f for f in (squared_modulus, holomorphic_mix, matmul_power, angle_and_parts)}
