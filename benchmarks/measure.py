"""Timing in fresh processes: steady-state steps of a workload's implementations side by side, and
program-to-first-gradient of the N-layer chain. Peers run with the Python that has them (TensorFlow:
``S2SGRAD_BENCH_TF_PYTHON``, else /tmp/tfvenv/bin/python when this Python lacks it)."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PEERS = ("tf1", "jax", "torch", "autograd")
TF_ENV = {"TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": ""}


def child_env() -> dict:
    env = dict(os.environ, **TF_ENV)
    env["PYTHONPATH"] = os.pathsep.join([ROOT, HERE, env.get("PYTHONPATH", "")])
    return env


def tf_python() -> str | None:
    """A Python with TensorFlow: ``S2SGRAD_BENCH_TF_PYTHON`` when set (empty: none), else this one, else
    /tmp/tfvenv's (None if none)."""
    if "S2SGRAD_BENCH_TF_PYTHON" in os.environ:
        return os.environ["S2SGRAD_BENCH_TF_PYTHON"] or None
    if importlib.util.find_spec("tensorflow") is not None:
        return sys.executable
    return "/tmp/tfvenv/bin/python" if os.path.exists("/tmp/tfvenv/bin/python") else None


def python_for(impl: str) -> str | None:
    """The interpreter that runs ``impl`` (TF1 peers may need another one)."""
    return tf_python() if impl == "tf1" else sys.executable


SETTLE = 0.15   # seconds before each timed round of a step: OpenBLAS's idle workers spin about 0.1 s

_TIMING = """
import json, resource, statistics, time, tracemalloc
from workloads import THREADED, WORKLOADS
SETTLE = {settle} if {workload!r} in THREADED else 0   # large products only (a pause adds noise to µs steps)
spec = WORKLOADS[{workload!r}]
steps = {{name: spec["impls"][name]() for name in {impls!r}}}
per_repeat = {steps} or spec["steps"]
for step in steps.values():          # thread pools, caches and clocks settle first
    step()
    warm_until = time.perf_counter() + {warm}
    while time.perf_counter() < warm_until:
        step()
times = {{name: [] for name in steps}}
faults = dict.fromkeys(steps, 0)     # minor page faults: memory the allocator had given back
for _ in range({repeats}):           # alternating rounds: drift in clock speed or load hits all alike
    for name, step in steps.items():
        time.sleep(SETTLE)           # the last one's BLAS workers stop spinning (they take the cores meanwhile)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        t0 = time.perf_counter()
        for _ in range(per_repeat):
            step()
        times[name].append((time.perf_counter() - t0) / per_repeat)
        faults[name] += resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
out = {{}}
for name, step in steps.items():
    tracemalloc.start()
    step()
    out[name] = {{"median": statistics.median(times[name]), "peak_bytes": tracemalloc.get_traced_memory()[1],
                 "faults": faults[name] / ({repeats} * per_repeat)}}
    tracemalloc.stop()
print(json.dumps(out))
"""


def measure(workload: str, impls: list[str], repeats: int, *, steps: int = 0, warm: float = 0.5,
            python: str | None = None, env: dict | None = None) -> dict[str, dict]:
    """Time implementations in one fresh process, in alternating rounds; impl -> {'median': s/step,
    'peak_bytes': tracemalloc peak of one step, 'faults': page faults per step} or {'error': ...}.
    ``steps`` 0: the workload's own; ``env``: variables added to the process's environment."""
    python = python or sys.executable
    code = _TIMING.format(workload=workload, impls=impls, steps=steps, warm=warm, repeats=repeats, settle=SETTLE)
    result = subprocess.run([python, "-c", code], capture_output=True, text=True, env=dict(child_env(), **(env or {})))
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["failed"])[-1]
        error = "not installed" if "ModuleNotFoundError" in last else last[:80]
        return {name: {"error": error} for name in impls}
    return json.loads(result.stdout.strip().splitlines()[-1])


# Program to first gradient: the same N-layer tanh chain in each framework (timed after import).
_TF1_CHAIN = """
x = tf.placeholder(tf.float64, [16]); h = x
for k in range(N):
    h = tf.tanh(h * ws[k] + 0.1)
g = tf.gradients(tf.reduce_sum(h), x)[0]
tf.Session().run(g, {x: x0})"""
_CHAIN = {
    "s2sgrad": ("import s2sgrad as tf", _TF1_CHAIN),
    "tf1": ("import tensorflow.compat.v1 as tf\ntf.disable_eager_execution()", _TF1_CHAIN),
    "jax": ("import jax, jax.numpy as jnp\njax.config.update('jax_enable_x64', True)", """
def f(x):
    h = x
    for k in range(N):
        h = jnp.tanh(h * ws[k] + 0.1)
    return jnp.sum(h)
jax.jit(jax.grad(f))(x0).block_until_ready()"""),
}


def compile_time(impl: str, n: int) -> float:
    """Seconds from building the N-layer chain to its first gradient, in a fresh process (nan if
    ``impl`` is not installed)."""
    python = python_for(impl)
    if python is None:
        return float("nan")
    setup, body = _CHAIN[impl]
    code = (f"import time, numpy as np\n{setup}\nN = {n}\nx0, ws = np.linspace(-1, 1, 16), np.linspace(0.5, 1.5, N)\n"
            f"t0 = time.perf_counter()\n{body}\nprint(time.perf_counter() - t0)\n")
    result = subprocess.run([python, "-c", code], capture_output=True, text=True, env=child_env())
    return float(result.stdout.strip().splitlines()[-1]) if result.returncode == 0 else float("nan")
