"""``tf.nn`` convolutions: validate TF-1.x's arguments, convert, record.

Conv2D, Conv3D, DepthwiseConv2dNative and the gradient ops are primitives (``primitives/conv.py``);
conv1d, separable, atrous and transposed convolutions are
compositions of them, as in TensorFlow.
"""
from __future__ import annotations

from typing import Any

from ..primitives import conv as P
from ..primitives.core import Primitive
from ..ssa.graph import Tensor
from . import array_ops as a
from .array_ops import static_ints
from .convert import convert_to_tensor, graph_of, is_tensor_like, record1

__all__ = ["conv1d", "conv2d", "conv3d", "convolution", "conv2d_backprop_input", "conv2d_backprop_filter",
           "conv2d_transpose", "depthwise_conv2d", "depthwise_conv2d_native", "separable_conv2d", "atrous_conv2d",
           "data_format_of", "per_axis", "padding_attrs", "padding_1d", "checked_spatial"]

_FORMATS = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}


def data_format_of(data_format: Any, rank: int, op: str) -> str:
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


def checked_spatial(full: list[int], what: str, data_format: str) -> None:
    outer = [full[0], full[1]] if data_format.startswith("NC") else [full[0], full[-1]]
    if outer != [1, 1]:
        raise ValueError(f"{what} in the batch and depth dimensions must be 1, got {what}={full} "
                         f"(TF: current implementation does not yet support {what} in the batch and depth "
                         f"dimensions)")
    if any(v < 1 for v in full):
        raise ValueError(f"{what} must be positive, got {what}={full}")


def padding_attrs(padding: Any, rank: int, data_format: str, op: str, explicit: bool = True) -> dict:
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
    layout = data_format_of(data_format, rank, prim.name)
    full_strides = per_axis(strides, "strides", rank, layout)
    full_dilations = per_axis(1 if dilations is None else dilations, "dilations", rank, layout)
    checked_spatial(full_strides, "strides", layout)
    checked_spatial(full_dilations, "dilations", layout)
    return {"strides": full_strides, **padding_attrs(padding, rank, layout, prim.name), "dilations": full_dilations,
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
    layout = data_format_of(data_format, 1, "conv1d")
    axis = 2 if layout == "NCW" else 1
    graph = graph_of([x, filters])
    with graph.as_default(), graph.name_scope(name or "conv1d"):
        x, w = _pair(x, filters)
        strides = [1] + per_axis(stride, "stride", 1, layout)
        dil = [1] + per_axis(1 if dilations is None else dilations, "dilations", 1, layout)
        out = conv2d(a.expand_dims(x, axis), a.expand_dims(w, 0), strides, padding_1d(padding),
                     data_format="NCHW" if layout == "NCW" else "NHWC", dilations=dil)
        return a.squeeze(out, [axis])


def padding_1d(padding: Any) -> Any:
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
