"""Op cases: tf.math.segment_* and unsorted_segment_*; references are NumPy loops over the
segments, written from the definitions (empty segments: 0 for the sorted ops, the reduction's
identity for the unsorted ones; negative unsorted ids are dropped)."""
import numpy as np

import s2sgrad as tf
from optable import OpCase

R = np.random.default_rng(14)
DATA = R.uniform(0.5, 2.0, (6, 3)) * np.where(R.random((6, 3)) < 0.3, -1, 1)   # distinct: no ties
IDS = np.array([0, 0, 1, 3, 3, 3], np.int32)           # segment 2 is empty
UIDS = np.array([2, -1, 0, 2, 4, 0], np.int32)         # a dropped row, empty segments 1 and 3
N = 5
WITH_ZERO = DATA.copy()
WITH_ZERO[3, 0] = 0.0                                  # one zero in segment 3 (column 0)
WITH_ZEROS = WITH_ZERO.copy()
WITH_ZEROS[4, 1] = WITH_ZEROS[5, 1] = 0.0              # two zeros in segment 3 (column 1)
TIED = np.array([[1.0, 2.0], [3.0, 2.0], [3.0, 0.5], [-1.0, 4.0]])   # max ties in segment 0
TIED_IDS = np.array([0, 0, 0, 1], np.int32)


def sorted_reference(reduce, empty=0.0):
    def reference(data, ids):
        n = int(ids[-1]) + 1
        return np.stack([reduce(data[ids == k], axis=0) if np.any(ids == k) else np.full(data.shape[1:], empty)
                         for k in range(n)]).astype(data.dtype)
    return reference


def unsorted_reference(reduce, empty):
    def reference(data, ids):
        return np.stack([reduce(data[ids == k], axis=0) if np.any(ids == k) else np.full(data.shape[1:], empty)
                         for k in range(N)]).astype(data.dtype)
    return reference


LOWEST, HIGHEST = np.finfo(np.float64).min, np.finfo(np.float64).max


def _sorted(name, reduce, data=DATA, ids=IDS, empty=0.0, **kw):
    op = getattr(tf.math, "segment_" + name)
    return OpCase(f"segment_{name}" + kw.pop("suffix", ""), lambda d, i: op(d, i), [data, ids],
                  sorted_reference(reduce, empty), **kw)


def _unsorted(name, reduce, empty, data=DATA, **kw):
    op = getattr(tf.math, "unsorted_segment_" + name)
    return OpCase(f"unsorted_segment_{name}" + kw.pop("suffix", ""), lambda d, i: op(d, i, N), [data, UIDS],
                  unsorted_reference(reduce, empty), **kw)


CASES = [
    _sorted("sum", np.sum, order2=True),
    _sorted("mean", np.mean, order2=True),
    _sorted("max", np.max),
    _sorted("min", np.min),
    _sorted("prod", np.prod, empty=1.0, order2=True),
    _sorted("prod", np.prod, data=WITH_ZERO, empty=1.0, suffix="_one_zero"),
    _sorted("prod", np.prod, data=WITH_ZEROS, empty=1.0, suffix="_two_zeros"),
    _sorted("max", np.max, data=TIED, ids=TIED_IDS, suffix="_ties", grad=False),
    _sorted("sum", np.sum, data=np.arange(12, dtype=np.int32).reshape(6, 2), suffix="_int32", grad=False),
    _unsorted("sum", np.sum, 0.0, order2=True, suffix="_negative_ids"),
    _unsorted("max", np.max, LOWEST),
    _unsorted("min", np.min, HIGHEST),
    _unsorted("prod", np.prod, 1.0),
    _unsorted("prod", np.prod, 1.0, data=WITH_ZERO, suffix="_one_zero"),
    _unsorted("mean", np.mean, 0.0, order2=True),
    _unsorted("sqrt_n", lambda v, axis: v.sum(axis) / np.sqrt(len(v)), 0.0, order2=True),
    OpCase("unsorted_segment_max_rank2_ids", lambda d, i: tf.math.unsorted_segment_max(d, i, 3),
           [DATA.reshape(2, 3, 3), np.array([[0, 2, 1], [-1, 0, 2]], np.int32)],
           lambda d, i: np.stack([d[i == k].max(0) for k in range(3)])),
]
