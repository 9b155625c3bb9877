"""``tf.train.ExponentialMovingAverage``: shadow variables ``<var>/<name>`` that ``apply()`` moves
towards the variables' values, ``shadow -= (shadow - value) * (1 - decay)``.

In one run a variable reads as its value from the start of the run, so ``apply()`` averages that
value - except under ``with tf.control_dependencies([train_op]): ema.apply(...)``, where its ops
read the values ``train_op`` assigns, as every op under control dependencies does (so, as in TF,
the new values are averaged and a ``num_updates`` global step counts the new step).
"""
from __future__ import annotations

from typing import Any

from .. import dtypes as _dt
from ..ops import array_ops as a
from ..ops import control_flow as cf
from ..ops import math_ops as m
from ..ops import variables as v
from ..ops.convert import convert_to_tensor
from ..ssa.graph import Operation, Tensor, get_default_graph

__all__ = ["ExponentialMovingAverage", "assign_moving_average", "moving_average_variables"]

MOVING_AVERAGE_VARIABLES = "moving_average_variables"
_FLOAT_TYPES = (_dt.float16, _dt.float32, _dt.float64)


def moving_average_variables(scope: str | None = None) -> list[v.Variable]:
    """The variables ``ExponentialMovingAverage.apply`` keeps averages of."""
    return get_default_graph().get_collection(MOVING_AVERAGE_VARIABLES, scope)


def assign_moving_average(variable: v.Variable, value: Any, decay: Any, zero_debias: bool = True,
                          name: str | None = None) -> Tensor:
    """``variable -= (variable - value) * (1 - decay)``; with ``zero_debias`` (for a zero-initialised
    ``variable``) a biased average and a step count, ``<variable>/biased`` and ``<variable>/local_step``,
    are kept and ``variable`` becomes ``biased / (1 - decay ** step)``."""
    with variable.graph.as_default(), variable.graph.name_scope(name or "AssignMovingAvg") as scope:
        one_minus_decay = m.cast(m.subtract(1.0, convert_to_tensor(decay), name="decay"), variable.dtype)
        value = convert_to_tensor(value)
        if not zero_debias:
            return v.assign_sub(variable, (variable - value) * one_minus_decay, name=scope)
        with variable.graph.name_scope(None), variable.graph.control_dependencies(None):
            base = variable.op.name
            biased = v.Variable(a.zeros_like(variable.initial_value), trainable=False, name=f"{base}/biased")
            local_step = v.Variable(a.zeros([], variable.dtype), trainable=False, name=f"{base}/local_step")
        biased_t = v.assign_sub(biased, (biased - value) * one_minus_decay)
        step_t = v.assign_add(local_step, m.cast(1, variable.dtype))
        bias_factor = 1.0 - m.pow(1.0 - one_minus_decay, step_t)
        return v.assign(variable, biased_t / bias_factor, name=scope)


class ExponentialMovingAverage:
    """Moving averages of variables (or tensors); ``decay`` is lowered to ``(1 + n) / (10 + n)`` early
    on when ``num_updates`` (e.g. the global step) is given.

    >>> # ema = tf.train.ExponentialMovingAverage(0.999, num_updates=step)
    >>> # ema_op = ema.apply(tf.trainable_variables()); shadow = ema.average(w)
    """

    def __init__(self, decay: Any, num_updates: Any = None, zero_debias: bool = False,
                 name: str = "ExponentialMovingAverage") -> None:
        if not isinstance(name, str) or not name:
            raise ValueError(f"ExponentialMovingAverage: name must be a non-empty string, got {name!r}")
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = bool(zero_debias)
        self._name = name
        self._averages: dict[Any, v.Variable] = {}
        self._debiased: set[v.Variable] = set()

    @property
    def name(self) -> str:
        return self._name

    def apply(self, var_list: Any = None) -> Operation:
        """Create the shadow variables of ``var_list`` (default: the trainable variables) on first use
        and return the op that moves every average one step."""
        graph = get_default_graph()
        if var_list is None:
            var_list = graph.get_collection(v.TRAINABLE_VARIABLES)
        var_list = list(var_list)
        for var in var_list:
            if not isinstance(var, (v.Variable, Tensor)):
                raise TypeError(f"ExponentialMovingAverage.apply: expected Variables or Tensors, got {var!r}")
            if var.dtype not in _FLOAT_TYPES:
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
            if var not in self._averages:
                self._averages[var] = self._shadow(var)
        with graph.name_scope(self._name) as scope:
            decay = a.identity(convert_to_tensor(self._decay, dtype=_dt.float32), name="decay")
            if self._num_updates is not None:
                n = m.cast(self._num_updates, _dt.float32, name="num_updates")
                decay = m.minimum(decay, (1.0 + n) / (10.0 + n))
            updates = [assign_moving_average(self._averages[var], var, decay,
                                             zero_debias=self._averages[var] in self._debiased)
                       for var in var_list]
            return cf.group(*updates, name=scope)

    def _shadow(self, var: Any) -> v.Variable:
        """A Variable's shadow starts at its initial value; a Tensor's at zeros (debiased if asked). Created
        outside any control_dependencies, so that initialising it runs nothing else."""
        with var.graph.as_default(), var.graph.name_scope(None), var.graph.control_dependencies(None):
            name = f"{var.op.name}/{self._name}"
            if isinstance(var, v.Variable):
                var.graph.add_to_collection(MOVING_AVERAGE_VARIABLES, var)
                return v.Variable(var.initial_value, trainable=False, name=name)
            if not var.shape.is_fully_defined():
                raise ValueError(f"ExponentialMovingAverage: the shape of {var.name} must be fully defined, "
                                 f"got {var.shape}")
            avg = v.Variable(a.zeros(var.shape.as_list(), var.dtype), trainable=False, name=name)
            if self._zero_debias:
                self._debiased.add(avg)
            return avg

    def average(self, var: Any) -> v.Variable | None:
        """The shadow variable of ``var``, or None."""
        return self._averages.get(var)

    def average_name(self, var: Any) -> str:
        """The (op) name of ``var``'s shadow variable, whether ``apply`` has created it yet or not."""
        if var in self._averages:
            return self._averages[var].op.name
        return get_default_graph().unique_name(f"{var.op.name}/{self._name}", mark_as_used=False)

    def variables_to_restore(self, moving_avg_variables: Any = None) -> dict[str, v.Variable]:
        """``{shadow name: variable}`` for the averaged variables (default: trainable and moving-average
        ones) and ``{name: variable}`` for every other global variable: a Saver map that loads averages."""
        graph = get_default_graph()
        if moving_avg_variables is None:
            moving_avg_variables = graph.get_collection(v.TRAINABLE_VARIABLES) + moving_average_variables()
        averaged = list(dict.fromkeys(moving_avg_variables))
        names = {self.average_name(var): var for var in averaged}
        averaged_names = {var.name for var in averaged}
        for var in graph.get_collection(v.GLOBAL_VARIABLES):
            if var.name not in averaged_names and var.op.name not in names:
                names[var.op.name] = var
        return names
