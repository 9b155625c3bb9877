"""Python containers of traced values, arrays filled in place, and NumPy's aliasing of views.

Every function runs as plain NumPy too: values must equal NumPy's, gradients central finite
differences (float64). Several are Tangent-style: loops, branches on Python values, lists built
up and turned into arrays, arrays allocated with np.zeros/np.empty and filled element by element."""
import numpy as np
import pytest

import s2sgrad
from s2sgrad.tracing import TracedValueError

X = np.array([0.3, -0.7, 1.1])
M = np.array([[0.5, -1.2], [0.8, 0.1], [-0.3, 0.9]])
DATA = np.array([1.0, -2.0, 0.5])   # a global NumPy array the functions read


def numeric_gradient(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in range(x.size):
        step = np.zeros_like(x)
        step.flat[i] = eps
        g.flat[i] = (f(x + step) - f(x - step)) / (2 * eps)
    return g


def check(f, x):
    value, g = s2sgrad.value_and_grad(f)(x)
    np.testing.assert_allclose(value, f(x), rtol=1e-12)
    assert g.shape == x.shape and g.dtype == x.dtype
    np.testing.assert_allclose(g, numeric_gradient(f, x), rtol=1e-6, atol=1e-8)


# -- containers ------------------------------------------------------------------------------------

def array_of_scalars(x):
    return np.sum(np.array([x[0], 2.0, x[1] * x[2]]) ** 2)


def nested_lists_and_tuples(x):
    return np.sum(np.array([[x[0], 1.0], (x[1] * 2, x[0] * x[2])]) * np.array([[1.0, 2.0], [3.0, 4.0]]))


def asarray_forms(x):
    a = np.asarray([x, x ** 2])
    b = np.asarray(x)           # a traced array as it is
    c = np.array(x, dtype=np.float64, ndmin=2)
    return np.sum(a[1] * b) + np.sum(c) + np.sum(np.ascontiguousarray([x[0], x[2]]))


def reductions_of_lists(x):
    return (np.sum([x[0], x[1], 3.0]) + np.mean([x, x * 2], axis=0)[1] + np.max([x[0], x[2]])
            + np.prod((x[1], x[2])) + np.dot([x[0], x[1]], [x[1], x[2]]) + np.sum(np.abs(np.array([x[1], -x[2]]))))


def concatenators(x):
    r = np.r_[x, 1.0, x[:2] * 2, 0:2]
    c = np.c_[x, x ** 2, DATA]
    return np.sum(r * np.arange(r.size)) + np.sum(c @ np.array([1.0, -1.0, 0.5]))


def lists_to_joining_functions(x):
    parts = [x[:1], [5.0], x[1:] * 3]
    return np.sum(np.concatenate(parts) ** 2) + np.sum(np.stack([x, DATA, x * x], axis=1)[1])


def list_building_loop(x):
    """Tangent-style: a list grown in a loop with a branch on the (Python) index."""
    terms = []
    for i in range(4):
        if i % 2 == 0:
            terms.append(np.sin(x * i))
        else:
            terms.append([x[0] * i, x[1], x[2] ** 2])
    return np.sum(np.array(terms) ** 2) + np.sum(terms[1])


# -- filling pre-allocated arrays ---------------------------------------------------------------------

def fill_rows_in_loop(x):
    out = np.zeros((4, 3))
    out[0] = x
    for i in range(1, 4):
        out[i] = np.tanh(out[i - 1]) * 0.5 + x * i
    return np.sum(out ** 2)


def fill_elements_with_branches(x):
    """Tangent-style: np.empty filled element by element, the branch on a Python value."""
    n = x.size
    out = np.empty(n * 2)
    for i in range(n):
        if i % 2:
            out[2 * i] = x[i] ** 2
        else:
            out[2 * i] = np.exp(x[i])
        out[2 * i + 1] = x[i] * x[(i + 1) % n]
    return np.sum(out * np.arange(1.0, 2 * n + 1))


def fill_slices_and_masks(x):
    out = np.ones((3, 4))
    out[:, 0] = x
    out[1, 1:3] = x[:2] * 2
    out[out == 1.0] = 0.5          # the mask from known values (the ones not yet written): NumPy's result
    rows = np.zeros(3, dtype=bool)
    rows[2] = True
    out[rows] = out[0] * x[2]      # a boolean mask built as a NumPy array
    out[[0, 2], 3] = x[1]          # integer array indices
    return np.sum(out * np.arange(12.0).reshape(3, 4))


def fill_like_and_full(x):
    a = np.zeros_like(DATA)        # like a NumPy array: filled with traced values below
    a[1] = x[0]
    b = np.full(3, x[1])           # a traced fill value
    c = np.full((2,), 4.0)
    c[0] = x[2]
    d = np.zeros_like(x)
    d.fill(x[2])
    d[2] = x[0] * x[1]
    return np.sum(a * b) + np.sum(c ** 2) + np.sum(d * x) + np.sum(np.eye(3) @ x)


def in_place_operators_on_slices(x):
    out = np.zeros((2, 3))
    out[0] += x
    out[1, 1:] -= x[:2] ** 2
    out *= 2.0
    out[:, 2] /= 1.0 + x[0] ** 2
    return np.sum(out * np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))


def known_values_stay_usable(x):
    """An array made with np.zeros keeps NumPy's behaviour while no traced value is written into it."""
    index = np.zeros(2, dtype=int)
    index[1] = 2
    counts = np.zeros(3)
    counts[1] = 1.0
    counts[2:] = [4.0]
    scale = float(counts[1]) + len(counts) + counts.tolist()[1]
    return np.sum(x[index]) * scale + np.sum(np.cumsum(counts) * x)


def recurrence_with_matrix_filling(w):
    """Tangent-style RNN: hidden states written into a pre-allocated matrix row by row."""
    steps, hidden = 4, 2
    states = np.zeros((steps + 1, hidden))
    inputs = np.linspace(0.0, 1.0, steps * 3).reshape(steps, 3)
    for t in range(steps):
        states[t + 1] = np.tanh(inputs[t] @ w + states[t] * 0.5)
    return np.sum(states[1:] ** 2) + np.sum(states[-1])


@pytest.mark.parametrize("f", [array_of_scalars, nested_lists_and_tuples, asarray_forms, reductions_of_lists,
                               concatenators, lists_to_joining_functions, list_building_loop, fill_rows_in_loop,
                               fill_elements_with_branches, fill_slices_and_masks, fill_like_and_full,
                               in_place_operators_on_slices, known_values_stay_usable],
                         ids=lambda f: f.__name__)
def test_containers_and_filling_match_numpy_and_finite_differences(f):
    check(f, X)


def test_a_recurrence_filling_a_matrix():
    check(recurrence_with_matrix_filling, M)


def test_np_array_dtypes_follow_numpys():
    def f(x):
        a = np.array([x[0], 1], dtype=np.float32)
        assert a.dtype == np.float32 and np.array([x[0], 1]).dtype == np.float64
        return np.sum(a.astype(np.float64) * 2.0)
    np.testing.assert_allclose(s2sgrad.grad(f)(X), [2.0, 0.0, 0.0])


def test_constructors_outside_a_trace_are_numpys():
    s2sgrad.grad(array_of_scalars)(X)
    assert type(np.zeros(2)) is np.ndarray and np.array([1, 2]).dtype == np.int64
    assert np.zeros.__module__ == "numpy" and np.sum([1, 2]) == 3 and np.r_[1, 2].tolist() == [1, 2]


def fill_in_traced_branches(x):
    """An `if` on a traced value (converted to the graph's If) whose branches write into `out`."""
    out = np.zeros((2, 3))
    if np.sum(x) > 0:
        out[0] = x * 2
        out[1, :2] = out[0, 1:] ** 2
    else:
        out[1] = np.exp(x)
    return np.sum(out * np.arange(6.0).reshape(2, 3))


def fill_in_traced_loop(x):
    """A `while` on a traced value (the graph's While) updating elements in place."""
    out = np.zeros(3)
    while np.sum(out) < 4.0:
        out[0] = out[0] + x[0] ** 2
        out[1:] += x[1:] * 0.5
    return np.sum(out ** 2)


@pytest.mark.parametrize("x", [X, -X], ids=["then", "else"])
def test_filling_inside_traced_control_flow(x):
    check(fill_in_traced_branches, x)
    check(fill_in_traced_loop, np.abs(x) + 0.4)


# -- views and in-place changes: NumPy's aliasing -----------------------------------------------------------

def view_sees_later_writes(x):
    out = np.zeros((3, 2))
    v = out[1:]                    # a view of rows 1 and 2
    out[2] = x[:2]                 # v sees it (NumPy: the same memory)
    w = v * 1.0
    v[0, 1] = x[2] ** 2            # and out sees this
    return np.sum(w * out[1:]) + np.sum(out[1] * 3) + np.sum(v)


def strided_views(x):
    out = np.zeros(6)
    out[::2] = x[0]
    odd = out[1::2]
    odd[:] = x[1:] @ np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    out[-1] = np.cos(x[0])         # odd[2] is this element
    return np.sum(odd * out[1::2]) + np.prod(out[:3]) + np.sum(odd[::-1][:2] * x[1:])


def view_of_view(x):
    out = np.ones((3, 3))
    block = out[1:, 1:]
    corner = block[1:, 1:]
    corner[0, 0] = x[0]            # out[2, 2]
    out[1, 1] = x[1] * 2           # block[0, 0]
    block[:, 0] *= x[2]            # out[1:, 1]
    return np.sum(out * np.arange(9.0).reshape(3, 3)) + np.sum(block) + corner[0, 0]


def disjoint_views_stay(x):
    out = np.zeros((4, 3))
    for i in range(4):
        previous = out[i - 1] if i else x  # a live view of another row while row i is written
        out[i] = previous * 0.5 + x
    return np.sum(out ** 2)


@pytest.mark.parametrize("f", [view_sees_later_writes, strided_views, view_of_view, disjoint_views_stay],
                         ids=lambda f: f.__name__)
def test_views_follow_numpys_aliasing(f):
    check(f, X)


def reshaped_view_written(x):
    out = np.zeros((2, 3))
    flat = out.reshape(-1)
    flat[1] = x[0]
    return np.sum(out)


def write_while_transposed_view_lives(x):
    out = np.zeros((2, 3))
    t = out.T
    out[0, 0] = x[0]
    return np.sum(t)


def test_views_whose_elements_are_not_tracked_are_refused_naming_view_and_line():
    line = reshaped_view_written.__code__.co_firstlineno
    with pytest.raises(NotImplementedError, match=rf"into this view \(at test_decorator_containers.py:{line + 3}.*"
                                                  rf"made at test_decorator_containers.py:{line + 2}"):
        s2sgrad.grad(reshaped_view_written)(X)
    line = write_while_transposed_view_lives.__code__.co_firstlineno
    with pytest.raises(NotImplementedError, match=rf"views of it are alive \(at test_decorator_containers.py:"
                                                  rf"{line + 3}.*made at test_decorator_containers.py:{line + 2}"):
        s2sgrad.grad(write_while_transposed_view_lives)(X)


def test_values_are_still_unknown_after_a_traced_write():
    def f(x):
        out = np.zeros(3)
        out[0] = x[0]
        return float(out[1])
    with pytest.raises(TracedValueError, match="Python float"):
        s2sgrad.grad(f)(X)


def test_string_directives_of_r_are_refused():
    with pytest.raises(NotImplementedError, match="string directive"):
        s2sgrad.grad(lambda x: np.sum(np.r_["0,2", x, x]))(X)
