"""Random programs with nested conds and loops: random trip counts and branch predicates, the
values against the same program run as plain Python, gradients against finite differences.

A program is a tree: a leaf applies an elementwise op (reading the input ``x`` too, so every
block captures something), a ``cond`` picks one of two subtrees on the sign of a sum, a
``loop`` runs its subtree a random number of times (a data-independent or a data-dependent
trip count), ``seq`` runs two subtrees in turn.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import s2sgrad as tf

LEAVES = {
    "tanh": (lambda v, x: tf.tanh(v + x), lambda v, x: np.tanh(v + x)),
    "sin": (lambda v, x: tf.sin(v) * x, lambda v, x: np.sin(v) * x),
    "square": (lambda v, x: v * v * 0.5 + x, lambda v, x: v * v * 0.5 + x),
}

leaf = st.sampled_from(sorted(LEAVES)).map(lambda name: ("leaf", name))


def _compound(inner: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(st.tuples(st.just("cond"), st.floats(-1.0, 1.0), inner, inner),
                     st.tuples(st.just("loop"), st.integers(0, 3), st.booleans(), inner),
                     st.tuples(st.just("seq"), inner, inner))


programs = st.recursive(leaf, _compound, max_leaves=6)


def _graph(tree: Any, v: Any, x: Any) -> Any:
    kind = tree[0]
    if kind == "leaf":
        return LEAVES[tree[1]][0](v, x)
    if kind == "cond":
        _, threshold, a, b = tree
        return tf.cond(tf.reduce_sum(v) > threshold, lambda: _graph(a, v, x), lambda: _graph(b, v, x))
    if kind == "loop":
        _, n, bounded, body = tree
        if bounded:  # data-dependent: stop early once the values grow
            keep_going = lambda i, w: tf.logical_and(i < n, tf.reduce_sum(w * w) < 50.0)  # noqa: E731
        else:
            keep_going = lambda i, w: i < n  # noqa: E731
        return tf.while_loop(keep_going, lambda i, w: (i + 1, _graph(body, w, x)), [0, v])[1]
    _, a, b = tree
    return _graph(b, _graph(a, v, x), x)


def _numpy(tree: Any, v: np.ndarray, x: np.ndarray, margins: list) -> np.ndarray:
    kind = tree[0]
    if kind == "leaf":
        return LEAVES[tree[1]][1](v, x)
    if kind == "cond":
        _, threshold, a, b = tree
        margins.append(abs(v.sum() - threshold))
        return _numpy(a, v, x, margins) if v.sum() > threshold else _numpy(b, v, x, margins)
    if kind == "loop":
        _, n, bounded, body = tree
        i = 0
        while i < n and (not bounded or np.sum(v * v) < 50.0):
            if bounded:
                margins.append(abs(np.sum(v * v) - 50.0))
            v, i = _numpy(body, v, x, margins), i + 1
        return v
    _, a, b = tree
    return _numpy(b, _numpy(a, v, x, margins), x, margins)


@settings(max_examples=40, deadline=None)
@given(programs, st.lists(st.floats(-1.0, 1.0), min_size=3, max_size=3))
def test_random_control_flow_values_and_gradients(tree, start):
    xv = np.array(start)
    margins: list = []
    expected = _numpy(tree, xv, xv, margins)
    assume(np.all(np.isfinite(expected)) and np.max(np.abs(expected)) < 1e3)
    assume(all(m > 1e-3 for m in margins))  # finite differences must not cross a branch or stop point
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, [3])
        y = _graph(tree, x, x)
        (g,) = tf.gradients(tf.reduce_sum(y), x)
        value, grad = tf.Session().run([y, g], {x: xv})
    np.testing.assert_allclose(value, expected, rtol=1e-10, atol=1e-12)
    eps = 1e-6
    fd = np.array([(np.sum(_numpy(tree, xv + d, xv + d, [])) - np.sum(_numpy(tree, xv - d, xv - d, []))) / (2 * eps)
                   for d in np.eye(3) * eps])
    np.testing.assert_allclose(grad, fd, rtol=1e-4, atol=1e-6)


# -- the same programs as decorated NumPy functions with Python `if`/`while` ---------------------------

_LEAF_SOURCE = {"tanh": "v = np.tanh(v + x)", "sin": "v = np.sin(v) * x", "square": "v = v * v * 0.5 + x"}


def _source(tree: Any, indent: str, depth: list) -> list[str]:
    kind = tree[0]
    if kind == "leaf":
        return [indent + _LEAF_SOURCE[tree[1]]]
    if kind == "cond":
        _, threshold, a, b = tree
        return ([f"{indent}if np.sum(v) > {threshold!r}:"] + _source(a, indent + "    ", depth) +
                [f"{indent}else:"] + _source(b, indent + "    ", depth))
    if kind == "loop":
        _, n, bounded, body = tree
        depth[0] += 1
        i = f"i{depth[0]}"
        test = f"{i} < {n}" + (" and np.sum(v * v) < 50.0" if bounded else "")
        return ([f"{indent}{i} = 0", f"{indent}while {test}:"] + _source(body, indent + "    ", depth) +
                [f"{indent}    {i} = {i} + 1"])
    _, a, b = tree
    return _source(a, indent, depth) + _source(b, indent, depth)


def _function(tree: Any) -> Any:
    import importlib.util
    import tempfile
    lines = ["import numpy as np", "", "", "def f(x):", "    v = x", *_source(tree, "    ", [0]),
             "    return np.sum(v)"]
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as out:
        out.write("\n".join(lines) + "\n")
    spec = importlib.util.spec_from_file_location("random_program", out.name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.f


@settings(max_examples=30, deadline=None)
@given(programs, st.lists(st.floats(-1.0, 1.0), min_size=3, max_size=3))
def test_random_decorated_control_flow(tree, start):
    import s2sgrad
    xv = np.array(start)
    f = _function(tree)
    expected = f(xv)
    margins: list = []
    _numpy(tree, xv, xv, margins)
    assume(np.isfinite(expected) and abs(expected) < 1e3)
    assume(all(m > 1e-3 for m in margins))  # finite differences must not cross a branch or stop point
    fd = np.array([(f(xv + d) - f(xv - d)) / 2e-6 for d in np.eye(3) * 1e-6])
    value, grad = s2sgrad.value_and_grad(f)(xv)
    assert value == pytest.approx(expected, rel=1e-10, abs=1e-12)
    np.testing.assert_allclose(grad, fd, rtol=1e-4, atol=1e-6)
