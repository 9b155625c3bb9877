"""Op cases: the pass-through checks and prints (check_numerics, Print) and ops computed after a
passing tf.Assert / tf.print (their values are their input's; gradients pass through)."""
import sys

import numpy as np

import s2sgrad as tf
from optable import OpCase

X = np.random.default_rng(5).standard_normal((2, 3))


def after(make_op):
    """``x`` computed after the op ``make_op(x)`` has run (a control dependency)."""
    def build(x):
        with tf.control_dependencies([make_op(x)]):
            return tf.identity(x) * 2.0
    return build


CASES = [
    OpCase("check_numerics", lambda x: tf.check_numerics(x * x, "x squared"), [X], lambda x: x * x, order2=True),
    OpCase("Print", lambda x: tf.Print(x, [x, tf.shape(x)], message="x: ") * 3.0, [X], lambda x: 3 * x,
           order2=True),
    OpCase("Assert_passing", after(lambda x: tf.Assert(tf.reduce_all(x < 10.0), [x])), [X], lambda x: 2 * x),
    OpCase("assert_less_passing", after(lambda x: tf.assert_less(x, x + 1.0)), [X], lambda x: 2 * x),
    OpCase("is_non_decreasing", lambda x: [tf.debugging.is_non_decreasing(x), tf.is_strictly_increasing(x[:, 1:])],
           [np.array([[1, 2, 2], [3, 5, 9]], np.int32)], lambda x: [np.array(True), np.array(False)], grad=False),
    OpCase("print_v2", after(lambda x: tf.print("x:", x, output_stream=sys.stdout)), [X], lambda x: 2 * x),
]
