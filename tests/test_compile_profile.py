"""benchmarks/compile_profile.py at tiny sizes: its stages run and add up, and a cached
``Session.run`` makes the same calls whatever the graph's size (no wall-clock asserts)."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

import s2sgrad as tf

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks", "compile_profile.py")


@pytest.fixture(scope="module")
def profile():
    spec = importlib.util.spec_from_file_location("compile_profile", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_stage_is_timed_and_the_compiled_gradient_is_right(profile):
    times = profile.stage_times(4)
    assert list(times) == profile.STAGES
    assert all(t >= 0 for t in times.values())
    x, h, x0 = profile.chain(4)
    g = tf.gradients(tf.reduce_sum(h), x)[0]
    ws, expected, v = np.linspace(0.5, 1.5, 4), np.ones(16), x0
    chain_rule = []
    for w in ws:  # d/dx of tanh(x * w + 0.1), layer by layer
        v = np.tanh(v * w + 0.1)
        chain_rule.append((1 - v * v) * w)
    for d in chain_rule:
        expected = expected * d
    np.testing.assert_allclose(tf.Session().run(g, {x: x0}), expected, rtol=1e-12)


def test_a_cache_hit_costs_the_same_calls_at_any_graph_size(profile):
    profile.session_times(3)   # the process's first hit does one-time work (threadpoolctl binds its setter)
    _, small = profile.session_times(3)
    _, large = profile.session_times(60)
    assert 0 < small == large


def test_the_script_runs_and_reports_each_stage():
    result = subprocess.run([sys.executable, SCRIPT, "--sizes", "2", "5", "--repeats", "1"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    for stage in ("trace", "gradients", "lower", "optimize", "emit", "compile()", "hit calls", "reference"):
        assert any(line.startswith(stage) for line in result.stdout.splitlines()), (stage, result.stdout)


def test_bytecode_counts_are_the_same_on_every_run():
    """--opcodes counts what a stage executes, not how long it took: two runs give equal counts."""
    outputs = []
    for _ in range(2):
        result = subprocess.run([sys.executable, SCRIPT, "--opcodes", "--sizes", "3", "--repeats", "1"],
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        rows = {line.split()[0]: line.split()[1] for line in result.stdout.splitlines()[2:] if line.split()}
        outputs.append(rows)
    assert "millions of Python bytecodes" in result.stdout
    assert float(outputs[0]["emit"]) > 0 and float(outputs[0]["trace"]) > 0
    assert outputs[0]["trace"] == outputs[1]["trace"] and outputs[0]["emit"] == outputs[1]["emit"]
