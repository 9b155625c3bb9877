"""TF 0.x/1.0 spellings old programs still use: ``tf.mul``, ``tf.select``, ``tf.concat(0, [a, b])``...

Each is the current op under its old name, or a thin wrapper where the arguments changed.
"""
from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

from . import dtypes as _dt
from .ops import array_ops, reduce_ops
from .ops.creation import linspace
from .ops.math_ops import multiply, negative, subtract
from .ops.variables import Variable, global_variables, local_variables_initializer, variables_initializer
from .ssa.graph import Tensor

__all__ = ["all_variables", "arg_max", "arg_min", "concat", "concat_v2", "initialize_local_variables",
           "initialize_variables", "lin_space", "mul", "neg", "pack", "select", "sub", "unpack"]

mul, sub, neg = multiply, subtract, negative
pack, unpack, concat_v2 = array_ops.stack, array_ops.unstack, array_ops.concat
initialize_variables, initialize_local_variables = variables_initializer, local_variables_initializer
lin_space = linspace


def all_variables() -> list[Variable]:
    """TF 0.x's name for ``tf.global_variables()``."""
    return global_variables()


def concat(values: Sequence[Any], axis: Any, name: str = "concat") -> Tensor:
    """``values`` joined along ``axis``; TF 0.x's order ``concat(concat_dim, values)`` is accepted too.

    >>> # tf.concat([a, b], 0) and the old tf.concat(0, [a, b]) build the same op
    """
    if isinstance(values, numbers.Integral) and not isinstance(values, bool) and isinstance(axis, (list, tuple)):
        values, axis = axis, values
    return array_ops.concat(values, axis, name=name)


def select(condition: Any, t: Any, e: Any, name: str | None = None) -> Tensor:
    """TF 0.x's name for ``tf.where(condition, t, e)``."""
    return array_ops.where(condition, t, e, name=name)


def arg_max(input: Any, dimension: Any, output_type: Any = _dt.int64, name: str | None = None) -> Tensor:
    """TF 1.0's name for ``tf.argmax(input, axis=dimension)``."""
    return reduce_ops.argmax(input, dimension, name=name, output_type=output_type)


def arg_min(input: Any, dimension: Any, output_type: Any = _dt.int64, name: str | None = None) -> Tensor:
    """TF 1.0's name for ``tf.argmin(input, axis=dimension)``."""
    return reduce_ops.argmin(input, dimension, name=name, output_type=output_type)
