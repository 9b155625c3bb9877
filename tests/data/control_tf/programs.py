"""The control-flow programs tests/data/control_tf/record.py runs with TensorFlow and
tests/test_control_second_order.py runs with s2sgrad: each takes the module (``tf.compat.v1`` or
``s2sgrad``) and the float64 input ``x`` (a vector) and returns a tensor; both sides differentiate its
sum twice. Inputs (two per program, taking different branches) are in ``INPUTS``."""


def cond_in_while(tf, x):
    def body(i, v):
        return i + 1, tf.cond(tf.reduce_sum(v) > 0, lambda: tf.sin(v * x), lambda: v + x)
    return tf.while_loop(lambda i, v: i < 3, body, [0, x - 1.0])[1]


def while_in_cond(tf, x):
    def loop():
        return tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, tf.sin(v) * x), [0, x])[1]
    return tf.cond(tf.reduce_sum(x) > 0, loop, lambda: x * x * x)


def cond_in_while_in_cond(tf, x):
    return tf.cond(tf.reduce_sum(x) > 0, lambda: cond_in_while(tf, x), lambda: x * x * x)


def while_in_while(tf, x):
    def inner(v):
        return tf.while_loop(lambda j, w: j < 2, lambda j, w: (j + 1, tf.sin(w * x) + w), [0, v])[1]
    return tf.while_loop(lambda i, v: i < 2, lambda i, v: (i + 1, inner(v) * x), [0, x])[1]


def cond_in_cond_in_while(tf, x):
    def step(v):
        inner = tf.cond(tf.reduce_sum(v) > 1.0, lambda: tf.sin(v * x), lambda: v * v * x)
        return tf.cond(tf.reduce_sum(v) > 0, lambda: inner, lambda: tf.cos(v) + x)
    return tf.while_loop(lambda i, v: i < 4, lambda i, v: (i + 1, step(v)), [0, x])[1]


def cond_in_data_dependent_while(tf, x):
    """The trip count depends on x (it is constant near the inputs)."""
    def body(v):
        return tf.cond(tf.reduce_sum(v) > 1.0, lambda: v * tf.exp(x * v), lambda: v + x * x)
    return tf.while_loop(lambda v: tf.reduce_sum(v) < 6.0, body, [x])


PROGRAMS = {f.__name__: f for f in (cond_in_while, while_in_cond, cond_in_while_in_cond, while_in_while,
                                    cond_in_cond_in_while, cond_in_data_dependent_while)}
INPUTS = {
    "cond_in_while": [[0.5, 0.6], [0.2, -0.9]],
    "while_in_cond": [[0.7, -0.3], [-0.6, 0.2]],
    "cond_in_while_in_cond": [[0.5, 0.6], [-0.6, 0.2]],
    "while_in_while": [[0.4, 0.9], [-0.5, 0.3]],
    "cond_in_cond_in_while": [[0.3, 0.45], [-0.8, 0.5]],
    "cond_in_data_dependent_while": [[0.35, 0.4], [0.9, 0.45]],
}
