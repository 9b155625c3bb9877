"""The emitter of ``RealEig``: NumPy's ``np.linalg.eig`` through ``rt.real_eig``, which raises
when an eigenvalue is complex instead of returning complex arrays to real code."""
from __future__ import annotations

from ...primitives import eig as P
from ...primitives.core import Primitive
from .common import Emitter, rt_call

EMITTERS: dict[Primitive, Emitter] = {P.REAL_EIG: lambda ins, args: rt_call("real_eig", [args[0]])}
