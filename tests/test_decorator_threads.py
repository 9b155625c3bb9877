"""Decorated functions' compiled calls under s2sgrad.threads: both call paths (the fast one and the
general one) run the module with the thread count the setting chooses, from one measurement per
compiled signature, and a short call gets the bare module back (the policy itself: test_threads.py)."""
import threading

import numpy as np
import pytest

import s2sgrad as tf
from blas_fakes import Clock, TickingClock, use_clock, use_fake_blas
from s2sgrad import threads


@pytest.fixture
def blas(monkeypatch):
    return use_fake_blas(monkeypatch)


@pytest.fixture
def clock(monkeypatch):
    return use_clock(monkeypatch, Clock())


def tanh_loss(w, x):
    return np.sum(np.tanh(x @ w))


def call_both_paths(g, w, x, calls):
    """``calls`` calls of the decorated ``g``, alternating the fast path (positional arrays) and the
    general one (a keyword argument); their results."""
    return [g(w, x) if i % 2 == 0 else g(w, x=x) for i in range(calls)]


def modules_called(g):
    """What each path of ``g``'s one compiled signature calls as the module."""
    (program,) = g._programs.values()
    return program.fast.__globals__["fn"], program.call.__globals__["fn"]


@pytest.mark.parametrize("how", ["environment", "set_blas_threads"])
def test_decorated_calls_run_with_the_set_count_on_both_paths(blas, monkeypatch, how):
    if how == "environment":
        monkeypatch.setenv("S2SGRAD_BLAS_THREADS", "1")
    else:
        threads.set_blas_threads(1)
    w, x = np.linspace(-1, 1, 64 * 64).reshape(64, 64), np.linspace(0, 1, 8 * 64).reshape(8, 64)
    blas.log.clear()
    results = call_both_paths(tf.grad(tanh_loss), w, x, 4)
    assert blas.log == [1, 2] * 4                 # one thread for each call, the default after
    for r in results:
        np.testing.assert_allclose(r, x.T @ (1 - np.tanh(x @ w) ** 2), rtol=1e-12)


def test_a_short_decorated_call_gets_the_bare_module_back(blas, clock):
    g = tf.grad(tanh_loss)
    w, x = np.ones((4, 4)), np.ones((2, 4))
    call_both_paths(g, w, x, 7)                  # compiles, then runs that take no time on the frozen clock
    assert sorted(blas.log[0::2]) == [1, 1, 1, 2, 2, 2]   # measured with both counts
    fn = g.executable(w, x).fn
    assert modules_called(g) == (fn, fn)         # then both paths call the module itself
    blas.log.clear()
    call_both_paths(g, w, x, 4)
    assert blas.log == []


def test_a_long_decorated_call_is_measured_once_for_both_paths(blas, monkeypatch):
    use_clock(monkeypatch, TickingClock())
    g = tf.grad(tanh_loss)
    w, x = np.ones((4, 4)), np.ones((2, 4))
    blas.log.clear()
    call_both_paths(g, w, x, 7)                  # the compiling call, then three runs of each count
    assert sorted(blas.log[0::2]) == [1, 1, 1, 2, 2, 2] and set(blas.log[1::2]) == {2}
    fast, general = modules_called(g)
    assert fast is general and fast.choice == 1  # one measurement (a tie: one thread)
    blas.log.clear()
    call_both_paths(g, w, x, 4)
    assert blas.log == [1, 2] * 4


def test_off_leaves_decorated_calls_alone(blas):
    threads.set_blas_threads("off")
    g = tf.grad(tanh_loss)
    w, x = np.ones((4, 4)), np.ones((2, 4))
    call_both_paths(g, w, x, 4)
    assert blas.log == [] and modules_called(g) == (g.executable(w, x).fn,) * 2


def test_a_failed_decorated_call_restores_the_count(blas):
    threads.set_blas_threads(1)
    g = tf.grad(lambda a: np.sum(np.linalg.inv(a)))
    g(np.eye(2))
    blas.log.clear()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Singular matrix"):
        g(np.zeros((2, 2)))
    assert blas.log == [1, 2] and blas.num_threads == 2


def test_the_real_blas_gives_decorated_calls_the_same_gradients_and_is_restored(monkeypatch):
    threadpoolctl = pytest.importorskip("threadpoolctl")
    monkeypatch.setattr(threads, "SHORT_STEP", 0.0)   # tune even this small call
    w, x = np.linspace(-1, 1, 64 * 64).reshape(64, 64), np.linspace(0, 1, 32 * 64).reshape(32, 64)
    before = [p["num_threads"] for p in threadpoolctl.threadpool_info()]
    for setting in ("auto", 1):
        monkeypatch.setattr(threads, "_setting", [setting])
        for r in call_both_paths(tf.grad(tanh_loss), w, x, 10):
            np.testing.assert_allclose(r, x.T @ (1 - np.tanh(x @ w) ** 2), rtol=1e-12)
        assert [p["num_threads"] for p in threadpoolctl.threadpool_info()] == before


def test_auto_is_safe_when_threads_call_the_same_decorated_function(blas, monkeypatch):
    monkeypatch.setattr(threads, "SHORT_STEP", 0.0)   # keep measuring: the racy part
    monkeypatch.setattr(threads, "RECHECK", 0.0)
    g = tf.grad(tanh_loss)
    w, x = np.ones((4, 4)), np.ones((2, 4))
    expected = g(w, x)
    wrong = []

    def worker():
        try:
            wrong.extend(r for r in call_both_paths(g, w, x, 30) if not np.array_equal(r, expected))
        except Exception as e:   # any error fails the test below
            wrong.append(e)
    workers = [threading.Thread(target=worker) for _ in range(4)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    assert wrong == [] and blas.num_threads == 2
