"""Op cases: IdentityN (the op that carries tf.custom_gradient's gradient)."""
import numpy as np

import s2sgrad as tf
from optable import OpCase

R = np.random.default_rng(7)

CASES = [
    OpCase("identity_n", lambda a, b, i: tf.identity_n([a, b, i]),
           [R.standard_normal((3, 4)), R.standard_normal(2), np.array([1, 2], np.int32)],
           lambda a, b, i: [a, b, i], order2=True),
    OpCase("identity_n_single", lambda a: tf.identity_n([a])[0] * 2.0, [R.standard_normal(3)], lambda a: a * 2.0),
]
