"""A classifier built the way the CIFAR-10 tutorial built its model: each weight adds an L2 penalty
to a 'losses' collection, the total loss is their tf.add_n, labels are class numbers turned one-hot,
fetches are a dict. Dropout is in the graph but fed keep_prob 1.0 (TF's dropout mask is random)."""
import numpy as np
import s2sgrad as tf

from digits_input import read_data_sets

digits = read_data_sets(one_hot=False)
rng = np.random.RandomState(31)


def _variable_with_weight_decay(name, shape, stddev, wd):
    var = tf.Variable((stddev * rng.randn(*shape)).astype(np.float32), name=name)
    if wd is not None:
        weight_decay = tf.multiply(tf.nn.l2_loss(var), wd, name='weight_loss')
        tf.add_to_collection('losses', weight_decay)
    return var


images = tf.placeholder(tf.float32, [None, 64], name='images')
labels = tf.placeholder(tf.int64, [None], name='labels')
keep_prob = tf.placeholder(tf.float32, name='keep_prob')

with tf.name_scope('hidden'):
    weights = _variable_with_weight_decay('weights', [64, 40], stddev=0.1, wd=0.002)
    biases = tf.Variable(np.full(40, 0.1, np.float32), name='biases')
    hidden = tf.nn.dropout(tf.nn.relu(tf.nn.xw_plus_b(images, weights, biases)), keep_prob)

with tf.name_scope('softmax_linear'):
    weights = _variable_with_weight_decay('weights', [40, 10], stddev=0.1, wd=0.0)
    biases = tf.Variable(np.zeros(10, np.float32), name='biases')
    logits = tf.nn.bias_add(tf.matmul(hidden, weights), biases)

cross_entropy = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits,
                                                               name='cross_entropy_per_example')
cross_entropy_mean = tf.reduce_mean(cross_entropy, name='cross_entropy')
tf.add_to_collection('losses', cross_entropy_mean)
total_loss = tf.add_n(tf.get_collection('losses'), name='total_loss')

one_hot_check = tf.reduce_sum(tf.one_hot(labels, 10), 0)
train_op = tf.train.AdagradOptimizer(0.3).minimize(total_loss)
correct = tf.reduce_sum(tf.cast(tf.equal(tf.argmax(logits, 1), labels), tf.int32))

print('trainable:', [v.op.name for v in tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES)])
print('losses:', [l.op.name for l in tf.get_collection('losses')])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(150):
        batch_images, batch_labels = digits.train.next_batch(128)
        results = sess.run({'train': train_op, 'total': total_loss, 'xent': cross_entropy_mean},
                           feed_dict={images: batch_images, labels: batch_labels, keep_prob: 1.0})
        if step % 30 == 0:
            print('step %d: total loss %.5f, cross entropy %.5f' % (step, results['total'], results['xent']))
    test_feed = {images: digits.test.images, labels: digits.test.labels, keep_prob: 1.0}
    n_correct, per_class = sess.run([correct, one_hot_check], feed_dict=test_feed)
    print('precision @ 1 = %.4f (%d of %d)' % (n_correct / len(digits.test.labels), n_correct,
                                                len(digits.test.labels)))
    print('test images per class:', per_class.astype(int).tolist())
