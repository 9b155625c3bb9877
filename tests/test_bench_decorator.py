"""benchmarks/decorator.py's timing code runs (once, on the seed gradient); nothing here asserts a time."""
import importlib.util
import os
import sys

import numpy as np

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "benchmarks"))   # for its own imports (workloads)
# by path: the name ``decorator`` may already be the PyPI package of that name
_spec = importlib.util.spec_from_file_location("bench_decorator", os.path.join(ROOT, "benchmarks", "decorator.py"))
decorator = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(decorator)


def test_an_alternating_group_gives_times_and_per_round_ratios():
    found = decorator.time_group("seed step gradient", ["numpy", "s2sgrad"], 2)
    assert set(found) == {"numpy", "s2sgrad", "s2sgrad/numpy"}
    assert all(isinstance(v, float) and v > 0 for v in found.values())
    (value, gradients), (ours, our_gradients) = decorator.seed_numpy()(), decorator.seed_s2sgrad()()
    np.testing.assert_allclose([ours, *our_gradients], [value, *gradients], rtol=1e-6)   # the same computation
