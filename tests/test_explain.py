"""``s2sgrad.explain`` (graph mode) and ``gf.explain`` (decorator): each reason a gradient can be
None or zero, with the op and the user's line, and agreement with what tf.gradients returns."""
from __future__ import annotations

import os

import numpy as np
import pytest

import s2sgrad
import s2sgrad as tf
from s2sgrad.explain import (
    INTEGER,
    NO_GRADIENT,
    NO_PATH,
    NON_DIFFERENTIABLE,
    NOT_FLOAT_X,
    NOT_FLOAT_Y,
    SHAPE_ONLY,
    STOP_ARGUMENT,
    STOP_GRADIENT,
    ZERO_DERIVATIVE,
    GradientReport,
)

HERE = os.path.basename(__file__)


def line_of(f, offset):
    return f"{HERE}:{f.__code__.co_firstlineno + offset}"


def only(report):
    (explanation,) = report
    return explanation


def kinds(explanation):
    return [r.kind for r in explanation.reasons]


@pytest.fixture
def x():
    return tf.placeholder(tf.float32, [3], name="x")


# -- graph mode: one test per reason ------------------------------------------------------------------

def test_connected(x):
    e = only(tf.explain(tf.reduce_sum(x * x), x))
    assert e.status == "connected" and e.reasons == []
    assert str(e) == "'x:0': the gradient of 'Sum:0' flows to it."


def test_no_path_and_created_after(x):
    y = tf.reduce_sum(x)
    later = tf.placeholder(tf.float32, [], name="later")
    e = only(tf.explain(y, later))
    assert e.status == "unconnected" and e.gradient_is_none and kinds(e) == [NO_PATH]
    assert "'Sum:0' does not depend on it at all" in str(e)
    assert "was created at" in str(e) and "after 'Sum:0'" in str(e)


def test_stop_gradient_op(x):
    h = tf.stop_gradient(x * 2.0)
    e = only(tf.explain(tf.reduce_sum(h), x))
    assert kinds(e) == [STOP_GRADIENT] and e.reasons[0].op is h.op
    assert f"tf.stop_gradient at {h.op.where}" in str(e)


def test_stop_gradients_argument(x):
    h = x * 2.0
    y = tf.reduce_sum(h)
    assert tf.gradients(y, x, stop_gradients=[h]) == [None]
    e = only(tf.explain(y, x, stop_gradients=[h]))
    assert kinds(e) == [STOP_ARGUMENT] and "'mul:0' is listed in stop_gradients=" in str(e)


def test_integer_cast(x):
    h = tf.cast(tf.cast(x, tf.int32), tf.float32)
    e = only(tf.explain(tf.reduce_sum(h), x))
    assert kinds(e) == [INTEGER]
    assert str(e).endswith(f"The cast at {h.op.where} (op 'Cast') produces an int32 tensor; integer and bool tensors "
                           f"carry no gradient. Keep the values in floating point on the way to 'Sum:0'.")


def test_non_differentiable_ops(x):
    by_argmax = tf.cast(tf.argmax(x), tf.float32)
    e = only(tf.explain(by_argmax, x))
    assert kinds(e) == [NON_DIFFERENTIABLE] and e.reasons[0].op.type == "ArgMax"
    assert "argmax at" in str(e) and "returns int64 values" in str(e)
    e = only(tf.explain(tf.reduce_sum(tf.floor(x)), x))
    assert kinds(e) == [NON_DIFFERENTIABLE] and "floor at" in str(e)


def test_shape_only(x):
    c = tf.constant([1.0, 2.0, 3.0])
    e = only(tf.explain(tf.reduce_sum(tf.zeros_like(x) + c), x))
    assert kinds(e) == [SHAPE_ONLY] and "Only its shape is used, by zeros_like" in str(e)
    e = only(tf.explain(tf.reduce_sum(tf.reshape(c, tf.shape(x))), x))
    assert kinds(e) == [SHAPE_ONLY]


def test_zero_derivative(x):
    y = tf.reduce_sum(tf.sign(x))
    (g,) = tf.gradients(y, x)
    assert g is not None
    e = only(tf.explain(y, x))
    assert e.status == "zero" and kinds(e) == [ZERO_DERIVATIVE]
    assert str(e).startswith("'x:0': the gradient is identically zero. The path goes through sign at")


def test_integer_x_and_integer_y():
    n = tf.placeholder(tf.int32, [], name="n")
    e = only(tf.explain(tf.cast(n, tf.float32) * 2.0, n))
    assert kinds(e) == [NOT_FLOAT_X] and "It is an int32 tensor" in str(e)
    x = tf.placeholder(tf.float32, [], name="x")
    y = tf.cast(x, tf.int32)
    assert tf.gradients(y, x) == [None]
    e = only(tf.explain(y, x))
    assert set(kinds(e)) == {INTEGER, NOT_FLOAT_Y}


def test_missing_gradient_function(x):
    with x.graph.gradient_override_map({"Square": "NoSuchGradient"}):
        y = tf.reduce_sum(tf.square(x))
    e = only(tf.explain(y, x))
    assert kinds(e) == [NO_GRADIENT] and "no gradient function registered" in str(e)


def test_every_path_is_listed_and_partial_cuts_are_notes(x):
    y = tf.reduce_sum(tf.stop_gradient(x)) + tf.cast(tf.argmax(x), tf.float32)
    e = only(tf.explain(y, x))
    assert e.status == "unconnected" and kinds(e) == [STOP_GRADIENT, NON_DIFFERENTIABLE]
    assert "Every path from it to 'add:0' is cut:\n  - The path is cut by tf.stop_gradient" in str(e)
    e = only(tf.explain(y + tf.reduce_sum(x), x))
    assert e.status == "connected" and len(e.reasons) == 2 and "Some paths are cut" in str(e)


def test_report_over_several_xs_and_variables(x):
    w = tf.Variable([1.0, 2.0, 3.0], name="w")
    b = tf.Variable(0.5, name="b")
    y = tf.reduce_sum(w * x) + tf.stop_gradient(b)
    report = tf.explain(y, [w, b, x], unconnected_gradients="zero")
    assert isinstance(report, GradientReport) and [e.status for e in report] == ["connected", "unconnected",
                                                                                   "connected"]
    assert "the gradient is zeros (unconnected)" in str(report).splitlines()[1]


PROGRAMS = {
    "product": lambda x: tf.reduce_sum(x * x),
    "stopped": lambda x: tf.reduce_sum(tf.stop_gradient(x)),
    "cast": lambda x: tf.reduce_sum(tf.cast(tf.cast(x, tf.int32), tf.float32)),
    "argmax": lambda x: tf.cast(tf.argmax(x), tf.float32),
    "sign": lambda x: tf.reduce_sum(tf.sign(x) * 3.0),
    "floor_plus": lambda x: tf.reduce_sum(tf.floor(x) + x),
    "shape": lambda x: tf.reduce_sum(tf.ones_like(x)),
    "select": lambda x: tf.reduce_sum(tf.where(x > 0.0, tf.ones_like(x), tf.zeros_like(x))),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_verdict_agrees_with_gradients(name, x):
    y = PROGRAMS[name](x)
    (g,) = tf.gradients(y, x)
    e = only(tf.explain(y, x))
    if g is None:
        assert e.status == "unconnected"
        return
    with tf.Session() as sess:
        value = sess.run(g, {x: np.array([-1.5, 0.5, 2.0], np.float32)})
    assert e.status == ("zero" if not np.any(value) else "connected")


# -- decorator mode --------------------------------------------------------------------------------

def many_reasons(w, b, c, d, e, f, unused):
    total = np.sum(w * 2.0)
    total = total + np.argmax(b)
    total = total + np.sum(c.astype(np.int64))
    total = total + np.sum(np.floor(d)) + np.sum(np.sign(e) * 2.0)
    total = total + np.sum(np.where(f > 0, 1.0, 0.0)) + np.sum(np.zeros_like(f))
    return total


def test_decorator_explain_names_arguments_and_lines():
    args = [np.ones(3) for _ in range(7)]
    gf = s2sgrad.grad(many_reasons, wrt=tuple(range(7)))
    grads = gf(*args)
    report = gf.explain(*args)
    assert [e.label for e in report] == [f"argument {n!r}" for n in ("w", "b", "c", "d", "e", "f", "unused")]
    assert [e.status for e in report] == ["connected", "unconnected", "unconnected", "unconnected", "zero",
                                          "unconnected", "unconnected"]
    assert [g is None for g in grads] == [e.gradient_is_none for e in report]
    b, c, d, e, f, unused = report[1:]
    assert kinds(b) == [NON_DIFFERENTIABLE] and b.reasons[0].where == line_of(many_reasons, 2)
    assert kinds(c) == [INTEGER] and f"The cast at {line_of(many_reasons, 3)}" in str(c)
    assert kinds(d) == [NON_DIFFERENTIABLE] and "floor at " + line_of(many_reasons, 4) in str(d)
    assert kinds(e) == [ZERO_DERIVATIVE] and "sign at " + line_of(many_reasons, 4) in str(e)
    assert kinds(f) == [NON_DIFFERENTIABLE, SHAPE_ONLY] and "the comparison >" in str(f)
    assert kinds(unused) == [NO_PATH] and "The result of many_reasons() does not depend on it" in str(unused)


def test_decorator_explain_stop_gradients_argument():
    gf = s2sgrad.grad(lambda w, b: np.sum(w * b), wrt=(0, 1), stop_gradients=("b",))
    report = gf.explain(np.ones(2), np.ones(2))
    assert report[0].status == "connected"
    assert kinds(report[1]) == [STOP_ARGUMENT]
    assert "argument 'b' is listed in stop_gradients=" in str(report[1])


def test_no_path_spots_a_recreated_placeholder():
    x_old = tf.placeholder(tf.float32, [2], name="x")
    x_new = tf.placeholder(tf.float32, [2], name="x")
    y = tf.reduce_sum(x_new * 2.0)
    e = only(tf.explain(y, x_old))
    assert kinds(e) == [NO_PATH]
    assert f"It does use 'x_1' (created at {x_new.op.where}), an op of the same kind and name" in str(e)


def test_hints_for_piecewise_constant_ops_and_comparisons(x):
    assert "straight-through" in str(tf.explain(tf.reduce_sum(tf.round(x)), x))
    assert "where(condition, a, b)" in str(tf.explain(tf.reduce_sum(tf.cast(x > 0.0, tf.float32)), x))
    assert "softmax" in str(tf.explain(tf.cast(tf.argmax(x), tf.float32), x))
