"""Regions: the blocks of a control-flow op (a branch of ``If``, the condition or body of a loop).

A region holds the ops recorded while its Python function ran, in order, its parameters (the
block's inputs, e.g. the loop variables at the start of an iteration) and its results. Ops of a
region may read tensors of enclosing blocks; those reads are the control-flow op's *captures*,
which become its inputs, so every walk over the top-level graph (pruning, gradients) sees them.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # types only: the graph records ops into regions
    from .nodes import Operation, Tensor

__all__ = ["Region", "captures", "encloses", "region_ops"]


class Region:
    """One block: ``params`` in, ``ops`` in order, ``results`` out; ``owner`` is its control-flow op."""

    __slots__ = ("kind", "parent", "ops", "params", "results", "owner")

    def __init__(self, kind: str, parent: Region | None) -> None:
        self.kind = kind                      # "then", "else", "cond", "body"
        self.parent = parent                  # the enclosing region (None: the graph's top level)
        self.ops: list[Operation] = []
        self.params: list[Tensor] = []
        self.results: list[Tensor] = []
        self.owner: Operation | None = None

    def __repr__(self) -> str:
        owner = self.owner.name if self.owner is not None else "?"
        return f"<Region {self.kind} of {owner}: {len(self.ops)} ops>"


def encloses(outer: Region | None, inner: Region | None) -> bool:
    """True when ``inner`` is ``outer`` or nested in it (None is the top level, enclosing all)."""
    while inner is not None:
        if inner is outer:
            return True
        inner = inner.parent
    return outer is None


def region_ops(regions: Iterable[Region]) -> Iterator[Operation]:
    """Every op of ``regions`` and of the regions nested in them, blocks before their owner's successors."""
    for region in regions:
        for op in region.ops:
            yield op
            nested = op.attrs.get("_regions")
            if nested:
                yield from region_ops(nested)


def captures(regions: Sequence[Region]) -> tuple[list[Tensor], list[Operation]]:
    """The tensors of enclosing blocks that ``regions`` read (in first-read order) and the ops of
    enclosing blocks they depend on by control edges only."""
    tensors: dict[Tensor, None] = {}
    controls: dict[Operation, None] = {}
    for region in regions:
        for op in region.ops:
            for t in op.inputs:
                if not _inside(t.op, regions):
                    tensors.setdefault(t)
            for c in op.control_inputs:
                if not _inside(c, regions):
                    controls.setdefault(c)
        for t in region.results:
            if not _inside(t.op, regions):
                tensors.setdefault(t)
    return list(tensors), list(controls)


def _inside(op: Operation, regions: Sequence[Region]) -> bool:
    return any(op.region is not None and encloses(r, op.region) for r in regions)
