"""Export: ship a training step as a standalone module that needs only NumPy.

``tf.export(fetches, path, feed_dict)`` writes ``path`` (the generated code, the runtime
helpers it uses and a small ``Step`` wrapper) and an ``.npz`` beside it (the variables'
current values, the constants and the example feeds). Here we export after two steps,
then train on both sides and check that they agree to the bit.

    python examples/export_training_step.py [OUTPUT_DIR]
"""
import importlib.util
import os
import sys
import tempfile

import numpy as np

import s2sgrad as tf


def main(out_dir):
    rng = np.random.default_rng(1)
    xs = rng.normal(size=(16, 2)).astype(np.float32)
    ys = (xs @ np.array([2.0, -1.0], np.float32) + 0.5).astype(np.float32)

    x = tf.placeholder(tf.float32, shape=[None, 2], name="x")
    y = tf.placeholder(tf.float32, shape=[None], name="y")
    w = tf.Variable(tf.zeros([2, 1]), name="w")
    b = tf.Variable(0.0, name="b")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w)[:, 0] + b - y), name="loss")
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)

    path = os.path.join(out_dir, "train_step.py")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(2):
            sess.run(train, {x: xs, y: ys})
        written = tf.export([train, loss], path, {x: xs, y: ys})
        print("wrote", ", ".join(os.path.basename(p) for p in written))
        session_losses = [sess.run([train, loss], {x: xs, y: ys})[1] for _ in range(5)]

    # Load the exported file the way a user without s2sgrad would: it imports only NumPy.
    spec = importlib.util.spec_from_file_location("train_step", path)
    train_step = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train_step)
    step = train_step.Step()                      # w and b as they were when exported
    exported_losses = [step(x=xs, y=ys)[1] for _ in range(5)]

    for s, e in zip(session_losses, exported_losses, strict=True):
        print(f"session {s:.7f}   exported {e:.7f}")
    print("identical:", session_losses == exported_losses)
    print("w after training:", step.variables["w"].ravel())


if __name__ == "__main__":
    if len(sys.argv) > 1:
        main(sys.argv[1])
    else:
        with tempfile.TemporaryDirectory() as tmp:
            main(tmp)
