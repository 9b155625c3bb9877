"""A graph built in its own tf.Graph and then driven only by names, as programs did once a graph was
built elsewhere: string fetches and feeds ('loss:0', 'train'), get_tensor_by_name and
get_operation_by_name, a session bound with tf.Session(graph=...), placeholder_with_default."""
import numpy as np
import s2sgrad as tf

rng = np.random.RandomState(23)
xs = rng.uniform(-2.0, 2.0, size=(50, 1)).astype(np.float32)
ys = (np.sin(xs) + 0.1 * rng.randn(50, 1)).astype(np.float32)

graph = tf.Graph()
with graph.as_default():
    x = tf.placeholder(tf.float32, [None, 1], name='x')
    y = tf.placeholder(tf.float32, [None, 1], name='y')
    lr = tf.placeholder_with_default(0.05, [], name='learning_rate')
    with tf.name_scope('model'):
        w1 = tf.Variable((0.5 * rng.randn(1, 16)).astype(np.float32), name='w1')
        b1 = tf.Variable(np.zeros(16, np.float32), name='b1')
        w2 = tf.Variable((0.5 * rng.randn(16, 1)).astype(np.float32), name='w2')
        b2 = tf.Variable(np.zeros(1, np.float32), name='b2')
        out = tf.add(tf.matmul(tf.tanh(tf.matmul(x, w1) + b1), w2), b2, name='prediction')
    tf.reduce_mean(tf.square(out - y), name='loss')
    tf.train.GradientDescentOptimizer(lr).minimize(graph.get_tensor_by_name('loss:0'), name='train')
    tf.global_variables_initializer()

print('same graph:', graph.get_tensor_by_name('model/prediction:0').graph is graph)
print('train op type:', graph.get_operation_by_name('train').type)
print('init op is named:', graph.get_operation_by_name('init').name)

with tf.Session(graph=graph) as sess:
    sess.run('init')
    for step in range(200):
        if step < 100:
            _, loss_value = sess.run(['train', 'loss:0'], feed_dict={'x:0': xs, 'y:0': ys})
        else:
            _, loss_value = sess.run(['train', 'loss:0'], feed_dict={'x:0': xs, 'y:0': ys, 'learning_rate:0': 0.1})
        if step % 40 == 0:
            print('step %3d loss %.6f' % (step, loss_value))
    print('prediction at 1.0: %.5f (sin 1 = %.5f)'
          % (sess.run('model/prediction:0', {'x:0': [[1.0]]})[0, 0], np.sin(1.0)))
    print('w2 sum: %.5f' % sess.run(graph.get_tensor_by_name('model/w2:0')).sum())
