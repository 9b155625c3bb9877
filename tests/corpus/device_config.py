"""Polynomial regression with the session plumbing of the GPU era: the graph pinned to the CPU with
tf.device, a ConfigProto with soft placement and GPU memory growth, and Momentum."""
import numpy as np
import s2sgrad as tf

rng = np.random.RandomState(8)
xs = np.linspace(-1.0, 1.0, 40).astype(np.float32)
ys = (0.5 - 1.5 * xs + 2.0 * xs ** 3 + 0.05 * rng.randn(40)).astype(np.float32)
degree = 3

with tf.device("/cpu:0"):
    x = tf.placeholder(tf.float32, [None], name="x")
    y = tf.placeholder(tf.float32, [None], name="y")
    coefficients = tf.Variable(np.zeros(degree + 1, np.float32), name="coefficients")
    powers = tf.stack([tf.pow(x, float(k)) for k in range(degree + 1)], axis=1)
    y_model = tf.reduce_sum(powers * coefficients, reduction_indices=1)
    cost = tf.reduce_mean(tf.square(y - y_model))
    train_op = tf.train.MomentumOptimizer(learning_rate=0.1, momentum=0.9).minimize(cost)

print("cost is placed on:", cost.device)

config = tf.ConfigProto(allow_soft_placement=True, log_device_placement=False)
config.gpu_options.allow_growth = True
config.intra_op_parallelism_threads = 1
config.inter_op_parallelism_threads = 1

with tf.Session(config=config) as sess:
    sess.run(tf.global_variables_initializer())
    for epoch in range(150):
        _, c = sess.run([train_op, cost], feed_dict={x: xs, y: ys})
        if epoch % 30 == 0:
            print("epoch %3d cost %.6f" % (epoch, c))
    fitted = sess.run(coefficients)
    print("coefficients:", " ".join("%.5f" % c for c in fitted))
    print("final cost: %.6f" % sess.run(cost, feed_dict={x: xs, y: ys}))
