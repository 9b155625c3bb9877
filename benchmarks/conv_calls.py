"""Per call: the convolution and pooling helpers the generated code calls (``rt.conv``, ``rt.max_pool_grad``...)
at the layer shapes of the CNN workload (benchmarks/cnn.py) and of tests/corpus/deep_cnn.py, against the
hand-written NumPy formulation of the same op (cnn.py's: im2col matrix products, pooling by reshape).

    python benchmarks/conv_calls.py              # CPU ms per call, one BLAS thread, median of 25
    python benchmarks/conv_calls.py --threads 2 --wall

Both sides of a row run alternately in this process (load drifts hit them alike). The hand-written
max-pool gradient gives a window's gradient to every tied maximum, TensorFlow's (``rt``) to the first.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from cnn import im2col, pool2

from s2sgrad.codegen import runtime as rt

# name, batch, image side, input channels, output channels, window side (SAME, stride 1; 2x2/2 pooling)
LAYERS = [("CNN layer 1", 64, 28, 1, 16, 3), ("CNN layer 2", 64, 14, 16, 32, 3),
          ("deep_cnn layer 1", 64, 8, 1, 32, 5), ("deep_cnn layer 2", 64, 4, 32, 64, 5)]


def _calls(batch: int, side: int, cin: int, cout: int, k: int) -> dict[str, tuple[Callable, Callable]]:
    """op -> (hand-written NumPy, s2sgrad's helper), on fixed random float32 data of one layer."""
    rng = np.random.default_rng(0)
    x = np.maximum(rng.standard_normal((batch, side, side, cin)), 0).astype(np.float32)
    w = rng.standard_normal((k, k, cin, cout)).astype(np.float32)
    g = rng.standard_normal((batch, side, side, cout)).astype(np.float32)
    y = np.maximum(rt.conv(x, w, (1, 1), "SAME"), 0)
    pooled = rt.max_pool(y, (2, 2), (2, 2), "VALID")
    g_pooled = rng.standard_normal(pooled.shape).astype(np.float32)
    half = side // 2
    y6 = y.reshape(batch, half, 2, half, 2, cout)
    flipped = w[::-1, ::-1].transpose(0, 1, 3, 2).reshape(-1, cin)
    return {
        "conv": (lambda: (im2col(x, k) @ w.reshape(-1, cout)).reshape(g.shape),
                 lambda: rt.conv(x, w, (1, 1), "SAME")),
        "input gradient": (lambda: (im2col(g, k) @ flipped).reshape(x.shape),
                           lambda: rt.conv_backprop_input(x.shape, w, g, (1, 1), "SAME")),
        "filter gradient": (lambda: (im2col(x, k).T @ g.reshape(-1, cout)).reshape(w.shape),
                            lambda: rt.conv_backprop_filter(x, w.shape, g, (1, 1), "SAME")),
        "max pool": (lambda: pool2(y6), lambda: rt.max_pool(y, (2, 2), (2, 2), "VALID")),
        "max-pool gradient": (
            lambda: ((y6 == pooled[:, :, None, :, None]) * g_pooled[:, :, None, :, None]).reshape(y.shape),
            lambda: rt.max_pool_grad(y, pooled, g_pooled, (2, 2), (2, 2), "VALID")),
    }


def _alternating(pair: tuple[Callable, Callable], repeats: int, clock: Callable[[], float]) -> list[float]:
    """Median ms of each of ``pair``, run one after the other ``repeats`` times (after one untimed run each)."""
    times: list[list[float]] = [[], []]
    for f in pair:
        f()
    for _ in range(repeats):
        for i, f in enumerate(pair):
            start = clock()
            f()
            times[i].append(clock() - start)
    return [statistics.median(t) * 1e3 for t in times]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=1, help="BLAS threads (threadpoolctl), default 1")
    parser.add_argument("--wall", action="store_true", help="wall time instead of the process's CPU time")
    parser.add_argument("--repeats", type=int, default=25)
    args = parser.parse_args(argv)
    from threadpoolctl import threadpool_limits
    clock = time.perf_counter if args.wall else time.process_time
    print(f"# per call, {'wall' if args.wall else 'CPU'} ms, {args.threads} BLAS thread(s), "
          f"load average {os.getloadavg()[0]:.1f}")
    print("| layer | op | hand-written NumPy | s2sgrad | s2sgrad / NumPy |")
    print("|---|---|---|---|---|")
    with threadpool_limits(args.threads, user_api="blas"):
        for name, *shape in LAYERS:
            for op, pair in _calls(*shape).items():
                numpy_ms, ours_ms = _alternating(pair, args.repeats, clock)
                print(f"| {name} | {op} | {numpy_ms:.2f} | {ours_ms:.2f} | {ours_ms / numpy_ms:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
