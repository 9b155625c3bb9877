"""An autoencoder on the digits: 64 -> 32 -> 16 -> 32 -> 64 sigmoid layers trained with RMSProp to
reproduce its input; the reconstruction cost is printed as it falls."""
import numpy as np
import s2sgrad as tf

from digits_input import read_data_sets

digits = read_data_sets()
rng = np.random.RandomState(11)

learning_rate = 0.01
num_steps = 200
batch_size = 64
display_step = 40

num_hidden_1 = 32
num_hidden_2 = 16
num_input = 64

X = tf.placeholder("float", [None, num_input])


def random_matrix(rows, cols):
    return tf.Variable((rng.randn(rows, cols) * np.sqrt(1.0 / rows)).astype(np.float32))


weights = {
    'encoder_h1': random_matrix(num_input, num_hidden_1),
    'encoder_h2': random_matrix(num_hidden_1, num_hidden_2),
    'decoder_h1': random_matrix(num_hidden_2, num_hidden_1),
    'decoder_h2': random_matrix(num_hidden_1, num_input),
}
biases = {
    'encoder_b1': tf.Variable(np.zeros(num_hidden_1, np.float32)),
    'encoder_b2': tf.Variable(np.zeros(num_hidden_2, np.float32)),
    'decoder_b1': tf.Variable(np.zeros(num_hidden_1, np.float32)),
    'decoder_b2': tf.Variable(np.zeros(num_input, np.float32)),
}


def encoder(x):
    layer_1 = tf.nn.sigmoid(tf.add(tf.matmul(x, weights['encoder_h1']), biases['encoder_b1']))
    return tf.nn.sigmoid(tf.add(tf.matmul(layer_1, weights['encoder_h2']), biases['encoder_b2']))


def decoder(x):
    layer_1 = tf.nn.sigmoid(tf.add(tf.matmul(x, weights['decoder_h1']), biases['decoder_b1']))
    return tf.nn.sigmoid(tf.add(tf.matmul(layer_1, weights['decoder_h2']), biases['decoder_b2']))


encoder_op = encoder(X)
decoder_op = decoder(encoder_op)

y_pred = decoder_op
y_true = X

loss = tf.reduce_mean(tf.pow(y_true - y_pred, 2))
optimizer = tf.train.RMSPropOptimizer(learning_rate).minimize(loss)

init = tf.global_variables_initializer()

with tf.Session() as sess:
    sess.run(init)
    for i in range(1, num_steps + 1):
        batch_x, _ = digits.train.next_batch(batch_size)
        _, l = sess.run([optimizer, loss], feed_dict={X: batch_x})
        if i % display_step == 0 or i == 1:
            print('Step %i: Minibatch Loss: %f' % (i, l))

    codes, reconstruction = sess.run([encoder_op, decoder_op], feed_dict={X: digits.test.images[:5]})
    print("code of the first test image, first units:", codes[0][:4])
    print("test reconstruction error: %.6f" % sess.run(loss, feed_dict={X: digits.test.images}))
    print("pixels off by more than 0.25: %d of %d" % (np.sum(np.abs(reconstruction - digits.test.images[:5]) > 0.25),
                                                      reconstruction.size))
