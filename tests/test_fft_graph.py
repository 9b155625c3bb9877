"""Graph mode's Fourier transforms (``tf.signal``, ``tf.spectral``, ``tf.fft``...) against TensorFlow's
recorded values and gradients (tests/data/fft_tf), and every gradient against central differences of
the real and imaginary parts. Where TensorFlow's own gradient fails to build (a cropping ``fft_length``
of RFFT/IRFFT, RFFT3D/IRFFT3D, which have none), the recorded message says so and finite differences
alone check ours."""
import json
import os

import numpy as np
import pytest

import s2sgrad as tf
from fft_programs import PROGRAMS, X, Z, loss
from test_decorator_complex import finite_differences

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "data", "fft_tf", "gradients.json")) as _f:
    RECORDED = json.load(_f)["programs"]
REFERENCES = {"fft": np.fft.fft, "ifft": np.fft.ifft}


def _run(name, value):
    which, transform = PROGRAMS[name]
    with tf.Graph().as_default():
        x = tf.placeholder(tf.as_dtype(value.dtype), value.shape)
        y = transform(tf, x)
        out = loss(tf, y)
        (grad,) = tf.gradients(out, [x])
        with tf.Session() as sess:
            return sess.run([y, out, grad], {x: value})


def _input(name):
    return {"X": X, "Z": Z}[PROGRAMS[name][0]]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_values_and_gradients_equal_tensorflows(name):
    recorded = RECORDED[name]
    y, value, grad = _run(name, _input(name))
    assert list(y.shape) == recorded["shape"] and y.dtype.name == recorded["dtype"]
    np.testing.assert_allclose(value, recorded["loss"], rtol=1e-12)
    assert grad.dtype == _input(name).dtype and grad.shape == _input(name).shape
    if "grad" not in recorded:
        assert recorded["tensorflow_error"]
        pytest.skip(f"TensorFlow has no gradient here: {recorded['tensorflow_error'][:80]}")
    expected = np.array([complex(re, im) for re, im in recorded["grad"]]).reshape(grad.shape)
    np.testing.assert_allclose(grad, expected.real if grad.dtype.kind == "f" else expected, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_gradients_match_finite_differences(name):
    value = _input(name)
    grad = _run(name, value)[2]

    def scalar(v):
        return _run_loss(name, v)
    if value.dtype.kind == "c":
        np.testing.assert_allclose(grad, finite_differences(scalar, value), rtol=1e-6, atol=1e-7)
    else:
        step = np.eye(value.size).reshape((value.size,) + value.shape) * 1e-6
        numeric = [(scalar(value + d) - scalar(value - d)) / 2e-6 for d in step]
        np.testing.assert_allclose(grad.ravel(), numeric, rtol=1e-6, atol=1e-7)


def _run_loss(name, value):
    """The program's loss computed by NumPy (the same weights as ``loss``)."""
    with tf.Graph().as_default():
        x = tf.constant(value)
        return tf.Session().run(loss(tf, PROGRAMS[name][1](tf, x)))


def test_the_forward_values_are_numpys():
    with tf.Graph().as_default():
        z = tf.placeholder(tf.complex128, Z.shape)
        x = tf.placeholder(tf.float64, X.shape)
        outs = [tf.fft(z), tf.ifft2d(z), tf.signal.fft3d(z), tf.signal.rfft(x, fft_length=[9]),
                tf.signal.irfft(z, fft_length=[7]), tf.spectral.rfft2d(x, fft_length=[2, 4]),
                tf.signal.irfft3d(z)]
        got = tf.Session().run(outs, {z: Z, x: X})
    expected = [np.fft.fft(Z), np.fft.ifft2(Z), np.fft.fftn(Z, axes=(0, 1, 2)), np.fft.rfft(X, 9),
                np.fft.irfft(Z, 7), np.fft.rfft2(X, (2, 4)), np.fft.irfftn(Z, axes=(0, 1, 2))]
    for g, e in zip(got, expected, strict=True):
        assert g.dtype == e.dtype and g.shape == e.shape
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-12)


def test_single_precision_stays_single():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [4, 6])
        spectrum = tf.signal.rfft(x)
        back = tf.signal.irfft(spectrum)
        (g,) = tf.gradients(tf.reduce_sum(back * back), [x])
        value = X[0].astype(np.float32).reshape(3, 6)[:2].repeat(2, axis=0)
        s, b, gv = tf.Session().run([spectrum, back, g], {x: value})
    assert s.dtype == np.complex64 and b.dtype == np.float32 and gv.dtype == np.float32
    np.testing.assert_allclose(b, value, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gv, 2 * value, rtol=1e-4, atol=1e-5)


def test_the_generated_code_reads_like_numpy():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, [3, 6], name="x")
        z = tf.placeholder(tf.complex128, [3, 4], name="z")
        spectrum = tf.signal.rfft(x, fft_length=[8])
        image = tf.signal.ifft2d(z)
        with tf.Session() as sess:
            text = sess.source([spectrum, image], {x: np.zeros((3, 6)), z: np.zeros((3, 4), complex)})
    assert "np.fft.rfft(x, n=8)" in text
    assert "np.fft.ifft2(z)" in text


def test_bad_arguments_are_clear_errors():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, [4])
        z = tf.placeholder(tf.complex128, [4])
        with pytest.raises(TypeError, match="FFT needs a complex64 or complex128 tensor, got float64"):
            tf.signal.fft(x)
        with pytest.raises(TypeError, match="RFFT needs a float32 or float64 tensor, got complex128"):
            tf.signal.rfft(z)
        with pytest.raises(ValueError, match="fft_length of tf.signal.rfft2d must have 2 entries"):
            tf.signal.rfft2d(tf.placeholder(tf.float64, [4, 4]), fft_length=[4])
        with pytest.raises(ValueError, match="rank >= 2"):
            tf.signal.fft2d(z)
        with pytest.raises(TypeError, match="fft_length must be known when the graph is built"):
            tf.signal.rfft(x, fft_length=tf.placeholder(tf.int32, [1]))
        with pytest.raises(ValueError, match="IRFFT of an axis of size 1 needs an output length"):
            tf.signal.irfft(tf.placeholder(tf.complex128, [3, 1]))


def test_fftshift_and_ifftshift_are_numpys_and_differentiate():
    x = X[0]
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float64, x.shape)
        outs = [tf.signal.fftshift(p), tf.signal.ifftshift(p, axes=1), tf.signal.fftshift(p, axes=[-2])]
        w = _weights_like(x)
        loss = tf.reduce_sum(tf.signal.ifftshift(tf.signal.fftshift(p) * w) ** 2)
        (g,) = tf.gradients(loss, [p])
        got = tf.Session().run(outs + [g], {p: x})
    for value, expected in zip(got, [np.fft.fftshift(x), np.fft.ifftshift(x, axes=1), np.fft.fftshift(x, axes=-2)],
                               strict=False):
        np.testing.assert_array_equal(value, expected)
    np.testing.assert_allclose(got[-1], 2 * x * np.fft.ifftshift(w) ** 2, rtol=1e-12)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="fftshift needs a static shape"):
            tf.signal.fftshift(tf.placeholder(tf.float64, [None, 3]))
        with pytest.raises(ValueError, match="out of range"):
            tf.signal.ifftshift(tf.placeholder(tf.float64, [2, 3]), axes=2)


def _weights_like(x):
    return np.cos(np.arange(x.size).reshape(x.shape)) + 1.5
