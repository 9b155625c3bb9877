"""Linear regression by stochastic gradient descent: one training example per step, the cost over
the whole training set printed every few epochs."""
import numpy as np
import s2sgrad as tf

rng = np.random.RandomState(42)
learning_rate = 0.01
training_epochs = 40
display_step = 10

# Points scattered around the line y = 0.3 x + 0.8.
train_X = np.linspace(1.0, 10.0, 17)
train_Y = 0.3 * train_X + 0.8 + rng.normal(scale=0.3, size=train_X.shape)
n_samples = train_X.shape[0]

X = tf.placeholder("float")
Y = tf.placeholder("float")

W = tf.Variable(np.float32(rng.randn()), name="weight")
b = tf.Variable(np.float32(rng.randn()), name="bias")

pred = tf.add(tf.multiply(X, W), b)
cost = tf.reduce_sum(tf.pow(pred - Y, 2)) / (2 * n_samples)
optimizer = tf.train.GradientDescentOptimizer(learning_rate).minimize(cost)

init = tf.initialize_all_variables()

with tf.Session() as sess:
    sess.run(init)
    for epoch in range(training_epochs):
        for (x, y) in zip(train_X, train_Y):
            sess.run(optimizer, feed_dict={X: x, Y: y})
        if (epoch + 1) % display_step == 0:
            c = sess.run(cost, feed_dict={X: train_X, Y: train_Y})
            print("Epoch:", '%04d' % (epoch + 1), "cost=", "{:.9f}".format(c),
                  "W=", sess.run(W), "b=", sess.run(b))
    print("Optimization Finished!")
    training_cost = sess.run(cost, feed_dict={X: train_X, Y: train_Y})
    print("Training cost=", training_cost, "W=", sess.run(W), "b=", sess.run(b))

    test_X = np.array([2.5, 4.5, 6.5, 8.5])
    test_Y = 0.3 * test_X + 0.8
    testing_cost = sess.run(tf.reduce_sum(tf.pow(pred - Y, 2)) / (2 * test_X.shape[0]),
                            feed_dict={X: test_X, Y: test_Y})
    print("Testing cost=", testing_cost)
    print("Absolute mean square loss difference:", abs(training_cost - testing_cost))
