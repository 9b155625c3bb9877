"""The decorator's smaller NumPy conveniences: every quantile method, NaN-ignoring quantiles, NumPy's own
sort and partition, ufuncs on lists of traced values, names imported from numpy before the trace,
``compress``/``extract`` with a constant condition and ``ufunc.at`` with repeated indices. Values are
compared with NumPy exactly, gradients with central differences in float64."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from numpy import exp, zeros  # bound before any trace: the decorator must still see these calls

import s2sgrad
from conftest import central_differences

R = np.random.default_rng(161)
METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]


def _value_and_grad(f, x):
    """f's traced value (as an aux result) and the gradient of sum(f * weights)."""
    weights = R.uniform(0.5, 1.5, np.shape(f(x)))
    g, value = s2sgrad.grad(lambda v: (np.sum(f(v) * weights), f(v)), has_aux=True)(x)
    return value, g, lambda v: np.sum(f(v) * weights)


def _check(f, x, exact=True):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        value, g, scalar = _value_and_grad(f, x)
        expected = f(x)
        if exact:
            np.testing.assert_array_equal(value, expected)
        else:
            np.testing.assert_allclose(value, expected, rtol=1e-13)
        np.testing.assert_allclose(g, central_differences(scalar, x), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("method", METHODS)
def test_every_quantile_method_gives_numpys_values(method):
    x = R.standard_normal((3, 8))
    _check(lambda v: np.quantile(v, [0.0, 0.1, 0.37, 0.5, 0.9, 1.0], axis=1, method=method), x)
    _check(lambda v: np.percentile(v, 42.0, method=method, keepdims=True), x)


def test_a_bad_quantile_method_is_numpys_error():
    x = R.standard_normal(6)
    with pytest.raises(ValueError, match="not a valid method"):
        s2sgrad.grad(lambda v: np.quantile(v, 0.3, method="cubic"))(x)


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint"])
def test_nan_quantiles_use_each_rows_numbers(method):
    x = R.standard_normal((4, 7))
    x[0, [1, 5]] = np.nan
    x[2, 0] = np.nan
    _check(lambda v: np.nanquantile(v, [0.0, 0.25, 0.5, 0.8, 1.0], axis=1, method=method), x)
    _check(lambda v: np.nanpercentile(v, 60, axis=0, method=method, keepdims=True), x)


def test_nan_quantiles_of_all_nan_rows_and_the_methods_they_refuse():
    x = np.array([[np.nan, np.nan], [1.0, 2.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        g, value = s2sgrad.grad(lambda v: (np.nansum(np.nanmedian(v, axis=1)), np.nanmedian(v, axis=1)),
                                has_aux=True)(x)
        np.testing.assert_array_equal(value, np.nanmedian(x, axis=1))
    np.testing.assert_array_equal(g, [[0.0, 0.0], [0.5, 0.5]])
    with pytest.raises(NotImplementedError, match="method='weibull'"):
        s2sgrad.grad(lambda v: np.sum(np.nanquantile(v, 0.5, method="weibull")))(x)


def test_sort_and_partition_are_numpys_own_calls():
    x = R.integers(0, 4, (5, 6)).astype(float)   # many equal values
    x[1, 2] = x[3, 0] = np.nan
    for f in (lambda v: np.sort(v, axis=0), lambda v: np.sort(v, axis=None), lambda v: np.partition(v, 2),
              lambda v: np.partition(v, [0, 3], axis=0), lambda v: np.argsort(v, axis=1),
              lambda v: np.argsort(v, axis=0, kind="stable"), lambda v: np.argpartition(v, -1)):
        _, value = s2sgrad.grad(lambda v, f=f: (np.sum(v), f(v)), has_aux=True)(x)
        np.testing.assert_array_equal(value, f(x))
    source = s2sgrad.grad(lambda v: np.sum(np.partition(v, 1) * np.arange(6.0))).source(x)
    assert "np.partition(v, (1,), axis=1)" not in source  # the gradient needs only the order:
    assert "np.argpartition(v, (1,), axis=1)" in source and "top_k" not in source


def test_partition_and_sort_gradients():
    x = R.standard_normal((4, 5))
    _check(lambda v: np.partition(v, (1, 3), axis=0), x)
    _check(lambda v: np.sort(v, axis=1)[:, :2], x)
    _check(lambda v: np.take_along_axis(v, np.argsort(v, axis=0), axis=0), x)


def test_ufuncs_take_lists_of_traced_values():
    x = R.standard_normal(3)
    _check(lambda v: np.add([v[0], v[1] * 2], 1.0), x, exact=False)
    _check(lambda v: np.exp([v[0], v[2]]), x, exact=False)
    _check(lambda v: np.maximum((v[0], v[1]), [0.0, v[2]]), x)
    _check(lambda v: np.multiply.outer([v[0], 1.0], [v[1], v[2]]), x)
    _check(lambda v: np.add.reduce([v, v * v]), x)


def _filled_with_prebound_zeros(v):
    out = zeros(3)
    for i in range(3):
        out[i] = v[i] * v[(i + 1) % 3]
    return out + exp([v[0], v[1], v[2]])


def test_names_imported_from_numpy_before_the_trace_are_seen():
    x = R.standard_normal(3)
    _check(_filled_with_prebound_zeros, x, exact=False)
    f = s2sgrad.grad(lambda v: np.sum(_filled_with_prebound_zeros(v)))
    f(x)
    f(x)
    assert len(f._programs) == 1   # the globals hold NumPy's own objects again after the trace: no re-trace
    assert zeros is np.zeros and exp is np.exp


def test_compress_and_extract_with_a_constant_condition():
    x = R.standard_normal((3, 4))
    _check(lambda v: np.compress([True, False, True], v, axis=0), x)
    _check(lambda v: v.compress([False, True, True, False, True]), x)
    _check(lambda v: np.extract(np.eye(3, 4, dtype=bool), v), x)
    with pytest.raises(NotImplementedError, match="compress with a traced condition"):
        s2sgrad.grad(lambda v: np.sum(np.compress(v[0] > 0, v, axis=1)))(x)
    with pytest.raises(IndexError):
        s2sgrad.grad(lambda v: np.sum(np.compress([True] * 4, v, axis=0)))(x)


def _multiply_at(index):
    def at(v):
        y = v * 1.0
        np.multiply.at(y, index, v[index] + 1.0)
        np.maximum.at(y, [3, 3, 9], v[:3])
        return y
    return at


def _summed(f):
    return s2sgrad.grad(lambda v: np.sum(f(v)))


def test_ufunc_at_with_repeated_indices_is_vectorized():
    x = R.uniform(0.5, 1.5, 50)
    index = np.r_[np.arange(40), np.arange(0, 40, 4), [7, 7]]   # 7 occurs three times
    _check(_multiply_at(index), x, exact=False)
    lines = [_summed(_multiply_at(i)).source(v).count("\n")
             for i, v in ((index, x), (np.r_[index, index + 50], np.tile(x, 2)))]
    # twice the indices (52 more): the same statements (a long constant may wrap onto one more line)
    assert lines[1] <= lines[0] + 3, "one statement per turn of distinct positions, not one per index"
