"""Emitters for complex numbers: none beyond their declared expressions (``x + 1j * y``,
``np.real(x)``, ``np.imag(x)``, ``np.conj(x)``, ``np.angle(x)``), which ``emitters`` turns into emitters."""
from __future__ import annotations

from ...primitives.core import Primitive
from .common import Emitter

EMITTERS: dict[Primitive, Emitter] = {}
