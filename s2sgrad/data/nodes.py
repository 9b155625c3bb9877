"""The pipeline's nodes: what a dataset is once its Python object is stripped away.

A node has the spec of its elements (a structure of ``Spec``), its input nodes, the graph tensors
it reads itself (``own_captured``) and ``elements(env)``, a generator of flat elements (lists of
NumPy values, one per component). Sources live here; transformations in ``transforms.py`` and
``batching.py``.
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .. import errors
from ..ops.convert import convert_to_tensor
from ..shapes import TensorShape
from ..ssa.graph import Tensor
from .functions import PARAM_ATTR, Env, captured_placeholders, free_placeholders
from .structure import Spec, flatten, map_structure, most_specific, pack_as, same_structure

__all__ = ["Node", "Row", "TensorSlices", "Tensors", "Range", "Zip", "Concatenate", "Generator", "as_value"]

Element = Sequence   # one value per component


class Node:
    """A dataset's pipeline node (see the module docstring)."""

    spec: Any = None
    inputs: tuple[Node, ...] = ()
    own_captured: tuple[Tensor, ...] = ()   # the graph tensors the node reads
    free: Sequence[Tensor] = ()             # the placeholders they depend on

    def captured(self) -> list[Tensor]:
        """Every graph tensor this pipeline reads when an iterator starts (own, inputs', functions');
        for tensors computed from an enclosing function's element, the user's placeholders they read."""
        if any(p.op.attrs.get(PARAM_ATTR) for p in self.free):
            found = captured_placeholders(self.own_captured)
        else:
            found = list(self.own_captured)
        for f in self.functions():
            found += f.captured()
        for node in self.inputs:
            found += node.captured()
        return list(dict.fromkeys(found))

    def functions(self) -> list:
        return []

    def over(self, node: Node) -> Node:
        """This transformation applied to ``node`` instead (one that only reorders, drops or repeats
        elements, whose spec is its input's)."""
        moved = copy.copy(self)
        moved.inputs, moved.spec = (node,), node.spec
        return moved

    def elements(self, env: Env) -> Iterator[Element]:
        raise NotImplementedError

    @property
    def flat_spec(self) -> list[Spec]:
        return flatten(self.spec)


class Row(Sequence):
    """An element that is row ``row`` of the arrays ``source`` (from_tensor_slices), its components made
    when read: a batch of rows of one source is one fancy index per component, not a stack of views."""

    __slots__ = ("source", "row")

    def __init__(self, source: list, row: int) -> None:
        self.source, self.row = source, row

    def __len__(self) -> int:
        return len(self.source)

    def __getitem__(self, c: Any) -> Any:
        if isinstance(c, slice):
            return [v[self.row] for v in self.source[c]]
        return self.source[c][self.row]

    def __iter__(self) -> Iterator[Any]:
        i = self.row
        return iter([v[i] for v in self.source])


def as_value(value: Any, spec: Spec, what: str) -> Any:
    """``value`` as a NumPy value of ``spec``'s dtype (bytes for a string scalar); InvalidArgumentError
    naming ``what`` when it does not convert or its shape does not fit."""
    try:
        if spec.dtype is _dt.string:
            array = np.array(value, dtype=object)
            array = np.vectorize(_as_bytes, otypes=[object])(array) if array.size else array
            out: Any = array[()] if array.ndim == 0 else array
        else:
            array = np.asarray(value, dtype=spec.dtype.np)
            out = array
    except (TypeError, ValueError) as e:
        raise errors.InvalidArgumentError(None, None, f"{what}: cannot convert {value!r} to "
                                                      f"{spec.dtype.name}: {e}") from None
    if not spec.shape.is_compatible_with(array.shape):
        raise errors.InvalidArgumentError(None, None, f"{what}: expected a value of shape {spec.shape}, "
                                                      f"got shape {list(array.shape)}")
    return out


def _as_bytes(v: Any) -> bytes:
    return v.encode() if isinstance(v, str) else bytes(v)


class TensorSlices(Node):
    """``from_tensor_slices``: element i is row i of every component."""

    def __init__(self, structure: Any) -> None:
        tensors = flatten(structure)
        sizes = {t.shape.sizes[0] if t.shape.sizes else None for t in tensors}
        if any(t.shape.sizes == () for t in tensors):
            raise ValueError("from_tensor_slices needs components of rank 1 or more, got a scalar")
        known = sorted(size for size in sizes if size is not None)
        if len(known) > 1:
            raise ValueError(f"Dimensions {known} of the components of from_tensor_slices differ "
                             f"in their first dimension")
        self.own_captured = tuple(tensors)
        self.free = free_placeholders(tensors)
        self.spec = map_structure(lambda t: Spec(t.dtype, TensorShape(None if t.shape.sizes is None
                                                                      else t.shape.sizes[1:])), structure)

    def elements(self, env: Env) -> Iterator[Element]:
        values = env.values(self.own_captured, self.free)
        sizes = {len(v) for v in values}
        if len(sizes) > 1:
            raise errors.InvalidArgumentError(None, None, f"from_tensor_slices: the components' first "
                                                          f"dimensions differ: {sorted(sizes)}")
        for i in range(sizes.pop() if sizes else 0):
            yield Row(values, i)


class Tensors(Node):
    """``from_tensors``: one element, the whole value."""

    def __init__(self, structure: Any) -> None:
        tensors = flatten(structure)
        self.own_captured = tuple(tensors)
        self.free = free_placeholders(tensors)
        self.spec = map_structure(lambda t: Spec(t.dtype, t.shape), structure)

    def elements(self, env: Env) -> Iterator[Element]:
        yield list(env.values(self.own_captured, self.free))


class Range(Node):
    """``range(start, stop, step)`` of int64 scalars (or ``output_type``); the bounds may be tensors."""

    def __init__(self, args: Sequence[Any], dtype: _dt.DType) -> None:
        if not 1 <= len(args) <= 3:
            raise TypeError(f"Dataset.range expects 1 to 3 arguments (start, stop, step), got {tuple(args)!r}")
        bounds: list = []
        for a in args:
            if isinstance(a, Tensor) or hasattr(a, "_as_graph_element"):
                t = convert_to_tensor(a)
                if not t.dtype.is_integer or t.shape.sizes not in ((), None):
                    raise TypeError(f"Dataset.range's arguments must be integer scalars, got {t}")
                bounds.append(t)
            elif isinstance(a, (int, np.integer)) and not isinstance(a, bool):
                bounds.append(int(a))
            else:
                raise TypeError(f"Dataset.range's arguments must be integers, got {a!r}")
        if not any(isinstance(b, Tensor) for b in bounds) and bounds[-1] == 0 and len(bounds) == 3:
            raise ValueError("Dataset.range's step must not be zero")
        self.bounds = bounds
        self.own_captured = tuple(b for b in bounds if isinstance(b, Tensor))
        self.free = free_placeholders(list(self.own_captured))
        self.dtype = dtype
        self.spec = Spec(dtype, TensorShape([]))

    def elements(self, env: Env) -> Iterator[Element]:
        known = iter(env.values(self.own_captured, self.free) if self.own_captured else [])
        bounds = [int(next(known)) if isinstance(b, Tensor) else b for b in self.bounds]
        if len(bounds) == 3 and bounds[2] == 0:
            raise errors.InvalidArgumentError(None, None, "Dataset.range's step must not be zero")
        scalar = self.dtype.np.type
        for i in range(*bounds):
            yield [scalar(i)]


class Zip(Node):
    """``zip``: tuples of the inputs' elements, as long as the shortest input."""

    def __init__(self, structure: Any, nodes: list[Node]) -> None:
        self.inputs = tuple(nodes)
        self.structure = structure
        self.spec = pack_as(structure, [n.spec for n in nodes])

    def elements(self, env: Env) -> Iterator[Element]:
        for parts in zip(*(n.elements(env) for n in self.inputs), strict=False):  # the shortest ends it
            yield [v for part in parts for v in part]


class Concatenate(Node):
    """``concatenate``: one input's elements, then the other's."""

    def __init__(self, first: Node, second: Node) -> None:
        a, b = first.flat_spec, second.flat_spec
        if not same_structure(first.spec, second.spec) or [s.dtype for s in a] != [s.dtype for s in b]:
            raise TypeError(f"Datasets to concatenate have different structures or types: {first.spec} and "
                            f"{second.spec}")
        self.inputs = (first, second)
        self.spec = pack_as(first.spec, [Spec(x.dtype, most_specific(x.shape, y.shape)) for x, y in
                                         zip(a, b, strict=True)])

    def elements(self, env: Env) -> Iterator[Element]:
        for node in self.inputs:
            yield from node.elements(env)


class Generator(Node):
    """``from_generator``: the elements a Python generator yields, checked against the declared specs."""

    def __init__(self, generator: Callable, spec: Any, args: tuple) -> None:
        if not callable(generator):
            raise TypeError(f"from_generator expects a callable, got {generator!r}")
        self.generator, self.spec, self.args = generator, spec, args

    def elements(self, env: Env) -> Iterator[Element]:
        specs = self.flat_spec
        for item in self.generator(*self.args):
            if isinstance(item, list) and isinstance(self.spec, tuple):
                item = tuple(item)
            flat = flatten(item) if isinstance(self.spec, (tuple, dict)) else [item]
            if len(flat) != len(specs):
                raise errors.InvalidArgumentError(
                    None, None, f"from_generator: the generator yielded {item!r}, which does not match the "
                                f"declared structure {self.spec}")
            yield [as_value(v, s, "from_generator") for v, s in zip(flat, specs, strict=True)]
