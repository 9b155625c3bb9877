"""The gradients at NumPy's corners (ties, equal values, non-differentiable points) that
docs/decorator.md's table promises: the exact numbers, and autograd's where the table says
"autograd's" (when autograd is installed). Graph mode keeps TensorFlow's rules at the same points."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import s2sgrad
import s2sgrad as tf

X = np.array([1.0, 3.0, 3.0, 2.0])
X2 = np.array([1.0, 3.0, 2.5, 2.0])
Z = np.array([0.0, 1.0, -1.0, 0.0])
M = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]])
W = np.arange(4.0)
NAN = np.array([1.0, np.nan, 2.0])
NO_RULE = False  # autograd has no rule here (or none for this argument kind): the number is s2sgrad's own

# (name, make(numpy_module) -> function, input, expected gradient, autograd agrees)
CORNERS = [
    ("max-ties", lambda np: lambda x: np.max(x), X, [0.0, 0.5, 0.5, 0.0], True),
    ("min-ties", lambda np: lambda x: np.min(x[1:3]), X, [0.0, 0.5, 0.5, 0.0], True),
    ("max-axis-ties", lambda np: lambda x: np.sum(np.max(x, axis=1) * np.array([1.0, 2.0])), M,
     [[0.0, 0.5, 0.5], [1.0, 1.0, 0.0]], True),
    ("amin-axis0", lambda np: lambda x: np.sum(np.amin(x, axis=0) * np.array([1.0, 2.0, 3.0])), M,
     [[1.0, 0.0, 0.0], [0.0, 2.0, 3.0]], True),
    ("amax-keepdims-ties", lambda np: lambda x: np.sum(np.amax(x, axis=1, keepdims=True) * np.array([[1.0], [2.0]])),
     M, [[0.0, 0.5, 0.5], [1.0, 1.0, 0.0]], True),
    ("max-tuple-axes", lambda np: lambda x: np.max(x, axis=(0, 1)), M, [[0.0, 0.5, 0.5], [0.0, 0.0, 0.0]], True),
    ("ptp-ties", lambda np: lambda x: np.sum(np.ptp(x, axis=1)), M, [[-1.0, 0.5, 0.5], [0.5, 0.5, -1.0]], NO_RULE),
    ("nanmax-ties", lambda np: lambda x: np.nanmax(x), np.array([np.nan, 3.0, 3.0, 1.0]), [0.0, 0.5, 0.5, 0.0],
     NO_RULE),
    ("maximum.reduce-ties", lambda np: lambda x: np.maximum.reduce(x), X, [0.0, 0.5, 0.5, 0.0], NO_RULE),
    # each step is np.maximum: [1, 3, 3, 3] takes x1, then half of x1 and half of x2, then that pair again
    ("maximum.accumulate-ties", lambda np: lambda x: np.sum(np.maximum.accumulate(x) * W), X,
     [0.0, 3.5, 2.5, 0.0], NO_RULE),
    ("maximum-tie", lambda np: lambda x: np.sum(np.maximum(x, 3.0)), X, [0.0, 0.5, 0.5, 0.0], True),
    ("maximum-tie-both-traced", lambda np: lambda x: np.sum(np.maximum(x[:2], x[1:3])), X, [0.0, 1.5, 0.5, 0.0], True),
    ("minimum-tie", lambda np: lambda x: np.sum(np.minimum(x, 3.0)), X, [1.0, 0.5, 0.5, 1.0], True),
    ("fmax-tie", lambda np: lambda x: np.sum(np.fmax(x, 3.0)), X, [0.0, 0.5, 0.5, 0.0], True),
    ("fmin-tie", lambda np: lambda x: np.sum(np.fmin(x, 2.0)), X, [1.0, 0.0, 0.0, 0.5], True),
    ("maximum-nan", lambda np: lambda x: np.sum(np.maximum(x, 1.5)), NAN, [0.0, 0.0, 1.0], True),
    ("fmax-nan", lambda np: lambda x: np.sum(np.fmax(x, np.nan)), NAN, [1.0, 0.0, 1.0], True),
    ("clip-at-bounds", lambda np: lambda x: np.sum(np.clip(x, 2.0, 3.0) * W), X2, [0.0, 0.0, 2.0, 0.0], True),
    ("clip-one-bound", lambda np: lambda x: np.sum(np.clip(x, None, 2.0)), X, [1.0, 0.0, 0.0, 0.0], True),
    ("clip-nan", lambda np: lambda x: np.sum(np.clip(x, 0.0, 1.5)), NAN, [1.0, 1.0, 0.0], True),
    ("sort-equal-values", lambda np: lambda x: np.sum(np.sort(x) * W), X, [0.0, 2.0, 3.0, 1.0], True),
    ("sort-2d-equal-values", lambda np: lambda x: np.sum(np.sort(x, axis=1) * np.arange(3.0)), M,
     [[0.0, 1.0, 2.0], [1.0, 2.0, 0.0]], NO_RULE),
    ("partition-equal-values", lambda np: lambda x: np.sum(np.partition(x, 1) * W), X, [0.0, 2.0, 3.0, 1.0], True),
    ("argsort-gather-equal-values", lambda np: lambda x: np.sum(x[np.argsort(x)] * W), X, [0.0, 2.0, 3.0, 1.0], True),
    ("argmax-gather-ties", lambda np: lambda x: x[np.argmax(x)], X, [0.0, 1.0, 0.0, 0.0], True),
    ("median-even-count", lambda np: lambda x: np.median(x), X2, [0.0, 0.0, 0.5, 0.5], NO_RULE),
    ("median-ties", lambda np: lambda x: np.median(x[:3]), X, [0.0, 1.0, 0.0, 0.0], NO_RULE),
    ("quantile-ties", lambda np: lambda x: np.quantile(x, 0.5, method="midpoint"), X, [0.0, 0.5, 0.0, 0.5], NO_RULE),
    ("where", lambda np: lambda x: np.sum(np.where(x > 2, x, 2 * x)), X, [2.0, 1.0, 1.0, 2.0], True),
    ("abs-at-zero", lambda np: lambda x: np.sum(np.abs(x - 3.0)), X, [-1.0, 0.0, 0.0, -1.0], True),
    ("fabs-at-zero", lambda np: lambda x: np.sum(np.fabs(x)), Z, [0.0, 1.0, -1.0, 0.0], True),
    ("sign-at-zero", lambda np: lambda x: np.sum(np.sign(x) * x), Z, [0.0, 1.0, -1.0, 0.0], True),
    ("floor-ceil-round-rint-trunc-fix", lambda np: lambda x: np.sum(np.floor(x) + np.ceil(x) + np.round(x)
                                                                     + np.rint(x) + np.trunc(x) + np.fix(x) + x),
     X2 - 0.5, [1.0] * 4, True),
    ("mod-at-jumps", lambda np: lambda x: np.sum(np.mod(x, 1.5) + np.remainder(3.0, x)), X,
     [-2.0, 0.0, 0.0, 0.0], True),
    ("fmod-at-jumps", lambda np: lambda x: np.sum(np.fmod(x - 2.0, 1.0)), X, [1.0] * 4, NO_RULE),
    ("heaviside-at-zero", lambda np: lambda x: np.sum(np.heaviside(x, 0.5) * x), Z, [0.5, 1.0, 0.0, 0.5], NO_RULE),
    ("power-zero-exponent", lambda np: lambda x: np.sum(np.power(x - 1.0, 0.0)), X, [0.0] * 4, True),
    ("power-at-zero", lambda np: lambda x: np.sum(np.power(x, 1.0) + np.power(x, 2.0) + x ** 3), Z,
     [1.0, 6.0, 2.0, 1.0], True),
    ("power-of-zero-base", lambda np: lambda y: np.sum(np.power(0.0, y) + np.power(y * 0.0, y)),
     np.array([1.0, 2.0, 0.0]), [0.0, 0.0, 0.0], True),
    ("power-negative-base-exponent", lambda np: lambda y: np.sum(np.power(-2.0, y)), np.array([1.0, 2.0]),
     [0.0, 0.0], False),  # autograd: NaN (log of a negative base)
    ("logaddexp-tie", lambda np: lambda x: np.sum(np.logaddexp(x, 3.0)), X, None, True),
    ("logaddexp2-tie", lambda np: lambda x: np.sum(np.logaddexp2(x, 3.0)), X, None, True),
    ("std-of-one-element", lambda np: lambda x: np.std(x[0]), X, [0.0] * 4, True),
    ("std-axis-of-length-1", lambda np: lambda x: np.sum(np.std(np.reshape(x, (4, 1)), axis=1)), X, [0.0] * 4, True),
    ("std-of-equal-values", lambda np: lambda x: np.std(x[1:3]), X, [0.0] * 4, False),  # autograd: NaN
    ("var-of-one-element", lambda np: lambda x: np.var(x[:1]), X, [0.0] * 4, True),
    ("nan_to_num", lambda np: lambda x: np.sum(np.nan_to_num(x) * (W + 1)), np.array([1.0, np.inf, np.nan, -np.inf]),
     [1.0, 0.0, 0.0, 0.0], True),
    ("nan-functions-at-nans", lambda np: lambda x: np.nansum(x) + np.nanmean(x) + np.nanmedian(x),
     np.array([np.nan, 1.0, 3.0, 2.0]), [0.0, 4 / 3, 4 / 3, 7 / 3], NO_RULE),
    ("norm-inf-ties", lambda np: lambda x: np.linalg.norm(x, ord=np.inf), X, [0.0, 0.5, 0.5, 0.0], False),  # NaN
    ("sinc-at-zero", lambda np: lambda x: np.sum(np.sinc(x - 1.0)), X, None, False),  # autograd: NaN
    ("prod-through-zero", lambda np: lambda x: np.prod(x - 1.0), X, [4.0, 0.0, 0.0, 0.0], False),  # autograd: NaN
    ("cumprod-through-zero", lambda np: lambda x: np.sum(np.cumprod(x - 1.0)), X, [11.0, 0.0, 0.0, 0.0], NO_RULE),
]

# Corners where the derivative is infinite or undefined: the same inf/NaN as autograd (expected: exact)
INFINITE = [
    ("sqrt-at-zero", lambda np: lambda x: np.sum(np.sqrt(x)), np.array([0.0, 4.0]), [np.inf, 0.25], True),
    ("sqrt-of-square-at-zero", lambda np: lambda x: np.sum(np.sqrt(x * x)), Z, [np.nan, 1.0, -1.0, np.nan], True),
    ("log-at-zero", lambda np: lambda x: np.sum(np.log(x)), np.array([0.0, 4.0]), [np.inf, 0.25], True),
    ("reciprocal-at-zero", lambda np: lambda x: np.sum(1.0 / x), np.array([0.0, 2.0]), [-np.inf, -0.25], True),
    ("arcsin-arccosh-arctanh-at-1", lambda np: lambda x: np.arcsin(x[0]) + np.arccosh(x[1]) + np.arctanh(x[2]),
     np.array([1.0, 1.0, 1.0]), [np.inf, np.inf, np.inf], True),
    ("cbrt-at-zero", lambda np: lambda x: np.sum(np.cbrt(x)), np.array([0.0, 8.0]), [np.inf, 1 / 12], NO_RULE),
    ("hypot-at-zero", lambda np: lambda x: np.sum(np.hypot(x, 0.0)), np.array([0.0, -2.0]), [np.nan, -1.0], True),
    ("norm-at-zero", lambda np: lambda x: np.linalg.norm(x - x), X, [np.nan] * 4, True),
    ("x-log-x-at-zero", lambda np: lambda x: np.sum(x * np.log(x)), np.array([0.0, 1.0]), [np.nan, 1.0], True),
    ("power-half-at-zero", lambda np: lambda x: np.sum(np.power(x * x, 0.5)), Z, [np.nan, 1.0, -1.0, np.nan], True),
    ("logaddexp-of-minus-infinities", lambda np: lambda x: np.sum(np.logaddexp(x * -np.inf, -np.inf)),
     np.array([1.0]), [np.nan], True),
]


def _grad(make, x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return s2sgrad.grad(make(np), unconnected_gradients="zero")(x)


@pytest.mark.parametrize("name, make, x, expected, _", CORNERS, ids=[c[0] for c in CORNERS])
def test_corner_gradient(name, make, x, expected, _):
    g = _grad(make, x)
    assert np.all(np.isfinite(g)), f"{name}: {g}"
    if expected is not None:
        np.testing.assert_allclose(g, expected, atol=1e-12)


@pytest.mark.parametrize("name, make, x, expected, _", INFINITE, ids=[c[0] for c in INFINITE])
def test_infinite_or_undefined_derivative(name, make, x, expected, _):
    np.testing.assert_allclose(_grad(make, x), expected, atol=1e-12)


def test_sinc_at_zero_is_zero_and_exact_elsewhere():
    g = s2sgrad.grad(lambda x: np.sum(np.sinc(x)))(np.array([0.0, 0.5]))
    assert g[0] == 0.0
    np.testing.assert_allclose(g[1], (np.cos(np.pi / 2) * np.pi / 2 - 1.0) / (np.pi * 0.25))


def test_clip_bounds_get_the_gradient_beyond_them_and_none_at_them():
    x = np.array([0.0, 1.0, 2.5, 3.0, 4.0])
    gx, lo, hi = s2sgrad.grad(lambda x, lo, hi: np.sum(np.clip(x, lo, hi) * np.arange(5.0)),
                              argnums=(0, 1, 2))(x, 1.0, 3.0)
    np.testing.assert_array_equal(gx, [0.0, 0.0, 2.0, 0.0, 0.0])
    assert (lo, hi) == (0.0, 4.0)  # x[0] is below lo, x[4] above hi; x[1] and x[3] are at the bounds


def test_values_are_numpys_at_the_corners():
    x = np.array([np.nan, 3.0, -0.0, 0.0, np.inf, 2.0, np.nan, -1.0])
    y = np.array([1.0, 3.0, 0.0, -0.0, np.nan, 5.0, 2.0, -1.0])
    for f in (np.maximum, np.minimum, np.fmax, np.fmin, lambda a, b: np.clip(a, -0.5, b), np.fmod, np.heaviside,
              lambda a, b: np.sort(a), lambda a, b: np.argsort(a), lambda a, b: np.partition(a, 3),
              lambda a, b: np.argpartition(a, (1, 5)), lambda a, b: np.cbrt(a)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            _, value = s2sgrad.grad(lambda a, b, f=f: (np.sum(a), f(a, b)), has_aux=True)(x, y)
            np.testing.assert_array_equal(value, f(x, y))


def test_fmod_keeps_the_sign_of_a_zero_dividend():
    x = np.array([-0.0, 0.0, -0.0, -2.0, 2.0, -0.25])
    y = np.array([1.0, -1.0, np.inf, 1.0, -1.0, 1.0])
    value, grad = s2sgrad.value_and_grad(lambda a: (np.sum(np.fmod(a, y) ** 2), np.fmod(a, y)), has_aux=True)(x)
    fmod = value[1]
    np.testing.assert_array_equal(fmod, np.fmod(x, y))
    np.testing.assert_array_equal(np.signbit(fmod), np.signbit(np.fmod(x, y)))   # -0.0 is NumPy's -0.0
    np.testing.assert_array_equal(grad, 2 * np.fmod(x, y))


@pytest.mark.parametrize("f", [np.nanargmax, np.nanargmin])
def test_nanargmax_of_an_all_nan_slice_is_numpys_value_error(f):
    x = np.array([[np.nan, 1.0], [np.nan, np.nan], [2.0, np.nan]])
    run = s2sgrad.grad(lambda a, axis: (np.sum(a * a), f(a, axis=axis)), has_aux=True)
    np.testing.assert_array_equal(run(x, 0)[1], f(x, axis=0))
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        f(x, axis=1)
    with pytest.raises(s2sgrad.errors.InvalidArgumentError, match="ValueError: All-NaN slice encountered") as info:
        run(x, 1)
    assert isinstance(info.value.__cause__, ValueError)   # NumPy's own error, as every run-time error: its cause


def test_graph_mode_keeps_tensorflows_rules_at_ties_and_bounds():
    with tf.Graph().as_default():
        x = tf.constant([1.0, 3.0, 2.0], tf.float64)
        outs = tf.gradients(tf.reduce_sum(tf.maximum(x, 3.0) + tf.minimum(x, 1.0) + tf.clip_by_value(x, 1.0, 2.5)), x)
        with tf.Session() as sess:
            (g,) = sess.run(outs)
    # x = 1: not the maximum, all of minimum(1, 1) and of the clip at its bound; x = 3: all of maximum(3, 3)
    np.testing.assert_array_equal(g, [0.0 + 1.0 + 1.0, 1.0 + 0.0 + 0.0, 0.0 + 0.0 + 1.0])


AGREED = [c for c in CORNERS + INFINITE if c[4]]


@pytest.mark.parametrize("name, make, x, expected, _", AGREED, ids=[c[0] for c in AGREED])
def test_autograd_gives_the_same(name, make, x, expected, _):
    autograd = pytest.importorskip("autograd")
    anp = pytest.importorskip("autograd.numpy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        theirs = autograd.grad(make(anp))(x)
    np.testing.assert_allclose(theirs, _grad(make, x), atol=1e-12)
