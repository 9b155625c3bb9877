"""Second-order gradients (and ``tf.hessians``) through nested control flow: a cond in a while, a
while in a cond, a cond in a while in a cond, a while in a while, a cond in a cond in a while, a cond
in a while whose trip count depends on x; and the decorator's Python ``if`` in a ``while`` (the same
rules). Values against TensorFlow 2.21 (recorded by tests/data/control_tf/record.py into
reference.json, on the programs of programs.py) and against finite differences.
"""
import importlib.util
import json
import os

import numpy as np
import pytest

import s2sgrad
import s2sgrad as tf

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "control_tf")
_spec = importlib.util.spec_from_file_location("control_tf_programs", os.path.join(HERE, "programs.py"))
programs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(programs)
with open(os.path.join(HERE, "reference.json"), encoding="utf-8") as _f:
    RECORDED = json.load(_f)["cases"]
CASES = [(name, k) for name in programs.PROGRAMS for k in range(len(programs.INPUTS[name]))]


def _central(f, x, eps=1e-6):
    """Central differences of ``f`` (a function of a vector) along each coordinate, stacked last."""
    cols = []
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = eps
        cols.append((np.asarray(f(x + e)) - np.asarray(f(x - e))) / (2 * eps))
    return np.stack(cols, axis=-1)


@pytest.mark.parametrize("shape", [[2], None], ids=["static", "unknown_shape"])
@pytest.mark.parametrize("name,k", CASES)
def test_second_order_matches_tensorflow_and_finite_differences(name, k, shape):
    ref = RECORDED[name][k]
    x = tf.placeholder(tf.float64, shape)
    y = tf.reduce_sum(programs.PROGRAMS[name](tf, x))
    (g,) = tf.gradients(y, x)
    (h,) = tf.gradients(tf.reduce_sum(g), x)
    sess = tf.Session()
    xv = np.array(ref["x"])
    yv, gv, hv = sess.run([y, g, h], {x: xv})
    np.testing.assert_allclose(yv, ref["y"], rtol=1e-12)
    np.testing.assert_allclose(gv, ref["g"], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(hv, ref["h"], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(gv, _central(lambda v: sess.run(y, {x: v}), xv), rtol=1e-5, atol=1e-7)
    jacobian = _central(lambda v: sess.run(g, {x: v}), xv)
    np.testing.assert_allclose(hv, jacobian.sum(axis=0), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name,k", CASES)
def test_hessians_match_tensorflow_and_finite_differences(name, k):
    ref = RECORDED[name][k]
    x = tf.placeholder(tf.float64, [2])
    y = tf.reduce_sum(programs.PROGRAMS[name](tf, x))
    (hess,) = tf.hessians(y, x)
    (g,) = tf.gradients(y, x)
    sess = tf.Session()
    xv = np.array(ref["x"])
    hv = sess.run(hess, {x: xv})
    np.testing.assert_allclose(hv, ref["hessian"], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(hv, _central(lambda v: sess.run(g, {x: v}), xv), rtol=1e-5, atol=1e-6)


def _python_loop(x):
    """cond_in_data_dependent_while of programs.py as the decorator's NumPy: a Python ``if`` in a ``while``."""
    v = x
    while np.sum(v) < 6.0:
        if np.sum(v) > 1.0:
            v = v * np.exp(x * v)
        else:
            v = v + x * x
    return np.sum(v)


@pytest.mark.parametrize("k", range(len(programs.INPUTS["cond_in_data_dependent_while"])))
def test_decorator_grad_of_grad_through_if_in_while(k):
    ref = RECORDED["cond_in_data_dependent_while"][k]
    xv = np.array(ref["x"])
    g = s2sgrad.grad(_python_loop)
    assert "while " in g.source(xv)   # a loop of the generated module, not unrolled
    np.testing.assert_allclose(g(xv), ref["g"], rtol=1e-10)
    np.testing.assert_allclose(s2sgrad.grad(lambda x: np.sum(g(x)))(xv), ref["h"], rtol=1e-10)
    hess = s2sgrad.hessian(_python_loop)(xv)
    np.testing.assert_allclose(hess, ref["hessian"], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(hess, _central(g, xv), rtol=1e-5, atol=1e-6)
