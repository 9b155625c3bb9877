"""Complex numbers end to end, in TensorFlow's convention: for a real loss ``L`` of a complex
``z = x + iy``, the gradient is ``dL/dx + i dL/dy`` (autograd returns its conjugate).

Graph mode and the decorator run the same programs (tests/complex_programs.py, the decorator's
through NumPy); both match TensorFlow's recorded gradients (tests/data/complex_tf) and finite
differences of the real and imaginary parts taken separately."""
import json
import os
import types

import numpy as np
import pytest

import s2sgrad
import s2sgrad as tf
from complex_programs import PROGRAMS, W, Z

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "data", "complex_tf", "gradients.json")) as _f:
    RECORDED = json.load(_f)["programs"]

# TF's names for the NumPy functions the programs use: the programs run on plain NumPy too
NUMPY_AS_TF = types.SimpleNamespace(
    reduce_sum=np.sum, reduce_prod=lambda x, axis=None: np.prod(x, axis=axis), real=np.real, imag=np.imag,
    conj=np.conj, exp=np.exp, log=np.log, sin=np.sin, cos=np.cos, tanh=np.tanh, sqrt=np.sqrt, square=np.square,
    abs=np.abs, angle=np.angle, matmul=np.matmul, reshape=np.reshape, pow=np.power,
    complex=lambda re, im: re + 1j * im, constant=lambda v, dtype: np.asarray(v, dtype), complex128=np.complex128)


def _recorded(name, key, shape):
    return np.array([complex(re, im) for re, im in RECORDED[name][key]]).reshape(shape)


def finite_differences(f, z, eps=1e-6):
    """``dL/dx + i dL/dy`` by central differences of the real and the imaginary parts of each element."""
    grad = np.zeros(z.shape, np.complex128)
    for i in range(z.size):
        step = np.zeros(z.shape, np.complex128)
        step.flat[i] = eps
        d_real = (f(z + step) - f(z - step)) / (2 * eps)
        d_imag = (f(z + 1j * step) - f(z - 1j * step)) / (2 * eps)
        grad.flat[i] = d_real + 1j * d_imag
    return grad


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_graph_mode_gradients_equal_tensorflows(name):
    with tf.Graph().as_default():
        z = tf.placeholder(tf.complex128, Z.shape)
        w = tf.placeholder(tf.complex128, W.shape)
        loss = PROGRAMS[name](tf, z, w)
        grads = tf.gradients(loss, [z, w])
        with tf.Session() as sess:
            value, gz, gw = sess.run([loss] + grads, {z: Z, w: W})
    assert gz.dtype == np.complex128 and gw.dtype == np.complex128
    np.testing.assert_allclose(value, RECORDED[name]["loss"], rtol=1e-12)
    np.testing.assert_allclose(gz, _recorded(name, "dz", Z.shape), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(gw, _recorded(name, "dw", W.shape), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_decorator_gradients_equal_tensorflows_and_finite_differences(name):
    def loss(z, w):
        return PROGRAMS[name](NUMPY_AS_TF, z, w)

    value, (gz, gw) = s2sgrad.value_and_grad(loss, wrt=(0, 1))(Z, W)
    np.testing.assert_allclose(value, loss(Z, W), rtol=1e-12)
    np.testing.assert_allclose(gz, _recorded(name, "dz", Z.shape), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(gw, _recorded(name, "dw", W.shape), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(gz, finite_differences(lambda z: loss(z, W), Z), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(gw, finite_differences(lambda w: loss(Z, w), W), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_autograd_returns_the_conjugate(name):
    autograd = pytest.importorskip("autograd")
    anp = pytest.importorskip("autograd.numpy")
    as_tf = types.SimpleNamespace(**{**vars(NUMPY_AS_TF), **{k: getattr(anp, v.__name__) for k, v in
                                                              vars(NUMPY_AS_TF).items() if isinstance(v, np.ufunc)
                                                              or getattr(v, "__module__", "").startswith("numpy")}})
    as_tf.reduce_prod = lambda x, axis=None: anp.prod(x, axis=axis)
    as_tf.constant = lambda v, dtype: anp.array(v, dtype=dtype)

    def loss(z, w):
        return PROGRAMS[name](as_tf, z, w)

    ours = s2sgrad.grad(lambda z, w: PROGRAMS[name](NUMPY_AS_TF, z, w))(Z, W)
    np.testing.assert_allclose(ours, np.conj(autograd.grad(loss)(Z, W)), rtol=1e-10, atol=1e-12)


ELEMENTWISE = {
    "abs": lambda z: np.sum(np.abs(z)),
    "real_of_square": lambda z: np.sum(np.real(z * z)),
    "attributes": lambda z: np.sum(z.imag ** 2 + z.real * 3.0),
    "conj_method": lambda z: np.real(np.sum(z * z.conj())) + np.imag(np.sum(np.conjugate(z) * 2j)),
    "angle_degrees": lambda z: np.sum(np.angle(z, deg=True) * np.abs(z)),
    "trig": lambda z: np.real(np.sum(np.sin(z) / np.cos(z) + np.tanh(z) + np.cosh(z) - np.arctan(z))),
    "sqrt_square": lambda z: np.abs(np.sum(np.sqrt(z) ** 3 + np.square(z))),
    "power": lambda z: np.real(np.sum(z ** (1.5 - 0.5j)) + np.sum(z ** 2) + np.sum(2.0 ** z)),
    "division": lambda z: np.imag(np.sum(1.0 / z + z / (z + 3.0))),
    "reductions_and_shapes": lambda z: np.abs(np.mean(np.concatenate([z, z[::-1] * 2j]).reshape(2, 3).T @
                                                      np.ones(2))),
    "products": lambda z: np.real(np.prod(z) + np.cumprod(z)[-1] + np.cumsum(z)[1]),
    "einsum_outer": lambda z: np.abs(np.einsum("i,j->", z, np.conj(z))),
    "stack_where": lambda z: np.sum(np.abs(np.stack([z, np.where(np.real(z) > 0, z, -z)]))),
}


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
def test_decorator_complex_functions_match_finite_differences(name):
    f = ELEMENTWISE[name]
    value, g = s2sgrad.value_and_grad(f)(Z)
    np.testing.assert_allclose(value, f(Z), rtol=1e-12)
    assert g.dtype == np.complex128 and g.shape == Z.shape
    np.testing.assert_allclose(g, finite_differences(f, Z), rtol=1e-6, atol=1e-7)


def test_complex64_arguments_give_complex64_gradients():
    z = Z.astype(np.complex64)
    g = s2sgrad.grad(lambda z: np.sum(np.abs(z * z)))(z)
    assert g.dtype == np.complex64
    np.testing.assert_allclose(g, 2 * z, rtol=1e-5)   # |z * z| = |z|^2: d = 2 z in TF's convention


def test_real_arguments_through_complex_intermediates():
    def f(x, y):
        z = x + 1j * y
        return np.sum(np.abs(np.exp(1j * z)) + np.real(z * np.conj(z)) + np.angle(z))

    x, y = np.array([0.5, -1.0, 2.0]), np.array([0.3, 0.8, -0.4])
    gx, gy = s2sgrad.grad(f, wrt=(0, 1))(x, y)
    assert gx.dtype == np.float64
    eps = 1e-6
    for i in range(3):
        step = np.eye(3)[i] * eps
        np.testing.assert_allclose(gx[i], (f(x + step, y) - f(x - step, y)) / (2 * eps), rtol=1e-6)
        np.testing.assert_allclose(gy[i], (f(x, y + step) - f(x, y - step)) / (2 * eps), rtol=1e-6)


def test_real_and_imag_of_real_arrays_are_numpys():
    x = np.array([1.0, -2.0])
    g = s2sgrad.grad(lambda x: np.sum(np.real(x) * 2.0 + np.imag(x) + x.real + np.angle(x)))(x)
    np.testing.assert_allclose(g, [3.0, 3.0])


def test_complex_results_must_be_made_real():
    with pytest.raises(TypeError, match="complex128 values; derivatives need a floating-point result"):
        s2sgrad.grad(lambda z: np.sum(z * z))(Z)
