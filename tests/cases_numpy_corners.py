"""Op cases: the decorator's corner primitives (``primitives/numpy_corners.py``: np.maximum, minimum, fmax,
fmin and clip with autograd's gradients at ties and bounds; NumPy's sort and partition; np.cbrt, hypot,
copysign and arccosh) and graph mode's tf.maximum/minimum, whose declarations no longer name the ufuncs (the decorator
dispatches those to the corner primitives)."""
import numpy as np

import s2sgrad as tf
from cases_math import COL, I, J, S, Y
from optable import OpCase
from s2sgrad.ops import math_ops as _m
from s2sgrad.ops.convert import record1
from s2sgrad.primitives import numpy_corners as P

NAN = np.array([[np.nan, 1.0, -2.0], [0.5, np.nan, 3.0]])
NAN_ROW = np.array([np.nan, 2.0, np.nan])


ORDER = np.argsort(np.random.default_rng(3).uniform(size=(3, 4)), axis=1)


def _numpy(prim):
    return lambda *xs: _m.elementwise(prim, *xs)


def _along(prim, **attrs):
    return lambda *xs: record1(prim, list(xs), attrs)


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
    OpCase("numpy_sort", _along(P.NUMPY_SORT, axis=1), [S], lambda x: np.sort(x, axis=1), order2=True),
    OpCase("numpy_sort_nan_last", _along(P.NUMPY_SORT, axis=0), [NAN], lambda x: np.sort(x, axis=0), grad=False),
    OpCase("numpy_argsort", _along(P.NUMPY_ARGSORT, axis=1, kind=None), [S], lambda x: np.argsort(x, axis=1),
           grad=False),
    OpCase("numpy_argsort_stable", _along(P.NUMPY_ARGSORT, axis=0, kind="stable"), [I],
           lambda x: np.argsort(x, axis=0, kind="stable"), grad=False),
    OpCase("numpy_partition", _along(P.NUMPY_PARTITION, axis=0, kth=(1,)), [S],
           lambda x: np.partition(x, 1, axis=0), order2=True),
    OpCase("numpy_argpartition", _along(P.NUMPY_ARGPARTITION, axis=1, kth=(0, 2)), [S],
           lambda x: np.argpartition(x, (0, 2), axis=1), grad=False),
    OpCase("numpy_permute", _along(P.NUMPY_PERMUTE, axis=1), [S, ORDER],
           lambda x, order: np.take_along_axis(x, order, axis=1), grad_inputs=[0], order2=True),
    OpCase("numpy_hypot", _numpy(P.NUMPY_HYPOT), [S, Y], np.hypot, order2=True),
    OpCase("numpy_hypot_large", _numpy(P.NUMPY_HYPOT), [np.array([1e200, 3.0]), np.array([1e200, -4.0])], np.hypot,
           grad=False),
    OpCase("numpy_copysign", _numpy(P.NUMPY_COPYSIGN), [S, Y - 1.0], np.copysign, order2=True),
    OpCase("numpy_copysign_zeros", _numpy(P.NUMPY_COPYSIGN), [np.array([1.0, -2.0, 0.0, -0.0]),
                                                               np.array([-0.0, 0.0, -1.0, 2.0])], np.copysign,
           grad=False),
    OpCase("numpy_arccosh", _numpy(P.NUMPY_ARCCOSH), [COL + 1.0], np.arccosh, order2=True),
    OpCase("numpy_arccosh_large", _numpy(P.NUMPY_ARCCOSH), [np.array([1.0, 1e200])], np.arccosh, grad=False),
    OpCase("numpy_cbrt_zero", _numpy(P.NUMPY_CBRT), [np.array([0.0, -27.0, 8.0])], np.cbrt, grad=False),
    OpCase("numpy_nanargmax", _along(P.NUMPY_NANARGMAX, axis=1), [NAN], lambda x: np.nanargmax(x, axis=1),
           grad=False),
    OpCase("numpy_nanargmin_int", _along(P.NUMPY_NANARGMIN, axis=0), [I], lambda x: np.nanargmin(x, axis=0),
           grad=False),
]
