"""Helpers that translated modules call as ``xrt.<name>``: array API versions of what the standard lacks.

``HELPERS`` lists the NumPy names (``np.<name>`` / ``rt.<name>``) done here for every backend,
through the standard alone (no in-place writes, so they also run under ``jax.jit``);
``BACKEND_HELPERS`` the few that need a backend's own function (``einsum``, ``erf``, ``pad``),
by backend. Every helper finds its namespace from its arguments (``array-api-compat``).
The convolution and pooling helpers loop over window offsets (a few slices), never over pixels.
"""
from __future__ import annotations

import importlib
import itertools
import math
from typing import Any

from .runtime_conv import conv_pads

__all__ = ["HELPERS", "BACKEND_HELPERS", "namespace", "to_numpy"]

HELPERS = frozenset(f"rt.{n}" for n in (
    "add_n", "sum_to", "sum_leading", "softmax", "log_softmax", "softmax_xent", "cumsum", "cumprod", "conv",
    "conv_backprop_input", "conv_backprop_filter", "max_pool", "max_pool_grad", "avg_pool",
    "avg_pool_grad")) | frozenset(
    f"np.{n}" for n in ("ascontiguousarray", "swapaxes", "split", "shape", "size", "diagonal", "pad"))
_NATIVE = frozenset(("np.einsum", "rt.erf"))
BACKEND_HELPERS: dict[str, frozenset[str]] = dict.fromkeys(("torch", "torch_cuda", "jax", "cupy"), _NATIVE)


def to_numpy(x):
    """A backend array as a NumPy array (copied to the host); anything else unchanged."""
    if hasattr(x, "get") and not hasattr(x, "keys"):   # cupy
        return x.get()
    if hasattr(x, "detach"):   # torch
        return x.detach().cpu().numpy()
    return importlib.import_module("numpy").asarray(x) if hasattr(x, "__array__") else x


def namespace(*arrays: Any) -> Any:
    """The array API namespace of ``arrays`` (array-api-compat's ``array_namespace``)."""
    compat = importlib.import_module("array_api_compat")   # optional: every non-NumPy backend's extra
    return compat.array_namespace(*[a for a in arrays if hasattr(a, "shape")])


def _native(xp: Any) -> Any:
    """The library behind ``xp`` (torch, jax.numpy, cupy) for the few functions the standard lacks."""
    name = xp.__name__
    for lib in ("torch", "cupy"):
        if name.endswith(lib):
            return importlib.import_module(lib)
    return xp


# -- NumPy functions the standard lacks ------------------------------------------------------------

def ascontiguousarray(x):
    return x


def shape(x):
    return tuple(x.shape)


def size(x):
    return math.prod(x.shape)


def transpose(x):
    """``np.transpose(x)``: all axes reversed."""
    return namespace(x).permute_dims(x, tuple(range(x.ndim - 1, -1, -1)))


def swapaxes(x, a, b):
    order = list(range(x.ndim))
    order[a], order[b] = order[b], order[a]
    return namespace(x).permute_dims(x, tuple(order))


def diagonal(x, offset=0, axis1=0, axis2=1):
    xp = namespace(x)
    rest = [i for i in range(x.ndim) if i not in (axis1 % x.ndim, axis2 % x.ndim)]
    return xp.linalg.diagonal(xp.permute_dims(x, (*rest, axis1 % x.ndim, axis2 % x.ndim)), offset=offset)


def split(x, sections, axis=0):
    """``np.split``: into ``sections`` equal parts, or at the given indices."""
    n = x.shape[axis]
    bounds = [0, *sections, n] if isinstance(sections, (list, tuple)) else \
        [k * (n // sections) for k in range(sections + 1)]
    every = (slice(None),) * (axis % x.ndim)
    return [x[every + (slice(a, b), ...)] for a, b in itertools.pairwise(bounds)]


def einsum(subscripts, *operands, optimize=False):
    """``np.einsum`` by the backend's own (which chooses its contraction order itself)."""
    return _native(namespace(*operands)).einsum(subscripts, *operands)


def erf(x):
    xp = namespace(x)
    lib = _native(xp)
    if lib.__name__ == "jax.numpy":
        return importlib.import_module("jax.scipy.special").erf(x)
    return lib.special.erf(x) if hasattr(lib, "special") else lib.erf(x)


def pad(x, widths, mode="constant", constant_values=0):
    """``np.pad`` with a constant (the only mode generated code asks a backend for)."""
    if mode != "constant":
        raise NotImplementedError(f"pad mode {mode!r} runs on the numpy backend only")
    return _pad(namespace(x), x, tuple(tuple(w) for w in widths), constant_values)


def _pad(xp, x, widths, fill):
    """``x`` with ``widths[i] = (before, after)`` elements of ``fill`` around axis ``i`` (by concatenation)."""
    for axis, (before, after) in enumerate(widths):
        parts = []
        for n in (before, after):
            shape = list(x.shape)
            shape[axis] = n
            parts.append(xp.full(tuple(shape), fill, dtype=x.dtype))
        if before or after:
            x = xp.concat([parts[0], x, parts[1]], axis=axis)
    return x


# -- the softmax family, sums, scans -----------------------------------------------------------------

def add_n(terms):
    """``terms[0] + terms[1] + ...``, left to right."""
    total = terms[0]
    for term in terms[1:]:
        total = total + term
    return total


def sum_to(x, shape):
    """Sum ``x`` over its broadcast axes so that it has ``shape``."""
    xp, shape = namespace(x), tuple(shape)
    if tuple(x.shape) == shape:
        return x
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape) if d == 1 and x.shape[lead + i] != 1)
    return xp.reshape(xp.sum(x, axis=axes) if axes else x, shape)


def sum_leading(x, count):
    """The sum over the first ``count`` axes."""
    return namespace(x).sum(x, axis=tuple(range(count)))


def softmax(x, axis):
    xp = namespace(x)
    e = xp.exp(x - xp.max(x, axis=axis, keepdims=True))
    return e / xp.sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis):
    xp = namespace(x)
    shifted = x - xp.max(x, axis=axis, keepdims=True)
    return shifted - xp.log(xp.sum(xp.exp(shifted), axis=axis, keepdims=True))


def softmax_xent(logits, labels, axis=-1):
    xp = namespace(logits, labels)
    shifted = logits - xp.max(logits, axis=axis, keepdims=True)
    e = xp.exp(shifted)
    total = xp.sum(e, axis=axis, keepdims=True)
    return xp.sum(labels * (xp.log(total) - shifted), axis=axis), e / total - labels


def _scan(name, x, axis, exclusive, reverse):
    xp = namespace(x)
    if reverse:
        x = xp.flip(x, axis=axis)
    out = getattr(xp, name)(x, axis=axis, include_initial=exclusive)
    if exclusive:
        out = out[(slice(None),) * (axis % x.ndim) + (slice(0, x.shape[axis]), ...)]
    return xp.flip(out, axis=axis) if reverse else out


def cumsum(x, axis, exclusive, reverse):
    return _scan("cumulative_sum", x, axis, exclusive, reverse)


def cumprod(x, axis, exclusive, reverse):
    return _scan("cumulative_prod", x, axis, exclusive, reverse)


# -- convolution and pooling (channels last inside) ----------------------------------------------------

def _last(xp, x, channels_first):
    return xp.moveaxis(x, 1, -1) if channels_first else x


def _first(xp, x, channels_first):
    return xp.moveaxis(x, -1, 1) if channels_first else x


def _sizes_last(sizes, channels_first):
    sizes = tuple(int(n) for n in sizes)
    return (sizes[0],) + sizes[2:] + (sizes[1],) if channels_first else sizes


def _taps(x, window, strides, dilations, pads, fill):
    """``x`` padded with ``fill``, and per window offset (row-major) the strided slice holding that tap."""
    xp = namespace(x)
    x = _pad(xp, x, ((0, 0), *pads, (0, 0)), fill)
    return x, _taps_only(x.shape, window, strides, dilations)


def conv(x, w, strides, padding, dilations=None, channels_first=False):
    """``tf.nn.convolution``: per filter tap, a slice of ``x`` times that tap's ``(Cin, Cout)`` matrix."""
    xp = namespace(x, w)
    x = _last(xp, x, channels_first)
    rank = w.ndim - 2
    dilations = tuple(dilations or (1,) * rank)
    pads = conv_pads(x.shape[1:-1], w.shape[:rank], strides, dilations, padding)
    padded, slices = _taps(x, w.shape[:rank], strides, dilations, pads, 0)
    taps = xp.reshape(w, (-1, w.shape[-2], w.shape[-1]))
    out = padded[slices[0]] @ taps[0, ...]
    for k in range(1, len(slices)):
        out = out + padded[slices[k]] @ taps[k, ...]
    return _first(xp, out, channels_first)


def _spread(xp, g, strides):
    """``g`` with ``stride - 1`` zeros between its elements along each spatial axis (no writes)."""
    for axis, s in enumerate(strides, start=1):
        if s > 1:
            n = g.shape[axis]
            zeros = xp.zeros(g.shape[:axis + 1] + (s - 1,) + g.shape[axis + 1:], dtype=g.dtype)
            g = xp.concat([xp.expand_dims(g, axis=axis + 1), zeros], axis=axis + 1)
            g = xp.reshape(g, g.shape[:axis] + (n * s,) + g.shape[axis + 2:])
            g = g[(slice(None),) * axis + (slice(0, (n - 1) * s + 1), ...)]
    return g


def _scatter_taps(xp, parts, padded_shape, slices, strides):
    """The sum, on a zero array of ``padded_shape``, of each of ``parts`` put at its tap's slice."""
    total = None
    for part, index in zip(parts, slices, strict=True):
        spread = _spread(xp, part, strides)
        widths = [(0, 0)] + [(sl.start, n - sl.start - m) for sl, n, m in
                             zip(index[1:-1], padded_shape[1:-1], spread.shape[1:-1], strict=True)] + [(0, 0)]
        placed = _pad(xp, spread, tuple(widths), 0)
        total = placed if total is None else total + placed
    return total


def _cropped(x, pads):
    return x[(slice(None),) + tuple(slice(b, x.shape[i + 1] - a) for i, (b, a) in enumerate(pads)) + (...,)]


def conv_backprop_input(input_sizes, w, g, strides, padding, dilations=None, channels_first=False):
    """The gradient of ``conv`` with respect to its input: each tap's ``g @ w_tap.T`` put back at its slice."""
    xp = namespace(w, g)
    sizes, g = _sizes_last(input_sizes, channels_first), _last(xp, g, channels_first)
    rank = w.ndim - 2
    dilations = tuple(dilations or (1,) * rank)
    pads = conv_pads(sizes[1:-1], w.shape[:rank], strides, dilations, padding)
    padded_shape = (sizes[0],) + tuple(n + b + a for n, (b, a) in zip(sizes[1:-1], pads, strict=True)) + sizes[-1:]
    slices = _taps_only(padded_shape, w.shape[:rank], strides, dilations)
    taps = xp.reshape(w, (-1, w.shape[-2], w.shape[-1]))
    parts = [g @ xp.matrix_transpose(taps[k, ...]) for k in range(len(slices))]
    return _first(xp, _cropped(_scatter_taps(xp, parts, padded_shape, slices, strides), pads), channels_first)


def _taps_only(padded_shape, window, strides, dilations):
    spans = [(k - 1) * d + 1 for k, d in zip(window, dilations, strict=True)]
    out = [(n - e) // s + 1 for n, e, s in zip(padded_shape[1:-1], spans, strides, strict=True)]
    return [(slice(None),) + tuple(slice(o * d, o * d + (m - 1) * s + 1, s)
                                   for o, d, m, s in zip(offset, dilations, out, strides, strict=True)) + (...,)
            for offset in itertools.product(*[range(k) for k in window])]


def conv_backprop_filter(x, filter_sizes, g, strides, padding, dilations=None, channels_first=False):
    """The gradient of ``conv`` with respect to its filter: per tap, the slice of ``x`` transposed times ``g``."""
    xp = namespace(x, g)
    x, g = _last(xp, x, channels_first), _last(xp, g, channels_first)
    sizes = tuple(int(n) for n in filter_sizes)
    rank = len(sizes) - 2
    dilations = tuple(dilations or (1,) * rank)
    pads = conv_pads(x.shape[1:-1], sizes[:rank], strides, dilations, padding)
    padded, slices = _taps(x, sizes[:rank], strides, dilations, pads, 0)
    flat_g = xp.reshape(g, (-1, g.shape[-1]))
    taps = [xp.matrix_transpose(xp.reshape(padded[index], (-1, x.shape[-1]))) @ flat_g for index in slices]
    return xp.reshape(xp.stack(taps), sizes)


def max_pool(x, ksize, strides, padding, channels_first=False):
    """The maximum over each window (padding never wins)."""
    xp = namespace(x)
    x = _last(xp, x, channels_first)
    rank = len(ksize)
    pads = conv_pads(x.shape[1:-1], ksize, strides, (1,) * rank, padding)
    lowest = -math.inf if xp.isdtype(x.dtype, "real floating") else int(xp.iinfo(x.dtype).min)
    padded, slices = _taps(x, ksize, strides, (1,) * rank, pads, lowest)
    out = padded[slices[0]]
    for index in slices[1:]:
        out = xp.maximum(out, padded[index])
    return _first(xp, out, channels_first)


def max_pool_grad(x, y, g, ksize, strides, padding, channels_first=False):
    """TF's MaxPoolGrad: each window's gradient goes to its first maximum (row-major)."""
    xp = namespace(x, y, g)
    x, y, g = (_last(xp, a, channels_first) for a in (x, y, g))
    rank = len(ksize)
    pads = conv_pads(x.shape[1:-1], ksize, strides, (1,) * rank, padding)
    padded, slices = _taps(x, ksize, strides, (1,) * rank, pads, math.nan)
    taken = xp.zeros(y.shape, dtype=xp.bool)
    parts = []
    for index in slices:
        hit = (padded[index] == y) & ~taken
        taken = taken | hit
        parts.append(xp.where(hit, g, xp.zeros_like(g)))
    out = _scatter_taps(xp, parts, padded.shape, slices, strides)
    return _first(xp, _cropped(out, pads), channels_first)


def _counts(xp, sizes, ksize, strides, pads, dtype):
    ones = xp.ones((1, *sizes, 1), dtype=dtype)
    padded, slices = _taps(ones, ksize, strides, (1,) * len(ksize), pads, 0)
    total = padded[slices[0]]
    for index in slices[1:]:
        total = total + padded[index]
    return padded.shape, slices, total


def avg_pool(x, ksize, strides, padding, channels_first=False):
    """The mean over each window's input elements (padding is not counted, as in TF)."""
    xp = namespace(x)
    x = _last(xp, x, channels_first)
    pads = conv_pads(x.shape[1:-1], ksize, strides, (1,) * len(ksize), padding)
    padded, slices = _taps(x, ksize, strides, (1,) * len(ksize), pads, 0)
    out = padded[slices[0]]
    for index in slices[1:]:
        out = out + padded[index]
    return _first(xp, out / _counts(xp, x.shape[1:-1], ksize, strides, pads, x.dtype)[2], channels_first)


def avg_pool_grad(input_sizes, g, ksize, strides, padding, channels_first=False):
    """TF's AvgPoolGrad: each window's gradient shared equally by its input elements."""
    xp = namespace(g)
    sizes, g = _sizes_last(input_sizes, channels_first), _last(xp, g, channels_first)
    pads = conv_pads(sizes[1:-1], ksize, strides, (1,) * len(ksize), padding)
    padded_shape, slices, counts = _counts(xp, sizes[1:-1], ksize, strides, pads, g.dtype)
    share = g / counts
    shape = (sizes[0], *padded_shape[1:-1], sizes[-1])
    out = _scatter_taps(xp, [share] * len(slices), shape, slices, strides)
    return _first(xp, _cropped(out, pads), channels_first)
