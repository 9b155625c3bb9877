"""The MLP and CNN training steps on each installed array backend, beside hand-written NumPy.

    python benchmarks/backends.py            # every installed backend, 7 repeats
    python benchmarks/backends.py --quick    # 3 repeats, fewer steps (a smoke run; CI's size)

Each backend runs in its own fresh process (imports and thread pools do not interfere), timed in
alternating rounds with hand-written NumPy (``workloads.mlp_numpy`` / ``cnn.cnn_numpy``, the same
data and model). ``s2sgrad[<backend>]`` is ``tf.Session(backend=<backend>)`` running the same
generated step; each step fetches the loss as NumPy, so asynchronous backends (jax) are timed to
completion. Times are medians in ms per step; the ratio is s2sgrad's over hand-written NumPy's.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BACKENDS = {"numpy": "numpy", "torch": "torch", "jax": "jax", "cupy": "cupy"}   # backend -> package
WORKLOADS = ("mlp", "cnn")

_CHILD = """
import json, os, statistics, sys, time
os.environ["S2SGRAD_BACKEND"] = {backend!r}   # read by tf.Session() inside the workload's setup
import s2sgrad as tf
from workloads import _mlp_session, _train, mlp_numpy
from cnn import cnn_numpy, cnn_session
steps = {{"mlp": ({{"numpy": mlp_numpy, "s2sgrad": lambda: _mlp_session(tf, lambda tf, l, V: _train(tf, l, V, 0.01))}}),
          "cnn": ({{"numpy": cnn_numpy, "s2sgrad": lambda: cnn_session(tf, lambda tf, l, V: _train(tf, l, V, 0.01))}})}}
impls = {{name: make() for name, make in steps[{workload!r}].items()}}
for step in impls.values():
    until = time.perf_counter() + {warm}
    while time.perf_counter() < until:
        step()
times = {{name: [] for name in impls}}
for _ in range({repeats}):
    for name, step in impls.items():
        t0 = time.perf_counter()
        for _ in range({steps}):
            step()
        times[name].append((time.perf_counter() - t0) / {steps})
print(json.dumps({{name: statistics.median(t) for name, t in times.items()}}))
"""


def installed() -> list[str]:
    return [b for b, package in BACKENDS.items() if importlib.util.find_spec(package) is not None]


def measure(backend: str, workload: str, repeats: int, steps: int, warm: float) -> dict:
    """{'numpy': s/step, 's2sgrad': s/step} from a fresh process, or {'error': text}."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, HERE, os.environ.get("PYTHONPATH", "")]))
    code = _CHILD.format(backend=backend, workload=workload, repeats=repeats, steps=steps, warm=warm)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    if result.returncode != 0:
        return {"error": (result.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(result.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="3 repeats of 2 steps (a smoke run)")
    parser.add_argument("--backends", default="", help="comma-separated backends (default: every installed one)")
    parser.add_argument("--repeats", type=int, default=7, help="timed rounds (default 7)")
    parser.add_argument("--steps", type=int, default=10, help="steps per round (default 10)")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    ns = parser.parse_args(argv)
    chosen = [b for b in ns.backends.split(",") if b] or installed()
    repeats, steps, warm = (3, 2, 0.2) if ns.quick else (ns.repeats, ns.steps, 1.0)
    results: dict = {}
    print(f"{'workload':8} {'backend':8} {'hand NumPy ms':>14} {'s2sgrad ms':>11} {'ratio':>6}")
    for workload in WORKLOADS:
        for backend in chosen:
            r = results.setdefault(workload, {})[backend] = measure(backend, workload, repeats, steps, warm)
            if "error" in r:
                print(f"{workload:8} {backend:8} error: {r['error']}")
                continue
            print(f"{workload:8} {backend:8} {r['numpy'] * 1e3:14.2f} {r['s2sgrad'] * 1e3:11.2f} "
                  f"{r['s2sgrad'] / r['numpy']:6.2f}")
    if ns.json:
        with open(ns.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
