"""Writes tf_events/ (an event file from TensorFlow) and inputs.npz: run once with TensorFlow installed,
    /tmp/tfvenv/bin/python tests/data/events/make_tf_events.py
Not run by the tests (they only read what it wrote)."""
import os
import shutil

import numpy as np
import tensorflow as tf

tf1 = tf.compat.v1
tf1.disable_eager_execution()
here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "tf_events")
shutil.rmtree(out, ignore_errors=True)

rng = np.random.default_rng(15)
inputs = {
    "loss": np.array([2.5, 1.25, 0.625], np.float32),
    "weights": rng.standard_normal((3, 40)).astype(np.float32) * 3.0,
    "pos_image": rng.uniform(0.0, 2.0, (2, 3, 4, 3)).astype(np.float32),
    "neg_image": rng.uniform(-1.0, 3.0, (2, 3, 4, 1)).astype(np.float32),
    "u8_image": rng.integers(0, 256, (1, 2, 5, 4)).astype(np.uint8),
}
inputs["neg_image"][1, 0, 0, 0] = np.nan
np.savez(os.path.join(here, "inputs.npz"), **inputs)

loss = tf1.placeholder(tf.float32, [], name="loss_value")
weights = tf1.placeholder(tf.float32, [None, 40], name="weights")
pos = tf1.placeholder(tf.float32, [None, 3, 4, 3], name="pos")
neg = tf1.placeholder(tf.float32, [None, 3, 4, 1], name="neg")
u8 = tf1.placeholder(tf.uint8, [None, 2, 5, 4], name="u8")
with tf1.name_scope("train"):
    tf1.summary.scalar("loss", loss)
tf1.summary.histogram("weights", weights)
tf1.summary.image("pos", pos, max_outputs=2)
tf1.summary.image("neg", neg, max_outputs=3)
tf1.summary.image("u8", u8)
tf1.summary.text("note", tf.constant(["hello", "world"]))
merged = tf1.summary.merge_all()
with tf1.Session() as sess:
    writer = tf1.summary.FileWriter(out, sess.graph)
    for step in range(3):
        feed = {loss: inputs["loss"][step], weights: inputs["weights"][:step + 1], pos: inputs["pos_image"],
                neg: inputs["neg_image"], u8: inputs["u8_image"]}
        writer.add_summary(sess.run(merged, feed), global_step=step * 10)
    writer.close()
print(os.listdir(out))
