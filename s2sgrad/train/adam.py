"""``tf.train.AdamOptimizer``: TF's ApplyAdam, with TF1's ``beta1_power``/``beta2_power``
non-slot variables.

``lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power)``;
``m += (grad - m) * (1 - beta1)``; ``v += (grad ** 2 - v) * (1 - beta2)``;
``var -= m * lr_t / (sqrt(v) + epsilon)``; then both powers are multiplied by their beta.
"""
from __future__ import annotations

from typing import Any

from ..ops import control_flow as cf
from ..ops import math_ops as m
from ..ops import variables as v
from ..ssa.graph import Operation, Tensor, get_default_graph
from .optimizer import Optimizer


class AdamOptimizer(Optimizer):
    """Adam; slots ``"m"`` and ``"v"`` are named ``<var>/Adam`` and ``<var>/Adam_1``.

    >>> # tf.train.AdamOptimizer(learning_rate=0.001).minimize(loss)
    """

    def __init__(self, learning_rate: Any = 0.001, beta1: Any = 0.9, beta2: Any = 0.999, epsilon: Any = 1e-8,
                 use_locking: bool = False, name: str = "Adam") -> None:
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("beta1", beta1)
        self._set_hyper("beta2", beta2)
        self._set_hyper("epsilon", epsilon)

    def _create_slots(self, var_list: list) -> None:
        graph = var_list[0].graph
        self._non_slot_variable(self._hyper_values["beta1"], "beta1_power", graph)
        self._non_slot_variable(self._hyper_values["beta2"], "beta2_power", graph)
        for var in var_list:
            self._zeros_slot(var, "m", self._name)
            self._zeros_slot(var, "v", self._name)

    def _get_beta_accumulators(self) -> tuple[v.Variable, v.Variable]:
        graph = get_default_graph()
        return self._non_slots[("beta1_power", graph)], self._non_slots[("beta2_power", graph)]

    def _apply_dense(self, grad: Tensor, var: v.Variable) -> Operation:
        beta1_power, beta2_power = (m.cast(p, var.dtype) for p in self._get_beta_accumulators())
        lr, beta1, beta2, epsilon = (self._hyper(name, var) for name in ("learning_rate", "beta1", "beta2", "epsilon"))
        lr_t = lr * m.sqrt(1.0 - beta2_power) / (1.0 - beta1_power)
        m_slot, v_slot = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_t = v.assign_add(m_slot, (grad - m_slot) * (1.0 - beta1))
        v_t = v.assign_add(v_slot, (m.square(grad) - v_slot) * (1.0 - beta2))
        var_update = v.assign_sub(var, m_t * lr_t / (m.sqrt(v_t) + epsilon))
        return cf.group(var_update, m_t, v_t)

    def _finish(self, update_ops: list[Operation], name: str) -> Operation:
        """After the updates, multiply ``beta1_power`` and ``beta2_power`` by their betas."""
        powers = self._get_beta_accumulators()
        with powers[0].graph.control_dependencies(update_ops):
            steps = [v.assign(power, power * m.cast(self._hyper_tensors[beta], power.dtype))
                     for power, beta in zip(powers, ("beta1", "beta2"), strict=True)]
        return cf.group(*update_ops, *steps, name=name)
