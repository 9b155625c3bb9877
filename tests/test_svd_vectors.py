"""Gradients through the singular vectors of the SVD, in graph mode (``tf.linalg.svd``) against
TensorFlow 2.21's recorded gradients (tests/data/svd_vectors_tf) and finite differences, and in
the decorator (``np.linalg.svd``) against autograd and finite differences. The losses are unchanged
by a singular pair's sign (or phase), so the derivative does not depend on LAPACK's choice."""
import json
import os
import re

import numpy as np
import pytest

import s2sgrad as tf
from svd_vectors_programs import PROGRAMS
from test_decorator_complex import finite_differences

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "data", "svd_vectors_tf", "gradients.json")) as _f:
    RECORD = json.load(_f)


def _from_pairs(pairs, like):
    values = np.array([complex(re, im) for re, im in pairs]).reshape(like.shape)
    return values if np.iscomplexobj(like) else values.real


def _derivative(f, x, eps=1e-6):
    """Central differences: ``dL/dx`` of a real ``x``; ``dL/dRe + i dL/dIm`` of a complex one."""
    if np.iscomplexobj(x):
        return finite_differences(f, x, eps)
    grad = np.zeros(x.shape)
    for i in range(x.size):
        step = np.zeros(x.shape)
        step.flat[i] = eps
        grad.flat[i] = (f(x + step) - f(x - step)) / (2 * eps)
    return grad


def _run(name, value=None, gradients=True):
    x_value, full_matrices, loss_of = PROGRAMS[name]
    value = x_value if value is None else value
    with tf.Graph().as_default():
        x = tf.placeholder(tf.as_dtype(x_value.dtype), x_value.shape)
        loss = loss_of(tf, *tf.linalg.svd(x, full_matrices=full_matrices))
        with tf.Session() as sess:
            return sess.run([loss] + (tf.gradients(loss, [x]) if gradients else []), {x: value})


def test_the_recorded_inputs_are_the_programs():
    assert sorted(RECORD["programs"]) == sorted(PROGRAMS)
    for name, (value, _, _) in PROGRAMS.items():
        np.testing.assert_array_equal(_from_pairs(RECORD["programs"][name]["x"], value), value)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_graph_mode_equals_tensorflow(name):
    value = PROGRAMS[name][0]
    loss, grad = _run(name)
    entry = RECORD["programs"][name]
    assert grad.dtype == value.dtype and grad.shape == value.shape
    np.testing.assert_allclose(loss, entry["loss"], rtol=1e-12)
    np.testing.assert_allclose(grad, _from_pairs(entry["dx"], value), rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_graph_mode_is_the_derivative(name):
    value = PROGRAMS[name][0]
    _, grad = _run(name)
    expected = _derivative(lambda x: float(_run(name, x, gradients=False)[0]), value)
    np.testing.assert_allclose(grad, expected, rtol=1e-6, atol=1e-7)


def test_full_matrices_with_sizes_apart_by_more_than_one_is_refused():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, (5, 3))
        s, u, v = tf.linalg.svd(x, full_matrices=True)
        with pytest.raises(NotImplementedError, match="singular vectors of .*5 x 3 matrix with full_matrices=True"):
            tf.gradients(tf.reduce_sum(u * u), [x])
        assert tf.gradients(tf.reduce_sum(s), [x])[0] is not None   # the values alone still differentiate


def test_unknown_matrix_sizes_are_refused():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, (None, 3))
        _, u, _ = tf.linalg.svd(x)
        with pytest.raises(NotImplementedError, match="needs known matrix sizes"):
            tf.gradients(tf.reduce_sum(u * u), [x])


def test_generated_gradient_is_plain_numpy():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, (4, 3))
        _, u, v = tf.linalg.svd(x)
        grad, = tf.gradients(tf.reduce_sum(u * u * np.arange(3.0)) + tf.reduce_sum(v), [x])
        with tf.Session() as sess:
            source = sess.source(grad, {x: np.ones((4, 3))})
    assert set(re.findall(r"rt\.\w+", source)) == {"rt.svd"}   # the forward; the gradient is plain NumPy
    assert "1e-20" in source   # the guarded reciprocal of the singular value gaps is visible


# --- the decorator ------------------------------------------------------------------------------

def _weighted(xp, full_matrices):
    def loss(x):
        u, s, vh = xp.linalg.svd(x, full_matrices=full_matrices)
        uw = np.cos(np.arange(u.shape[-1])) + 1.5
        vw = np.sin(np.arange(vh.shape[-1])) + 1.5
        k = s.shape[-1]
        rebuilt = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
        return (xp.sum(xp.abs(u) ** 2 * uw) + xp.sum(xp.abs(vh) ** 2 * vw) + xp.sum(s ** 3)
                + xp.sum(xp.abs(rebuilt) ** 3))
    return loss


def _projector(xp, full_matrices):
    def loss(x):
        u, _, vh = xp.linalg.svd(x, full_matrices=full_matrices)
        return xp.sum(xp.abs(u[..., :, :1] @ xp.conj(u[..., :, :1]).swapaxes(-1, -2)) ** 2 * 2.0) + xp.sum(
            xp.abs(vh[..., :1, :]))
    return loss


_R = np.random.default_rng(7)
DECORATED = {
    "square": (_R.uniform(-1, 1, (3, 3)), False, _weighted),
    "tall": (_R.uniform(-1, 1, (5, 3)), False, _weighted),
    "wide": (_R.uniform(-1, 1, (2, 4)), False, _projector),
    "batch": (_R.uniform(-1, 1, (2, 3, 4)), False, _weighted),
    "full_square": (_R.uniform(-1, 1, (3, 3)), True, _weighted),
    "full_batch_square": (_R.uniform(-1, 1, (2, 2, 2)), True, _projector),
    "complex_square": (_R.uniform(-1, 1, (3, 3)) + 1j * _R.uniform(-1, 1, (3, 3)), False, _weighted),
    "complex_tall": (_R.uniform(-1, 1, (4, 2)) + 1j * _R.uniform(-1, 1, (4, 2)), False, _projector),
    "complex_batch_wide": (_R.uniform(-1, 1, (2, 2, 3)) + 1j * _R.uniform(-1, 1, (2, 2, 3)), False, _weighted),
}


@pytest.mark.parametrize("name", sorted(DECORATED))
def test_decorator_is_the_derivative(name):
    value, full_matrices, make = DECORATED[name]
    loss = make(np, full_matrices)
    grad = tf.grad(loss)(value)
    assert grad.dtype == value.dtype and grad.shape == value.shape
    np.testing.assert_allclose(grad, _derivative(loss, value), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", sorted(DECORATED))
def test_decorator_equals_autograd(name):
    autograd = pytest.importorskip("autograd")
    anp = pytest.importorskip("autograd.numpy")
    value, full_matrices, make = DECORATED[name]
    # autograd 1.9 refuses full_matrices=True; for a square matrix it is the same decomposition.
    expected = autograd.grad(make(anp, False))(value)
    # s2sgrad's complex convention is TensorFlow's, dL/dRe + i dL/dIm; autograd returns its conjugate
    np.testing.assert_allclose(tf.grad(make(np, full_matrices))(value), np.conj(expected), rtol=1e-10, atol=1e-12)
