"""Gradients of control flow: an If's gradient is an If, a loop's gradient is a reversed For.

Each block's gradient is found by differentiating the block itself (``differentiate``: the
walk of ``backprop``, run with the new block as the place its ops go). The gradient blocks
read values of the forward blocks; those reads are then routed through the forward op: an If
exposes the value as an extra output (the other branch yields None for it), a loop records it
once per iteration (``_kept``) and the reversed loop reads iteration k's record.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..ops import array_ops as a
from ..ops.blocks import block_param, control_op, step_grad, step_read, undefined
from ..primitives.control import FOR, IF, STEP_READ, UNDEFINED, WHILE, kept_shape
from ..primitives.state import CONST
from ..shapes import TensorShape
from ..ssa.graph import Operation, Tensor
from ..ssa.regions import Region, encloses, region_ops

__all__ = ["CONTROL_RULES", "Differentiate"]

Differentiate = Callable[[Sequence[Tensor], Sequence[Tensor], Sequence[Tensor]], list]
"""``(ys, xs, grad_ys) -> [dx or None]``: the walk, run inside the block being built."""


def _if_rule(op: Operation, needed: Sequence[bool], out_grads: Sequence[Any], differentiate: Differentiate) -> list:
    graph = op.graph
    captures = op.inputs[1:]
    wanted = [i for i, c in enumerate(captures) if needed[1 + i] and c.dtype.is_differentiable]
    seeded = [(j, g) for j, g in enumerate(out_grads) if g is not None]
    outer = graph._current_region()
    forward = op.attrs["_regions"]
    regions = [Region(r.kind, outer) for r in forward]
    per_branch = []
    with graph._reading_other_blocks():
        for fwd, region in zip(forward, regions, strict=True):
            with graph._in_region(region):
                per_branch.append(differentiate([fwd.results[j] for j, _ in seeded], [captures[i] for i in wanted],
                                                [g for _, g in seeded]))
    found = [k for k in range(len(wanted)) if any(grads[k] is not None for grads in per_branch)]
    if not found:
        return [None] * len(op.inputs)
    for region, branch_grads in zip(regions, per_branch, strict=True):
        with graph._in_region(region):
            region.results = [branch_grads[k] if branch_grads[k] is not None else _no_gradient(captures[wanted[k]])
                              for k in found]
    for fwd, region in zip(forward, regions, strict=True):
        _route(region, fwd, _exposer(op, fwd))
    grad_op = control_op(graph, IF, [op.inputs[0]], regions, {}, op.name.rsplit("/", 1)[-1] + "_grad")
    grads: list = [None] * len(op.inputs)
    for k, out in zip(found, grad_op.outputs, strict=True):
        grads[1 + wanted[k]] = out
    return grads


def _no_gradient(capture: Tensor) -> Tensor:
    """A branch's gradient of a capture it does not differentiate: zeros (one row per record for a
    loop's record), or None for a value that may itself be None (an If's output one branch leaves
    undefined, or an iteration's record of one): ``step_grad`` takes None for no gradient."""
    if _maybe_undefined(capture):
        return undefined(capture)
    return _zeros(capture)


def _zeros(t: Tensor) -> Tensor:
    """Zeros like ``t``; for a loop's per-iteration record (a list, whose entries an If may leave
    undefined) ``step_grad`` of no gradient: zeros with one row per record, shaped like the defined ones."""
    kept = _recorded(t)
    return a.zeros_like(t) if kept is None else step_grad(t, a.constant(0), undefined(kept))


def _recorded(t: Tensor) -> Tensor | None:
    """The body tensor ``t`` records per iteration when ``t`` is a loop's record (or an If's output
    exposing one), else None."""
    op = t.op
    if op.prim is IF:
        defined = [r.results[t.value_index] for r in op.attrs["_regions"]
                   if r.results[t.value_index].op.prim is not UNDEFINED]
        return _recorded(defined[0]) if len(defined) == 1 else None
    if op.prim not in (WHILE, FOR):
        return None
    kept = op.attrs["_kept"]
    position = t.value_index - (len(op.outputs) - len(kept))
    return kept[position] if position >= 0 else None


def _maybe_undefined(t: Tensor) -> bool:
    """Whether ``t`` may be None when it runs: an If's output a branch leaves undefined, or a record's read of one."""
    op = t.op
    if op.prim is UNDEFINED:
        return True
    if op.prim is IF:
        return any(_maybe_undefined(r.results[t.value_index]) for r in op.attrs["_regions"])
    if op.prim is STEP_READ:
        kept = _recorded(op.inputs[0])
        return kept is not None and _maybe_undefined(kept)
    return False


def _exposer(op: Operation, branch: Region) -> Callable[[Tensor], Tensor]:
    return lambda t: _expose(op, branch, t)


def _expose(op: Operation, branch: Region, t: Tensor) -> Tensor:
    """``t`` (a tensor of ``branch``) as an output of its If: the other branch yields None for it."""
    for j, r in enumerate(branch.results):
        if r is t:
            return op.outputs[j]
    for region in op.attrs["_regions"]:
        if region is branch:
            region.results.append(t)
        else:
            with op.graph._in_region(region):
                region.results.append(undefined(t))
    return op._add_output(t.dtype, t.shape)


def _loop_rule(op: Operation, needed: Sequence[bool], out_grads: Sequence[Any],
               differentiate: Differentiate) -> list:
    if not op.attrs.get("back_prop", True):
        return [None] * len(op.inputs)
    graph = op.graph
    counted = op.prim is FOR
    first = int(counted)
    n = op.attrs["_n_vars"]
    body = op.attrs["_regions"][-1]
    params = body.params[first:]
    captures = op.inputs[first + n:]
    trips = op.inputs[0] if counted else op.outputs[n]
    records = op.outputs[n + (0 if counted else 1):]
    carried = [j for j in range(n) if params[j].dtype.is_differentiable]  # they carry the gradient back
    summed = [i for i, c in enumerate(captures) if c.dtype.is_differentiable and needed[first + n + i]]
    seeded_records = [(t, g) for t, g in zip(op.attrs["_kept"], out_grads[len(out_grads) - len(records):],
                                             strict=True) if g is not None]
    inits = [out_grads[j] if out_grads[j] is not None else a.zeros_like(op.outputs[j]) for j in carried]
    inits += [_zeros(captures[i]) for i in summed]
    region = Region("body", graph._current_region())
    index = block_param(graph, region, trips.dtype, TensorShape([]), "k")
    g_vars = [block_param(graph, region, t.dtype, t.shape, "g_" + params[j].op.attrs["label"])
              for j, t in zip(carried, inits, strict=False)]
    sums = [block_param(graph, region, t.dtype, t.shape, "g_sum", gradient_of=captures[i])
            for i, t in zip(summed, inits[len(carried):], strict=True)]
    with graph._reading_other_blocks(), graph._in_region(region):
        ys = [body.results[j] for j in carried] + [t for t, _ in seeded_records]
        grad_ys = g_vars + [step_read(g, index) for _, g in seeded_records]
        grads = differentiate(ys, [params[j] for j in carried] + [captures[i] for i in summed], grad_ys)
        nxt = [g if g is not None else a.zeros_like(p) for g, p in zip(grads, g_vars, strict=False)]
        nxt += [s + g if g is not None else s for g, s in zip(grads[len(carried):], sums, strict=True)]
        region.results = nxt
    _route(region, body, lambda t: _read_record(op, region, t, index))
    back = control_op(graph, FOR, [trips, *inits], [region],
                      {"_n_vars": len(inits), "_kept": [], "reverse": not op.attrs.get("reverse", False)},
                      op.name.rsplit("/", 1)[-1] + "_grad")
    out: list = [None] * len(op.inputs)
    for k, j in enumerate(carried):
        out[first + j] = back.outputs[k]
    for k, i in enumerate(summed):
        out[first + n + i] = back.outputs[len(carried) + k]
    return out


def _constant_in(region: Region, t: Tensor) -> Tensor:
    """A forward block's constant, made again at the top of ``region`` (nothing to record)."""
    graph = t.op.graph
    with graph._in_region(region):
        copy = graph.create_op(CONST, [], dict(t.op.attrs), name=t.op.name.rsplit("/", 1)[-1]).outputs[0]
    region.ops.remove(copy.op)
    region.ops.insert(len(region.params), copy.op)
    return copy


def _read_record(op: Operation, region: Region, t: Tensor, index: Tensor) -> Tensor:
    """Iteration ``index``'s value of ``t`` (a tensor of ``op``'s body), read at the top of ``region``."""
    kept = op.attrs["_kept"]
    for j, k in enumerate(kept):
        if k is t:
            records = op.outputs[len(op.outputs) - len(kept) + j]
            break
    else:
        kept.append(t)
        records = op._add_output(t.dtype, kept_shape(t))
    graph = op.graph
    with graph._in_region(region):
        value = step_read(records, index)
    region.ops.remove(value.op)
    region.ops.insert(len(region.params), value.op)  # before its readers: it reads only the loop's inputs
    return value


def _route(region: Region, forward: Region, replace: Callable[[Tensor], Tensor]) -> None:
    """Make the ops of ``region`` (and of the blocks nested in it) read ``replace(t)`` for each
    tensor ``t`` of the block ``forward``; the same for the results of those blocks."""
    cache: dict[Tensor, Tensor] = {}

    def routed(t: Tensor) -> Tensor | None:
        if t.op.region is None or not encloses(forward, t.op.region):
            return None
        if t not in cache:
            cache[t] = _constant_in(region, t) if t.op.prim is CONST else replace(t)
        return cache[t]

    blocks = [region]
    for inner in list(region_ops([region])):
        for k, t in enumerate(inner.inputs):
            new = routed(t)
            if new is not None:
                inner._replace_input(k, new)
        blocks.extend(inner.attrs.get("_regions", ()))
    for block in blocks:
        block.results = [routed(t) or t for t in block.results]


CONTROL_RULES: dict = {IF: _if_rule, WHILE: _loop_rule, FOR: _loop_rule}
