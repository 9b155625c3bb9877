"""Per-primitive simplifications: an instruction whose result is already at hand (``x + 0``,
``-(-x)``, a reshape to the same shape) is replaced by that value. ``optimize`` applies them.

Each rule takes the instruction, its arguments already rewritten, and returns the Value(s)
to reuse for its outputs, or None to keep it.
"""
from __future__ import annotations

from collections.abc import Callable

from ..primitives import array, fills, joining, math, reduce, state
from ..primitives.common import normalize_axes
from ..primitives.core import Primitive
from .emitters.array import permutation
from .program import Instr, Value

__all__ = ["SIMPLIFY", "Simplifier"]

Simplifier = Callable[[Instr], "Value | list[Value] | None"]


def same_shape_input(ins: Instr) -> Value | None:
    """The op returns its first input unchanged when the shapes agree."""
    x = ins.args[0]
    return x if x.shape.is_fully_defined() and x.shape == ins.outs[0].shape else None


def _first_arg(ins: Instr) -> Value:
    return ins.args[0]


def _all_args(ins: Instr) -> list[Value]:
    return list(ins.args)


def _single_arg(ins: Instr) -> Value | None:
    """A sum or concatenation of one value is that value."""
    return ins.args[0] if len(ins.args) == 1 else None


def _same_value(ins: Instr, identity: float, position: int = 1) -> Value | None:
    """``x op c`` is ``x`` when ``c`` is the uniform constant ``identity`` and changes no shape."""
    x, c = ins.args[1 - position], ins.args[position]
    if c.const is not None and c.is_uniform() and c.scalar() == identity \
            and x.shape == ins.outs[0].shape and x.dtype is ins.outs[0].dtype:
        return x
    return None


def _right(identity: float) -> Simplifier:
    return lambda ins: _same_value(ins, identity)


def _either_side(identity: float) -> Simplifier:
    def either(ins: Instr) -> Value | None:  # (most products and sums have no constant operand)
        x, y = ins.args
        return (y.const is not None and _same_value(ins, identity, 1)) or \
            (x.const is not None and _same_value(ins, identity, 0)) or None
    return either


def _double_negation(ins: Instr) -> Value | None:
    """``-(-x)`` is ``x``."""
    producer = ins.args[0].producer
    return producer.args[0] if producer is not None and producer.prim is math.NEG else None


def _no_cast(ins: Instr) -> Value | None:
    return ins.args[0] if ins.args[0].dtype is ins.attrs["DstT"] else None


def _identity_perm(ins: Instr) -> Value | None:
    rank = ins.args[0].shape.rank
    return ins.args[0] if rank is not None and permutation(ins) == tuple(range(rank)) else None


def _nothing_to_flip(ins: Instr) -> Value | None:
    """Reversing no axes, or only axes of size 1, changes nothing."""
    x = ins.args[0]
    sizes = x.shape.sizes
    if sizes is None:
        return None
    axes = normalize_axes(ins.attrs["axis"], len(sizes)) or ()
    return x if all(sizes[ax] == 1 for ax in axes) else None


def _noop_reduction(ins: Instr) -> Value | None:
    """Reducing over no axes (or a rank-0 value) returns the input unchanged."""
    x = ins.args[0]
    if x.shape == ins.outs[0].shape and x.shape.rank is not None and (
            x.shape.rank == 0 or ins.attrs["axis"] == ()):
        return x
    return None


SIMPLIFY: dict[Primitive, Simplifier] = {
    math.NEG: _double_negation,
    math.ADD_V2: _either_side(0),
    math.SUB: _right(0),
    math.MUL: _either_side(1),
    math.REAL_DIV: _right(1),
    math.POW: _right(1),
    math.ADD_N: _single_arg,
    math.CAST: _no_cast,
    state.IDENTITY: _first_arg,
    state.STOP_GRADIENT: _first_arg,
    state.IDENTITY_N: _all_args,
    array.RESHAPE: same_shape_input,
    array.SQUEEZE: same_shape_input,
    array.SLICE: same_shape_input,
    array.TRANSPOSE: _identity_perm,
    joining.CONCAT_V2: _single_arg,
    joining.TILE: same_shape_input,
    joining.REVERSE_V2: _nothing_to_flip,
    fills.BROADCAST_TO: same_shape_input,
    fills.PAD: same_shape_input,
    fills.PAD_V2: same_shape_input,
    fills.MIRROR_PAD: same_shape_input,
    fills.MIRROR_PAD_GRAD: same_shape_input,
    reduce.SUM_TO_SHAPE: same_shape_input,
    reduce.BROADCAST_LIKE: same_shape_input,
    reduce.BROADCAST_REDUCED: same_shape_input,
    **dict.fromkeys((reduce.SUM, reduce.MEAN, reduce.MAX, reduce.MIN, reduce.PROD, reduce.ALL, reduce.ANY),
                    _noop_reduction),
}
