"""``tf.io.parse_single_example`` / ``parse_example`` of serialized ``tf.train.Example`` records, and the
feature specs ``FixedLenFeature`` and ``VarLenFeature`` (``SparseTensor`` results)."""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import dtypes as _dt
from ..primitives.data import EXAMPLE_DTYPES, PARSE_EXAMPLE
from ..shapes import TensorShape
from ..ssa.graph import Tensor
from .convert import convert_to_tensor, record

__all__ = ["FixedLenFeature", "VarLenFeature", "FixedLenSequenceFeature", "SparseTensor", "parse_example",
           "parse_single_example"]

_KIND_OF = {dtype: kind for kind, dtype in EXAMPLE_DTYPES.items()}


class FixedLenFeature(NamedTuple):
    """A feature with a fixed number of values, parsed into a dense tensor of ``shape``."""

    shape: Any
    dtype: Any
    default_value: Any = None


class VarLenFeature(NamedTuple):
    """A feature with any number of values, parsed into a SparseTensor."""

    dtype: Any


class FixedLenSequenceFeature(NamedTuple):
    """A feature with any number of ``shape``-sized entries, parsed into a dense ``[None] + shape`` tensor
    (per batch: padded to the longest with ``default_value``, 0 or b""); ``allow_missing`` must be True."""

    shape: Any
    dtype: Any
    allow_missing: bool = False
    default_value: Any = None


class SparseTensor(NamedTuple):
    """``indices`` [N, rank] int64, ``values`` [N], ``dense_shape`` [rank] int64; ``sess.run`` of one
    gives the same triple of arrays."""

    indices: Any
    values: Any
    dense_shape: Any


def _kind(dtype: Any, key: str) -> str:
    kind = _KIND_OF.get(_dt.as_dtype(dtype))
    if kind is None:
        raise ValueError(f"Feature {key!r}: dtype must be tf.string, tf.float32 or tf.int64, got {dtype!r}")
    return kind


def _dense_entry(key: str, spec: FixedLenFeature) -> tuple:
    kind = _kind(spec.dtype, key)
    shape = TensorShape(spec.shape)
    if not shape.is_fully_defined():
        raise ValueError(f"Feature {key!r}: FixedLenFeature needs a fully defined shape, got {shape}")
    sizes = tuple(d for d in shape.sizes or () if d is not None)
    default = spec.default_value
    if default is not None:
        array = np.asarray(default, dtype=object if kind == "bytes" else EXAMPLE_DTYPES[kind].np)
        if array.size == 1 and int(np.prod(sizes)) != 1:
            array = np.full(sizes, array.reshape(()), dtype=array.dtype)
        if array.size != int(np.prod(sizes)):
            raise ValueError(f"Feature {key!r}: default_value of {array.size} values does not fit shape {list(sizes)}")
        default = array.reshape(sizes).tolist()
        if kind == "bytes":
            default = np.vectorize(_as_bytes, otypes=[object])(
                np.array(default, dtype=object)).tolist()
    return key, kind, sizes, default


def _sequence_entry(key: str, spec: FixedLenSequenceFeature) -> tuple:
    kind = _kind(spec.dtype, key)
    shape = TensorShape(spec.shape)
    if not shape.is_fully_defined():
        raise ValueError(f"Feature {key!r}: FixedLenSequenceFeature needs a fully defined shape, got {shape}")
    if not spec.allow_missing:
        raise ValueError(f"Feature {key!r}: FixedLenSequenceFeature requires allow_missing=True")
    pad = spec.default_value if spec.default_value is not None else (b"" if kind == "bytes" else 0)
    if np.ndim(pad) != 0:
        raise ValueError(f"Feature {key!r}: FixedLenSequenceFeature's default_value must be a scalar, got {pad!r}")
    pad = _as_bytes(pad) if kind == "bytes" else (float(pad) if kind == "float" else int(pad))
    return key, kind, tuple(d for d in shape.sizes or () if d is not None), pad


def _as_bytes(v: Any) -> bytes:
    return v.encode("utf-8") if isinstance(v, str) else bytes(v)


def parse_example(serialized: Any, features: dict, name: str | None = None, example_names: Any = None) -> dict:
    """Parse a vector of serialized Examples: per FixedLenFeature a dense ``[batch] + shape`` tensor,
    per VarLenFeature a SparseTensor with ``[batch, longest]`` dense shape."""
    if not isinstance(features, dict) or not features:
        raise ValueError(f"features must be a non-empty dict of feature specs, got {features!r}")
    serialized = convert_to_tensor(serialized, dtype=_dt.string)
    dense, sequence, sparse = [], [], []
    for key in sorted(features):
        spec = features[key]
        if not isinstance(key, str):
            raise TypeError(f"feature keys must be str, got {key!r}")
        if isinstance(spec, FixedLenFeature):
            dense.append(_dense_entry(key, spec))
        elif isinstance(spec, VarLenFeature):
            sparse.append((key, _kind(spec.dtype, key)))
        elif isinstance(spec, FixedLenSequenceFeature):
            sequence.append(_sequence_entry(key, spec))
        else:
            raise TypeError(f"Feature {key!r}: expected FixedLenFeature or VarLenFeature, got {spec!r}")
    op = record(PARSE_EXAMPLE, [serialized], {"dense": tuple(dense), "sequence": tuple(sequence),
                                              "sparse": tuple(sparse)}, name or "ParseExample")
    outs = list(op.outputs)
    result: dict[str, Tensor | SparseTensor] = {entry[0]: outs[i] for i, entry in enumerate(dense + sequence)}
    n, k = len(dense) + len(sequence), len(sparse)
    for j, (key, _) in enumerate(sparse):
        result[key] = SparseTensor(outs[n + j], outs[n + k + j], outs[n + 2 * k + j])
    return {key: result[key] for key in features}


def parse_single_example(serialized: Any, features: dict, name: str | None = None,
                         example_names: Any = None) -> dict:
    """Parse one serialized Example (a string scalar): FixedLenFeature values in their ``shape``,
    VarLenFeature values as a SparseTensor of indices [N, 1]."""
    t = convert_to_tensor(serialized, dtype=_dt.string)
    if t.shape.sizes not in ((), None):
        raise ValueError(f"parse_single_example expects a string scalar, got shape {t.shape}")
    return parse_example(t, features, name=name or "ParseSingleExample")
