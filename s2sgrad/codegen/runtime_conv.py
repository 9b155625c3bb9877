"""Runtime helpers of the convolution and pooling primitives (``rt.conv``, ``rt.max_pool``...).

NumPy only, like ``runtime.py`` (which re-exports them, so generated code calls ``rt.<name>``, and
``s2sgrad.export`` copies their source). Arrays are channels-last (``N, *spatial, C``) unless
``channels_first``; ``padding`` is ``'SAME'``, ``'VALID'`` or one ``(before, after)`` pair per
spatial axis. A convolution is one matrix product over a sliding-window view (im2col) or, at stride 1
with many channels, a sum over the window's elements of products of row-shifted views of the padded
input (no im2col copy; ``_shifted`` chooses), or, for images smaller than the window (most of
each window padding), one product with the dense matrix of the whole linear map (``_dense_map``);
pooling is a loop over the window's offsets (a few strided slices, copied a channel vector at a time
where the channels are few), never over pixels.
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

__all__ = ["conv", "conv_backprop_input", "conv_backprop_filter", "depthwise_conv", "depthwise_backprop_input",
           "depthwise_backprop_filter", "max_pool", "max_pool_grad", "max_pool_grad_grad", "max_pool_argmax",
           "avg_pool", "avg_pool_grad"]


def conv_pads(sizes, window, strides, dilations, padding):
    """``(before, after)`` per spatial axis: TF's SAME puts the odd element after."""
    if not isinstance(padding, str):
        return tuple((int(b), int(a)) for b, a in padding)
    pads = []
    for n, k, s, d in zip(sizes, window, strides, dilations, strict=True):
        total = 0 if padding == "VALID" else max((-(-n // s) - 1) * s + (k - 1) * d + 1 - n, 0)
        pads.append((total // 2, total - total // 2))
    return tuple(pads)


def _last(x, channels_first):
    return np.moveaxis(x, 1, -1) if channels_first else x


def _first(x, channels_first):
    return np.moveaxis(x, -1, 1) if channels_first else x


def _sizes_last(sizes, channels_first):
    sizes = tuple(int(n) for n in sizes)
    return (sizes[0],) + sizes[2:] + (sizes[1],) if channels_first else sizes


def _padded(x, pads, fill=0):
    """``x`` (``N, *spatial, C``) with ``(before, after)`` elements of ``fill`` around each spatial axis:
    ``np.pad``'s constant mode without its per-call overhead (a tenth of a millisecond)."""
    if not any(b or a for b, a in pads):
        return x
    sizes = tuple(n + b + a for n, (b, a) in zip(x.shape[1:-1], pads, strict=True))
    out = np.full(x.shape[:1] + sizes + x.shape[-1:], fill, dtype=x.dtype)
    out[(slice(None),) + tuple(slice(b, b + n) for n, (b, _) in zip(x.shape[1:-1], pads, strict=True))] = x
    return out


def _windows(x, window, strides, dilations, pads):
    """The ``(N, *out, C, *window)`` view of the windows of ``x`` padded with zeros by ``pads``."""
    x = _padded(x, pads)
    rank = len(window)
    extent = tuple((k - 1) * d + 1 for k, d in zip(window, dilations, strict=True))
    view = sliding_window_view(x, extent, axis=tuple(range(1, rank + 1)))
    every = (slice(None),)
    return view[every + tuple(slice(None, None, s) for s in strides) + every
                + tuple(slice(None, None, d) for d in dilations)]


def _columns(view):
    """The windows as rows of a matrix, each ordered ``(*window, C)`` like a filter's ``(*window, Cin)``."""
    rank = (view.ndim - 2) // 2
    if view.shape[rank + 1] == 1:   # one channel: one window element at a time, long contiguous runs
        columns = np.empty((int(np.prod(view.shape[rank + 2:])),) + view.shape[:rank + 1], dtype=view.dtype)
        for i, index in enumerate(np.ndindex(*view.shape[rank + 2:])):
            columns[i] = view[(Ellipsis, 0) + index]
        return columns.reshape(len(columns), -1).T
    order = tuple(range(rank + 1)) + tuple(range(rank + 2, 2 * rank + 2)) + (rank + 1,)
    return view.transpose(order).reshape(-1, int(np.prod(view.shape[rank + 1:])))


def _shifted_rows(x, window, dilations, pads):
    """``x`` zero-padded by ``pads`` as the rows of a matrix, the count ``m`` of padded positions, the
    padded sizes, and per window element the row offset ``s`` such that ``rows[s:s + m]`` holds that
    element's input for every position of the padded grid (the ones past the output are cropped later)."""
    sizes = tuple(n + b + a for n, (b, a) in zip(x.shape[1:-1], pads, strict=True))
    steps = [int(np.prod(sizes[i + 1:])) * d for i, d in enumerate(dilations)]
    offsets = [sum(o * s for o, s in zip(index, steps, strict=True)) for index in np.ndindex(*window)]
    m = x.shape[0] * int(np.prod(sizes))
    rows = np.zeros((m + offsets[-1], x.shape[-1]), dtype=x.dtype)
    inside = (slice(None),) + tuple(slice(b, b + n) for n, (b, _) in zip(x.shape[1:-1], pads, strict=True))
    rows[:m].reshape(x.shape[:1] + sizes + x.shape[-1:])[inside] = x
    return rows, m, sizes, offsets


def _output_part(sizes, window, dilations):
    """Where the output positions lie in the padded grid of ``_shifted_rows``."""
    return (slice(None),) + tuple(slice(n - (k - 1) * d) for n, k, d in zip(sizes, window, dilations, strict=True))


def _shifted(x, window, dilations, strides, pads, channels_in, channels_out):
    """Whether a stride-1 correlation is cheaper as a sum of row-shifted products than as one im2col
    product: float data, a padded grid little larger than the output, enough input channels for a
    matrix product, and less to accumulate (one output per window element) than im2col copies."""
    if any(s != 1 for s in strides) or x.dtype not in (np.float32, np.float64) or channels_in < 8:
        return False
    out = int(np.prod([n + b + a - (k - 1) * d for n, (b, a), k, d
                       in zip(x.shape[1:-1], pads, window, dilations, strict=True)]))
    padded = int(np.prod([n + b + a for n, (b, a) in zip(x.shape[1:-1], pads, strict=True)]))
    elements = int(np.prod(window))
    return padded <= 1.5 * out and padded * (elements - 1) * channels_out <= out * elements * channels_in


def _dense_map(x, w, strides, dilations, pads):
    """For an image with fewer pixels than the window has elements (most of each window is padding):
    the correlation as one ``(pixels * Cin, outputs * Cout)`` matrix, ``w[k]`` at each (input, output)
    pixel pair that window element ``k`` joins, and the output sizes; None for larger images."""
    sizes, window = x.shape[1:-1], w.shape[:-2]
    out = tuple((n + b + a - (k - 1) * d - 1) // s + 1
                for n, (b, a), k, d, s in zip(sizes, pads, window, dilations, strides, strict=True))
    cells = int(np.prod(sizes)) * int(np.prod(out)) * w.shape[-2] * w.shape[-1]
    if int(np.prod(sizes)) >= int(np.prod(window)) or cells > 1 << 22 or x.dtype not in (np.float32, np.float64):
        return None
    key = (sizes, window, out, tuple(strides), tuple(dilations), tuple(b for b, _ in pads))
    pairs = _DENSE_PAIRS.get(key)
    if pairs is None:   # (a plain dict, as runtime helpers use NumPy only; threads may race to fill it)
        if len(_DENSE_PAIRS) >= 64:
            _DENSE_PAIRS.clear()
        pairs = _DENSE_PAIRS[key] = _dense_pairs(*key)
    pixel, element, output = pairs
    matrix = np.zeros((int(np.prod(sizes)), w.shape[-2], int(np.prod(out)), w.shape[-1]), dtype=w.dtype)
    matrix[pixel, :, output, :] = w.reshape((-1,) + w.shape[-2:])[element]
    return matrix.reshape(int(np.prod(sizes)) * w.shape[-2], -1), out


_DENSE_PAIRS: dict = {}   # shapes -> _dense_pairs: every step of a training loop reuses them


def _dense_pairs(sizes, window, out, strides, dilations, befores):
    """``_dense_map``'s (input pixel, window element, output pixel) triples: shapes only, made once."""
    rank = len(sizes)
    column = (rank, 1, 1)
    position = (np.indices(out).reshape(rank, 1, -1) * np.reshape(strides, column)
                + np.indices(window).reshape(rank, -1, 1) * np.reshape(dilations, column)
                - np.reshape(befores, column))
    element, output = np.nonzero(np.all((position >= 0) & (position < np.reshape(sizes, column)), axis=0))
    return np.ravel_multi_index(tuple(position[:, element, output]), sizes), element, output


def _correlate(x, w, strides, dilations, pads):
    """The cross-correlation of ``x`` (``N, *spatial, Cin``) zero-padded by ``pads`` with ``w``."""
    rank = w.ndim - 2
    window = w.shape[:rank]
    dense = _dense_map(x, w, strides, dilations, pads)
    if dense is not None:   # no padding multiplied: fewer products than im2col's
        return (x.reshape(len(x), len(dense[0])) @ dense[0]).reshape(x.shape[:1] + dense[1] + w.shape[-1:])
    if _shifted(x, window, dilations, strides, pads, *w.shape[-2:]):
        rows, m, sizes, offsets = _shifted_rows(x, window, dilations, pads)
        kernels = w.reshape((-1,) + w.shape[-2:])
        out = rows[:m] @ kernels[0]
        term = np.empty_like(out)
        for s, kernel in zip(offsets[1:], kernels[1:], strict=True):
            out += np.matmul(rows[s:s + m], kernel, out=term)
        return out.reshape(x.shape[:1] + sizes + w.shape[-1:])[_output_part(sizes, window, dilations)]
    view = _windows(x, window, strides, dilations, pads)
    out = _columns(view) @ w.reshape(-1, w.shape[-1])
    return out.reshape(view.shape[:rank + 1] + w.shape[-1:])


def conv(x, w, strides, padding, dilations=None, channels_first=False):
    """``tf.nn.convolution``: the cross-correlation of ``x`` (``N, *spatial, Cin``) with ``w``
    (``*window, Cin, Cout``), as one matrix product of the im2col matrix and the filter, or for
    stride 1 and many channels as a sum of products of row-shifted views of ``x`` (no copies)."""
    x = _last(x, channels_first)
    rank = w.ndim - 2
    dilations = dilations or (1,) * rank
    pads = conv_pads(x.shape[1:-1], w.shape[:rank], strides, dilations, padding)
    return _first(_correlate(x, w, strides, dilations, pads), channels_first)


def _spread(g, sizes, window, strides, dilations, padding):
    """``g`` with ``stride - 1`` zeros between its elements, cropped where needed, and the zero padding
    around it with which a stride-1 correlation with the flipped window gives the gradient at each
    input position."""
    rank = len(window)
    pads = conv_pads(sizes[1:-1], window, strides, dilations, padding)
    if any(s > 1 for s in strides):
        spread_sizes = tuple((n - 1) * s + 1 for n, s in zip(g.shape[1:-1], strides, strict=True))
        spread = np.zeros((g.shape[0],) + spread_sizes + g.shape[-1:], dtype=g.dtype)
        spread[(slice(None),) + tuple(slice(None, None, s) for s in strides)] = g
        g = spread
    around, crop = [], [slice(None)]
    for i in range(rank):
        extent = (window[i] - 1) * dilations[i] + 1
        before = extent - 1 - pads[i][0]
        after = sizes[i + 1] + extent - 1 - g.shape[i + 1] - before
        around.append((max(before, 0), max(after, 0)))
        crop.append(slice(max(-before, 0), g.shape[i + 1] - max(-after, 0)))
    return g[tuple(crop)], tuple(around)


def _flipped(w):
    rank = w.ndim - 2
    return w[(slice(None, None, -1),) * rank]


def conv_backprop_input(input_sizes, w, g, strides, padding, dilations=None, channels_first=False):
    """The gradient of ``conv`` with respect to its input of shape ``input_sizes``: a stride-1
    correlation of the spread-out ``g`` with the flipped filter, inputs and outputs swapped."""
    sizes, g = _sizes_last(input_sizes, channels_first), _last(g, channels_first)
    rank = w.ndim - 2
    dilations = dilations or (1,) * rank
    spread, pads = _spread(g, sizes, w.shape[:rank], strides, dilations, padding)
    out = _correlate(spread, np.swapaxes(_flipped(w), -1, -2), (1,) * rank, dilations, pads)
    return _first(out, channels_first)


def conv_backprop_filter(x, filter_sizes, g, strides, padding, dilations=None, channels_first=False):
    """The gradient of ``conv`` with respect to its filter of shape ``filter_sizes``: the im2col
    matrix of ``x``, transposed, times ``g``."""
    x, g = _last(x, channels_first), _last(g, channels_first)
    sizes = tuple(int(n) for n in filter_sizes)
    rank = len(sizes) - 2
    dilations = dilations or (1,) * rank
    pads = conv_pads(x.shape[1:-1], sizes[:rank], strides, dilations, padding)
    columns = _columns(_windows(x, sizes[:rank], strides, dilations, pads))
    return (columns.T @ g.reshape(-1, g.shape[-1])).reshape(sizes)


def _per_channel(view):
    """Windows ``(N, *out, C, *window)`` as ``(C, N * prod(out), prod(window))``."""
    rank = (view.ndim - 2) // 2
    order = (rank + 1,) + tuple(range(rank + 1)) + tuple(range(rank + 2, 2 * rank + 2))
    return view.transpose(order).reshape(view.shape[rank + 1], -1, int(np.prod(view.shape[rank + 2:])))


def depthwise_conv(x, w, strides, padding, dilations=None, channels_first=False):
    """``tf.nn.depthwise_conv2d_native``: each input channel correlated with its own ``w[..., c, :]``
    (``*window, C, M``), giving ``C * M`` channels; one batched matrix product over the channels."""
    x = _last(x, channels_first)
    rank = w.ndim - 2
    dilations = dilations or (1,) * rank
    pads = conv_pads(x.shape[1:-1], w.shape[:rank], strides, dilations, padding)
    view = _windows(x, w.shape[:rank], strides, dilations, pads)
    channels, multiplier = w.shape[-2:]
    per_channel = np.moveaxis(w.reshape(-1, channels, multiplier), 1, 0)     # (C, prod(window), M)
    out = np.moveaxis(_per_channel(view) @ per_channel, 0, 1)                   # (N * prod(out), C, M)
    return _first(out.reshape(view.shape[:rank + 1] + (channels * multiplier,)), channels_first)


def depthwise_backprop_input(input_sizes, w, g, strides, padding, dilations=None, channels_first=False):
    """The gradient of ``depthwise_conv`` with respect to its input of shape ``input_sizes``."""
    sizes, g = _sizes_last(input_sizes, channels_first), _last(g, channels_first)
    rank = w.ndim - 2
    dilations = dilations or (1,) * rank
    channels, multiplier = w.shape[-2:]
    spread, pads = _spread(g, sizes, w.shape[:rank], strides, dilations, padding)
    # correlate over (window, M) per channel: the multiplier axis joins the window axes
    view = _windows(spread, w.shape[:rank], (1,) * rank, dilations, pads)
    view = view.reshape(view.shape[:rank + 1] + (channels, multiplier) + view.shape[rank + 2:])
    order = (rank + 1,) + tuple(range(rank + 1)) + (rank + 2,) + tuple(range(rank + 3, 2 * rank + 3))
    columns = view.transpose(order).reshape(channels, -1, multiplier * int(np.prod(w.shape[:rank])))
    flipped = np.moveaxis(_flipped(w), (-2, -1), (0, 1)).reshape(channels, -1, 1)  # (C, M * prod(window), 1)
    out = np.moveaxis((columns @ flipped)[..., 0], 0, -1)
    return _first(out.reshape(view.shape[:rank + 1] + (channels,)), channels_first)


def depthwise_backprop_filter(x, filter_sizes, g, strides, padding, dilations=None, channels_first=False):
    """The gradient of ``depthwise_conv`` with respect to its filter of shape ``filter_sizes``."""
    x, g = _last(x, channels_first), _last(g, channels_first)
    sizes = tuple(int(n) for n in filter_sizes)
    rank = len(sizes) - 2
    dilations = dilations or (1,) * rank
    channels, multiplier = sizes[-2:]
    pads = conv_pads(x.shape[1:-1], sizes[:rank], strides, dilations, padding)
    columns = _per_channel(_windows(x, sizes[:rank], strides, dilations, pads))        # (C, P, prod(window))
    grads = np.moveaxis(g.reshape(-1, channels, multiplier), 1, 0)                      # (C, P, M)
    return np.moveaxis(np.swapaxes(columns, 1, 2) @ grads, 0, 1).reshape(sizes)


# -- pooling --------------------------------------------------------------------------------------

def _offsets(x, window, strides, padding, fill):
    """``x`` padded with ``fill``, the pads, and per window offset the strided slice of the
    padded array that holds that element of every window (row-major window order)."""
    rank = len(window)
    pads = conv_pads(x.shape[1:-1], window, strides, (1,) * rank, padding)
    x = _padded(x, pads, fill)
    out = tuple((n - k) // s + 1 for n, k, s in zip(x.shape[1:-1], window, strides, strict=True))
    slices = [(slice(None),) + tuple(slice(o, o + (n - 1) * s + 1, s)
                                     for o, n, s in zip(offset, out, strides, strict=True))
              for offset in np.ndindex(*window)]
    return x, pads, slices


_SHORT = 128   # bytes: channel vectors up to this long make the inner loops of strided slices slow


def _short_vectors(x):
    """Whether ``x``'s channels are contiguous vectors of at most ``_SHORT`` bytes (not none)."""
    return 0 < x.shape[-1] * x.itemsize <= _SHORT and x.strides[-1] == x.itemsize


def _part(x, index, fresh=False):
    """``x[index]``; for short channel vectors copied contiguous one vector per element (the inner loops
    of a strided slice, copied or in a ufunc, would each run over a few channels); ``fresh``: a copy."""
    if _short_vectors(x):
        return _vectors(x)[index].copy().view(x.dtype)
    return x[index].copy() if fresh else x[index]


def _vectors(x):
    """``x`` (``N, *spatial, C``, channels contiguous) as ``(N, *spatial, 1)`` elements of ``C`` values."""
    return x.view(np.dtype((np.void, x.shape[-1] * x.itemsize)))


def _tiling(sizes, window, strides, pads):
    """Whether the windows tile the input padded by ``pads``: each element in exactly one window."""
    return all(k == s and (n + b + a) % k == 0 for n, k, s, (b, a) in zip(sizes, window, strides, pads, strict=True))


def _untiled(parts, window):
    """The array tiled by windows whose element ``t`` (row-major) is in ``parts[t]`` (``prod(window), N, *out, C``),
    copied one channel vector per element."""
    rank, (_, n, *out, c) = len(window), parts.shape
    split = tuple(window) + (n,) + tuple(out) + (1,)   # to (N, out_1, k_1, ..., out_r, k_r, 1)
    order = (rank,) + sum(((rank + 1 + i, i) for i in range(rank)), ()) + (2 * rank + 1,)
    whole = _vectors(parts).reshape(split).transpose(order).copy()
    return whole.view(parts.dtype).reshape((n,) + tuple(m * k for m, k in zip(out, window, strict=True)) + (c,))


def _cropped(x, pads):
    return x[(slice(None),) + tuple(slice(b, x.shape[i + 1] - a) for i, (b, a) in enumerate(pads))]


def _lowest(dtype):
    return -np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).min


def max_pool(x, ksize, strides, padding, channels_first=False):
    """The maximum over each window (padding never wins)."""
    x = _last(x, channels_first)
    padded, _, slices = _offsets(x, ksize, strides, padding, _lowest(x.dtype))
    out = _part(padded, slices[0], fresh=True)
    for index in slices[1:]:
        np.maximum(out, _part(padded, index), out=out)
    return _first(out, channels_first)


def _first_maxima(x, y, ksize, strides, padding):
    """The padded shape, the pads, and per window offset its slice of the padded ``x`` and where
    that holds the window's first maximum ``y`` (padding, NaN there, never does)."""
    padded, pads, slices = _offsets(x, ksize, strides, padding, np.nan if x.dtype.kind == "f" else _lowest(x.dtype))
    y = np.ascontiguousarray(y)   # read once per window offset

    def hits():
        taken = None
        for i, index in enumerate(slices):
            hit = np.equal(_part(padded, index), y)
            if taken is not None:
                np.greater(hit, taken, out=hit)          # hit and not taken
            if i < len(slices) - 1:
                taken = hit.copy() if taken is None else np.logical_or(taken, hit, out=taken)
            yield index, hit
    return padded.shape, pads, hits()


def max_pool_grad(x, y, g, ksize, strides, padding, channels_first=False):
    """TF's MaxPoolGrad: each window's gradient goes to its first maximum (row-major)."""
    x, y, g = _last(x, channels_first), _last(y, channels_first), _last(g, channels_first)
    shape, pads, hits = _first_maxima(x, y, ksize, strides, padding)
    g = np.ascontiguousarray(g)   # read once per window offset
    tiling = _tiling(x.shape[1:-1], ksize, strides, pads)   # windows that tile the input write each element once
    if tiling and _short_vectors(x):   # contiguous writes per window offset, placed a channel vector at a time
        parts = np.empty((int(np.prod(ksize)),) + y.shape, dtype=g.dtype)
        for part, (_, hit) in zip(parts, hits, strict=True):
            np.multiply(hit, g, out=part)
        return _first(_cropped(_untiled(parts, ksize), pads), channels_first)
    out = np.empty(shape, dtype=g.dtype) if tiling else np.zeros(shape, dtype=g.dtype)
    for index, hit in hits:
        if tiling:
            np.multiply(hit, g, out=out[index])
        else:
            out[index] += hit * g
    return _first(_cropped(out, pads), channels_first)


def max_pool_grad_grad(x, y, gg, ksize, strides, padding, channels_first=False):
    """TF's MaxPoolGradGrad: per window, ``gg`` at the window's first maximum."""
    x, y, gg = _last(x, channels_first), _last(y, channels_first), _last(gg, channels_first)
    _, pads, hits = _first_maxima(x, y, ksize, strides, padding)
    padded = _padded(gg, pads)
    out = np.zeros(y.shape, dtype=gg.dtype)
    for index, hit in hits:
        out += hit * _part(padded, index)
    return _first(out, channels_first)


def _flat_index(shape, out_shape, offset, strides, pads, include_batch):
    """Per window, the flat index into an array of ``shape`` (channels last) of its element at ``offset``."""
    grids = np.ogrid[tuple(slice(n) for n in out_shape)]
    flat = grids[-1]
    for axis in range(1, len(shape) - 1):
        position = grids[axis] * strides[axis - 1] + offset[axis - 1] - pads[axis - 1][0]
        flat = flat + position * int(np.prod(shape[axis + 1:]))
    if include_batch:
        flat = flat + grids[0] * int(np.prod(shape[1:]))
    return np.broadcast_to(flat, out_shape)


def max_pool_argmax(x, ksize, strides, padding, include_batch_in_index=False, index_dtype=np.int64):
    """TF's MaxPoolWithArgmax (channels last): the maxima and the flat indices of the first of each
    window's maxima, ``(y * width + x) * channels + c`` (with the batch: ``+ b * height * width * channels``)."""
    padded, pads, slices = _offsets(x, ksize, strides, padding, _lowest(x.dtype))
    offsets = list(np.ndindex(*ksize))
    best = _part(padded, slices[0], fresh=True)
    argmax = _flat_index(x.shape, best.shape, offsets[0], strides, pads, include_batch_in_index).astype(index_dtype)
    for offset, index in zip(offsets[1:], slices[1:], strict=True):
        values = _part(padded, index)
        better = values > best
        np.copyto(best, values, where=better)
        np.copyto(argmax, _flat_index(x.shape, best.shape, offset, strides, pads, include_batch_in_index),
                  where=better)
    return best, argmax


def _window_counts(spatial, ksize, strides, padding):
    """How many input (not padding) elements each window holds, shaped ``(1, *out, 1)``."""
    ones = np.ones((1,) + tuple(spatial) + (1,))
    padded, _, slices = _offsets(ones, ksize, strides, padding, 0.0)
    return sum(padded[index] for index in slices)


def avg_pool(x, ksize, strides, padding, channels_first=False):
    """The mean over each window's input elements (padding is not counted, as in TF)."""
    x = _last(x, channels_first)
    padded, _, slices = _offsets(x, ksize, strides, padding, 0)
    out = _part(padded, slices[0], fresh=True)
    for index in slices[1:]:
        out += _part(padded, index)
    out /= _window_counts(x.shape[1:-1], ksize, strides, padding).astype(x.dtype)
    return _first(out, channels_first)


def avg_pool_grad(input_sizes, g, ksize, strides, padding, channels_first=False):
    """TF's AvgPoolGrad: each window's gradient shared equally by its input elements."""
    sizes, g = _sizes_last(input_sizes, channels_first), _last(g, channels_first)
    share = g / _window_counts(sizes[1:-1], ksize, strides, padding).astype(g.dtype)
    padded, pads, slices = _offsets(np.zeros(sizes, dtype=g.dtype), ksize, strides, padding, 0)
    for index in slices:
        padded[index] += share
    return _first(_cropped(padded, pads), channels_first)
