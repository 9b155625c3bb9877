"""The pooling helpers of s2sgrad/codegen/runtime_conv.py against their code before they copied each window
offset's slice one channel vector per element (``_part``) and wrote a tiling max-pool gradient window-major
(``_untiled``), bit for bit: values from a small set (many ties) with NaN, -0.0 and infinities, integers,
every float width, empty and single batches, no channels, padding, channels first, strided inputs."""
import itertools

import numpy as np
import pytest

from s2sgrad.codegen import runtime_conv as rc
from s2sgrad.codegen.runtime_conv import _first, _last, _padded, _sizes_last, conv_pads

pytestmark = pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")   # inf - inf, 0 * inf

# -- the reference: the helpers' code before, one strided slice of the padded input per window offset ------


def _offsets(x, window, strides, padding, fill):
    rank = len(window)
    pads = conv_pads(x.shape[1:-1], window, strides, (1,) * rank, padding)
    x = _padded(x, pads, fill)
    out = tuple((n - k) // s + 1 for n, k, s in zip(x.shape[1:-1], window, strides, strict=True))
    slices = [(slice(None),) + tuple(slice(o, o + (n - 1) * s + 1, s)
                                     for o, n, s in zip(offset, out, strides, strict=True))
              for offset in np.ndindex(*window)]
    return x, pads, slices


def _cropped(x, pads):
    return x[(slice(None),) + tuple(slice(b, x.shape[i + 1] - a) for i, (b, a) in enumerate(pads))]


def _lowest(dtype):
    return -np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).min


def old_max_pool(x, ksize, strides, padding, channels_first=False):
    x = _last(x, channels_first)
    padded, _, slices = _offsets(x, ksize, strides, padding, _lowest(x.dtype))
    out = padded[slices[0]].copy()
    for index in slices[1:]:
        np.maximum(out, padded[index], out=out)
    return _first(out, channels_first)


def _first_maxima(x, y, ksize, strides, padding):
    padded, pads, slices = _offsets(x, ksize, strides, padding, np.nan if x.dtype.kind == "f" else _lowest(x.dtype))

    def hits():
        taken = None
        for i, index in enumerate(slices):
            hit = np.equal(padded[index], y)
            if taken is not None:
                np.greater(hit, taken, out=hit)
            if i < len(slices) - 1:
                taken = hit.copy() if taken is None else np.logical_or(taken, hit, out=taken)
            yield index, hit
    return padded.shape, pads, hits()


def old_max_pool_grad(x, y, g, ksize, strides, padding, channels_first=False):
    x, y, g = _last(x, channels_first), _last(y, channels_first), _last(g, channels_first)
    shape, pads, hits = _first_maxima(x, y, ksize, strides, padding)
    tiled = all(k == s and n % k == 0 for n, k, s in zip(shape[1:-1], ksize, strides, strict=True))
    out = np.empty(shape, dtype=g.dtype) if tiled else np.zeros(shape, dtype=g.dtype)
    for index, hit in hits:
        if tiled:
            np.multiply(hit, g, out=out[index])
        else:
            out[index] += hit * g
    return _first(_cropped(out, pads), channels_first)


def old_max_pool_grad_grad(x, y, gg, ksize, strides, padding, channels_first=False):
    x, y, gg = _last(x, channels_first), _last(y, channels_first), _last(gg, channels_first)
    _, pads, hits = _first_maxima(x, y, ksize, strides, padding)
    padded = _padded(gg, pads)
    out = np.zeros(y.shape, dtype=gg.dtype)
    for index, hit in hits:
        out += hit * padded[index]
    return _first(out, channels_first)


def _flat_index(shape, out_shape, offset, strides, pads, include_batch):
    grids = np.ogrid[tuple(slice(n) for n in out_shape)]
    flat = grids[-1]
    for axis in range(1, len(shape) - 1):
        position = grids[axis] * strides[axis - 1] + offset[axis - 1] - pads[axis - 1][0]
        flat = flat + position * int(np.prod(shape[axis + 1:]))
    if include_batch:
        flat = flat + grids[0] * int(np.prod(shape[1:]))
    return np.broadcast_to(flat, out_shape)


def old_max_pool_argmax(x, ksize, strides, padding, include_batch_in_index=False, index_dtype=np.int64):
    padded, pads, slices = _offsets(x, ksize, strides, padding, _lowest(x.dtype))
    offsets = list(np.ndindex(*ksize))
    best = padded[slices[0]].copy()
    argmax = _flat_index(x.shape, best.shape, offsets[0], strides, pads, include_batch_in_index).astype(index_dtype)
    for offset, index in zip(offsets[1:], slices[1:], strict=True):
        values = padded[index]
        better = values > best
        np.copyto(best, values, where=better)
        np.copyto(argmax, _flat_index(x.shape, best.shape, offset, strides, pads, include_batch_in_index),
                  where=better)
    return best, argmax


def _window_counts(spatial, ksize, strides, padding):
    ones = np.ones((1,) + tuple(spatial) + (1,))
    padded, _, slices = _offsets(ones, ksize, strides, padding, 0.0)
    return sum(padded[index] for index in slices)


def old_avg_pool(x, ksize, strides, padding, channels_first=False):
    x = _last(x, channels_first)
    padded, _, slices = _offsets(x, ksize, strides, padding, 0)
    out = padded[slices[0]].copy()
    for index in slices[1:]:
        out += padded[index]
    out /= _window_counts(x.shape[1:-1], ksize, strides, padding).astype(x.dtype)
    return _first(out, channels_first)


def old_avg_pool_grad(input_sizes, g, ksize, strides, padding, channels_first=False):
    sizes, g = _sizes_last(input_sizes, channels_first), _last(g, channels_first)
    share = g / _window_counts(sizes[1:-1], ksize, strides, padding).astype(g.dtype)
    padded, pads, slices = _offsets(np.zeros(sizes, dtype=g.dtype), ksize, strides, padding, 0)
    for index in slices:
        padded[index] += share
    return _first(_cropped(padded, pads), channels_first)


# -- inputs -----------------------------------------------------------------------------------------

# (spatial sizes, window, strides, padding, whether the windows tile the padded input)
POOLS = [
    ((4, 6), (2, 2), (2, 2), "VALID", True),
    ((6, 4), (3, 2), (3, 2), "VALID", True),
    ((5, 7), (2, 2), (2, 2), "SAME", True),            # padded to (6, 8)
    ((3, 5), (2, 3), (2, 3), [(1, 0), (0, 1)], True),  # explicit padding
    ((8,), (2,), (2,), "VALID", True),
    ((4, 2, 6), (2, 1, 3), (2, 1, 3), "SAME", True),
    ((3, 4), (1, 1), (1, 1), "VALID", True),
    ((7, 8), (3, 3), (2, 2), "SAME", False),           # overlapping windows
    ((6, 6), (3, 3), (1, 1), "SAME", False),
    ((5, 7), (2, 2), (2, 2), "VALID", False),          # the last row and column in no window
    ((7, 8), (2, 2), (3, 3), "VALID", False),          # strides past the window
    ((9,), (3,), (2,), "VALID", False),
]
DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int32, np.uint8]
# batch, channels (40: vectors over runtime_conv._SHORT bytes for 4- and 8-byte types, which keep strided
# slices), channels first, layout of the arrays (``_laid_out``)
LAYOUTS = list(itertools.product((0, 1, 3), (0, 1, 5, 40), (False, True), ("contiguous", "sliced", "strided")))


def _values(rng, shape, dtype):
    """Values from a small set, so windows hold tied maxima: for floats with -0.0, infinities and NaNs
    (both signs, two payloads), for integers with the type's extremes (the padding of ``max_pool_grad``
    is the minimum)."""
    if np.dtype(dtype).kind == "f":
        bits = np.dtype(f"u{np.dtype(dtype).itemsize}")
        payload = (np.array(np.nan, dtype).view(bits) | 1).view(dtype)
        pool = np.array([-2, -1, -0.0, 0.0, 1, 2, np.inf, -np.inf, np.nan, -np.nan, payload], dtype)
        p = np.array([2, 2, 3, 3, 2, 2, 1, 1, 1, 1, 1], float)
    else:
        info = np.iinfo(dtype)
        pool = np.array(sorted({info.min, 0, 1, 2, info.max}), dtype)
        p = np.ones(len(pool))
    return rng.choice(pool, size=shape, p=p / p.sum())


def _laid_out(x, channels_first, layout):
    """``x`` (channels last) in the order of ``channels_first``, C-contiguous or as a view of a larger array:
    its inside past a border on each non-batch axis ("sliced"), or every other element of its last axis."""
    x = np.ascontiguousarray(np.moveaxis(x, -1, 1) if channels_first else x)
    if layout == "contiguous":
        return x
    if layout == "sliced":
        inside = (slice(None),) + (slice(1, -1),) * (x.ndim - 1)
        big = np.zeros((len(x),) + tuple(n + 2 for n in x.shape[1:]), x.dtype)
    else:
        inside = (Ellipsis, slice(None, None, 2))
        big = np.zeros(x.shape[:-1] + (2 * x.shape[-1],), x.dtype)
    big[inside] = x
    return big[inside]


def assert_same_bits(got, expected):
    """Same dtype, shape and bits (floats compared as unsigned integers: -0.0 is not 0.0), NaN where NaN is
    (of any sign and payload: which of two NaNs a sum passes on depends on the loop NumPy picks)."""
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if got.dtype.kind == "f":
        bits = np.dtype(f"u{got.itemsize}")
        got, expected = (np.where(np.isnan(a), np.array(np.nan, a.dtype), a).view(bits) for a in (got, expected))
    np.testing.assert_array_equal(got, expected)


def _cases(pool, dtype):
    """Per layout: the pooling arguments and the inputs of every helper, from one seeded generator."""
    sizes, window, strides, padding, _ = pool
    rng = np.random.default_rng([POOLS.index(pool), DTYPES.index(dtype)])
    for batch, channels, channels_first, layout in LAYOUTS:
        x = _values(rng, (batch,) + sizes + (channels,), dtype)
        y = old_max_pool(x, window, strides, padding)
        if rng.random() < 0.3:   # a y that is not x's pooling, as a caller may pass
            y = _values(rng, y.shape, dtype)
        g = _values(rng, y.shape, np.float32 if np.dtype(dtype).kind != "f" else dtype)
        gg = _values(rng, x.shape, g.dtype)
        args = (window, strides, padding)
        x, y, g, gg = (_laid_out(a, channels_first, layout) for a in (x, y, g, gg))
        yield args, channels_first, x, y, g, gg


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("pool", POOLS, ids=lambda p: f"{p[0]}-{p[1]}-{p[2]}-{p[3]}")
def test_pooling_helpers_give_the_reference_bits(pool, dtype):
    for args, channels_first, x, y, g, gg in _cases(pool, dtype):
        kw = {"channels_first": channels_first}
        assert_same_bits(rc.max_pool(x, *args, **kw), old_max_pool(x, *args, **kw))
        assert_same_bits(rc.max_pool_grad(x, y, g, *args, **kw), old_max_pool_grad(x, y, g, *args, **kw))
        assert_same_bits(rc.max_pool_grad_grad(x, y, gg, *args, **kw), old_max_pool_grad_grad(x, y, gg, *args, **kw))
        if not channels_first:
            for batch_in_index, index_dtype in ((False, np.int64), (True, np.int32)):
                got = rc.max_pool_argmax(x, *args, batch_in_index, index_dtype)
                for a, b in zip(got, old_max_pool_argmax(x, *args, batch_in_index, index_dtype), strict=True):
                    assert_same_bits(a, b)
        if x.dtype.kind == "f":
            assert_same_bits(rc.avg_pool(x, *args, **kw), old_avg_pool(x, *args, **kw))
            assert_same_bits(rc.avg_pool_grad(x.shape, g, *args, **kw), old_avg_pool_grad(x.shape, g, *args, **kw))


@pytest.mark.parametrize("pool", POOLS, ids=lambda p: f"{p[0]}-{p[1]}-{p[2]}-{p[3]}")
def test_the_cases_cover_windows_that_tile_the_input_and_windows_that_do_not(pool):
    sizes, window, strides, padding, tiling = pool
    pads = conv_pads(sizes, window, strides, (1,) * len(sizes), padding)
    assert rc._tiling(sizes, window, strides, pads) == tiling


@pytest.mark.parametrize("shape", [(64, 28, 28, 16), (64, 14, 14, 32)])
def test_the_cnn_layers_give_the_reference_bits(shape):
    """benchmarks/cnn.py's pooling: 2x2 windows, stride 2, on ReLU outputs (zeros of both signs tie)."""
    rng = np.random.default_rng(0)
    x = np.where(rng.random(shape) < 0.5, rng.choice(np.float32([0.0, -0.0]), shape),
                 rng.integers(1, 4, shape)).astype(np.float32)
    y = old_max_pool(x, (2, 2), (2, 2), "VALID")
    g = rng.standard_normal(y.shape).astype(np.float32)
    assert_same_bits(rc.max_pool(x, (2, 2), (2, 2), "VALID"), y)
    assert_same_bits(rc.max_pool_grad(x, y, g, (2, 2), (2, 2), "VALID"),
                     old_max_pool_grad(x, y, g, (2, 2), (2, 2), "VALID"))
