"""tf.math.xlogy and its gradient agree with TensorFlow 2.x (tf.compat.v1 graph mode) at x == 0."""
import numpy as np

import s2sgrad as tf


def test_xlogy_and_its_gradients_are_zero_where_x_is_zero_as_in_tensorflow():
    x = tf.placeholder(tf.float64, [4])
    y = tf.placeholder(tf.float64, [4])
    z = tf.math.xlogy(x, y)
    gx, gy = tf.gradients(tf.reduce_sum(z * [1.0, 2.0, 3.0, 4.0]), [x, y])
    with tf.Session() as sess:
        out = sess.run([z, gx, gy], {x: [0.0, 0.0, 2.0, 0.5], y: [0.0, 3.0, 0.5, 2.0]})
    # printed by TensorFlow for the same program
    np.testing.assert_allclose(out[0], [0.0, 0.0, -1.38629436, 0.34657359], rtol=1e-8)
    np.testing.assert_allclose(out[1], [0.0, 0.0, -2.07944154, 2.77258872], rtol=1e-8)
    np.testing.assert_allclose(out[2], [0.0, 0.0, 12.0, 1.0], rtol=1e-8)
    assert z.op.type == "Xlogy" and z.op.name == "Xlogy"
