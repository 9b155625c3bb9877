"""The primitive table, filled by the family modules (one entry per op type)."""
from .core import PRIMITIVES, Primitive, define, lookup
from . import state, math, reduce, linalg, array, joining, fills, indexing  # noqa: F401,E402 - each family registers itself
from . import nn  # noqa: F401,E402 - neural-network primitives

__all__ = ["PRIMITIVES", "Primitive", "define", "lookup"]
