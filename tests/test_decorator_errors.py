"""What the decorator says when a function cannot be traced: typed errors that name the
NumPy function or construct, the user's file:line and what to do instead."""
from __future__ import annotations

import os

import numpy as np
import pytest

import s2sgrad
from s2sgrad.tracing import TracedValueError

HERE = os.path.basename(__file__)


def line_of(f, offset=1):
    return f"{HERE}:{f.__code__.co_firstlineno + offset}"


def branch_on_value(x):
    if np.sum(x) > 0:
        return np.sum(x)
    return -np.sum(x)


def loop_on_value(x):
    while x.max() < 10:
        x = x * 2
    return np.sum(x)


def index_with_value(x):
    n = x.sum()
    return np.sum(x[:n])


def test_control_flow_on_values_is_converted_and_what_cannot_be_names_the_line():
    assert s2sgrad.grad(branch_on_value)(np.ones(3)).tolist() == [1.0] * 3  # tests/test_decorator_control_flow.py
    assert s2sgrad.grad(branch_on_value)(-np.ones(3)).tolist() == [-1.0] * 3
    assert s2sgrad.grad(loop_on_value)(np.ones(3)).tolist() == [16.0] * 3
    with pytest.raises(TracedValueError, match=r"errors.py:\d+: .*x if np.sum\(x\) > 0 else -x.*np\.where"):
        s2sgrad.grad(lambda x: np.sum(x if np.sum(x) > 0 else -x))(np.ones(3))
    with pytest.raises(TracedValueError, match=rf"index or size.*{line_of(index_with_value, 2)}"):
        s2sgrad.grad(index_with_value)(np.ones(3))
    assert issubclass(TracedValueError, TypeError)


def test_python_conversions_of_values_are_errors():
    with pytest.raises(TracedValueError, match="Python float"):
        s2sgrad.grad(lambda x: float(np.sum(x)))(np.ones(2))
    with pytest.raises(TracedValueError, match="np.asarray.*np.stack"):
        s2sgrad.grad(lambda x: np.sum(np.float64(np.sum(x))))(np.ones(2))
    with pytest.raises(TracedValueError, match=r"\.item\(\)"):
        s2sgrad.grad(lambda x: np.sum(x).item())(np.ones(2))


BUFFER = np.zeros(3)


def store_into_numpy_array(x):
    BUFFER[0] = x[0]  # an array made outside the function (arrays made inside accept traced values)
    return np.sum(BUFFER)


def test_storing_into_a_numpy_array_explains_zeros_like():
    with pytest.raises(ValueError) as info:
        s2sgrad.grad(store_into_numpy_array)(np.ones(3))
    assert isinstance(info.value.__cause__, TracedValueError)
    assert line_of(store_into_numpy_array, 1) in str(info.value.__cause__)


def uniques(x):
    return np.sum(np.unique(x) * x)


@pytest.mark.parametrize("f, name", [
    (uniques, "numpy.unique"),
    (lambda x: np.sum(np.linalg.lstsq(x, x)[0]), "numpy.linalg.lstsq"),
    (lambda x: np.sum(np.convolve(x[0], x[1])), "numpy.convolve"),
    (lambda x: np.sum(np.add(x, x, out=x)), r"numpy.add\(..., out=...\)"),
    (lambda x: np.sum(np.where(x > 0)), "numpy.where\\(condition\\) with one argument"),
    (lambda x: np.sum(x[x > 0]), "indexing with a boolean mask computed from traced values.*np.where"),
    (lambda x: np.sum(np.add.reduceat(x, [0])), "numpy.add.reduceat"),
])
def test_unsupported_numpy_is_not_implemented_and_named(f, name):
    with pytest.raises(NotImplementedError, match=f"s2sgrad cannot trace {name}"):
        s2sgrad.grad(f)(np.eye(2))


def test_unsupported_error_names_the_users_line():
    source = r"`return np.sum\(np.unique\(x\) \* x\)`"
    with pytest.raises(NotImplementedError, match=rf"\(at {line_of(uniques)}: {source}\)"):
        s2sgrad.grad(uniques)(np.ones(3))
    assert "numpy.unique" not in s2sgrad.tracing.supported() and "numpy.einsum" in s2sgrad.tracing.supported()


def assign_into_view(x):
    y = x.copy()
    row = y[0]
    row[1] = 5.0           # NumPy: y changes too
    return np.sum(y * x)


def assign_with_live_view(x):
    y = x.copy()
    row = y[0]
    y[0, 1] = 5.0          # NumPy: row changes too
    return np.sum(row * x[1])


def assign_after_views_died(x):
    y = x.copy()
    total = np.sum(y[0]) + np.sum(y.T)
    y[0, 1] = 5.0
    return total + np.sum(y)


def assign_into_transposed_view(x):
    y = x.copy()
    t = y.T
    t[1] = 5.0
    return np.sum(y)


def assign_with_live_transposed_view(x):
    y = x.copy()
    t = y.T
    y[0, 1] = 5.0
    return np.sum(t)


def test_assignments_through_views_follow_numpys_aliasing():
    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    for f in (assign_into_view, assign_with_live_view):
        value, _ = s2sgrad.value_and_grad(f)(x)
        assert value == f(x)
    np.testing.assert_allclose(s2sgrad.grad(assign_into_view)(x), [[2, 5], [6, 8]])
    np.testing.assert_allclose(s2sgrad.grad(assign_with_live_view)(x), [[3, 0], [1, 5]])
    np.testing.assert_allclose(s2sgrad.grad(assign_after_views_died)(np.ones((2, 2))), [[3, 2], [2, 2]])


def test_assignments_that_would_depend_on_untracked_views_are_refused():
    made_at = line_of(assign_into_transposed_view, 2)
    with pytest.raises(NotImplementedError, match=rf"into this view.*made at {made_at}"):
        s2sgrad.grad(assign_into_transposed_view)(np.ones((2, 2)))
    made_at = line_of(assign_with_live_transposed_view, 2)
    with pytest.raises(NotImplementedError, match=rf"views of it are alive.*made at {made_at}"):
        s2sgrad.grad(assign_with_live_transposed_view)(np.ones((2, 2)))


def test_in_place_operators_follow_numpys_casting():
    def f(x, counts):
        counts += x
        return np.sum(x)

    with pytest.raises(TypeError, match="same_kind"):
        s2sgrad.grad(f)(np.ones(2), np.arange(2))


leaked = []


def leaks(x):
    leaked.append(x)
    return np.sum(x)


def uses_leaked(x):
    return np.sum(x * leaked[0])


def test_escaped_traced_values_are_detected():
    s2sgrad.grad(leaks)(np.ones(2))
    with pytest.raises(RuntimeError, match="another trace.*escape"):
        s2sgrad.grad(uses_leaked)(np.ones(2))


@pytest.mark.parametrize("f, error, message", [
    (lambda x: np.sum(x.reshape(4)), ValueError, "cannot reshape array of size 3 into shape"),
    (lambda x: x[3], IndexError, "index 3 is out of bounds for axis 0 with size 3"),
    (lambda x: x[0, 0], IndexError, "too many indices for array"),
    (lambda x: np.sum(x @ np.ones(2)), ValueError, "matmul: .*mismatch"),
    (lambda x: np.sum(x, axis=1), np.exceptions.AxisError, "axis 1 is out of bounds"),
    (lambda x: np.sum(x[np.array([0, 5])]), IndexError, "index 5 is out of bounds"),
    (lambda x: np.sum(np.stack([x, x[:2]])), ValueError, "same shape"),
])
def test_numpy_errors_keep_numpys_types(f, error, message):
    with pytest.raises(error, match=message):
        s2sgrad.grad(f)(np.ones(3))
