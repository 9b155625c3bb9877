"""``tf.nn`` convolutions and pooling: validate TF-1.x's arguments, convert, record.

Conv2D, Conv3D, DepthwiseConv2dNative, the pools and the gradient ops are primitives
(``primitives/conv.py``); conv1d, the 1-D pools, separable, atrous and transposed convolutions are
compositions of them, as in TensorFlow.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import dtypes as _dt
from ..primitives import conv as P
from ..primitives.core import Primitive
from ..ssa.graph import Tensor
from . import array_ops as a
from .array_ops import static_ints
from .convert import convert_to_tensor, graph_of, is_tensor_like, record, record1

__all__ = ["conv1d", "conv2d", "conv3d", "convolution", "conv2d_backprop_input", "conv2d_backprop_filter",
           "conv2d_transpose", "depthwise_conv2d", "depthwise_conv2d_native", "separable_conv2d", "atrous_conv2d",
           "max_pool", "avg_pool", "max_pool_with_argmax", "max_pool1d", "avg_pool1d", "max_pool3d", "avg_pool3d",
           "pool"]

_FORMATS = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}


def _data_format(data_format: Any, rank: int, op: str) -> str:
    if data_format is None:
        return _FORMATS[rank][0]
    if data_format not in _FORMATS[rank]:
        formats = ", ".join(f'"{f}"' for f in _FORMATS[rank])
        raise ValueError(f"Attr 'data_format' of '{op}' Op passed string '{data_format}' not in: {formats}.")
    return str(data_format)


def per_axis(value: Any, what: str, rank: int, data_format: str) -> list[int]:
    """TF's ``strides``/``dilations``/``ksize`` (an int, or 1, ``rank`` or ``rank + 2`` ints) as one
    entry per axis of ``data_format``, batch and channels 1."""
    ints = static_ints(value, what)
    if ints is None:
        raise ValueError(f"{what} must be given (an int or a list of ints)")
    if len(ints) == rank + 2:
        return ints
    if len(ints) not in (1, rank):
        raise ValueError(f"{what} should be of length 1, {rank} or {rank + 2}. Received: {what}={value} of length "
                         f"{len(ints)}")
    inner = ints * rank if len(ints) == 1 else ints
    return [1, 1] + inner if data_format.startswith("NC") else [1] + inner + [1]


def _checked_spatial(full: list[int], what: str, data_format: str) -> None:
    outer = [full[0], full[1]] if data_format.startswith("NC") else [full[0], full[-1]]
    if outer != [1, 1]:
        raise ValueError(f"{what} in the batch and depth dimensions must be 1, got {what}={full} "
                         f"(TF: current implementation does not yet support {what} in the batch and depth "
                         f"dimensions)")
    if any(v < 1 for v in full):
        raise ValueError(f"{what} must be positive, got {what}={full}")


def _padding(padding: Any, rank: int, data_format: str, op: str, explicit: bool = True) -> dict:
    """``padding`` as TF's attrs: ``padding`` and ``explicit_paddings`` (a flat list)."""
    choices = ("SAME", "VALID", "EXPLICIT") if explicit else ("SAME", "VALID")
    if isinstance(padding, (list, tuple)) and explicit:
        if len(padding) != rank + 2:
            raise ValueError(f"When padding is a list, it must be of size {rank + 2}. Received: padding={padding} "
                             f"of size {len(padding)}")
        pairs = [static_ints(p, "padding") or [] for p in padding]
        if any(len(p) != 2 for p in pairs) or any(v < 0 for p in pairs for v in p):
            raise ValueError(f"padding must be {rank + 2} pairs of non-negative ints, got {padding}")
        outer = [pairs[0], pairs[1]] if data_format.startswith("NC") else [pairs[0], pairs[-1]]
        if any(p != [0, 0] for p in outer):
            raise ValueError(f"Nonzero explicit padding in the batch or depth dimensions is not supported for "
                             f"'{op}' (padding={padding})")
        return {"padding": "EXPLICIT", "explicit_paddings": [v for p in pairs for v in p]}
    if not isinstance(padding, str) or padding not in choices[:2]:
        listed = ", ".join(f'"{c}"' for c in choices)
        raise ValueError(f"Attr 'padding' of '{op}' Op passed string '{padding}' not in: {listed}.")
    return {"padding": padding, "explicit_paddings": []}


def conv_attrs(prim: Primitive, rank: int, strides: Any, padding: Any, data_format: Any, dilations: Any) -> dict:
    """TF's attrs of a convolution op, checked."""
    layout = _data_format(data_format, rank, prim.name)
    full_strides = per_axis(strides, "strides", rank, layout)
    full_dilations = per_axis(1 if dilations is None else dilations, "dilations", rank, layout)
    _checked_spatial(full_strides, "strides", layout)
    _checked_spatial(full_dilations, "dilations", layout)
    return {"strides": full_strides, **_padding(padding, rank, layout, prim.name), "dilations": full_dilations,
            "data_format": layout}


def _pair(x: Any, w: Any) -> tuple[Tensor, Tensor]:
    x = convert_to_tensor(x)
    w = convert_to_tensor(w, None if is_tensor_like(w) else x.dtype)
    if w.dtype is not x.dtype:
        raise TypeError(f"Input 'filter' has type {w.dtype.name} that does not match type {x.dtype.name} of "
                        f"argument 'input'.")
    return x, w


def _conv(prim: Primitive, rank: int, x: Any, w: Any, strides: Any, padding: Any, data_format: Any,
          dilations: Any, name: str | None) -> Tensor:
    x, w = _pair(x, w)
    attrs = conv_attrs(prim, rank, strides, padding, data_format, dilations)
    return record1(prim, [x, w], attrs, name or prim.name)


def _filter(filter: Any, filters: Any) -> Any:
    value = a.either(filter, filters, "Cannot specify both 'filter' and 'filters'")
    if value is None:
        raise ValueError("conv needs a filter (filter= or filters=)")
    return value


def conv2d(input: Any, filter: Any = None, strides: Any = None, padding: Any = None, use_cudnn_on_gpu: bool = True,
           data_format: str = "NHWC", dilations: Any = (1, 1, 1, 1), name: str | None = None,
           filters: Any = None) -> Tensor:
    """2-D cross-correlation of ``input`` (``NHWC`` or ``NCHW``) with ``filter`` (``HWIO``);
    ``padding`` is ``"SAME"``, ``"VALID"`` or four ``[before, after]`` pairs.

    >>> # h = tf.nn.conv2d(images, kernel, strides=[1, 1, 1, 1], padding="SAME")
    """
    return _conv(P.CONV2D, 2, input, _filter(filter, filters), strides, padding, data_format, dilations, name)


def conv3d(input: Any, filter: Any = None, strides: Any = None, padding: Any = None, data_format: str = "NDHWC",
           dilations: Any = (1, 1, 1, 1, 1), name: str | None = None, filters: Any = None) -> Tensor:
    """3-D cross-correlation of ``input`` (``NDHWC`` or ``NCDHW``) with ``filter`` (``DHWIO``).

    >>> # h = tf.nn.conv3d(volumes, kernel, strides=[1, 1, 1, 1, 1], padding="SAME")
    """
    return _conv(P.CONV3D, 3, input, _filter(filter, filters), strides, padding, data_format, dilations, name)


def conv1d(value: Any = None, filters: Any = None, stride: Any = None, padding: Any = None,
           use_cudnn_on_gpu: Any = None, data_format: Any = None, name: str | None = None, input: Any = None,
           dilations: Any = None) -> Tensor:
    """1-D cross-correlation of ``value`` (``NWC`` or ``NCW``) with ``filters`` (``WIO``): a conv2d
    over an added height axis of size 1, as in TF.

    >>> # h = tf.nn.conv1d(sequences, kernel, stride=1, padding="SAME")
    """
    x = a.either(value, input, "Cannot specify both 'value' and 'input'")
    layout = _data_format(data_format, 1, "conv1d")
    axis = 2 if layout == "NCW" else 1
    graph = graph_of([x, filters])
    with graph.as_default(), graph.name_scope(name or "conv1d"):
        x, w = _pair(x, filters)
        strides = [1] + per_axis(stride, "stride", 1, layout)
        dil = [1] + per_axis(1 if dilations is None else dilations, "dilations", 1, layout)
        out = conv2d(a.expand_dims(x, axis), a.expand_dims(w, 0), strides, _padding_1d(padding),
                     data_format="NCHW" if layout == "NCW" else "NHWC", dilations=dil)
        return a.squeeze(out, [axis])


def _padding_1d(padding: Any) -> Any:
    """Explicit 1-D padding (three pairs) with the added height axis unpadded."""
    if isinstance(padding, (list, tuple)):
        return [padding[0], [0, 0], *padding[1:]]
    return padding


def convolution(input: Any, filter: Any = None, padding: Any = None, strides: Any = None, dilation_rate: Any = None,
                name: str | None = None, data_format: Any = None, filters: Any = None, dilations: Any = None) -> Tensor:
    """``conv1d``, ``conv2d`` or ``conv3d`` by the rank of ``input``.

    >>> # h = tf.nn.convolution(images, kernel, padding="SAME", dilation_rate=[2, 2])
    """
    x = convert_to_tensor(input)
    if x.shape.rank is None:
        raise ValueError("convolution needs the rank of its input")
    rank = x.shape.rank - 2
    rates = a.either(dilation_rate, dilations, "Cannot specify both 'dilation_rate' and 'dilations'")
    w = _filter(filter, filters)
    strides = 1 if strides is None else strides
    if rank == 1:
        return conv1d(x, w, strides, padding, data_format=data_format, name=name or "convolution", dilations=rates)
    prim = {2: P.CONV2D, 3: P.CONV3D}.get(rank)
    if prim is None:
        raise ValueError(f"convolution supports inputs of rank 3, 4 or 5, got rank {x.shape.rank}")
    return _conv(prim, rank, x, w, strides, padding, data_format, rates, name or "convolution")


def _sizes(value: Any, what: str) -> Tensor:
    return a.int_tensor(value, what)


def conv2d_backprop_input(input_sizes: Any, filter: Any = None, out_backprop: Any = None, strides: Any = None,
                          padding: Any = None, use_cudnn_on_gpu: bool = True, data_format: str = "NHWC",
                          dilations: Any = (1, 1, 1, 1), name: str | None = None, filters: Any = None) -> Tensor:
    """The gradient of ``conv2d`` with respect to its input (of shape ``input_sizes``).

    >>> # dx = tf.nn.conv2d_backprop_input(tf.shape(x), w, dy, [1, 1, 1, 1], "SAME")
    """
    w, g = _pair(_filter(filter, filters), out_backprop)
    attrs = conv_attrs(P.CONV2D_BACKPROP_INPUT, 2, strides, padding, data_format, dilations)
    with graph_of([w, g]).as_default():
        return record1(P.CONV2D_BACKPROP_INPUT, [_sizes(input_sizes, "input_sizes"), w, g], attrs,
                       name or P.CONV2D_BACKPROP_INPUT.name)


def conv2d_backprop_filter(input: Any, filter_sizes: Any, out_backprop: Any, strides: Any, padding: Any,
                           use_cudnn_on_gpu: bool = True, data_format: str = "NHWC", dilations: Any = (1, 1, 1, 1),
                           name: str | None = None) -> Tensor:
    """The gradient of ``conv2d`` with respect to its filter (of shape ``filter_sizes``).

    >>> # dw = tf.nn.conv2d_backprop_filter(x, tf.shape(w), dy, [1, 1, 1, 1], "SAME")
    """
    x, g = _pair(input, out_backprop)
    attrs = conv_attrs(P.CONV2D_BACKPROP_FILTER, 2, strides, padding, data_format, dilations)
    with graph_of([x, g]).as_default():
        return record1(P.CONV2D_BACKPROP_FILTER, [x, _sizes(filter_sizes, "filter_sizes"), g], attrs,
                       name or P.CONV2D_BACKPROP_FILTER.name)


def conv2d_transpose(value: Any = None, filter: Any = None, output_shape: Any = None, strides: Any = None,
                     padding: str = "SAME", data_format: str = "NHWC", name: str | None = None, input: Any = None,
                     filters: Any = None, dilations: Any = None) -> Tensor:
    """The transpose of ``conv2d`` (its gradient with respect to the input): ``value`` spread out to
    ``output_shape``; ``filter`` is ``[height, width, output_channels, in_channels]``.

    >>> # up = tf.nn.conv2d_transpose(h, kernel, [batch, 14, 14, 8], [1, 2, 2, 1], "SAME")
    """
    x = a.either(value, input, "Cannot specify both 'value' and 'input'")
    return conv2d_backprop_input(output_shape, _filter(filter, filters), x, strides, padding,
                                 data_format=data_format, dilations=(1, 1, 1, 1) if dilations is None else dilations,
                                 name=name or "conv2d_transpose")


def depthwise_conv2d_native(input: Any, filter: Any, strides: Any, padding: Any, data_format: str = "NHWC",
                            dilations: Any = (1, 1, 1, 1), name: str | None = None) -> Tensor:
    """Each input channel ``c`` correlated with ``filter[:, :, c, :]`` (``[h, w, in_channels,
    multiplier]``), giving ``in_channels * multiplier`` channels.

    >>> # h = tf.nn.depthwise_conv2d_native(images, kernel, [1, 1, 1, 1], "SAME")
    """
    return _conv(P.DEPTHWISE_CONV2D, 2, input, filter, strides, padding, data_format, dilations, name)


def _rate(rate: Any, dilations: Any) -> Any:
    value = a.either(rate, dilations, "Cannot specify both 'rate' and 'dilations'")
    return None if value is None else per_axis(value, "rate", 2, "NHWC")[1:3]


def depthwise_conv2d(input: Any, filter: Any, strides: Any, padding: Any, rate: Any = None, name: str | None = None,
                     data_format: Any = None, dilations: Any = None) -> Tensor:
    """``depthwise_conv2d_native`` with an optional dilation ``rate`` (the op is named ``depthwise``).

    >>> # h = tf.nn.depthwise_conv2d(images, kernel, [1, 1, 1, 1], "SAME", rate=[2, 2])
    """
    graph = graph_of([input, filter])
    with graph.as_default(), graph.name_scope(name or "depthwise") as scope:
        return depthwise_conv2d_native(input, filter, strides, padding, data_format or "NHWC",
                                       _rate(rate, dilations), name=scope)


def separable_conv2d(input: Any, depthwise_filter: Any, pointwise_filter: Any, strides: Any, padding: Any,
                     rate: Any = None, name: str | None = None, data_format: Any = None,
                     dilations: Any = None) -> Tensor:
    """A depthwise convolution, then a 1x1 convolution with ``pointwise_filter`` mixing the channels.

    >>> # h = tf.nn.separable_conv2d(images, depthwise, pointwise, [1, 1, 1, 1], "SAME")
    """
    graph = graph_of([input, depthwise_filter, pointwise_filter])
    with graph.as_default(), graph.name_scope(name or "separable_conv2d") as scope:
        layout = data_format or "NHWC"
        depthwise = depthwise_conv2d_native(input, depthwise_filter, strides, padding, layout, _rate(rate, dilations),
                                            name="depthwise")
        return conv2d(depthwise, pointwise_filter, [1, 1, 1, 1], "VALID", data_format=layout, name=scope)


def atrous_conv2d(value: Any, filters: Any, rate: Any, padding: Any, name: str | None = None) -> Tensor:
    """``conv2d`` with holes: the filter dilated by ``rate`` (a positive int), stride 1.

    >>> # h = tf.nn.atrous_conv2d(images, kernel, rate=2, padding="SAME")
    """
    rates = static_ints(rate, "rate") or []
    if not rates or any(r < 1 for r in rates):
        raise ValueError(f"all values of `dilation_rate` must be positive. Received: dilation_rate={rate}")
    return conv2d(value, filters, [1, 1, 1, 1], padding, dilations=[1, rates[0], rates[-1], 1],
                  name=name or "convolution")


# -- pooling --------------------------------------------------------------------------------------

def _pool(prim: Primitive, rank: int, value: Any, ksize: Any, strides: Any, padding: Any, data_format: Any,
          name: str | None) -> Tensor:
    layout = _data_format(data_format, rank, prim.name)
    attrs = {"ksize": per_axis(ksize, "ksize", rank, layout), "strides": per_axis(strides, "strides", rank, layout),
             **_padding(padding, rank, layout, prim.name, explicit=prim in (P.MAX_POOL, P.MAX_POOL3D)),
             "data_format": layout}
    _checked_spatial(attrs["ksize"], "ksize", layout)
    _checked_spatial(attrs["strides"], "strides", layout)
    return record1(prim, [convert_to_tensor(value)], attrs, name or prim.name)


def max_pool(value: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC", name: str | None = None,
             input: Any = None) -> Tensor:
    """The maximum of each ``ksize`` window (padding never wins); gradients go to each window's
    first maximum, as in TF.

    >>> # h = tf.nn.max_pool(h, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    """
    x = a.either(value, input, "Cannot specify both 'value' and 'input'")
    return _pool(P.MAX_POOL, 2, x, ksize, strides, padding, data_format, name)


def avg_pool(value: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC", name: str | None = None,
             input: Any = None) -> Tensor:
    """The mean of each ``ksize`` window over its input elements (padding is not counted).

    >>> # h = tf.nn.avg_pool(h, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
    """
    x = a.either(value, input, "Cannot specify both 'value' and 'input'")
    return _pool(P.AVG_POOL, 2, x, ksize, strides, padding, data_format, name)


def max_pool3d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NDHWC",
               name: str | None = None) -> Tensor:
    """``max_pool`` over three spatial axes.

    >>> # h = tf.nn.max_pool3d(volumes, 2, 2, "VALID")
    """
    return _pool(P.MAX_POOL3D, 3, input, ksize, strides, padding, data_format, name)


def avg_pool3d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NDHWC",
               name: str | None = None) -> Tensor:
    """``avg_pool`` over three spatial axes.

    >>> # h = tf.nn.avg_pool3d(volumes, 2, 2, "VALID")
    """
    return _pool(P.AVG_POOL3D, 3, input, ksize, strides, padding, data_format, name)


def _pool1d(pool2d: Any, default: str, input: Any, ksize: Any, strides: Any, padding: Any, data_format: str,
            name: str | None) -> Tensor:
    layout = _data_format(data_format, 1, default)
    axis = 2 if layout == "NCW" else 1
    graph = graph_of([input])
    with graph.as_default(), graph.name_scope(name or default):
        ksize2 = [1] + per_axis(ksize, "ksize", 1, layout)
        strides2 = [1] + per_axis(strides, "strides", 1, layout)
        out = pool2d(a.expand_dims(convert_to_tensor(input), axis), ksize2, strides2, _padding_1d(padding),
                     "NCHW" if layout == "NCW" else "NHWC")
        return a.squeeze(out, [axis])


def max_pool1d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NWC",
               name: str | None = None) -> Tensor:
    """``max_pool`` over one spatial axis.

    >>> # h = tf.nn.max_pool1d(sequences, 2, 2, "VALID")
    """
    return _pool1d(max_pool, "MaxPool1d", input, ksize, strides, padding, data_format, name)


def avg_pool1d(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NWC",
               name: str | None = None) -> Tensor:
    """``avg_pool`` over one spatial axis.

    >>> # h = tf.nn.avg_pool1d(sequences, 2, 2, "VALID")
    """
    return _pool1d(avg_pool, "AvgPool1D", input, ksize, strides, padding, data_format, name)


def max_pool_with_argmax(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC",
                         Targmax: Any = None, name: str | None = None, output_dtype: Any = None,
                         include_batch_in_index: bool = False) -> tuple[Tensor, Tensor]:
    """``max_pool`` and the flat index of each maximum: ``(y * width + x) * channels + c``
    (plus ``b * height * width * channels`` with ``include_batch_in_index``).

    >>> # values, where = tf.nn.max_pool_with_argmax(h, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
    """
    if data_format != "NHWC":
        raise ValueError(f"max_pool_with_argmax supports only NHWC, got data_format={data_format!r}")
    index_dtype = _dt.as_dtype(a.either(Targmax, output_dtype, "Cannot specify both 'Targmax' and 'output_dtype'")
                               or _dt.int64)
    if index_dtype not in (_dt.int32, _dt.int64):
        raise TypeError(f"Targmax must be int32 or int64, got {index_dtype.name}")
    attrs = {"ksize": per_axis(ksize, "ksize", 2, "NHWC"), "strides": per_axis(strides, "strides", 2, "NHWC"),
             **_padding(padding, 2, "NHWC", "MaxPoolWithArgmax", explicit=False), "data_format": "NHWC",
             "Targmax": index_dtype, "include_batch_in_index": bool(include_batch_in_index)}
    _checked_spatial(attrs["ksize"], "ksize", "NHWC")
    _checked_spatial(attrs["strides"], "strides", "NHWC")
    op = record(P.MAX_POOL_WITH_ARGMAX, [convert_to_tensor(input)], attrs, name or "MaxPoolWithArgmax")
    return op.outputs[0], op.outputs[1]


_POOLS: dict[tuple[str, int], Callable[..., Tensor]] = {
    ("MAX", 1): max_pool1d, ("MAX", 2): max_pool, ("MAX", 3): max_pool3d,
    ("AVG", 1): avg_pool1d, ("AVG", 2): avg_pool, ("AVG", 3): avg_pool3d}


def pool(input: Any, window_shape: Any, pooling_type: str, padding: str, dilation_rate: Any = None,
         strides: Any = None, name: str | None = None, data_format: Any = None, dilations: Any = None) -> Tensor:
    """``"MAX"`` or ``"AVG"`` pooling over 1, 2 or 3 spatial axes (the op named ``name`` or ``max_pool``/``avg_pool``).

    >>> # h = tf.nn.pool(images, window_shape=[2, 2], pooling_type="MAX", padding="VALID", strides=[2, 2])
    """
    window = static_ints(window_shape, "window_shape") or []
    rates = static_ints(a.either(dilation_rate, dilations, "Cannot specify both 'dilation_rate' and 'dilations'"),
                        "dilation_rate")
    if rates is not None and any(r != 1 for r in rates):
        raise NotImplementedError("tf.nn.pool with dilation_rate > 1 is not supported")
    function = _POOLS.get((pooling_type, len(window))) if isinstance(pooling_type, str) else None
    if function is None:
        raise ValueError(f"pooling_type must be 'MAX' or 'AVG' over 1-3 spatial axes, got {pooling_type!r} with "
                         f"window_shape={window_shape}")
    step = window if strides is None else strides
    default = "max_pool" if pooling_type == "MAX" else "avg_pool"
    return function(input, window, step, padding, data_format=data_format or _FORMATS[len(window)][0],
                    name=name or default)
