"""Record TensorFlow's gradients of tests/complex_linalg_programs.py (run with a TensorFlow install:
``/tmp/tfvenv/bin/python tests/data/complex_linalg_tf/record.py``); writes gradients.json here."""
import json
import os
import sys

import tensorflow as tf1

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(here)))
from complex_linalg_programs import PROGRAMS, W, Z  # noqa: E402

tf = tf1.compat.v1
tf.disable_eager_execution()


def pairs(values):
    return [[v.real, v.imag] for v in values.ravel()]


record = {"tensorflow": tf1.__version__, "Z": pairs(Z), "W": pairs(W), "programs": {}}
for name, program in PROGRAMS.items():
    with tf.Graph().as_default():
        z = tf.placeholder(tf.complex128, Z.shape)
        w = tf.placeholder(tf.complex128, W.shape)
        loss = program(tf, z, w)
        grads = [g if g is not None else tf.zeros_like(x)
                 for g, x in zip(tf.gradients(loss, [z, w]), [z, w], strict=True)]
        with tf.Session() as sess:
            value, gz, gw = sess.run([loss] + grads, {z: Z, w: W})
    record["programs"][name] = {"loss": float(value), "dz": pairs(gz), "dw": pairs(gw)}
with open(os.path.join(here, "gradients.json"), "w") as f:
    json.dump(record, f, indent=1)
