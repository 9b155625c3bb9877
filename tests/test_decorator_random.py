"""Randomness stays live in decorated functions (issue 16): every call draws from the stream NumPy
would use, in the function's order; seeded functions repeat plain NumPy; the gradient treats draws
as constants; the generated code shows the draws."""
import re
import threading

import numpy as np
import pytest

import s2sgrad
from conftest import central_differences

X = np.linspace(-1.0, 1.0, 12).reshape(3, 4)


def dropout_loss(x, rng):
    mask = rng.uniform(size=x.shape) < 0.5
    return np.sum((x * mask) ** 2) + np.sum(x * rng.normal(size=x.shape))


def dropout_gradient(x, rng):  # by hand: the mask and the noise are constants
    mask = rng.uniform(size=x.shape) < 0.5
    return 2 * x * mask + rng.normal(size=x.shape)


# -- a Generator passed as an argument -------------------------------------------------------------

def test_seeded_generator_argument_gives_what_numpy_gives_call_after_call():
    g = s2sgrad.grad(dropout_loss)
    ours, theirs = np.random.default_rng(3), np.random.default_rng(3)
    for _ in range(3):
        np.testing.assert_array_equal(g(X, ours), dropout_gradient(X, theirs))
    # the stream was advanced exactly as NumPy advances it
    assert ours.standard_normal() == theirs.standard_normal()


def test_two_calls_draw_different_numbers():
    g = s2sgrad.grad(dropout_loss)
    rng = np.random.default_rng()
    assert not np.array_equal(g(X, rng), g(X, rng))


def test_value_is_the_functions_value_with_the_same_draws():
    vg = s2sgrad.value_and_grad(dropout_loss)
    value, gradient = vg(X, np.random.default_rng(11))
    assert value == pytest.approx(dropout_loss(X, np.random.default_rng(11)), rel=1e-12)
    np.testing.assert_array_equal(gradient, dropout_gradient(X, np.random.default_rng(11)))


def test_gradient_through_a_mask_treats_the_mask_as_a_constant():
    def f(x, rng):
        return np.sum(np.tanh(x * (rng.uniform(size=x.shape) < 0.5)))
    expected = central_differences(lambda x: f(x, np.random.default_rng(5)), X)
    np.testing.assert_allclose(s2sgrad.grad(f)(X, np.random.default_rng(5)), expected, atol=1e-8)


def test_draws_happen_in_the_functions_order_even_when_used_in_another():
    def f(x, rng):
        a = rng.normal(size=3)
        b = rng.uniform(size=3)
        c = rng.integers(0, 10, size=3)
        return np.sum(c * x) + np.sum(b * x * 2.0) + np.sum(a * x * 3.0)
    rng = np.random.default_rng(8)
    a, b, c = rng.normal(size=3), rng.uniform(size=3), rng.integers(0, 10, size=3)
    np.testing.assert_allclose(s2sgrad.grad(f)(np.ones(3), np.random.default_rng(8)), c + 2 * b + 3 * a)


def test_a_draw_the_gradient_does_not_need_is_still_drawn():
    def f(x, rng):
        noise = rng.normal(size=x.shape)   # d/dx of sum(x + noise) needs no noise
        return np.sum(x + noise) + np.sum(x * rng.uniform(size=x.shape))
    rng = np.random.default_rng(2)
    rng.normal(size=X.shape)
    np.testing.assert_array_equal(s2sgrad.grad(f)(X, np.random.default_rng(2)), 1 + rng.uniform(size=X.shape))


def test_generated_source_shows_the_draw():
    source = s2sgrad.grad(dropout_loss).source(X, np.random.default_rng(0))
    assert re.search(r"def run\(.*\brng\b.*\):", source)
    assert "rng.uniform(size=(3, 4))" in source and "rng.normal(size=(3, 4))" in source


def test_random_state_argument_and_its_legacy_methods():
    def f(x, rs):
        return np.sum(x * rs.randn(*x.shape)) + np.sum(x * rs.randint(0, 5, size=x.shape)) + \
            np.sum(x * rs.binomial(3, 0.5, size=x.shape))
    rs = np.random.RandomState(4)
    expected = rs.randn(*X.shape) + rs.randint(0, 5, size=X.shape) + rs.binomial(3, 0.5, size=X.shape)
    np.testing.assert_array_equal(s2sgrad.grad(f)(X, np.random.RandomState(4)), expected)


@pytest.mark.parametrize("method, args, kwargs", [
    ("normal", (1.0, 2.0), {"size": (2, 3)}),
    ("uniform", (), {"low": -1.0, "high": 3.0, "size": 6}),
    ("integers", (0, 7), {"size": (2, 3)}),
    ("choice", (5,), {"size": 6, "p": [0.1, 0.2, 0.3, 0.2, 0.2]}),
    ("permutation", (6,), {}),
    ("binomial", (10, 0.3), {"size": 6}),
    ("poisson", (3.0,), {"size": 6}),
    ("exponential", (2.0,), {"size": 6}),
    ("gamma", (2.0, 1.5), {"size": 6}),
    ("beta", (2.0, 3.0), {"size": 6}),
    ("standard_normal", ((2, 3),), {}),
    ("random", (6,), {}),
    ("laplace", (0.0, 1.0, 6), {}),
    ("multivariate_normal", ([0.0, 1.0], [[1.0, 0.5], [0.5, 2.0]]), {"size": 3}),
])
def test_generator_methods_draw_what_numpy_draws(method, args, kwargs):
    def f(x, rng):
        return np.sum(x * getattr(rng, method)(*args, **kwargs).reshape(-1))
    expected = getattr(np.random.default_rng(9), method)(*args, **kwargs).reshape(-1)
    x = np.ones(expected.size)
    np.testing.assert_array_equal(s2sgrad.grad(f)(x, np.random.default_rng(9)), expected)


def test_traced_parameters_are_inputs_of_the_draw_and_get_no_gradient():
    def f(mu, rng):
        return np.sum(rng.normal(mu, 2.0) * 3.0) + np.sum(mu)
    mu = np.arange(4.0)
    vg = s2sgrad.value_and_grad(f)
    value, g = vg(mu, np.random.default_rng(1))
    assert value == pytest.approx(f(mu, np.random.default_rng(1)))
    np.testing.assert_array_equal(g, np.ones(4))


def test_permutation_and_choice_of_a_traced_array_differentiate_as_indexing():
    def f(x, rng):
        return np.sum(np.arange(1.0, 7.0) * rng.permutation(x)) + np.sum(rng.choice(x, 3) ** 2)
    x = np.linspace(0.5, 3.0, 6)
    expected = central_differences(lambda x: f(x, np.random.default_rng(6)), x)
    np.testing.assert_allclose(s2sgrad.grad(f)(x, np.random.default_rng(6)), expected, atol=1e-7)


def test_shuffle_in_place_is_refused_with_the_way_out():
    def f(x, rng):
        rng.shuffle(x)
        return np.sum(x)
    with pytest.raises(NotImplementedError, match=r"shuffles its argument in place.*permutation"):
        s2sgrad.grad(f)(X, np.random.default_rng())
    with pytest.raises(NotImplementedError, match=r"np\.random\.shuffle"):
        s2sgrad.grad(lambda x: np.random.shuffle(x) or np.sum(x))(X)


# -- NumPy's global stream and streams made inside the function --------------------------------------

def test_legacy_functions_draw_from_numpys_global_stream_every_call():
    def f(x):
        return np.sum(x * np.random.normal(size=x.shape)) + np.sum(x * np.random.rand(*x.shape)) + \
            np.sum(x * np.random.randint(0, 3, size=x.shape)) + np.sum(x * np.random.choice(4, size=x.shape))
    g = s2sgrad.grad(f)
    np.random.seed(12)
    ours = [g(X), g(X)]
    np.random.seed(12)
    for gradient in ours:
        expected = np.random.normal(size=X.shape) + np.random.rand(*X.shape) + \
            np.random.randint(0, 3, size=X.shape) + np.random.choice(4, size=X.shape)
        np.testing.assert_allclose(gradient, expected, rtol=1e-14)  # (the sums' order differs)
    assert not np.array_equal(ours[0], ours[1])
    assert "np.random.normal(size=(3, 4))" in g.source(X)


def test_seeding_inside_the_function_repeats_like_numpy():
    def f(x):
        np.random.seed(0)
        return np.sum(x * np.random.uniform(size=x.shape))
    g = s2sgrad.grad(f)
    np.random.seed(0)
    expected = np.random.uniform(size=X.shape)
    np.testing.assert_array_equal(g(X), expected)
    np.testing.assert_array_equal(g(X), expected)
    assert "np.random.seed(0)" in g.source(X)


def test_default_rng_made_inside_the_function():
    def seeded(x):
        rng = np.random.default_rng(42)
        return np.sum(x * rng.normal(size=x.shape))

    def fresh(x):
        rng = np.random.default_rng()
        return np.sum(x * rng.normal(size=x.shape))
    g = s2sgrad.grad(seeded)
    expected = np.random.default_rng(42).normal(size=X.shape)
    np.testing.assert_array_equal(g(X), expected)
    np.testing.assert_array_equal(g(X), expected)
    assert "rng = np.random.default_rng(42)" in g.source(X)
    f = s2sgrad.grad(fresh)
    assert not np.array_equal(f(X), f(X))
    rs = s2sgrad.grad(lambda x: np.sum(x * np.random.RandomState(1).randn(*x.shape)))
    np.testing.assert_array_equal(rs(X), np.random.RandomState(1).randn(*X.shape))


def test_numpys_functions_are_back_after_the_trace_and_other_threads_draw_as_usual():
    original = np.random.normal
    seen = {}

    def other_thread():
        seen["value"] = np.random.normal()

    def f(x):
        t = threading.Thread(target=other_thread)
        t.start()
        t.join()
        return np.sum(x * np.random.normal(size=x.shape))
    s2sgrad.grad(f)(X)
    assert isinstance(seen["value"], float)
    assert np.random.normal is original


# -- streams in globals and closure cells -------------------------------------------------------------

GLOBAL_RNG = np.random.default_rng(0)


def _uses_global_rng(x):
    return np.sum(x * GLOBAL_RNG.normal(size=x.shape))


def test_a_global_generator_is_read_on_every_call():
    global GLOBAL_RNG
    g = s2sgrad.grad(_uses_global_rng)
    GLOBAL_RNG = np.random.default_rng(21)
    reference = np.random.default_rng(21)
    np.testing.assert_array_equal(g(X), reference.normal(size=X.shape))
    np.testing.assert_array_equal(g(X), reference.normal(size=X.shape))
    GLOBAL_RNG = np.random.default_rng(22)   # rebound: the new stream is the one drawn from
    np.testing.assert_array_equal(g(X), np.random.default_rng(22).normal(size=X.shape))
    assert "global_rng.normal(size=(3, 4))" in g.source(X)


def test_a_closure_generator_is_read_on_every_call():
    rng = np.random.default_rng(30)

    def f(x):
        return np.sum(x * rng.uniform(size=x.shape))
    g = s2sgrad.grad(f)
    reference = np.random.default_rng(30)
    np.testing.assert_array_equal(g(X), reference.uniform(size=X.shape))
    np.testing.assert_array_equal(g(X), reference.uniform(size=X.shape))


def test_a_generator_read_by_a_called_function_is_refused_not_frozen():
    def noise(shape):
        return GLOBAL_RNG.normal(size=shape)

    with pytest.raises(NotImplementedError, match="GLOBAL_RNG.*pass the Generator as an argument"):
        s2sgrad.grad(lambda x: np.sum(x * noise(x.shape)))(X)


# -- with the other transformations ---------------------------------------------------------------------

def test_jacobian_hessian_and_nested_grad_with_draws():
    def f(x, rng):
        return np.sum(x ** 3 * rng.uniform(size=x.shape))
    u = np.random.default_rng(4).uniform(size=3)
    x = np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(s2sgrad.hessian(f)(x, np.random.default_rng(4)), np.diag(6 * x * u))
    np.testing.assert_allclose(s2sgrad.jacobian(lambda x, rng: x * rng.uniform(size=x.shape))(
        x, np.random.default_rng(4)), np.diag(u))
    second = s2sgrad.grad(lambda x, rng: np.sum(s2sgrad.grad(f)(x, rng)))
    np.testing.assert_allclose(second(x, np.random.default_rng(4)), 6 * x * u)
