"""``tf.train.MomentumOptimizer``: TF's ApplyMomentum, optionally with Nesterov's look-ahead.

``accum = accum * momentum + grad``; ``var -= lr * accum`` (Nesterov:
``var -= grad * lr + accum * momentum * lr``).
"""
from __future__ import annotations

from typing import Any

from ..ops import control_flow as cf
from ..ops import variables as v
from ..ssa.graph import Operation, Tensor
from .optimizer import RowwiseOptimizer


class MomentumOptimizer(RowwiseOptimizer):
    """Gradient descent with momentum; the slot ``"momentum"`` is named ``<var>/Momentum``.

    >>> # tf.train.MomentumOptimizer(0.01, momentum=0.9, use_nesterov=True).minimize(loss)
    """

    def __init__(self, learning_rate: Any, momentum: Any, use_locking: bool = False, name: str = "Momentum",
                 use_nesterov: bool = False) -> None:
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("momentum", momentum)
        self._use_nesterov = bool(use_nesterov)

    def _create_slots(self, var_list: list) -> None:
        for var in var_list:
            self._zeros_slot(var, "momentum", self._name)

    def _apply_rows(self, grad: Tensor, rows: Tensor | None, var: v.Variable) -> Operation:
        lr, mu = self._hyper("learning_rate", var), self._hyper("momentum", var)
        accum = self.get_slot(var, "momentum")
        accum_t = v.assign(accum, self._in_rows(rows, accum * mu + grad, accum))
        step = grad * lr + accum_t * mu * lr if self._use_nesterov else accum_t * lr
        return cf.group(v.assign_sub(var, self._in_rows(rows, step, 0.0)), accum_t)
