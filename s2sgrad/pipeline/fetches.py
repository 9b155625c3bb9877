"""Fetch structures: flatten ``sess.run``'s nested fetches to graph elements and rebuild results."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..ops.indexed_slices import IndexedSlices, IndexedSlicesValue
from ..ssa.graph import Graph, Operation, Tensor

__all__ = ["FetchStructure", "fetch_key"]


def fetch_key(fetches: Any) -> Any:
    """``fetches`` with its lists, tuples and dicts frozen into tuples: hashable unless a leaf is not."""
    if isinstance(fetches, dict):
        return (type(fetches), tuple((k, fetch_key(v)) for k, v in fetches.items()))
    if isinstance(fetches, (list, tuple)):
        return (type(fetches), tuple(fetch_key(v) for v in fetches))
    return fetches


class FetchStructure:
    """The unique tensors/ops to compute for ``fetches`` and how to rebuild the user's structure."""

    def __init__(self, graph: Graph, fetches: Any) -> None:
        self.tensors: list[Tensor] = []
        self.ops: list[Operation] = []
        self._tensor_index: dict[Tensor, int] = {}
        # for one tensor or a flat list/tuple of tensors and ops: (None | list | tuple, slot per
        # fetch: its index in the fetched values, -1 for an op); the Session writes it out inline
        self.flat: tuple | None = self._flat(graph, fetches)
        # builds the user's structure from the list of fetched values
        self.rebuild: Callable[[list], Any] = _from_slots(*self.flat) if self.flat is not None \
            else self._build(graph, fetches)

    def _flat(self, graph: Graph, fetches: Any) -> tuple | None:
        kind = type(fetches)
        if kind is not list and kind is not tuple:
            if isinstance(fetches, (Tensor, str)) or hasattr(fetches, "_as_graph_element"):
                element = _element(graph, fetches)
                if isinstance(element, Tensor):
                    return (None, [self._add(element)])
            return None
        if not all(isinstance(f, (Tensor, Operation, str)) or hasattr(f, "_as_graph_element") for f in fetches):
            return None
        return (kind, [self._add(_element(graph, f)) for f in fetches])

    def _add(self, element: Tensor | Operation) -> int:
        """Record a fetched element: its index in the fetched values, or -1 for an op (fetched as None)."""
        if isinstance(element, Operation):
            if element not in self.ops:
                self.ops.append(element)
            return -1
        index = self._tensor_index.get(element)
        if index is None:
            index = self._tensor_index[element] = len(self.tensors)
            self.tensors.append(element)
        return index

    def _build(self, graph: Graph, fetch: Any) -> Callable[[list], Any]:
        if fetch is None:
            raise TypeError(f"Fetch argument None has invalid type {type(None)}")
        if isinstance(fetch, IndexedSlices):
            parts = [self._add(graph.as_graph_element(t)) for t in (fetch.values, fetch.indices)]
            shape = self._add(graph.as_graph_element(fetch.dense_shape)) if fetch.dense_shape is not None else None
            return lambda vals: IndexedSlicesValue(vals[parts[0]], vals[parts[1]],
                                                   None if shape is None else vals[shape])
        if isinstance(fetch, dict):
            keys = list(fetch)
            builders = [self._build(graph, fetch[k]) for k in keys]
            kind = type(fetch)
            return lambda vals: kind(zip(keys, (b(vals) for b in builders), strict=True))
        if isinstance(fetch, (list, tuple)):
            builders = [self._build(graph, f) for f in fetch]
            sequence = type(fetch)
            if hasattr(fetch, "_fields"):  # namedtuple
                return lambda vals: sequence(*(b(vals) for b in builders))
            return lambda vals: sequence(b(vals) for b in builders)
        index = self._add(_element(graph, fetch))
        return (lambda vals: vals[index]) if index >= 0 else (lambda vals: None)


def _from_slots(kind: type | None, slots: list) -> Callable[[list], Any]:
    if kind is None:
        index = slots[0]
        return lambda vals: vals[index]
    return lambda vals: kind([vals[s] if s >= 0 else None for s in slots])


def _element(graph: Graph, fetch: Any) -> Tensor | Operation:
    try:
        return graph.as_graph_element(fetch)
    except TypeError:
        raise TypeError(f"Fetch argument {fetch!r} has invalid type {type(fetch)}, must be a string or Tensor. "
                        f"(Can not convert a {type(fetch).__name__} into a Tensor or Operation.)") from None
    except (KeyError, ValueError) as e:
        raise ValueError(f"Fetch argument {fetch!r} cannot be interpreted as a Tensor. ({e})") from None
