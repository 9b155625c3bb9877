"""Record TensorFlow's values for tests/test_nnops_tf.py (run with TF, not part of the suite).

    /tmp/tfvenv/bin/python tests/data/nnops_tf/record.py   # writes tests/data/nnops_tf/reference.json

The programs are cases.py's, built with ``tf.compat.v1``; every input is generated here from a
fixed seed and stored with the outputs, so the test feeds s2sgrad exactly what TensorFlow saw.
"""
import json
import os
import sys
import tempfile

import numpy as np
import tensorflow as tf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import EIDS, error_cases, print_cases, value_cases

v1 = tf.compat.v1
v1.disable_eager_execution()
R = np.random.default_rng(2024)


def f32(*shape):
    return R.standard_normal(shape).astype(np.float32)


def f64(*shape):
    return R.standard_normal(shape)


DATA = np.array([[1.0, 2.0], [3.0, 2.0], [3.0, 0.0], [-1.0, 4.0], [0.0, 0.0], [2.5, -1.0]])  # ties and zeros
IDS, UIDS = np.array([0, 0, 0, 2, 2, 3], np.int32), np.array([1, -1, 1, 0, 3, 1], np.int32)
X4, G, B, M = f32(2, 3, 2, 4), R.uniform(0.5, 1.5, 4).astype(np.float32), f32(4), f32(4)
V = R.uniform(0.5, 2, 4).astype(np.float32)
TIES = np.array([[1.0, 3.0, 3.0, 2.0, 3.0], [0.5, 0.5, 0.5, 0.5, 0.5], [4.0, -1.0, 2.0, 2.0, 9.0]])
TABLE = f64(7, 3) * 2
COUNTS = (R.uniform(0.2, 0.9, (3, 2)).astype(np.float32), R.uniform(0.2, 0.9, 5).astype(np.float32))
SAMPLED_LOSS = [f32(10, 4), f32(10), f32(3, 4)]
INPUTS = {
    **{op: [DATA, IDS] for op in ["segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod"]},
    **{op: [DATA, UIDS] for op in ["unsorted_segment_sum", "unsorted_segment_max", "unsorted_segment_min",
                                   "unsorted_segment_prod", "unsorted_segment_mean", "unsorted_segment_sqrt_n"]},
    "unsorted_segment_max_int32": [np.array([4, 7, 1], np.int32), np.array([0, 0, 2], np.int32)],
    "fused_batch_norm_train": [X4, G, B], "fused_batch_norm_train_nchw": [f32(2, 3, 2, 2), G[:3], B[:3]],
    "fused_batch_norm_inference": [X4, G, B, M, V], "fused_batch_norm_avg_factor": [X4, G, B, M, V],
    "batch_normalization": [f64(2, 3, 4), f64(4), R.uniform(0.5, 2, 4), f64(4), f64(4)],
    "moments": [f64(3, 2, 4)], "weighted_moments": [f64(3, 4), R.uniform(0, 2, (3, 4))], "lrn": [f32(2, 2, 3, 7)],
    "top_k_ties": [TIES], "in_top_k_ties": [TIES.astype(np.float32), np.array([2, 4, 0], np.int32)],
    "in_top_k_k2": [TIES.astype(np.float32), np.array([3, 0, 2], np.int32)],
    "crelu": [f64(3, 4)], "swish": [f64(3, 4)], "weighted_cross_entropy": [R.uniform(0, 1, (3, 4)), f64(3, 4) * 3],
    "embedding_mod": [TABLE[0::3], TABLE[1::3], TABLE[2::3]],
    "embedding_div_max_norm": [TABLE[0:3], TABLE[3:5], TABLE[5:7]],
    "compute_accidental_hits": [np.array([[2, 7], [4, 0], [9, 2]], np.int64), np.array([7, 3, 5, 2, 8], np.int64)],
    **{f"{loss}_hits{h}": SAMPLED_LOSS for loss in ["nce_loss", "sampled_softmax_loss"] for h in (0, 1)},
}
assert EIDS.max() < len(TABLE)


def record(build, inputs, grad_of):
    """Outputs of ``build(*placeholders)``, and with ``grad_of`` the gradients of
    ``sum(output * weights)`` (random weights, stored) with respect to those inputs."""
    with v1.Graph().as_default():
        holders = [v1.placeholder(tf.as_dtype(x.dtype), x.shape, name=f"in{i}") for i, x in enumerate(inputs)]
        out = build(*holders)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        feed = dict(zip(holders, inputs, strict=True))
        with v1.Session() as sess:
            values = sess.run(outs, feed)
            weights, grads = [], []
            if grad_of:  # weights of the outputs' actual shapes (some are known only at run time)
                floats = [(o, v) for o, v in zip(outs, values, strict=True) if o.dtype.is_floating]
                weights = [R.standard_normal(np.shape(v)).astype(v.dtype) for _, v in floats]
                total = tf.add_n([tf.reduce_sum(o * w) for (o, _), w in zip(floats, weights, strict=True)])
                grads = sess.run(v1.gradients(total, [holders[i] for i in grad_of]), feed)
    return {"inputs": [_json(x) for x in inputs], "outputs": [_json(v) for v in values],
            "grads": [_json(g) for g in grads], "weights": [_json(w) for w in weights],
            "names": [o.name for o in outs]}


def record_error(build, inputs):
    with v1.Graph().as_default():
        holders = [v1.placeholder_with_default(value, value.shape, name=name) for name, value in inputs]
        target = build(*holders)
        with v1.Session() as sess:
            try:
                sess.run(target)
            except tf.errors.OpError as e:  # TF's text, without the trailer naming the node
                return {"error": type(e).__name__, "message": e.message.split("\n\t [[")[0].split("\n")[-1]}
    return {"error": None, "message": None}


def record_print(build):
    """What running ``build()`` writes to file descriptors 1 and 2 (where TF's kernels write)."""
    with v1.Graph().as_default():
        target = build()
        with v1.Session() as sess, tempfile.TemporaryFile() as out:
            sys.stdout.flush()
            saved = os.dup(1), os.dup(2)
            os.dup2(out.fileno(), 1)
            os.dup2(out.fileno(), 2)
            try:
                sess.run(target)
            finally:
                os.dup2(saved[0], 1)
                os.dup2(saved[1], 2)
            out.seek(0)
            return {"printed": out.read().decode()}


def _json(x):
    if hasattr(x, "indices"):  # an IndexedSlicesValue gradient, made dense
        dense = np.zeros(x.dense_shape, x.values.dtype)
        np.add.at(dense, x.indices, x.values)
        x = dense
    x = np.asarray(x)
    return {"dtype": x.dtype.name, "shape": list(x.shape), "values": x.tolist()}


cases = {name: record(build, INPUTS[name], grad_of) for name, (build, grad_of) in value_cases(v1, COUNTS).items()}
cases.update({name: record_error(build, inputs) for name, (build, inputs) in error_cases(v1).items()})
cases.update({name: record_print(build) for name, build in print_cases(v1, sys.stdout).items()})
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference.json"), "w") as f:
    json.dump({"tensorflow": tf.__version__, "counts": [_json(c) for c in COUNTS], "cases": cases}, f, indent=0)
