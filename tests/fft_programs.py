"""Graph programs of the Fourier transforms, written against TF's API, run by TensorFlow (to record,
``tests/data/fft_tf/record.py``) and by s2sgrad (``tests/test_fft_graph.py``). Each maps one input,
``X`` (real) or ``Z`` (complex), to a real loss seeing both parts of the transform, nonlinearly."""
import numpy as np

R = np.random.default_rng(1616)
X = R.uniform(-1.0, 1.0, (2, 3, 6))
Z = R.uniform(-1.0, 1.0, (2, 3, 4)) + 1j * R.uniform(-1.0, 1.0, (2, 3, 4))


def _weights(shape):
    return np.cos(np.arange(int(np.prod(shape))).reshape(shape) * 0.7) + 1.5


def loss(tf, y):
    """``sum(w * re) + sum(w' * im) + 0.1 sum(|y|^2)`` (the real terms only, for a real ``y``)."""
    w = tf.constant(_weights(y.shape.as_list()))
    if y.dtype.is_complex:
        parts = tf.real(y) * w + tf.imag(y) * (2.0 - w)
        return tf.reduce_sum(parts) + 0.1 * tf.reduce_sum(tf.square(tf.abs(y)))
    return tf.reduce_sum(y * w) + 0.1 * tf.reduce_sum(tf.square(y))


# name -> (which input, the transform)
PROGRAMS = {
    "fft": ("Z", lambda tf, z: tf.signal.fft(z)),
    "ifft": ("Z", lambda tf, z: tf.ifft(z)),
    "fft2d": ("Z", lambda tf, z: tf.spectral.fft2d(z)),
    "ifft2d": ("Z", lambda tf, z: tf.signal.ifft2d(z)),
    "fft3d": ("Z", lambda tf, z: tf.fft3d(z)),
    "ifft3d": ("Z", lambda tf, z: tf.spectral.ifft3d(z)),
    "rfft": ("X", lambda tf, x: tf.signal.rfft(x)),
    "rfft_pad_odd": ("X", lambda tf, x: tf.signal.rfft(x, fft_length=[9])),
    "rfft_crop": ("X", lambda tf, x: tf.spectral.rfft(x, fft_length=[4])),
    "irfft": ("Z", lambda tf, z: tf.signal.irfft(z)),
    "irfft_odd": ("Z", lambda tf, z: tf.signal.irfft(z, fft_length=[7])),
    "irfft_pad": ("Z", lambda tf, z: tf.signal.irfft(z, fft_length=[10])),
    "irfft_crop": ("Z", lambda tf, z: tf.spectral.irfft(z, fft_length=[4])),
    "rfft2d": ("X", lambda tf, x: tf.signal.rfft2d(x, fft_length=[5, 8])),
    "irfft2d": ("Z", lambda tf, z: tf.signal.irfft2d(z, fft_length=[4, 6])),
    "irfft2d_crop": ("Z", lambda tf, z: tf.signal.irfft2d(z, fft_length=[2, 5])),
    "rfft3d": ("X", lambda tf, x: tf.spectral.rfft3d(x)),
    "irfft3d": ("Z", lambda tf, z: tf.signal.irfft3d(z, fft_length=[2, 2, 6])),
}
