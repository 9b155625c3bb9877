"""Record tests/data/rnn/tf_rnn.npz from TensorFlow (see README.md next to this file).

    TF_USE_LEGACY_KERAS=1 python tests/data/rnn/record_tf.py
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

import tensorflow.compat.v1 as tf  # noqa: E402

import rnn_programs as rp  # noqa: E402

tf.disable_eager_execution()


def record(name: str) -> dict:
    graph = tf.Graph()
    with graph.as_default():
        x, lengths, leaves, loss, variables = rp.build(tf, name)
        grads = tf.gradients(loss, variables + [x])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            rp.set_weights(tf, sess, variables)
            values = sess.run([leaves, grads], {x: rp.inputs(), lengths: rp.LENGTHS})
    out = {f"{name}/output{i}": v for i, v in enumerate(values[0])}
    out.update({f"{name}/grad{i}": g for i, g in enumerate(values[1])})
    out[f"{name}/variables"] = np.array(json.dumps([[v.name, v.shape.as_list()] for v in variables]))
    return out


if __name__ == "__main__":
    data = {}
    for program in rp.PROGRAMS:
        data.update(record(program))
    with tf.Graph().as_default():
        curve, accuracy = rp.digits_classifier(tf)
    data["digits/curve"], data["digits/accuracy"] = np.array(curve), np.array(accuracy)
    np.savez_compressed(os.path.join(HERE, "tf_rnn.npz"), **data)
    print(f"recorded {len(rp.PROGRAMS)} programs with TensorFlow {tf.VERSION}")
