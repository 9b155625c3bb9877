"""Readable, collision-free Python identifiers from user-chosen op names.

Whatever a user names an op or scope, the identifier is ASCII ``[a-z_][a-z0-9_]*``, never
a keyword, builtin or one of the generated module's own names, and never equal to
another identifier in the same module.
"""
from __future__ import annotations

import builtins
import functools
import keyword
import re
from typing import TYPE_CHECKING

from .program import Kind, Value
from .user_names import assigned_name

if TYPE_CHECKING:  # the type only: code generation reads the graph it is given
    from ..ssa.graph import Tensor

__all__ = ["identifier", "op_identifier", "value_name", "Namer", "INTERNAL_NAMES"]

INTERNAL_NAMES = frozenset({"np", "rt", "run", "_constants"})
_RESERVED = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins)) | INTERNAL_NAMES
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_INVALID = re.compile(r"[^a-z0-9_]+")
_GRADIENT_SCOPE = re.compile(r"^gradients(_\d+)?/")
_RUNS = re.compile(r"__+")
_SAFE = re.compile(r"(?!\d)[a-z0-9]+(?:_[a-z0-9]+)*")  # what ``identifier`` returns unchanged (up to _MAX_LEN)
_PLAIN = re.compile(r"[A-Za-z][a-z0-9]*(?:_[a-z0-9]+)*")  # what ``identifier`` only lower-cases (up to _MAX_LEN)
_MAX_LEN = 40
_LOOP_TYPES = frozenset({"While", "For", "StepRead"})  # ops whose values may be named after a loop's
_RNG = Kind.RNG  # as a global: an Enum member read off its class costs 5x more


@functools.lru_cache(maxsize=8192)
def identifier(text: str) -> str:
    """``'layer1/MatMul_1'`` -> ``'layer1_mat_mul_1'``; always a safe identifier (maybe reserved)."""
    if len(text) <= _MAX_LEN and _PLAIN.fullmatch(text):  # most op names: ``Tanh_5``, ``add``
        return text.lower()
    text = _CAMEL.sub("_", str(text)).lower()
    text = _INVALID.sub("_", text.replace("/", "_")).strip("_")
    text = _RUNS.sub("_", text)[:_MAX_LEN].rstrip("_")
    if not text:
        return "t"
    if text[0].isdigit():
        text = "t" + text
    return text


def op_identifier(op_name: str) -> str:
    """Identifier from the last two components of an op name: ``a/b/update_w/Mul`` -> ``update_w_mul``."""
    if "/" not in op_name:
        return identifier(op_name)
    if op_name.startswith("gradients"):
        op_name = _GRADIENT_SCOPE.sub("", op_name)
    return identifier("/".join(op_name.rsplit("/", 2)[-2:]))


class Namer:
    """Hands out unique identifiers: ``w``, ``w_1``, ``w_2``..."""

    def __init__(self, taken: frozenset = frozenset()) -> None:
        self._used: set[str] = set(taken)
        self._next: dict[str, int] = {}   # per base: the next suffix to try (keeps this O(1))
        self._bases: dict[str, str] = {}  # a base asked for -> the safe identifier it stands for

    def fresh(self, base: str) -> str:
        safe = self._bases.get(base)
        if safe is None:  # most bases were asked for before (``g_tanh``, ``g_tanh_1``...)
            safe = base if len(base) <= _MAX_LEN and _SAFE.fullmatch(base) else identifier(base)
            if safe in _RESERVED:
                safe += "_"
            self._bases[base] = safe
        base = safe
        name, i = base, self._next.get(base, 1)
        while name in self._used:
            name = f"{base}_{i}"
            i += 1
        self._next[base] = i
        self._used.add(name)
        return name


def _recorded(t: Tensor) -> Tensor | None:
    """The body tensor whose per-iteration record ``t`` is (an output of a loop), else None."""
    kept = t.op.attrs.get("_kept") if t.op.type in ("While", "For") else None
    if not kept:
        return None
    first = len(t.op.outputs) - len(kept)
    return kept[t.value_index - first] if t.value_index >= first else None


def _block_identifier(t: Tensor) -> str:
    """A body value's name in what records it: a loop variable's own name, else its op type."""
    op = t.op
    if op.type == "BlockParam":
        return identifier(op.attrs["label"])
    return identifier(re.sub(r"_\d+$", "", op.name.rsplit("/", 1)[-1]))


def value_name(v: Value) -> str:
    """The base name of a codegen Value: ``g_<x>`` for the gradient of x, ``new_<var>`` for an
    assigned value, ``rng_<op>`` for a random generator, ``<x>_t`` for a layout copy of x (a value
    with no tensor of its own), its label for another value with no tensor, else the user's
    variable or its op's name."""
    source = v.source
    if v.kind is _RNG and source is not None:
        return "rng_" + op_identifier(source.name)
    t = v.tensor
    if t is None:
        if v.label:
            return v.label
        return value_name(source) + "_t" if isinstance(source, Value) else "c"
    primal = t.op.graph.primal_of(t)
    if primal is not None:
        return "g_" + _tensor_identifier(primal)
    if v.producer is not None and v.producer.prim.assigns:
        return "new_" + _tensor_identifier(v.producer.op.inputs[0])
    return _tensor_identifier(t)


def _tensor_identifier(t: Tensor) -> str:
    """Forward ops: the user's variable (``logits = ...``) or the last two scope components of
    the op name; gradient ops: their own last component. Loops: a loop variable is named as the
    user's loop function names it, a per-iteration record ``<value>_steps``, the trip count ``trips``."""
    op = t.op
    kind = op.type
    if kind in _LOOP_TYPES:
        recorded = _recorded(t)
        if recorded is not None:
            return _block_identifier(recorded) + "_steps"
        if kind == "While" and t.value_index == op.attrs["_n_vars"]:
            return "trips"
        if kind == "StepRead":
            source = _recorded(op.inputs[0])
            return _block_identifier(source) if source is not None else "step"
    if kind == "BlockParam":  # a loop variable: the name the user's loop function gives it
        summed = op.attrs.get("gradient_of")
        base = "g_" + _tensor_identifier(summed) if summed is not None else identifier(op.attrs["label"])
    elif op.grad_of is None:
        base = assigned_name(op) or op_identifier(op.name)
    else:
        base = identifier(op.name.rsplit("/", 1)[-1])
    return base if len(op.outputs) == 1 else f"{base}_{t.value_index}"
