"""Record TensorFlow's values and gradients of tests/fft_programs.py (run with a TensorFlow install:
``/tmp/tfvenv/bin/python tests/data/fft_tf/record.py``); writes gradients.json here."""
import json
import os
import sys

import numpy as np
import tensorflow as tf1

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(here)))
import fft_programs  # noqa: E402

tf = tf1.compat.v1
tf.disable_eager_execution()
tf.spectral = tf1.compat.v1.spectral
record = {"tensorflow": tf1.__version__, "programs": {}}
for name, (which, transform) in fft_programs.PROGRAMS.items():
    value = getattr(fft_programs, which)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.as_dtype(value.dtype), value.shape)
        y = transform(tf, x)
        loss = fft_programs.loss(tf, y)
        try:
            grads = tf.gradients(loss, [x])
            error = None
        except (ValueError, LookupError) as e:  # TF's own gradient fails to build: record its message
            grads, error = [], str(e).splitlines()[0]
        with tf.Session() as sess:
            y_value, loss_value, *g = sess.run([y, loss] + grads, {x: value})
    entry = {"shape": list(y_value.shape), "dtype": y_value.dtype.name, "loss": float(loss_value)}
    if error is None:
        entry["grad"] = [[v.real, v.imag] for v in np.asarray(g[0], np.complex128).ravel()]
    else:
        entry["tensorflow_error"] = error
    record["programs"][name] = entry
with open(os.path.join(here, "gradients.json"), "w") as f:
    json.dump(record, f, indent=1)
