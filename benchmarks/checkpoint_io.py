"""Checkpoint speed: CRC-32C throughput, and Saver.save / restore against np.savez / np.load of the same arrays.

    python benchmarks/checkpoint_io.py            # 1 MB and 40 MB of float32 variables
    python benchmarks/checkpoint_io.py --mb 200   # another size (as well as 1 MB)

Times are medians of 5 runs; the save includes flushing the files to disk (fsync), as Saver does
for atomic saves, and so does the NumPy baseline.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import s2sgrad as tf
from s2sgrad import crc32c


def _median(fn, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _numpy_save(path: str, arrays: dict) -> None:
    with open(path, "wb") as f:
        np.savez(f, **arrays)
        f.flush()
        os.fsync(f.fileno())


def run(megabytes: float, directory: str) -> None:
    data = np.random.default_rng(0).integers(0, 256, int(megabytes * 2 ** 20), dtype=np.uint8).tobytes()
    crc = _median(lambda: crc32c.value(data))
    count = 10
    side = int(np.sqrt(megabytes * 2 ** 20 / 4 / count))
    with tf.Graph().as_default():
        variables = [tf.Variable(np.random.rand(side, side).astype(np.float32), name=f"v{i}") for i in range(count)]
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            prefix = os.path.join(directory, "model")
            save = _median(lambda: saver.save(sess, prefix, write_state=False))
            restore = _median(lambda: saver.restore(sess, prefix))
            arrays = dict(zip([v.op.name for v in variables], sess.run(variables), strict=True))
    npz = os.path.join(directory, "arrays.npz")
    np_save = _median(lambda: _numpy_save(npz, arrays))
    np_load = _median(lambda: dict(np.load(npz).items()))
    print(f"{megabytes:7.1f} MB  crc32c {crc * 1e3:8.1f} ms ({megabytes / crc:6.1f} MB/s)  "
          f"save {save * 1e3:8.1f} ms (np.savez {np_save * 1e3:7.1f})  "
          f"restore {restore * 1e3:8.1f} ms (np.load {np_load * 1e3:7.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=40.0, help="the larger size, in MB")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        for megabytes in (1.0, args.mb):
            run(megabytes, directory)


if __name__ == "__main__":
    main()
