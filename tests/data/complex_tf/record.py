"""Record TensorFlow's gradients of tests/complex_programs.py (run with a TensorFlow install:
``/tmp/tfvenv/bin/python tests/data/complex_tf/record.py``); writes gradients.json here."""
import json
import os
import sys

import tensorflow as tf1

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(here)))
from complex_programs import PROGRAMS, W, Z  # noqa: E402

tf = tf1.compat.v1
tf.disable_eager_execution()
record = {"tensorflow": tf1.__version__, "programs": {}}
for name, program in PROGRAMS.items():
    with tf.Graph().as_default():
        z = tf.placeholder(tf.complex128, Z.shape)
        w = tf.placeholder(tf.complex128, W.shape)
        loss = program(tf, z, w)
        grads = tf.gradients(loss, [z, w])
        with tf.Session() as sess:
            value, gz, gw = sess.run([loss] + grads, {z: Z, w: W})
    record["programs"][name] = {"loss": float(value), "dz": [[v.real, v.imag] for v in gz.ravel()],
                                "dw": [[v.real, v.imag] for v in gw.ravel()]}
with open(os.path.join(here, "gradients.json"), "w") as f:
    json.dump(record, f, indent=1)
