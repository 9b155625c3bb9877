"""TF-1.x spellings whose meaning differs from their TF 2 namesakes (expected values are what
TensorFlow 2.21's compat.v1 gives)."""
import numpy as np

import s2sgrad as tf


def run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def test_div_floor_divides_integers_and_keeps_their_dtype():
    quotient = tf.div(tf.constant([-7, 7, 6]), tf.constant([2, -2, 3]))
    assert quotient.dtype is tf.int32
    np.testing.assert_array_equal(run(quotient), [-4, -4, 2])


def test_div_divides_floats_exactly():
    quotient = tf.div(tf.constant([-7.0, 1.0]), 2.0)
    assert quotient.dtype is tf.float32
    np.testing.assert_array_equal(run(quotient), [-3.5, 0.5])


def test_divide_is_still_true_division():
    assert tf.divide(tf.constant([-7]), tf.constant([2])).dtype is tf.float64


def test_v1_softmax_xent_sends_no_gradient_to_the_labels():
    labels = tf.placeholder(tf.float32, [1, 3])
    logits = tf.placeholder(tf.float32, [1, 3])
    feed = {labels: [[0.2, 0.3, 0.5]], logits: [[1.0, -2.0, 0.5]]}
    v1 = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    v2 = tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
    g_labels, g_logits = tf.gradients(v1, [labels, logits])
    assert g_labels is None
    assert tf.gradients(v2, labels)[0] is not None
    np.testing.assert_allclose(run(g_logits, feed), [[0.403749, -0.269941, -0.133808]], rtol=1e-5)
    np.testing.assert_allclose(run(v1, feed), run(v2, feed))
