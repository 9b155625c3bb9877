"""Zero gradients a gradient loop carries unchanged are dropped from it.

A loop's gradient carries back one gradient per loop variable. One that receives none (a
``dynamic_rnn``'s output TensorArray when only its final state is used) starts as zeros the
size of the whole forward sequence and passes through every iteration unchanged; each
iteration reads its step's slice only to add it to another gradient. ``drop_zero_carries``
removes such a variable from the loop and the zero terms from those sums, so the zeros (and
the forward values kept only to size them) are never made. Values are unchanged: adding a
zero leaves a gradient as it is.
"""
from __future__ import annotations

from ..primitives.control import FOR, STEP_READ
from ..primitives.fills import ZEROS_LIKE
from ..primitives.math import ADD_N
from .program import Block, Instr, Program, Value

__all__ = ["drop_zero_carries"]


def drop_zero_carries(prog: Program) -> None:
    """Remove every zero loop variable a gradient loop carries unchanged, in place."""
    replaced: dict[int, Value] = {}   # a dropped variable's loop output -> its (zero) initial value
    _visit(prog.instrs, replaced)
    if not replaced:
        return
    _substitute(prog.instrs, replaced)
    prog.outputs = [replaced.get(id(v), v) for v in prog.outputs]
    prog.commits = [(var, replaced.get(id(v), v)) for var, v in prog.commits]


def _visit(instrs: list[Instr], replaced: dict[int, Value]) -> None:
    for ins in instrs:
        for block in ins.blocks:
            _visit(block.instrs, replaced)
        if ins.prim is FOR:
            _drop_carries(ins, replaced)


def _drop_carries(loop: Instr, replaced: dict[int, Value]) -> None:
    body = loop.blocks[-1]
    uses = _uses(body.instrs, {})
    for j in reversed(range(loop.attrs["_n_vars"])):
        param, init = body.params[1 + j], loop.args[1 + j]
        others = body.results[:j] + body.results[j + 1:] + body.kept
        if body.results[j] is not param or not _is_zero(init) or any(v is param for v in others):
            continue
        sums = _zero_sums(param, uses, body)
        if sums is None:
            continue
        for total, zero in sums:
            total.args = [a for a in total.args if a is not zero]
        _remove(body, {id(reader) for reader in uses.get(id(param), [])})
        del loop.args[1 + j], body.params[1 + j], body.results[j]
        replaced[id(loop.outs.pop(j))] = init
        loop.attrs = {**loop.attrs, "_n_vars": loop.attrs["_n_vars"] - 1}


def _zero_sums(param: Value, uses: dict[int, list[Instr]], body: Block) -> list | None:
    """(sum, zero term) for each use of the step reads of zero variable ``param``, or None when it
    has another use (then it stays): it is only read by step, and each read only adds to a sum."""
    found = []
    for reader in uses.get(id(param), []):
        if reader.prim is not STEP_READ or reader.args[0] is not param:
            return None
        zero = reader.outs[0]
        if any(v is zero for v in body.results + body.kept):
            return None
        for total in uses.get(id(zero), []):
            if total.prim is not ADD_N or all(a is zero for a in total.args):
                return None
            found.append((total, zero))
    return found


def _is_zero(v: Value) -> bool:
    if v.producer is not None:
        return v.producer.prim is ZEROS_LIKE
    return v.is_uniform() and v.scalar() == 0


def _uses(instrs: list[Instr], uses: dict[int, list[Instr]]) -> dict[int, list[Instr]]:
    """The instructions reading each value; a nested block's results and records count as
    reads by its control-flow instruction."""
    for ins in instrs:
        for a in ins.args:
            uses.setdefault(id(a), []).append(ins)
        for block in ins.blocks:
            _uses(block.instrs, uses)
            for v in block.results + block.kept:
                uses.setdefault(id(v), []).append(ins)
    return uses


def _remove(block: Block, gone: set[int]) -> None:
    """Drop the instructions in ``gone`` from ``block`` and the blocks in it."""
    block.instrs = [ins for ins in block.instrs if id(ins) not in gone]
    for ins in block.instrs:
        for inner in ins.blocks:
            _remove(inner, gone)


def _substitute(instrs: list[Instr], replaced: dict[int, Value]) -> None:
    for ins in instrs:
        ins.args = [replaced.get(id(a), a) for a in ins.args]
        for block in ins.blocks:
            _substitute(block.instrs, replaced)
            block.results = [replaced.get(id(v), v) for v in block.results]
            block.kept = [replaced.get(id(v), v) for v in block.kept]
