"""K-means clustering as a graph: distances by broadcasting, assignments by arg-min, new centroids by
segment sums, written back with tf.assign each iteration. No gradients at all."""
import numpy as np
import s2sgrad as tf

rng = np.random.RandomState(9)
k = 3
centres = np.array([[0.0, 0.0], [3.0, 1.0], [1.0, 4.0]])
data = np.concatenate([c + 0.7 * rng.randn(60, 2) for c in centres]).astype(np.float32)
data = data[rng.permutation(len(data))]

points = tf.constant(data)
centroids = tf.Variable(data[:k], name="centroids")

expanded_points = tf.expand_dims(points, 0)
expanded_centroids = tf.expand_dims(centroids, 1)
distances = tf.reduce_sum(tf.square(tf.subtract(expanded_points, expanded_centroids)), 2)
assignments = tf.argmin(distances, 0)

sums = tf.unsorted_segment_sum(points, assignments, k)
counts = tf.unsorted_segment_sum(tf.ones_like(points), assignments, k)
means = tf.div(sums, counts)
update_centroids = tf.assign(centroids, means)
inertia = tf.reduce_sum(tf.reduce_min(distances, 0))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    previous = sess.run(centroids)
    for step in range(8):
        within, assigned, new_centroids = sess.run([inertia, assignments, update_centroids])
        moved = np.abs(new_centroids - previous).max()
        print("iteration %d: inertia %.4f, sizes %s, largest move %.5f"
              % (step, within, np.bincount(assigned, minlength=k).tolist(), moved))
        previous = new_centroids
    for c in sess.run(centroids):
        print("centroid: (%.4f, %.4f)" % tuple(c))
