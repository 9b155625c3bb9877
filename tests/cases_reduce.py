"""Op cases: reductions (axis/keepdims variants), arg-max/min, scans, and the broadcast/
unbroadcast helpers that gradient rules are built from."""
import numpy as np

import s2sgrad as tf
from optable import OpCase
from s2sgrad.ops import array_ops

R = np.random.default_rng(2)
X = R.standard_normal((3, 4))
X3 = R.standard_normal((2, 3, 4))
POS = R.uniform(0.5, 1.5, (3, 4))
POS3 = R.uniform(0.5, 1.5, (2, 3, 4))
ZERO = np.array([[1.5, 0.0, -2.0], [0.5, 3.0, 0.7]])   # a zero inside a product
ROW = R.standard_normal((4,))
I = np.array([[3, -7, 2, 9], [-1, 4, 4, 0], [5, 5, -2, 1]], np.int32)  # noqa: E741 - the integer operand
B = np.array([[True, False, True], [True, True, True]])


def _case(name, build, ref, inputs, **kw):
    return OpCase(name, build, inputs, ref, **kw)


def _reduction_cases(name, op, ref, order2=False):
    """One op over: all axes, one axis, a negative axis, several axes with keepdims, a scalar."""
    return [
        _case(f"{name}_all", op, ref, [X], order2=order2),
        _case(f"{name}_axis0", lambda t: op(t, 0), lambda a: ref(a, axis=0), [X], order2=order2),
        _case(f"{name}_axis_neg1_keepdims", lambda t: op(t, -1, keepdims=True),
              lambda a: ref(a, axis=-1, keepdims=True), [X]),
        _case(f"{name}_3d_axes_keepdims", lambda t: op(t, [0, 2], keepdims=True),
              lambda a: ref(a, axis=(0, 2), keepdims=True), [X3], order2=order2),
        _case(f"{name}_3d_axis1", lambda t: op(t, axis=1), lambda a: ref(a, axis=1), [X3]),
        _case(f"{name}_scalar", op, ref, [np.float64(1.5)]),
    ]


def _logsumexp(a, axis=None, keepdims=False):
    top = np.max(a, axis=axis, keepdims=True)
    out = np.log(np.sum(np.exp(a - top), axis=axis, keepdims=True)) + top
    return out if keepdims else np.squeeze(out, axis=axis)


def _scan(func, a, axis, exclusive=False, reverse=False):
    if reverse:
        a = np.flip(a, axis)
    out = func(a, axis=axis)
    if exclusive:
        first = np.full_like(np.take(a, [0], axis=axis), 0 if func is np.cumsum else 1)
        out = np.concatenate([first, np.delete(out, -1, axis=axis)], axis=axis)
    return np.flip(out, axis) if reverse else out


REDUCTIONS = (
    _reduction_cases("reduce_sum", tf.reduce_sum, np.sum)
    + _reduction_cases("reduce_mean", tf.reduce_mean, np.mean)
    + _reduction_cases("reduce_max", tf.reduce_max, np.max)
    + _reduction_cases("reduce_min", tf.reduce_min, np.min)
    + _reduction_cases("reduce_prod", tf.reduce_prod, np.prod, order2=True)
    + _reduction_cases("reduce_logsumexp", tf.reduce_logsumexp, _logsumexp, order2=True)
    + [
        _case("reduce_sum_legacy_keep_dims", lambda t: tf.reduce_sum(t, reduction_indices=[1], keep_dims=True),
              lambda a: np.sum(a, axis=1, keepdims=True), [X]),
        _case("reduce_sum_no_axes", lambda t: tf.reduce_sum(t, []), lambda a: a, [X]),
        _case("reduce_sum_int_keeps_int32", lambda t: tf.reduce_sum(t, 1), lambda a: np.sum(a, 1, dtype=np.int32),
              [I], grad=False),
        _case("reduce_mean_int_truncates", lambda t: tf.reduce_mean(t, 1),
              lambda a: np.trunc(np.sum(a, 1) / a.shape[1]).astype(np.int32), [I], grad=False),
        # first order only: the second derivative goes through cumprod's gradient, which (as in TF)
        # divides by the input and is wrong at zeros
        _case("reduce_prod_with_zero", lambda t: tf.reduce_prod(t, 1), lambda a: np.prod(a, 1), [ZERO]),
        _case("reduce_prod_with_zero_all", tf.reduce_prod, np.prod, [ZERO]),
        _case("reduce_prod_int", lambda t: tf.reduce_prod(t, 0), lambda a: np.prod(a, 0, dtype=np.int32), [I],
              grad=False),
        _case("reduce_max_int", lambda t: tf.reduce_max(t, 1), lambda a: np.max(a, 1), [I], grad=False),
        _case("reduce_max_ties", lambda t: tf.reduce_max(t, 1), lambda a: np.max(a, 1),
              [np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]])], grad=False),
        _case("reduce_min_keepdims_all", lambda t: tf.reduce_min(t, keepdims=True),
              lambda a: np.min(a, keepdims=True), [X]),
        _case("reduce_logsumexp_large_values", lambda t: tf.reduce_logsumexp(t, 1), lambda a: _logsumexp(a, 1),
              [np.array([[1000.0, 1000.0], [-1000.0, -999.0]])]),
        _case("reduce_logsumexp_all_minus_inf", lambda t: tf.reduce_logsumexp(t, 1),
              lambda a: np.array([-np.inf]), [np.array([[-np.inf, -np.inf]])], grad=False),
        _case("reduce_all", lambda b: tf.reduce_all(b, 1), lambda b: np.all(b, 1), [B], grad=False),
        _case("reduce_all_everything", tf.reduce_all, np.all, [B], grad=False),
        _case("reduce_any_keepdims", lambda b: tf.reduce_any(b, 0, keepdims=True),
              lambda b: np.any(b, 0, keepdims=True), [~B], grad=False),
        _case("count_nonzero", lambda t: tf.count_nonzero(t, 1), lambda a: np.count_nonzero(a, 1).astype(np.int64),
              [I], grad=False),
        _case("count_nonzero_bool_int32", lambda b: tf.math.count_nonzero(b, dtype=tf.int32),
              lambda b: np.int32(np.count_nonzero(b)), [B], grad=False),
        _case("reduce_variance", lambda t: tf.math.reduce_variance(t, 1), lambda a: np.var(a, 1), [X], order2=True),
        _case("reduce_std_keepdims", lambda t: tf.math.reduce_std(t, 0, keepdims=True),
              lambda a: np.std(a, 0, keepdims=True), [X], order2=True),
    ]
)

ARG = [
    _case("argmax_default_axis0", tf.argmax, lambda a: np.argmax(a, 0), [X], grad=False),
    _case("argmax_axis1", lambda t: tf.argmax(t, 1), lambda a: np.argmax(a, 1), [X3], grad=False),
    _case("argmax_dimension_int32", lambda t: tf.argmax(t, dimension=-1, output_type=tf.int32),
          lambda a: np.argmax(a, -1).astype(np.int32), [I], grad=False),
    _case("argmin_axis1", lambda t: tf.argmin(t, 1), lambda a: np.argmin(a, 1), [I], grad=False),
    _case("argmax_ties_first", lambda t: tf.argmax(t, 1), lambda a: np.argmax(a, 1),
          [np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]])], grad=False),
]

SCANS = [
    _case(f"{name}{'_exclusive' if ex else ''}{'_reverse' if rev else ''}_axis{ax}",
          lambda t, op=op, ax=ax, ex=ex, rev=rev: op(t, ax, exclusive=ex, reverse=rev),
          lambda a, func=func, ax=ax, ex=ex, rev=rev: _scan(func, a, ax, ex, rev),
          [(POS3 if ax == 2 else POS) if name == "cumprod" else X3 if ax == 2 else X], order2=name == "cumprod")
    for name, op, func in (("cumsum", tf.cumsum, np.cumsum), ("cumprod", tf.cumprod, np.cumprod))
    for ax, ex, rev in ((0, False, False), (1, True, False), (1, False, True), (-1, True, True), (2, True, False))
] + [
    _case("cumsum_int", lambda t: tf.cumsum(t, 1, exclusive=True), lambda a: _scan(np.cumsum, a, 1, True),
          [I], grad=False),
    _case("cumsum_exclusive_empty_axis", lambda t: tf.cumsum(t, 0, exclusive=True), lambda a: a, [np.zeros((0, 3))]),
    _case("cumprod_exclusive_reverse_empty_axis", lambda t: tf.cumprod(t, 1, exclusive=True, reverse=True),
          lambda a: a, [np.zeros((2, 0))]),
    _case("cumsum_math_alias", lambda t: tf.math.cumsum(t, reverse=True), lambda a: _scan(np.cumsum, a, 0, False, True),
          [ROW]),
]

HELPERS = [
    _case("sum_to_leading_and_inner", lambda g, like: array_ops.sum_to(g, like), lambda g, like: np.sum(g, (0, 2),
          keepdims=True)[0], [X3, np.zeros((3, 1))], grad_inputs=[0]),
    _case("sum_to_scalar", lambda g, like: array_ops.sum_to(g, like), lambda g, like: np.sum(g),
          [X, np.float64(0.0)], grad_inputs=[0]),
    _case("broadcast_like", lambda x, like: array_ops.broadcast_like(x, like),
          lambda x, like: np.broadcast_to(x, (2, 3, 4)), [ROW, X3], grad_inputs=[0]),
    _case("broadcast_like_both_ways", lambda x, like: array_ops.broadcast_like(x, like),
          lambda x, like: np.broadcast_to(x, (3, 4)), [X[:, :1], ROW], grad_inputs=[0]),
    _case("broadcast_reduced", lambda g, like: array_ops.broadcast_reduced(g, like, (0, 2), False),
          lambda g, like: np.broadcast_to(g[None, :, None], like.shape), [X3[0, :, 0], X3], grad_inputs=[0]),
    _case("broadcast_reduced_keepdims", lambda g, like: array_ops.broadcast_reduced(g, like, (-1,), True),
          lambda g, like: np.broadcast_to(g, like.shape), [X[:, :1], X], grad_inputs=[0]),
    _case("broadcast_reduced_all", lambda g, like: array_ops.broadcast_reduced(g, like, None, False),
          lambda g, like: np.broadcast_to(g, like.shape), [np.float64(2.5), X], grad_inputs=[0]),
]

CASES = REDUCTIONS + ARG + SCANS + HELPERS
