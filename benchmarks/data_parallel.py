"""Data-parallel steps on a Dask LocalCluster against one process (s2sgrad and hand-written NumPy).

    python benchmarks/data_parallel.py                  # 50,000 examples, 2 workers
    python benchmarks/data_parallel.py --examples 20000 --workers 2 --repeats 3

One training step (a 64-256-10 softmax MLP, plain SGD) over the whole batch: in one process
with s2sgrad and with hand-written NumPy, then with ``s2sgrad.distributed.DataParallel`` over
the workers, once with the batch sent from the driver every step and once with shards made on
the workers (``DataParallel.load``), which is how large data should be used. Times are medians
of interleaved repeats; ratios are against hand-written NumPy in one process.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import distributed  # pip install s2sgrad[distributed]
import numpy as np

import s2sgrad as tf
import s2sgrad.distributed as sd

N_IN, N_HIDDEN, N_OUT = 64, 256, 10


def batch(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    xs = rng.normal(size=(n, N_IN)).astype(np.float32)
    return xs, np.eye(N_OUT, dtype=np.float32)[rng.integers(0, N_OUT, n)]


def shard_loader(n_examples: int, n_shards: int):
    def load(index: int) -> dict:
        xs, ys = batch(n_examples)
        part = np.array_split(np.arange(n_examples), n_shards)[index]
        return {"x": xs[part], "y": ys[part]}
    return load


def numpy_step(xs: np.ndarray, ys: np.ndarray, params: list[np.ndarray], lr: float = 0.1) -> float:
    w1, b1, w2, b2 = params
    h = np.maximum(xs @ w1 + b1, 0)
    logits = h @ w2 + b2
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    loss = -np.mean(np.sum(ys * np.log(p), axis=1))
    g_logits = (p - ys) / len(xs)
    g_h = (g_logits @ w2.T) * (h > 0)
    grads = [xs.T @ g_h, g_h.sum(0), h.T @ g_logits, g_logits.sum(0)]
    for param, g in zip(params, grads, strict=True):
        param -= lr * g
    return float(loss)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=50_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    xs, ys = batch(args.examples)
    init = np.random.default_rng(1)
    start = [init.normal(scale=0.1, size=(N_IN, N_HIDDEN)).astype(np.float32), np.zeros(N_HIDDEN, np.float32),
             init.normal(scale=0.1, size=(N_HIDDEN, N_OUT)).astype(np.float32), np.zeros(N_OUT, np.float32)]
    x = tf.placeholder(tf.float32, [None, N_IN], name="x")
    y = tf.placeholder(tf.float32, [None, N_OUT], name="y")
    w1, b1, w2, b2 = (tf.Variable(v) for v in start)
    logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client, tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        dp = sd.DataParallel(client, loss, tf.train.GradientDescentOptimizer(0.1), feeds=[x, y])
        shards = dp.load(shard_loader(args.examples, args.workers), args.workers)
        params = [v.copy() for v in start]
        steps = {"numpy, one process": lambda: numpy_step(xs, ys, params),
                 "s2sgrad, one process": lambda: sess.run([train, loss], {x: xs, y: ys}),
                 f"s2sgrad on {args.workers} workers, batch sent": lambda: dp.run({x: xs, y: ys}),
                 f"s2sgrad on {args.workers} workers, shards on workers": lambda: dp.run(shards)}
        times: dict[str, list[float]] = {name: [] for name in steps}
        for step in steps.values():
            step()  # compile, ship and warm up
        for _ in range(args.repeats):
            for name, step in steps.items():
                t0 = time.perf_counter()
                step()
                times[name].append(time.perf_counter() - t0)
    base = statistics.median(times["numpy, one process"])
    print(f"{args.examples} examples, {args.workers} worker processes, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}")
    for name, ts in times.items():
        print(f"  {name:45s} {statistics.median(ts) * 1e3:8.1f} ms/step  {statistics.median(ts) / base:5.2f}x")


if __name__ == "__main__":
    main()
