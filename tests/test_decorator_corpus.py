"""The decorator on a corpus of plain NumPy functions (``numpy_corpus.py``).

For every case: the value that ``value_and_grad`` computes equals what NumPy computes by
running the function itself (same dtype: float32 stays float32, Python floats are weak);
the gradient has the argument's shape and dtype and matches central finite differences of
the NumPy function, element by element; some cases also have an analytic gradient.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import numpy_corpus as c
import s2sgrad


@dataclasses.dataclass
class Case:
    f: Callable
    args: Callable[[np.random.Generator], tuple]
    wrt: Any = 0
    analytic: Callable | None = None   # (*args) -> expected gradient (a tuple for a tuple wrt)
    id: str = ""

    def __post_init__(self) -> None:
        self.id = self.id or self.f.__name__


def _normal(*shape: int, dtype: Any = np.float64) -> Callable:
    return lambda rng: rng.standard_normal(shape).astype(dtype)


def _args(*makers: Any) -> Callable:
    return lambda rng: tuple(m(rng) if callable(m) else m for m in makers)


def _onehot(rng: np.random.Generator) -> np.ndarray:
    return np.eye(3)[rng.integers(0, 3, size=4)]


def _softmax_xent_grad(logits: np.ndarray, labels: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True) - labels) / logits.shape[0]


def _logistic_grad(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return x.T @ (-y / (1 + np.exp(y * (x @ w)))) / len(y)


def _rosenbrock_grad(x: np.ndarray) -> np.ndarray:
    g = np.zeros_like(x)
    g[:-1] = -400 * x[:-1] * (x[1:] - x[:-1] ** 2) - 2 * (1 - x[:-1])
    g[1:] += 200 * (x[1:] - x[:-1] ** 2)
    return g


_signs = lambda rng: rng.choice([-1.0, 1.0], size=6)  # noqa: E731

CASES = [
    Case(c.sin_times_x, _args(_normal(5)), analytic=lambda x: np.sin(x) + x * np.cos(x)),
    Case(c.sin_times_x, _args(_normal(5, dtype=np.float32)), id="sin_times_x_float32"),
    Case(c.rosenbrock, _args(_normal(6)), analytic=_rosenbrock_grad),
    Case(c.elementwise_zoo, _args(_normal(5))),
    Case(c.powers, _args(_normal(5))),
    Case(c.row_normalize, _args(_normal(4, 3))),
    Case(c.moments, _args(_normal(4, 3))),
    Case(c.products, _args(_normal(4, 3))),
    Case(c.extremes, _args(_normal(4, 3))),
    Case(c.scans, _args(_normal(5))),
    Case(c.weighted_average, _args(_normal(4, 3))),
    Case(c.leaky_relu, _args(_normal(7)), analytic=lambda x: np.where(x > 0, 1.0, 0.1)),
    Case(c.relu_mix, _args(_normal(7))),
    Case(c.clipped, _args(_normal(7))),
    Case(c.log_add_exp, _args(_normal(5))),
    Case(c.finite_differences, _args(_normal(6))),
    Case(c.strided, _args(_normal(5))),
    Case(c.outer_slices, _args(_normal(5))),
    Case(c.gathers, _args(_normal(4, 3))),
    Case(c.masks, _args(_normal(5))),
    Case(c.take_rows, _args(_normal(4, 3))),
    Case(c.stacking, _args(_normal(5))),
    Case(c.reshaping, _args(_normal(4, 3))),
    Case(c.tiles_and_pads, _args(_normal(5))),
    Case(c.split_parts, _args(_normal(7))),
    Case(c.broadcasting, _args(_normal(4, 3), _normal(2, 3)), wrt=(0, 1)),
    Case(c.rbf_kernel, _args(_normal(4, 3))),
    Case(c.quadratic_form, _args(_normal(3), _normal(3, 3)), wrt=(0, 1),
         analytic=lambda x, m: ((m + m.T) @ x, np.outer(x, x))),
    Case(c.dots, _args(_normal(4)), analytic=lambda x: 4 * x + 2 * np.sum(x) + 4 * x),
    Case(c.traces, _args(_normal(4, 3))),
    Case(c.triangles, _args(_normal(3, 3)), analytic=lambda m: 2 * np.triu(np.ones((3, 3))) + 3 * np.tril(
        np.ones((3, 3)), -1)),
    Case(c.einsums, _args(_normal(4, 3), _normal(3, 3)), wrt=(0, 1)),
    Case(c.norms, _args(_normal(4, 3))),
    Case(c.batched_matmul, _args(_normal(4, 3))),
    Case(c.tensordot_sum, _args(_normal(3, 3), _normal(3)), wrt=(0, 1)),
    Case(c.torques, _args(_normal(4, 3), _normal(4, 3)), wrt=(0, 1)),
    Case(c.logistic_loss, _args(_normal(3), _normal(8, 3), lambda rng: rng.choice([-1.0, 1.0], 8)),
         analytic=_logistic_grad),
    Case(c.softmax_cross_entropy, _args(_normal(4, 3), _onehot), analytic=_softmax_xent_grad),
    Case(c.two_layer_mlp, _args(_normal(3, 4), _normal(4), _normal(4), _normal(5, 3), _normal(5)),
         wrt=("w1", "b1", "w2")),
    Case(c.two_layer_mlp, _args(_normal(3, 4, dtype=np.float32), _normal(4, dtype=np.float32),
                                _normal(4, dtype=np.float32), _normal(5, 3, dtype=np.float32),
                                _normal(5, dtype=np.float32)), wrt=(0, 2), id="two_layer_mlp_float32"),
    Case(c.attention, _args(_normal(2, 4), _normal(3, 4)), wrt=(0, 1)),
    Case(c.standardized, _args(_normal(6))),
    Case(c.classifier, _args(_normal(3), _normal(6, 3)), analytic=lambda w, x: x.T @ (
        2 * c.sigmoid(x @ w) ** 2 * (1 - c.sigmoid(x @ w)))),
    Case(c.unrolled_iteration, _args(_normal(4), 3)),
    Case(c.loop_over_rows, _args(_normal(4, 3)), analytic=lambda a: 2 * a),
    Case(c.shape_branches, _args(_normal(4, 3))),
    Case(c.scaled, _args(_normal(4), 0.25, 3), wrt=("x", "alpha"),
         analytic=lambda x, alpha, power: (3 * alpha * x ** 2, np.sum(x ** 3))),
    Case(c.python_float, _args(2.0), analytic=lambda x: 3 * x ** 2 + 2.0),
    Case(c.with_inplace_updates, _args(_normal(5))),
    Case(c.mixed_precision, _args(_normal(4, dtype=np.float32))),
    Case(c.float32_model, _args(_normal(3, 2, dtype=np.float32), _normal(5, 3, dtype=np.float32))),
]


def _as_tuple(value: Any, wrt: Any) -> tuple:
    return value if isinstance(wrt, tuple) else (value,)


def _positions(case: Case, args: tuple) -> list[int]:
    names = list(case.f.__code__.co_varnames[:case.f.__code__.co_argcount])
    return [w if isinstance(w, int) else names.index(w) for w in (case.wrt if isinstance(case.wrt, tuple)
                                                                  else (case.wrt,))]


def _finite_differences(f: Callable, args: tuple, position: int, eps: float = 1e-6) -> np.ndarray:
    """Central differences of the NumPy function itself, in float64, one element at a time."""
    wide = [np.asarray(a, np.float64) if isinstance(a, (np.ndarray, float)) else a for a in args]
    x = np.asarray(wide[position], np.float64)
    g = np.zeros(x.shape)
    for i in np.ndindex(*x.shape):
        step = np.zeros(x.shape)
        step[i] = eps
        up, down = list(wide), list(wide)
        up[position], down[position] = x + step, x - step
        g[i] = (float(f(*up)) - float(f(*down))) / (2 * eps)
    return g


def _tolerance(dtype: np.dtype) -> dict:
    return {"rtol": 2e-3, "atol": 2e-4} if dtype == np.float32 else {"rtol": 1e-5, "atol": 1e-6}


@pytest.fixture(params=CASES, ids=lambda case: case.id)
def case(request: Any) -> Case:
    return request.param


def test_corpus_is_large_enough():
    assert len({case.f for case in CASES}) >= 40


def test_value_is_numpys(case: Case):
    args = case.args(np.random.default_rng(1))
    value, _ = s2sgrad.value_and_grad(case.f, case.wrt)(*args)
    expected = case.f(*args)
    assert np.result_type(value) == np.result_type(expected), (value, expected)
    np.testing.assert_allclose(value, expected, **(_tolerance(np.result_type(expected)) | {"atol": 0}))


def test_gradient_matches_finite_differences(case: Case):
    args = case.args(np.random.default_rng(2))
    grads = _as_tuple(s2sgrad.grad(case.f, case.wrt)(*args), case.wrt)
    for g, position in zip(grads, _positions(case, args), strict=True):
        x = args[position]
        assert np.shape(g) == np.shape(x)
        assert np.result_type(g) == np.result_type(x if not isinstance(x, float) else np.float64)
        np.testing.assert_allclose(g, _finite_differences(case.f, args, position), **_tolerance(np.result_type(g)))


@pytest.mark.parametrize("case", [case for case in CASES if case.analytic], ids=lambda case: case.id)
def test_gradient_matches_analytic(case: Case):
    args = case.args(np.random.default_rng(3))
    grads = _as_tuple(s2sgrad.grad(case.f, case.wrt)(*args), case.wrt)
    for g, expected in zip(grads, _as_tuple(case.analytic(*args), case.wrt), strict=True):
        np.testing.assert_allclose(g, expected, rtol=1e-10, atol=1e-12)
