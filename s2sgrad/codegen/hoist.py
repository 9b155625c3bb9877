"""Loop-invariant code motion: an instruction in a loop's blocks whose arguments are all defined
outside the loop computes the same value at every iteration; it moves before the loop.

Only instructions that cannot raise (``fusable``) and have no effect move, so a loop that runs
zero times still behaves as written; the rest of the block keeps its order.
"""
from __future__ import annotations

from ..primitives.control import FOR, WHILE
from .program import Instr, Program

__all__ = ["hoist_invariants"]


def hoist_invariants(prog: Program) -> None:
    """Move loop-invariant instructions out of every loop (innermost first), in place."""
    prog.instrs = _hoisted(prog.instrs)


def _hoisted(instrs: list[Instr]) -> list[Instr]:
    out: list[Instr] = []
    for ins in instrs:
        for block in ins.blocks:
            block.instrs = _hoisted(block.instrs)
        if ins.prim in (WHILE, FOR):
            out += _invariants(ins)
        out.append(ins)
    return out


def _invariants(loop: Instr) -> list[Instr]:
    """Remove from ``loop``'s blocks the instructions that depend on nothing it defines; return them."""
    inside = _defined(loop)
    moved: list[Instr] = []
    for block in loop.blocks:
        kept = []
        for ins in block.instrs:
            if _movable(ins) and not any(id(a) in inside for a in ins.args):
                moved.append(ins)
                inside.difference_update(id(o) for o in ins.outs)
            else:
                kept.append(ins)
        block.instrs = kept
    return moved


def _movable(ins: Instr) -> bool:
    prim = ins.prim
    return not ins.blocks and prim.pure and prim.fusable and not prim.assigns and not prim.lists


def _defined(ins: Instr) -> set[int]:
    """Ids of the values the blocks of ``ins`` define (their parameters, their instructions' outputs)."""
    found: set[int] = set()
    for block in ins.blocks:
        found.update(id(p) for p in block.params)
        for inner in block.instrs:
            found.update(id(o) for o in inner.outs)
            found |= _defined(inner)
    return found
