"""Op cases: the Fourier transforms (FFT, IFFT, RFFT, IRFFT) through TF's functions and through
``fft_ops.transform`` (NumPy's axes, lengths and norms). Complex inputs are built as
``tf.complex(x, y)`` of real placeholders and results seen through ``1.3 real + 0.7 imag``, so the
finite-difference check perturbs both parts (TensorFlow's recorded gradients: tests/test_fft_graph.py)."""
import numpy as np

import s2sgrad as tf
from optable import OpCase
from s2sgrad.ops.fft_ops import transform

R = np.random.default_rng(16)
X = R.uniform(-1.0, 1.0, (3, 6))
Y = R.uniform(-1.0, 1.0, (3, 6))
X3 = R.uniform(-1.0, 1.0, (2, 3, 5))
Y3 = R.uniform(-1.0, 1.0, (2, 3, 5))


def _parts(w):
    return tf.real(w) * 1.3 + tf.imag(w) * 0.7 if w.dtype.is_complex else w


def _np_parts(w):
    return np.real(w) * 1.3 + np.imag(w) * 0.7 if np.iscomplexobj(w) else w


def _of_z(name, op, ref, inputs=(X, Y), **kw):
    """``op`` of ``tf.complex`` of the first two inputs, seen through ``_parts`` (squared too: second order)."""
    def build(x, y):
        return _parts(op(tf.complex(x, y))) + tf.square(tf.abs(op(tf.complex(x, y)))) * 0.1

    def reference(x, y):
        return _np_parts(ref(x + 1j * y)) + np.abs(ref(x + 1j * y)) ** 2 * 0.1
    return OpCase(f"fft_{name}", build, list(inputs), reference, **kw)


def _of_x(name, op, ref, inputs=(X,), **kw):
    def build(x):
        return _parts(op(x)) + tf.square(tf.abs(op(x))) * 0.1

    def reference(x):
        return _np_parts(ref(x)) + np.abs(ref(x)) ** 2 * 0.1
    return OpCase(f"fft_{name}", build, list(inputs), reference, **kw)


CASES = [
    _of_z("fft", tf.signal.fft, np.fft.fft, order2=True),
    _of_z("ifft", tf.ifft, np.fft.ifft, order2=True),
    _of_z("fft2d", tf.signal.fft2d, np.fft.fft2, inputs=(X3, Y3)),
    _of_z("ifft3d", tf.spectral.ifft3d, np.fft.ifftn, inputs=(X3, Y3)),
    _of_z("fft_axis_pad_ortho", lambda z: transform("fft", z, [0], [5], "ortho"),
          lambda z: np.fft.fft(z, 5, axis=0, norm="ortho"), order2=True),
    _of_z("ifftn_crop_forward", lambda z: transform("ifft", z, [0, 2], [1, 4], "forward"),
          lambda z: np.fft.ifftn(z, (1, 4), axes=(0, 2), norm="forward"), inputs=(X3, Y3)),
    _of_x("rfft", tf.signal.rfft, np.fft.rfft, order2=True),
    _of_x("rfft_pad_odd", lambda x: tf.signal.rfft(x, fft_length=[9]), lambda x: np.fft.rfft(x, 9), order2=True),
    _of_x("rfft_crop", lambda x: tf.spectral.rfft(x, fft_length=[4]), lambda x: np.fft.rfft(x, 4)),
    _of_x("rfft2d", lambda x: tf.signal.rfft2d(x, fft_length=[4, 5]), lambda x: np.fft.rfft2(x, (4, 5)),
          inputs=(X3,)),
    _of_x("rfft3d", tf.signal.rfft3d, np.fft.rfftn, inputs=(X3,)),
    _of_x("rfftn_axes_ortho", lambda x: transform("rfft", x, [2, 0], [6, 3], "ortho"),
          lambda x: np.fft.rfftn(x, (6, 3), axes=(2, 0), norm="ortho"), inputs=(X3,), order2=True),
    _of_z("irfft", tf.signal.irfft, np.fft.irfft, order2=True),
    _of_z("irfft_odd", lambda z: tf.signal.irfft(z, fft_length=[7]), lambda z: np.fft.irfft(z, 7)),
    _of_z("irfft_crop", lambda z: tf.spectral.irfft(z, fft_length=[4]), lambda z: np.fft.irfft(z, 4)),
    _of_z("irfft2d", lambda z: tf.signal.irfft2d(z, fft_length=[3, 9]), lambda z: np.fft.irfft2(z, (3, 9)),
          inputs=(X3, Y3)),
    _of_z("irfft3d", tf.signal.irfft3d, lambda z: np.fft.irfftn(z, axes=(0, 1, 2)), inputs=(X3, Y3)),
    _of_z("irfftn_axis0_forward", lambda z: transform("irfft", z, [1, 0], [2, 5], "forward"),
          lambda z: np.fft.irfftn(z, (2, 5), axes=(1, 0), norm="forward"), order2=True),
    OpCase("fft_single_precision", lambda x: tf.signal.irfft(tf.signal.rfft(x)), [X.astype(np.float32)],
           lambda x: np.fft.irfft(np.fft.rfft(x)), grad=False, rtol=1e-5, atol=1e-6),
]
