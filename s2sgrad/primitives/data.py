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


EXAMPLE_DTYPES = {"bytes": _dt.string, "float": _dt.float32, "int64": _dt.int64}   # Example list kinds


def _parsed_specs(inputs: Sequence[Any], attrs: dict) -> list:
    """ParseExample: per dense feature ``batch + shape``, per sequence feature ``batch + [None] + shape``;
    then every sparse feature's indices, values, dense shapes. ``attrs["dense"]``: (key, kind, shape,
    default); ``attrs["sequence"]``: (key, kind, shape, padding); ``attrs["sparse"]``: (key, kind)."""
    serialized = inputs[0]
    if serialized.dtype is not _dt.string:
        raise TypeError(f"serialized must be a string tensor, got {serialized.dtype.name}")
    batch = serialized.shape.sizes
    if batch is not None and len(batch) > 1:
        raise ValueError(f"serialized must be a scalar or a vector, got shape {list(batch)}")
    outer = [None] if batch is None else list(batch)
    specs: list = [(EXAMPLE_DTYPES[kind], TensorShape(outer + list(shape))) for _, kind, shape, _ in attrs["dense"]]
    specs += [(EXAMPLE_DTYPES[kind], TensorShape([*outer, None, *shape])) for _, kind, shape, _ in attrs["sequence"]]
    sparse = attrs["sparse"]
    specs += [(_dt.int64, TensorShape([None, len(outer) + 1])) for _ in sparse]
    specs += [(EXAMPLE_DTYPES[kind], TensorShape([None])) for _, kind in sparse]
    specs += [(_dt.int64, TensorShape([len(outer) + 1])) for _ in sparse]
    return specs


ITERATOR_GET_NEXT = define("IteratorGetNext", _element_specs, differentiable=False, host=True)
MAKE_ITERATOR = define("MakeIterator", _no_outputs, differentiable=False, host=True)
PARSE_EXAMPLE = define("ParseExample", _parsed_specs, differentiable=False, fusable=False)
ITERATOR_TO_STRING_HANDLE = define("IteratorToStringHandle", lambda inputs, attrs: [(_dt.string, TensorShape([]))],
                                   differentiable=False, host=True)
