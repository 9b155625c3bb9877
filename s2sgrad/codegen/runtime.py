"""Helpers that generated modules call as ``rt.<name>``: NumPy only, small and self-contained.

``s2sgrad.export`` copies the source of the helpers a module uses into the exported file,
so every helper must depend on nothing but NumPy, ``math`` and the other helpers here; the
convolution family's live in ``runtime_conv.py`` (re-exported here, copied from there).
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
    resize_bilinear,
    resize_bilinear_grad,
    resize_nearest,
    resize_nearest_grad,
)

__all__ = ["sum_to", "add_n", "erf", "truncated_normal", "cumsum", "cumprod", "scatter_into_zeros", "segment_sum",
           "gather_nd", "scatter_nd", "mirror_pad_grad", "softmax", "log_softmax", "softmax_xent",
           "sparse_softmax_xent",
           # runtime_conv.py's
           "conv", "conv_backprop_input", "conv_backprop_filter", "depthwise_conv", "depthwise_backprop_input",
           "depthwise_backprop_filter", "max_pool", "max_pool_grad", "max_pool_grad_grad", "max_pool_argmax",
           "avg_pool", "avg_pool_grad", "resize_bilinear", "resize_bilinear_grad", "resize_nearest",
           "resize_nearest_grad"]


def sum_to(x, shape):
    """Sum ``x`` over its broadcast axes so that it has ``shape`` (undoes NumPy broadcasting)."""
    shape = tuple(shape)
    if np.shape(x) == shape:
        return x
    lead = np.ndim(x) - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, d in enumerate(shape) if d == 1 and np.shape(x)[lead + i] != 1)
    return np.sum(x, axis=axes, keepdims=False).reshape(shape) if axes else np.reshape(x, shape)


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
    values = np.asarray(values)
    out = np.zeros((num_segments,) + values.shape[np.ndim(indices):], dtype=values.dtype)
    np.add.at(out, indices, values)
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


def step_grad(steps, index, g):
    """Zeros with one row per recorded iteration of ``steps`` and ``g`` in row ``index``."""
    out = np.zeros((len(steps), *np.shape(g)), dtype=np.result_type(g))
    out[index] = g
    return out


def ta_write(ta, index, value, dynamic_size):
    """A TensorArray (a list) with element ``index`` set: a new list, as TF's TensorList."""
    index = int(index)
    if index < 0 or (index >= len(ta) and not dynamic_size):
        raise IndexError(f"Tried to write to index {index} but array is not resizeable and size is: {len(ta)}")
    out = list(ta) + [None] * (index + 1 - len(ta))
    out[index] = value
    return out


def ta_stack(ta, element_shape, dtype):
    """The elements stacked; unwritten ones are zeros when the element shape is known."""
    if any(e is None for e in ta):
        if element_shape is None:
            raise ValueError("Tried to stack elements of an empty list with non-fully-defined element_shape")
        ta = [np.zeros(element_shape, dtype) if e is None else e for e in ta]
    if not ta:
        return np.zeros((0, *(element_shape or ())), dtype)
    return np.stack(ta)


def ta_size(ta):
    return np.int32(len(ta))


def ta_scatter(ta, indices, value):
    out = list(ta)
    for i, row in zip(np.reshape(indices, -1), value, strict=True):
        if not 0 <= i < len(out):
            raise IndexError(f"Tried to write to index {i} but array size is: {len(out)}")
        out[int(i)] = row
    return out


def ta_concat(ta, element_shape, dtype):
    return np.concatenate(ta) if ta else np.zeros((0, *(element_shape or ())[1:]), dtype)


def ta_split(ta, value, lengths):
    lengths = [int(n) for n in np.reshape(lengths, -1)]
    if sum(lengths) != len(value):
        raise ValueError(f"Expected sum of lengths to be equal to values.shape[0], but sum of lengths is "
                         f"{sum(lengths)} and value's shape is: {list(np.shape(value))}")
    bounds = np.cumsum([0] + lengths)
    return [value[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


def ta_concat_grad(ta, g):
    """The gradient of a TensorArray concat, element by element (the elements must have one length)."""
    lengths = {len(e) for e in ta}
    if len(lengths) > 1:
        raise ValueError(f"the gradient of TensorArray.concat needs elements of one length, got {sorted(lengths)}")
    return np.reshape(g, (len(ta), lengths.pop() if lengths else 0, *np.shape(g)[1:]))
