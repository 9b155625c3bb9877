"""Run the benchmark suite: s2sgrad against hand-written NumPy (and peers when installed).

    python benchmarks/run.py              # all workloads, compile scaling, memory
    python benchmarks/run.py --compile-peers   # and tf1/jax compile times (slow)
    python benchmarks/run.py --quick      # fewer repeats (a smoke run)
    python benchmarks/run.py --only seed  # workloads whose name contains "seed"

NumPy and the s2sgrad variants of a workload are timed in one fresh process, in alternating
rounds; each peer (tf1, jax, torch, autograd) gets its own process, so their imports and thread
pools do not interfere. Times are medians over repeats; ratios are against ``numpy``.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _child_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([ROOT, HERE, env.get("PYTHONPATH", "")])
    return env


def measure(workload: str, impls: list[str], repeats: int) -> dict[str, dict]:
    """Time implementations in one fresh process, in alternating rounds (so drift in clock speed
    or load hits them alike); returns impl -> {'median': s/step, 'peak_bytes'} or {'error': ...}."""
    code = f"""
import json, statistics, time, tracemalloc
from workloads import WORKLOADS
spec = WORKLOADS[{workload!r}]
steps = {{name: spec["impls"][name]() for name in {impls!r}}}
for step in steps.values():          # thread pools, caches and clocks settle first
    warm_until = time.perf_counter() + 0.5
    while time.perf_counter() < warm_until:
        step()
times = {{name: [] for name in steps}}
for _ in range({repeats}):
    for name, step in steps.items():
        t0 = time.perf_counter()
        for _ in range(spec["steps"]):
            step()
        times[name].append((time.perf_counter() - t0) / spec["steps"])
out = {{}}
for name, step in steps.items():
    tracemalloc.start()
    step()
    out[name] = {{"median": statistics.median(times[name]), "peak_bytes": tracemalloc.get_traced_memory()[1]}}
    tracemalloc.stop()
print(json.dumps(out))
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_child_env())
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["failed"])[-1]
        error = "not installed" if "ModuleNotFoundError" in last else last[:80]
        return {name: {"error": error} for name in impls}
    return json.loads(result.stdout.strip().splitlines()[-1])


PEERS = ("tf1", "jax", "torch", "autograd")


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
    setup, body = _CHAIN[impl]
    code = (f"import time, numpy as np\n{setup}\nN = {n}\nx0, ws = np.linspace(-1, 1, 16), np.linspace(0.5, 1.5, N)\n"
            f"t0 = time.perf_counter()\n{body}\nprint(time.perf_counter() - t0)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_child_env())
    return float(result.stdout.strip().splitlines()[-1]) if result.returncode == 0 else float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="3 repeats instead of 7")
    parser.add_argument("--only", default="", help="run workloads whose name contains this text")
    parser.add_argument("--no-peers", action="store_true", help="skip tf1/jax/torch/autograd")
    parser.add_argument("--compile-peers", action="store_true",
                        help="also time tf1 and jax to the first gradient at N=3000 (about a minute)")
    args = parser.parse_args(argv)
    from workloads import WORKLOADS
    repeats = 3 if args.quick else 7
    print(f"# s2sgrad benchmarks  {time.strftime('%Y-%m-%d')}  {platform.machine()}  "
          f"{os.cpu_count()} cores  Python {platform.python_version()}")
    print(f"# command: python benchmarks/run.py {' '.join(argv or sys.argv[1:])}".rstrip())
    for name, spec in WORKLOADS.items():
        if args.only not in name:
            continue
        unit = spec["unit"]
        scale = 1e6 if unit == "us" else 1e3
        ours = [impl for impl in spec["impls"] if impl not in PEERS]
        results = measure(name, ours, repeats)   # numpy and s2sgrad variants side by side
        for impl in spec["impls"]:
            if impl in PEERS and not args.no_peers:
                results.update(measure(name, [impl], repeats))
        base = results.get("numpy", {}).get("median")
        print(f"\n## {name}  ({unit} per step, median of {repeats})")
        print(f"| implementation | {unit}/step | vs numpy | peak MiB |")
        print("|---|---|---|---|")
        for impl, r in results.items():
            if "error" in r:
                print(f"| {impl} | - | {r['error']} | - |")
                continue
            ratio = f"{r['median'] / base:.2f}x" if base else "-"
            print(f"| {impl} | {r['median'] * scale:.3f} | {ratio} | {r['peak_bytes'] / 2**20:.1f} |")
        fwd, both = results.get("s2sgrad_forward", {}), results.get("s2sgrad_loss_and_grad", {})
        if "median" in fwd and "median" in both:
            print(f"gradient cost: loss+gradient / loss alone = {both['median'] / fwd['median']:.2f}x")
    if not args.only or "compile" in args.only:
        times = {n: compile_time("s2sgrad", n) for n in (300, 3000)}
        print("\n## program to first gradient, chain of N tanh layers (s, fresh process, after import)")
        for n, t in times.items():
            print(f"N={n}: {t:.3f} s")
        print(f"scaling N=3000 / N=300: {times[3000] / times[300]:.1f}")
        if args.compile_peers:
            for impl in ("tf1", "jax"):
                print(f"{impl} N=3000: {compile_time(impl, 3000):.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
