"""Workload variants about threads and the decorator.

``numpy_1thread`` is the hand-written step run with one BLAS thread; ``s2sgrad_blas_default`` is the
s2sgrad step with ``S2SGRAD_BLAS_THREADS=off`` (the BLAS's own thread count, as before s2sgrad.threads);
``s2sgrad`` itself runs under the default ``auto`` policy. The decorated-function workload times
``s2sgrad.grad(f)`` against the gradient written out by hand.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

Setup = Callable[[], Callable[[], object]]


def one_thread(setup: Setup) -> Setup:
    """``setup``'s step, run with one BLAS thread (the count restored after each step)."""
    def make() -> Callable[[], object]:
        import threadpoolctl  # the [threads] extra; imported here so the other workloads run without it
        step = setup()
        blas = threadpoolctl.ThreadpoolController().select(user_api="blas").lib_controllers

        def run() -> object:
            before = [c.num_threads for c in blas]
            for c in blas:
                c.set_num_threads(1)
            try:
                return step()
            finally:
                for c, n in zip(blas, before, strict=True):
                    c.set_num_threads(n)
        return run
    return make


def blas_default(setup: Setup) -> Setup:
    """``setup``'s s2sgrad step compiled with the BLAS threads left alone (``set_blas_threads("off")``)."""
    def make() -> Callable[[], object]:
        from s2sgrad import threads
        previous = threads.blas_threads_setting()
        threads.set_blas_threads("off")
        try:
            step = setup()
            step()   # compiles the step while the setting is "off"
        finally:
            threads.set_blas_threads(previous)
        return step
    return make


# -- a decorated NumPy function: a two-layer tanh network's loss, gradient w.r.t. both weights ---------

def _decorated_data():
    rng = np.random.default_rng(0)
    return (rng.standard_normal((64, 32)), rng.standard_normal((32, 32)) * 0.2,
            rng.standard_normal((32, 1)) * 0.2, rng.standard_normal((64, 1)))


def _loss(w1, w2, x, y):
    h = np.tanh(x @ w1)
    r = h @ w2 - y
    return np.sum(r * r) / x.shape[0]


def decorated_numpy() -> Callable:
    x, w1, w2, y = _decorated_data()

    def step():
        h = np.tanh(x @ w1)
        r = h @ w2 - y
        g = 2 * r / x.shape[0]
        gw2 = h.T @ g
        gw1 = x.T @ ((g @ w2.T) * (1 - h * h))
        return np.sum(r * r) / x.shape[0], gw1, gw2
    return step


def decorated_s2sgrad() -> Callable:
    import s2sgrad
    x, w1, w2, y = _decorated_data()
    value_and_grad = s2sgrad.value_and_grad(_loss, wrt=(0, 1))
    return lambda: value_and_grad(w1, w2, x, y)


def decorated_autograd() -> Callable:
    import autograd
    import autograd.numpy as anp
    x, w1, w2, y = _decorated_data()

    def loss(w1, w2):
        r = anp.tanh(x @ w1) @ w2 - y
        return anp.sum(r * r) / x.shape[0]
    value_and_grad = autograd.value_and_grad(loss, argnum=[0, 1])
    return lambda: value_and_grad(w1, w2)


DECORATED = {"unit": "us", "steps": 500, "impls": {
    "numpy": decorated_numpy, "s2sgrad": decorated_s2sgrad, "autograd": decorated_autograd}}
