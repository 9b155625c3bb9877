"""Batching: ``batch``, ``padded_batch`` and ``unbatch``."""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .. import errors
from ..shapes import TensorShape
from .functions import Env
from .nodes import Element, Node, Row
from .structure import Spec, flatten, pack_as

__all__ = ["Batch", "PaddedBatch", "Unbatch", "check_count"]


def check_count(value: Any, what: str, minimum: int = 1) -> int:
    """A Python/NumPy integer argument of at least ``minimum`` (ValueError naming ``what`` otherwise)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{what} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def _batched(spec: Spec, size: int | None) -> Spec:
    dims = spec.shape.sizes
    return Spec(spec.dtype, TensorShape(None if dims is None else [size, *dims]))


def _stack(values: list, spec: Spec, component: int) -> Any:
    """The values of one component stacked along a new first axis (same shapes required)."""
    first = np.shape(values[0])
    for i, v in enumerate(values):
        if np.shape(v) != first:
            raise errors.InvalidArgumentError(
                None, None, f"Cannot batch tensors with different shapes in component {component}. First "
                            f"element had shape {list(first)} and element {i} had shape {list(np.shape(v))}.")
    if spec.dtype is _dt.string:
        out = np.empty((len(values), *first), dtype=object)
        for i, v in enumerate(values):
            out[i] = v
        return out
    return np.stack(values)


class Batch(Node):
    """``batch(batch_size, drop_remainder)``: ``batch_size`` consecutive elements stacked per component."""

    def __init__(self, node: Node, batch_size: int, drop_remainder: bool) -> None:
        self.inputs, self.size, self.drop = (node,), check_count(batch_size, "batch_size"), bool(drop_remainder)
        self.spec = pack_as(node.spec, [_batched(s, self.size if self.drop else None) for s in node.flat_spec])

    def elements(self, env: Env) -> Iterator[Element]:
        specs = self.inputs[0].flat_spec
        pending: list[Element] = []
        for element in self.inputs[0].elements(env):
            pending.append(element)
            if len(pending) == self.size:
                yield self._stack(pending, specs)
                pending = []
        if pending and not self.drop:
            yield self._stack(pending, specs)

    @staticmethod
    def _stack(elements: list[Element], specs: list[Spec]) -> Element:
        first = elements[0]
        if isinstance(first, Row) and all(type(e) is Row and e.source is first.source for e in elements):
            rows = np.array([e.row for e in elements if isinstance(e, Row)])   # rows of one source
            return [np.asarray(v)[rows] for v in first.source]
        return [_stack([e[c] for e in elements], spec, c) for c, spec in enumerate(specs)]


class PaddedBatch(Node):
    """``padded_batch(batch_size, padded_shapes, padding_values, drop_remainder)``: each component padded
    at the end of every dimension to ``padded_shapes`` (None / -1: the batch's longest)."""

    def __init__(self, node: Node, batch_size: int, padded_shapes: Any, padding_values: Any,
                 drop_remainder: bool) -> None:
        self.inputs, self.size, self.drop = (node,), check_count(batch_size, "batch_size"), bool(drop_remainder)
        specs = node.flat_spec
        if padded_shapes is None:
            shapes = [s.shape for s in specs]
            if any(s.sizes is None for s in shapes):
                raise ValueError("padded_batch needs padded_shapes for components of unknown rank")
        else:
            shapes = [TensorShape([None if d == -1 else d for d in _sizes(p)]) for p in
                      _flat_like(node.spec, padded_shapes, "padded_shapes")]
        for s, p in zip(specs, shapes, strict=True):
            if s.shape.sizes is not None and len(s.shape.sizes) != len(p.sizes or ()):
                raise ValueError(f"padded_shapes {p} does not have the rank of the component's shape {s.shape}")
        self.shapes = shapes
        if padding_values is None:
            self.pads = [b"" if s.dtype is _dt.string else s.dtype.np.type(0) for s in specs]
        else:
            self.pads = [np.asarray(v, dtype=object if s.dtype is _dt.string else s.dtype.np)[()] for v, s in
                         zip(_flat_like(node.spec, padding_values, "padding_values"), specs, strict=True)]
        self.spec = pack_as(node.spec, [_batched(Spec(s.dtype, p), self.size if self.drop else None)
                                        for s, p in zip(specs, shapes, strict=True)])

    def elements(self, env: Env) -> Iterator[Element]:
        pending: list[Element] = []
        for element in self.inputs[0].elements(env):
            pending.append(element)
            if len(pending) == self.size:
                yield self._pad(pending)
                pending = []
        if pending and not self.drop:
            yield self._pad(pending)

    def _pad(self, elements: list[Element]) -> Element:
        out = []
        for c, (shape, pad) in enumerate(zip(self.shapes, self.pads, strict=True)):
            values = [np.asarray(e[c]) for e in elements]
            longest = np.max([v.shape for v in values], axis=0) if values[0].ndim else ()
            target = tuple(int(m) if d is None else int(d) for d, m in zip(shape.sizes or (), np.atleast_1d(longest),
                                                                             strict=False))
            for v in values:
                if any(n > t for n, t in zip(v.shape, target, strict=True)):
                    raise errors.InvalidArgumentError(
                        None, None, f"Attempted to pad to a smaller size than the input element: component {c} "
                                    f"has shape {list(v.shape)}, padded shape {target}")
            batch = np.full((len(values), *target), pad, dtype=object if isinstance(pad, bytes) else values[0].dtype)
            for i, v in enumerate(values):
                batch[i][tuple(slice(0, n) for n in v.shape)] = v
            out.append(batch)
        return out


def _sizes(shape: Any) -> Sequence:
    return list(TensorShape(shape).sizes or ()) if not isinstance(shape, (list, tuple)) else shape


def _flat_like(spec: Any, value: Any, what: str) -> list:
    """``value`` (one entry per component, nested as the element) flattened; a single entry for a
    one-component element."""
    if not isinstance(spec, (tuple, dict)):
        return [value]
    flat = flatten(value)
    if len(flat) != len(flatten(spec)):
        raise ValueError(f"{what} {value!r} does not match the element structure {spec}")
    return flat


class Unbatch(Node):
    """``unbatch()``: each element split along its first dimension into elements."""

    def __init__(self, node: Node) -> None:
        specs = node.flat_spec
        if any(s.shape.sizes == () for s in specs):
            raise ValueError("unbatch needs elements whose components have a first dimension")
        self.inputs = (node,)
        self.spec = pack_as(node.spec, [Spec(s.dtype, TensorShape(None if s.shape.sizes is None
                                                                  else s.shape.sizes[1:])) for s in specs])

    def elements(self, env: Env) -> Iterator[Element]:
        for element in self.inputs[0].elements(env):
            sizes = {len(v) for v in element}
            if len(sizes) > 1:
                raise errors.InvalidArgumentError(None, None, f"unbatch: components' first dimensions differ: "
                                                              f"{sorted(sizes)}")
            for i in range(sizes.pop()):
                yield [v[i] for v in element]
