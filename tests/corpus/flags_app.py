"""A program built on tf.app: flags for its settings, a main() that tf.app.run calls.
The model is logistic regression on two overlapping clouds of points."""
# corpus-argv: --learning_rate=0.3 --max_steps=60 --report_every=15
import numpy as np
import s2sgrad as tf

flags = tf.app.flags
FLAGS = flags.FLAGS
flags.DEFINE_float('learning_rate', 0.1, 'Initial learning rate.')
flags.DEFINE_integer('max_steps', 100, 'Number of steps to run trainer.')
flags.DEFINE_integer('report_every', 20, 'Steps between loss reports.')
flags.DEFINE_string('model_name', 'logreg', 'Name printed with the results.')
flags.DEFINE_boolean('verbose', True, 'Print the loss while training.')


def make_data(rng, n):
    """Two Gaussian clouds in the plane, labelled 0 and 1."""
    labels = rng.randint(0, 2, size=(n, 1)).astype(np.float32)
    points = rng.randn(n, 2).astype(np.float32) + np.where(labels > 0, 1.0, -1.0).astype(np.float32)
    return points, labels


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    rng = np.random.RandomState(2)
    points, labels = make_data(rng, 200)
    print("%s: learning_rate=%g max_steps=%d verbose=%s" % (FLAGS.model_name, FLAGS.learning_rate,
                                                            FLAGS.max_steps, FLAGS.verbose))

    x = tf.placeholder(tf.float32, [None, 2], name='x')
    y = tf.placeholder(tf.float32, [None, 1], name='y')
    w = tf.Variable(np.zeros((2, 1), np.float32), name='w')
    b = tf.Variable(0.0, name='b')
    logits = tf.matmul(x, w) + b
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits))
    global_step = tf.Variable(0, name='global_step', trainable=False)
    train_op = tf.train.GradientDescentOptimizer(FLAGS.learning_rate).minimize(loss, global_step=global_step)
    accuracy = tf.reduce_mean(tf.to_float(tf.equal(tf.to_float(logits > 0), y)))

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(FLAGS.max_steps):
            _, loss_value = sess.run([train_op, loss], feed_dict={x: points, y: labels})
            step = sess.run(global_step)
            if FLAGS.verbose and step % FLAGS.report_every == 0:
                tf.logging.info('step %d: loss = %.4f', step, loss_value)
                print('Step %d: loss = %.6f' % (step, loss_value))
        print('weights:', sess.run(w).ravel(), 'bias:', sess.run(b))
        print('training accuracy: %.4f' % sess.run(accuracy, feed_dict={x: points, y: labels}))


if __name__ == '__main__':
    tf.app.run()
