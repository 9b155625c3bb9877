"""``tf.train.AdagradDAOptimizer``: TF's ApplyAdagradDA (Adagrad dual averaging).

``g_acc += grad``; ``gg_acc += grad ** 2``; with ``t = global_step + 1``:
``var = -lr * sign(g_acc) * max(|g_acc| - l1 * t, 0) / (l2 * t * lr + sqrt(gg_acc))``
(without l1: ``-lr * g_acc / (...)``). The variable is recomputed from the accumulators, not stepped.
"""
from __future__ import annotations

import numbers
from typing import Any

from ..ops import control_flow as cf
from ..ops import math_ops as m
from ..ops import variables as v
from ..ops.convert import is_tensor_like
from ..ssa.graph import Operation, Tensor
from .optimizer import RowwiseOptimizer


class AdagradDAOptimizer(RowwiseOptimizer):
    """Dual averaging; slots ``"gradient_accumulator"`` (zeros) and ``"gradient_squared_accumulator"``
    (``initial_gradient_squared_accumulator_value``), named ``<var>/AdagradDA`` and ``<var>/AdagradDA_1``.
    ``global_step`` (its value at the start of the run, plus one) sets the regularization's weight.

    >>> # step = tf.train.get_or_create_global_step()
    >>> # tf.train.AdagradDAOptimizer(0.1, step).minimize(loss, global_step=step)
    """

    _initial_value: float
    _global_step: Any
    _has_l1: bool

    def __init__(self, learning_rate: Any, global_step: Any, initial_gradient_squared_accumulator_value: float = 0.1,
                 l1_regularization_strength: Any = 0.0, l2_regularization_strength: Any = 0.0,
                 use_locking: bool = False, name: str = "AdagradDA") -> None:
        value = initial_gradient_squared_accumulator_value
        if not isinstance(value, numbers.Real) or not value > 0.0:
            raise ValueError(f"initial_gradient_squared_accumulator_value must be positive: {value}")
        if not is_tensor_like(global_step):
            raise TypeError(f"global_step must be a Tensor or Variable (the global step), got {global_step!r}")
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("l1_regularization_strength", l1_regularization_strength)
        self._set_hyper("l2_regularization_strength", l2_regularization_strength)
        self._initial_value = float(value)
        self._global_step = global_step
        self._has_l1 = not (isinstance(l1_regularization_strength, numbers.Real) and l1_regularization_strength <= 0)

    def _create_slots(self, var_list: list) -> None:
        for var in var_list:
            self._zeros_slot(var, "gradient_accumulator", self._name)
            self._slot_with_init(var, "gradient_squared_accumulator", self._name, self._initial_value)

    def _apply_rows(self, grad: Tensor, rows: Tensor | None, var: v.Variable) -> Operation:
        lr, l1, l2 = (self._hyper(name, var) for name in (
            "learning_rate", "l1_regularization_strength", "l2_regularization_strength"))
        t = m.cast(self._global_step + 1, var.dtype)
        g_acc = self.get_slot(var, "gradient_accumulator")
        gg_acc = self.get_slot(var, "gradient_squared_accumulator")
        g_acc_t = v.assign_add(g_acc, self._in_rows(rows, grad, 0.0))
        gg_acc_t = v.assign_add(gg_acc, self._in_rows(rows, m.square(grad), 0.0))
        numerator = g_acc_t
        if self._has_l1:
            numerator = m.sign(g_acc_t) * m.maximum(m.abs(g_acc_t) - l1 * t, 0.0)
        new = -lr * numerator / (l2 * t * lr + m.sqrt(gg_acc_t))
        return cf.group(v.assign(var, self._in_rows(rows, new, var)), g_acc_t, gg_acc_t)
