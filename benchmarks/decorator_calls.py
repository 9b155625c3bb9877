"""The decorator's call cost: ``s2sgrad.value_and_grad(f)(...)`` after the first call, against the
hand-written NumPy gradient, autograd, and JAX's ``value_and_grad`` without and with ``jit``.

    python benchmarks/decorator_calls.py            # seed step and MLP, every implementation installed
    python benchmarks/decorator_calls.py --quick    # fewer repeats
    python benchmarks/decorator_calls.py --loaded   # also with two busy processes on the machine

NumPy and s2sgrad are timed in one fresh process, in alternating rounds, with their thread variants
(with threadpoolctl installed): ``numpy_1thread`` is the hand-written gradient with one BLAS thread,
``s2sgrad_blas_default`` the decorated function compiled with ``S2SGRAD_BLAS_THREADS=off`` (the BLAS's
own thread count, as decorated calls ran before they chose threads). Each peer gets its own process
(imports and thread pools do not interfere). Times are medians of per-call means; ratios are against
``numpy``, with the median of the per-round ratios to numpy for those timed alongside it. Peers that
are not installed are skipped.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np
from load import busy_processes
from workloads import mlp_loss_and_gradients
from workloads_threads import blas_default, one_thread

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# -- the seed linear-regression step's gradient: one float32 sample ----------------------------------


def _seed_inputs():
    return np.float32(2.0), np.float32(1.0), np.float32(3.5), np.float32(12.0)


def seed_loss(w, b, x, y):
    r = y - (x * w + b)
    return r * r / np.float32(64)


def seed_numpy() -> Callable:
    w, b, x, y = _seed_inputs()

    def call():
        r = y - (x * w + b)
        g = -(np.float32(2) * r / np.float32(64))
        return r * r / np.float32(64), (g * x, g)
    return call


def seed_s2sgrad() -> Callable:
    import s2sgrad
    vg = s2sgrad.value_and_grad(seed_loss, argnums=(0, 1))
    args = _seed_inputs()
    return lambda: vg(*args)


def seed_autograd() -> Callable:
    import autograd
    vg = autograd.value_and_grad(seed_loss, (0, 1))
    args = _seed_inputs()
    return lambda: vg(*args)


def _seed_jax(jit: bool) -> Callable:
    import jax
    vg = jax.value_and_grad(seed_loss, argnums=(0, 1))
    vg = jax.jit(vg) if jit else vg
    args = _seed_inputs()
    return lambda: jax.block_until_ready(vg(*args))


# -- MLP 784-512-512-10, batch 128, softmax cross-entropy: the loss and the six gradients ------------

def _mlp_inputs():
    rng = np.random.default_rng(0)
    B, D, H, C = 128, 784, 512, 10
    X = rng.standard_normal((B, D)).astype(np.float32)
    Y = np.eye(C, dtype=np.float32)[rng.integers(0, C, B)]
    P = [(rng.standard_normal((D, H)) * 0.05).astype(np.float32), np.zeros(H, np.float32),
         (rng.standard_normal((H, H)) * 0.05).astype(np.float32), np.zeros(H, np.float32),
         (rng.standard_normal((H, C)) * 0.05).astype(np.float32), np.zeros(C, np.float32)]
    return P, X, Y


def mlp_loss(P, X, Y, xp=np):
    W1, b1, W2, b2, W3, b3 = P
    h1 = xp.maximum(X @ W1 + b1, 0)
    h2 = xp.maximum(h1 @ W2 + b2, 0)
    lo = h2 @ W3 + b3
    m = xp.max(lo, 1, keepdims=True)
    s = xp.sum(xp.exp(lo - m), 1, keepdims=True)
    return xp.mean(-xp.sum(Y * (lo - m - xp.log(s)), 1))


def mlp_numpy() -> Callable:
    P, X, Y = _mlp_inputs()
    return lambda: mlp_loss_and_gradients(P, X, Y)


def mlp_s2sgrad() -> Callable:
    import s2sgrad
    vg = s2sgrad.value_and_grad(mlp_loss)
    P, X, Y = _mlp_inputs()
    return lambda: vg(P, X, Y)


def mlp_autograd() -> Callable:
    import autograd
    import autograd.numpy as anp
    vg = autograd.value_and_grad(lambda P, X, Y: mlp_loss(P, X, Y, anp))
    P, X, Y = _mlp_inputs()
    return lambda: vg(P, X, Y)


def _mlp_jax(jit: bool) -> Callable:
    import jax
    import jax.numpy as jnp
    vg = jax.value_and_grad(lambda P, X, Y: mlp_loss(P, X, Y, jnp))
    vg = jax.jit(vg) if jit else vg
    P, X, Y = _mlp_inputs()
    P, X, Y = [jnp.asarray(p) for p in P], jnp.asarray(X), jnp.asarray(Y)
    return lambda: jax.block_until_ready(vg(P, X, Y))


WORKLOADS: dict[str, dict] = {
    "seed step gradient": {"unit": "us", "calls": 2000, "impls": {
        "numpy": seed_numpy, "s2sgrad": seed_s2sgrad, "s2sgrad_blas_default": blas_default(seed_s2sgrad),
        "autograd": seed_autograd, "jax": lambda: _seed_jax(False), "jax_jit": lambda: _seed_jax(True)}},
    "MLP 784-512-512-10 gradient": {"unit": "ms", "calls": 20, "impls": {
        "numpy": mlp_numpy, "numpy_1thread": one_thread(mlp_numpy), "s2sgrad": mlp_s2sgrad,
        "s2sgrad_blas_default": blas_default(mlp_s2sgrad), "autograd": mlp_autograd,
        "jax": lambda: _mlp_jax(False), "jax_jit": lambda: _mlp_jax(True)}},
}
PEERS = ("autograd", "jax", "jax_jit")
THREAD_VARIANTS = ("numpy_1thread", "s2sgrad_blas_default")   # need threadpoolctl to mean anything


def alongside(workload: str) -> list[str]:
    """The implementations of ``workload`` timed in one process: numpy, s2sgrad and, with
    threadpoolctl installed, their thread variants."""
    threaded = importlib.util.find_spec("threadpoolctl") is not None
    return [impl for impl in WORKLOADS[workload]["impls"]
            if impl not in PEERS and (threaded or impl not in THREAD_VARIANTS)]


def time_group(workload: str, impls: list[str], repeats: int) -> dict[str, float]:
    """Median seconds per call of each of ``impls``, timed in alternating rounds (after the first
    call and half a second of warm-up each) so that changes in load hit them alike; also
    ``"<impl> cpu"``, the median CPU seconds per call (all of the process's threads: time spent
    preempted is not in it), and with ``numpy`` among them ``"<impl>/numpy"``: the median over
    rounds of the round's ratio to numpy (the steadiest wall-clock number on a busy machine)."""
    spec = WORKLOADS[workload]
    calls = {impl: spec["impls"][impl]() for impl in impls}
    for call in calls.values():
        warm_until = time.perf_counter() + 0.5
        while time.perf_counter() < warm_until:
            call()
    times: dict[str, list[float]] = {impl: [] for impl in impls}
    cpu: dict[str, list[float]] = {impl: [] for impl in impls}
    for _ in range(repeats):
        for impl, call in calls.items():
            t0, c0 = time.perf_counter(), time.process_time()
            for _ in range(spec["calls"]):
                call()
            times[impl].append((time.perf_counter() - t0) / spec["calls"])
            cpu[impl].append((time.process_time() - c0) / spec["calls"])
    found = {impl: statistics.median(t) for impl, t in times.items()}
    found.update({f"{impl} cpu": statistics.median(t) for impl, t in cpu.items()})
    if "numpy" in times:
        found.update({f"{impl}/numpy": statistics.median(t / base for t, base in zip(ts, times["numpy"], strict=True))
                      for impl, ts in times.items() if impl != "numpy"})
    return found


def _measure(workload: str, impls: list[str], repeats: int) -> dict[str, float | str]:
    call = f"decorator_calls.time_group({workload!r}, {impls!r}, {repeats})"
    code = f"import decorator_calls, json; print(json.dumps({call}))"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, HERE, os.environ.get("PYTHONPATH", "")]))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    if result.returncode != 0:
        last = (result.stderr.strip().splitlines() or ["failed"])[-1]
        return dict.fromkeys(impls, "not installed" if "ModuleNotFoundError" in last else last[:80])
    return json.loads(result.stdout.strip().splitlines()[-1])


def report(machine: str, repeats: int, peers: bool) -> None:
    """Time every workload and print its table; ``machine`` says how loaded it is."""
    for workload, spec in WORKLOADS.items():
        scale = 1e6 if spec["unit"] == "us" else 1e3
        print(f"{workload}, {machine} ({spec['unit']} per call, ratio to numpy)")
        found = _measure(workload, alongside(workload), repeats)  # one process, alternating rounds
        for impl in PEERS if peers else ():
            found.update(_measure(workload, [impl], repeats))       # each peer in its own process
        base, base_cpu = found["numpy"], found.get("numpy cpu")
        for impl, t in found.items():
            if "/" in impl or impl.endswith(" cpu"):
                continue
            if isinstance(t, str):
                print(f"  {impl:20s} skipped: {t}")
                continue
            ratio = f"{t / base:6.2f}x" if not isinstance(base, str) else ""
            paired = found.get(f"{impl}/numpy")
            rounds = f"   (median of per-round ratios {paired:.2f}x)" if isinstance(paired, float) else ""
            used = found.get(f"{impl} cpu")
            cpu = f"   cpu {used * scale:.2f} ({used / base_cpu:.2f}x)" if isinstance(base_cpu, float) and used else ""
            print(f"  {impl:20s} {t * scale:10.2f} {ratio}{rounds}{cpu}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    parser.add_argument("--no-peers", action="store_true", help="skip autograd and JAX")
    parser.add_argument("--loaded", action="store_true", help="then again with two busy processes running")
    args = parser.parse_args(argv)
    repeats = 3 if args.quick else 9
    report(f"load {os.getloadavg()[0]:.2f} before", repeats, not args.no_peers)
    if args.loaded:
        with busy_processes(2):
            report("with two busy processes", repeats, not args.no_peers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
