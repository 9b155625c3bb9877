"""Writes the TensorFlow-made checkpoints in this directory (run once, with TensorFlow installed).

    /tmp/tfvenv/bin/python tests/data/checkpoints/make_tf_checkpoints.py tests/data/checkpoints

Each checkpoint ``<name>.ckpt-<step>`` comes with ``<name>.npz``: the values TensorFlow's session
fetched for every saved variable just before the save (keys are the variable op names with "/"
written as "|", strings as bytes arrays), so the tests compare what s2sgrad restores against TF's
own values. ``many`` has no .npz: its values are ``float32(i) / 7``.
"""
import os
import sys

import numpy as np
import tensorflow as tf

tf1 = tf.compat.v1
tf1.disable_eager_execution()
OUT = os.path.abspath(sys.argv[1])


def _array(value):
    """A fetched value as an array np.load reads without pickles (strings as bytes)."""
    value = np.asarray(value)
    return value.astype(bytes) if value.dtype == object else value


def _save(name, step, graph, sess, saver=None, values=True):
    """Save ``name.ckpt-<step>`` (and, with ``values``, ``name.npz``)."""
    variables = graph.get_collection(tf1.GraphKeys.GLOBAL_VARIABLES)
    if values:
        fetched = sess.run({v.op.name: v for v in variables})
        np.savez(os.path.join(OUT, name + ".npz"), **{k.replace("/", "|"): _array(v) for k, v in fetched.items()})
    saver = saver or tf1.train.Saver()
    print(saver.save(sess, os.path.join(OUT, name + ".ckpt"), global_step=step, write_meta_graph=False))


def dtypes():
    """Every dtype s2sgrad has, ranks 0 to 4, an empty tensor, strings."""
    rng = np.random.RandomState(0)
    graph = tf1.Graph()
    with graph.as_default():
        kinds = ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "complex64", "complex128"]
        for rank, kind in enumerate(kinds):
            shape = [2, 3, 1, 2][:rank % 5]
            value = (rng.standard_normal(shape) * 100)
            if kind.startswith("complex"):
                value = value + 1j * rng.standard_normal(shape)
            tf1.Variable(value.astype(kind), name="v_" + kind)
        tf1.Variable(rng.standard_normal([2, 1, 3, 2]).astype("float32"), name="scope/rank4")
        tf1.Variable(np.array([[True, False, True]]), name="v_bool")
        tf1.Variable(np.zeros([0, 3], np.float32), name="empty")
        tf1.Variable(np.array([b"", b"hello", "gr\u00fc\u00dfe".encode(), b"x" * 200]), name="strings")
        tf1.Variable(np.int64(-(2 ** 62)), name="scalar_int64")
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            _save("dtypes", 7, graph, sess)


def adam():
    """A small MLP trained 5 Adam steps: slots w/Adam, w/Adam_1, beta1_power, beta2_power, global_step."""
    rng = np.random.RandomState(1)
    x_data, y_data = rng.standard_normal([8, 3]).astype("float32"), rng.standard_normal([8, 1]).astype("float32")
    graph = tf1.Graph()
    with graph.as_default():
        step = tf1.train.get_or_create_global_step()
        x = tf1.placeholder(tf.float32, [None, 3])
        y = tf1.placeholder(tf.float32, [None, 1])
        with tf1.variable_scope("dense"):
            w = tf1.Variable(rng.standard_normal([3, 4]).astype("float32"), name="w")
            b = tf1.Variable(np.zeros([4], np.float32), name="b")
        w2 = tf1.Variable(rng.standard_normal([4, 1]).astype("float32"), name="w2")
        loss = tf1.reduce_mean(tf1.square(tf1.matmul(tf1.tanh(tf1.matmul(x, w) + b), w2) - y))
        train = tf1.train.AdamOptimizer(0.05).minimize(loss, global_step=step)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            for _ in range(5):
                sess.run(train, {x: x_data, y: y_data})
            saved_loss = sess.run(loss, {x: x_data, y: y_data})
            _save("adam", 5, graph, sess)
            sess.run(train, {x: x_data, y: y_data})
            np.savez(os.path.join(OUT, "adam_data.npz"), x=x_data, y=y_data, saved_loss=saved_loss,
                     loss_after_step_6=sess.run(loss, {x: x_data, y: y_data}))


OPTIMIZERS = {"momentum": "MomentumOptimizer(0.05, 0.9)", "adagrad": "AdagradOptimizer(0.1)",
              "rmsprop": "RMSPropOptimizer(0.01, momentum=0.5, centered=True)", "sgd": "GradientDescentOptimizer(0.1)"}


def optimizers():
    """For each optimizer: ``opt_<name>.ckpt-3`` after 3 steps on a small model (variables ``layer/w``, ``b``,
    their slots, ``global_step``), and ``opt_<name>_data.npz`` with the loss after a 4th step."""
    rng = np.random.RandomState(3)
    x_data, y_data = rng.standard_normal([6, 2]).astype("float32"), rng.standard_normal([6, 1]).astype("float32")
    w0, b0 = rng.standard_normal([2, 1]).astype("float32"), np.float32(0.5)
    for name, optimizer in OPTIMIZERS.items():
        graph = tf1.Graph()
        with graph.as_default():
            step = tf1.train.get_or_create_global_step()
            with tf1.variable_scope("layer"):
                w = tf1.Variable(w0, name="w")
            b = tf1.Variable(b0, name="b")
            loss = tf1.reduce_mean(tf1.square(tf1.matmul(x_data, w) * b - y_data))
            train = eval("tf1.train." + optimizer).minimize(loss, global_step=step)
            with tf1.Session() as sess:
                sess.run(tf1.global_variables_initializer())
                for _ in range(3):
                    sess.run(train)
                _save("opt_" + name, 3, graph, sess, values=False)
                sess.run(train)
                np.savez(os.path.join(OUT, f"opt_{name}_data.npz"), x=x_data, y=y_data,
                         loss_after_step_4=sess.run(loss))


def many():
    """900 variables with 300-character names: the index table has several data blocks."""
    graph = tf1.Graph()
    with graph.as_default():
        for i in range(900):
            tf1.Variable(np.float32(i) / 7, name=f"v{i:04d}_" + "abcdefghij" * 30)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            _save("many", 1, graph, sess, values=False)  # the values are i / 7 in float32


def sharded():
    """Saver(sharded=True) and three saves with max_to_keep=2 (the state file TF writes)."""
    graph = tf1.Graph()
    with graph.as_default():
        v = tf1.Variable(np.arange(4, dtype=np.float32), name="v")
        inc = tf1.assign_add(v, tf1.ones([4]))
        saver = tf1.train.Saver(sharded=True, max_to_keep=2)
        with tf1.Session() as sess:
            sess.run(tf1.global_variables_initializer())
            for step in range(3):
                sess.run(inc)
                _save("sharded", step, graph, sess, saver)


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    dtypes()
    adam()
    many()
    sharded()
    optimizers()
    os.remove(os.path.join(OUT, "checkpoint"))  # it holds this machine's absolute paths
