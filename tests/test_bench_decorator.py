"""benchmarks/decorator_calls.py's timing code runs (once, on the seed gradient); nothing here asserts a time."""
import os
import sys

import numpy as np

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "benchmarks"))   # for its own imports (workloads)
import decorator_calls


def test_an_alternating_group_gives_times_and_per_round_ratios():
    found = decorator_calls.time_group("seed step gradient", ["numpy", "s2sgrad"], 2)
    assert set(found) == {"numpy", "s2sgrad", "s2sgrad/numpy"}
    assert all(isinstance(v, float) and v > 0 for v in found.values())
    (value, gradients), (ours, our_gradients) = decorator_calls.seed_numpy()(), decorator_calls.seed_s2sgrad()()
    np.testing.assert_allclose([ours, *our_gradients], [value, *gradients], rtol=1e-6)   # the same computation
