"""Prune the graph to what the fetches need, then specialize it to concrete feed shapes.

``needed_ops`` walks back from the fetches (iteratively, O(ops)); ``lower`` replays the
slice's shape rules on concrete shapes and returns a Program.
"""
from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from typing import Any

from .. import errors
from ..primitives.state import ASSIGN, CONST, IDENTITY, NO_OP, PLACEHOLDER, PLACEHOLDER_WITH_DEFAULT
from ..shapes import TensorShape, dims_text
from ..ssa.graph import Operation, Tensor
from .lower_control import lower_control
from .program import Instr, Kind, Program, Value

__all__ = ["needed_ops", "lower"]


def needed_ops(fetch_tensors: Iterable[Tensor], target_ops: Iterable[Operation],
               fed: Any, check_feeds: bool = True) -> list[Operation]:
    """The ops that must run to compute the fetches, in graph (= topological) order.
    With ``check_feeds``, an unfed placeholder among them raises InvalidArgumentError."""
    seen: set[Operation] = set()
    stack: list[Operation] = [t.op for t in fetch_tensors if t not in fed] + list(target_ops)
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        refs = op.prim.ref_inputs
        if refs:
            for i, t in enumerate(op.inputs):
                if i not in refs and t not in fed and t.op not in seen:
                    stack.append(t.op)
        else:
            for t in op.inputs:
                if t not in fed and t.op not in seen:
                    stack.append(t.op)
        if op.control_inputs:
            stack.extend(c for c in op.control_inputs if c not in seen)
    ops = sorted(seen, key=_op_id)
    inner = next((op for op in ops if op.region is not None), None)
    if inner is not None and inner.region is not None:
        owner = inner.region.owner.name if inner.region.owner is not None else "a control-flow op"
        raise ValueError(f"Cannot run '{inner.name}' [created at {inner.where}]: it is inside a branch or loop "
                         f"body of '{owner}'; fetch what the branch or loop returns instead.")
    for op in ops if check_feeds else ():
        if op.prim is PLACEHOLDER and not any(t in fed for t in op.outputs):
            t = op.outputs[0]
            raise errors.InvalidArgumentError(
                None, op, f"You must feed a value for placeholder tensor '{op.name}' with dtype "
                f"{t.dtype.name} and shape {dims_text(t.shape.sizes, '<unknown>')}  [created at {op.where}]")
    return ops


_op_id = operator.attrgetter("id")
_CONST = Kind.CONST  # as a global: an Enum member read off its class costs 5x more


def lower(ops: Sequence[Operation], fetch_tensors: Sequence[Tensor], feeds: dict,
          variables: dict, rngs: Sequence[Operation]) -> Program:
    """Build the Program for ``ops``. ``feeds``: Tensor -> (DType, shape tuple) of the fed value;
    ``variables``: variable Operation -> (DType, shape tuple) of its stored value."""
    prog = Program()
    values: dict[Tensor, Value] = {}
    for t, (dtype, shape) in feeds.items():
        v = Value(dtype, _same_or_new(t.shape, shape), tensor=t, kind=Kind.FEED, source=t)
        values[t] = v
        prog.params.append(v)
    for var_op, (dtype, shape) in variables.items():
        t = var_op.outputs[0]
        v = Value(dtype, _same_or_new(t.shape, shape), tensor=t, kind=Kind.VAR, source=var_op)
        values[t] = v
        prog.params.append(v)
    rng_params = {}
    for op in rngs:
        # a generator has no dtype of its own: it carries that of the values its op draws
        v = Value(op.outputs[0].dtype, TensorShape([]), kind=Kind.RNG, source=op)
        rng_params[op] = v
        prog.params.append(v)

    ordering = _AssignOrder(ops) if any(op.prim.assigns for op in ops) else None
    for op in ops:
        outputs = op.outputs
        if outputs and outputs[0] in values and (len(outputs) == 1 or all(t in values for t in outputs)):
            continue  # fed (or a variable read)
        reads = ordering.reads_after_assigns(op, values) if ordering is not None and op.control_inputs else {}
        if reads:  # op reads those variables' assigned values: it alone sees them in place of the stored ones
            stored = {t: values[t] for t in reads}
            values.update(reads)
            _lower_op(op, values, prog, rng_params)
            values.update(stored)
        else:
            _lower_op(op, values, prog, rng_params)
    prog.outputs = [values[t] for t in fetch_tensors]
    last = dict(prog.commits)  # later assignments win, in graph order
    prog.commits = list(last.items())
    return prog


def _lower_op(op: Operation, values: dict, prog: Any, rng_params: dict) -> None:
    """Lower ``op`` into ``prog`` (the Program or a Block: what holds ``instrs`` and ``commits``)."""
    prim = op.prim
    if prim is CONST:  # first: a third of most programs' ops
        t = op.outputs[0]
        values[t] = Value(t.dtype, t._shape, op.attrs["value"], t, _CONST)  # (positional: cheaper than keywords)
        return
    if prim is NO_OP or (prim.host and not op.outputs):
        return
    if prim.host:
        raise errors.InvalidArgumentError(
            None, op, f"'{op.name}' ({op.type}) is computed by a Session's input pipeline: it runs only in "
            f"Session.run [created at {op.where}]")
    if prim.control:
        lower_control(op, values, prog, rng_params, _lower_op)
        return
    if prim is PLACEHOLDER_WITH_DEFAULT:
        values[op.outputs[0]] = values[op.inputs[0]]
        return
    args = []
    as_recorded = True  # every input has its static shape and dtype
    refs, shape_only = prim.ref_inputs, prim.shape_only
    if refs or shape_only:
        for i, t in enumerate(op.inputs):
            if refs and i in refs:
                continue
            v = values[t]
            if v.shape is not t._shape or v.dtype is not t.dtype:
                as_recorded = False
            if shape_only and i in shape_only and v.shape.is_fully_defined():
                v = Value(v.dtype, v.shape, kind=Kind.SHAPE)  # only its shape is read: no runtime use
            args.append(v)
    else:  # the common case
        for t in op.inputs:
            v = values[t]
            if v.shape is not t._shape or v.dtype is not t.dtype:
                as_recorded = False
            args.append(v)
    if prim is ASSIGN:  # the new value is the assigned value
        values[op.outputs[0]] = args[0]
        _commit(op, args[0], prog)
        return
    inputs = args
    if not prim.pure:
        args = [rng_params[op], *inputs]
    outputs = op.outputs
    if as_recorded and len(outputs) == 1 and outputs[0]._shape.is_fully_defined():  # the common case
        t = outputs[0]  # inputs of their static shapes: re-running the shape rule would give the recorded spec
        outs = [Value(t.dtype, t._shape, None, t)]
        values[t] = outs[0]
    else:
        try:
            specs = (as_recorded and _recorded_specs(op)) or prim.infer(inputs, op.attrs)
        except (ValueError, TypeError) as e:
            shapes = ", ".join(str(list(a.shape.sizes)) for a in args if a.shape.sizes is not None)
            raise errors.InvalidArgumentError(
                None, op, f"{e} for '{op.name}' ({op.type}) with input shapes {shapes} "
                f"[created at {op.where}]") from None
        outs = [Value(dt, shape, tensor=t) for t, (dt, shape) in zip(op.outputs, specs, strict=True)]
        for t, v in zip(op.outputs, outs, strict=True):
            values[t] = v
    prog.instrs.append(Instr(prim, args, op.attrs, outs, op))
    if prim.assigns:
        _commit(op, outs[0], prog)


class _AssignOrder:
    """Which assignments a control dependency orders before an op. An op created under
    ``tf.control_dependencies([...])`` that reads a variable (``v.read_value()``, ``tf.identity(v)``,
    ``v + 1``...) reads it after the assignments those dependencies lead to, as TensorFlow does;
    every other read of a variable in a run sees the value the run started with."""

    def __init__(self, ops: Sequence[Operation]) -> None:
        self.in_slice = set(ops)
        self.latest: dict[Operation, dict[Operation, Operation]] = {}  # dependency -> variable -> its last assign

    def reads_after_assigns(self, op: Operation, values: dict) -> dict[Tensor, Value]:
        """``op``'s inputs that read a variable assigned before it, each with the assigned value."""
        read = {t: var for t in op.inputs if (var := _variable_read(t, values)) is not None}
        if not read:
            return {}
        last: dict[Operation, Operation] = {}
        for dep in op.control_inputs:
            for var, assign in self._assigns_before(dep).items():
                if var not in last or assign.id > last[var].id:
                    last[var] = assign
        return {t: values[last[var].outputs[0]] for t, var in read.items() if var in last}

    def _assigns_before(self, start: Operation) -> dict[Operation, Operation]:
        """The last assignment of each variable among ``start`` and the ops it depends on."""
        found = self.latest.get(start)
        if found is None:
            found = {}
            stack, seen = [start], set()
            while stack:
                op = stack.pop()
                if op in seen or op not in self.in_slice:
                    continue
                seen.add(op)
                known = self.latest.get(op) if op is not start else None
                for var, assign in (known.items() if known is not None else
                                    [(op.inputs[0].op, op)] if op.prim.assigns else []):
                    if var not in found or assign.id > found[var].id:
                        found[var] = assign
                if known is None:  # an op searched before stands for everything it depends on
                    stack.extend(t.op for t in op.inputs)
                    stack.extend(op.control_inputs)
            self.latest[start] = found
        return found


def _variable_read(t: Tensor, values: dict) -> Operation | None:
    """The variable whose stored value ``t`` is (the variable itself or an identity of it), or None."""
    while True:
        v = values.get(t)
        if v is not None and v.kind is Kind.VAR:
            return v.source if isinstance(v.source, Operation) else None
        if t.op.prim is not IDENTITY:
            return None
        t = t.op.inputs[0]


def _same_or_new(static: TensorShape, dims: Any) -> TensorShape:
    """The tensor's own static shape object when it already says ``dims`` (cheap to compare)."""
    return static if static.sizes == (None if dims is None else tuple(dims)) else TensorShape(dims)


def _recorded_specs(op: Operation) -> list | None:
    """The op's recorded output specs, when they are fully known: for inputs of their static
    shapes, re-running the shape rule would give the same answer."""
    outputs = op.outputs
    if len(outputs) == 1:  # the common case
        shape = outputs[0]._shape
        return [(outputs[0].dtype, shape)] if shape.is_fully_defined() else None
    if all(t._shape.is_fully_defined() for t in outputs):
        return [(t.dtype, t._shape) for t in outputs]
    return None


def _commit(op: Operation, new: Value, prog: Any) -> None:
    var_op = op.inputs[0].op
    static = var_op.outputs[0].shape
    if new.shape.is_fully_defined() and static.is_fully_defined() and new.shape != static:
        raise errors.InvalidArgumentError(
            None, op, f"Assign requires shapes of both tensors to match. lhs shape= {static.as_list()} "
            f"rhs shape= {new.shape.as_list()} [created at {op.where}]")
    prog.commits.append((var_op, new))
