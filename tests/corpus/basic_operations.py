"""Basic operations: constants, placeholders of several dtypes, and a matrix product, each run in a
session and printed."""
import numpy as np
import s2sgrad as tf

# Constants are ops too: running them returns their values.
two = tf.constant(2)
five = tf.constant(5)
with tf.Session() as sess:
    print("two=%d five=%d" % (sess.run(two), sess.run(five)))
    print("sum of constants: %i" % sess.run(two + five))
    print("product of constants: %i" % sess.run(two * five))

# Placeholders are the graph's inputs, given a value at each run.
p = tf.placeholder(tf.int16)
q = tf.placeholder(tf.int16)
total = tf.add(p, q)
scaled = tf.multiply(p, q)
with tf.Session() as sess:
    print("p + q = %i" % sess.run(total, feed_dict={p: 7, q: 4}))
    print("p * q = %i" % sess.run(scaled, feed_dict={p: 7, q: 4}))

# The same with floats: "float" is how many programs spelled tf.float32.
u = tf.placeholder("float")
v = tf.placeholder("float")
ratio = tf.div(u, v)
with tf.Session() as sess:
    print("u / v = %.6f" % sess.run(ratio, feed_dict={u: 1.0, v: 3.0}))
    print("-7 div 2 = %d, 7 mod -2 = %d" % (sess.run(tf.div(-7, 2)), sess.run(tf.mod(7, -2))))

# A 1x2 matrix times a 2x1 matrix.
row = tf.constant([[3., 3.]])
column = tf.constant([[2.], [2.]])
product = tf.matmul(row, column)
with tf.Session() as sess:
    print("matmul:", sess.run(product))

# Casting and arg-max, the way older programs wrote them.
scores = tf.constant(np.array([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]], dtype=np.float32))
best = tf.arg_max(scores, 1)
as_float = tf.to_float(best)
counts = tf.cast(tf.greater(scores, 0.25), "float")
with tf.Session() as sess:
    print("best class:", sess.run(best), "as float:", sess.run(as_float))
    print("entries above 0.25 per row:", sess.run(tf.reduce_sum(counts, reduction_indices=1)))
