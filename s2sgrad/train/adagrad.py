"""``tf.train.AdagradOptimizer``: TF's ApplyAdagrad.

``accum += grad ** 2``; ``var -= grad * lr / sqrt(accum)``.
"""
from __future__ import annotations

import numbers
from typing import Any

from ..ops import control_flow as cf
from ..ops import math_ops as m
from ..ops import variables as v
from ..ssa.graph import Operation, Tensor
from .optimizer import Optimizer


class AdagradOptimizer(Optimizer):
    """Per-element learning rates from the sum of squared gradients; the slot ``"accumulator"``
    (``<var>/Adagrad``) starts at ``initial_accumulator_value``.

    >>> # tf.train.AdagradOptimizer(0.1).minimize(loss)
    """

    _initial_accumulator_value: float

    def __init__(self, learning_rate: Any, initial_accumulator_value: float = 0.1, use_locking: bool = False,
                 name: str = "Adagrad") -> None:
        if not isinstance(initial_accumulator_value, numbers.Real) or not initial_accumulator_value > 0.0:
            raise ValueError(f"initial_accumulator_value must be positive: {initial_accumulator_value}")
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)
        self._initial_accumulator_value = float(initial_accumulator_value)

    def _create_slots(self, var_list: list) -> None:
        for var in var_list:
            self._slot_with_init(var, "accumulator", self._name, self._initial_accumulator_value)

    def _apply_dense(self, grad: Tensor, var: v.Variable) -> Operation:
        accum_t = v.assign_add(self.get_slot(var, "accumulator"), m.square(grad))
        step = grad * self._hyper("learning_rate", var) * m.rsqrt(accum_t)
        return cf.group(v.assign_sub(var, step), accum_t)
