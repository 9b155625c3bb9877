"""``tf.train.AdadeltaOptimizer``: TF's ApplyAdadelta.

``accum = accum * rho + grad ** 2 * (1 - rho)``;
``update = grad * sqrt(accum_update + epsilon) / sqrt(accum + epsilon)``;
``accum_update = accum_update * rho + update ** 2 * (1 - rho)``; ``var -= lr * update``.
"""
from __future__ import annotations

from typing import Any

from ..ops import control_flow as cf
from ..ops import math_ops as m
from ..ops import variables as v
from ..ssa.graph import Operation, Tensor
from .optimizer import RowwiseOptimizer


class AdadeltaOptimizer(RowwiseOptimizer):
    """Adadelta; slots ``"accum"`` and ``"accum_update"`` are named ``<var>/Adadelta`` and ``<var>/Adadelta_1``.

    >>> # tf.train.AdadeltaOptimizer(1.0, rho=0.95, epsilon=1e-6).minimize(loss)
    """

    def __init__(self, learning_rate: Any = 0.001, rho: Any = 0.95, epsilon: Any = 1e-8, use_locking: bool = False,
                 name: str = "Adadelta") -> None:
        super().__init__(use_locking, name)
        self._set_hyper("lr", learning_rate)
        self._set_hyper("rho", rho)
        self._set_hyper("epsilon", epsilon)

    def _create_slots(self, var_list: list) -> None:
        for var in var_list:
            self._zeros_slot(var, "accum", self._name)
            self._zeros_slot(var, "accum_update", self._name)

    def _apply_rows(self, grad: Tensor, rows: Tensor | None, var: v.Variable) -> Operation:
        lr, rho, epsilon = (self._hyper(name, var) for name in ("lr", "rho", "epsilon"))
        accum, accum_update = self.get_slot(var, "accum"), self.get_slot(var, "accum_update")
        accum_t = v.assign(accum, self._in_rows(rows, accum * rho + m.square(grad) * (1.0 - rho), accum))
        update = m.sqrt(accum_update + epsilon) / m.sqrt(accum_t + epsilon) * grad
        update_t = v.assign(accum_update, self._in_rows(
            rows, accum_update * rho + m.square(update) * (1.0 - rho), accum_update))
        var_t = v.assign_sub(var, self._in_rows(rows, update * lr, 0.0))
        return cf.group(var_t, accum_t, update_t)
