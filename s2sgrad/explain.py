"""Why is my gradient None? ``explain(ys, xs)`` says, for each x, whether a gradient reaches it
and, when none does (or it is identically zero), what cuts every path, with the user's line.

The analysis follows the walk of ``tf.gradients`` without adding ops: it takes the ops on
some path from x to the ys, then pushes "carries a gradient" forward through them. An op
stops the flow when it is ``tf.stop_gradient``, listed in ``stop_gradients``, declared
non-differentiable (argmax, floor, comparisons...), reads x only for its shape
(``zeros_like``, ``tf.shape``), or produces an integer/bool tensor (a cast, say). Ops whose
derivative is zero everywhere (``sign``) let only zeros through.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

from .autodiff.backprop import as_unconnected_gradients
from .autodiff.walk import UnconnectedGradients, gradient_function
from .ops.convert import convert_to_tensor
from .primitives import array, control, fills, math, reduce, state
from .primitives.core import Primitive
from .ssa.graph import Operation, Tensor

__all__ = ["explain", "analyze", "Reason", "Explanation", "GradientReport"]

# Reason kinds, most specific first.
NO_PATH = "no_path"
NOT_FLOAT_X = "not_float_x"
NOT_FLOAT_Y = "not_float_y"
STOP_GRADIENT = "stop_gradient"
STOP_ARGUMENT = "stop_gradients_argument"
INTEGER = "integer_tensor"
NON_DIFFERENTIABLE = "non_differentiable"
NO_GRADIENT = "no_gradient_registered"
SHAPE_ONLY = "shape_only"
ZERO_DERIVATIVE = "zero_derivative"

_SHAPE_QUERIES = frozenset({array.SHAPE, array.SIZE, array.RANK, fills.ZEROS_LIKE, fills.ONES_LIKE})
_ZERO_DERIVATIVE = frozenset({math.SIGN})
_LIVE, _ZERO = "live", "zero"


@dataclasses.dataclass(frozen=True)
class Reason:
    """One cut on the paths from x to the ys: its kind, the op responsible and where it was made."""

    kind: str
    message: str
    op: Operation | None = None

    @property
    def where(self) -> str:
        """The user's ``file:line`` that created the op ("" when the reason has no op)."""
        return self.op.where if self.op is not None else ""

    def __str__(self) -> str:
        return self.message


@dataclasses.dataclass
class Explanation:
    """The verdict for one x: ``status`` is 'connected', 'unconnected' (the gradient is None, or
    zeros with ``unconnected_gradients='zero'``) or 'zero' (identically zero)."""

    x: Tensor
    label: str
    y_label: str
    status: str
    reasons: list[Reason]
    unconnected: UnconnectedGradients = UnconnectedGradients.NONE

    @property
    def gradient_is_none(self) -> bool:
        """True when ``tf.gradients`` returns None for this x."""
        return self.status == "unconnected" and self.unconnected is UnconnectedGradients.NONE

    def __str__(self) -> str:
        if self.status == "connected":
            head = f"{self.label}: the gradient of {self.y_label} flows to it."
            if self.reasons:
                head += " Some paths are cut, but at least one is not:"
            return "\n".join([head] + [f"  - {r}" for r in self.reasons])
        if self.status == "zero":
            head = f"{self.label}: the gradient is identically zero."
        else:
            value = "None" if self.unconnected is UnconnectedGradients.NONE else "zeros (unconnected)"
            head = f"{self.label}: the gradient is {value}."
        if len(self.reasons) == 1:
            return f"{head} {self.reasons[0]}"
        return "\n".join([f"{head} Every path from it to {self.y_label} is cut:"] +
                         [f"  - {r}" for r in self.reasons])


class GradientReport(list):
    """A list of Explanations, one per x; ``str()`` is the readable report."""

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self)

    def __repr__(self) -> str:
        return f"GradientReport({list.__repr__(self)})"


def explain(ys: Any, xs: Any, stop_gradients: Any = None,
            unconnected_gradients: Any = UnconnectedGradients.NONE) -> GradientReport:
    """Explain, for each x, why ``tf.gradients(ys, xs, stop_gradients=...)`` is None or zero.

    Returns a GradientReport (a list with one Explanation per x); print it to read it.

    >>> import s2sgrad as tf
    >>> x = tf.placeholder(tf.float32, [2], name="x")
    >>> print(tf.explain(tf.reduce_sum(tf.stop_gradient(x)), x))  # doctest: +ELLIPSIS
    'x:0': the gradient is None. The path is cut by tf.stop_gradient at ... (op 'StopGradient'), which blocks...
    """
    ys, xs = _tensors(ys), _tensors(xs)
    stops = _tensors(stop_gradients) if stop_gradients is not None else []
    stop_ops = {t.op: f"'{t.name}' is listed in stop_gradients=" for t in stops}
    unconnected = as_unconnected_gradients(unconnected_gradients)
    y_label = " + ".join(f"'{y.name}'" for y in ys)
    return analyze(ys, xs, stop_ops, [f"'{x.name}'" for x in xs], y_label, unconnected)


def _tensors(values: Any) -> list[Tensor]:
    """A tensor, or a list or tuple of them, as a list of tensors."""
    return [convert_to_tensor(v) for v in (values if isinstance(values, (list, tuple)) else [values])]


def analyze(ys: Sequence[Tensor], xs: Sequence[Tensor], stop_ops: dict, x_labels: Sequence[str], y_label: str,
            unconnected: UnconnectedGradients = UnconnectedGradients.NONE) -> GradientReport:
    """``explain`` with the labels chosen by the caller; ``stop_ops`` maps each stopping op to
    the words that say why it stops (the decorator's ``stop_gradients=`` argument, say)."""
    report = GradientReport()
    for x, label in zip(xs, x_labels, strict=True):
        status, reasons = _Flow(ys, x, stop_ops, label, y_label).verdict()
        report.append(Explanation(x, label, y_label, status, reasons, unconnected))
    return report


class _Flow:
    """Reachability from one x to the ys, then the forward flow of "carries a gradient"."""

    def __init__(self, ys: Sequence[Tensor], x: Tensor, stop_ops: dict, label: str, y_label: str) -> None:
        self.ys, self.x, self.stop_ops = list(ys), x, stop_ops
        self.label, self.y_label = label, y_label
        self.between = self._between()

    def _between(self) -> set[Operation]:
        """Ops on some path from x to a y (all tensors count here, whatever their dtype)."""
        reached: set[Operation] = set()
        stack = list(self.x.consumers())
        while stack:
            op = stack.pop()
            if op not in reached:
                reached.add(op)
                stack.extend(c for t in op.outputs for c in t.consumers())
        between: set[Operation] = set()
        stack = [y.op for y in self.ys if y.op in reached]
        while stack:
            op = stack.pop()
            if op not in between:
                between.add(op)
                stack.extend(t.op for t in op.inputs if t.op in reached)
        return between

    def verdict(self) -> tuple[str, list[Reason]]:
        x = self.x
        if any(y is x for y in self.ys):
            return "connected", []
        if not self.between:
            return "unconnected", [self._no_path()]
        if not x.dtype.is_differentiable:
            return "unconnected", [Reason(NOT_FLOAT_X, f"It is {_an(x.dtype.name)} tensor; only floating-point "
                                                       f"tensors have gradients (created at {x.op.where}).", x.op)]
        state: dict[Tensor, str] = {x: _LIVE}
        reasons: dict[tuple, Reason] = {}
        for op in sorted(self.between, key=lambda o: o.id):
            carried = [(i, t) for i, t in enumerate(op.inputs) if t in state]
            if carried:
                self._step(op, carried, state, reasons)
        flows = [state.get(y) for y in self.ys]
        if _LIVE in flows:
            return "connected", list(reasons.values())
        if _ZERO in flows:
            return "zero", [r for r in reasons.values() if r.kind == ZERO_DERIVATIVE] or list(reasons.values())
        for y in self.ys:
            if y.op in self.between and not y.dtype.is_differentiable and y.op.prim not in _SHAPE_QUERIES:
                reasons.setdefault(("y", y), Reason(NOT_FLOAT_Y, f"{self.y_label} is {_an(y.dtype.name)} tensor; "
                                                                 f"gradients are only taken of floating-point values.",
                                                   y.op))
        return "unconnected", list(reasons.values())

    def _step(self, op: Operation, carried: list, state: dict, reasons: dict) -> None:
        """Propagate through ``op``, or record why the flow stops at it."""
        if op.prim.control and op.attrs.get("back_prop", True):
            self._through_blocks(op, state, reasons)
            return
        block = self._block(op, carried)
        if block is not None:
            reasons.setdefault((block.kind, op), block)
            return
        zero = op.prim in _ZERO_DERIVATIVE or all(state[t] == _ZERO for _, t in carried)
        if op.prim in _ZERO_DERIVATIVE:
            reasons.setdefault((ZERO_DERIVATIVE, op), Reason(
                ZERO_DERIVATIVE, f"The path goes through {_op_text(op)}, whose derivative is zero everywhere.", op))
        for t in op.outputs:
            if t.dtype.is_differentiable:
                state[t] = _ZERO if zero else _LIVE
            elif self._leads_on(t):
                reasons.setdefault((INTEGER, op), Reason(
                    INTEGER, f"{_capital(_op_text(op))} produces {_an(t.dtype.name)} tensor; integer and bool "
                             f"tensors carry no gradient. Keep the values in floating point on the way to "
                             f"{self.y_label}.", op))

    def _through_blocks(self, op: Operation, state: dict, reasons: dict) -> None:
        """Follow the flow into a control-flow op's blocks: an If's output carries what either
        branch's result carries; a loop variable what its initial value or the body (run until
        nothing changes) gives it."""
        regions = op.attrs["_regions"]
        if op.prim is control.IF:
            for region in regions:
                self._run_block(region, state, reasons)
            for j, t in enumerate(op.outputs[:len(regions[0].results)]):
                _join(state, t, *(state.get(region.results[j]) for region in regions))
            return
        first = int(op.prim is control.FOR)
        n = op.attrs["_n_vars"]
        for region in regions:
            for p, init in zip(region.params[first:], op.inputs[first:first + n], strict=True):
                _join(state, p, state.get(init))
        body = regions[-1]
        for _ in range(n + 1):  # each pass can only raise a variable's flow (none < zero < live)
            for region in regions:
                self._run_block(region, state, reasons)
            grew = False
            for j, r in enumerate(body.results):
                for region in regions:
                    grew |= _join(state, region.params[first + j], state.get(r))
            if not grew:
                break
        for p, t in zip(body.params[first:], op.outputs[:n], strict=True):
            _join(state, t, state.get(p))

    def _run_block(self, region: Any, state: dict, reasons: dict) -> None:
        for op in region.ops:
            carried = [(i, t) for i, t in enumerate(op.inputs) if t in state]
            if carried:
                self._step(op, carried, state, reasons)

    def _leads_on(self, t: Tensor) -> bool:
        return any(c in self.between for c in t.consumers()) or any(y is t for y in self.ys)

    def _namesake(self) -> Operation | None:
        """An op the ys do use that looks like x's op recreated (same type, same name up to a suffix)."""
        x_op = self.x.op
        base = _base_name(x_op.name)
        used: set[Operation] = set()
        stack = [y.op for y in self.ys]
        while stack:
            op = stack.pop()
            if op not in used:
                used.add(op)
                stack.extend(t.op for t in op.inputs)
        return next((op for op in sorted(used, key=lambda o: o.id)
                     if op is not x_op and op.prim is x_op.prim and _base_name(op.name) == base), None)

    def _block(self, op: Operation, carried: list) -> Reason | None:
        if op in self.stop_ops:
            return Reason(STOP_ARGUMENT, f"The path is cut at {_op_text(op)}: {self.stop_ops[op]}.", op)
        if op.prim is state.STOP_GRADIENT:
            return Reason(STOP_GRADIENT, f"The path is cut by tf.stop_gradient at {op.where} (op '{op.name}'), "
                                         f"which blocks gradients by design.", op)
        if all(i in op.prim.shape_only for i, _ in carried):
            return Reason(SHAPE_ONLY, f"Only its shape is used, by {_op_text(op)}, not its values.", op)
        try:
            rule = gradient_function(op)
        except LookupError:
            return Reason(NO_GRADIENT, f"The path goes through {_op_text(op)}, which has no gradient function "
                                       f"registered (tf.RegisterGradient).", op)
        if rule is None:
            outputs = ", ".join(sorted({t.dtype.name for t in op.outputs}))
            return Reason(NON_DIFFERENTIABLE, f"The path goes through {_op_text(op)}, which is not differentiable: "
                                              f"it returns {outputs} values and its gradient is None by definition."
                                              f"{_HINTS.get(op.prim, '')}", op)
        return None

    def _no_path(self) -> Reason:
        x = self.x
        later = [y for y in self.ys if y.op.id < x.op.id]
        hint = ""
        if later and len(later) == len(self.ys):
            hint = (f" {self.label} was created at {x.op.where}, after {self.y_label} ({later[0].op.where}): a value "
                    f"computed later cannot influence it.")
        namesake = self._namesake()
        if namesake is not None:
            hint += (f" It does use '{namesake.name}' (created at {namesake.where}), an op of the same kind and name: "
                     f"was {self.label} created twice, e.g. by running a cell or a model-building function again?")
        return Reason(NO_PATH, f"{_capital(self.y_label)} does not depend on it at all: no chain of ops leads from "
                               f"it there.{hint}", x.op)


_HINTS: dict[Primitive, str] = {
    reduce.ARG_MAX: " To differentiate through a choice, weight the candidates (by a softmax, say) instead.",
    reduce.ARG_MIN: " To differentiate through a choice, weight the candidates (by a softmax, say) instead.",
    math.FLOOR: " It is piecewise constant; a straight-through estimate adds stop_gradient(floor(x) - x) to x.",
    math.CEIL: " It is piecewise constant; a straight-through estimate adds stop_gradient(ceil(x) - x) to x.",
    math.ROUND: " It is piecewise constant; a straight-through estimate adds stop_gradient(round(x) - x) to x.",
}
for _comparison in (math.EQUAL, math.NOT_EQUAL, math.LESS, math.LESS_EQUAL, math.GREATER, math.GREATER_EQUAL):
    _HINTS[_comparison] = (" Use the comparison to choose between differentiable values (where(condition, a, b)): "
                           "gradients flow to a and b.")


def _join(state: dict, t: Tensor, *flows: str | None) -> bool:
    """Raise ``t``'s flow to the strongest of ``flows`` (live over zero over none); True if it grew."""
    old = state.get(t)
    new = _LIVE if _LIVE in flows or old == _LIVE else _ZERO if _ZERO in flows or old == _ZERO else None
    if new is None or new == old or not t.dtype.is_differentiable:
        return False
    state[t] = new
    return True


def _an(word: str) -> str:
    return ("an " if word[:1] in "aeio" else "a ") + word


def _base_name(name: str) -> str:
    """``'layer/w_2'`` -> ``'layer/w'``: op names made unique by a numeric suffix."""
    return re.sub(r"_\d+$", "", name)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _op_text(op: Operation) -> str:
    return f"{_FRIENDLY.get(op.prim, op.type)} at {op.where} (op '{op.name}')"


_FRIENDLY: dict[Primitive, str] = {
    math.CAST: "the cast", reduce.ARG_MAX: "argmax", reduce.ARG_MIN: "argmin", math.FLOOR: "floor", math.CEIL: "ceil",
    math.ROUND: "round", math.SIGN: "sign", fills.ZEROS_LIKE: "zeros_like", fills.ONES_LIKE: "ones_like",
    array.SHAPE: "shape", array.SIZE: "size", array.RANK: "rank", math.EQUAL: "the comparison ==",
    math.NOT_EQUAL: "the comparison !=", math.LESS: "the comparison <", math.LESS_EQUAL: "the comparison <=",
    math.GREATER: "the comparison >", math.GREATER_EQUAL: "the comparison >=", math.FLOOR_DIV: "floor division //"}
