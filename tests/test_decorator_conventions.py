"""JAX's calling conventions beside s2sgrad's own (issue 16): argnums, has_aux, jacfwd/jacrev,
zeros for arguments the result does not depend on, pytrees of arguments and gradients."""
import collections

import numpy as np
import pytest

import s2sgrad
from conftest import central_differences

W = np.array([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]])
B = np.array([0.1, -0.2])
XS = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])


def loss(w, b, x):
    return np.sum(np.tanh(x @ w + b) ** 2)


def test_argnums_is_wrt_by_position():
    gw = s2sgrad.grad(loss, argnums=0)(W, B, XS)
    np.testing.assert_allclose(gw, central_differences(lambda w: loss(w, B, XS), W), atol=1e-8)
    both = s2sgrad.grad(loss, argnums=(0, 1))(W, B, XS)
    assert isinstance(both, tuple) and len(both) == 2
    np.testing.assert_allclose(both[1], central_differences(lambda b: loss(W, b, XS), B), atol=1e-8)
    as_list = s2sgrad.grad(loss, argnums=[0, 1])(W, B, XS)
    np.testing.assert_array_equal(as_list[0], both[0])
    decorated = s2sgrad.grad(argnums=1)(loss)
    np.testing.assert_array_equal(decorated(W, B, XS), both[1])


def test_argnums_refuses_names_and_wrt_together():
    with pytest.raises(TypeError, match="argnums takes argument positions"):
        s2sgrad.grad(loss, argnums="w")
    with pytest.raises(TypeError, match="wrt= or argnums="):
        s2sgrad.grad(loss, wrt=1, argnums=0)


def test_has_aux_returns_the_aux_next_to_the_gradient():
    def f(w, b, x):
        h = np.tanh(x @ w + b)
        return np.sum(h ** 2), {"hidden": h, "note": "aux", "count": 3}
    gw, aux = s2sgrad.grad(f, has_aux=True)(W, B, XS)
    np.testing.assert_allclose(gw, s2sgrad.grad(loss)(W, B, XS))
    np.testing.assert_allclose(aux["hidden"], np.tanh(XS @ W + B))
    assert aux["note"] == "aux" and aux["count"] == 3
    (value, aux), (gw2, gb2) = s2sgrad.value_and_grad(f, argnums=(0, 1), has_aux=True)(W, B, XS)
    assert value == pytest.approx(loss(W, B, XS))
    np.testing.assert_array_equal(gw2, gw)
    np.testing.assert_allclose(aux["hidden"], np.tanh(XS @ W + B))
    jac, aux = s2sgrad.jacobian(lambda x: (x ** 2, x.sum()), has_aux=True)(np.array([1.0, 2.0]))
    np.testing.assert_allclose(jac, np.diag([2.0, 4.0]))
    assert aux == 3.0


def test_has_aux_needs_a_pair():
    with pytest.raises(TypeError, match=r"has_aux=True the function must return a pair"):
        s2sgrad.grad(lambda x: np.sum(x), has_aux=True)(np.ones(2))


def test_has_aux_inside_another_trace():
    inner = s2sgrad.grad(lambda x: (np.sum(x ** 3), x * 2), has_aux=True)
    outer = s2sgrad.grad(lambda x: np.sum(inner(x)[0] * inner(x)[1]))
    x = np.array([0.5, -1.0])
    np.testing.assert_allclose(outer(x), central_differences(lambda x: np.sum(3 * x ** 2 * 2 * x), x), atol=1e-6)


def test_jacfwd_and_jacrev_are_the_jacobian():
    f = lambda x: np.sin(x) * x[::-1]  # noqa: E731
    x = np.array([0.3, -0.7, 1.1])
    expected = np.stack([central_differences(lambda x, i=i: f(x)[i], x) for i in range(3)])
    for transform in (s2sgrad.jacfwd, s2sgrad.jacrev, s2sgrad.jacobian):
        np.testing.assert_allclose(transform(f)(x), expected, atol=1e-8)


def test_unconnected_arguments_get_zeros_unless_none_is_asked_for():
    f = lambda x, unused, k: np.sum(x ** 2)  # noqa: E731
    gx, gu = s2sgrad.grad(f, argnums=(0, 1))(np.ones(2), np.ones((2, 3), np.float32), 3)
    assert gu.shape == (2, 3) and gu.dtype == np.float32 and not gu.any()
    assert s2sgrad.grad(f, argnums=(0, 1), unconnected_gradients="none")(np.ones(2), np.ones(3), 3)[1] is None
    tree = s2sgrad.grad(lambda p: np.sum(p["a"] ** 2))({"a": np.ones(2), "b": np.ones(3)})
    np.testing.assert_array_equal(tree["b"], np.zeros(3))


Params = collections.namedtuple("Params", ["w", "b"])


def test_pytrees_of_arguments_and_gradients():
    params = {"layers": [(W, B), (W[:2], B)], "scale": np.array(2.0)}

    def f(p, x):
        h = x
        for w, b in p["layers"]:
            h = np.tanh(h @ w + b)
        return np.sum(h) * p["scale"]
    g = s2sgrad.grad(f)(params, XS)
    assert set(g) == {"layers", "scale"} and isinstance(g["layers"], list) and isinstance(g["layers"][0], tuple)
    for i in range(2):
        for j in range(2):
            def at(v, i=i, j=j):
                layers = [list(layer) for layer in params["layers"]]
                layers[i][j] = v
                return f({"layers": [tuple(layer) for layer in layers], "scale": params["scale"]}, XS)
            np.testing.assert_allclose(g["layers"][i][j], central_differences(at, params["layers"][i][j]),
                                       atol=1e-7)
    np.testing.assert_allclose(g["scale"], f(params, XS) / 2.0)
    named = s2sgrad.grad(lambda p, x: loss(p.w, p.b, x))(Params(W, B), XS)
    assert isinstance(named, Params)
    np.testing.assert_allclose(named.b, central_differences(lambda b: loss(W, b, XS), B), atol=1e-8)
