"""Tower-style data-parallel training as the multi-GPU tutorials wrote it, on the CPU: one model built
twice under tf.variable_scope with shared variables (get_variable, reuse_variables), each tower
computing gradients on half the batch, the averaged gradients applied once."""
import numpy as np
import s2sgrad as tf

from digits_input import read_data_sets

digits = read_data_sets(one_hot=True)
rng = np.random.RandomState(13)
num_towers = 2
batch_size = 60
hidden = 20


def fully_connected(inputs, size, scope, activation=None):
    fan_in = inputs.get_shape()[1].value
    with tf.variable_scope(scope):
        weights = tf.get_variable('weights', [fan_in, size],
                                  initializer=tf.constant_initializer(rng.randn(fan_in, size) * 0.2))
        biases = tf.get_variable('biases', [size], initializer=tf.constant_initializer(0.0))
        out = tf.matmul(inputs, weights) + biases
        return activation(out) if activation else out


def inference(images):
    hidden_layer = fully_connected(images, hidden, 'hidden', tf.nn.tanh)
    return fully_connected(hidden_layer, 10, 'softmax_linear')


def tower_loss(images, labels):
    logits = inference(images)
    return tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits), name='loss')


def average_gradients(tower_grads):
    average_grads = []
    for grad_and_vars in zip(*tower_grads):
        grads = [tf.expand_dims(g, 0) for g, _ in grad_and_vars]
        grad = tf.reduce_mean(tf.concat(grads, 0), 0)
        average_grads.append((grad, grad_and_vars[0][1]))
    return average_grads


with tf.device('/cpu:0'):
    images = tf.placeholder(tf.float32, [batch_size, 64])
    labels = tf.placeholder(tf.float32, [batch_size, 10])
    opt = tf.train.MomentumOptimizer(0.2, 0.5)
    image_splits = tf.split(images, num_towers, 0)
    label_splits = tf.split(labels, num_towers, 0)
    tower_grads = []
    losses = []
    with tf.variable_scope(tf.get_variable_scope()):
        for i in range(num_towers):
            with tf.device('/cpu:0'):
                with tf.name_scope('tower_%d' % i):
                    loss = tower_loss(image_splits[i], label_splits[i])
                    tf.get_variable_scope().reuse_variables()
                    tower_grads.append(opt.compute_gradients(loss))
                    losses.append(loss)
    train_op = opt.apply_gradients(average_gradients(tower_grads))
    mean_loss = tf.add_n(losses) / num_towers

print("trainable:", [v.name for v in tf.trainable_variables()])
print("tower losses:", [l.name for l in losses])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(100):
        batch_x, batch_y = digits.train.next_batch(batch_size)
        _, loss_value = sess.run([train_op, mean_loss], feed_dict={images: batch_x, labels: batch_y})
        if step % 20 == 0:
            print('step %d, loss = %.6f' % (step, loss_value))

    with tf.variable_scope(tf.get_variable_scope(), reuse=True):
        test_logits = inference(tf.constant(digits.test.images))
    correct = tf.equal(tf.argmax(test_logits, 1), tf.argmax(digits.test.labels, 1))
    print('test accuracy: %.4f' % sess.run(tf.reduce_mean(tf.cast(correct, tf.float32))))
