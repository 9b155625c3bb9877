"""``tf.train.FtrlOptimizer``: TF's ApplyFtrl / ApplyFtrlV2 (FTRL-Proximal).

With ``p = -learning_rate_power`` and ``g' = grad + 2 * l2_shrinkage * var``:
``accum_new = accum + grad ** 2``; ``linear += g' - (accum_new ** p - accum ** p) / lr * var``;
``var = (sign(linear) * l1 - linear) / (accum_new ** p / lr + 2 * l2)`` where ``|linear| > l1``, else 0.
``beta`` adds ``beta / (2 * lr)`` to ``l2``.
"""
from __future__ import annotations

import numbers
from typing import Any

from ..ops import array_ops as a
from ..ops import control_flow as cf
from ..ops import math_ops as m
from ..ops import variables as v
from ..ssa.graph import Operation, Tensor
from .optimizer import RowwiseOptimizer


def _at_least_zero(value: Any, what: str, sign: str = "positive") -> None:
    if isinstance(value, (int, float)) and (value < 0.0 if sign == "positive" else value > 0.0):
        raise ValueError(f"{what} {value:f} needs to be {sign} or zero")


class FtrlOptimizer(RowwiseOptimizer):
    """FTRL-Proximal; slots ``"accum"`` (``initial_accumulator_value``) and ``"linear"`` (zeros), named
    ``<var>/<accum_name or name>`` and ``<var>/<linear_name or name>`` (``Ftrl``, ``Ftrl_1`` by default).

    >>> # tf.train.FtrlOptimizer(0.1, l1_regularization_strength=0.01).minimize(loss)
    """

    _initial_accumulator_value: float
    _accum_name: str | None
    _linear_name: str | None
    _shrinkage: bool
    _sqrt: bool

    def __init__(self, learning_rate: Any, learning_rate_power: Any = -0.5, initial_accumulator_value: float = 0.1,
                 l1_regularization_strength: Any = 0.0, l2_regularization_strength: Any = 0.0,
                 use_locking: bool = False, name: str = "Ftrl", accum_name: str | None = None,
                 linear_name: str | None = None, l2_shrinkage_regularization_strength: Any = 0.0,
                 beta: Any = None) -> None:
        super().__init__(use_locking, name)
        _at_least_zero(initial_accumulator_value, "initial_accumulator_value")
        _at_least_zero(learning_rate_power, "learning_rate_power", "negative")
        _at_least_zero(l1_regularization_strength, "l1_regularization_strength")
        _at_least_zero(l2_regularization_strength, "l2_regularization_strength")
        _at_least_zero(l2_shrinkage_regularization_strength, "l2_shrinkage_regularization_strength")
        if not isinstance(initial_accumulator_value, numbers.Real):
            raise TypeError(f"initial_accumulator_value must be a Python number, got {initial_accumulator_value!r}")
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("learning_rate_power", learning_rate_power)
        self._set_hyper("l1_regularization_strength", l1_regularization_strength)
        self._set_hyper("l2_regularization_strength", l2_regularization_strength)
        self._set_hyper("l2_shrinkage_regularization_strength", l2_shrinkage_regularization_strength)
        self._set_hyper("beta", 0.0 if beta is None else beta)
        self._initial_accumulator_value = float(initial_accumulator_value)
        self._shrinkage = not (isinstance(l2_shrinkage_regularization_strength, numbers.Real)
                               and l2_shrinkage_regularization_strength <= 0.0)
        self._accum_name, self._linear_name = accum_name, linear_name
        self._sqrt = isinstance(learning_rate_power, numbers.Real) and learning_rate_power == -0.5

    def _create_slots(self, var_list: list) -> None:
        for var in var_list:
            self._slot_with_init(var, "accum", self._accum_name or self._name, self._initial_accumulator_value)
            self._zeros_slot(var, "linear", self._linear_name or self._name)

    def _prepare(self) -> None:
        """As TF, ``l2`` becomes ``l2 + beta / (2 * max(lr, 1e-36))`` once, in float32."""
        super()._prepare()
        t = self._hyper_tensors
        t["l2_regularization_strength"] = m.add(
            t["l2_regularization_strength"], t["beta"] / (2.0 * m.maximum(t["learning_rate"], 1e-36)),
            name="adjusted_l2_regularization_strength")

    def _apply_rows(self, grad: Tensor, rows: Tensor | None, var: v.Variable) -> Operation:
        lr, power, l1, l2 = (self._hyper(name, var) for name in (
            "learning_rate", "learning_rate_power", "l1_regularization_strength", "l2_regularization_strength"))
        accum, linear = self.get_slot(var, "accum"), self.get_slot(var, "linear")
        shrunk = grad
        if self._shrinkage:
            shrunk = grad + 2.0 * self._hyper("l2_shrinkage_regularization_strength", var) * var
        accum_new = accum + m.square(grad)
        if self._sqrt:   # TF's kernels special-case the default power
            accum_pow, accum_new_pow = m.sqrt(accum), m.sqrt(accum_new)
        else:
            accum_pow, accum_new_pow = m.pow(accum, -power), m.pow(accum_new, -power)
        linear_t = v.assign(linear, self._in_rows(rows, linear + shrunk - (accum_new_pow - accum_pow) / lr * var,
                                                  linear))
        quadratic = accum_new_pow / lr + 2.0 * l2
        solution = (m.sign(linear_t) * l1 - linear_t) / quadratic
        solution = a.where_v2(m.greater(m.abs(linear_t), l1), solution, a.zeros_like(solution))
        var_t = v.assign(var, self._in_rows(rows, solution, var))
        return cf.group(var_t, linear_t, v.assign(accum, self._in_rows(rows, accum_new, accum)))

