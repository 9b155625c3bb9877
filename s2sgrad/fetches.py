"""Fetch structures: flatten ``sess.run``'s nested fetches to graph elements and rebuild results."""
from __future__ import annotations

from typing import Any, Callable

from .graph import Graph, Operation, Tensor
from .ops.indexed_slices import IndexedSlices, IndexedSlicesValue

__all__ = ["FetchStructure", "fetch_key"]


def fetch_key(fetches: Any) -> Any:
    """A hashable key for a fetch structure (cheap for the common flat list/tuple/tensor)."""
    kind = type(fetches)
    if kind is list or kind is tuple:
        key = (kind, *fetches)
        try:
            hash(key)
            return key
        except TypeError:
            return _freeze(fetches)
    if kind is dict:
        return _freeze(fetches)
    try:
        hash(fetches)
        return fetches
    except TypeError:
        return _freeze(fetches)


def _freeze(fetches: Any) -> Any:
    if isinstance(fetches, dict):
        return (type(fetches), tuple((k, _freeze(v)) for k, v in fetches.items()))
    if isinstance(fetches, (list, tuple)):
        return (type(fetches), tuple(_freeze(v) for v in fetches))
    return fetches


class FetchStructure:
    """The unique tensors/ops to compute for ``fetches`` and how to rebuild the user's structure."""

    def __init__(self, graph: Graph, fetches: Any) -> None:
        self.tensors: list[Tensor] = []
        self.ops: list[Operation] = []
        self._tensor_index: dict[Tensor, int] = {}
        self.rebuild: Callable[[list], Any] = self._build(graph, fetches)

    def _slot(self, t: Tensor) -> int:
        index = self._tensor_index.get(t)
        if index is None:
            index = self._tensor_index[t] = len(self.tensors)
            self.tensors.append(t)
        return index

    def _build(self, graph: Graph, fetch: Any) -> Callable[[list], Any]:
        if fetch is None:
            raise TypeError(f"Fetch argument None has invalid type {type(None)}")
        if isinstance(fetch, IndexedSlices):
            parts = [self._slot(graph.as_graph_element(t)) for t in (fetch.values, fetch.indices)]
            shape = self._slot(graph.as_graph_element(fetch.dense_shape)) if fetch.dense_shape is not None else None
            return lambda vals: IndexedSlicesValue(vals[parts[0]], vals[parts[1]],
                                                   None if shape is None else vals[shape])
        if isinstance(fetch, dict):
            keys = list(fetch)
            builders = [self._build(graph, fetch[k]) for k in keys]
            kind = type(fetch)
            return lambda vals: kind(zip(keys, (b(vals) for b in builders)))
        if isinstance(fetch, (list, tuple)):
            builders = [self._build(graph, f) for f in fetch]
            kind = type(fetch)
            if hasattr(fetch, "_fields"):  # namedtuple
                return lambda vals: kind(*(b(vals) for b in builders))
            return lambda vals: kind(b(vals) for b in builders)
        try:
            element = graph.as_graph_element(fetch)
        except TypeError:
            raise TypeError(f"Fetch argument {fetch!r} has invalid type {type(fetch)}, must be a string or Tensor. "
                            f"(Can not convert a {type(fetch).__name__} into a Tensor or Operation.)") from None
        except (KeyError, ValueError) as e:
            raise ValueError(f"Fetch argument {fetch!r} cannot be interpreted as a Tensor. ({e})") from None
        if isinstance(element, Operation):
            if element not in self.ops:
                self.ops.append(element)
            return lambda vals: None
        index = self._slot(element)
        return lambda vals: vals[index]
