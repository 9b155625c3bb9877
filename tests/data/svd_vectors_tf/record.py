"""Record TensorFlow's gradients of tests/svd_vectors_programs.py (run with a TensorFlow install:
``/tmp/tfvenv/bin/python tests/data/svd_vectors_tf/record.py``); writes gradients.json here."""
import json
import os
import sys

import tensorflow as tf1

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(here)))
from svd_vectors_programs import PROGRAMS  # noqa: E402

tf = tf1.compat.v1
tf.disable_eager_execution()


def pairs(values):
    return [[v.real, v.imag] for v in values.ravel()]


record = {"tensorflow": tf1.__version__, "programs": {}}
for name, (value, full_matrices, loss_of) in PROGRAMS.items():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.as_dtype(value.dtype), value.shape)
        loss = loss_of(tf, *tf.linalg.svd(x, full_matrices=full_matrices))
        with tf.Session() as sess:
            result, grad = sess.run([loss, tf.gradients(loss, [x])[0]], {x: value})
    record["programs"][name] = {"x": pairs(value), "loss": float(result), "dx": pairs(grad)}
with open(os.path.join(here, "gradients.json"), "w") as f:
    json.dump(record, f, indent=1)
