"""NumPy semantics, property-tested: indexing (basic and advanced, negative indices and steps,
out-of-range slices), NumPy 2 dtype promotion with weak Python scalars, and reductions over
any axes. Each property compares with NumPy running the same function."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import s2sgrad

shapes = st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple)


@st.composite
def basic_keys(draw, shape):
    items = []
    for d in shape[:draw(st.integers(0, len(shape)))]:
        kind = draw(st.sampled_from(["int", "slice", "newaxis"]))
        if kind == "int":
            items.append(draw(st.integers(-d, d - 1)))
        elif kind == "slice":
            bound = st.none() | st.integers(-d - 2, d + 2)
            step = st.none() | st.integers(-3, 3).filter(lambda s: s != 0)
            items.append(slice(draw(bound), draw(bound), draw(step)))
        else:
            items += [None, slice(None)]
    if draw(st.booleans()):  # anywhere when it stands for no axes, else last (so the items keep their axes)
        full = sum(i is not None for i in items) == len(shape)
        items.insert(draw(st.integers(0, len(items))) if full else len(items), Ellipsis)
    return tuple(items)


@st.composite
def advanced_keys(draw, shape):
    items = []
    for d in shape:
        kind = draw(st.sampled_from(["array", "array", "int", "slice"]))
        if kind == "array":
            items.append(np.array(draw(st.lists(st.integers(-d, d - 1), min_size=1, max_size=3))))
        elif kind == "int":
            items.append(draw(st.integers(-d, d - 1)))
        else:
            items.append(slice(draw(st.none() | st.integers(0, d)), None))
    arrays = [i for i in items if isinstance(i, np.ndarray)]
    if not arrays or len({a.shape for a in arrays}) > 1:
        n = len(arrays[0]) if arrays else 1
        items = [np.resize(i, n) if isinstance(i, np.ndarray) else i for i in items]
        if not arrays:
            items[0] = np.zeros(2, dtype=np.int64)
    return tuple(items)


def _check_indexing(x: np.ndarray, key: tuple, rng: np.random.Generator) -> None:
    expected = x[key]
    w = rng.standard_normal(expected.shape)
    value, g = s2sgrad.value_and_grad(lambda x: np.sum(w * x[key]))(x)
    np.testing.assert_allclose(value, np.sum(w * expected))
    reference = np.zeros_like(x)
    np.add.at(reference, key, w)
    np.testing.assert_allclose(g, reference, atol=1e-12)


@pytest.mark.parametrize("keys", [basic_keys, advanced_keys])
@given(data=st.data())
def test_indexing_is_numpys(keys, data):
    shape = data.draw(shapes)
    key = data.draw(keys(shape))
    rng = np.random.default_rng(len(shape))
    _check_indexing(rng.standard_normal(shape), key, rng)


operands = st.sampled_from([
    2.5, 3, True, np.float32(1.5), np.float64(0.5), np.int32(2),
    np.array([1, 2, 3], dtype=np.int32), np.array([1.5, 2.5, 3.5], dtype=np.float32), np.array([0.5, 1.0, 2.0]),
])
operations = st.sampled_from([np.add, np.subtract, np.multiply, np.true_divide, np.maximum, np.minimum,
                              np.power, np.arctan2, np.hypot, np.logaddexp])


@given(st.sampled_from([np.float32, np.float64, np.float16]), operands, operations, st.booleans())
def test_dtype_promotion_is_numpys(dtype, other, op, traced_first):
    x = np.array([0.25, 0.5, 0.75], dtype=dtype)

    def f(x):
        y = op(x, other) if traced_first else op(other, x)
        return np.sum(y * 2)

    value, g = s2sgrad.value_and_grad(f)(x)
    expected = f(x)
    assert np.result_type(value) == np.result_type(expected)
    np.testing.assert_allclose(value, expected, rtol=1e-2 if dtype == np.float16 else 1e-6)
    assert g.dtype == x.dtype


@given(st.sampled_from([1.5, 2, np.float32(2.0)]), st.sampled_from(["mul", "add", "pow", "div"]))
def test_weak_python_scalar_arguments(scalar, kind):
    def f(x, s):
        y = {"mul": x * s, "add": s + x, "pow": x ** s, "div": s / x}[kind]
        return np.sum(y)

    x = np.array([1.0, 2.0], dtype=np.float32)
    value, g = s2sgrad.value_and_grad(f)(x, scalar)
    assert np.result_type(value) == np.result_type(f(x, scalar))
    np.testing.assert_allclose(value, f(x, scalar), rtol=1e-6)


reductions = st.sampled_from([np.sum, np.mean, np.max, np.min, np.prod, np.std, np.var, np.ptp])


@given(shapes, reductions, st.booleans(), st.data())
def test_reductions_over_any_axes(shape, reduce, keepdims, data):
    ndim = len(shape)
    axis = data.draw(st.none() | st.integers(-ndim, ndim - 1) |
                     st.lists(st.integers(0, ndim - 1), unique=True, min_size=1).map(tuple))
    reduced = np.prod([shape[i] for i in range(ndim)] if axis is None else np.array(shape)[list(np.atleast_1d(axis))])
    assume(not (reduce is np.std and reduced == 1))  # sqrt at 0: its derivative is infinite, as in every AD tool
    rng = np.random.default_rng(ndim)
    x = rng.standard_normal(shape) + 2.0
    w = rng.standard_normal(np.shape(reduce(x, axis=axis, keepdims=keepdims)))

    def f(x):
        return np.sum(w * reduce(x, axis=axis, keepdims=keepdims))

    value, g = s2sgrad.value_and_grad(f)(x)
    np.testing.assert_allclose(value, f(x), rtol=1e-10)
    eps = 1e-6
    numeric = np.zeros_like(x)
    for i in np.ndindex(*shape):
        step = np.zeros_like(x)
        step[i] = eps
        numeric[i] = (f(x + step) - f(x - step)) / (2 * eps)
    np.testing.assert_allclose(g, numeric, rtol=1e-4, atol=1e-6)


@given(st.lists(st.integers(1, 3), min_size=1, max_size=3), st.data())
def test_broadcasting_gradients_sum_back(dims, data):
    y_shape = tuple(d if data.draw(st.booleans()) else 1 for d in dims)[data.draw(st.integers(0, len(dims))):]
    rng = np.random.default_rng(len(dims))
    x, y = rng.standard_normal(tuple(dims)), rng.standard_normal(y_shape)
    gx, gy = s2sgrad.grad(lambda x, y: np.sum(np.sin(x * y) + y), (0, 1))(x, y)
    prod = np.cos(x * y)
    np.testing.assert_allclose(gx, prod * y)
    expected = prod * x + 1
    lead = expected.ndim - len(y_shape)
    expected = expected.sum(axis=tuple(range(lead)))
    expected = expected.sum(axis=tuple(i for i, d in enumerate(y_shape) if d == 1), keepdims=True)
    np.testing.assert_allclose(gy, expected)


def test_advanced_index_placement_examples():
    x = np.arange(24.0).reshape(2, 3, 4)
    for key in [(0, slice(None), [1, 2]), ([1, 0], slice(None), [1, 2]), (slice(None), [0, 2], [1, 3]),
                (slice(None), 1, [3, 0]), ([[1], [0]], [0, 2]), (Ellipsis, [0, 0, 3]), (None, [1], 0)]:
        _check_indexing(x, key, np.random.default_rng(0))
