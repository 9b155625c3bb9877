"""``tf.nn`` pooling: validate TF-1.x's arguments, convert, record.

MaxPool, AvgPool, their 3-D forms and MaxPoolWithArgmax are primitives (``primitives/conv.py``);
the 1-D pools and ``tf.nn.pool`` are compositions of them, as in TensorFlow. Arguments are read
as the convolutions read them (``conv_ops``).
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
from .conv_ops import checked_spatial, data_format_of, padding_1d, padding_attrs, per_axis
from .convert import convert_to_tensor, graph_of, record, record1

__all__ = ["max_pool", "avg_pool", "max_pool_with_argmax", "max_pool1d", "avg_pool1d", "max_pool3d", "avg_pool3d",
           "pool"]


def _pool(prim: Primitive, rank: int, value: Any, ksize: Any, strides: Any, padding: Any, data_format: Any,
          name: str | None) -> Tensor:
    layout = data_format_of(data_format, rank, prim.name)
    attrs = {"ksize": per_axis(ksize, "ksize", rank, layout), "strides": per_axis(strides, "strides", rank, layout),
             **padding_attrs(padding, rank, layout, prim.name, explicit=prim in (P.MAX_POOL, P.MAX_POOL3D)),
             "data_format": layout}
    checked_spatial(attrs["ksize"], "ksize", layout)
    checked_spatial(attrs["strides"], "strides", layout)
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
    layout = data_format_of(data_format, 1, default)
    axis = 2 if layout == "NCW" else 1
    graph = graph_of([input])
    with graph.as_default(), graph.name_scope(name or default):
        ksize2 = [1] + per_axis(ksize, "ksize", 1, layout)
        strides2 = [1] + per_axis(strides, "strides", 1, layout)
        out = pool2d(a.expand_dims(convert_to_tensor(input), axis), ksize2, strides2, padding_1d(padding),
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
             **padding_attrs(padding, 2, "NHWC", "MaxPoolWithArgmax", explicit=False), "data_format": "NHWC",
             "Targmax": index_dtype, "include_batch_in_index": bool(include_batch_in_index)}
    checked_spatial(attrs["ksize"], "ksize", "NHWC")
    checked_spatial(attrs["strides"], "strides", "NHWC")
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
    return function(input, window, step, padding, data_format=data_format or data_format_of(None, len(window), default),
                    name=name or default)
