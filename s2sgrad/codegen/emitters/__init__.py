"""The NumPy emitter of every primitive that runs as code, by primitive object.

An elementwise primitive's emitter is its declared ``expr`` (``"np.tanh(x)"``) as a template;
the other primitives' emitters are the family tables (``array.EMITTERS``...), merged here.
Const, Placeholder and VariableV2 have none (the module makes them constants and parameters),
nor Assign (its new value is the assigned value) or NoOp.
"""
from __future__ import annotations

from ...primitives import ALL
from ...primitives.core import Primitive
from . import (
    array,
    complex,
    control,
    conv,
    data,
    debug,
    eig,
    fft,
    fills,
    indexing,
    joining,
    linalg,
    math,
    matrix,
    nn,
    numpy_corners,
    numpy_random,
    reduce,
    sampling,
    segment,
    state,
    summary,
    tensor_array,
)
from .common import Emitter
from .template import template

__all__ = ["EMITTERS", "Emitter", "emitter"]


def _merged(*tables: dict[Primitive, Emitter]) -> dict[Primitive, Emitter]:
    merged: dict[Primitive, Emitter] = {p: template(p.expr, p.expr_args) for p in ALL if p.expr}
    for table in tables:
        twice = sorted(p.name for p in table if p in merged)
        if twice:
            raise ValueError(f"primitives with two emitters (an expr or another table): {twice}")
        merged.update(table)
    return merged


EMITTERS: dict[Primitive, Emitter] = _merged(array.EMITTERS, control.EMITTERS,
                                             fills.EMITTERS, indexing.EMITTERS, joining.EMITTERS,
                                             linalg.EMITTERS, math.EMITTERS, nn.EMITTERS, reduce.EMITTERS,
                                             state.EMITTERS, tensor_array.EMITTERS, data.EMITTERS,
                                             segment.EMITTERS, debug.EMITTERS, sampling.EMITTERS, conv.EMITTERS,
                                             matrix.EMITTERS, summary.EMITTERS, eig.EMITTERS,
                                             numpy_random.EMITTERS, complex.EMITTERS,
                                             numpy_corners.EMITTERS, fft.EMITTERS)


def emitter(prim: Primitive) -> Emitter | None:
    """``prim``'s emitter, or None for the primitives that are not computed by an expression."""
    return EMITTERS.get(prim)
