"""Captured values stay live (issue 16): what a decorated function reads from its globals, closure
cells and defaults is checked on every call, and a change traces it again."""
import numpy as np

import s2sgrad
from s2sgrad.tracing.captures import SMALL_ARRAY

X = np.array([1.0, 2.0, 3.0])
SCALE = 10
OFFSETS = np.array([0.5, 1.5, 2.5])
BIG = np.ones(SMALL_ARRAY + 1)
CONFIG = {"power": 2}
TRACES = []


def _scaled(x):
    TRACES.append("scaled")
    return np.sum(x * SCALE * OFFSETS)


def _helper(x):
    return x * SCALE


def _calls_helper(x):
    return np.sum(_helper(x) ** 2)


def _reads_big(x):
    return np.sum(x[0] * BIG)


def _reads_config(x):
    return np.sum(x ** CONFIG["power"])


def test_a_changed_global_number_traces_again_and_an_unchanged_one_does_not():
    global SCALE
    g = s2sgrad.grad(_scaled)
    TRACES.clear()
    try:
        np.testing.assert_array_equal(g(X), 10 * OFFSETS)
        np.testing.assert_array_equal(g(X), 10 * OFFSETS)
        assert TRACES == ["scaled"]           # the log the function appends to is not a captured constant
        SCALE = 3
        np.testing.assert_array_equal(g(X), 3 * OFFSETS)
        assert TRACES == ["scaled", "scaled"]
        SCALE = 3.0                           # an equal value of another type is a change (float64 vs int)
        np.testing.assert_array_equal(g(X), 3 * OFFSETS)
    finally:
        SCALE = 10


def test_a_small_global_array_changed_in_place_traces_again():
    g = s2sgrad.grad(_scaled)
    g(X)
    saved = OFFSETS.copy()
    try:
        OFFSETS[1] = 100.0
        np.testing.assert_array_equal(g(X), SCALE * OFFSETS)
    finally:
        OFFSETS[:] = saved


def test_a_big_global_array_is_checked_by_identity():
    global BIG
    g = s2sgrad.grad(_reads_big)
    assert g(X)[0] == BIG.size
    BIG = np.full(SMALL_ARRAY + 1, 2.0)     # rebound: seen
    try:
        assert g(X)[0] == 2 * BIG.size
    finally:
        BIG = np.ones(SMALL_ARRAY + 1)


def test_a_global_read_by_a_called_function_is_checked_too():
    global SCALE
    g = s2sgrad.grad(_calls_helper)
    np.testing.assert_allclose(g(X), 2 * 100 * X)
    SCALE = 2
    try:
        np.testing.assert_allclose(g(X), 2 * 4 * X)
    finally:
        SCALE = 10


def test_a_global_dict_changed_in_place_traces_again():
    g = s2sgrad.grad(_reads_config)
    np.testing.assert_allclose(g(X), 2 * X)
    CONFIG["power"] = 3
    try:
        np.testing.assert_allclose(g(X), 3 * X ** 2)
    finally:
        CONFIG["power"] = 2


def test_a_changed_closure_cell_traces_again():
    def make():
        factor = 2.0
        weights = np.array([1.0, 0.0, -1.0])

        def f(x):
            return np.sum(x * factor * weights)

        def set_factor(v):
            nonlocal factor
            factor = v
        return f, set_factor, weights
    f, set_factor, weights = make()
    g = s2sgrad.grad(f)
    np.testing.assert_array_equal(g(X), 2 * weights)
    set_factor(5.0)
    np.testing.assert_array_equal(g(X), 5 * weights)
    weights[0] = 7.0                          # a small array in a cell, changed in place
    np.testing.assert_array_equal(g(X), 5 * weights)


def test_defaults_are_live_arguments():
    def f(x, a=2.0, w=np.array([1.0, 2.0, 3.0])):  # noqa: B008 (a mutable default is the point)
        return np.sum(x * a * w)
    g = s2sgrad.grad(f)
    np.testing.assert_array_equal(g(X), 2 * np.array([1.0, 2.0, 3.0]))
    f.__defaults__[1][0] = 10.0               # the default array, changed in place
    np.testing.assert_array_equal(g(X), 2 * np.array([10.0, 2.0, 3.0]))
    f.__defaults__ = (4.0, np.ones(3))        # the defaults replaced
    np.testing.assert_array_equal(g(X), 4 * np.ones(3))

    def h(x, *, k=3):
        return np.sum(x ** k)
    gh = s2sgrad.grad(h)
    np.testing.assert_allclose(gh(X), 3 * X ** 2)
    h.__kwdefaults__ = {"k": 2}
    np.testing.assert_allclose(gh(X), 2 * X)


def test_the_check_lists_what_the_function_reads():
    from s2sgrad.tracing.captures import scan
    captures = scan(_calls_helper)
    names = {c.name for c in captures.entries}
    assert {"_helper", "SCALE", "np"} <= names
    assert captures.unchanged() and captures.changed() == []
