"""Op cases: elementwise math (unary, binary with broadcasting, comparisons, logic, select,
add_n, cast)."""
import math

import numpy as np

import s2sgrad as tf
from optable import OpCase
from s2sgrad.ops import math_ops as _m

R = np.random.default_rng(1)
X = R.uniform(0.2, 0.9, (3, 4))          # inside every unary op's domain
Y = R.uniform(0.5, 1.5, (4,))            # broadcasts against X
S = R.standard_normal((3, 4))
COL = R.uniform(0.5, 1.5, (3, 1))        # broadcasts against X from the other side
SCALAR = np.float64(1.25)
T3 = R.standard_normal((2, 1, 3))        # broadcasts with B3 to (2, 4, 3)
B3 = R.uniform(0.5, 1.5, (4, 1))
I = np.array([[7, -3, 0], [5, 9, -8]], np.int32)  # noqa: E741 - I, the integer operand (as X the float one)
J = np.array([2, -4, 3], np.int32)
B = np.array([[True, False, True], [False, False, True]])
C = np.array([True, False, False])
ODD = np.array([-2.5, -1.5, -0.4, 0.5, 1.5, 2.6, np.nan, np.inf, -np.inf])   # rounding and classification
F32 = X.astype(np.float32)

_erf = np.vectorize(math.erf)



def _xlogy(x, y):
    """TF's xlogy: 0 where x == 0 (whatever y is), else x * log(y) (-inf at y == 0)."""
    with np.errstate(divide="ignore"):
        return np.where(x == 0, 0.0, x * np.log(np.where(x == 0, 1, y)))

def _unary(name, op, ref, inputs=(X,), **kw):
    return OpCase(name, op, list(inputs), ref, **kw)


UNARY = [
    _unary("rsqrt", tf.rsqrt, lambda x: 1 / np.sqrt(x), order2=True),
    _unary("tanh_f32", tf.tanh, np.tanh, [F32], rtol=1e-6),
    _unary("sigmoid", tf.sigmoid, lambda x: 1 / (1 + np.exp(-x)), [S], order2=True),
    _unary("erf", tf.erf, _erf, [S], order2=True),
    _unary("round_half_to_even", tf.round, np.round, [ODD], grad=False),
    _unary("floor", tf.floor, np.floor, [ODD], grad=False),
    _unary("ceil", tf.ceil, np.ceil, [ODD], grad=False),
    _unary("is_nan", tf.is_nan, np.isnan, [ODD], grad=False),
    _unary("is_inf", tf.is_inf, np.isinf, [ODD], grad=False),
    _unary("is_finite", tf.is_finite, np.isfinite, [ODD], grad=False),
    _unary("logical_not", tf.logical_not, np.logical_not, [B], grad=False),
    _unary("invert_operator", lambda b: ~b, np.logical_not, [B], grad=False),
    _unary("scalar_input", tf.exp, np.exp, [SCALAR], order2=True),
    _unary("empty_input", tf.exp, np.exp, [np.zeros((0, 3))]),
]


def _binary(name, op, ref, x=X, y=Y, **kw):
    return OpCase(name, op, [x, y], ref, **kw)


BINARY = [
    _binary("add_column", tf.add, np.add, X, COL),
    _binary("add_scalar", tf.add, np.add, SCALAR, X),
    _binary("add_3d_broadcast", tf.add, np.add, T3, B3),
    _binary("add_operator_python_scalar", lambda x, y: 2 + x + y * 3, lambda x, y: 2 + x + y * 3),
    _binary("sub_broadcast", tf.subtract, np.subtract, Y, X),
    _binary("sub_operator", lambda x, y: x - y, np.subtract, X, COL),
    _binary("mul_3d_broadcast", tf.multiply, np.multiply, T3, B3, order2=True),
    _binary("div_broadcast", tf.divide, np.divide, order2=True),
    _binary("div_column", tf.divide, np.divide, COL, X, order2=True),
    _binary("realdiv_column", tf.realdiv, np.divide, X, COL),
    _binary("truediv_int32_gives_float64", tf.truediv, np.true_divide, I, J, grad=False),
    _binary("div_no_nan", tf.div_no_nan, np.divide, X, Y, order2=True),
    _binary("div_no_nan_zero_divisor", tf.div_no_nan, lambda x, y: np.where(y == 0, 0.0, x / np.where(y == 0, 1, y)),
            X, np.array([0.5, 0.0, 2.0, 0.0]), grad_inputs=[0], order2=True),
    _binary("div_no_nan_zero_over_zero", tf.math.divide_no_nan, lambda x, y: np.zeros(2),
            np.array([0.0, np.inf]), np.array([0.0, 0.0]), grad=False),
    _binary("pow_int", tf.pow, np.power, np.abs(I), np.array([2, 1, 3], np.int32), grad=False),
    _binary("pow_operator", lambda x, y: x ** y, np.power, X, COL, order2=True),
    _binary("squared_difference", tf.squared_difference, lambda x, y: (x - y) ** 2, S, Y, order2=True),
    _binary("atan2_column", tf.atan2, np.arctan2, S, COL, order2=True),
    _binary("xlogy", tf.math.xlogy, lambda x, y: x * np.log(y), X, Y, order2=True),
    _binary("xlogy_zero_x", tf.math.xlogy, _xlogy, np.array([[0.0, 0.5], [2.0, 0.0]]), np.array([0.0, 3.0]),
            grad=False),
    _binary("greater_equal_operator", lambda x, y: x >= y, np.greater_equal, I, J, grad=False),
]


def _case(name, build, ref, inputs, **kw):
    """An OpCase written build, reference, inputs (reads better for multi-input lambdas)."""
    return OpCase(name, build, inputs, ref, **kw)


OTHER = [
    _case("clip_by_value", lambda x: tf.clip_by_value(x, -0.5, 0.7), lambda x: np.clip(x, -0.5, 0.7), [S]),
    _case("clip_by_value_tensor_bounds", tf.clip_by_value, np.clip, [S, Y - 1.5, COL]),
    _case("scalar_mul", lambda x: tf.scalar_mul(3.0, x), lambda x: 3.0 * x, [S]),
    _case("where_broadcast", lambda c, x, y: tf.where_v2(c, x, y), np.where, [C, S[:2, :3], Y[:3]]),
    _case("where_same_shape", tf.where, np.where, [B, S[:2, :3], X[:2, :3]]),
    _case("where_v1_vector_picks_rows", tf.where, lambda c, x, y: np.where(c[:, None], x, y),
           [C, S[:, :2], X[:, :2]]),
    _case("where_v1_vector_with_unknown_rank", lambda c, x, y: tf.where(c, tf.placeholder_with_default(x, None), y),
          lambda c, x, y: np.where(c[:, None], x, y), [C, S[:, :2], X[:, :2]]),
    _case("where_int", tf.where, np.where, [B, I, I[::-1]], grad=False),
    _case("add_n", lambda x, y, z: tf.add_n([x, y, z]), lambda x, y, z: x + y + z, [X, S, X * S], order2=True),
    _case("add_n_repeated_input", lambda x: tf.add_n([x, x, x]), lambda x: 3 * x, [S]),
    _case("add_n_int", lambda x, y: tf.add_n([x, y]), np.add, [I, I], grad=False),
    _case("cast_float64_to_float32", lambda x: tf.cast(x, tf.float32), lambda x: x.astype(np.float32), [S]),
    _case("cast_float_to_int_truncates", lambda x: tf.cast(x, tf.int32), lambda x: x.astype(np.int32),
           [ODD[:6]], grad=False),
    _case("cast_int_to_float_blocks_gradient", lambda i, x: tf.cast(i, tf.float64) * x,
           lambda i, x: i * x, [I, S[:2, :3]]),
    _case("cast_bool_to_float", lambda b: tf.cast(b, tf.float32), lambda b: b.astype(np.float32), [B], grad=False),
    _case("cast_float_to_bool", lambda x: tf.cast(x, tf.bool), lambda x: x.astype(bool), [np.array([0.0, 2.5])],
           grad=False),
    _case("to_float", tf.to_float, lambda i: i.astype(np.float32), [I], grad=False),
    _case("to_int64", tf.to_int64, lambda i: i.astype(np.int64), [I], grad=False),
]

# TF's fused gradient kernels (y, g) -> dx, each with its own second-order rule.
GRAD_KERNELS = [
    _case("tanh_grad_kernel", _m.tanh_grad, lambda y, g: g * (1 - y * y), [X, S], order2=True),
    _case("sigmoid_grad_kernel", _m.sigmoid_grad, lambda y, g: g * y * (1 - y), [X, S], order2=True),
    _case("sqrt_grad_kernel", _m.sqrt_grad, lambda y, g: 0.5 * g / y, [X, S], order2=True),
    _case("rsqrt_grad_kernel", _m.rsqrt_grad, lambda y, g: -0.5 * g * y ** 3, [X, S], order2=True),
    _case("reciprocal_grad_kernel", _m.reciprocal_grad, lambda y, g: -g * y * y, [X, S], order2=True),
]

CASES = UNARY + BINARY + OTHER + GRAD_KERNELS
