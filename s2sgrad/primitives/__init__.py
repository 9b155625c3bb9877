"""The primitive table, filled by the family modules (one entry per op type)."""
from .core import PRIMITIVES, Primitive, define, lookup
from . import state, math, reduce, linalg, array, joining, fills, indexing  # noqa: F401,E402 - each family registers itself

__all__ = ["PRIMITIVES", "Primitive", "define", "lookup"]
