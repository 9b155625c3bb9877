"""Restores an s2sgrad checkpoint in TensorFlow and compares every value (run with TensorFlow installed).

    /tmp/tfvenv/bin/python tests/data/checkpoints/check_in_tf.py /tmp/s2s_ckpt

builds a TF graph with one variable per entry of ``values.npz`` (same name, dtype and shape),
restores ``tf.train.latest_checkpoint(dir)`` with ``tf.compat.v1.train.Saver`` and checks the
restored values equal the ones s2sgrad's session held; also reads them with NewCheckpointReader.
"""
import os
import sys

import numpy as np
import tensorflow as tf

tf1 = tf.compat.v1
tf1.disable_eager_execution()
directory = os.path.abspath(sys.argv[1])
expected = {k.replace("|", "/"): v for k, v in np.load(os.path.join(directory, "values.npz")).items()}
prefix = tf1.train.latest_checkpoint(directory)
variables = {name: tf1.Variable(tf1.zeros(v.shape, v.dtype if v.dtype.kind != "S" else tf.string), name=name)
             for name, v in expected.items()}
with tf1.Session() as sess:
    tf1.train.Saver().restore(sess, prefix)
    restored = sess.run(variables)
reader = tf1.train.NewCheckpointReader(prefix)
assert sorted(reader.get_variable_to_shape_map()) == sorted(expected)
for name, want in expected.items():
    for got in (restored[name], reader.get_tensor(name)):
        got = np.asarray(got)
        got = got.astype(bytes) if got.dtype == object else got
        assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want), name
print(f"TensorFlow {tf.__version__} restored all {len(expected)} tensors of {prefix} with the same values")
