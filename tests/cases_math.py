"""Op cases: elementwise math (unary, binary with broadcasting, comparisons, select, cast)."""
import numpy as np

import s2sgrad as tf
from optable import OpCase

R = np.random.default_rng(1)
X = R.uniform(0.2, 0.9, (3, 4))          # inside every unary op's domain
Y = R.uniform(0.5, 1.5, (4,))            # broadcasts against X
S = R.standard_normal((3, 4))

CASES = [
    OpCase("tanh", tf.tanh, [X], np.tanh, order2=True),
    OpCase("mul_broadcast", tf.multiply, [X, Y], np.multiply, order2=True),
    OpCase("add_broadcast", tf.add, [X, Y], np.add),
    OpCase("sub_broadcast", tf.subtract, [Y, X], np.subtract),
    OpCase("div_broadcast", tf.divide, [X, Y], np.divide, order2=True),
    OpCase("pow", tf.pow, [X, Y], np.power, order2=True),
]
