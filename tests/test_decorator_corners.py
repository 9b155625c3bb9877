"""The gradients at NumPy's corners (ties, equal values, non-differentiable points) that
docs/decorator.md's table promises: the exact numbers, and autograd's where the table says
"autograd's" (when autograd is installed)."""
from __future__ import annotations

import numpy as np
import pytest

import s2sgrad

X = np.array([1.0, 3.0, 3.0, 2.0])
W = np.arange(4.0)

# (name, make(numpy_module) -> function, input, expected gradient, autograd agrees)
CORNERS = [
    ("max-ties", lambda np: lambda x: np.max(x), X, [0.0, 0.5, 0.5, 0.0], True),
    ("min-ties", lambda np: lambda x: np.min(x[1:3]), X, [0.0, 0.5, 0.5, 0.0], True),
    ("sort-equal-values", lambda np: lambda x: np.sum(np.sort(x) * W), X, [0.0, 2.0, 3.0, 1.0], True),
    ("partition-equal-values", lambda np: lambda x: np.sum(np.partition(x, 1) * W), X, [0.0, 2.0, 3.0, 1.0], True),
    ("abs-at-zero", lambda np: lambda x: np.sum(np.abs(x - 3.0)), X, [-1.0, 0.0, 0.0, -1.0], True),
    ("power-zero-exponent", lambda np: lambda x: np.sum(np.power(x - 1.0, 0.0)), X, [0.0] * 4, True),
    ("std-of-one-element", lambda np: lambda x: np.std(x[0]), X, [0.0] * 4, True),
    ("std-axis-of-length-1", lambda np: lambda x: np.sum(np.std(np.reshape(x, (4, 1)), axis=1)), X, [0.0] * 4, True),
    ("std-of-equal-values", lambda np: lambda x: np.std(x[1:3]), X, [0.0] * 4, False),  # autograd: NaN
    ("nan_to_num", lambda np: lambda x: np.sum(np.nan_to_num(x) * (W + 1)), np.array([1.0, np.inf, np.nan, -np.inf]),
     [1.0, 0.0, 0.0, 0.0], True),
    ("sinc-at-zero", lambda np: lambda x: np.sum(np.sinc(x - 1.0)), X, None, False),
    ("prod-through-zero", lambda np: lambda x: np.prod(x - 1.0), X, [4.0, 0.0, 0.0, 0.0], False),
    ("cumprod-through-zero", lambda np: lambda x: np.sum(np.cumprod(x - 1.0)), X, [11.0, 0.0, 0.0, 0.0], False),
]


@pytest.mark.parametrize("name, make, x, expected, _", CORNERS, ids=[c[0] for c in CORNERS])
def test_corner_gradient(name, make, x, expected, _):
    g = s2sgrad.grad(make(np), unconnected_gradients="zero")(x)
    assert np.all(np.isfinite(g)), f"{name}: {g}"
    if expected is not None:
        np.testing.assert_allclose(g, expected, atol=1e-12)


def test_sinc_at_zero_is_zero_and_exact_elsewhere():
    g = s2sgrad.grad(lambda x: np.sum(np.sinc(x)))(np.array([0.0, 0.5]))
    assert g[0] == 0.0
    np.testing.assert_allclose(g[1], (np.cos(np.pi / 2) * np.pi / 2 - 1.0) / (np.pi * 0.25))


AGREED = [c for c in CORNERS if c[4]]


@pytest.mark.parametrize("name, make, x, expected, _", AGREED, ids=[c[0] for c in AGREED])
def test_autograd_gives_the_same(name, make, x, expected, _):
    autograd = pytest.importorskip("autograd")
    anp = pytest.importorskip("autograd.numpy")
    np.testing.assert_allclose(autograd.grad(make(anp))(x), s2sgrad.grad(make(np))(x), atol=1e-12)
