"""The decorator's API: wrt forms, caching per signature, result types, value_and_grad,
preserve_result, stop_gradients, unconnected_gradients, jacobian/hessian, nesting."""
from __future__ import annotations

import numpy as np
import pytest

import s2sgrad
from s2sgrad.tracing import GradientFunction


def loss(w, b, x, *, scale=1.0):
    return scale * np.sum(np.tanh(x @ w + b) ** 2)


@pytest.fixture
def data(rng):
    return rng.standard_normal((3, 2)), rng.standard_normal(2), rng.standard_normal((4, 3))


def _reference(w, b, x, scale=1.0):
    """Analytic gradients of ``loss``."""
    h = np.tanh(x @ w + b)
    d = scale * 2 * h * (1 - h ** 2)
    return x.T @ d, d.sum(axis=0), d @ w.T


# -- selecting arguments ----------------------------------------------------------------------------

def test_wrt_int_gives_one_gradient(data):
    np.testing.assert_allclose(s2sgrad.grad(loss)(*data), _reference(*data)[0])
    np.testing.assert_allclose(s2sgrad.grad(loss, 1)(*data), _reference(*data)[1])


def test_wrt_tuple_of_names_and_positions_gives_a_tuple(data):
    expected = _reference(*data)
    by_name = s2sgrad.grad(loss, wrt=("w", "b"))(*data)
    mixed = s2sgrad.grad(loss, wrt=(2, "w"))(*data)
    assert isinstance(by_name, tuple) and len(by_name) == 2
    np.testing.assert_allclose(by_name[0], expected[0])
    np.testing.assert_allclose(by_name[1], expected[1])
    np.testing.assert_allclose(mixed[0], expected[2])
    np.testing.assert_allclose(mixed[1], expected[0])
    single = s2sgrad.grad(loss, wrt=("b",))(*data)
    assert isinstance(single, tuple) and len(single) == 1


def test_keyword_only_default_and_keyword_arguments(data):
    w, b, x = data
    g_scale = s2sgrad.grad(loss, wrt="scale")(w, b, x, scale=2.0)
    assert isinstance(g_scale, np.float64)
    np.testing.assert_allclose(g_scale, np.sum(np.tanh(x @ w + b) ** 2))
    np.testing.assert_allclose(s2sgrad.grad(loss)(w, b=b, x=x, scale=3.0), _reference(w, b, x, 3.0)[0])


def test_var_positional_and_var_keyword_arguments():
    def f(*xs, **weights):
        return sum(weights[k] * np.sum(x ** 2) for k, x in zip(sorted(weights), xs, strict=True))

    xs = (np.array([1.0, 2.0]), np.array([3.0]))
    g = s2sgrad.grad(f, wrt=(1, "a"))(*xs, a=2.0, b=5.0)
    np.testing.assert_allclose(g[0], 2 * 5.0 * xs[1])
    np.testing.assert_allclose(g[1], 5.0)


def test_container_arguments_get_gradients_of_the_same_structure():
    def f(params, x):
        return np.sum(params["w"] * x) + params["b"][0] * params["b"][1]

    params = {"w": np.array([1.0, 2.0]), "b": (3.0, np.array(4.0))}
    g = s2sgrad.grad(f)(params, np.array([5.0, 6.0]))
    assert set(g) == {"w", "b"} and isinstance(g["b"], tuple)
    np.testing.assert_allclose(g["w"], [5.0, 6.0])
    assert g["b"] == (4.0, 3.0)


def test_decorator_forms(data):
    @s2sgrad.grad
    def plain(w, b, x):
        return loss(w, b, x)

    @s2sgrad.grad(wrt=("w", "b"))
    def both(w, b, x):
        """Docstring kept."""
        return loss(w, b, x)

    assert isinstance(plain, GradientFunction) and both.__name__ == "both" and both.__doc__ == "Docstring kept."
    np.testing.assert_allclose(plain(*data), _reference(*data)[0])
    np.testing.assert_allclose(both(*data)[1], _reference(*data)[1])


@pytest.mark.parametrize("wrt, error", [("nope", ValueError), (5, ValueError), (-1, TypeError), (1.5, TypeError),
                                        ((), ValueError), ((0, 0), ValueError), (True, TypeError)])
def test_bad_wrt(data, wrt, error):
    with pytest.raises(error, match="wrt"):
        s2sgrad.grad(loss, wrt)(*data)


def test_non_float_wrt_arguments_are_rejected():
    f = lambda x, n: np.sum(x * n)  # noqa: E731
    with pytest.raises(TypeError, match="argument 'n' = 3 .*int"):
        s2sgrad.grad(f, wrt=1)(np.ones(2), 3)
    with pytest.raises(TypeError, match="argument 'n' of dtype int64"):
        s2sgrad.grad(f, wrt=1)(np.ones(2), np.arange(2))


# -- caching ---------------------------------------------------------------------------------------

def test_compiled_once_per_signature():
    traces = []

    def f(x, n, c):
        traces.append((np.shape(x), n))
        return c * np.sum(x ** n)

    gf = s2sgrad.grad(f)
    gf(np.ones(3), 2, 1.0)
    gf(np.full(3, 2.0), 2, 5.0)                  # new values, same signature: no retrace
    assert len(traces) == 1
    np.testing.assert_allclose(gf(np.full(3, 2.0), 2, 5.0), [20.0] * 3)
    gf(np.ones(4), 2, 1.0)                       # new shape
    gf(np.ones(4, np.float32), 2, 1.0)           # new dtype
    gf(np.ones(4), 3, 1.0)                       # new value of a static (Python int) argument
    assert len(traces) == 4
    np.testing.assert_allclose(gf(np.full(4, 2.0), 3, 1.0), [12.0] * 4)
    assert len(traces) == 4 and len(gf._programs) == 4


def test_unhashable_static_argument_is_a_clear_error():
    with pytest.raises(TypeError, match="neither an array nor hashable"):
        s2sgrad.grad(lambda x, opts: np.sum(x))(np.ones(2), {1, 2})


# -- results ---------------------------------------------------------------------------------------

def test_result_types_follow_numpy():
    f = lambda x: np.sum(x * 2.0)  # noqa: E731
    g32 = s2sgrad.grad(f)(np.ones(3, np.float32))
    assert g32.dtype == np.float32
    v, g = s2sgrad.value_and_grad(lambda x: x * x)(3.0)
    assert type(v) is np.float64 and type(g) is np.float64 and g == 6.0
    v32, _ = s2sgrad.value_and_grad(f)(np.ones(3, np.float32))
    assert type(v32) is np.float32


def test_gradient_never_aliases_an_input():
    x, y = np.ones(3), np.arange(3.0)
    g = s2sgrad.grad(lambda x, y: np.sum(x * y))(x, y)
    np.testing.assert_allclose(g, y)
    g[0] = 99.0
    assert y[0] == 0.0


def test_value_and_grad_and_preserve_result(data):
    value, g = s2sgrad.value_and_grad(loss)(*data)
    assert value == pytest.approx(loss(*data))
    g2, value2 = s2sgrad.grad(loss, preserve_result=True)(*data)
    assert value2 == value
    np.testing.assert_allclose(g, g2)
    (gw, gb), value3 = s2sgrad.grad(loss, ("w", "b"), preserve_result=True)(*data)
    assert value3 == value and gb.shape == (2,)


def branch_shapes_differ(x):
    if x.sum() > 0:
        return x
    return np.sum(x)


def test_function_must_return_one_float_scalar():
    with pytest.raises(TypeError, match="must return a scalar, got an array of shape \\(2,\\)"):
        s2sgrad.grad(lambda x: x * 2)(np.ones(2))
    with pytest.raises(TypeError, match="must return a scalar, got an array of unknown rank"):
        s2sgrad.grad(branch_shapes_differ)(np.ones(3))
    with pytest.raises(TypeError, match="one array or number, got tuple"):
        s2sgrad.grad(lambda x: (np.sum(x), x))(np.ones(2))
    with pytest.raises(TypeError, match="floating-point result"):
        s2sgrad.grad(lambda x: np.argmax(x))(np.ones(2))


# -- stop_gradients and unconnected_gradients -----------------------------------------------------------

def test_stop_gradients_holds_arguments_constant(data):
    w, b, x = data
    # issue 16: a held argument gets zeros by default (JAX, autograd); None as tf.gradients gives on request
    gw, gb = s2sgrad.grad(loss, ("w", "b"), stop_gradients=("b",), unconnected_gradients="none")(*data)
    assert gb is None
    np.testing.assert_allclose(gw, _reference(*data)[0])
    gw, gb = s2sgrad.grad(loss, ("w", "b"), stop_gradients=("b",))(*data)
    np.testing.assert_array_equal(gb, np.zeros(2))
    np.testing.assert_allclose(gw, _reference(*data)[0])
    gw, gb = s2sgrad.grad(loss, ("w", "b"), stop_gradients=(1,), unconnected_gradients="zero")(*data)
    np.testing.assert_array_equal(gb, np.zeros(2))


def test_unconnected_gradients(data):
    f = lambda x, unused: np.sum(x ** 2)  # noqa: E731
    # issue 16: zeros are the default now (JAX, autograd); TF's None stays available with 'none'
    assert s2sgrad.grad(f, (0, 1), unconnected_gradients="none")(np.ones(2), np.ones(3))[1] is None
    zero = s2sgrad.grad(f, (0, 1), unconnected_gradients="zero")(np.ones(2), np.ones(3, np.float32))[1]
    assert zero.dtype == np.float32 and zero.shape == (3,) and not zero.any()
    default = s2sgrad.grad(f, (0, 1))(np.ones(2), np.ones(3, np.float32))[1]
    assert default.dtype == np.float32 and default.shape == (3,) and not default.any()
    assert s2sgrad.grad(lambda x: 3.0, unconnected_gradients="none")(2.0) is None
    assert s2sgrad.grad(lambda x: 3.0)(2.0) == 0.0
    assert s2sgrad.grad(lambda x: 3.0, unconnected_gradients=s2sgrad.UnconnectedGradients.ZERO)(2.0) == 0.0
    with pytest.raises(ValueError, match="unconnected_gradients"):
        s2sgrad.grad(f, unconnected_gradients="zeros")


# -- jacobian, hessian, nesting --------------------------------------------------------------------------

def test_jacobian_shapes_and_values(rng):
    m = rng.standard_normal((2, 3))
    f = lambda x: np.tanh(m @ x)  # noqa: E731
    x = rng.standard_normal(3)
    jac = s2sgrad.jacobian(f)(x)
    assert jac.shape == (2, 3)
    np.testing.assert_allclose(jac, (1 - np.tanh(m @ x)[:, None] ** 2) * m)
    outer = s2sgrad.jacobian(lambda a, b: a[:, None] * b, wrt=(0, 1))(np.ones(2), np.arange(3.0))
    assert outer[0].shape == (2, 3, 2) and outer[1].shape == (2, 3, 3)
    np.testing.assert_allclose(outer[0][:, :, 0], [[0, 1, 2], [0, 0, 0]])
    np.testing.assert_allclose(s2sgrad.jacobian(lambda x: np.sum(x ** 2))(x), 2 * x)


def test_hessian_of_quadratic_and_blocks(rng):
    a = rng.standard_normal((3, 3))
    x = rng.standard_normal(3)
    np.testing.assert_allclose(s2sgrad.hessian(lambda x: x @ a @ x)(x), a + a.T, atol=1e-12)
    blocks = s2sgrad.hessian(lambda x, y: np.sum(x ** 2 * y), wrt=(0, 1))(x, 2.0)
    np.testing.assert_allclose(blocks[0][0], 4 * np.eye(3))
    np.testing.assert_allclose(blocks[0][1], 2 * x)
    assert blocks[1][1] == 0.0  # d/dy of sum(x**2) is unconnected: zeros by default (issue 16)
    np.testing.assert_allclose(blocks[1][0], 2 * x)
    none = s2sgrad.hessian(lambda x, y: np.sum(x ** 2 * y), wrt=(0, 1), unconnected_gradients="none")(x, 2.0)
    assert none[1][1] is None  # as in tf.gradients


def test_hessian_matches_finite_differences_of_the_gradient(rng):
    from numpy_corpus import rosenbrock
    x = rng.standard_normal(4)
    gradient = s2sgrad.grad(rosenbrock)
    eps = 1e-6
    numeric = np.stack([(gradient(x + eps * e) - gradient(x - eps * e)) / (2 * eps) for e in np.eye(4)], axis=1)
    np.testing.assert_allclose(s2sgrad.hessian(rosenbrock)(x), numeric, rtol=1e-5, atol=1e-4)


def test_nested_transformations():
    cube = lambda x: x ** 3  # noqa: E731
    assert s2sgrad.grad(cube)(3.0) == 27.0
    assert s2sgrad.grad(s2sgrad.grad(cube))(3.0) == 18.0
    assert s2sgrad.grad(s2sgrad.grad(s2sgrad.grad(cube)))(3.0) == 6.0
    f = lambda x: np.sum(np.sin(x) * x[::-1])  # noqa: E731
    x = np.linspace(-1, 1, 4)
    np.testing.assert_allclose(s2sgrad.jacobian(s2sgrad.grad(f))(x), s2sgrad.hessian(f)(x))


def test_value_and_grad_inside_a_traced_function():
    def outer(x):
        value, g = s2sgrad.value_and_grad(lambda y: np.sum(y ** 2))(x)
        return value + np.sum(g)

    np.testing.assert_allclose(s2sgrad.grad(outer)(np.array([1.0, 2.0])), [4.0, 6.0])


def test_wrt_naming_one_argument_twice(data):
    with pytest.raises(ValueError, match="names argument 'w' twice"):
        s2sgrad.grad(loss, wrt=(0, "w"))(*data)
    with pytest.raises(TypeError, match="expects a function"):
        s2sgrad.grad(3)


def test_numpy_ufuncs_can_be_differentiated_directly():
    """A ufunc's signature has keyword-only defaults (dtype=, signature=) NumPy refuses to get back."""
    x = np.array([0.1, 0.2])
    np.testing.assert_allclose(s2sgrad.grad(np.sin)(0.5), np.cos(0.5))
    np.testing.assert_allclose(s2sgrad.jacobian(np.sin)(x), np.diag(np.cos(x)))
    assert s2sgrad.grad(np.tanh)(np.float32(0.3)).dtype == np.float32
