"""benchmarks/decorator_calls.py's timing code runs (once, on the seed gradient) and its MLP variants compute the
same gradients; nothing here asserts a time."""
import os
import sys

import numpy as np
import pytest

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "benchmarks"))   # for its own imports (workloads)
import decorator_calls


def test_an_alternating_group_gives_times_cpu_times_and_per_round_ratios():
    found = decorator_calls.time_group("seed step gradient", ["numpy", "s2sgrad"], 2)
    assert set(found) == {"numpy", "s2sgrad", "numpy cpu", "s2sgrad cpu", "s2sgrad/numpy"}
    assert all(isinstance(v, float) and v > 0 for v in found.values())
    (value, gradients), (ours, our_gradients) = decorator_calls.seed_numpy()(), decorator_calls.seed_s2sgrad()()
    np.testing.assert_allclose([ours, *our_gradients], [value, *gradients], rtol=1e-6)   # the same computation


def test_the_thread_variants_compute_the_same_gradients():
    impls = decorator_calls.WORKLOADS["MLP 784-512-512-10 gradient"]["impls"]
    pytest.importorskip("threadpoolctl")
    assert decorator_calls.alongside("MLP 784-512-512-10 gradient") == [
        "numpy", "numpy_1thread", "s2sgrad", "s2sgrad_blas_default"]
    (value, gradients), *others = [impls[impl]()() for impl in ("numpy", "numpy_1thread", "s2sgrad",
                                                                "s2sgrad_blas_default")]
    for other_value, other_gradients in others:
        np.testing.assert_allclose(other_value, value, rtol=1e-5)
        for ours, theirs in zip(other_gradients, gradients, strict=True):
            np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-7)
