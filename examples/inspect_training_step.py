"""Inspection: print the NumPy module s2sgrad compiles for a training step, and its IR.

A small logistic regression in TF-1.x style. ``sess.source(fetches, feed_dict)`` returns
the exact text that ``sess.run(fetches, feed_dict)`` executes (it is specialized to the fed
shapes); ``tf.ir(fetches, feed_list)`` prints the graph slice those fetches need, one SSA
equation per line.

    python examples/inspect_training_step.py
"""
import numpy as np

import s2sgrad as tf

rng = np.random.default_rng(0)
features = rng.normal(size=(8, 3)).astype(np.float32)
labels = (features @ np.array([1.5, -2.0, 0.5], np.float32) > 0).astype(np.float32)

x = tf.placeholder(tf.float32, shape=[None, 3], name="x")
y = tf.placeholder(tf.float32, shape=[None], name="y")
w = tf.Variable(tf.zeros([3]), name="w")
b = tf.Variable(0.0, name="b")
p = tf.sigmoid(tf.reduce_sum(x * w, axis=1) + b, name="p")
loss = tf.reduce_mean(-y * tf.log(p + 1e-7) - (1 - y) * tf.log(1 - p + 1e-7), name="loss")
train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)

feed = {x: features, y: labels}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
        _, value = sess.run([train, loss], feed)
        print(f"step {step}: loss {value:.6f}")
    print()
    print("# The module that every sess.run([train, loss], feed) above executed:")
    print(sess.source([train, loss], feed))
    print("# The IR of the loss (x and y are fed):")
    print(tf.ir(loss, [x, y]))
