"""The same softmax classifier of the digits trained by each of TF-1.x's classic optimizers from the
same start, with gradient clipping done by hand through compute_gradients/apply_gradients."""
import numpy as np
import s2sgrad as tf

from digits_input import read_data_sets

digits = read_data_sets(one_hot=True)
start = (np.random.RandomState(4).randn(64, 10) * 0.05).astype(np.float32)

optimizers = [
    ("GradientDescent", lambda: tf.train.GradientDescentOptimizer(0.5)),
    ("Momentum", lambda: tf.train.MomentumOptimizer(0.1, 0.9)),
    ("Nesterov", lambda: tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True)),
    ("Adagrad", lambda: tf.train.AdagradOptimizer(0.5)),
    ("RMSProp", lambda: tf.train.RMSPropOptimizer(0.01, decay=0.9, momentum=0.5)),
    ("Adam", lambda: tf.train.AdamOptimizer(0.02, beta1=0.9, beta2=0.999)),
]

for name, make_optimizer in optimizers:
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [None, 64])
    y_ = tf.placeholder(tf.float32, [None, 10])
    W = tf.Variable(start)
    b = tf.Variable(tf.zeros([10]))
    logits = tf.matmul(x, W) + b
    cross_entropy = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y_, logits=logits))
    optimizer = make_optimizer()
    grads_and_vars = optimizer.compute_gradients(cross_entropy)
    clipped = [(tf.clip_by_value(g, -1.0, 1.0), v) for g, v in grads_and_vars]
    train_step = optimizer.apply_gradients(clipped)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), tf.argmax(y_, 1)), tf.float32))
    w_norm = tf.sqrt(tf.reduce_sum(tf.square(W)))

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(40):
            batch_xs, batch_ys = digits.train.next_batch(100)
            sess.run(train_step, feed_dict={x: batch_xs, y_: batch_ys})
        test = {x: digits.test.images, y_: digits.test.labels}
        print("%-16s loss %.6f accuracy %.4f |W| %.6f"
              % (name, sess.run(cross_entropy, test), sess.run(accuracy, test), sess.run(w_norm)))
