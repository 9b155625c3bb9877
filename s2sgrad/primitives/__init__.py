"""Primitive declarations, one module per family; each primitive is a module constant (``math.TANH``).

``ALL`` lists every declaration and ``BY_NAME`` maps TF op types to them, built here from the
family modules (for the few places that meet op types as strings: ``gradient_override_map``,
``RegisterGradient``).
"""
from __future__ import annotations

from types import ModuleType

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
from .core import Primitive, define

__all__ = ["ALL", "BY_NAME", "FAMILIES", "Primitive", "define"]

FAMILIES: tuple[ModuleType, ...] = (state, math, reduce, linalg, array, joining, fills, indexing, nn, control,
                                     tensor_array, data, segment, debug, sampling, conv, matrix, summary,
                                     eig, numpy_random, complex, numpy_corners, fft)


def _declared(families: tuple[ModuleType, ...]) -> tuple[Primitive, ...]:
    found = [value for family in families for value in vars(family).values() if isinstance(value, Primitive)]
    return tuple(dict.fromkeys(found))


ALL: tuple[Primitive, ...] = _declared(FAMILIES)
BY_NAME: dict[str, Primitive] = {p.name: p for p in ALL}
if len(BY_NAME) != len(ALL):
    raise ValueError(f"two primitives share a name: {sorted(p.name for p in ALL if BY_NAME[p.name] is not p)}")

