"""Op cases: the decorator's corner primitives (``primitives/numpy_corners.py``: np.maximum, minimum, fmax,
fmin and clip with autograd's gradients at ties and bounds, np.cbrt) and graph mode's tf.maximum/minimum, whose
declarations no longer name the ufuncs (the decorator dispatches those to the corner primitives)."""
import numpy as np

import s2sgrad as tf
from cases_math import COL, I, J, S, Y
from optable import OpCase
from s2sgrad.ops import math_ops as _m
from s2sgrad.primitives import numpy_corners as P

NAN = np.array([[np.nan, 1.0, -2.0], [0.5, np.nan, 3.0]])
NAN_ROW = np.array([np.nan, 2.0, np.nan])


def _numpy(prim):
    return lambda *xs: _m.elementwise(prim, *xs)


CASES = [
    OpCase("maximum", tf.maximum, [S, Y], np.maximum, order2=True),
    OpCase("maximum_int", tf.maximum, [I, J], np.maximum, grad=False),
    OpCase("minimum", tf.minimum, [S, Y], np.minimum, order2=True),
    OpCase("minimum_int", tf.minimum, [I, J], np.minimum, grad=False),
    OpCase("numpy_maximum", _numpy(P.NUMPY_MAXIMUM), [S, Y], np.maximum, order2=True),
    OpCase("numpy_maximum_int", _numpy(P.NUMPY_MAXIMUM), [I, J], np.maximum, grad=False),
    OpCase("numpy_minimum", _numpy(P.NUMPY_MINIMUM), [S, COL], np.minimum, order2=True),
    OpCase("numpy_minimum_nan", _numpy(P.NUMPY_MINIMUM), [NAN, NAN_ROW], np.minimum, grad=False),
    OpCase("numpy_fmax", _numpy(P.NUMPY_FMAX), [S, Y], np.fmax, order2=True),
    OpCase("numpy_fmax_nan", _numpy(P.NUMPY_FMAX), [NAN, NAN_ROW], np.fmax, grad=False),
    OpCase("numpy_fmin", _numpy(P.NUMPY_FMIN), [COL, S], np.fmin, order2=True),
    OpCase("numpy_fmin_int", _numpy(P.NUMPY_FMIN), [I, J], np.fmin, grad=False),
    OpCase("numpy_clip", _numpy(P.NUMPY_CLIP), [S, Y - 1.5, COL], np.clip, order2=True),
    OpCase("numpy_clip_int", _numpy(P.NUMPY_CLIP), [I, J, np.int32(4)], np.clip, grad=False),
    OpCase("numpy_clip_nan", _numpy(P.NUMPY_CLIP), [NAN, np.float64(-1.0), np.float64(2.0)], np.clip, grad=False),
    OpCase("numpy_cbrt", _numpy(P.NUMPY_CBRT), [S], np.cbrt, order2=True),
    OpCase("numpy_cbrt_zero", _numpy(P.NUMPY_CBRT), [np.array([0.0, -27.0, 8.0])], np.cbrt, grad=False),
]
