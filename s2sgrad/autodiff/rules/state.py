"""Gradient rules of the state primitives."""
from __future__ import annotations

from ...primitives import state as P
from ...primitives.core import Primitive
from .common import Rule

RULES: dict[Primitive, Rule] = {
    P.PLACEHOLDER_WITH_DEFAULT: lambda op, needed, g: [g],
    P.IDENTITY: lambda op, needed, g: [g],
    P.IDENTITY_N: lambda op, needed, *grads: list(grads),
}
