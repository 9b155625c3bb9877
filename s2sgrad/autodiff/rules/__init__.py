"""Gradient rules, one module per primitive family, built from the public op functions.

``RULES`` maps each differentiable primitive to its rule ``(op, needed, *out_grads)``
(``common.Rule``); declared non-differentiable primitives have none.
"""
from __future__ import annotations

from ...primitives.core import Primitive
from . import (
               array,
               complex,
               control,
               conv,
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
               reduce,
               segment,
               state,
               tensor_array,
)
from .common import Needed, Rule

__all__ = ["RULES", "Needed", "Rule"]

RULES: dict[Primitive, Rule] = {**state.RULES, **math.RULES, **reduce.RULES, **linalg.RULES, **array.RULES,
                                **joining.RULES, **fills.RULES, **indexing.RULES, **nn.RULES, **control.RULES,
                                **tensor_array.RULES, **segment.RULES, **debug.RULES, **conv.RULES,
                                **matrix.RULES, **eig.RULES, **numpy_corners.RULES, **fft.RULES,
                                **complex.RULES}  # complex last: it extends others' rules
