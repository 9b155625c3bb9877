"""s2sgrad against values recorded from TensorFlow 2.21 (tf.compat.v1 graph mode) for the tf.nn
normalization, selection, embedding and sampled-loss ops, the segment reductions, and the
run-time messages of tf.Assert / tf.assert_* / check_numerics / the segment checks.

tests/data/nnops_tf/README.md says how reference.json was made; cases.py holds the programs,
built once with TensorFlow and here with s2sgrad.
"""
import importlib.util
import json
import os
import sys

import numpy as np
import pytest

import s2sgrad as tf

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "nnops_tf")
_spec = importlib.util.spec_from_file_location("nnops_tf_cases", os.path.join(HERE, "cases.py"))
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)
with open(os.path.join(HERE, "reference.json"), encoding="utf-8") as _f:
    REFERENCE = json.load(_f)
RECORDED = REFERENCE["cases"]


def _array(entry):
    return np.array(entry["values"], dtype=entry["dtype"]).reshape(entry["shape"])


COUNTS = tuple(_array(c) for c in REFERENCE["counts"])
VALUE_CASES = cases.value_cases(tf, COUNTS)
ERROR_CASES = cases.error_cases(tf)
PRINT_CASES = cases.print_cases(tf, sys.stdout)


def _dense(value):
    """A fetched value as an array (an IndexedSlicesValue gradient summed into its dense shape)."""
    if isinstance(value, tf.IndexedSlicesValue):
        dense = np.zeros(value.dense_shape, value.values.dtype)
        np.add.at(dense, value.indices, value.values)
        return dense
    return np.asarray(value)


def _close(got, expected, what):
    assert got.dtype == expected.dtype, f"{what}: dtype {got.dtype} != TF's {expected.dtype}"
    assert got.shape == expected.shape, f"{what}: shape {got.shape} != TF's {expected.shape}"
    if expected.dtype.kind == "f":
        tol = 2e-5 if expected.dtype == np.float32 else 1e-10
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol, err_msg=what)
    else:
        np.testing.assert_array_equal(got, expected, err_msg=what)


def test_every_recorded_case_is_checked():
    assert set(RECORDED) == set(VALUE_CASES) | set(ERROR_CASES) | set(PRINT_CASES)


@pytest.mark.parametrize("name", sorted(VALUE_CASES))
def test_values_and_gradients_match_tensorflow(name):
    build, grad_of = VALUE_CASES[name]
    recorded = RECORDED[name]
    inputs = [_array(x) for x in recorded["inputs"]]
    with tf.Graph().as_default():
        holders = [tf.placeholder(tf.as_dtype(x.dtype), x.shape, name=f"in{i}") for i, x in enumerate(inputs)]
        out = build(*holders)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        fetch = list(outs)
        if grad_of:
            floats = [o for o in outs if o.dtype.is_floating]
            weights = [_array(w) for w in recorded["weights"]]
            total = tf.add_n([tf.reduce_sum(o * w) for o, w in zip(floats, weights, strict=True)])
            fetch += tf.gradients(total, [holders[i] for i in grad_of])
        with tf.Session() as sess:
            values = sess.run(fetch, dict(zip(holders, inputs, strict=True)))
    expected = [_array(v) for v in recorded["outputs"] + recorded["grads"]]
    for i, (got, want) in enumerate(zip(values, expected, strict=True)):
        _close(_dense(got), want, f"{name} output {i}")


# Where an output's tensor name differs from TF's: compositions whose last op TF names otherwise.
NAME_DIFFERENCES = {
    "fused_batch_norm_train": "the batch statistics are their own ops, not outputs 1 and 2 of one FusedBatchNormV3",
    "fused_batch_norm_train_nchw": "as fused_batch_norm_train",
    "fused_batch_norm_avg_factor": "as fused_batch_norm_train",
    "moments": "TF's squeeze is named moments/Squeeze; ours follows the reduction's name",
    "weighted_moments": "as moments",
    "batch_normalization": "TF 2.21 names the last op batchnorm/add (its add_1 in TF 1.x)",
    "swish": "TF 2.21 wraps swish in a custom gradient (IdentityN)",
    "embedding_mod": "TF stitches partitions with DynamicStitch + Reshape; ours gathers from their concatenation",
    "embedding_div_max_norm": "as embedding_mod",
    "compute_accidental_hits": "TF's is one ComputeAccidentalHits op; ours is a composition of where and gather",
    **{f"{loss}_hits{h}": "a composition, as TF's, with differently named inner ops"
       for loss in ["nce_loss", "sampled_softmax_loss"] for h in (0, 1)},
}


@pytest.mark.parametrize("name", sorted(set(VALUE_CASES) - set(NAME_DIFFERENCES)))
def test_output_names_match_tensorflow(name):
    build, _ = VALUE_CASES[name]
    inputs = [_array(x) for x in RECORDED[name]["inputs"]]
    with tf.Graph().as_default():
        out = build(*[tf.placeholder(tf.as_dtype(x.dtype), x.shape, name=f"in{i}") for i, x in enumerate(inputs)])
        names = [t.name for t in (out if isinstance(out, (list, tuple)) else [out])]
    assert names == RECORDED[name]["names"]


@pytest.mark.parametrize("name", sorted(ERROR_CASES))
def test_run_time_errors_carry_tensorflows_message(name):
    build, inputs = ERROR_CASES[name]
    recorded = RECORDED[name]
    with tf.Graph().as_default():
        holders = [tf.placeholder_with_default(value, value.shape, name=n) for n, value in inputs]
        target = build(*holders)
        with tf.Session() as sess:
            if recorded["error"] is None:
                sess.run(target)
                return
            with pytest.raises(tf.errors.InvalidArgumentError) as info:
                sess.run(target)
    assert recorded["error"] == "InvalidArgumentError"
    assert info.value.message.startswith(recorded["message"] + " (op '"), (info.value.message, recorded["message"])


@pytest.mark.parametrize("name", sorted(PRINT_CASES))
def test_prints_write_what_tensorflow_writes(name, capfd):
    with tf.Graph().as_default():
        target = cases.print_cases(tf, sys.stdout)[name]()  # the stream capfd put in place
        with tf.Session() as sess:
            capfd.readouterr()
            sess.run(target)
    written = capfd.readouterr()
    assert written.out + written.err == RECORDED[name]["printed"]
