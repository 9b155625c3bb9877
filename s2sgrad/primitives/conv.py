"""Convolution, pooling and image-resizing primitives, TF's op types with TF's attrs.

Attrs are TensorFlow's: ``strides``, ``dilations`` and pooling's ``ksize`` are full lists (one
entry per axis of the data format, batch and channels 1); ``padding`` is ``"SAME"``, ``"VALID"`` or
``"EXPLICIT"`` (then ``explicit_paddings`` holds ``(before, after)`` per axis, flat); ``data_format``
is channels-last (``"NHWC"``, ``"NDHWC"``) or channels-first (``"NCHW"``, ``"NCDHW"``). The
gradient ops take the shape of what they differentiate as an int vector (``input_sizes``,
``filter_sizes``, ``orig_input_shape``), as TF's do. ``spatial(attrs, key)`` reads the spatial part.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..dtypes import float32 as _float32
from ..shapes import TensorShape
from .common import const_ints, shape_operand
from .core import Primitive, define, same_dtype

__all__ = ["spatial", "channels_first", "pads", "CONV2D", "CONV3D", "DEPTHWISE_CONV2D", "MAX_POOL", "AVG_POOL"]


def channels_first(attrs: dict) -> bool:
    """Whether ``data_format`` puts the channels at axis 1 (``NCHW``)."""
    return str(attrs["data_format"]).startswith("NC")


def spatial(attrs: dict, key: str) -> tuple[int, ...]:
    """The spatial entries of a full per-axis attr (``strides``, ``dilations``, ``ksize``)."""
    values = attrs[key]
    return tuple(values[2:] if channels_first(attrs) else values[1:-1])


def pads(attrs: dict) -> Any:
    """``padding`` as the runtime helpers take it: ``"SAME"``, ``"VALID"`` or spatial pairs."""
    if attrs["padding"] != "EXPLICIT":
        return attrs["padding"]
    flat = attrs["explicit_paddings"]
    pairs = [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]
    return tuple(pairs[2:] if channels_first(attrs) else pairs[1:-1])


def _spatial_dims(sizes: Sequence[Any], attrs: dict) -> list:
    return list(sizes[2:] if channels_first(attrs) else sizes[1:-1])


def _with_spatial(batch: Any, channels: Any, dims: list, attrs: dict) -> TensorShape:
    return TensorShape([batch, channels] + dims if channels_first(attrs) else [batch] + dims + [channels])


def _output_size(n: Any, k: Any, s: int, d: int, padding: Any) -> Any:
    if n is None:
        return None
    if padding == "SAME":
        return -(-n // s)
    extent = None if k is None else (k - 1) * d + 1
    if extent is None:
        return None
    before, after = (0, 0) if padding == "VALID" else padding
    if n + before + after < extent:
        raise ValueError(f"Negative dimension size caused by subtracting {extent} from {n + before + after}")
    return (n + before + after - extent) // s + 1


def _spatial_output(x: TensorShape, window: Sequence[Any], attrs: dict) -> list:
    strides, dilations = spatial(attrs, "strides"), spatial(attrs, "dilations") if "dilations" in attrs else None
    padding = pads(attrs)
    dims = _spatial_dims(x.sizes or (), attrs)
    return [_output_size(n, window[i], strides[i], 1 if dilations is None else dilations[i],
                         padding if isinstance(padding, str) else padding[i])
            for i, n in enumerate(dims)]


def _check_rank(t: Any, rank: int) -> None:
    if t.shape.rank not in (None, rank):
        raise ValueError(f"Shape must be rank {rank} but is rank {t.shape.rank}")


def _float_inputs(op: str, inputs: Sequence[Any]) -> Any:
    dtype = same_dtype(inputs, f"{op} inputs")
    if not dtype.is_floating:
        raise TypeError(f"Value passed to parameter 'input' has DataType {dtype.name} not allowed for {op} "
                        f"(expects a float tensor)")
    return dtype


def _conv_shape(x: TensorShape, w: TensorShape, rank: int, attrs: dict, depthwise: bool) -> TensorShape:
    """The output shape of a convolution of ``x`` with a filter of shape ``w`` (``*window, Cin, Cout``)."""
    if x.sizes is None:
        return TensorShape(None)
    window = w.sizes[:rank] if w.sizes is not None else [None] * rank
    w_in, w_out = (w.sizes[rank], w.sizes[rank + 1]) if w.sizes is not None else (None, None)
    depth = x.sizes[1] if channels_first(attrs) else x.sizes[-1]
    if depth is not None and w_in is not None:
        if depthwise and depth != w_in:
            raise ValueError(f"Dimensions must be equal, but are {depth} and {w_in}")
        if not depthwise and depth % w_in:
            raise ValueError(f"Depth of input ({depth}) is not a multiple of input depth of filter ({w_in})")
        if not depthwise and depth != w_in:
            raise NotImplementedError(f"grouped convolution (input depth {depth}, filter input depth {w_in}) is not "
                                      f"supported: the filter's input depth must equal the input's")
    if depthwise:
        w_out = None if w_in is None or w_out is None else w_in * w_out
    return _with_spatial(x.sizes[0], w_out, _spatial_output(x, window, attrs), attrs)


def _conv_infer(op: str, rank: int, depthwise: bool = False) -> Any:
    """``Conv2D(input, filter)`` and its relatives."""
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        x, w = inputs
        _check_rank(x, rank + 2)
        _check_rank(w, rank + 2)
        return [(_float_inputs(op, inputs), _conv_shape(x.shape, w.shape, rank, attrs, depthwise))]
    return infer


def _sized_infer(op: str, rank: int, sizes_at: int) -> Any:
    """A gradient op whose output shape is the value of its int vector input ``sizes_at``."""
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        floats = [t for i, t in enumerate(inputs) if i != sizes_at]
        shape = shape_operand(inputs[sizes_at], f"{op} sizes")
        if shape.rank not in (None, rank + 2):
            raise ValueError(f"{op}: the sizes must have {rank + 2} entries, got {const_ints(inputs[sizes_at])}")
        return [(_float_inputs(op, floats), shape)]
    return infer


def _conv_family(name: str, rank: int, depthwise: bool = False, backprop: tuple[str, str] | None = None,
                 default_name: str | None = None) -> tuple[Primitive, Primitive, Primitive]:
    """A convolution and its two gradient ops (input, filter)."""
    input_name, filter_name = backprop or (name + "BackpropInput", name + "BackpropFilter")
    return (define(name, _conv_infer(name, rank, depthwise), default_name=default_name),
            define(input_name, _sized_infer(input_name, rank, 0)),
            define(filter_name, _sized_infer(filter_name, rank, 1)))


CONV2D, CONV2D_BACKPROP_INPUT, CONV2D_BACKPROP_FILTER = _conv_family("Conv2D", 2)
CONV3D, CONV3D_BACKPROP_INPUT, CONV3D_BACKPROP_FILTER = _conv_family(
    "Conv3D", 3, backprop=("Conv3DBackpropInputV2", "Conv3DBackpropFilterV2"))
DEPTHWISE_CONV2D, DEPTHWISE_CONV2D_BACKPROP_INPUT, DEPTHWISE_CONV2D_BACKPROP_FILTER = _conv_family(
    "DepthwiseConv2dNative", 2, depthwise=True)


# -- pooling ----------------------------------------------------------------------------------------

def _pool_shape(x: Any, rank: int, attrs: dict) -> TensorShape:
    _check_rank(x, rank + 2)
    if x.shape.sizes is None:
        return TensorShape(None)
    window = spatial(attrs, "ksize")
    channels = x.shape.sizes[1] if channels_first(attrs) else x.shape.sizes[-1]
    return _with_spatial(x.shape.sizes[0], channels, _spatial_output(x.shape, window, attrs), attrs)


def _pool_infer(op: str, rank: int) -> Any:
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        x = inputs[0]
        if not (x.dtype.is_floating or x.dtype.is_integer) or op.startswith("Avg") and not x.dtype.is_floating:
            raise TypeError(f"Value passed to parameter 'input' has DataType {x.dtype.name} not allowed for {op}")
        return [(x.dtype, _pool_shape(x, rank, attrs))]
    return infer


def _max_grad_infer(op: str, rank: int, like: int) -> Any:
    """``MaxPoolGrad(orig_input, orig_output, grad)`` (like the input) and ``MaxPoolGradGrad`` (like the output)."""
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        dtype = same_dtype(inputs, f"{op} inputs")
        for t in inputs:
            _check_rank(t, rank + 2)
        return [(dtype, inputs[like].shape)]
    return infer


def _pool_family(kind: str, rank: int) -> tuple[Primitive, ...]:
    """``MaxPool`` with ``MaxPoolGrad`` and ``MaxPoolGradGrad``, or ``AvgPool`` with ``AvgPoolGrad``."""
    name = kind + ("Pool3D" if rank == 3 else "Pool")
    forward = define(name, _pool_infer(name, rank))
    if kind == "Avg":
        return forward, define(name + "Grad", _sized_infer(name + "Grad", rank, 0))
    return (forward, define(name + "Grad", _max_grad_infer(name + "Grad", rank, 0)),
            define(name + "GradGrad", _max_grad_infer(name + "GradGrad", rank, 1)))


MAX_POOL, MAX_POOL_GRAD, MAX_POOL_GRAD_GRAD = _pool_family("Max", 2)
MAX_POOL3D, MAX_POOL3D_GRAD, MAX_POOL3D_GRAD_GRAD = _pool_family("Max", 3)
AVG_POOL, AVG_POOL_GRAD = _pool_family("Avg", 2)
AVG_POOL3D, AVG_POOL3D_GRAD = _pool_family("Avg", 3)


def _argmax_infer(inputs: Sequence[Any], attrs: dict) -> list:
    x = inputs[0]
    if not x.dtype.is_floating:
        raise TypeError(f"Value passed to parameter 'input' has DataType {x.dtype.name} not allowed for "
                        f"MaxPoolWithArgmax")
    shape = _pool_shape(x, 2, attrs)
    return [(x.dtype, shape), (attrs["Targmax"], shape)]


MAX_POOL_WITH_ARGMAX = define("MaxPoolWithArgmax", _argmax_infer)


# -- image resizing (NHWC) -----------------------------------------------------------------------------

def _resize_infer(op: str, float_output: bool) -> Any:
    """``Resize*(images, size)``: ``[batch, size[0], size[1], channels]``; bilinear gives float32, as TF."""
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        images, size = inputs
        _check_rank(images, 4)
        if not (images.dtype.is_floating or images.dtype.is_integer):
            raise TypeError(f"Value passed to parameter 'images' has DataType {images.dtype.name} not allowed for {op}")
        target = shape_operand(size, "size")
        if target.rank not in (None, 2):
            raise ValueError(f"Shape must be rank 1 with 2 elements (size), got {target}")
        hw = list(target.sizes) if target.sizes is not None else [None, None]
        sizes = images.shape.sizes
        batch, channels = (sizes[0], sizes[3]) if sizes is not None else (None, None)
        return [(_float32 if float_output else images.dtype, TensorShape([batch, *hw, channels]))]
    return infer


def _bilinear_grad_infer(inputs: Sequence[Any], attrs: dict) -> list:
    grads, original = inputs
    _check_rank(grads, 4)
    _check_rank(original, 4)
    return [(original.dtype, original.shape)]


RESIZE_BILINEAR = define("ResizeBilinear", _resize_infer("ResizeBilinear", True))
RESIZE_BILINEAR_GRAD = define("ResizeBilinearGrad", _bilinear_grad_infer)
RESIZE_NEAREST_NEIGHBOR = define("ResizeNearestNeighbor", _resize_infer("ResizeNearestNeighbor", False))
RESIZE_NEAREST_NEIGHBOR_GRAD = define("ResizeNearestNeighborGrad", _resize_infer("ResizeNearestNeighborGrad", False))
