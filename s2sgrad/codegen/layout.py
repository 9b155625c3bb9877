"""Memory layout: a matrix used transposed by several products is transposed once, contiguously.

NumPy multiplies by a transposed view (``g @ w.T``) through a slower path than by a contiguous
array: for small matrices about twice as slow. When the same matrix enters two or more products
transposed (an unrolled RNN's recurrent weights, once per time step), one contiguous copy,
``w_t = np.ascontiguousarray(w.T)``, pays for itself. A single use keeps the view: copying a
large matrix costs more than it saves.
"""
from __future__ import annotations

from ..primitives.array import TRANSPOSE
from ..primitives.linalg import MAT_MUL
from ..shapes import TensorShape
from .program import Instr, Program, Value

__all__ = ["share_transposes"]

_SIDES = ((0, "transpose_a"), (1, "transpose_b"))


def share_transposes(prog: Program) -> None:
    """Rewrite MatMuls that transpose the same 2-D value more than once to use one contiguous copy."""
    uses: dict[int, int] = {}
    for ins in prog.instrs:
        if ins.prim is MAT_MUL:
            for side, flag in _SIDES:
                if ins.attrs[flag] and ins.args[side].shape.rank == 2:
                    uses[id(ins.args[side])] = uses.get(id(ins.args[side]), 0) + 1
    if all(n < 2 for n in uses.values()):
        return
    copies: dict[int, Value] = {}
    rewritten: list[Instr] = []
    for ins in prog.instrs:
        if ins.prim is MAT_MUL:
            for side, flag in _SIDES:
                v = ins.args[side]
                if not ins.attrs[flag] or uses.get(id(v), 0) < 2:
                    continue
                copy = copies.get(id(v))
                if copy is None:
                    dims = v.shape.as_list()  # a matrix
                    copy = copies[id(v)] = Value(v.dtype, TensorShape([dims[1], dims[0]]), source=v)
                    rewritten.append(Instr(TRANSPOSE, [v], {"perm": (1, 0), "contiguous": True}, [copy], ins.op))
                ins.args = [copy if i == side else a for i, a in enumerate(ins.args)]
                ins.attrs = {**ins.attrs, flag: False}
        rewritten.append(ins)
    prog.instrs = rewritten
