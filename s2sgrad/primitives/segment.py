"""Segment reductions: ``SegmentSum/Mean/Max/Min/Prod`` over sorted ids (the number of
segments is ``ids[-1] + 1``; empty segments hold 0) and ``UnsortedSegmentMax/Min/Prod`` with a
``num_segments`` operand (empty segments hold the reduction's identity: the dtype's lowest
value, its highest, or 1; rows with negative ids are dropped). ``UnsortedSegmentSum`` lives in
``indexing`` (it is gather's adjoint)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..shapes import TensorShape
from .common import const_ints
from .core import define
from .indexing import unsorted_segment_infer


def _numeric_data(op: str, data: Any) -> None:
    if data.dtype.name == "string" or data.dtype.is_bool:
        raise TypeError(f"Value passed to parameter 'data' has DataType {data.dtype.name} not allowed for {op}")


def _sorted_infer(name: str) -> Any:
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        data, ids = inputs
        _numeric_data(name, data)
        if not ids.dtype.is_integer:
            raise TypeError(f"Value passed to parameter 'segment_ids' has DataType {ids.dtype.name} not allowed "
                            f"for {name} (expects int32 or int64)")
        if ids.shape.rank not in (None, 1):
            raise ValueError(f"Shape must be rank 1 but is rank {ids.shape.rank} for '{name}' (segment_ids)")
        if data.shape.rank == 0:
            raise ValueError(f"Shape must be at least rank 1 but is rank 0 for '{name}' (data)")
        if data.shape.rank is None:
            return [(data.dtype, TensorShape(None))]
        known = const_ints(ids)
        n = (known[-1] + 1 if known else 0) if known is not None else None
        return [(data.dtype, TensorShape([n, *data.shape.sizes[1:]]))]
    return infer


def _unsorted_infer(name: str) -> Any:
    def infer(inputs: Sequence[Any], attrs: dict) -> list:
        _numeric_data(name, inputs[0])
        return unsorted_segment_infer(inputs, attrs)
    return infer


def _sorted(name: str) -> Any:
    return define(name, _sorted_infer(name), fusable=False)


def _unsorted(name: str) -> Any:
    return define(name, _unsorted_infer(name), fusable=False)


SEGMENT_SUM = _sorted("SegmentSum")
SEGMENT_MEAN = _sorted("SegmentMean")
SEGMENT_MAX = _sorted("SegmentMax")
SEGMENT_MIN = _sorted("SegmentMin")
SEGMENT_PROD = _sorted("SegmentProd")
UNSORTED_SEGMENT_MAX = _unsorted("UnsortedSegmentMax")
UNSORTED_SEGMENT_MIN = _unsorted("UnsortedSegmentMin")
UNSORTED_SEGMENT_PROD = _unsorted("UnsortedSegmentProd")
