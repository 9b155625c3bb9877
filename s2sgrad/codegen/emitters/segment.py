"""Emitters of the segment reductions: ``rt.sorted_segment(np.maximum, data, ids)`` and
``rt.segment_reduce(np.maximum, data, ids, n, start)`` (``codegen/runtime.py``)."""
from __future__ import annotations

import ast
from collections.abc import Sequence

import numpy as np

from ...primitives import segment as P
from ...primitives.core import Primitive
from ..program import Instr
from .common import Emitter, literal, np_attr, rt_call

_SORTED = {P.SEGMENT_SUM: "add", P.SEGMENT_MAX: "maximum", P.SEGMENT_MIN: "minimum", P.SEGMENT_PROD: "multiply"}
_UNSORTED = {P.UNSORTED_SEGMENT_MAX: "maximum", P.UNSORTED_SEGMENT_MIN: "minimum", P.UNSORTED_SEGMENT_PROD: "multiply"}


def _emit_sorted(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    name = _SORTED.get(ins.prim)
    return rt_call("sorted_segment", [np_attr(name) if name else literal(None), args[0], args[1]])


def _start(ins: Instr) -> ast.expr:
    """What a segment no row reaches holds: the identity of the reduction (as TF: the dtype's
    lowest finite value for max, its highest for min, 1 for the product)."""
    dtype = ins.args[0].dtype
    if ins.prim is P.UNSORTED_SEGMENT_PROD:
        return literal(1)
    info = np.finfo(dtype.np) if dtype.is_floating else np.iinfo(dtype.np)
    value = info.min if ins.prim is P.UNSORTED_SEGMENT_MAX else info.max
    return literal(float(value) if dtype.is_floating else int(value))


def _emit_unsorted(ins: Instr, args: Sequence[ast.expr]) -> ast.expr:
    sizes = ins.outs[0].shape.sizes
    n = sizes[0] if sizes else None
    return rt_call("segment_reduce", [np_attr(_UNSORTED[ins.prim]), args[0], args[1],
                                      literal(n) if n is not None else args[2], _start(ins)])


EMITTERS: dict[Primitive, Emitter] = {
    **dict.fromkeys((P.SEGMENT_SUM, P.SEGMENT_MEAN, P.SEGMENT_MAX, P.SEGMENT_MIN, P.SEGMENT_PROD), _emit_sorted),
    **dict.fromkeys(_UNSORTED, _emit_unsorted),
}
