"""The reverse sweep of ``tf.gradients``, TensorFlow's (``gradients_util.py``): mark the ops reachable
from the xs along float tensors, keep those that lead to the ys, count pending consumers, then visit
ops in reverse order, summing each output's gradient contributions and calling the op's rule (looked
up by ``gradient_function``). Rules emit ordinary ops, so gradients of gradients need nothing special.
"""
from __future__ import annotations

import enum
from collections import deque
from collections.abc import Callable
from typing import Any

from ..ops import array_ops as a
from ..ops import math_ops as m
from ..ops.convert import convert_to_tensor
from ..ops.indexed_slices import IndexedSlices
from ..primitives import BY_NAME
from ..primitives.core import Primitive
from ..ssa.graph import Operation, Tensor
from ..ssa.recording_state import GradientScope
from .control import CONTROL_RULES
from .registry import USER_RULES
from .rules import RULES, Needed, Rule

__all__ = ["AggregationMethod", "UnconnectedGradients", "gradient_function", "Walk", "gradient_of"]


class AggregationMethod:
    """How several gradient contributions to one tensor are summed."""

    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


_AGGREGATION_METHODS = (AggregationMethod.ADD_N, AggregationMethod.EXPERIMENTAL_TREE,
                        AggregationMethod.EXPERIMENTAL_ACCUMULATE_N)


class UnconnectedGradients(enum.Enum):
    """What an x that the ys do not depend on gets: None, or zeros of x's shape and dtype."""

    NONE = "none"
    ZERO = "zero"


# -- gradient functions ------------------------------------------------------------------------------

def gradient_function(op: Operation) -> Rule | None:
    """The rule for ``op``: a registered gradient under its ``gradient_override_map`` name or its
    type, else that name's primitive rule. None means "not differentiable"; no rule at all raises
    LookupError (as TF: ``{"Floor": "Identity"}`` makes Floor use Identity's rule)."""
    if not op.inputs:
        return None
    kind = op.attrs.get("_gradient_op_type") if op.attrs else None  # (most ops have no attributes)
    if kind is None:  # most ops: their primitive's rule, found once per primitive
        rule = _PRIMITIVE_RULES.get(op.prim, _UNKNOWN)
        if rule is _UNKNOWN:
            rule = _PRIMITIVE_RULES[op.prim] = _primitive_rule(op.prim, op)
        return rule
    if kind in USER_RULES:
        return USER_RULES[kind]
    return _primitive_rule(BY_NAME.get(kind), op)


_UNKNOWN: Any = object()
_PRIMITIVE_RULES: dict[Primitive, Rule | None] = {}  # (the rules are fixed: a primitive's never changes)


def _primitive_rule(prim: Primitive | None, op: Operation) -> Rule | None:
    """``prim``'s rule (None: not differentiable); LookupError, naming ``op``, when it has none."""
    if prim is not None and not prim.differentiable:
        return None
    if prim is not None and prim.control:
        return _control_rule(CONTROL_RULES[prim])
    rule = RULES.get(prim) if prim is not None else None
    if rule is None:
        raise LookupError(
            f"No gradient defined for operation '{op.name}' (op type: {op.type}). In general every operation "
            "must have an associated `@tf.RegisterGradient` for correct autodiff, which this op is lacking. If "
            "you want to pretend this operation is a constant in your program, you may insert "
            "`tf.stop_gradient`.")
    return rule


def _control_rule(rule: Callable) -> Rule:
    """A control-flow op's rule, given the walk to differentiate its blocks with."""
    def control(op: Operation, needed: Needed, *out_grads: Any) -> Any:
        return rule(op, needed, out_grads, _differentiate)
    return control


def _differentiate(ys: Any, xs: Any, grad_ys: Any) -> list:
    """The partial gradients of ``ys`` (seeded with ``grad_ys``) for ``xs``, each x a leaf (no path
    through one x to another), None where unconnected: one walk, its ops recorded where the caller
    records (a gradient block being built)."""
    if not ys:
        return [None] * len(xs)
    graph = ys[0].graph
    walk = Walk(list(ys), list(xs), list(xs), None, graph.version)
    grads = walk.run(list(grad_ys))
    return [gradient_of(grads, x, UnconnectedGradients.NONE) for x in xs]


# -- the walk ----------------------------------------------------------------------------------------

class Walk:
    """One ``gradients`` call: reachability, pending counts, then the reverse sweep (its loops are
    written out: they run once per op of the program)."""

    def __init__(self, ys: list, xs: list, stops: list, aggregation: Any, first_new_op: int) -> None:
        self.ys, self.xs = ys, xs
        self.aggregation = aggregation
        self.first_new_op = first_new_op
        self.scope: GradientScope | None = None
        from_ops = list(dict.fromkeys(x.op for x in xs))
        reached = _reached_ops(from_ops)
        self.reachable_ys = {y.op for y in ys if y.op in reached}
        # The ops between: reached, and leading to the ys. An input of one of them leads to the ys
        # too, so it is between exactly when reached: each visit counts its inputs' pending uses.
        pending: dict[Operation, int] = {}
        between: set[Operation] = set()
        queue = [y.op for y in ys]
        while queue:
            op = queue.pop()
            if op in reached and op not in between:
                between.add(op)
                for t in op.inputs:
                    producer = t.op
                    if producer in reached:
                        pending[producer] = pending.get(producer, 0) + 1
                        queue.append(producer)
        self.pending = pending
        self.between = between
        self.stop_ops = {op for op in from_ops if not any(pending.get(t.op, 0) > 0 for t in op.inputs)}
        self.stop_ops.update(t.op for t in stops)

    def run(self, seeds: list) -> dict:
        grads: dict[Operation, list[list]] = {}
        for y, g in zip(self.ys, seeds, strict=True):
            _add_grad(grads, y, g)
        pending, stop_ops = self.pending, self.stop_ops
        queue: deque[Operation] = deque()
        queued: set[Operation] = set()
        for y in self.ys:
            op = y.op
            if pending.get(op, 0) == 0 and op not in queued and op in self.reachable_ys:
                queued.add(op)
                queue.append(op)
        method = _aggregation_method(self.aggregation) if queue else 0  # checked before the first op, as in TF
        while queue:
            op = queue.popleft()
            out_grads = self._aggregate(grads, op, method)
            inputs = op.inputs
            if op not in stop_ops:
                for g in out_grads:
                    if g is not None:
                        grad_fn = gradient_function(op)
                        if grad_fn is not None:
                            _add_input_grads(grads, op, self._call_rule(op, grad_fn, out_grads))
                        break
            for t in inputs:
                producer = t.op
                count = pending.get(producer)
                if count is None:
                    continue
                pending[producer] = count - 1
                if count == 1:
                    queue.append(producer)
        return grads

    def _call_rule(self, op: Operation, grad_fn: Callable, out_grads: list) -> list:
        for g in out_grads:
            if g is None:
                _zeros_for_missing(op, out_grads)
                break
        between = self.between
        inputs = op.inputs
        if len(inputs) == 2:  # most ops: spelled out, a comprehension costs a call
            needed: Needed = (inputs[0].op in between, inputs[1].op in between)
        elif len(inputs) == 1:
            needed = (inputs[0].op in between,)
        else:
            needed = tuple([t.op in between for t in inputs])
        scope = self.scope  # one for the walk, calling each rule in turn
        if scope is None:
            scope = self.scope = op.graph._gradient_scope()
        in_grads = scope.call(grad_fn, op, needed, out_grads)
        if type(in_grads) is not list:
            in_grads = list(in_grads) if isinstance(in_grads, (list, tuple)) else [in_grads]
        if len(in_grads) != len(inputs):
            raise ValueError(f"Num gradients {len(in_grads)} generated for op {op.node_def} do not match num "
                             f"inputs {len(op.inputs)}")
        return in_grads

    def _aggregate(self, grads: dict, op: Operation, method: int) -> list:
        per_output = grads.get(op)
        if per_output is None:
            return [None] * len(op.outputs)
        if len(per_output) == 1 and len(per_output[0]) == 1:  # most ops: one output, one contribution
            total = per_output[0][0]
            if isinstance(total, Tensor) and total.op.id >= self.first_new_op:
                op.graph.record_adjoint(total, op.outputs[0])
            return [total]
        out: list[Tensor | IndexedSlices | None] = []
        for i, contributions in enumerate(per_output):
            if not contributions:
                out.append(None)
                continue
            if len(contributions) == 1:
                total = contributions[0]
            else:
                with op.graph._gradient_context(op):
                    total = _sum(contributions, method, op.name)
                per_output[i] = [total]
            if isinstance(total, Tensor) and total.op.id >= self.first_new_op:
                op.graph.record_adjoint(total, op.outputs[i])
            out.append(total)
        return out


def _add_input_grads(grads: dict, op: Operation, in_grads: list) -> None:
    """Add the rule's results to the contributions of ``op``'s inputs (shapes checked)."""
    inputs = op.inputs
    for i, g in enumerate(in_grads):
        if g is None:
            continue
        t = inputs[i]
        if isinstance(g, Tensor) and g._shape is not t._shape:
            try:
                g.set_shape(t.shape)
            except ValueError:
                raise ValueError(
                    f"Incompatible shapes between op input and calculated input gradient. Forward "
                    f"operation: {op.name}. Input index: {i}. Original input shape: {t.shape}. "
                    f"Calculated input gradient shape: {g.shape}") from None
        _add_grad(grads, t, g)


def _zeros_for_missing(op: Operation, out_grads: list) -> None:
    """Zeros for the float outputs of ``op`` that received no gradient (a control-flow op's rule
    deals with its own)."""
    for i, g in enumerate(out_grads):
        if g is None and op.outputs[i].dtype.is_differentiable and not op.prim.control:
            out_grads[i] = a.zeros_like(op.outputs[i])


def _reached_ops(from_ops: list) -> set:
    """Ops reachable from ``from_ops`` along float (differentiable) tensors."""
    reached: set[Operation] = set()
    queue = list(from_ops)
    while queue:
        op = queue.pop()
        if op in reached:
            continue
        reached.add(op)
        for t in op.outputs:
            if t.dtype._np.kind in "fc":   # is_differentiable, without a property call per op
                readers = t._consumers   # (Tensor.consumers() without its list copy: once per op)
                if type(readers) is list:
                    queue.extend(readers)
                elif readers is not None:
                    queue.append(readers)
    return reached


def _add_grad(grads: dict, t: Tensor, g: Any) -> None:
    op = t.op
    per_output = grads.get(op)
    if per_output is None:
        if len(op.outputs) == 1:
            grads[op] = [[g]]
            return
        per_output = grads[op] = [[] for _ in op.outputs]
    per_output[t.value_index].append(g)


def _aggregation_method(method: Any) -> int:
    method = AggregationMethod.DEFAULT if method is None else method
    if type(method) is not int or method not in _AGGREGATION_METHODS:
        raise ValueError(f"Invalid `aggregation_method` specified {method}. Accepted values are "
                         f"{list(_AGGREGATION_METHODS)}.")
    return method


def _sum(contributions: list, method: int, op_name: str) -> Any:
    """One tensor's gradient contributions summed: IndexedSlices only are concatenated, a mix with
    dense tensors is densified and added, dense ones use ``method`` (one AddN, or pairwise)."""
    if any(isinstance(g, IndexedSlices) for g in contributions):
        if all(isinstance(g, IndexedSlices) for g in contributions):
            return IndexedSlices(a.concat([g.values for g in contributions], 0),
                                 a.concat([g.indices for g in contributions], 0), contributions[0].dense_shape)
        return m.add_n([convert_to_tensor(g) for g in contributions])
    if method == AggregationMethod.ADD_N:
        return m.add_n(contributions)
    with contributions[0].graph.name_scope(op_name + "_gradient_sum"):
        total = contributions[0]
        for g in contributions[1:]:
            total = m.add_n([total, g])
        return total


def gradient_of(grads: dict, x: Tensor, unconnected: UnconnectedGradients) -> Any:
    """x's summed gradient; without one, None or (``'zero'``) zeros in x's dtype. As in TF 2.21,
    this holds also when x's op received gradients on its other outputs only."""
    per_output = grads.get(x.op)
    if per_output and per_output[x.value_index]:
        return per_output[x.value_index][0]
    return a.zeros_like(x) if unconnected is UnconnectedGradients.ZERO else None
