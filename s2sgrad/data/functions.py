"""The functions a dataset applies (``map``, ``filter``, ``flat_map``...), traced into the graph.

A ``Function`` calls the user's Python function once, when the transformation is made, on
placeholders shaped like the input element (the *parameters*), so its output types and shapes are
known and its ops are in the IR. The pipeline evaluates it per element with the session's
``run``, feeding the parameters. ``apply`` calls the Python function again on other tensors: the
iterator does that for the maps it moves into the graph (see ``docs/design.md``, "tf.data").

``Env`` is what a running pipeline reads: the session, the values bound to graph tensors (the
dataset's captured tensors, the parameters of enclosing functions) and per-iterator state.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..codegen.lower import needed_ops
from ..ops.convert import convert_to_tensor
from ..ops.creation import placeholder
from ..primitives.state import PLACEHOLDER
from ..ssa.graph import Tensor, name_scope
from .structure import Spec, flatten, is_nested, pack_as

__all__ = ["Function", "Env", "free_placeholders", "call_user"]

PARAM_ATTR = "_dataset_parameter"   # marks the placeholders that stand for a function's element


def free_placeholders(tensors: Sequence[Tensor]) -> list[Tensor]:
    """The placeholders ``tensors`` depend on: those a run computing them must be fed."""
    ops = needed_ops(list(tensors), [], set(), check_feeds=False)
    return [op.outputs[0] for op in ops if op.prim is PLACEHOLDER]


def captured_placeholders(tensors: Sequence[Tensor]) -> list[Tensor]:
    """The user's placeholders ``tensors`` depend on (not dataset function parameters): a dataset
    captures them, so its iterator's initializer is fed them."""
    return [t for t in free_placeholders(tensors) if not t.op.attrs.get(PARAM_ATTR)]


def call_user(fn: Callable, args: Any) -> Any:
    """Call ``fn`` on an element as tf.data does: a plain tuple is spread over the arguments."""
    return fn(*args) if type(args) is tuple else fn(args)


class Function:
    """A user function of a dataset element, traced on parameters of the element's specs."""

    def __init__(self, fn: Callable, element_spec: Any, what: str, keep_dataset: bool = False) -> None:
        if not callable(fn):
            raise TypeError(f"{what} expects a callable, got {fn!r}")
        self.fn, self.what = fn, what
        with name_scope(what):
            self.params = [placeholder(s.dtype, s.shape, name="element") for s in flatten(element_spec)]
        for p in self.params:
            p.op.attrs[PARAM_ATTR] = True
        self.element_spec = element_spec
        result = call_user(fn, pack_as(element_spec, self.params))
        self.dataset: Any = None
        if keep_dataset:   # flat_map, interleave: the function returns a dataset
            node = getattr(result, "_node", None)
            if node is None:
                raise TypeError(f"The function passed to {what} must return a Dataset, got {result!r}")
            self.dataset = node
            self.outputs: list[Tensor] = []
            self.structure: Any = None
            self.free: list[Tensor] = []
            self.outer: list[Tensor] = []
            return
        self.structure = _as_structure(result)
        self.outputs = [convert_to_tensor(v) for v in flatten(self.structure)]
        self.structure = pack_as(self.structure, self.outputs)
        self.free = free_placeholders(self.outputs)
        self.outer = [p for p in self.free if all(p is not q for q in self.params)]   # read, not the element

    @property
    def output_spec(self) -> Any:
        return pack_as(self.structure, [Spec(t.dtype, t.shape) for t in self.outputs])

    def captured(self) -> list[Tensor]:
        """The user's placeholders the function reads (its dataset captures them)."""
        if self.dataset is not None:
            return self.dataset.captured()
        return captured_placeholders(self.outputs)

    def apply(self, element: Any) -> Any:
        """The function's result structure for ``element`` (a structure of tensors), traced again."""
        result = _as_structure(call_user(self.fn, element))
        return pack_as(result, [convert_to_tensor(v) for v in flatten(result)])


def _as_structure(result: Any) -> Any:
    """A function's result as a structure: lists are tuples, as tf.data reads them."""
    if isinstance(result, list):
        return tuple(_as_structure(v) for v in result)
    if isinstance(result, dict):
        return type(result)((k, _as_structure(v)) for k, v in result.items())
    if is_nested(result) and not hasattr(result, "_fields"):
        return tuple(_as_structure(v) for v in result)
    return result


class Env:
    """A running pipeline's view of the session: its runs, bound tensor values, per-iterator state
    (``state[fn, bound placeholders]`` caches a function's ``make_callable``)."""

    def __init__(self, session: Any, bindings: dict, state: dict) -> None:
        self.session, self.bindings, self.state = session, bindings, state

    def values(self, tensors: Sequence[Tensor], free: Sequence[Tensor]) -> list:
        """The values of ``tensors``: bound ones directly, else one run feeding the bound ``free``
        placeholders they depend on."""
        known = self.bindings
        if all(t in known for t in tensors):
            return [known[t] for t in tensors]
        return self.session.run(list(tensors), {p: known[p] for p in free if p in known})

    def call(self, fn: Function, element: Sequence) -> list:
        """``fn``'s flat outputs for a flat element."""
        if not fn.outputs:
            return []
        bound = tuple([p for p in fn.outer if p in self.bindings])
        step = self.state.get((fn, bound))
        if step is None:
            step = self.state[fn, bound] = self.session.make_callable(fn.outputs, fn.params + list(bound))
        return step(*element, *[self.bindings[p] for p in bound])

    def bind(self, tensors: Sequence[Tensor], values: Sequence[Any]) -> Env:
        """This env with ``tensors`` bound to ``values`` too (a nested dataset of ``flat_map``)."""
        return Env(self.session, {**self.bindings, **dict(zip(tensors, values, strict=True))}, self.state)
