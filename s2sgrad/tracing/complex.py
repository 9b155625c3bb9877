"""Complex values: ``np.real``, ``np.imag``, ``np.angle``, ``np.conj``/``np.conjugate`` (and the
``.real``/``.imag``/``.conj()`` of traced arrays). Gradients follow TF's convention: for a real
result ``L`` of a complex argument ``z = x + iy``, ``grad`` returns ``dL/dx + i dL/dy``."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..ops import complex_ops as c
from .convert import as_traced
from .registry import implements, ufunc_rule
from .traced import Traced

ufunc_rule(np.conjugate)(c.conj)


@implements(np.real)
def _real(val: Any) -> Traced:
    x = as_traced(val)
    return Traced(c.real(x.tensor)) if x.dtype.kind == "c" else x


@implements(np.imag)
def _imag(val: Any) -> Traced:
    x = as_traced(val)
    return Traced(c.imag(x.tensor))


@implements(np.angle)
def _angle(z: Any, deg: bool = False) -> Traced:
    x = as_traced(z)
    if x.dtype.kind != "c":
        x = as_traced(x, x.dtype if x.dtype.kind == "f" else np.dtype(np.float64))
    angle = Traced(c.angle(x.tensor))
    return angle * (180 / np.pi) if deg else angle
