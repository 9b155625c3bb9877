"""A multilayer perceptron on the digits: two ReLU hidden layers, weights kept in dicts, Adam, the
average cost printed per epoch and the accuracy on the test set at the end."""
import numpy as np
import s2sgrad as tf

from digits_input import read_data_sets

digits = read_data_sets(one_hot=True)
rng = np.random.RandomState(7)

learning_rate = 0.005
training_epochs = 6
batch_size = 100
display_step = 1

n_hidden_1 = 48
n_hidden_2 = 32
n_classes = 10

x = tf.placeholder("float", [None, 64])
y = tf.placeholder("float", [None, n_classes])
n_input = x.get_shape()[1].value


def init_weights(*shape):
    return tf.Variable((rng.randn(*shape) * 0.1).astype(np.float32))


weights = {
    'h1': init_weights(n_input, n_hidden_1),
    'h2': init_weights(n_hidden_1, n_hidden_2),
    'out': init_weights(n_hidden_2, n_classes),
}
biases = {
    'b1': init_weights(n_hidden_1),
    'b2': init_weights(n_hidden_2),
    'out': init_weights(n_classes),
}


def multilayer_perceptron(x, weights, biases):
    layer_1 = tf.nn.relu(tf.add(tf.matmul(x, weights['h1']), biases['b1']))
    layer_2 = tf.nn.relu(tf.add(tf.matmul(layer_1, weights['h2']), biases['b2']))
    return tf.matmul(layer_2, weights['out']) + biases['out']


pred = multilayer_perceptron(x, weights, biases)
print("hidden sizes:", weights['h1'].get_shape()[1].value, weights['h2'].get_shape()[1].value)

cost = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=pred, labels=y))
optimizer = tf.train.AdamOptimizer(learning_rate=learning_rate).minimize(cost)

init = tf.global_variables_initializer()

with tf.Session() as sess:
    sess.run(init)
    total_batch = int(digits.train.num_examples / batch_size)
    for epoch in range(training_epochs):
        avg_cost = 0.
        for i in range(total_batch):
            batch_x, batch_y = digits.train.next_batch(batch_size)
            _, c = sess.run([optimizer, cost], feed_dict={x: batch_x, y: batch_y})
            avg_cost += c / total_batch
        if epoch % display_step == 0:
            print("Epoch:", '%04d' % (epoch + 1), "cost=", "{:.9f}".format(avg_cost))
    print("Optimization Finished!")

    correct_prediction = tf.equal(tf.argmax(pred, 1), tf.argmax(y, 1))
    accuracy = tf.reduce_mean(tf.cast(correct_prediction, "float"))
    print("Accuracy:", accuracy.eval({x: digits.test.images, y: digits.test.labels}))
    print("Mean squared weight:", sess.run(tf.reduce_mean(tf.square(weights['h1']), reduction_indices=[0, 1])))
