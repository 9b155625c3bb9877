"""``tf.train.ProximalGradientDescentOptimizer`` and ``ProximalAdagradOptimizer``: TF's
ApplyProximalGradientDescent / ApplyProximalAdagrad (FOBOS).

A gradient step ``prox = var - step * grad`` is followed by the proximal map of
``l1 * |w| + l2 / 2 * w ** 2``: ``sign(prox) * max(|prox| - step * l1, 0) / (1 + step * l2)``.
Adagrad's ``step`` is ``lr / sqrt(accum)`` after ``accum += grad ** 2``.
"""
from __future__ import annotations

import numbers
from typing import Any

from ..ops import control_flow as cf
from ..ops import math_ops as m
from ..ops import variables as v
from ..ssa.graph import Operation, Tensor
from .optimizer import RowwiseOptimizer


class _Proximal(RowwiseOptimizer):
    """The l1/l2 hyper-parameters and the proximal map the two optimizers share."""

    _has_l1: bool

    def __init__(self, learning_rate: Any, l1: Any, l2: Any, use_locking: bool, name: str) -> None:
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("l1_regularization_strength", l1)
        self._set_hyper("l2_regularization_strength", l2)
        self._has_l1 = not (isinstance(l1, numbers.Real) and l1 <= 0)

    def _proximal_step(self, var: v.Variable, grad: Tensor, step: Tensor, rows: Tensor | None) -> Tensor:
        """Assign ``var`` its proximal-gradient update with step size ``step``."""
        l1 = self._hyper("l1_regularization_strength", var)
        l2 = self._hyper("l2_regularization_strength", var)
        prox = var - grad * step
        if self._has_l1:
            prox = m.sign(prox) * m.maximum(m.abs(prox) - step * l1, 0.0)
        return v.assign(var, self._in_rows(rows, prox / (1.0 + step * l2), var))


class ProximalGradientDescentOptimizer(_Proximal):
    """Gradient descent followed by l1 shrinkage and l2 scaling; no slots.

    >>> # tf.train.ProximalGradientDescentOptimizer(0.1, l1_regularization_strength=0.01).minimize(loss)
    """

    def __init__(self, learning_rate: Any, l1_regularization_strength: Any = 0.0,
                 l2_regularization_strength: Any = 0.0, use_locking: bool = False,
                 name: str = "ProximalGradientDescent") -> None:
        super().__init__(learning_rate, l1_regularization_strength, l2_regularization_strength, use_locking, name)

    def _apply_rows(self, grad: Tensor, rows: Tensor | None, var: v.Variable) -> Operation:
        return self._proximal_step(var, grad, self._hyper("learning_rate", var), rows).op


class ProximalAdagradOptimizer(_Proximal):
    """Adagrad's per-element step followed by the proximal map; the slot ``"accumulator"``
    (``<var>/ProximalAdagrad``) starts at ``initial_accumulator_value``.

    >>> # tf.train.ProximalAdagradOptimizer(0.1, l2_regularization_strength=0.001).minimize(loss)
    """

    _initial_accumulator_value: float

    def __init__(self, learning_rate: Any, initial_accumulator_value: float = 0.1,
                 l1_regularization_strength: Any = 0.0, l2_regularization_strength: Any = 0.0,
                 use_locking: bool = False, name: str = "ProximalAdagrad") -> None:
        if not isinstance(initial_accumulator_value, numbers.Real) or not initial_accumulator_value > 0.0:
            raise ValueError(f"initial_accumulator_value must be positive: {initial_accumulator_value}")
        super().__init__(learning_rate, l1_regularization_strength, l2_regularization_strength, use_locking, name)
        self._initial_accumulator_value = float(initial_accumulator_value)

    def _create_slots(self, var_list: list) -> None:
        for var in var_list:
            self._slot_with_init(var, "accumulator", self._name, self._initial_accumulator_value)

    def _apply_rows(self, grad: Tensor, rows: Tensor | None, var: v.Variable) -> Operation:
        accum = self.get_slot(var, "accumulator")
        accum_t = v.assign_add(accum, self._in_rows(rows, m.square(grad), 0.0))
        step = self._hyper("learning_rate", var) * m.rsqrt(accum_t)
        return cf.group(self._proximal_step(var, grad, step, rows), accum_t)
