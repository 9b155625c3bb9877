"""Iterators: ``get_next()`` ops whose values the Session feeds from the pipeline, and the ops that
start a pipeline (``initializer``, ``make_initializer``) or name it (``string_handle``).

An iterator's state lives in the session (``pipeline/host.py``: the session's ``resources``), keyed
by the iterator's handle: one session's position never moves another's. ``get_next()`` of an
iterator over a known dataset moves the dataset's last ``map``s (those after its last batch, filter,
cache...) into the graph: the pipeline feeds the element before them and the maps' ops consume it,
so they appear in the generated module of the step and are differentiable (``docs/design.md``,
"tf.data").
"""
from __future__ import annotations

import threading
from typing import Any

from .. import dtypes as _dt
from .. import errors
from ..ops.convert import convert_to_tensor
from ..primitives.data import ITERATOR_GET_NEXT, ITERATOR_TO_STRING_HANDLE, MAKE_ITERATOR
from ..shapes import TensorShape
from ..ssa.graph import Operation, Tensor, get_default_graph, name_scope
from .functions import Env
from .nodes import Node
from .structure import Spec, flatten, pack_as, same_structure
from .transforms import ORDER_ONLY, Map

__all__ = ["Iterator", "split_graph_maps", "spec_of", "element_types", "element_shapes", "element_classes"]

HANDLES = "dataset_handles"   # resources entry: string handle -> Iterator (registered by string_handle())


def split_graph_maps(node: Node) -> tuple[Node, list]:
    """The pipeline node the session feeds from and, in order, the map functions to apply in the graph:
    the maps above the last transformation that reads values (batch, filter, cache...). Maps commute
    with the transformations that only reorder, drop or repeat elements (shuffle, repeat, take, skip,
    prefetch), so those stay in the pipeline, below the maps."""
    chain = []
    while isinstance(node, (Map, *ORDER_ONLY)):
        chain.append(node)
        node = node.inputs[0]
    maps = [n.fn for n in reversed(chain) if isinstance(n, Map)]
    for n in reversed(chain):
        if not isinstance(n, Map):
            node = n.over(node)
    return node, maps


def element_types(spec: Any) -> Any:
    return pack_as(spec, [s.dtype for s in flatten(spec)])


def element_shapes(spec: Any) -> Any:
    return pack_as(spec, [s.shape for s in flatten(spec)])


def element_classes(spec: Any) -> Any:
    return pack_as(spec, [Tensor for _ in flatten(spec)])


class _State:
    """A started pipeline in one session: its element generator (one thread at a time advances it)."""

    def __init__(self, node: Node, session: Any, captured: list, values: list) -> None:
        self.env = Env(session, dict(zip(captured, values, strict=True)), {})
        self.elements = node.elements(self.env)
        self.lock = threading.Lock()

    def next(self) -> Any:
        with self.lock:
            return next(self.elements, None)


class _Start:
    """The host of a MakeIterator op: starts ``iterator`` on ``node`` with the captured values."""

    def __init__(self, iterator: Iterator, node: Node) -> None:
        self.iterator, self.node = iterator, node
        self.captured = node.captured()

    def consume(self, resources: dict, session: Any, values: list) -> None:
        resources[self.iterator.handle] = _State(self.node, session, self.captured, values)

    def __repr__(self) -> str:
        return f"<start {self.iterator.name}>"


class _Next:
    """The host of an IteratorGetNext op: the next element of the iterator's pipeline."""

    def __init__(self, iterator: Iterator | None, op_name: str) -> None:
        self.iterator, self.op_name = iterator, op_name

    def produce(self, resources: dict, session: Any, inputs: list) -> list:
        iterator = self.iterator
        if iterator is None:   # from_string_handle: the fed handle names the iterator
            handle = inputs[0]
            iterator = resources.get(HANDLES, {}).get(handle)
            if iterator is None:
                raise errors.InvalidArgumentError(None, None, f"{self.op_name}: {handle!r} is not the string "
                                                              f"handle of an iterator of this session")
        state = resources.get(iterator.handle)
        if state is None:
            if iterator.one_shot is None:
                raise errors.FailedPreconditionError(
                    None, None, f"GetNext() failed because the iterator {iterator.name} has not been initialized. "
                                "Ensure that you have run the initializer operation for this iterator before "
                                "getting the next element.")
            start = iterator.one_shot
            values = session.run(start.captured) if start.captured else []
            state = resources[iterator.handle] = _State(start.node, session, start.captured, values)
        element = state.next()
        if element is None:
            raise errors.OutOfRangeError(None, None, f"End of sequence (iterator {iterator.name}, op {self.op_name})")
        return element

    def __repr__(self) -> str:
        return f"<next of {self.iterator.name if self.iterator else 'a string handle'}>"


class _Handle:
    """The host of an IteratorToStringHandle op: registers the iterator under its handle."""

    def __init__(self, iterator: Iterator) -> None:
        self.iterator = iterator

    def produce(self, resources: dict, session: Any, inputs: list) -> list:
        resources.setdefault(HANDLES, {})[self.iterator.handle] = self.iterator
        return [self.iterator.handle]

    def __repr__(self) -> str:
        return f"<handle of {self.iterator.name}>"


class Iterator:
    """TF-1.x's ``tf.data.Iterator``: ``get_next()``, ``initializer``, ``make_initializer``,
    ``string_handle``, ``output_types`` / ``output_shapes`` / ``output_classes``."""

    def __init__(self, spec: Any, node: Node | None = None, one_shot: bool = False, name: str = "Iterator",
                 handle: Tensor | None = None) -> None:
        self.name = get_default_graph().unique_name(name)
        self.handle = f"s2sgrad-iterator:{self.name}".encode()
        self._handle_input = handle
        self._maps: list = []
        if node is not None:
            node, self._maps = split_graph_maps(node)
        self._node = node
        self._spec = spec                 # what get_next() returns
        self._pipeline_spec = node.spec if node is not None else spec   # what the session feeds
        self.one_shot = _Start(self, node) if one_shot and node is not None else None
        self._initializer: Operation | None = None

    # -- TF-1.x's constructors ---------------------------------------------------------------------
    @staticmethod
    def from_structure(output_types: Any, output_shapes: Any = None, shared_name: str | None = None,
                       output_classes: Any = None) -> Iterator:
        """An iterator of no dataset yet: ``make_initializer(dataset)`` starts it on one."""
        return Iterator(spec_of(output_types, output_shapes))

    @staticmethod
    def from_string_handle(string_handle: Any, output_types: Any, output_shapes: Any = None,
                           output_classes: Any = None) -> Iterator:
        """A feedable iterator: each run reads the iterator named by the fed ``string_handle``."""
        handle = convert_to_tensor(string_handle)
        if handle.dtype is not _dt.string:
            raise TypeError(f"string_handle must be a string tensor, got {handle.dtype.name}")
        return Iterator(spec_of(output_types, output_shapes), handle=handle)

    # -- the element spec ----------------------------------------------------------------------------
    @property
    def output_types(self) -> Any:
        return element_types(self._spec)

    @property
    def output_shapes(self) -> Any:
        return element_shapes(self._spec)

    @property
    def output_classes(self) -> Any:
        return element_classes(self._spec)

    @property
    def element_spec(self) -> Any:
        return self._spec

    # -- ops -----------------------------------------------------------------------------------------
    @property
    def initializer(self) -> Operation:
        """The op that (re)starts this iterator on its dataset (``make_initializable_iterator``)."""
        if self._node is None or self.one_shot is not None:
            raise ValueError(f"Iterator {self.name} does not have an initializer (it was not made by "
                             "make_initializable_iterator); use make_initializer(dataset)")
        if self._initializer is None:
            self._initializer = self._make_start(self._node)
        return self._initializer

    def make_initializer(self, dataset: Any, name: str | None = None) -> Operation:
        """An op that (re)starts this iterator on ``dataset`` (same structure and types)."""
        node = getattr(dataset, "_node", None)
        if node is None:
            raise TypeError(f"make_initializer expects a Dataset, got {dataset!r}")
        ours, theirs = self._pipeline_spec, node.spec
        if not same_structure(ours, theirs) or [s.dtype for s in flatten(ours)] != [s.dtype for s in flatten(theirs)]:
            raise TypeError(f"Expected output types {element_types(ours)} but got dataset with output types "
                            f"{element_types(theirs)}")
        for a, b in zip(flatten(ours), flatten(theirs), strict=True):
            if not a.shape.is_compatible_with(b.shape):
                raise TypeError(f"Expected output shapes compatible with {element_shapes(ours)} but got dataset "
                                f"with output shapes {element_shapes(theirs)}")
        return self._make_start(node, name)

    def _make_start(self, node: Node, name: str | None = None) -> Operation:
        host = _Start(self, node)
        return get_default_graph().create_op(MAKE_ITERATOR, host.captured, {"host": host}, name or "MakeIterator")

    def get_next(self, name: str | None = None) -> Any:
        """The next element, as the tensors of one IteratorGetNext op (the trailing maps applied on them)."""
        specs = flatten(self._pipeline_spec)
        inputs = [self._handle_input] if self._handle_input is not None else []
        graph = get_default_graph()
        op_name = graph.unique_name(name or "IteratorGetNext", mark_as_used=False)
        host = _Next(None if self._handle_input is not None else self, op_name)
        op = graph.create_op(ITERATOR_GET_NEXT, inputs,
                             {"output_types": tuple(s.dtype for s in specs),
                              "output_shapes": tuple(s.shape.sizes for s in specs), "host": host}, op_name)
        element = pack_as(self._pipeline_spec, list(op.outputs))
        with graph._at_location(op.location):   # the maps' ops compute what this statement assigns
            for fn in self._maps:
                with name_scope(fn.what):
                    element = fn.apply(element)
        return element

    def string_handle(self, name: str | None = None) -> Tensor:
        """A string scalar naming this iterator, for a feedable iterator's ``string_handle`` feed."""
        op = get_default_graph().create_op(ITERATOR_TO_STRING_HANDLE, [], {"host": _Handle(self)},
                                           name or "IteratorToStringHandle")
        return op.outputs[0]


def spec_of(output_types: Any, output_shapes: Any) -> Any:
    """The element spec from TF's ``output_types`` and ``output_shapes`` structures."""
    types = [_dt.as_dtype(t) for t in flatten(output_types)]
    if output_shapes is None:
        shapes: list = [None] * len(types)
    else:
        shapes = flatten(output_shapes) if isinstance(output_types, (tuple, dict)) else [output_shapes]
        if len(shapes) != len(types):
            raise ValueError(f"output_shapes {output_shapes!r} does not match output_types {output_types!r}")
    return pack_as(output_types, [Spec(t, TensorShape(s)) for t, s in zip(types, shapes, strict=True)])
