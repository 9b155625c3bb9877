"""Op cases made from the elementwise declarations (``primitives/math.py``): every declaration with a NumPy
ufunc (``numpy=``) gets one case per dtype kind it accepts, for its first ``tf_names`` function:

- float64 inputs drawn from the op's domain (``DOMAINS``, one ``(lo, hi)`` per input; default ``-2..2`` and,
  for a second input, ``0.5..1.5``), a (3, 4) and, for binary ops, a (4,) operand that broadcasts against it;
- the int32 pair ``I, J`` (where NumPy computes the ufunc in int32) and the bool pair ``B, C`` of
  ``cases_math.py``;
- expected values from the declared ufunc; first and second derivatives by finite differences where the op is
  differentiable.

Special inputs (NaN and inf, other broadcasts, operators, Python scalars) stay hand-written in ``cases_math.py``.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cases_math import B, C, I, J
from optable import OpCase
from s2sgrad.ops import math_ops
from s2sgrad.primitives import ALL
from s2sgrad.primitives import math as P
from s2sgrad.primitives.core import Primitive

R = np.random.default_rng(7)
UNIT = (R.uniform(size=(3, 4)), R.uniform(size=(4,)))   # scaled into each op's domain

_POSITIVE = (0.2, 0.9)
DOMAINS: dict[Primitive, Sequence[tuple[float, float]]] = {
    P.SQRT: [_POSITIVE], P.LOG: [_POSITIVE], P.LOG1P: [_POSITIVE], P.RECIPROCAL: [_POSITIVE],
    P.TAN: [_POSITIVE], P.ASIN: [_POSITIVE], P.ACOS: [_POSITIVE],
    P.POW: [_POSITIVE, (0.5, 1.5)], P.FLOOR_MOD: [(-3.0, 3.0), (0.5, 1.5)],
}
_DEFAULT_DOMAIN = [(-2.0, 2.0), (0.5, 1.5)]
NO_INT_CASE = {P.POW: "J has negative exponents, which integer powers reject: pow_int in cases_math.py"}


def _floats(prim: Primitive) -> list[np.ndarray]:
    domain = DOMAINS.get(prim, _DEFAULT_DOMAIN)
    return [lo + (hi - lo) * unit for (lo, hi), unit in zip(domain[:prim.arity], UNIT[:prim.arity], strict=True)]


def _has_loop(ufunc: np.ufunc, dtype: np.dtype) -> bool:
    """Whether NumPy computes ``ufunc`` in ``dtype`` (``np.rint`` casts integers to float64; TF's Round does not)."""
    return ufunc.resolve_dtypes((dtype,) * ufunc.nin + (None,))[0] == dtype


def _cases(prim: Primitive) -> list[OpCase]:
    name, kinds = prim.tf_names[0], P.KINDS[prim.kinds]
    function: Any = getattr(math_ops, name, None)
    reference = prim.numpy[0]
    cases: list[OpCase] = []
    if function is None:  # test_declared_ops.py says which line ops/math_ops.py lacks
        return cases
    if "f" in kinds:
        cases.append(OpCase(name, function, _floats(prim), reference, grad=prim.differentiable,
                            order2=prim.differentiable))
    if "i" in kinds and prim not in NO_INT_CASE and _has_loop(reference, I.dtype):
        cases.append(OpCase(f"{name}_int", function, [I, J][:prim.arity], reference, grad=False))
    if "b" in kinds:
        cases.append(OpCase(f"{name}_bool", function, [B, C][:prim.arity], reference, grad=False))
    return cases


DECLARED = [p for p in ALL if p.arity is not None and p.numpy and p.tf_names]
CASES = [case for prim in DECLARED for case in _cases(prim)]
