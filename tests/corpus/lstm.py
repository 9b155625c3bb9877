"""An LSTM written out by hand: each 8x8 digit is read as 8 time steps of 8 pixels, the cell's gates
are matmul/sigmoid/tanh unrolled over time in Python, and the last output is classified."""
import numpy as np
import s2sgrad as tf

from digits_input import read_data_sets

digits = read_data_sets(one_hot=True)
rng = np.random.RandomState(21)

learning_rate = 0.01
training_steps = 120
batch_size = 64
display_step = 30

num_input = 8       # pixels in one row
timesteps = 8       # rows
num_hidden = 24
num_classes = 10

X = tf.placeholder("float", [None, timesteps, num_input])
Y = tf.placeholder("float", [None, num_classes])


def uniform(*shape):
    limit = np.sqrt(6.0 / sum(shape))
    return rng.uniform(-limit, limit, shape).astype(np.float32)


def lstm_cell(x_t, state, output):
    """One step: input, forget, cell-candidate and output gates from one matmul."""
    with tf.variable_scope("lstm_cell", reuse=tf.AUTO_REUSE):
        kernel = tf.get_variable("kernel", initializer=uniform(num_input + num_hidden, 4 * num_hidden))
        bias = tf.get_variable("bias", initializer=np.zeros(4 * num_hidden, np.float32))
    gates = tf.matmul(tf.concat([x_t, output], 1), kernel) + bias
    i, j, f, o = tf.split(gates, 4, axis=1)
    new_state = state * tf.sigmoid(f + 1.0) + tf.sigmoid(i) * tf.tanh(j)
    new_output = tf.tanh(new_state) * tf.sigmoid(o)
    return new_state, new_output


def RNN(x):
    steps = tf.unstack(x, timesteps, 1)
    batch = tf.shape(x)[0]
    state = tf.zeros(tf.stack([batch, num_hidden]))
    output = tf.zeros(tf.stack([batch, num_hidden]))
    for x_t in steps:
        state, output = lstm_cell(x_t, state, output)
    out_weights = tf.Variable(uniform(num_hidden, num_classes))
    out_biases = tf.Variable(np.zeros(num_classes, np.float32))
    return tf.matmul(output, out_weights) + out_biases


logits = RNN(X)
prediction = tf.nn.softmax(logits)

loss_op = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=logits, labels=Y))
optimizer = tf.train.AdamOptimizer(learning_rate=learning_rate)
train_op = optimizer.minimize(loss_op)

correct_pred = tf.equal(tf.argmax(prediction, 1), tf.argmax(Y, 1))
accuracy = tf.reduce_mean(tf.cast(correct_pred, tf.float32))

print("variables:", ", ".join("%s %s" % (v.name, v.get_shape().as_list()) for v in tf.trainable_variables()))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(1, training_steps + 1):
        batch_x, batch_y = digits.train.next_batch(batch_size)
        batch_x = batch_x.reshape((batch_size, timesteps, num_input))
        sess.run(train_op, feed_dict={X: batch_x, Y: batch_y})
        if step % display_step == 0 or step == 1:
            loss, acc = sess.run([loss_op, accuracy], feed_dict={X: batch_x, Y: batch_y})
            print("Step " + str(step) + ", Minibatch Loss= " + "{:.4f}".format(loss) +
                  ", Training Accuracy= " + "{:.3f}".format(acc))
    print("Optimization Finished!")
    test_data = digits.test.images.reshape((-1, timesteps, num_input))
    print("Testing Accuracy:", sess.run(accuracy, feed_dict={X: test_data, Y: digits.test.labels}))
