"""Op cases: convolutions and pooling (tf.nn), with references written as direct nested loops.

The references know nothing of im2col or the runtime helpers: a convolution is the sum, at every
output position, of window element times filter entry; a transposed convolution (the gradient
with respect to the input) scatters each output element back over its window. Pooling inputs are
distinct values far apart, so finite differences never straddle a tie.
"""
import itertools

import numpy as np

import s2sgrad as tf
from optable import OpCase

R = np.random.default_rng(14)


def same_pads(sizes, window, strides, dilations):
    """TF's SAME padding per spatial axis: the odd element after."""
    pads = []
    for n, k, s, d in zip(sizes, window, strides, dilations, strict=True):
        out = (n + s - 1) // s
        total = max((out - 1) * s + (k - 1) * d + 1 - n, 0)
        pads.append((total // 2, total - total // 2))
    return pads


def _pads(padding, sizes, window, strides, dilations):
    if padding == "SAME":
        return same_pads(sizes, window, strides, dilations)
    if padding == "VALID":
        return [(0, 0)] * len(sizes)
    return padding


def _out_sizes(sizes, window, strides, dilations, pads):
    return [(n + b + a - ((k - 1) * d + 1)) // s + 1
            for n, k, s, d, (b, a) in zip(sizes, window, strides, dilations, pads, strict=True)]


def _positions(o, k, strides, dilations, pads):
    """The input position (may lie in the padding) of window element ``k`` of output ``o``."""
    return tuple(oi * s + ki * d - b
                 for oi, ki, s, d, (b, _) in zip(o, k, strides, dilations, pads, strict=True))


def _inside(position, sizes):
    return all(0 <= p < n for p, n in zip(position, sizes, strict=True))


def loop_conv(x, w, strides, padding, dilations=None, depthwise=False):
    """Channels-last convolution by its definition; ``w`` is (*window, Cin, Cout) (depthwise: M)."""
    rank = w.ndim - 2
    dilations = dilations or (1,) * rank
    sizes, window = x.shape[1:-1], w.shape[:rank]
    pads = _pads(padding, sizes, window, strides, dilations)
    out = _out_sizes(sizes, window, strides, dilations, pads)
    channels = w.shape[-2] * w.shape[-1] if depthwise else w.shape[-1]
    y = np.zeros((x.shape[0], *out, channels), dtype=x.dtype)
    for n in range(x.shape[0]):
        for o in itertools.product(*map(range, out)):
            for k in itertools.product(*map(range, window)):
                p = _positions(o, k, strides, dilations, pads)
                if _inside(p, sizes):
                    pixel = x[(n, *p)]
                    y[(n, *o)] += (pixel[:, None] * w[k]).reshape(-1) if depthwise else pixel @ w[k]
    return y


def loop_conv_transpose(g, w, input_shape, strides, padding, dilations=None, depthwise=False):
    """The input gradient of ``loop_conv``: each output element spread back over its window."""
    rank = w.ndim - 2
    dilations = dilations or (1,) * rank
    sizes, window = input_shape[1:-1], w.shape[:rank]
    pads = _pads(padding, sizes, window, strides, dilations)
    x = np.zeros(input_shape, dtype=g.dtype)
    for n in range(g.shape[0]):
        for o in itertools.product(*map(range, g.shape[1:-1])):
            for k in itertools.product(*map(range, window)):
                p = _positions(o, k, strides, dilations, pads)
                if _inside(p, sizes):
                    out = g[(n, *o)]
                    x[(n, *p)] += (w[k] * out.reshape(w[k].shape)).sum(-1) if depthwise else w[k] @ out
    return x


def loop_conv_filter(x, g, window, strides, padding, dilations=None, multiplier=None):
    """The filter gradient of ``loop_conv`` (depthwise, when ``multiplier`` is given): window
    elements times output gradients, summed."""
    rank = len(window)
    dilations = dilations or (1,) * rank
    sizes = x.shape[1:-1]
    pads = _pads(padding, sizes, window, strides, dilations)
    w = np.zeros((*window, x.shape[-1], multiplier or g.shape[-1]), dtype=x.dtype)
    for n in range(g.shape[0]):
        for o in itertools.product(*map(range, g.shape[1:-1])):
            for k in itertools.product(*map(range, window)):
                p = _positions(o, k, strides, dilations, pads)
                if _inside(p, sizes):
                    out = g[(n, *o)]
                    w[k] += x[(n, *p)][:, None] * out.reshape(w[k].shape) if multiplier else np.outer(x[(n, *p)], out)
    return w


def loop_pool(x, window, strides, padding, reduce):
    """Channels-last pooling: ``reduce`` over the input elements (never the padding) of each window."""
    sizes = x.shape[1:-1]
    pads = _pads(padding, sizes, window, strides, (1,) * len(window))
    out = _out_sizes(sizes, window, strides, (1,) * len(window), pads)
    y = np.zeros((x.shape[0], *out, x.shape[-1]), dtype=x.dtype)
    for n in range(x.shape[0]):
        for o in itertools.product(*map(range, out)):
            elements = [x[(n, *p)] for k in itertools.product(*map(range, window))
                        if _inside(p := _positions(o, k, strides, (1,) * len(window), pads), sizes)]
            y[(n, *o)] = reduce(np.stack(elements), axis=0)
    return y


def _first_maxima(x, window, strides, padding):
    """Per output element (as a tuple index), the input index of its window's first maximum."""
    sizes = x.shape[1:-1]
    rank = len(window)
    pads = _pads(padding, sizes, window, strides, (1,) * rank)
    out = _out_sizes(sizes, window, strides, (1,) * rank, pads)
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[-1])):
        for o in itertools.product(*map(range, out)):
            best = None
            for k in itertools.product(*map(range, window)):
                p = _positions(o, k, strides, (1,) * rank, pads)
                if _inside(p, sizes) and (best is None or x[(n, *p, c)] > x[best]):
                    best = (n, *p, c)
            yield (n, *o, c), best


def loop_max_pool_grad(x, g, window, strides, padding):
    """Each window's gradient added at its first maximum."""
    out = np.zeros_like(x)
    for o, best in _first_maxima(x, window, strides, padding):
        out[best] += g[o]
    return out


def loop_max_pool_grad_grad(x, h, window, strides, padding, out_shape):
    """Per window, ``h`` at its first maximum."""
    out = np.zeros(out_shape, dtype=h.dtype)
    for o, best in _first_maxima(x, window, strides, padding):
        out[o] = h[best]
    return out


def loop_avg_pool_grad(g, input_shape, window, strides, padding):
    """Each window's gradient shared equally by its input elements."""
    sizes = input_shape[1:-1]
    rank = len(window)
    pads = _pads(padding, sizes, window, strides, (1,) * rank)
    out = np.zeros(input_shape, dtype=g.dtype)
    for n in range(g.shape[0]):
        for o in itertools.product(*map(range, g.shape[1:-1])):
            inside = [p for k in itertools.product(*map(range, window))
                      if _inside(p := _positions(o, k, strides, (1,) * rank, pads), sizes)]
            for p in inside:
                out[(n, *p)] += g[(n, *o)] / len(inside)
    return out


def gradient_of(op, wrt=(0,)):
    """The gradients of ``<op(*inputs), g>`` (``g`` the last input) as the ops under test."""
    def build(*tensors):
        *inputs, g = tensors
        grads = tf.gradients(op(*inputs), [inputs[i] for i in wrt], grad_ys=g)
        return grads[0] if len(grads) == 1 else grads
    return build


def grad_grad(pool, g):
    """``d/dg <d/dx <pool(x), g>, h>`` (MaxPoolGradGrad) with ``g`` a constant, ``h`` the last input."""
    def build(x, h):
        g_tensor = tf.constant(g)
        return tf.gradients(tf.gradients(pool(x), x, grad_ys=g_tensor)[0], g_tensor, grad_ys=h)[0]
    return build


def loop_argmax(x, window, strides, padding):
    """Flat index ``(y * W + x) * C + c`` of the first maximum of each window (channels last, 2-D)."""
    _, height, width, channels = x.shape
    pads = _pads(padding, (height, width), window, strides, (1, 1))
    out = _out_sizes((height, width), window, strides, (1, 1), pads)
    index = np.zeros((x.shape[0], *out, channels), dtype=np.int64)
    for n, i, j, c in itertools.product(range(x.shape[0]), range(out[0]), range(out[1]), range(channels)):
        best = None
        for k in itertools.product(*map(range, window)):
            p = _positions((i, j), k, strides, (1, 1), pads)
            if _inside(p, (height, width)) and (best is None or x[n, p[0], p[1], c] > best):
                best, index[n, i, j, c] = x[n, p[0], p[1], c], (p[0] * width + p[1]) * channels + c
    return index


def nchw(f):
    """``f`` (channels last) on a channels-first input, giving a channels-first result."""
    return lambda x, *rest: np.moveaxis(f(np.moveaxis(x, 1, -1), *rest), -1, 1)


def distinct(*shape):
    """Distinct values 0.05 apart, shuffled: no ties within a pooling window."""
    return R.permutation(np.arange(np.prod(shape)) * 0.05 - 1.0).reshape(shape)


X = R.standard_normal((2, 6, 7, 3))
W = R.standard_normal((3, 2, 3, 4))
W33 = R.standard_normal((3, 3, 3, 4))
X1 = R.standard_normal((2, 9, 3))
W1 = R.standard_normal((3, 3, 2))
X3 = R.standard_normal((1, 4, 5, 4, 2))
W3 = R.standard_normal((2, 3, 2, 2, 3))
DW = R.standard_normal((3, 3, 3, 2))
PW = R.standard_normal((1, 1, 6, 4))
SMALL_X, SMALL_W = R.standard_normal((1, 4, 4, 2)), R.standard_normal((2, 2, 2, 2))
EXPLICIT = [[0, 0], [2, 1], [0, 3], [0, 0]]
P = distinct(2, 6, 7, 3)
P3 = distinct(1, 4, 5, 4, 2)
P1 = distinct(2, 9, 3)
G_VALID = R.standard_normal((2, 4, 6, 4))    # conv2d(X, W, VALID) output shape
G_S2 = R.standard_normal((2, 3, 4, 4))       # conv2d(X, W33, strides 2, SAME)
G_POOL = R.standard_normal((2, 3, 7, 3))   # max_pool(P, 3, [1, 2, 1, 1], SAME) output shape
G_POOL3 = R.standard_normal((1, 2, 5, 2, 2))
G_CONV3 = R.standard_normal((1, 2, 5, 2, 3))
G_DEPTH = R.standard_normal((2, 3, 4, 6))
# enough channels, and images large enough beside their padding, for the row-shifted products
X8, X4 = R.standard_normal((1, 9, 10, 8)), R.standard_normal((1, 9, 10, 4))
W84, W48, W2_48 = R.standard_normal((3, 3, 8, 4)), R.standard_normal((3, 3, 4, 8)), R.standard_normal((2, 2, 4, 8))
G8 = R.standard_normal((1, 9, 10, 8))
X1_8, W1_84 = R.standard_normal((2, 20, 8)), R.standard_normal((3, 8, 4))
X3_8, W3_84 = R.standard_normal((1, 4, 10, 10, 8)), R.standard_normal((1, 3, 3, 8, 4))
X16_8 = R.standard_normal((1, 16, 10, 8))
# images with fewer pixels than the window has elements: one product with the dense matrix of the map
X_TINY = R.standard_normal((2, 3, 4, 3))
W_BIG, W_BIG45 = R.standard_normal((5, 5, 3, 4)), R.standard_normal((4, 5, 3, 2))
X3_TINY, W3_BIG = R.standard_normal((1, 2, 2, 3, 2)), R.standard_normal((3, 3, 3, 2, 2))
SIZES = np.array(X.shape, dtype=np.int32)
W_SIZES = np.array(W33.shape, dtype=np.int32)


def _conv2d(strides, padding, **kwargs):
    return lambda x, w: tf.nn.conv2d(x, w, strides, padding, **kwargs)


CASES = [
    # conv2d: padding, strides, dilations, layouts
    OpCase("conv2d_same", _conv2d([1, 1, 1, 1], "SAME"), [X, W], lambda x, w: loop_conv(x, w, (1, 1), "SAME"),
           known_rank=True),
    OpCase("conv2d_valid", _conv2d([1, 1, 1, 1], "VALID"), [X, W], lambda x, w: loop_conv(x, w, (1, 1), "VALID")),
    OpCase("conv2d_same_strides", _conv2d([1, 2, 3, 1], "SAME"), [X, W],
           lambda x, w: loop_conv(x, w, (2, 3), "SAME")),
    OpCase("conv2d_valid_strides_int", _conv2d(2, "VALID"), [X, W33], lambda x, w: loop_conv(x, w, (2, 2), "VALID")),
    OpCase("conv2d_dilated", _conv2d([1, 1, 1, 1], "SAME", dilations=[1, 2, 3, 1]), [X, W],
           lambda x, w: loop_conv(x, w, (1, 1), "SAME", (2, 3))),
    OpCase("conv2d_dilated_strided", _conv2d([1, 2, 1, 1], "VALID", dilations=[1, 1, 2, 1]), [X, W],
           lambda x, w: loop_conv(x, w, (2, 1), "VALID", (1, 2))),
    OpCase("conv2d_explicit", _conv2d([1, 2, 1, 1], EXPLICIT), [X, W33],
           lambda x, w: loop_conv(x, w, (2, 1), [(2, 1), (0, 3)])),
    OpCase("conv2d_nchw", lambda x, w: tf.nn.conv2d(x, w, [1, 1, 2, 2], "SAME", data_format="NCHW"),
           [np.moveaxis(X, -1, 1), W33], nchw(lambda x, w: loop_conv(x, w, (2, 2), "SAME"))),
    OpCase("conv2d_float32", _conv2d([1, 1, 1, 1], "SAME"), [X.astype(np.float32), W.astype(np.float32)],
           lambda x, w: loop_conv(x, w, (1, 1), "SAME"), grad=False, rtol=1e-5, atol=1e-5),
    OpCase("conv2d_second_order", _conv2d([1, 1, 1, 1], "SAME"), [SMALL_X, SMALL_W],
           lambda x, w: loop_conv(x, w, (1, 1), "SAME"), order2=True),
    OpCase("conv2d_strided_second_order", _conv2d([1, 2, 2, 1], "SAME"), [SMALL_X, SMALL_W],
           lambda x, w: loop_conv(x, w, (2, 2), "SAME"), order2=True),
    # stride 1 with many channels: row-shifted products (the forward pass, or the input gradient)
    OpCase("conv2d_shifted", _conv2d(1, "SAME"), [X8, W84], lambda x, w: loop_conv(x, w, (1, 1), "SAME")),
    OpCase("conv2d_shifted_input_gradient", _conv2d(1, "SAME"), [X4, W48],
           lambda x, w: loop_conv(x, w, (1, 1), "SAME")),
    OpCase("conv2d_shifted_explicit", _conv2d(1, [[0, 0], [3, 1], [0, 2], [0, 0]]), [X4, W2_48],
           lambda x, w: loop_conv(x, w, (1, 1), [(3, 1), (0, 2)])),
    OpCase("conv2d_shifted_dilated", _conv2d(1, "SAME", dilations=[1, 2, 1, 1]), [X16_8, W84],
           lambda x, w: loop_conv(x, w, (1, 1), "SAME", (2, 1))),
    OpCase("conv2d_shifted_float32", _conv2d(1, "SAME"), [X8.astype(np.float32), W84.astype(np.float32)],
           lambda x, w: loop_conv(x, w, (1, 1), "SAME"), grad=False, rtol=1e-5, atol=1e-5),
    OpCase("conv2d_backprop_input_shifted",
           lambda g, w: tf.nn.conv2d_backprop_input(list(X4.shape), w, g, 1, "SAME"), [G8, W48],
           lambda g, w: loop_conv_transpose(g, w, X4.shape, (1, 1), "SAME")),
    OpCase("conv1d_shifted", lambda x, w: tf.nn.conv1d(x, w, 1, "SAME"), [X1_8, W1_84],
           lambda x, w: loop_conv(x, w, (1,), "SAME")),
    OpCase("conv3d_shifted", lambda x, w: tf.nn.conv3d(x, w, [1] * 5, "SAME"), [X3_8, W3_84],
           lambda x, w: loop_conv(x, w, (1, 1, 1), "SAME")),
    OpCase("conv2d_dense_map", _conv2d(1, "SAME"), [X_TINY, W_BIG], lambda x, w: loop_conv(x, w, (1, 1), "SAME"),
           order2=True),
    OpCase("conv2d_dense_map_strided", _conv2d([1, 2, 1, 1], "SAME"), [X_TINY, W_BIG45],
           lambda x, w: loop_conv(x, w, (2, 1), "SAME")),
    OpCase("conv2d_dense_map_explicit", _conv2d(1, [[0, 0], [2, 1], [1, 0], [0, 0]]), [X_TINY, W_BIG45],
           lambda x, w: loop_conv(x, w, (1, 1), [(2, 1), (1, 0)])),
    OpCase("conv2d_dense_map_dilated", _conv2d(1, "SAME", dilations=[1, 1, 2, 1]), [X_TINY, W_BIG45],
           lambda x, w: loop_conv(x, w, (1, 1), "SAME", (1, 2))),
    OpCase("conv3d_dense_map", lambda x, w: tf.nn.conv3d(x, w, [1] * 5, "SAME"), [X3_TINY, W3_BIG],
           lambda x, w: loop_conv(x, w, (1, 1, 1), "SAME")),
    # the gradient ops called directly
    OpCase("conv2d_backprop_input", lambda g, w: tf.nn.conv2d_backprop_input(SIZES, w, g, [1, 2, 2, 1], "SAME"),
           [G_S2, W33], lambda g, w: loop_conv_transpose(g, w, X.shape, (2, 2), "SAME"), order2=True),
    OpCase("conv2d_backprop_filter",
           lambda x, g: tf.nn.conv2d_backprop_filter(x, W_SIZES, g, [1, 2, 2, 1], "SAME"),
           [X, G_S2], lambda x, g: loop_conv_filter(x, g, (3, 3), (2, 2), "SAME"), order2=True),
    OpCase("conv2d_transpose", lambda g, w: tf.nn.conv2d_transpose(g, w, list(X.shape), [1, 1, 1, 1], "VALID"),
           [G_VALID, W], lambda g, w: loop_conv_transpose(g, w, X.shape, (1, 1), "VALID")),
    # other ranks and kinds
    OpCase("conv1d", lambda x, w: tf.nn.conv1d(x, w, 2, "SAME"), [X1, W1],
           lambda x, w: loop_conv(x, w, (2,), "SAME"), known_rank=True),
    OpCase("conv1d_ncw", lambda x, w: tf.nn.conv1d(x, w, 1, "VALID", data_format="NCW"),
           [np.moveaxis(X1, -1, 1), W1], nchw(lambda x, w: loop_conv(x, w, (1,), "VALID")), known_rank=True),
    OpCase("conv3d", lambda x, w: tf.nn.conv3d(x, w, [1, 2, 1, 2, 1], "SAME"), [X3, W3],
           lambda x, w: loop_conv(x, w, (2, 1, 2), "SAME")),
    OpCase("convolution_dilated", lambda x, w: tf.nn.convolution(x, w, "VALID", dilation_rate=[2, 1]), [X, W],
           lambda x, w: loop_conv(x, w, (1, 1), "VALID", (2, 1)), known_rank=True),
    OpCase("atrous_conv2d", lambda x, w: tf.nn.atrous_conv2d(x, w, 2, "SAME"), [X, W33],
           lambda x, w: loop_conv(x, w, (1, 1), "SAME", (2, 2))),
    OpCase("depthwise_conv2d", lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "SAME"), [X, DW],
           lambda x, w: loop_conv(x, w, (2, 2), "SAME", depthwise=True)),
    OpCase("depthwise_conv2d_rate", lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "VALID", rate=[2, 1]),
           [X, DW], lambda x, w: loop_conv(x, w, (1, 1), "VALID", (2, 1), depthwise=True)),
    OpCase("depthwise_conv2d_second_order", lambda x, w: tf.nn.depthwise_conv2d_native(x, w, [1, 1, 1, 1], "SAME"),
           [SMALL_X, SMALL_W], lambda x, w: loop_conv(x, w, (1, 1), "SAME", depthwise=True), order2=True),
    OpCase("separable_conv2d", lambda x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "SAME"), [X, DW, PW],
           lambda x, d, p: loop_conv(loop_conv(x, d, (1, 1), "SAME", depthwise=True), p, (1, 1), "VALID")),
    # pooling
    OpCase("max_pool_valid", lambda x: tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"), [P],
           lambda x: loop_pool(x, (2, 2), (2, 2), "VALID", np.max), order2=True, known_rank=True),
    OpCase("max_pool_same_overlapping", lambda x: tf.nn.max_pool(x, 3, [1, 2, 1, 1], "SAME"), [P],
           lambda x: loop_pool(x, (3, 3), (2, 1), "SAME", np.max), order2=True),
    OpCase("max_pool_explicit", lambda x: tf.nn.max_pool(x, 2, 2, [[0, 0], [1, 1], [0, 1], [0, 0]]), [P],
           lambda x: loop_pool(x, (2, 2), (2, 2), [(1, 1), (0, 1)], np.max)),
    OpCase("max_pool_nchw", lambda x: tf.nn.max_pool(x, [1, 1, 3, 2], [1, 1, 2, 2], "SAME", data_format="NCHW"),
           [np.moveaxis(P, -1, 1)], nchw(lambda x: loop_pool(x, (3, 2), (2, 2), "SAME", np.max))),
    OpCase("max_pool_int32", lambda x: tf.nn.max_pool(x, 2, 2, "SAME"), [(P * 20).astype(np.int32)],
           lambda x: loop_pool(x, (2, 2), (2, 2), "SAME", np.max), grad=False),
    OpCase("avg_pool_same", lambda x: tf.nn.avg_pool(x, [1, 3, 2, 1], [1, 2, 2, 1], "SAME"), [X],
           lambda x: loop_pool(x, (3, 2), (2, 2), "SAME", np.mean), order2=True, known_rank=True),
    OpCase("avg_pool_valid_nchw", lambda x: tf.nn.avg_pool(x, 2, 1, "VALID", data_format="NCHW"),
           [np.moveaxis(X, -1, 1)], nchw(lambda x: loop_pool(x, (2, 2), (1, 1), "VALID", np.mean))),
    OpCase("max_pool3d", lambda x: tf.nn.max_pool3d(x, 2, [1, 2, 1, 2, 1], "SAME"), [P3],
           lambda x: loop_pool(x, (2, 2, 2), (2, 1, 2), "SAME", np.max), order2=True),
    OpCase("avg_pool3d", lambda x: tf.nn.avg_pool3d(x, [1, 2, 3, 2, 1], 2, "SAME"), [X3],
           lambda x: loop_pool(x, (2, 3, 2), (2, 2, 2), "SAME", np.mean), order2=True),
    OpCase("max_pool1d", lambda x: tf.nn.max_pool1d(x, 3, 2, "SAME"), [P1],
           lambda x: loop_pool(x, (3,), (2,), "SAME", np.max), known_rank=True),
    OpCase("avg_pool1d", lambda x: tf.nn.avg_pool1d(x, 2, 2, "VALID"), [X1],
           lambda x: loop_pool(x, (2,), (2,), "VALID", np.mean), known_rank=True),
    OpCase("pool_max", lambda x: tf.nn.pool(x, [2, 3], "MAX", "SAME", strides=[2, 2]), [P],
           lambda x: loop_pool(x, (2, 3), (2, 2), "SAME", np.max)),
    OpCase("pool_avg", lambda x: tf.nn.pool(x, [2, 2], "AVG", "VALID"), [X],
           lambda x: loop_pool(x, (2, 2), (2, 2), "VALID", np.mean)),
    OpCase("max_pool_with_argmax", lambda x: list(tf.nn.max_pool_with_argmax(x, [1, 3, 3, 1], [1, 2, 2, 1], "SAME")),
           [P], lambda x: [loop_pool(x, (3, 3), (2, 2), "SAME", np.max), loop_argmax(x, (3, 3), (2, 2), "SAME")]),
    # the pooling gradient ops as ops under test (their second-order rules by finite differences)
    OpCase("max_pool_grad", gradient_of(lambda x: tf.nn.max_pool(x, 3, [1, 2, 1, 1], "SAME")), [P, G_POOL],
           lambda x, g: loop_max_pool_grad(x, g, (3, 3), (2, 1), "SAME"), order2=True, grad_inputs=[1]),
    OpCase("max_pool_grad_grad", grad_grad(lambda x: tf.nn.max_pool(x, 3, [1, 2, 1, 1], "SAME"), G_POOL), [P, X],
           lambda x, h: loop_max_pool_grad_grad(x, h, (3, 3), (2, 1), "SAME", G_POOL.shape), grad_inputs=[1]),
    OpCase("max_pool3d_grad", gradient_of(lambda x: tf.nn.max_pool3d(x, 2, [1, 2, 1, 2, 1], "SAME")), [P3, G_POOL3],
           lambda x, g: loop_max_pool_grad(x, g, (2, 2, 2), (2, 1, 2), "SAME"), order2=True, grad_inputs=[1]),
    OpCase("max_pool3d_grad_grad", grad_grad(lambda x: tf.nn.max_pool3d(x, 2, [1, 2, 1, 2, 1], "SAME"), G_POOL3),
           [P3, X3], lambda x, h: loop_max_pool_grad_grad(x, h, (2, 2, 2), (2, 1, 2), "SAME", G_POOL3.shape),
           grad_inputs=[1]),
    OpCase("avg_pool_grad", gradient_of(lambda x: tf.nn.avg_pool(x, 3, [1, 2, 1, 1], "SAME")), [X, G_POOL],
           lambda x, g: loop_avg_pool_grad(g, x.shape, (3, 3), (2, 1), "SAME"), order2=True),
    OpCase("avg_pool3d_grad", gradient_of(lambda x: tf.nn.avg_pool3d(x, 2, [1, 2, 1, 2, 1], "SAME")), [X3, G_POOL3],
           lambda x, g: loop_avg_pool_grad(g, x.shape, (2, 2, 2), (2, 1, 2), "SAME"), order2=True),
    # the convolutions' gradient ops as ops under test (TF's rules for them, by finite differences)
    OpCase("conv3d_grads", gradient_of(lambda x, w: tf.nn.conv3d(x, w, [1, 2, 1, 2, 1], "SAME"), wrt=(0, 1)),
           [X3, W3, G_CONV3], lambda x, w, g: [loop_conv_transpose(g, w, x.shape, (2, 1, 2), "SAME"),
                                               loop_conv_filter(x, g, (2, 3, 2), (2, 1, 2), "SAME")]),
    OpCase("depthwise_conv2d_grads",
           gradient_of(lambda x, w: tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "SAME"), wrt=(0, 1)), [X, DW, G_DEPTH],
           lambda x, w, g: [loop_conv_transpose(g, w, x.shape, (2, 2), "SAME", depthwise=True),
                            loop_conv_filter(x, g, (3, 3), (2, 2), "SAME", multiplier=2)]),
]
