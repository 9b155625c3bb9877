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
from .runtime_summary import (
    audio_summary,
    histogram_summary,
    image_summary,
    merge_summary,
    scalar_summary,
    text_summary,
)

__all__ = ["sum_to", "add_n", "erf", "truncated_normal", "cumsum", "cumprod", "scatter_into_zeros", "segment_sum",
           "segment_reduce", "sorted_segment",
           "gather_nd", "scatter_nd", "mirror_pad_grad", "softmax", "log_softmax", "softmax_xent",
           "sparse_softmax_xent", "window_sum", "top_k", "in_top_k", "assert_that", "print_tensors", "print_v2",
           "check_numerics", "sample_candidates", "parse_example", "real_eig",
           # runtime_conv.py's
           "conv", "conv_backprop_input", "conv_backprop_filter", "depthwise_conv", "depthwise_backprop_input",
           "depthwise_backprop_filter", "max_pool", "max_pool_grad", "max_pool_grad_grad", "max_pool_argmax",
           "avg_pool", "avg_pool_grad", "resize_bilinear", "resize_bilinear_grad", "resize_nearest",
           "resize_nearest_grad",
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


# -- checks and prints (s2sgrad.primitives.debug) -------------------------------------------------------

def tf_text(value):
    """One element as TensorFlow writes it: the shortest of 6 (float32) or 15 (float64)
    significant digits that reads back the same, else 9 or 17; bools as 1 and 0."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, (str, np.str_)):
        return str(value)
    if isinstance(value, (bool, np.bool_)):
        return "1" if value else "0"
    if isinstance(value, np.floating) and np.isfinite(value):
        short, long = (15, 17) if value.dtype == np.float64 else (6, 9)
        text = f"{float(value):.{short}g}"
        return text if value.dtype.type(text) == value else f"{float(value):.{long}g}"
    if isinstance(value, (float, np.floating)):
        return "nan" if value != value else "inf" if value > 0 else "-inf"
    return str(value)


def summarize(value, limit):
    """TF's ``SummarizeValue``: the first ``limit`` elements (all for -1) in nested brackets,
    ``...`` where elements were left out (what Assert and Print show)."""
    value = np.asarray(value)
    flat = value.reshape(-1)
    limit = flat.size if limit < 0 else min(limit, flat.size)
    if value.ndim == 0:
        return tf_text(flat[0]) if limit else ""
    out, taken = [], [0]

    def dim(d):
        last = d == value.ndim - 1
        for i in range(value.shape[d]):
            if taken[0] >= limit:
                if last and d != 0:
                    out.append("...")
                return
            if last:
                out.append((" " if i else "") + tf_text(flat[taken[0]]))
                taken[0] += 1
            else:
                out.append("[")
                dim(d + 1)
                out.append("]")

    dim(0)
    return "".join(out) + ("..." if flat.size > limit else "")


def assert_that(condition, data, summarize_limit):
    """``tf.Assert``: raise AssertionError with TF's message unless the scalar ``condition`` holds."""
    condition = np.asarray(condition)
    if condition.ndim:
        raise ValueError(f"In[0] should be a scalar: {list(condition.shape)}")
    if not condition:
        raise AssertionError("assertion failed: " + " ".join(f"[{summarize(d, summarize_limit)}]" for d in data))


def write_to(stream, text):
    """``text`` to ``"stdout"`` (Python's, so redirections apply) or ``"stderr"`` (file descriptor 2,
    where TensorFlow's kernels write too)."""
    if stream == "stdout":
        print(text, end="", flush=True)
        return
    print(end="", flush=True)  # what Python printed before comes first
    with open(2, "w", closefd=False) as err:
        err.write(text)


def print_tensors(value, message, data, summarize_limit):
    """``tf.Print``: write ``message`` and the summaries of ``data`` to stderr; ``value`` passes through."""
    write_to("stderr", message + "".join(f"[{summarize(d, summarize_limit)}]" for d in data) + "\n")
    return value


def _print_v2_text(value, edge, depth=0):
    """A tensor as ``tf.print`` writes it: NumPy-like rows, ``edge`` items at each end of a long axis."""
    value = np.asarray(value)
    if value.ndim == 0:
        item = value[()]
        return f'"{tf_text(item)}"' if isinstance(item, (bytes, str)) else tf_text(item)
    n = value.shape[0]
    cut = 0 <= edge and 2 * edge < n
    items = [_print_v2_text(value[i], edge, depth + 1) for i in (list(range(edge)) if cut else range(n))]
    tail = [_print_v2_text(value[i], edge, depth + 1) for i in range(n - edge, n)] if cut else []
    parts = items + (["..."] if cut else []) + tail
    joiner = " " if value.ndim == 1 else "\n" + " " * (depth + 1)
    return "[" + joiner.join(parts) + "]"


def print_v2(template, values, edge, stream):
    """``tf.print``: ``template`` with each ``{}`` replaced by a value's text, to ``stream``."""
    write_to(stream, template.format(*(_print_v2_text(v, edge) for v in values)))


def check_numerics(value, message):
    """``tf.debugging.check_numerics``: ``value``, or AssertionError when it holds NaN or Inf."""
    nan, inf = np.isnan(value).any(), np.isinf(value).any()
    if nan or inf:
        what = "Inf and NaN" if nan and inf else "NaN" if nan else "Inf"
        raise AssertionError(f"{message} : Tensor had {what} values")
    return value


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


# -- tf.train.Example parsing (ParseExample); self-contained, as every helper here -----------------

def _wire_varint(data, pos):
    """The varint at ``data[pos:]`` and the position after it."""
    result = shift = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise ValueError("Can't parse serialized Example: bad varint")
        byte = data[pos]
        result |= (byte & 0x7F) << shift
        pos, shift = pos + 1, shift + 7
        if byte < 0x80:
            return result, pos


def _wire_fields(data):
    """(field number, payload) of each length-delimited field of a message; others (varint,
    fixed) as (number, int or bytes) too, so unpacked repeated values are read."""
    pos, end, out = 0, len(data), []
    while pos < end:
        key, pos = _wire_varint(data, pos)
        kind = key & 7
        if kind == 0:
            value, pos = _wire_varint(data, pos)
        elif kind == 2:
            size, pos = _wire_varint(data, pos)
            value, pos = data[pos:pos + size], pos + size
        elif kind in (1, 5):
            value, pos = data[pos:pos + (8 if kind == 1 else 4)], pos + (8 if kind == 1 else 4)
        else:
            raise ValueError(f"Can't parse serialized Example: wire type {kind}")
        if pos > end:
            raise ValueError("Can't parse serialized Example: truncated field")
        out.append((key >> 3, kind, value))
    return out


def _packed_varints(payload):
    """The int64 values of a packed varint field (vectorized over its bytes)."""
    b = np.frombuffer(payload, dtype=np.uint8)
    if not len(b):
        return np.zeros(0, np.int64)
    last = b < 0x80
    if not last[-1]:
        raise ValueError("Can't parse serialized Example: truncated packed int64 list")
    starts = np.concatenate(([0], np.flatnonzero(last)[:-1] + 1))
    group = np.concatenate(([0], np.cumsum(last[:-1])))
    shift = (np.arange(len(b)) - starts[group]) * 7
    if shift.max() > 63:
        raise ValueError("Can't parse serialized Example: varint longer than 10 bytes")
    terms = (b & 0x7F).astype(np.uint64) << shift.astype(np.uint64)
    return np.add.reduceat(terms, starts).view(np.int64)


def _feature_values(kind, payload):
    """A Feature's values as an array: kind 1 bytes, 2 float, 3 int64 (0: an empty Feature)."""
    items = _wire_fields(payload)
    if kind == 1:
        return np.array([v for n, w, v in items if n == 1 and w == 2] + [b""], dtype=object)[:-1]
    if kind == 2:
        parts = [np.frombuffer(v, "<f4") for n, w, v in items if n == 1 and w in (2, 5)]
        return np.concatenate(parts).astype(np.float32) if parts else np.zeros(0, np.float32)
    parts = [_packed_varints(v) if w == 2 else np.array([v], np.uint64).view(np.int64) for n, w, v in items
             if n == 1 and w in (0, 2)]
    return np.concatenate(parts) if parts else np.zeros(0, np.int64)


def _example_features(record):
    """An Example's features: name -> (kind, payload of the Feature's list)."""
    features = {}
    for n, w, message in _wire_fields(record):
        for m, _, entry in (_wire_fields(message) if n == 1 and w == 2 else ()):
            fields = {k: v for k, _, v in _wire_fields(entry)} if m == 1 else {}
            kinds = _wire_fields(fields.get(2, b""))
            kind, payload = (kinds[-1][0], kinds[-1][2]) if kinds else (0, b"")
            features[fields.get(1, b"").decode("utf-8")] = (kind, payload)
    return features


_EXAMPLE_KINDS = {"bytes": 1, "float": 2, "int64": 3}


def _example_value(features, key, kind, shape, default):
    """One dense feature of one example: its values in ``shape``, or ``default`` when missing."""
    found = features.get(key)
    if found is None:
        if default is None:
            raise ValueError(f"Feature: {key} (data type: {kind}) is required but could not be found.")
        return np.array(default, dtype=object if kind == "bytes" else None)
    values = _kind_values(key, kind, found)
    if values.size != int(np.prod(shape)):
        raise ValueError(f"Key: {key}.  Number of {kind} values != expected.  Values size: {values.size} "
                         f"but output shape: {list(shape)}")
    return values.reshape(shape)


def _kind_values(key, kind, found):
    if found[0] not in (0, _EXAMPLE_KINDS[kind]):
        names = {1: "string", 2: "float", 3: "int64"}
        raise ValueError(f"Feature: {key}. Data types don't match. Data type: {names[found[0]]} but expected "
                         f"type: {'string' if kind == 'bytes' else kind}")
    return _feature_values(_EXAMPLE_KINDS[kind], found[1] if found[0] else b"")


def _sequence_values(parsed, key, kind, shape, pad, dtype):
    """A FixedLenSequenceFeature of every example: [examples, longest, *shape], padded with ``pad``."""
    step = int(np.prod(shape))
    rows = []
    for f in parsed:
        values = _kind_values(key, kind, f[key]) if key in f else np.zeros(0, dtype)
        if step == 0 or values.size % step:
            raise ValueError(f"Key: {key}.  Number of {kind} values {values.size} is not a multiple of the "
                             f"element size {step} of shape {list(shape)}")
        rows.append(values.reshape((-1, *shape)))
    padded = np.full((len(rows), max([len(r) for r in rows] + [0]), *shape), pad, dtype=dtype)
    for i, r in enumerate(rows):
        padded[i, :len(r)] = r
    return padded


def parse_example(serialized, dense, sparse, sequence=()):
    """ParseExample: ``dense`` is ((key, kind, shape, default or None), ...), ``sparse`` ((key, kind), ...),
    ``sequence`` ((key, kind, shape, padding), ...); a scalar ``serialized`` is one Example, a vector a
    batch. Returns the dense values, the sequence values, then every sparse feature's indices, values
    and dense shape."""
    records = np.asarray(serialized, dtype=object)
    batch = records.reshape(-1)
    parsed = [_example_features(bytes(r)) for r in batch]
    dtypes = {"bytes": object, "float": np.float32, "int64": np.int64}
    out = []
    for key, kind, shape, default in dense:
        stacked = np.empty((len(parsed), *shape), dtype=dtypes[kind])
        for i, f in enumerate(parsed):
            stacked[i, ...] = _example_value(f, key, kind, shape, default)
        out.append(stacked.reshape(shape) if records.ndim == 0 else stacked)
    for key, kind, shape, pad in sequence:
        padded = _sequence_values(parsed, key, kind, shape, pad, dtypes[kind])
        out.append(padded[0] if records.ndim == 0 else padded)
    indices, values, shapes = [], [], []
    for key, kind in sparse:
        lists = [_kind_values(key, kind, f[key]) if key in f else np.zeros(0, dtypes[kind]) for f in parsed]
        lengths = np.array([len(v) for v in lists], dtype=np.int64)
        rows = np.repeat(np.arange(len(lists), dtype=np.int64), lengths)
        cols = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        width = int(lengths.max()) if len(lengths) else 0
        if records.ndim == 0:
            indices.append(cols.reshape(-1, 1))
            shapes.append(np.array([width], dtype=np.int64))
        else:
            indices.append(np.stack([rows, cols], axis=1))
            shapes.append(np.array([len(lists), width], dtype=np.int64))
        values.append(np.concatenate(lists).astype(dtypes[kind]) if lists else np.zeros(0, dtypes[kind]))
    return out + indices + values + shapes


def band_part(x, num_lower, num_upper):
    """The band of ``x`` with ``num_lower`` subdiagonals and ``num_upper`` superdiagonals (-1: all)."""
    m, n = np.shape(x)[-2:]
    rows, cols = np.arange(m)[:, None], np.arange(n)[None, :]
    keep = ((num_lower < 0) | (rows - cols <= num_lower)) & ((num_upper < 0) | (cols - rows <= num_upper))
    return np.where(keep, x, np.zeros((), np.result_type(x)))


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
