"""Graph mode's linear algebra of complex matrices against TensorFlow 2.21's recorded gradients
(tests/data/complex_linalg_tf) and against finite differences of the real and imaginary parts.

The programs (tests/complex_linalg_programs.py) run unchanged under both. Where TensorFlow's
gradient is not the derivative (``TF_DIFFERS``: the determinant and slogdet's sign), s2sgrad
gives the derivative, and the test pins down exactly how TensorFlow's differs."""
import json
import os

import numpy as np
import pytest

import s2sgrad as tf
from complex_linalg_programs import PROGRAMS, TF_DIFFERS, W, Z
from test_decorator_complex import finite_differences

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "data", "complex_linalg_tf", "gradients.json")) as _f:
    RECORD = json.load(_f)


def _complex(pairs, shape):
    return np.array([complex(re, im) for re, im in pairs]).reshape(shape)


def _tensorflows(name):
    entry = RECORD["programs"][name]
    return entry["loss"], _complex(entry["dz"], Z.shape), _complex(entry["dw"], W.shape)


def _run(name, z_value=Z, w_value=W, gradients=True):
    with tf.Graph().as_default():
        z = tf.placeholder(tf.complex128, Z.shape)
        w = tf.placeholder(tf.complex128, W.shape)
        loss = PROGRAMS[name](tf, z, w)
        fetches = [loss] + ([g if g is not None else tf.zeros_like(x) for g, x in
                             zip(tf.gradients(loss, [z, w]), [z, w], strict=True)] if gradients else [])
        with tf.Session() as sess:
            return sess.run(fetches, {z: z_value, w: w_value})


def test_the_recorded_inputs_are_the_programs():
    np.testing.assert_array_equal(_complex(RECORD["Z"], Z.shape), Z)
    np.testing.assert_array_equal(_complex(RECORD["W"], W.shape), W)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_gradients_are_the_derivatives(name):
    value, gz, gw = _run(name)
    assert gz.dtype == np.complex128 and gw.dtype == np.complex128
    loss_of_z = lambda z: float(_run(name, z_value=z, gradients=False)[0])   # noqa: E731
    loss_of_w = lambda w: float(_run(name, w_value=w, gradients=False)[0])   # noqa: E731
    np.testing.assert_allclose(gz, finite_differences(loss_of_z, Z), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(gw, finite_differences(loss_of_w, W), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", sorted(set(PROGRAMS) - set(TF_DIFFERS)))
def test_gradients_equal_tensorflows(name):
    value, gz, gw = _run(name)
    tf_value, tf_gz, tf_gw = _tensorflows(name)
    np.testing.assert_allclose(value, tf_value, rtol=1e-12)
    np.testing.assert_allclose(gz, tf_gz, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(gw, tf_gw, rtol=1e-9, atol=1e-11)


def test_tensorflows_determinant_gradient_multiplies_by_det_not_its_conjugate():
    value, gz, _ = _run("determinant")
    tf_value, tf_gz, _ = _tensorflows("determinant")
    det = np.linalg.det(Z)
    np.testing.assert_allclose(value, tf_value, rtol=1e-12)
    np.testing.assert_allclose(tf_gz, gz * det / np.conj(det), rtol=1e-9, atol=1e-11)
    assert not np.allclose(tf_gz, gz)


def test_tensorflow_ignores_the_phase_of_a_complex_slogdet_sign():
    _, gz, _ = _run("slogdet_sign")
    tf_value, tf_gz, _ = _tensorflows("slogdet_sign")
    np.testing.assert_array_equal(tf_gz, np.zeros_like(Z))
    assert np.max(np.abs(gz)) > 0.1


def test_eigh_and_slogdet_are_typed_as_tensorflow_types_them():
    with tf.Graph().as_default():
        z = tf.placeholder(tf.complex128, Z.shape)
        e, v = tf.linalg.eigh(z)
        sign, log_abs = tf.linalg.slogdet(z)
        s = tf.svd(z, compute_uv=False)
        assert (e.dtype, v.dtype, sign.dtype, log_abs.dtype, s.dtype) == (tf.complex128,) * 4 + (tf.float64,)
        assert tf.linalg.logdet(z).dtype == tf.float64
        with tf.Session() as sess:
            got = sess.run([e, sign, log_abs, s], {z: Z @ Z.conj().T})
    hpd = Z @ Z.conj().T
    expected = [np.linalg.eigvalsh(hpd), np.linalg.slogdet(hpd)[0], np.linalg.slogdet(hpd)[1],
                np.linalg.svd(hpd, compute_uv=False)]
    for g, x, dtype in zip(got, expected, [np.complex128] * 3 + [np.float64], strict=True):
        assert np.asarray(g).dtype == dtype
        np.testing.assert_allclose(g, x, rtol=1e-12)


def test_generated_code_conjugates_where_it_reads_an_adjoint():
    with tf.Graph().as_default():
        z = tf.placeholder(tf.complex128, Z.shape, name="z")
        x = tf.linalg.solve(z, tf.matmul(z, z, adjoint_a=True), adjoint=True)
        with tf.Session() as sess:
            text = sess.source(x, {z: Z})
            np.testing.assert_allclose(sess.run(x, {z: Z}), np.linalg.solve(Z.conj().T, Z.conj().T @ Z))
    assert "np.linalg.solve(np.conj(np.swapaxes(z, -1, -2))," in text and "np.conj(z).T @ z" in text
