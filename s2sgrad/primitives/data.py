"""tf.data's ops: the iterator ops a Session computes around the module, and Example parsing.

``IteratorGetNext`` and ``MakeIterator`` are *host* ops: the Session runs them in Python, not the
generated module. A GetNext's outputs are fed to the module with the iterator's next element
(``attrs["host"].produce``); a MakeIterator's inputs (the tensors its dataset captured) are
fetched, then handed to ``attrs["host"].consume`` to (re)start the iterator.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import dtypes as _dt
from ..shapes import TensorShape
from .core import define


def _element_specs(inputs: Sequence[Any], attrs: dict) -> list:
    return [(dtype, TensorShape(shape)) for dtype, shape in zip(attrs["output_types"], attrs["output_shapes"],
                                                               strict=True)]


def _no_outputs(inputs: Sequence[Any], attrs: dict) -> list:
    return []


def _parsed_specs(inputs: Sequence[Any], attrs: dict) -> list:
    """ParseExample: per dense feature ``batch + shape``; per sparse one (indices, values, dense_shape)."""
    serialized = inputs[0]
    if serialized.dtype is not _dt.string:
        raise TypeError(f"serialized must be a string tensor, got {serialized.dtype.name}")
    batch = serialized.shape.sizes
    if batch is not None and len(batch) > 1:
        raise ValueError(f"serialized must be a scalar or a vector, got shape {list(batch)}")
    outer = [] if batch is None else list(batch)
    specs: list = []
    for dtype, shape in zip(attrs["dense_types"], attrs["dense_shapes"], strict=True):
        specs.append((dtype, TensorShape(outer + list(shape))))
    rank = len(outer) + 1
    for dtype in attrs["sparse_types"]:
        specs.append((_dt.int64, TensorShape([None, rank])))
    for dtype in attrs["sparse_types"]:
        specs.append((dtype, TensorShape([None])))
    for _ in attrs["sparse_types"]:
        specs.append((_dt.int64, TensorShape([rank])))
    return specs


ITERATOR_GET_NEXT = define("IteratorGetNext", _element_specs, differentiable=False, host=True)
MAKE_ITERATOR = define("MakeIterator", _no_outputs, differentiable=False, host=True)
PARSE_EXAMPLE = define("ParseExample", _parsed_specs, differentiable=False, fusable=False)
ITERATOR_TO_STRING_HANDLE = define("IteratorToStringHandle", lambda inputs, attrs: [(_dt.string, TensorShape([]))],
                                   differentiable=False, host=True)
