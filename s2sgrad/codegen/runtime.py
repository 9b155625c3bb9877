"""Helpers that generated modules call as ``rt.<name>``: NumPy only, small and self-contained.

``s2sgrad.export`` copies the source of the helpers a module uses into the exported file,
so every helper must depend on nothing but NumPy, ``math`` and the other helpers here; the
convolution, image-resizing, summary, text, TensorArray and Example-parsing families live in the ``runtime_*.py``
modules beside this one (re-exported here, copied from there).
"""
from __future__ import annotations

import math

import numpy as np

from .runtime_conv import (
    avg_pool,
    avg_pool_grad,
    conv,
    conv_backprop_filter,
    conv_backprop_input,
    depthwise_backprop_filter,
    depthwise_backprop_input,
    depthwise_conv,
    max_pool,
    max_pool_argmax,
    max_pool_grad,
    max_pool_grad_grad,
)
from .runtime_example import parse_example
from .runtime_resize import resize_bilinear, resize_bilinear_grad, resize_nearest, resize_nearest_grad
from .runtime_summary import (
    audio_summary,
    histogram_summary,
    image_summary,
    merge_summary,
    scalar_summary,
    text_summary,
)
from .runtime_tensor_array import (
    step_grad,
    ta_concat,
    ta_concat_grad,
    ta_scatter,
    ta_size,
    ta_split,
    ta_stack,
    ta_write,
)
from .runtime_text import assert_that, check_numerics, print_tensors, print_v2

__all__ = ["sum_to", "sum_leading", "add_n", "erf", "truncated_normal", "cumsum", "cumprod", "scatter_into_zeros",
           "segment_sum", "segment_reduce", "sorted_segment",
           "gather_nd", "scatter_nd", "mirror_pad_grad", "softmax", "log_softmax", "softmax_xent",
           "sparse_softmax_xent", "window_sum", "top_k", "in_top_k", "assert_that", "print_tensors", "print_v2",
           "check_numerics", "sample_candidates", "parse_example", "real_eig",
           # runtime_conv.py's
           "conv", "conv_backprop_input", "conv_backprop_filter", "depthwise_conv", "depthwise_backprop_input",
           "depthwise_backprop_filter", "max_pool", "max_pool_grad", "max_pool_grad_grad", "max_pool_argmax",
           "avg_pool", "avg_pool_grad",
           # runtime_resize.py's
           "resize_bilinear", "resize_bilinear_grad", "resize_nearest", "resize_nearest_grad",
           # the TensorArray helpers (runtime_tensor_array.py)
           "step_grad", "ta_write", "ta_stack", "ta_size", "ta_scatter", "ta_concat", "ta_split", "ta_concat_grad",
           # the summary helpers (runtime_summary.py)
           "scalar_summary", "histogram_summary", "image_summary", "audio_summary", "text_summary", "merge_summary"]


def sum_to(x, shape):
    """Sum ``x`` over its broadcast axes so that it has ``shape`` (undoes NumPy broadcasting)."""
    shape = tuple(shape)
    if np.shape(x) == shape:
        return x
    lead = np.ndim(x) - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, d in enumerate(shape) if d == 1 and np.shape(x)[lead + i] != 1)
    return np.sum(x, axis=axes, keepdims=False).reshape(shape) if axes else np.reshape(x, shape)


def sum_leading(x, count):
    """``np.sum(x, axis=tuple(range(count)))`` for a kept part of a few elements (a bias gradient's
    ``(64, 28, 28, 16) -> (16,)``), about 10x faster: NumPy adds such rows one short row at a time, so
    blocks of rows are summed side by side first, then the block's rows. The order of the float
    additions differs from ``np.sum``'s (each is a sum of about sqrt(rows) partial sums: more accurate)."""
    kept = x.shape[count:]
    width = math.prod(kept)
    rows = x.reshape(-1, width)
    block = max(min(-(-512 // width), math.isqrt(len(rows))), 1)
    whole = len(rows) // block * block
    total = rows[:whole].reshape(-1, block * width).sum(0).reshape(block, width).sum(0)
    if whole < len(rows):
        total += rows[whole:].sum(0)
    return total.reshape(kept)


def add_n(terms):
    """``terms[0] + terms[1] + ...``, left to right, for sums too long to write as one expression."""
    total = terms[0] + terms[1]   # a fresh array (or scalar): safe to accumulate into
    for term in terms[2:]:
        total += term
    return total


_erf = np.frompyfunc(math.erf, 1, 1)


def erf(x):
    """The error function, elementwise, in the dtype of ``x`` (also for 0-d input, where
    ``frompyfunc`` gives a Python float)."""
    x = np.asarray(x)
    return np.asarray(_erf(x), dtype=x.dtype)[()]


def scatter_into_zeros(values, shape, index):
    """Zeros of ``shape`` with ``values`` written at ``index`` (the adjoint of basic indexing)."""
    out = np.zeros(shape, dtype=np.result_type(values))
    out[index] = values
    return out


def segment_sum(values, indices, num_segments):
    """Rows of ``values`` summed into ``num_segments`` rows by ``indices`` (repeats add up)."""
    return segment_reduce(np.add, values, indices, num_segments, 0)


def segment_reduce(ufunc, values, indices, num_segments, empty):
    """Rows of ``values`` combined by ``ufunc`` into ``num_segments`` rows by ``indices``; rows
    with a negative index are dropped, segments no row reaches hold ``empty``."""
    values, indices = np.asarray(values), np.asarray(indices)
    bad = np.argwhere(indices >= num_segments)
    if bad.size:
        at = tuple(bad[0])
        raise AssertionError(f"segment_ids[{','.join(map(str, at))}] = {indices[at]} is out of range "
                         f"[0, {num_segments})")
    kept = indices >= 0
    if not kept.all():
        values, indices = values[kept], indices[kept]
    out = np.full((num_segments,) + values.shape[indices.ndim:], empty, dtype=values.dtype)
    ufunc.at(out, indices, values)
    return out


def sorted_segment(ufunc, values, indices):
    """``tf.math.segment_*``: ``indices`` sorted, one per row of ``values``; there are
    ``indices[-1] + 1`` segments and the empty ones hold 0 (1 for the product). ``ufunc`` None is
    the mean. Each run of equal indices is reduced at once (``ufunc.reduceat``)."""
    values, indices = np.asarray(values), np.asarray(indices)
    if indices.shape[0] != values.shape[0]:
        raise AssertionError("segment_ids should be the same size as dimension 0 of input.")
    if indices.size and (indices[0] < 0 or np.any(indices[1:] < indices[:-1])):
        raise AssertionError("segment ids are not increasing")
    n = int(indices[-1]) + 1 if indices.size else 0
    out = np.full((n,) + values.shape[1:], 1 if ufunc is np.multiply else 0, dtype=values.dtype)
    if not indices.size:
        return out
    starts = np.flatnonzero(np.concatenate([[True], indices[1:] != indices[:-1]]))
    reduced = (ufunc or np.add).reduceat(values, starts, axis=0)
    if ufunc is None:
        counts = np.diff(np.append(starts, len(indices))).reshape((-1,) + (1,) * (values.ndim - 1))
        reduced = reduced / counts
    out[indices[starts]] = reduced
    return out


def gather_nd(params, indices):
    """``tf.gather_nd``: index ``params`` by the last axis of ``indices``."""
    indices = np.asarray(indices)
    return params[tuple(np.moveaxis(indices, -1, 0))]


def scatter_nd(indices, updates, shape):
    """``tf.scatter_nd``: zeros of ``shape`` with ``updates`` added at ``indices``."""
    out = np.zeros(shape, dtype=np.result_type(updates))
    np.add.at(out, tuple(np.moveaxis(np.asarray(indices), -1, 0)), updates)
    return out


def mirror_pad_grad(g, paddings, offset):
    """The adjoint of ``np.pad(x, paddings, mode='reflect')`` (``offset`` 1) or ``'symmetric'``
    (``offset`` 0): each padded element's gradient is added onto the element it mirrors."""
    g = np.asarray(g)
    for axis, (before, after) in enumerate(np.reshape(paddings, (-1, 2))):
        g = np.moveaxis(g, axis, 0)
        n = g.shape[0] - before - after
        core = g[before:before + n].copy()
        core[offset:offset + before] += g[:before][::-1]
        core[n - after - offset:n - offset] += g[before + n:][::-1]
        g = np.moveaxis(core, 0, axis)
    return g


def truncated_normal(rng, shape, dtype):
    """Standard normal draws, redrawing those more than two standard deviations out (as TF)."""
    out = rng.standard_normal(shape)
    bad = np.abs(out) > 2.0
    while bad.any():
        out[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(out) > 2.0
    return out.astype(dtype)[()]


def _scan(func, x, axis, exclusive, reverse):
    x = np.asarray(x)
    if reverse:
        x = np.flip(x, axis)
    if exclusive:  # shift by one along the axis, starting from the identity (also for an empty axis)
        shape = list(x.shape)
        shape[axis] = 1
        first = np.full(shape, 0 if func is np.cumsum else 1, dtype=x.dtype)
        x = np.delete(np.concatenate([first, x], axis=axis), -1, axis=axis)
    out = func(x, axis=axis)
    return np.flip(out, axis) if reverse else out


def cumsum(x, axis, exclusive, reverse):
    """``tf.cumsum`` with its ``exclusive`` and ``reverse`` options."""
    return _scan(np.cumsum, x, axis, exclusive, reverse)


def cumprod(x, axis, exclusive, reverse):
    """``tf.cumprod`` with its ``exclusive`` and ``reverse`` options."""
    return _scan(np.cumprod, x, axis, exclusive, reverse)


# -- softmax family (used by s2sgrad.primitives.nn) ---------------------------------------------------



def softmax(x, axis):
    """``exp(x) / sum(exp(x))`` along ``axis``, shifted by the maximum so nothing overflows."""
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis):
    """``x - log(sum(exp(x)))`` along ``axis``, shifted by the maximum so nothing overflows."""
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def softmax_xent(logits, labels, axis=-1):
    """Softmax cross-entropy along ``axis`` and its gradient ``softmax - labels`` (one pass)."""
    shifted = logits - np.max(logits, axis=axis, keepdims=True)
    e = np.exp(shifted)
    total = np.sum(e, axis=axis, keepdims=True)
    loss = np.sum(labels * (np.log(total) - shifted), axis=axis)
    return loss, e / total - labels


def sparse_softmax_xent(logits, labels):
    """Cross-entropy with integer class labels and its gradient ``softmax - one_hot(labels)``."""
    classes = np.shape(logits)[-1]
    labels = np.asarray(labels)
    bad = labels[(labels < 0) | (labels >= classes)]
    if bad.size:
        raise ValueError(f"Received a label value of {bad.flat[0]} which is outside the valid range of "
                         f"[0, {classes}).  Label values: {' '.join(map(str, labels.flat))}")
    shifted = logits - np.max(logits, axis=-1, keepdims=True)
    e = np.exp(shifted)
    total = np.sum(e, axis=-1, keepdims=True)
    picked = labels[..., None]
    loss = (np.log(total) - np.take_along_axis(shifted, picked, axis=-1))[..., 0]
    backprop = e / total
    np.put_along_axis(backprop, picked, np.take_along_axis(backprop, picked, axis=-1) - 1, axis=-1)
    return loss, backprop


# -- LRN, top_k, in_top_k (s2sgrad.primitives.nn) -------------------------------------------------------

def window_sum(x, radius):
    """Sums of ``x`` over the ``2 * radius + 1`` neighbours of each element along the last axis
    (clipped at the ends), from one running sum."""
    x = np.asarray(x)
    n = x.shape[-1]
    running = np.cumsum(x, axis=-1)
    zero = np.zeros(x.shape[:-1] + (1,), dtype=running.dtype)
    padded = np.concatenate([zero, running], axis=-1)   # padded[..., i] = sum of x[..., :i]
    positions = np.arange(n)
    return padded[..., np.minimum(positions + radius + 1, n)] - padded[..., np.maximum(positions - radius, 0)]


def real_eig(x):
    """``np.linalg.eig(x)`` of matrices whose eigenvalues are all real, as real arrays."""
    w, v = np.linalg.eig(x)
    if np.iscomplexobj(w):
        if np.any(w.imag != 0):
            raise np.linalg.LinAlgError("np.linalg.eig: the matrix has complex eigenvalues; s2sgrad differentiates "
                                        "eig of matrices with real eigenvalues only")
        w, v = w.real, v.real
    return w, v


def top_k(x, k, index_dtype):
    """The ``k`` largest values along the last axis, largest first (equal values: lower index
    first), and their indices (as ``index_dtype``)."""
    x = np.asarray(x)
    n = x.shape[-1]
    if k > n:
        raise ValueError(f"input must have at least k columns. Had {n}, needed {k}")
    if k < 0:
        raise ValueError(f"Need k >= 0, got {k}")
    # a stable ascending sort of the reversed row, read backwards: descending, ties by first index
    order = (n - 1 - np.argsort(x[..., ::-1], axis=-1, kind="stable"))[..., ::-1][..., :k]
    return np.take_along_axis(x, order, axis=-1), order.astype(index_dtype)


def in_top_k(predictions, targets, k):
    """Whether each row's target class is among its ``k`` largest predictions (ties count in;
    a target out of range or a non-finite prediction is never in)."""
    predictions, targets = np.asarray(predictions), np.asarray(targets)
    classes = predictions.shape[-1]
    valid = (targets >= 0) & (targets < classes)
    picked = np.take_along_axis(predictions, np.where(valid, targets, 0)[:, None], axis=-1)
    larger = np.sum(predictions > picked, axis=-1)
    return valid & np.isfinite(picked[:, 0]) & (larger < k)


# -- candidate sampling (s2sgrad.primitives.sampling) ----------------------------------------------------

def _class_probability(distribution, classes, range_max):
    """P(class) under ``distribution``: log-uniform (Zipf-like) or uniform over ``[0, range_max)``."""
    classes = np.asarray(classes, dtype=np.float64)
    if distribution == "uniform":
        return np.full(classes.shape, 1.0 / range_max)
    return np.log((classes + 2.0) / (classes + 1.0)) / math.log(range_max + 1.0)


def sample_candidates(rng, true_classes, distribution, num_sampled, unique, range_max):
    """``num_sampled`` classes (all different when ``unique``: draws repeat until there are enough),
    and the expected counts of ``true_classes`` and of the sampled classes in that many draws."""
    def draw(n):
        if distribution == "uniform":
            return rng.integers(0, range_max, n)
        return np.minimum(np.exp(rng.random(n) * math.log(range_max + 1.0)).astype(np.int64) - 1, range_max - 1)

    if unique:
        draws = np.empty(0, dtype=np.int64)
        while True:  # one batch of draws per round; the first occurrences, in order, are the samples
            draws = np.concatenate([draws, draw(2 * num_sampled + 16)])
            _, first = np.unique(draws, return_index=True)
            if len(first) >= num_sampled:
                break
        first = np.sort(first)[:num_sampled]
        tries = int(first[-1]) + 1 if num_sampled else 0
        sampled = draws[first]
    else:
        sampled = draw(num_sampled).astype(np.int64)

    def expected(classes):
        p = _class_probability(distribution, classes, range_max)
        return (-np.expm1(tries * np.log1p(-p)) if unique else p * num_sampled).astype(np.float32)

    return sampled, expected(true_classes), expected(sampled)


def band_part(x, num_lower, num_upper):
    """The band of ``x`` with ``num_lower`` subdiagonals and ``num_upper`` superdiagonals (-1: all);
    a count beyond the matrix is TF's error."""
    m, n = np.shape(x)[-2:]
    if num_lower > m:
        raise AssertionError(f"num_lower must be negative or less or equal to number of rows ({m}) got: {num_lower}")
    if num_upper > n:
        raise AssertionError(f"num_upper must be negative or less or equal to number of columns ({n}) got: "
                             f"{num_upper}")
    rows, cols = np.arange(m)[:, None], np.arange(n)[None, :]
    keep = ((num_lower < 0) | (rows - cols <= num_lower)) & ((num_upper < 0) | (cols - rows <= num_upper))
    return np.where(keep, x, np.zeros((), np.result_type(x)))


def upper_eigh(x):
    """``np.linalg.eigh`` reading the upper triangles: ``(e, v)``."""
    return tuple(np.linalg.eigh(x, UPLO="U"))


def matrix_diag(v):
    """Square matrices with ``v`` (last axis) on their diagonals."""
    n = np.shape(v)[-1]
    out = np.zeros((*np.shape(v), n), np.result_type(v))
    out[..., np.arange(n), np.arange(n)] = v
    return out


def triangular_solve(a, b, lower, adjoint):
    """``x`` with ``a x = b`` reading only ``a``'s lower (or upper) triangle (``adjoint``: ``a^H x = b``)."""
    a = np.tril(a) if lower else np.triu(a)
    return np.linalg.solve(np.swapaxes(a, -1, -2).conj() if adjoint else a, b)  # conj() of a real array is itself


def svd(x, full_matrices):
    """TensorFlow's SVD: ``(s, u, v)`` with ``x = u diag(s) v^H`` (NumPy returns ``v^H``)."""
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    return s, u, np.swapaxes(vh, -1, -2).conj()  # conj() of a real array is itself


def matrix_set_diag(x, d):
    """A copy of ``x`` with its main diagonals (``min(m, n)`` long) set to ``d``."""
    out = np.array(x, copy=True)
    k = min(np.shape(x)[-2:])
    out[..., np.arange(k), np.arange(k)] = d
    return out
