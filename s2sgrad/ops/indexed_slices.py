"""``tf.IndexedSlices``: a sparse gradient (rows ``values`` at ``indices`` of a dense tensor)."""
from __future__ import annotations

import collections
from typing import Any

from ..shapes import TensorShape
from ..ssa.graph import Graph, Operation, Tensor
from ..static import constant_value
from .array_ops import reshape, unsorted_segment_sum

__all__ = ["IndexedSlices", "IndexedSlicesValue"]

IndexedSlicesValue = collections.namedtuple("IndexedSlicesValue", ["values", "indices", "dense_shape"])
IndexedSlicesValue.__doc__ = "What ``Session.run`` returns for an IndexedSlices fetch."


class IndexedSlices:
    """Rows ``values[i]`` of a tensor of shape ``dense_shape`` at row ``indices[i]``; rows not
    listed are zero and repeated indices add up when densified."""

    def __init__(self, values: Tensor, indices: Tensor, dense_shape: Tensor | None = None) -> None:
        self.values = values
        self.indices = indices
        self.dense_shape = dense_shape

    @property
    def dtype(self) -> Any:
        return self.values.dtype

    @property
    def name(self) -> str:
        return self.values.name

    @property
    def op(self) -> Operation:
        return self.values.op

    @property
    def graph(self) -> Graph:
        return self.values.graph

    @property
    def device(self) -> str:
        return ""

    @property
    def shape(self) -> TensorShape:
        known = None if self.dense_shape is None else constant_value(self.dense_shape)
        if known is not None:
            return TensorShape([int(d) for d in known])
        return TensorShape([None]).concatenate(self.values.shape[1:])

    def _dense_tensor(self) -> Tensor:
        """The dense tensor (duplicate indices add up)."""
        if self.dense_shape is None:
            raise ValueError(f"Cannot densify IndexedSlices {self.name} without a dense_shape")
        with self.graph.as_default():
            rows = unsorted_segment_sum(self.values, self.indices, self.dense_shape[0])
            return reshape(rows, self.dense_shape)

    def __repr__(self) -> str:
        shape = "None" if self.dense_shape is None else self.dense_shape.name
        return f"IndexedSlices(indices={self.indices.name}, values={self.values.name}, dense_shape={shape})"
