"""Hypothesis: random programs of elementwise, broadcasting and reduction ops over random
shapes (size-1 dims and scalars included) give, through Session.run, what the same program
gives evaluated directly in NumPy."""
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import s2sgrad as tf


def _logsumexp(x, axis=None, keepdims=False):
    top = np.max(x, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    out = np.log(np.sum(np.exp(x - top), axis=axis, keepdims=keepdims))
    return out + (top if keepdims else np.reshape(top, np.shape(out)))


UNARY = {
    "tanh": (tf.tanh, np.tanh), "sin": (tf.sin, np.sin), "cos": (tf.cos, np.cos), "abs": (tf.abs, np.abs),
    "negative": (tf.negative, np.negative), "square": (tf.square, np.square), "exp": (tf.exp, np.exp),
    "sigmoid": (tf.sigmoid, lambda x: 1 / (1 + np.exp(-x))), "softsign_like": (lambda x: x / (1.0 + tf.abs(x)),
                                                                                lambda x: x / (1 + np.abs(x))),
}
BINARY = {
    "add": (tf.add, np.add), "subtract": (tf.subtract, np.subtract), "multiply": (tf.multiply, np.multiply),
    "divide": (tf.divide, np.divide), "maximum": (tf.maximum, np.maximum), "minimum": (tf.minimum, np.minimum),
    "squared_difference": (tf.squared_difference, lambda x, y: np.square(x - y)),
    "select_greater": (lambda x, y: tf.where_v2(x > y, x, y * 2.0), lambda x, y: np.where(x > y, x, y * 2)),
}
REDUCE = {
    "sum": (tf.reduce_sum, np.sum), "mean": (tf.reduce_mean, np.mean), "max": (tf.reduce_max, np.max),
    "min": (tf.reduce_min, np.min), "prod": (tf.reduce_prod, np.prod), "logsumexp": (tf.reduce_logsumexp, _logsumexp),
}


@st.composite
def programs(draw):
    """Input shapes derived from one base shape (leading dims dropped, dims set to 1), then a
    list of steps ``(kind, name, operand indices, params)`` over the growing value pool."""
    base = draw(st.lists(st.integers(1, 4), min_size=0, max_size=3))
    n_inputs = draw(st.integers(1, 3))
    shapes = []
    for _ in range(n_inputs):
        dropped = draw(st.integers(0, len(base)))
        shapes.append(tuple(1 if draw(st.booleans()) else d for d in base[dropped:]))
    pool = list(shapes)
    steps = []
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["unary", "binary", "scalar", "reduce"]))
        i = draw(st.integers(0, len(pool) - 1))
        if kind == "binary":
            partners = [j for j, s in enumerate(pool) if _broadcastable(pool[i], s)]
            j = draw(st.sampled_from(partners))
            steps.append(("binary", draw(st.sampled_from(sorted(BINARY))), (i, j), None))
            pool.append(np.broadcast_shapes(pool[i], pool[j]))
        elif kind == "scalar":
            value = draw(st.sampled_from([0.5, -1.5, 2.0]))
            steps.append(("scalar", draw(st.sampled_from(["add", "multiply", "maximum"])), (i,), value))
            pool.append(pool[i])
        elif kind == "reduce":
            rank = len(pool[i])
            axes = draw(st.none() | st.lists(st.integers(-rank, rank - 1), unique_by=lambda a, rank=rank: a % rank,
                                             max_size=rank) if rank else st.none())
            keepdims = draw(st.booleans())
            steps.append(("reduce", draw(st.sampled_from(sorted(REDUCE))), (i,), (axes, keepdims)))
            pool.append(np.sum(np.zeros(pool[i]), axis=None if axes is None else tuple(axes), keepdims=keepdims).shape)
        else:
            steps.append(("unary", draw(st.sampled_from(sorted(UNARY))), (i,), None))
            pool.append(pool[i])
    return shapes, steps


def _broadcastable(a, b):
    try:
        np.broadcast_shapes(a, b)
        return True
    except ValueError:
        return False


def _run(steps, values, use_tf):
    """Evaluate the program on ``values`` with the s2sgrad ops (building a graph) or NumPy's."""
    pool = list(values)
    for kind, name, args, params in steps:
        ops = {"unary": UNARY, "binary": BINARY, "scalar": BINARY, "reduce": REDUCE}[kind][name]
        op = ops[0] if use_tf else ops[1]
        operands = [pool[i] for i in args]
        if kind == "scalar":
            result = op(operands[0], params) if use_tf else op(operands[0], operands[0].dtype.type(params))
        elif kind == "reduce":
            axes, keepdims = params
            axis = None if axes is None else (axes if use_tf else tuple(axes))
            result = op(operands[0], axis, keepdims=keepdims) if use_tf else op(operands[0], axis=axis,
                                                                                keepdims=keepdims)
        else:
            result = op(*operands)
        pool.append(result if use_tf else np.asarray(result, dtype=values[0].dtype))
    return pool[len(values):]


@given(programs(), st.sampled_from([np.float64, np.float32]), st.booleans(), st.integers(0, 2 ** 16))
def test_random_program_matches_numpy(program, dtype, static_shapes, seed):
    shapes, steps = program
    rng = np.random.default_rng(seed)
    values = [rng.standard_normal(s).astype(dtype) for s in shapes]
    graph = tf.Graph()
    with graph.as_default():
        holders = [tf.placeholder(tf.as_dtype(dtype), s if static_shapes else None) for s in shapes]
        outputs = _run(steps, holders, use_tf=True)
    with np.errstate(all="ignore"):
        expected = _run(steps, values, use_tf=False)
    with tf.Session(graph=graph) as sess:
        got = sess.run(outputs, dict(zip(holders, values, strict=True)))
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for g, e in zip(got, expected, strict=True):
        assert np.asarray(g).dtype == e.dtype and np.shape(g) == e.shape
        np.testing.assert_allclose(g, e, rtol=tol, atol=tol, equal_nan=True)
