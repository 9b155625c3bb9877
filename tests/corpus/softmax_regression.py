"""Softmax regression on the digits, in the interactive style: an InteractiveSession, ``op.run`` and
``tensor.eval`` instead of ``sess.run``."""
import numpy as np
import s2sgrad as tf

from digits_input import read_data_sets

digits = read_data_sets(one_hot=True)
rng = np.random.RandomState(3)

sess = tf.InteractiveSession()

x = tf.placeholder("float", shape=[None, 64])
y_ = tf.placeholder("float", shape=[None, 10])

W = tf.Variable(0.01 * rng.randn(64, 10).astype(np.float32))
b = tf.Variable(np.zeros(10, dtype=np.float32))

sess.run(tf.initialize_all_variables())

y = tf.nn.softmax(tf.matmul(x, W) + b)
cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))
train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)

correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
accuracy = tf.reduce_mean(tf.cast(correct_prediction, "float"))

for i in range(300):
    batch = digits.train.next_batch(50)
    if i % 50 == 0:
        train_accuracy = accuracy.eval(feed_dict={x: batch[0], y_: batch[1]})
        print("step %d, training accuracy %g, cross entropy %g"
              % (i, train_accuracy, cross_entropy.eval(feed_dict={x: batch[0], y_: batch[1]})))
    train_step.run(feed_dict={x: batch[0], y_: batch[1]})

print("test accuracy %g" % accuracy.eval(feed_dict={x: digits.test.images, y_: digits.test.labels}))
sess.close()
