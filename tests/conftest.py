"""Shared fixtures: every test starts with a fresh default graph."""
import os
import tracemalloc

import numpy as np
import pytest
from hypothesis import settings

import s2sgrad as tf
from s2sgrad.codegen import stages

settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir))
EXAMPLES = os.path.join(ROOT, "examples")
DATA = os.path.join(ROOT, "tests", "data")


def checkout_env(**extra):
    """Environment for subprocesses that imports s2sgrad from this checkout."""
    env = dict(os.environ, **extra)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return env


def central_differences(f, x, eps=1e-6):
    """d f / d x by central differences, in float64 (``f`` is called fresh for each point)."""
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[i] = eps
        out[i] = (f(x + step) - f(x - step)) / (2 * eps)
    return out


def run_peak(fetches, feed_dict):
    """tracemalloc's peak over one ``Session.run`` of ``fetches`` (variables initialized, compiled by a
    first run), in bytes."""
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(fetches, feed_dict)
        tracemalloc.start()
        sess.run(fetches, feed_dict)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


@pytest.fixture(autouse=True)
def fresh_graph():
    """Each test builds into its own default graph."""
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


@pytest.fixture
def rng():
    return np.random.default_rng(0)


@pytest.fixture(autouse=True, scope="session")
def checked_compiles():
    """The whole suite compiles in checked mode: graph and Program verified after every stage."""
    stages.set_checked(True)
    yield
    stages.set_checked(False)
