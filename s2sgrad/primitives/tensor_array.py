"""TensorArray primitives. A TensorArray's value is one tensor whose static shape is that of
its stacked elements ``[size, *element_shape]``; at run time it is a Python list of arrays
(unwritten elements are None), and writing makes a new list (TF 2.x's TensorList semantics).
Its gradient is a dense array of the stacked shape."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import dtypes as _dt
from ..shapes import TensorShape
from .common import const_ints
from .core import define

__all__ = ["TA_NEW", "TA_WRITE", "TA_READ", "TA_STACK", "TA_UNSTACK", "TA_SIZE", "TA_GATHER", "TA_SCATTER",
           "TA_CONCAT", "TA_SPLIT", "TA_CONCAT_GRAD", "element_shape"]


def element_shape(ta: Any) -> TensorShape:
    dims = ta.shape.sizes
    return TensorShape(None if dims is None else dims[1:])


def _with_rows(rows: int | None, element: TensorShape) -> TensorShape:
    return TensorShape(None if element.sizes is None else [rows, *element.sizes])


def _new_spec(inputs: Sequence[Any], attrs: dict) -> list:
    size = const_ints(inputs[0])
    rows = None if size is None or attrs["dynamic_size"] else size[0]
    return [(attrs["dtype"], _with_rows(rows, TensorShape(attrs["element_shape"])))]


def _index(t: Any, what: str) -> None:
    if not t.dtype.is_integer:
        raise TypeError(f"TensorArray {what} must be an integer, got {t.dtype.name}")


def _write_spec(inputs: Sequence[Any], attrs: dict) -> list:
    ta, index, value = inputs
    _index(index, "index")
    if value.dtype is not ta.dtype:
        raise TypeError(f"TensorArray dtype is {ta.dtype.name} but Op is trying to write dtype {value.dtype.name}")
    element = element_shape(ta)
    if not element.is_compatible_with(value.shape):
        raise ValueError(f"Inconsistent shapes: saw {value.shape} but expected {element} (and infer_shape=True)")
    rows = ta.shape.sizes[0] if ta.shape.sizes is not None else None
    return [(ta.dtype, _with_rows(rows, element.merge_with(value.shape)))]


def _read_spec(inputs: Sequence[Any], attrs: dict) -> list:
    _index(inputs[1], "index")
    return [(inputs[0].dtype, element_shape(inputs[0]))]


def _unstack_spec(inputs: Sequence[Any], attrs: dict) -> list:
    ta, value = inputs
    if value.dtype is not ta.dtype:
        raise TypeError(f"TensorArray dtype is {ta.dtype.name} but Op is trying to write dtype {value.dtype.name}")
    return [(ta.dtype, value.shape if value.shape.rank != 0 else TensorShape(None))]


def _gather_spec(inputs: Sequence[Any], attrs: dict) -> list:
    ta, indices = inputs
    _index(indices, "indices")
    n = indices.shape.sizes[0] if indices.shape.rank == 1 else None
    return [(ta.dtype, _with_rows(n, element_shape(ta)))]


def _scatter_spec(inputs: Sequence[Any], attrs: dict) -> list:
    ta, indices, value = inputs
    _index(indices, "indices")
    rows = ta.shape.sizes[0] if ta.shape.sizes is not None else None
    element = TensorShape(None) if value.shape.sizes is None else TensorShape(value.shape.sizes[1:])
    return [(ta.dtype, _with_rows(rows, element_shape(ta).merge_with(element)))]


def _concat_spec(inputs: Sequence[Any], attrs: dict) -> list:
    element = element_shape(inputs[0])
    return [(inputs[0].dtype, TensorShape(None if element.sizes is None or not element.sizes else
                                          [None, *element.sizes[1:]]))]


def _split_spec(inputs: Sequence[Any], attrs: dict) -> list:
    ta, value, lengths = inputs
    _index(lengths, "lengths")
    rows = lengths.shape.sizes[0] if lengths.shape.rank == 1 else None
    inner = None if value.shape.sizes is None else [None, *value.shape.sizes[1:]]
    return [(ta.dtype, _with_rows(rows, TensorShape(inner)))]


def _concat_grad_spec(inputs: Sequence[Any], attrs: dict) -> list:
    ta, g = inputs
    return [(g.dtype, ta.shape)]


_LIST = {"fusable": False, "lists": True}
TA_NEW = define("TensorArrayV3", _new_spec, differentiable=False, default_name="TensorArray", **_LIST)
TA_WRITE = define("TensorArrayWriteV3", _write_spec, default_name="TensorArrayWrite", **_LIST)
TA_READ = define("TensorArrayReadV3", _read_spec, default_name="TensorArrayRead", fusable=False)
TA_STACK = define("TensorArrayStack", lambda ins, at: [(ins[0].dtype, ins[0].shape)], default_name="TensorArrayStack",
                  fusable=False)
TA_UNSTACK = define("TensorArrayUnstack", _unstack_spec, default_name="TensorArrayUnstack", **_LIST)
TA_SIZE = define("TensorArraySizeV3", lambda ins, at: [(_dt.int32, TensorShape([]))], differentiable=False,
                 default_name="TensorArraySize", fusable=False)
TA_GATHER = define("TensorArrayGatherV3", _gather_spec, default_name="TensorArrayGather", fusable=False)
TA_SCATTER = define("TensorArrayScatterV3", _scatter_spec, default_name="TensorArrayScatter", **_LIST)
TA_CONCAT = define("TensorArrayConcatV3", _concat_spec, default_name="TensorArrayConcat", fusable=False)
TA_SPLIT = define("TensorArraySplitV3", _split_spec, default_name="TensorArraySplit", **_LIST)
TA_CONCAT_GRAD = define("TensorArrayConcatGrad", _concat_grad_spec, default_name="TensorArrayConcatGrad",
                        fusable=False)
