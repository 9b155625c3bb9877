"""Small TF programs shared by the expected-text tests (run with ``evaluate.exec_program``)."""

SEED3 = """\
a = tf.constant(0.)
b = 2 * a
c = a + b
g = tf.gradients(c, [a, b])
"""

SEED4 = """\
w1 = tf.Variable(2.0)
w2 = tf.Variable(2.0)
a = tf.multiply(w1, 3.0)
a_stoped = tf.stop_gradient(a)
b = tf.multiply(a_stoped, w2)
gradients = tf.gradients(b, xs=[w1, w2])
"""
