"""Memory layout: a matrix used transposed by several products is transposed once, contiguously.

NumPy multiplies by a transposed view (``g @ w.T``) through a slower path than by a contiguous
array: for small matrices about twice as slow. When the same matrix enters two or more products
transposed (an unrolled RNN's recurrent weights, once per time step), or one product inside a
loop (which runs it once per iteration), one contiguous copy, ``w_t = np.ascontiguousarray(w.T)``,
made before its first use, pays for itself. A single use outside loops keeps the view: copying a
large matrix costs more than it saves.
"""
from __future__ import annotations

from ..primitives.array import TRANSPOSE
from ..primitives.control import FOR, WHILE
from ..primitives.linalg import MAT_MUL
from ..shapes import TensorShape
from .program import Instr, Program, Value

__all__ = ["share_transposes"]

_SIDES = ((0, "transpose_a"), (1, "transpose_b"))
_IN_LOOP = 2   # a use inside a loop counts as many


def share_transposes(prog: Program) -> None:
    """Rewrite MatMuls that transpose the same top-level 2-D value more than once (or once in a loop)
    to use one contiguous copy, made at the top level before the first instruction that needs it."""
    uses: dict[int, int] = {}
    _count(prog.instrs, uses, 1)
    if all(n < 2 for n in uses.values()):   # most programs (and every one without MatMuls)
        return
    top = {id(p) for p in prog.params} | {id(o) for ins in prog.instrs for o in ins.outs}
    shared = {key for key, n in uses.items() if n >= 2 and key in top}
    if not shared:
        return
    copies: dict[int, Value] = {}
    rewritten: list[Instr] = []
    for ins in prog.instrs:
        for v, at in _transposed(ins, shared):
            if id(v) not in copies:
                dims = v.shape.as_list()  # a matrix
                copy = copies[id(v)] = Value(v.dtype, TensorShape([dims[1], dims[0]]), source=v)
                rewritten.append(Instr(TRANSPOSE, [v], {"perm": (1, 0), "contiguous": True}, [copy], at.op))
        _use_copies(ins, copies)
        rewritten.append(ins)
    prog.instrs = rewritten


def _count(instrs: list[Instr], uses: dict[int, int], weight: int) -> None:
    for ins in instrs:
        if ins.prim is MAT_MUL:
            for side, flag in _SIDES:
                if ins.attrs[flag] and ins.args[side].shape.rank == 2:
                    uses[id(ins.args[side])] = uses.get(id(ins.args[side]), 0) + weight
        if ins.blocks:
            inner = _IN_LOOP if ins.prim is WHILE or ins.prim is FOR else weight
            for block in ins.blocks:
                _count(block.instrs, uses, inner)


def _transposed(ins: Instr, shared: set[int]) -> list[tuple[Value, Instr]]:
    """The shared values ``ins`` (or an instruction in its blocks) multiplies transposed, in order."""
    found = []
    if ins.prim is MAT_MUL:
        found += [(ins.args[side], ins) for side, flag in _SIDES if ins.attrs[flag] and id(ins.args[side]) in shared]
    for block in ins.blocks:
        for inner in block.instrs:
            found += _transposed(inner, shared)
    return found


def _use_copies(ins: Instr, copies: dict[int, Value]) -> None:
    if ins.prim is MAT_MUL:
        for side, flag in _SIDES:
            copy = copies.get(id(ins.args[side]))
            if ins.attrs[flag] and copy is not None:
                ins.args = [copy if i == side else a for i, a in enumerate(ins.args)]
                ins.attrs = {**ins.attrs, flag: False}
    for block in ins.blocks:
        for inner in block.instrs:
            _use_copies(inner, copies)
