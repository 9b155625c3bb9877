"""The IR: a Graph of Operations whose output Tensors are SSA values, each defined once.

Ops are appended in creation order, and every input exists before its consumer, so the
creation order is a topological order: no pass ever needs to sort.
"""
from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..shapes import dims_text
from .nodes import GraphElement, Operation, Tensor, user_location  # re-exported
from .printer import format_ops
from .recording_state import EXACT_NAMES, NAME_UNCHECKED, GradientScope, NameScope, PerThread, Recording, exact_name
from .regions import Region, encloses

if TYPE_CHECKING:  # the type only: primitive declarations sit above the IR
    from ..primitives.core import Primitive

__all__ = [
    "Graph", "GraphElement", "Operation", "Tensor", "get_default_graph", "reset_default_graph",
    "name_scope", "control_dependencies", "device", "colocate_with", "user_location",
]

class Graph(GraphElement):
    """A TF-v1 graph: the SSA IR that programs are recorded into.

    >>> g = Graph()
    >>> with g.as_default(): pass
    """

    def __init__(self) -> None:
        self._ops: list[Operation] = []
        self._by_name: dict[str, Operation] = {}
        self._names_in_use: dict[str, int] = {}
        self._lock = threading.RLock()
        self._local = PerThread()
        self._collections: dict[str, list] = {}
        self._gradient_override_map: dict[str, str] = {}
        self._primals: dict[Tensor, Tensor] = {}  # adjoint -> primal, as ``tf.gradients`` summed them
        self.seed: int | None = None
        self._finalized = False

    # -- recording ------------------------------------------------------------------------------
    def create_op(self, prim: Primitive, inputs: Sequence[Tensor], attrs: dict | None = None,
                  name: str | None = None) -> Operation:
        """Append an op of primitive ``prim`` (its ``type`` is ``prim.name``); infers output dtypes
        and shapes or raises."""
        # Every op of every program comes through here: the common case (no scopes of blocks,
        # control dependencies, devices or gradient overrides in force) takes no detours.
        if attrs is None:
            attrs = {}
        inputs = tuple(inputs)
        local = self._local.state
        for t in inputs:
            if type(t) is not Tensor and not isinstance(t, Tensor):
                raise TypeError(f"{prim.name}: input {t!r} is not a Tensor")
            producer = t.op
            if producer.graph is not self:
                raise ValueError(f"Tensor {t.name} must be from the same graph as the {prim.name} op being created.")
            if producer.region is not None and not encloses(producer.region, local.region) \
                    and not local.foreign_reads:
                raise _outside_its_block(t, prim.name)
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")
        if name is None:
            exact = None
        else:   # (checked once per name: then a look-up)
            exact = EXACT_NAMES.get(name, NAME_UNCHECKED) if type(name) is str else NAME_UNCHECKED
            if exact is NAME_UNCHECKED:
                exact = exact_name(name)
        lock = self._lock
        lock.acquire()  # (a `with` costs twice as much, once per op)
        try:
            try:
                specs = prim.infer(inputs, attrs)
            except (ValueError, TypeError) as e:
                full_name = exact or self._unique_name(local.scope, name or prim.default_name, mark_as_used=False)
                shapes = ", ".join(dims_text(t.shape.sizes, "?") for t in inputs)
                raise type(e)(f"{e} for '{full_name}' (op: {prim.name}) with input shapes: {shapes}.") from None
            if exact is None:
                full_name = self._unique_name(local.scope, name or prim.default_name)
            elif exact in self._by_name:
                raise ValueError(f"Duplicate node name in graph: '{exact}'")
            else:
                full_name = exact
            if self._gradient_override_map:
                override = self._gradient_override_map.get(prim.name)
                if override is not None:
                    attrs = {**attrs, "_gradient_op_type": override}
            control: Sequence[Operation] = local.control
            if control:
                control = tuple(op for op in control if all(op is not t.op for t in inputs))
            region = local.region
            ops = self._ops
            op = Operation(self, full_name, prim, inputs, attrs, specs, control, local.location or user_location(2),
                           local.grad_of, region, len(ops))
            if region is not None:
                region.ops.append(op)
            placement = local.placement
            if placement.devices or placement.colocation:
                placement.assign(op)
            ops.append(op)
            self._by_name[full_name] = op
            for t in inputs:   # see Tensor._consumers: no list for a single reader
                readers = t._consumers
                if readers is None:
                    t._consumers = op
                elif isinstance(readers, list):
                    readers.append(op)
                else:
                    t._consumers = [readers, op]
        finally:
            lock.release()
        return op

    def unique_name(self, name: str, mark_as_used: bool = True) -> str:
        """``scope/name``, suffixed ``_1``, ``_2``... when taken (case-insensitively, as in TF)."""
        return self._unique_name(self._local.state.scope, name, mark_as_used)

    def _unique_name(self, scope: str, name: str, mark_as_used: bool = True) -> str:
        """``unique_name`` in ``scope`` (the thread's, which the caller has at hand)."""
        if scope:
            name = scope + "/" + name
        key = name.lower()
        in_use = self._names_in_use
        i = in_use.get(key, 0)
        if mark_as_used:
            in_use[key] = i + 1
        if i > 0:
            suffix = f"_{i}"
            candidate = key + suffix
            while candidate in in_use:
                i += 1
                suffix = f"_{i}"
                candidate = key + suffix
            if mark_as_used:
                in_use[candidate] = 1
            name += suffix
        return name

    # -- scopes -----------------------------------------------------------------------------------
    def name_scope(self, name: str | None) -> contextlib.AbstractContextManager[str]:
        """Push a name scope; ``'a/'`` re-enters an existing scope, None/'' resets to the root."""
        return NameScope(self, name)

    def get_name_scope(self) -> str:
        return self._local.state.scope

    @contextlib.contextmanager
    def control_dependencies(self, control_inputs: Iterable | None) -> Iterator[None]:
        """Ops created inside depend on ``control_inputs`` (None clears the dependencies)."""
        old = self._local.state.control
        if control_inputs is None:
            new: list[Operation] = []
        else:
            new = list(old)
            if not isinstance(control_inputs, Iterable):
                raise TypeError(f"control_inputs must be a list of Tensors or Operations, got {control_inputs!r}")
            for c in control_inputs:
                op = _as_op(c)
                if op.graph is not self:
                    raise ValueError(f"Control input {op.name} must be from the same graph.")
                if op not in new:
                    new.append(op)
        self._local.state.control = new
        try:
            yield
        finally:
            self._local.state.control = old

    def device(self, device_name_or_function: Any) -> Any:
        """``with g.device("/cpu:0"):`` ops created inside record the device (placement is a no-op)."""
        return self._local.state.placement.device(device_name_or_function)

    def colocate_with(self, op: Any, ignore_existing: bool = False) -> Any:
        """``with g.colocate_with(t):`` ops created inside record ``t``'s op as their colocation group."""
        target = None if op is None else _as_op(op, "the op to colocate with")
        return self._local.state.placement.colocate_with(target, ignore_existing)

    @contextlib.contextmanager
    def gradient_override_map(self, op_type_map: dict[str, str]) -> Iterator[None]:
        """Use the gradient registered under another name for ops of these types created inside."""
        for k, v in op_type_map.items():
            if not isinstance(k, str) or not isinstance(v, str):
                raise TypeError("gradient_override_map keys and values must be strings")
        saved = dict(self._gradient_override_map)
        self._gradient_override_map.update(op_type_map)
        try:
            yield
        finally:
            self._gradient_override_map = saved

    def _gradient_context(self, forward_op: Operation) -> contextlib.AbstractContextManager[None]:
        """Ops created inside belong to ``forward_op``'s gradient (for names and comments)."""
        return self._recording("grad_of", forward_op)

    def _gradient_scope(self) -> GradientScope:
        """Runs gradient rules in ``name_scope(op.name + "_grad")`` and ``_gradient_context(op)`` at once
        (``tf.gradients`` calls one per op it differentiates)."""
        return GradientScope(self)

    def _in_region(self, region: Region | None) -> contextlib.AbstractContextManager[None]:
        """Ops created inside are recorded into ``region`` (None: the top level)."""
        return self._recording("region", region)

    def _reading_other_blocks(self) -> contextlib.AbstractContextManager[None]:
        """Ops created inside may read tensors of blocks that do not enclose them (the gradient of
        a control-flow op, which then routes those reads through its forward op's outputs)."""
        return self._recording("foreign_reads", True)

    @contextlib.contextmanager
    def _outside_blocks(self) -> Iterator[None]:
        """Ops created inside go to the top level with no control dependencies (variables and their
        initializers made while a branch or loop body is being recorded, as TF's ``init_scope``)."""
        local = self._local.state
        saved = local.region, local.control
        local.region, local.control = None, []
        try:
            yield
        finally:
            local.region, local.control = saved

    def _current_region(self) -> Region | None:
        return self._local.state.region

    def _at_location(self, location: tuple) -> contextlib.AbstractContextManager[None]:
        """Ops created inside record ``location`` as the user code that made them (``tf.gradients``
        makes thousands of ops for one user line: no need to find it on the stack each time)."""
        return self._recording("location", location)

    def _recording(self, field: str, value: object) -> contextlib.AbstractContextManager[None]:
        """This thread's ``field`` of what new ops record is ``value`` inside the block."""
        return Recording(self._local, field, value)

    @contextlib.contextmanager
    def as_default(self) -> Iterator[Graph]:
        _graph_stack().append(self)
        try:
            yield self
        finally:
            _graph_stack().pop()

    def record_adjoint(self, adjoint: Tensor, primal: Tensor) -> None:
        """Note that ``adjoint`` is the (summed) gradient of ``primal``; the first record stands."""
        self._primals.setdefault(adjoint, primal)

    def primal_of(self, t: Tensor) -> Tensor | None:
        """The tensor whose gradient ``t`` is, when ``tf.gradients`` made ``t`` as one (else None)."""
        return self._primals.get(t)

    # -- queries ----------------------------------------------------------------------------------
    def get_operations(self) -> list[Operation]:
        return list(self._ops)

    def get_operation_by_name(self, name: str) -> Operation:
        if not isinstance(name, str):
            raise TypeError(f"Operation names are strings, got {name!r}")
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"The name {name!r} refers to an Operation not in the graph.") from None

    def get_tensor_by_name(self, name: str) -> Tensor:
        if not isinstance(name, str):
            raise TypeError(f"Tensor names are strings, got {name!r}")
        op_name, sep, index = name.rpartition(":")
        if not sep or not index.isdigit():
            raise ValueError(f"The name {name!r} looks like an (invalid) Operation name, not a Tensor. "
                             "Tensor names must be of the form \"<op_name>:<output_index>\".")
        op = self._by_name.get(op_name)
        if op is None:
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. "
                           f"The operation, {op_name!r}, does not exist in the graph.")
        if int(index) >= len(op.outputs):
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. The operation, "
                           f"{op_name!r}, exists but only has {len(op.outputs)} outputs.")
        return op.outputs[int(index)]

    def as_graph_element(self, obj: Any) -> Tensor | Operation:
        """Resolve a Tensor, Operation, Variable or ``'name'`` / ``'name:0'`` string in this graph."""
        if isinstance(obj, str):
            return self.get_tensor_by_name(obj) if ":" in obj else self.get_operation_by_name(obj)
        graph_element = getattr(obj, "_as_graph_element", None)
        if graph_element is not None:
            obj = graph_element()
        if isinstance(obj, (Tensor, Operation)):
            if obj.graph is not self:
                raise ValueError(f"{obj!r} is not an element of this graph.")
            return obj
        raise TypeError(f"Can not convert a {type(obj).__name__} into a Tensor or Operation.")

    def add_to_collection(self, key: str, value: Any) -> None:
        self._collections.setdefault(key, []).append(value)

    def get_collection_ref(self, key: str) -> list:
        """The collection ``key`` itself (created empty if new): appending to it adds to the collection."""
        return self._collections.setdefault(key, [])

    def get_collection(self, key: str, scope: str | None = None) -> list:
        items = list(self._collections.get(key, []))
        if scope is None:
            return items
        return [v for v in items if getattr(v, "name", "").startswith(scope)]

    def finalize(self) -> None:
        self._finalized = True

    @property
    def finalized(self) -> bool:
        return self._finalized

    @property
    def version(self) -> int:
        return len(self._ops)

    def __str__(self) -> str:
        return format_ops(op for op in self._ops if op.region is None)


def _outside_its_block(t: Tensor, op_type: str) -> ValueError:
    region = t.op.region
    owner = region.owner.name if region is not None and region.owner is not None else "a control-flow op"
    return ValueError(f"Tensor {t.name} was created inside a branch or loop body of '{owner}' and cannot be used "
                      f"by a {op_type} op outside it [created at {t.op.where}]; return it from the branch or "
                      "loop body instead.")


def _as_op(obj: Any, role: str = "a control input") -> Operation:
    graph_element = getattr(obj, "_as_graph_element", None)
    if graph_element is not None:
        obj = graph_element()
    if isinstance(obj, Operation):
        return obj
    if isinstance(obj, Tensor):
        return obj.op
    raise TypeError(f"Can not use {obj!r} as {role}: expected a Tensor or Operation.")


class _DefaultGraphs(threading.local):
    """Per thread, as in TF: a stack of ``as_default`` graphs over a global default graph."""

    def __init__(self) -> None:
        self.stack: list[Graph] = []
        self.global_graph: Graph | None = None


_defaults = _DefaultGraphs()


def _graph_stack() -> list[Graph]:
    return _defaults.stack


def get_default_graph() -> Graph:
    """The innermost ``as_default`` graph of this thread, else this thread's global graph."""
    if _defaults.stack:
        return _defaults.stack[-1]
    if _defaults.global_graph is None:
        _defaults.global_graph = Graph()
    return _defaults.global_graph


def reset_default_graph() -> None:
    """Replace this thread's global default graph with a new, empty one."""
    if _defaults.stack:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you need a "
                             "cleared graph, exit the nesting and create a new graph.")
    _defaults.global_graph = Graph()


def name_scope(name: str | None, default_name: str | None = None, values: Any = None) -> Any:
    """``with tf.name_scope('layer1'):`` in the default graph."""
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name_scope name must be a string or None, got {name!r}")
    return get_default_graph().name_scope(name if name is not None else default_name)


def control_dependencies(control_inputs: Iterable | None) -> Any:
    """``with tf.control_dependencies([op]):`` in the default graph."""
    return get_default_graph().control_dependencies(control_inputs)


def device(device_name_or_function: Any) -> Any:
    """``with tf.device("/gpu:0"):`` in the default graph: ops record the device string (a string,
    DeviceSpec, None to ignore outer scopes, or a function of the op); placement is a no-op."""
    return get_default_graph().device(device_name_or_function)


def colocate_with(op: Any, ignore_existing: bool = False) -> Any:
    """``with tf.colocate_with(t):`` in the default graph: ops record ``t``'s colocation group."""
    return get_default_graph().colocate_with(op, ignore_existing)
