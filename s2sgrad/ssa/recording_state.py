"""A graph's recording state: per-thread scope, control inputs, gradient context and location,
the ``with`` objects that set them (classes, not generators: ``tf.gradients`` enters thousands),
and TensorFlow's rules for op and scope names."""
from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..platform.devices import Placement
from .nodes import Operation
from .regions import Region

if TYPE_CHECKING:  # the type only: the graph uses these
    from .graph import Graph

__all__ = ["ThreadState", "PerThread", "Recording", "NameScope", "GradientScope", "exact_name", "invalid_name",
           "EXACT_NAMES", "NAME_UNCHECKED"]

VALID_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
VALID_SCOPE = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")


class ThreadState:
    """One thread's recording state (plain slots: ``create_op`` reads several fields per op, and a
    ``threading.local`` attribute costs ten times a slot)."""

    __slots__ = ("scope", "control", "grad_of", "location", "placement", "region", "foreign_reads")

    def __init__(self) -> None:
        self.scope = ""
        self.control: list[Operation] = []
        self.grad_of: Operation | None = None
        self.location: tuple | None = None     # fixed user location for ops made meanwhile
        self.placement = Placement()           # tf.device / tf.colocate_with scopes
        self.region: Region | None = None      # the control-flow block being recorded
        self.foreign_reads = False             # gradients of blocks may read their forward blocks


class PerThread(threading.local):
    """Each thread's ``ThreadState``, as ``.state``: one thread-local read, then slots."""

    def __init__(self) -> None:
        self.state = ThreadState()


class Recording:
    """``with``: one field of a thread's recording state set for the block (a class, not a
    generator: ``tf.gradients`` enters thousands of these)."""

    __slots__ = ("local", "field", "value", "old")

    def __init__(self, local: PerThread, field: str, value: object) -> None:
        self.local, self.field, self.value = local, field, value

    def __enter__(self) -> None:
        state = self.local.state
        self.old = getattr(state, self.field)
        setattr(state, self.field, self.value)

    def __exit__(self, *exc: object) -> None:
        setattr(self.local.state, self.field, self.old)


class NameScope:
    """``with graph.name_scope(name) as scope:`` (a class, not a generator: ``tf.gradients`` opens
    one per op it differentiates)."""

    __slots__ = ("graph", "name", "old")

    def __init__(self, graph: Graph, name: str | None) -> None:
        self.graph, self.name = graph, name

    def __enter__(self) -> str:
        graph, name = self.graph, self.name
        old = self.old = graph._local.state.scope
        pattern = VALID_SCOPE if old else VALID_NAME  # as TF: a top-level scope is spelled like an op
        if name is not None and (type(name) is not str or name and not pattern.match(name)):
            raise invalid_name(name, "scope", first_char=not old)
        if not name:
            new = ""
        elif name.endswith("/"):
            new = name[:-1]
        else:
            with graph._lock:  # two threads opening scope "a" get "a" and "a_1"
                new = graph.unique_name(name)
        graph._local.state.scope = new
        return new + "/" if new else ""

    def __exit__(self, *exc: object) -> None:
        self.graph._local.state.scope = self.old


class GradientScope:
    """``scope.call(rule, op, needed, out_grads)``: a gradient rule run in the name scope ``<op>_grad``,
    the ops it makes recorded as parts of ``op``'s gradient. It serves the thread that made it
    (``tf.gradients`` makes one per walk and calls every rule through it), so it reads that thread's
    state once; one call, not a ``with`` (its enter and exit are two calls per op differentiated)."""

    __slots__ = ("graph", "local")

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.local = graph._local.state

    def call(self, rule: Callable[..., Any], op: Operation, needed: tuple, out_grads: list) -> Any:
        """``rule(op, needed, *out_grads)`` in ``op``'s gradient scope."""
        graph = self.graph
        local = self.local
        scope, grad_of = local.scope, local.grad_of
        lock = graph._lock
        lock.acquire()
        try:  # an op's name needs no check as a scope name: it is made of checked names and scopes
            local.scope = graph._unique_name(scope, op.name + "_grad")
        finally:
            lock.release()
        local.grad_of = op
        try:
            return rule(op, needed, *out_grads)
        finally:
            local.scope, local.grad_of = scope, grad_of


NAME_UNCHECKED: Any = object()
# op names seen valid -> the exact name they ask for ('a/' asks for 'a', unsuffixed) or None: an op
# name is checked and read once per op, and programs reuse a few names ("mul", "Const"...)
EXACT_NAMES: dict[str, str | None] = {}


def exact_name(name: Any) -> str | None:
    """For an op's ``name`` (not None): the exact name it asks for ('a/': 'a', no suffix added), or None
    (a name to make unique); TypeError or ValueError when it is not a valid node name."""
    if type(name) is not str or name and VALID_NAME.match(name) is None:
        raise invalid_name(name, "node", first_char=True)
    exact = name[:-1] if name and name[-1] == "/" else None
    if len(EXACT_NAMES) >= 4096:   # bounded: names like "layer_17/" come and go
        EXACT_NAMES.clear()
    EXACT_NAMES[name] = exact
    return exact


def invalid_name(name: Any, kind: str, first_char: bool) -> Exception:
    """TypeError for a name that is not a string, ValueError for characters TF does not allow."""
    if not isinstance(name, str):
        return TypeError(f"A {kind} name must be a string, got {name!r} of type {type(name).__name__}")
    rule = "letters, digits and . _ - > \\ /" + (", starting with a letter, digit or ." if first_char else "")
    return ValueError(f"{name!r} is not a valid {kind} name (use {rule})")
