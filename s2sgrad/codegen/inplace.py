"""A dying gradient scaled in place: ``g_w *= 0.01`` then ``new_w = w - g_w``, as a hand-written step.

An update such as ``w - g_w * 0.01`` makes the product while ``g_w`` is still alive: one more array
of the weight's size at the peak of the step, where the old weight is alive too (the new values are
committed after the module returns, so that a failed run leaves every variable as it was).
``scale_in_place`` has the emitter write such a product into the gradient's own array instead
(``Program.accumulators``: the product's value is written into the gradient's, with ``*=``).

Only where nothing else can see the change: the gradient is read by this product alone (so no
other reader, nor a view made from it, comes after), is not fetched or returned, and is the fresh
array of an instruction of the module that makes a new one (a matrix product, an elementwise
operation, a sum of terms), never a feed, a variable's value, a constant or a view of anything.
The product is not a gradient itself (the backward pass keeps its names) and not returned.
"""
from __future__ import annotations

from collections.abc import Iterable

from ..primitives.core import Primitive
from ..primitives.linalg import MAT_MUL
from ..primitives.math import ADD_N, MUL, REAL_DIV
from .emit import DEL_MIN_ELEMENTS
from .program import Instr, Kind, Program, Value

__all__ = ["scale_in_place"]

_FRESH = frozenset({MAT_MUL, ADD_N})   # besides elementwise ops that are no view: their result is a new array


def scale_in_place(prog: Program) -> None:
    """Mark each product (or quotient) of a dying, module-owned, large gradient as computed in that
    gradient's array: its entry in ``prog.accumulators`` maps it to the gradient."""
    kept = {id(v) for v in prog.outputs} | {id(v) for _, v in prog.commits}
    candidates = []   # (product, the gradients it may be computed in): cheap tests first, most graphs have none
    for ins in prog.instrs:
        if ins.prim is not MUL and ins.prim is not REAL_DIV:
            continue
        out = ins.outs[0]
        if (out.size or 0) < DEL_MIN_ELEMENTS or id(out) in kept or id(out) in prog.accumulators \
                or _is_gradient(out):
            continue
        grads = [g for g in (ins.args if ins.prim is MUL else ins.args[:1])   # a quotient: only what it divides
                 if _large_gradient(g, out)]
        if grads:
            candidates.append((ins, grads))
    if not candidates:
        return
    reads = _reads(prog)
    top = {id(ins) for ins in prog.instrs}
    into = {id(v) for v in prog.accumulators.values()}   # arrays already holding another name's value
    for ins, grads in candidates:
        for g in grads:
            if id(g) not in into and reads.get(id(g), 0) == 1 and _fresh_array(g, top):
                if g is not ins.args[0]:
                    ins.args = [g, ins.args[0]]   # x * y is y * x, exactly; the emitter writes g *= y
                prog.accumulators[id(ins.outs[0])] = g
                into.add(id(g))
                break


def _large_gradient(g: Value, out: Value) -> bool:
    """``g`` is a gradient of (large) ``out``'s dtype and shape, computed by the module."""
    return (g.kind is Kind.TEMP and g.const is None and g.dtype is out.dtype and g.dtype.np.kind in "fc"
            and g.shape.is_fully_defined() and g.shape == out.shape and _is_gradient(g))


def _fresh_array(g: Value, top: set[int]) -> bool:
    """``g`` is the new array of an instruction of the program (outside blocks)."""
    producer = g.producer
    return producer is not None and id(producer) in top and not producer.blocks and _fresh(producer.prim)


def _fresh(prim: Primitive) -> bool:
    return prim in _FRESH or (prim.ufunc and not prim.view)


def _is_gradient(v: Value) -> bool:
    t = v.tensor
    return t is not None and t.op.graph.primal_of(t) is not None


def _reads(prog: Program) -> dict[int, int]:
    """How many times each value is read: by instructions (in blocks too), as a block's result or
    record, and as a fetched or committed value."""
    counts: dict[int, int] = {}

    def count(values: Iterable[Value]) -> None:
        for v in values:
            counts[id(v)] = counts.get(id(v), 0) + 1

    def walk(instrs: list[Instr]) -> None:
        for ins in instrs:
            count(ins.args)
            for block in ins.blocks:
                walk(block.instrs)
                count(block.results)
                count(block.kept)
    walk(prog.instrs)
    count(prog.outputs)
    count(v for _, v in prog.commits)
    return counts
