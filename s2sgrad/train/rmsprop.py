"""``tf.train.RMSPropOptimizer``: TF's ApplyRMSProp / ApplyCenteredRMSProp.

``ms += (grad ** 2 - ms) * (1 - decay)``; centered: ``mg += (grad - mg) * (1 - decay)``;
``mom = mom * momentum + grad * lr / sqrt(ms [- mg ** 2] + epsilon)``; ``var -= mom``.
"""
from __future__ import annotations

from typing import Any

from ..ops import control_flow as cf
from ..ops import math_ops as m
from ..ops import variables as v
from ..ssa.graph import Operation, Tensor
from .optimizer import RowwiseOptimizer


class RMSPropOptimizer(RowwiseOptimizer):
    """RMSProp; slots ``"rms"`` (starting at ones, as in TF1), ``"mg"`` (centered only) and
    ``"momentum"``, named ``<var>/RMSProp``, ``<var>/RMSProp_1``...

    >>> # tf.train.RMSPropOptimizer(0.01, decay=0.9, momentum=0.5, centered=True).minimize(loss)
    """

    def __init__(self, learning_rate: Any, decay: Any = 0.9, momentum: Any = 0.0, epsilon: Any = 1e-10,
                 use_locking: bool = False, centered: bool = False, name: str = "RMSProp") -> None:
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("decay", decay)
        self._set_hyper("momentum", momentum)
        self._set_hyper("epsilon", epsilon)
        self._centered = bool(centered)

    def _create_slots(self, var_list: list) -> None:
        for var in var_list:
            self._slot_with_init(var, "rms", self._name, 1.0)
            if self._centered:
                self._zeros_slot(var, "mg", self._name)
            self._zeros_slot(var, "momentum", self._name)

    def _apply_rows(self, grad: Tensor, rows: Tensor | None, var: v.Variable) -> Operation:
        lr, decay, momentum, epsilon = (self._hyper(name, var)
                                        for name in ("learning_rate", "decay", "momentum", "epsilon"))
        rms, mom = self.get_slot(var, "rms"), self.get_slot(var, "momentum")
        rms_t = v.assign_add(rms, self._in_rows(rows, (m.square(grad) - rms) * (1.0 - decay), 0.0))
        updates = [rms_t]
        denominator = rms_t
        if self._centered:
            mg = self.get_slot(var, "mg")
            mg_t = v.assign_add(mg, self._in_rows(rows, (grad - mg) * (1.0 - decay), 0.0))
            updates.append(mg_t)
            denominator = rms_t - m.square(mg_t)
        mom_t = v.assign(mom, self._in_rows(rows, mom * momentum + grad * lr / m.sqrt(denominator + epsilon), mom))
        return cf.group(v.assign_sub(var, self._in_rows(rows, mom_t, 0.0)), mom_t, *updates)
