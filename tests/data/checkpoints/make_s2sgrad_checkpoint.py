"""Writes a checkpoint with s2sgrad (every dtype, ranks 0-4, an Adam-trained model) for ``check_in_tf.py``.

    python tests/data/checkpoints/make_s2sgrad_checkpoint.py /tmp/s2s_ckpt

writes ``/tmp/s2s_ckpt/model.ckpt-3`` and ``/tmp/s2s_ckpt/values.npz`` (the values the session
held, keys as in ``make_tf_checkpoints.py``).
"""
import os
import sys

import numpy as np

import s2sgrad as tf

OUT = os.path.abspath(sys.argv[1])
rng = np.random.RandomState(2)
for rank, kind in enumerate(["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                             "uint16", "uint32", "uint64", "complex64", "complex128", "bool"]):
    value = rng.standard_normal([3, 2, 1, 2][:rank % 5]) * 50
    value = value + 1j * value if kind.startswith("complex") else value > 0 if kind == "bool" else value
    tf.Variable(value.astype(kind), name="v_" + kind, trainable=False)
strings = np.array([[b"a", b""], [b"\xff\x00", b"long" * 40]], dtype=object)
tf.Variable(strings, name="scope/strings", trainable=False)
x = tf.constant(rng.standard_normal([6, 3]).astype("float32"))
w = tf.Variable(rng.standard_normal([3, 1]).astype("float32"), name="dense/w")
step = tf.train.get_or_create_global_step()
train = tf.train.AdamOptimizer(0.1).minimize(tf.reduce_sum(tf.square(tf.matmul(x, w))), global_step=step)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        sess.run(train)
    variables = tf.global_variables()
    values = sess.run(variables)
    np.savez(os.path.join(OUT, "values.npz"), **{v.op.name.replace("/", "|"): np.asarray(value).astype(bytes)
                                                 if np.asarray(value).dtype == object else np.asarray(value)
                                                 for v, value in zip(variables, values, strict=True)})
    print(tf.train.Saver().save(sess, os.path.join(OUT, "model.ckpt"), global_step=step))
