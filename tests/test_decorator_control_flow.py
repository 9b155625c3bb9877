"""The decorator on functions with Python control flow on traced values: the function's own
``if``/``elif``/``else``, ``while`` and ``for`` statements become graph control flow (real
blocks in the generated module); values and gradients against NumPy and finite differences."""
import re

import numpy as np
import pytest

import s2sgrad


def _fd(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[idx] = eps
        g[idx] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


def piecewise(x):
    if np.sum(x) > 0:
        y = np.sin(x) * 2.0
    elif np.sum(x) > -1:
        y = x * x
    else:
        y = -x
    return np.sum(y)


def early_exit(x):
    scale = 3.0
    if np.max(x) > 1.0:
        return np.sum(x ** 2) * scale
    return np.sum(np.exp(x))


def newton_sqrt(a):
    x = a
    i = 0
    while np.abs(x * x - a).max() > 1e-12 and i < 60:
        x = 0.5 * (x + a / x)
        i = i + 1
    return np.sum(x)


def clipped_steps(x, n):
    acc = 0.0
    for k in range(n):
        step = np.tanh(x * (k + 1))
        if np.sum(step) > 0.5:
            acc = acc + np.sum(step)
        else:
            acc = acc - np.sum(step * step)
    return acc


@pytest.mark.parametrize("x", [[1.0, 2.0], [-0.2, -0.3], [-2.0, -1.0]])
def test_if_elif_else_on_traced_values(x):
    x = np.array(x)
    value, grad = s2sgrad.value_and_grad(piecewise)(x)
    assert value == pytest.approx(piecewise(x))
    np.testing.assert_allclose(grad, _fd(piecewise, x), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("x", [[1.5, 0.2], [0.1, 0.3]])
def test_return_inside_branches(x):
    x = np.array(x)
    np.testing.assert_allclose(s2sgrad.grad(early_exit)(x), _fd(early_exit, x), rtol=1e-6)


def test_while_until_convergence():
    a = np.array([2.0, 9.0, 0.25])
    assert s2sgrad.value_and_grad(newton_sqrt)(a)[0] == pytest.approx(np.sum(np.sqrt(a)))
    np.testing.assert_allclose(s2sgrad.grad(newton_sqrt)(a), 0.5 / np.sqrt(a), rtol=1e-8)


def test_for_over_a_traced_range_with_a_branch_inside():
    x = np.array([0.3, -0.1, 0.2])
    n = np.array(4)
    g = s2sgrad.grad(clipped_steps, wrt=0)(x, n)
    np.testing.assert_allclose(g, _fd(lambda v: clipped_steps(v, 4), x), rtol=1e-6)
    assert s2sgrad.grad(clipped_steps, wrt=0)(x, np.array(0)).tolist() == [0.0, 0.0, 0.0]


def test_the_generated_module_has_the_blocks():
    text = s2sgrad.grad(newton_sqrt).source(np.array([2.0, 9.0]))
    body = text[text.index("def run"):]
    assert "    x, i = a, np.int64(0)" in body and "    while True:" in body and "x = 0.5 * (x + a / x)" in body
    assert "    for k in reversed(range(trips)):" in body
    text = s2sgrad.grad(piecewise).source(np.array([1.0, 2.0]))
    assert re.search(r"\n    if greater(_\d+)?:", text[text.index("def run"):])


def test_hessian_of_a_piecewise_function():
    x = np.array([0.5, 0.2])
    h = s2sgrad.hessian(piecewise)(x)
    np.testing.assert_allclose(h, np.diag(-2.0 * np.sin(x)), rtol=1e-8, atol=1e-12)


def test_control_flow_on_python_values_stays_python():
    def f(x, mode):
        if mode == "square":
            return np.sum(x * x)
        total = 0.0
        for _ in range(3):
            total = total + np.sum(x)
        return total

    x = np.array([1.0, 2.0])
    assert s2sgrad.grad(f)(x, "square").tolist() == [2.0, 4.0]
    assert s2sgrad.grad(f)(x, "sum").tolist() == [3.0, 3.0]
    assert "while" not in s2sgrad.grad(f).source(x, "sum")


def test_an_unconvertible_statement_names_the_construct_and_line():
    def with_break(x):
        while np.sum(x) < 10:
            x = x * 2
            if np.max(x) > 5:
                break
        return np.sum(x)

    with pytest.raises(TypeError, match=r"not this one: it has a `break` inside a `while` loop") as info:
        s2sgrad.grad(with_break)(np.array([1.0, 2.0]))
    assert "test_decorator_control_flow.py" in str(info.value)


def test_a_variable_assigned_in_one_branch_only():
    def one_sided(x):
        if np.sum(x) > 0:
            y = x * 2
        return np.sum(y)

    with pytest.raises(TypeError, match="`y` is assigned in only one branch"):
        s2sgrad.grad(one_sided)(np.array([1.0]))


def test_closures_and_globals_are_seen_by_the_converted_function():
    scale = np.array([2.0, 3.0])

    def f(x):
        if np.sum(x) > 0:
            return np.sum(np.sin(x) * scale)
        return np.sum(x * scale)

    x = np.array([0.4, 0.5])
    np.testing.assert_allclose(s2sgrad.grad(f)(x), np.cos(x) * scale)
    np.testing.assert_allclose(s2sgrad.grad(f)(-x), scale)


# -- a body of real functions with loops and branches --------------------------------------------------

def fixed_point(a):
    x = np.zeros_like(a)
    while np.max(np.abs(x - a * np.cos(x))) > 1e-13:
        x = a * np.cos(x)
    return np.sum(x)


def power_iteration(m, n):
    v = np.ones(m.shape[0]) / np.sqrt(m.shape[0])
    for _ in range(n):
        w = m @ v
        v = w / np.sqrt(np.sum(w * w))
    return v @ m @ v


def huber_of_mean(r):
    e = np.mean(r)
    if np.abs(e) < 1.0:
        return 0.5 * e * e
    elif e > 0:
        return e - 0.5
    else:
        return -e - 0.5


def descend(w, x, steps):
    i = 0
    loss = np.sum((x @ w - 1.0) ** 2)
    while loss > 1e-3 and i < steps:
        g = 2 * x.T @ (x @ w - 1.0)
        w = w - 0.05 * g
        loss = np.sum((x @ w - 1.0) ** 2)
        i = i + 1
    return loss


def softplus_counted(x, n):
    total = 0.0
    for k in range(n):
        if k % 2 == 0:
            total = total + np.sum(np.log1p(np.exp(x * k)))
        else:
            total = total - np.sum(x) * k
    return total


R = np.random.default_rng(3)
M = R.standard_normal((4, 4))
M = M @ M.T + np.eye(4)
X = R.standard_normal((5, 3)) * 0.3
CORPUS = [
    ("fixed_point", fixed_point, (np.array([0.5, 0.9, 0.2]),), 0),
    ("power_iteration", power_iteration, (M, np.array(30)), 0),
    ("huber_small", huber_of_mean, (np.array([0.1, 0.4]),), 0),
    ("huber_large", huber_of_mean, (np.array([2.0, 3.0]),), 0),
    ("huber_negative", huber_of_mean, (np.array([-2.0, -3.0]),), 0),
    ("descend", descend, (np.array([0.1, -0.2, 0.3]), X, np.array(25)), 0),
    ("softplus_counted", softplus_counted, (np.array([0.2, -0.4]), np.array(5)), 0),
]


@pytest.mark.parametrize("name, f, args, wrt", CORPUS, ids=[c[0] for c in CORPUS])
def test_real_functions_with_loops_and_branches(name, f, args, wrt):
    value, grad = s2sgrad.value_and_grad(f, wrt=wrt)(*args)
    assert value == pytest.approx(f(*args), rel=1e-10)

    def at(v):
        return f(*args[:wrt], v, *args[wrt + 1:])

    np.testing.assert_allclose(grad, _fd(at, np.array(args[wrt], dtype=float), 1e-6), rtol=1e-5, atol=1e-7)
