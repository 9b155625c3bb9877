"""``tf.group``, ``tf.no_op``, ``tf.tuple``: ops that only order or bundle other ops."""
from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from ..primitives.state import NO_OP
from ..ssa.graph import Operation, get_default_graph
from .array_ops import identity
from .convert import convert_to_tensor

__all__ = ["no_op", "group", "tuple"]


def no_op(name: str | None = None) -> Operation:
    """An op that does nothing (a place to hang control dependencies)."""
    return get_default_graph().create_op(NO_OP, [], None, name or "NoOp")


def group(*inputs: Any, name: str | None = None) -> Operation:
    """An op that runs all ``inputs`` (tensors or ops, nested lists allowed)."""
    flat: list = []
    stack = list(reversed(inputs))
    while stack:
        item = stack.pop()
        if isinstance(item, (list, builtins.tuple)):
            stack.extend(reversed(item))
        elif item is not None:
            flat.append(item)
    graph = flat[0].graph if flat else get_default_graph()
    with graph.control_dependencies(flat):
        return graph.create_op(NO_OP, [], None, name or "group_deps")


def tuple(tensors: Sequence[Any], name: str | None = None, control_inputs: Any = None) -> list:
    """The same tensors, each available only after all of them (and ``control_inputs``) are."""
    values = [None if t is None else convert_to_tensor(t) for t in tensors]
    graph = get_default_graph()
    gate = group(*[v for v in values if v is not None], *(control_inputs or []), name=name or "tuple")
    with graph.control_dependencies([gate]):
        return [None if v is None else identity(v) for v in values]


