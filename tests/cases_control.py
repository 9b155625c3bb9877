"""Op cases: control flow (If, While and their gradients, a reversed For), the TensorArray
primitives and the loops built on them. References are plain NumPy loops and branches."""
import numpy as np

import s2sgrad as tf
from optable import OpCase

R = np.random.default_rng(11)
V = R.uniform(0.2, 1.0, (3,))
M = R.uniform(-1.0, 1.0, (4, 3))
IDX = np.array([2, 0], np.int32)


def _piecewise(x):
    return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.sin(x) * x, lambda: x * x * x)


def _power_loop(x):
    _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, tf.tanh(y) * x + 0.5), [0, x])
    return y


def _power_loop_reference(x):
    y = x
    for _ in range(3):
        y = np.tanh(y) * x + 0.5
    return y


def _rows(m, build):
    return build(tf.TensorArray(m.dtype, size=4).unstack(m))


def _write_rows(m):
    def body(i, ta):
        return i + 1, ta.write(i, tf.gather(m, 3 - i) * 2.0)
    _, ta = tf.while_loop(lambda i, ta: i < 4, body, [0, tf.TensorArray(m.dtype, size=4)])
    return ta.stack()


def _scatter(m):
    return tf.TensorArray(m.dtype, size=4).scatter([3, 1, 0, 2], m).stack()


CASES = [
    OpCase("cond_true_branch", _piecewise, [V], lambda x: np.sin(x) * x, order2=True),
    OpCase("cond_false_branch", _piecewise, [-V], lambda x: x ** 3, order2=True),
    OpCase("while_loop", _power_loop, [V], _power_loop_reference, order2=True),
    OpCase("tensor_array_read", lambda m: _rows(m, lambda ta: ta.read(1) * ta.read(3)), [M],
           lambda m: m[1] * m[3], order2=True),
    OpCase("tensor_array_gather", lambda m: _rows(m, lambda ta: ta.gather(IDX)), [M], lambda m: m[IDX]),
    OpCase("tensor_array_stack_unstack", lambda m: _rows(m, lambda ta: ta.stack() ** 2), [M], lambda m: m ** 2),
    OpCase("tensor_array_size", lambda m: _rows(m, lambda ta: ta.size()), [M], lambda m: np.int32(4), grad=False),
    OpCase("tensor_array_write_in_loop", _write_rows, [M], lambda m: m[::-1] * 2.0),
    OpCase("tensor_array_scatter", _scatter, [M], lambda m: m[np.argsort([3, 1, 0, 2])]),
    OpCase("tensor_array_concat", lambda m: tf.TensorArray(m.dtype, size=2).split(m, [1, 3]).concat(), [M],
           lambda m: m, grad=False),  # ragged elements: no dense gradient (tensor_array_concat_gradient: even ones)
    OpCase("map_fn", lambda m: tf.map_fn(lambda r: tf.reduce_sum(r * r), m), [M], lambda m: (m * m).sum(1)),
    OpCase("scan", lambda m: tf.scan(lambda a, r: a * r + 1.0, m), [M],
           lambda m: np.array([m[0], m[0] * m[1] + 1, (m[0] * m[1] + 1) * m[2] + 1,
                               ((m[0] * m[1] + 1) * m[2] + 1) * m[3] + 1])),
]


def _loop_gradient(x, g):
    """The gradient of the loop as the op under test: a reversed For reading the loop's records."""
    return tf.gradients(_power_loop(x), x, grad_ys=g)[0]


def _concat_gradient(m, g):
    return tf.gradients(tf.TensorArray(m.dtype, size=2).split(m, [2, 2]).concat(), m, grad_ys=g)[0]


def _dy_dx_start(x):
    """d y / d x of ``_power_loop`` with y's first value x counted: the loop's own derivative."""
    y, dy = x, np.ones_like(x)
    for _ in range(3):
        y, dy = np.tanh(y) * x + 0.5, (1 - np.tanh(y) ** 2) * dy * x + np.tanh(y)
    return dy


CASES += [
    OpCase("while_loop_gradient", _loop_gradient, [V, V[::-1].copy()], lambda x, g: g * _dy_dx_start(x),
           order2=True),
    OpCase("tensor_array_concat_gradient", _concat_gradient, [M, M[::-1].copy()], lambda m, g: g, order2=True),
]


def _read_gradient(m, g):
    """Reading row 1's gradient (a one-row record, StepGrad) as the op under test."""
    return tf.gradients(_rows(m, lambda ta: ta.read(1) ** 2), m, grad_ys=g)[0]


CASES.append(OpCase("tensor_array_read_gradient", _read_gradient, [M, M[0].copy()],
                    lambda m, g: np.eye(4)[1][:, None] * (2 * m[1] * g), order2=True))
