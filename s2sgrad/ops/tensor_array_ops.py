"""``tf.TensorArray``: a list of tensors written and read by index, carried through loops.

Its value is one tensor (``flow``) with the static shape of the stacked elements; every
method returns a new TensorArray around a new value, as TF 2.x's TensorArray does in graph mode.
"""
from __future__ import annotations

from typing import Any

from .. import dtypes as _dt
from ..primitives import tensor_array as P
from ..shapes import TensorShape, as_shape
from ..ssa.graph import Operation, Tensor
from .control_flow import no_op
from .convert import convert_to_tensor, record1

__all__ = ["TensorArray", "size_of"]


def size_of(value: Tensor) -> Tensor:
    """The number of elements of the TensorArray whose value is ``value``."""
    return record1(P.TA_SIZE, [value], None, "TensorArraySize")


class TensorArray:
    """``tf.TensorArray(dtype, size=None, dynamic_size=None, ..., element_shape=None)``.

    >>> # ta = tf.TensorArray(tf.float32, size=3).unstack(x); row = ta.read(1)
    """

    def __init__(self, dtype: Any, size: Any = None, dynamic_size: Any = None, clear_after_read: Any = None,
                 tensor_array_name: Any = None, handle: Any = None, flow: Any = None, infer_shape: bool = True,
                 element_shape: Any = None, colocate_with_first_write_call: bool = True,
                 name: str | None = None) -> None:
        self._dtype = _dt.as_dtype(dtype)
        self._dynamic_size = bool(dynamic_size)
        self._infer_shape = infer_shape
        if flow is not None:
            self._flow = convert_to_tensor(flow)
            return
        if size is None:
            raise ValueError("Size must be provided if handle is not provided")
        size_t = convert_to_tensor(size, dtype=_dt.int32, name="size")
        shape = as_shape(element_shape) if element_shape is not None else TensorShape(None)
        self._flow = record1(P.TA_NEW, [size_t], {"dtype": self._dtype, "element_shape": shape.sizes,
                                                  "dynamic_size": self._dynamic_size},
                             name or tensor_array_name or "TensorArray")

    def _new(self, value: Tensor) -> TensorArray:
        return TensorArray(self._dtype, flow=value, dynamic_size=self._dynamic_size, infer_shape=self._infer_shape)

    # -- what while_loop carries ------------------------------------------------------------------
    def _loop_value(self) -> Tensor:
        return self._flow

    def _with_loop_value(self, value: Tensor) -> TensorArray:
        return self._new(value)

    # -- properties -------------------------------------------------------------------------------
    @property
    def flow(self) -> Tensor:
        return self._flow

    @property
    def handle(self) -> None:
        return None

    @property
    def dtype(self) -> _dt.DType:
        return self._dtype

    @property
    def dynamic_size(self) -> bool:
        return self._dynamic_size

    @property
    def element_shape(self) -> TensorShape:
        return P.element_shape(self._flow)

    def size(self, name: str | None = None) -> Tensor:
        return record1(P.TA_SIZE, [self._flow], None, name or "TensorArraySize")

    # -- methods ----------------------------------------------------------------------------------
    def read(self, index: Any, name: str | None = None) -> Tensor:
        return record1(P.TA_READ, [self._flow, _index(index)], None, name or "TensorArrayRead")

    def write(self, index: Any, value: Any, name: str | None = None) -> TensorArray:
        value = convert_to_tensor(value, dtype=self._dtype)
        return self._new(record1(P.TA_WRITE, [self._flow, _index(index), value],
                                 {"dynamic_size": self._dynamic_size}, name or "TensorArrayWrite"))

    def stack(self, name: str | None = None) -> Tensor:
        return record1(P.TA_STACK, [self._flow], None, name or "TensorArrayStack")

    def unstack(self, value: Any, name: str | None = None) -> TensorArray:
        value = convert_to_tensor(value, dtype=self._dtype)
        return self._new(record1(P.TA_UNSTACK, [self._flow, value], None, name or "TensorArrayUnstack"))

    def gather(self, indices: Any, name: str | None = None) -> Tensor:
        return record1(P.TA_GATHER, [self._flow, _index(indices)], None, name or "TensorArrayGather")

    def scatter(self, indices: Any, value: Any, name: str | None = None) -> TensorArray:
        value = convert_to_tensor(value, dtype=self._dtype)
        return self._new(record1(P.TA_SCATTER, [self._flow, _index(indices), value], None,
                                 name or "TensorArrayScatter"))

    def concat(self, name: str | None = None) -> Tensor:
        return record1(P.TA_CONCAT, [self._flow], None, name or "TensorArrayConcat")

    def split(self, value: Any, lengths: Any, name: str | None = None) -> TensorArray:
        value = convert_to_tensor(value, dtype=self._dtype)
        return self._new(record1(P.TA_SPLIT, [self._flow, value, _index(lengths)], None,
                                 name or "TensorArraySplit"))

    def identity(self) -> TensorArray:
        return self._new(self._flow)

    def close(self, name: str | None = None) -> Operation:
        return no_op(name or "TensorArrayClose")

    def __repr__(self) -> str:
        return f"<tf.TensorArray dtype={self._dtype.name} value={self._flow.name}>"


def _index(value: Any) -> Tensor:
    return convert_to_tensor(value, dtype=_dt.int32)

