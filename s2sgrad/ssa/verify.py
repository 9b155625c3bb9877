"""Check a Graph's invariants: SSA order, no dangling references, recorded specs as the rules say.

The IR layer's verifier. It knows nodes and graphs only; the shape/dtype rules come in as
``infer`` (``op -> [(dtype, shape), ...]``, from the primitive declarations above this layer),
so the check of recorded specs stays optional and the imports point down.

``verify_graph`` raises ``VerifyError`` naming the first broken op, its user line and what is wrong.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from ..shapes import TensorShape
from .nodes import Operation, Tensor
from .regions import Region, encloses

if TYPE_CHECKING:  # the type only: graph.py calls this module
    from .graph import Graph

__all__ = ["VerifyError", "check_specs", "verify_graph"]

Infer = Callable[[Operation], Sequence[tuple]]


class VerifyError(AssertionError):
    """An IR invariant does not hold (a compiler bug, not a user error)."""


def verify_graph(graph: Graph, ops: Iterable[Operation] | None = None, infer: Infer | None = None) -> None:
    """Check ``ops`` (default: all of ``graph``'s): each is the graph's op at its ``id``, its inputs
    and control inputs are outputs/ops of the same graph created before it (so every tensor is
    defined before use, once: by the op whose ``outputs`` hold it), its outputs point back to it,
    and, with ``infer``, its outputs' recorded dtypes equal the rule's and their shapes agree
    with the rule's, at least as specific (``set_shape`` may only refine)."""
    table = graph._ops
    for op in [op for op in table if op.region is None] if ops is None else ops:
        if op.graph is not graph or not 0 <= op.id < len(table) or table[op.id] is not op:
            raise VerifyError(f"{_what(op)} is not the op at its position {op.id} of this graph")
        for i, t in enumerate(op.inputs):
            _check_defined(op, t, f"input {i}")
        for c in op.control_inputs:
            if c.graph is not graph or not 0 <= c.id < op.id or table[c.id] is not c:
                raise VerifyError(f"{_what(op)}: control input '{c.name}' is not an earlier op of this graph")
        for i, t in enumerate(op.outputs):
            if t.op is not op or t.value_index != i:
                raise VerifyError(f"{_what(op)}: output {i} ({t.name}) does not point back to it")
        if infer is not None:
            specs = infer(op)
            check_specs(_what(op), [(t.dtype, t.shape) for t in op.outputs], specs)
        for region in op.attrs.get("_regions", ()):
            _check_region(op, region, infer)


def _check_region(owner: Operation, region: Region, infer: Infer | None) -> None:
    """A region's ops read only tensors bound before them in the region (its parameters first) or
    in the blocks enclosing it, each once defined; its results are bound; nested regions likewise."""
    if region.owner is not owner:
        raise VerifyError(f"{_what(owner)}: its {region.kind} region names another owner")
    bound: set[Tensor] = set()
    for t in region.params:
        if t.op.region is not region:
            raise VerifyError(f"{_what(owner)}: {region.kind} parameter {t.name} is not an op of the region")
        bound.add(t)
    for op in region.ops:
        if op.region is not region:
            raise VerifyError(f"{_what(op)} is listed in a {region.kind} region of '{owner.name}' it is not in")
        if op.type == "BlockParam":
            if op.outputs[0] not in region.params:
                raise VerifyError(f"{_what(op)} is a block parameter its region does not list")
            continue
        for i, t in enumerate(op.inputs):
            if t not in bound and not _visible(t, region):
                raise VerifyError(f"{_what(op)}: input {i} {t.name} is not bound before it in its block "
                                  f"({region.kind} of '{owner.name}')")
        for t in op.outputs:
            if t in bound:
                raise VerifyError(f"{_what(op)}: output {t.name} is bound twice")
            bound.add(t)
        if infer is not None:
            check_specs(_what(op), [(t.dtype, t.shape) for t in op.outputs], infer(op))
        for inner in op.attrs.get("_regions", ()):
            _check_region(op, inner, infer)
    for t in region.results:
        if t not in bound and not _visible(t, region):
            raise VerifyError(f"{_what(owner)}: {region.kind} result {t.name} is not bound in its block")


def _visible(t: Tensor, region: Region) -> bool:
    """``t`` is defined outside ``region``, by a block enclosing it (or the top level)."""
    producer = t.op.region
    return producer is not region and encloses(producer, region)


def check_specs(what: str, recorded: Sequence[tuple], inferred: Sequence[tuple]) -> None:
    """Recorded (dtype, shape) pairs against a rule's: same count and dtypes, and each recorded
    shape compatible with the rule's and knowing at least what the rule knows."""
    if len(recorded) != len(inferred):
        raise VerifyError(f"{what}: {len(recorded)} outputs recorded, its rule gives {len(inferred)}")
    for i, ((dtype, shape), (rule_dtype, rule_shape)) in enumerate(zip(recorded, inferred, strict=True)):
        rule_shape = TensorShape(rule_shape) if not isinstance(rule_shape, TensorShape) else rule_shape
        if dtype is not rule_dtype:
            raise VerifyError(f"{what}: output {i} recorded as {_name(dtype)}, its rule gives {_name(rule_dtype)}")
        if not _refines(shape, rule_shape):
            raise VerifyError(f"{what}: output {i} recorded with shape {shape}, its rule gives {rule_shape}")


def _check_defined(op: Operation, t: Tensor, which: str) -> None:
    producer = t.op
    if producer.graph is not op.graph:
        raise VerifyError(f"{_what(op)}: {which} {t.name} belongs to another graph")
    table = op.graph._ops
    if not 0 <= producer.id < len(table) or table[producer.id] is not producer:
        raise VerifyError(f"{_what(op)}: {which} {t.name} comes from an op that is not in the graph (dangling)")
    if producer.id >= op.id:
        raise VerifyError(f"{_what(op)}: {which} {t.name} is used before it is defined (its op comes later)")
    outputs = producer.outputs
    if not 0 <= t.value_index < len(outputs) or outputs[t.value_index] is not t:
        raise VerifyError(f"{_what(op)}: {which} {t.name} is not an output of its op '{producer.name}'")


def _refines(shape: TensorShape, rule: TensorShape) -> bool:
    if rule.sizes is None:
        return True
    if shape.sizes is None or len(shape.sizes) != len(rule.sizes):
        return False
    return all(r is None or d == r for d, r in zip(shape.sizes, rule.sizes, strict=True))


def _name(dtype: object) -> str:
    return getattr(dtype, "name", repr(dtype))


def _what(op: Operation) -> str:
    return f"op '{op.name}' ({op.type}, created at {op.where})"
