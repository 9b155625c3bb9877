"""Lowering control-flow ops: each region becomes a Block of the instruction that runs it.

The blocks are lowered with the same value table as the enclosing program, so a block reads
the values of enclosing blocks directly. A loop's parameters start with the shapes of its
initial values; when an iteration changes a shape (``shape_invariants`` allowed it), the body
is lowered again with those dimensions unknown.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import errors
from ..primitives.control import BLOCK_PARAM, FOR, IF, WHILE
from ..shapes import TensorShape
from ..ssa.graph import Operation
from ..ssa.regions import Region
from .program import Block, Instr, Kind, Value

__all__ = ["lower_control"]

LowerOp = Callable[[Operation, dict, Any, dict], None]   # lower one op into a program or block
_MAX_RELOWER = 4


def lower_control(op: Operation, values: dict, target: Any, rng_params: dict, lower_op: LowerOp) -> None:
    """Append the instruction for control-flow ``op`` (If, While, For) to ``target``."""
    if op.prim is IF:
        _lower_if(op, values, target, rng_params, lower_op)
    else:
        _lower_loop(op, values, target, rng_params, lower_op)


def _block(region: Region, params: list[Value], values: dict, rng_params: dict, lower_op: LowerOp) -> Block:
    block = Block(params)
    for t, v in zip(region.params, params, strict=True):
        values[t] = v
    for inner in region.ops:
        if inner.prim is not BLOCK_PARAM:
            lower_op(inner, values, block, rng_params)
    block.results = [values[t] for t in region.results]
    return block


def _lower_if(op: Operation, values: dict, target: Any, rng_params: dict, lower_op: LowerOp) -> None:
    args = [values[op.inputs[0]]]  # the predicate; the captures are read by the blocks themselves
    blocks = [_block(region, [], values, rng_params, lower_op) for region in op.attrs["_regions"]]
    outs = []
    for t, a, b in zip(op.outputs, blocks[0].results, blocks[1].results, strict=True):
        outs.append(Value(t.dtype, a.shape if a.shape == b.shape else a.shape.most_specific_compatible_shape(b.shape),
                          tensor=t))
    assigned = list(dict.fromkeys(var for block in blocks for var, _ in block.commits))
    for var in assigned:  # a variable assigned in one branch keeps its value in the other
        current = values[var.outputs[0]]
        for block in blocks:
            block.results.append(dict(block.commits).get(var, current))
        outs.append(Value(current.dtype, current.shape, tensor=var.outputs[0]))
    ins = Instr(IF, args, op.attrs, outs, op, tuple(blocks))
    target.instrs.append(ins)
    for t, v in zip(op.outputs, outs, strict=False):
        values[t] = v
    target.commits.extend(zip(assigned, outs[len(op.outputs):], strict=True))


def _lower_loop(op: Operation, values: dict, target: Any, rng_params: dict, lower_op: LowerOp) -> None:
    regions = op.attrs["_regions"]
    n_vars = op.attrs["_n_vars"]
    counted = op.prim is FOR
    first = 1 if counted else 0
    args = [values[t] for t in op.inputs[:first + n_vars]]  # (trip count,) initial values; captures: the blocks
    inits = args[first:]
    shapes = [v.shape for v in inits]
    for _ in range(_MAX_RELOWER):
        blocks = []
        for region in regions:
            params = [Value(p.dtype, shape, tensor=p, kind=Kind.BLOCK)
                      for p, shape in zip(region.params[first:], shapes, strict=True)]
            if counted:
                index = region.params[0]
                params.insert(0, Value(index.dtype, TensorShape([]), tensor=index, kind=Kind.BLOCK))
            blocks.append(_block(region, params, values, rng_params, lower_op))
        body = blocks[-1]
        wider = [s if s == r.shape else s.most_specific_compatible_shape(r.shape)
                 for s, r in zip(shapes, body.results, strict=True)]
        if wider == shapes:
            break
        shapes = wider
    if any(block.commits for block in blocks):
        raise errors.UnimplementedError(None, op, f"a variable is assigned inside the body of loop '{op.name}' "
                                                  f"[created at {op.where}]; assign after the loop instead")
    body.kept = [values[t] for t in op.attrs["_kept"]]
    outs = [Value(p.dtype, shape, tensor=t) for p, shape, t in zip(inits, shapes, op.outputs, strict=False)]
    extra = op.outputs[n_vars:]
    outs += [Value(t.dtype, t.shape, tensor=t) for t in extra]
    target.instrs.append(Instr(WHILE if not counted else FOR, args, op.attrs, outs, op, tuple(blocks)))
    for t, v in zip(op.outputs, outs, strict=True):
        values[t] = v
