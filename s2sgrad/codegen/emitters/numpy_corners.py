"""Emitters for the decorator's corner primitives: none beyond their declared expressions
(``np.maximum(x, y)``, ``np.fmin(x, y)``, ``np.clip(x, lo, hi)``, ``np.cbrt(x)``...)."""
from __future__ import annotations

from ...primitives.core import Primitive
from .common import Emitter

EMITTERS: dict[Primitive, Emitter] = {}
