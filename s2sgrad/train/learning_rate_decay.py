"""``tf.train`` learning-rate schedules: each returns a scalar tensor of the learning rate's dtype
(Python numbers: float32) computed from ``global_step`` when the program runs, with TF's formulas
and names (``ExponentialDecay:0``, ``PolynomialDecay:0``...).

>>> # lr = tf.train.exponential_decay(0.1, tf.train.get_or_create_global_step(), 1000, 0.96, staircase=True)
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .. import dtypes as _dt
from ..ops import array_ops as a
from ..ops import math_ops as m
from ..ops import random_ops
from ..ops.convert import convert_to_tensor, graph_of
from ..ssa.graph import Tensor

__all__ = ["exponential_decay", "piecewise_constant", "piecewise_constant_decay", "polynomial_decay",
           "natural_exp_decay", "inverse_time_decay", "cosine_decay", "cosine_decay_restarts",
           "linear_cosine_decay", "noisy_linear_cosine_decay"]

Body = Callable[[Tensor, Callable[[Any], Tensor], str], Tensor]


def _schedule(what: str, default_name: str, learning_rate: Any, global_step: Any, name: str | None,
              body: Body) -> Tensor:
    """Run ``body(lr, cast, name)`` in the name scope ``name or default_name``; ``cast`` turns a value
    (the step, a hyper-parameter) into a tensor of ``lr``'s dtype, and ``name`` names the result."""
    if global_step is None:
        raise ValueError(f"global_step is required for {what}.")
    graph = graph_of([learning_rate, global_step])
    with graph.as_default(), graph.name_scope(name or default_name) as scope:
        lr = convert_to_tensor(learning_rate, name="initial_learning_rate")
        if lr.dtype not in (_dt.float16, _dt.float32, _dt.float64):
            raise TypeError(f"{what}: learning_rate must be a floating-point number or tensor, got {lr.dtype.name}")
        return body(lr, lambda value: m.cast(value, lr.dtype), scope)


def _step_fraction(step: Tensor, decay_steps: Tensor, staircase: bool) -> Tensor:
    p = step / decay_steps
    return m.floor(p) if staircase else p


def exponential_decay(learning_rate: Any, global_step: Any, decay_steps: Any, decay_rate: Any,
                      staircase: bool = False, name: str | None = None) -> Tensor:
    """``learning_rate * decay_rate ** (global_step / decay_steps)`` (the exponent floored with ``staircase``)."""
    def body(lr: Tensor, cast: Callable[[Any], Tensor], scope: str) -> Tensor:
        p = _step_fraction(cast(global_step), cast(decay_steps), staircase)
        return m.multiply(lr, m.pow(cast(decay_rate), p), name=scope)
    return _schedule("exponential_decay", "ExponentialDecay", learning_rate, global_step, name, body)


def natural_exp_decay(learning_rate: Any, global_step: Any, decay_steps: Any, decay_rate: Any,
                      staircase: bool = False, name: str | None = None) -> Tensor:
    """``learning_rate * exp(-decay_rate) ** (global_step / decay_steps)``, as TF computes it."""
    if global_step is None:
        raise ValueError("global_step is required for natural_exp_decay.")
    graph = graph_of([learning_rate, global_step, decay_rate])
    with graph.as_default():
        rate = m.exp(m.negative(convert_to_tensor(decay_rate)))
    return exponential_decay(learning_rate, global_step, decay_steps, rate, staircase, name)


def inverse_time_decay(learning_rate: Any, global_step: Any, decay_steps: Any, decay_rate: Any,
                       staircase: bool = False, name: str | None = None) -> Tensor:
    """``learning_rate / (1 + decay_rate * global_step / decay_steps)`` (the fraction floored with ``staircase``)."""
    def body(lr: Tensor, cast: Callable[[Any], Tensor], scope: str) -> Tensor:
        p = _step_fraction(cast(global_step), cast(decay_steps), staircase)
        return m.truediv(lr, m.add(cast(1), m.multiply(cast(decay_rate), p)), name=scope)
    return _schedule("inverse_time_decay", "InverseTimeDecay", learning_rate, global_step, name, body)


def polynomial_decay(learning_rate: Any, global_step: Any, decay_steps: Any, end_learning_rate: Any = 0.0001,
                     power: Any = 1.0, cycle: bool = False, name: str | None = None) -> Tensor:
    """From ``learning_rate`` to ``end_learning_rate`` along ``(1 - step / decay_steps) ** power``; after
    ``decay_steps`` it stays at the end, or (``cycle``) restarts over the next multiple of ``decay_steps``."""
    def body(lr: Tensor, cast: Callable[[Any], Tensor], scope: str) -> Tensor:
        step, steps = cast(global_step), cast(decay_steps)
        if cycle:
            steps = steps * a.where_v2(m.equal(step, 0.0), cast(1.0), m.ceil(step / steps))
        else:
            step = m.minimum(step, steps)
        end = cast(end_learning_rate)
        return m.add((lr - end) * m.pow(1.0 - step / steps, cast(power)), end, name=scope)
    return _schedule("polynomial_decay", "PolynomialDecay", learning_rate, global_step, name, body)


def _cosine(fraction: Tensor) -> Tensor:
    """``(1 + cos(pi * fraction)) / 2``."""
    return 0.5 * (1.0 + m.cos(m.cast(math.pi, fraction.dtype) * fraction))


def cosine_decay(learning_rate: Any, global_step: Any, decay_steps: Any, alpha: Any = 0.0,
                 name: str | None = None) -> Tensor:
    """Half a cosine from ``learning_rate`` down to ``alpha * learning_rate`` over ``decay_steps``."""
    def body(lr: Tensor, cast: Callable[[Any], Tensor], scope: str) -> Tensor:
        steps = cast(decay_steps)
        decayed = (1.0 - cast(alpha)) * _cosine(m.minimum(cast(global_step), steps) / steps) + cast(alpha)
        return m.multiply(lr, decayed)   # unnamed, as TF leaves it: CosineDecay/Mul_3
    return _schedule("cosine_decay", "CosineDecay", learning_rate, global_step, name, body)


def cosine_decay_restarts(learning_rate: Any, global_step: Any, first_decay_steps: Any, t_mul: Any = 2.0,
                          m_mul: Any = 1.0, alpha: Any = 0.0, name: str | None = None) -> Tensor:
    """Cosine decay with warm restarts (SGDR): period ``i`` lasts ``first_decay_steps * t_mul ** i``
    steps and starts at ``learning_rate * m_mul ** i``."""
    def body(lr: Tensor, cast: Callable[[Any], Tensor], scope: str) -> Tensor:
        fraction = cast(global_step) / cast(first_decay_steps)
        t, floor_alpha = cast(t_mul), cast(alpha)
        # Period i starts when fraction reaches (1 - t**i) / (1 - t); t == 1 has periods of length 1.
        geometric = m.not_equal(t, 1.0)
        safe_t = a.where_v2(geometric, t, cast(2.0))
        restarts_geometric = m.floor(m.log(1.0 - fraction * (1.0 - safe_t)) / m.log(safe_t))
        restart = a.where_v2(geometric, restarts_geometric, m.floor(fraction))
        start = (1.0 - m.pow(safe_t, restart)) / (1.0 - safe_t)
        within = a.where_v2(geometric, (fraction - start) / m.pow(safe_t, restart), fraction - restart)
        decayed = _cosine(within) * m.pow(cast(m_mul), restart)
        return m.multiply(lr, (1.0 - floor_alpha) * decayed + floor_alpha, name=scope)
    return _schedule("cosine_decay_restarts", "SGDRDecay", learning_rate, global_step, name, body)


def _linear_cosine(global_step: Any, decay_steps: Any, num_periods: Any, alpha: Any, beta: Any,
                   cast: Callable[[Any], Tensor], noise: Callable[[Tensor], Tensor] | None) -> Tensor:
    """``(alpha + linear [+ noise]) * cosine(2 * num_periods * fraction) + beta``."""
    steps = cast(decay_steps)
    step = m.minimum(cast(global_step), steps)
    linear = (steps - step) / steps
    if noise is not None:
        linear = linear + noise(step)
    return (cast(alpha) + linear) * _cosine(2.0 * cast(num_periods) * (step / steps)) + cast(beta)


def linear_cosine_decay(learning_rate: Any, global_step: Any, decay_steps: Any, num_periods: Any = 0.5,
                        alpha: Any = 0.0, beta: Any = 0.001, name: str | None = None) -> Tensor:
    """A cosine of ``num_periods`` periods over ``decay_steps``, scaled by a linear decay."""
    def body(lr: Tensor, cast: Callable[[Any], Tensor], scope: str) -> Tensor:
        decayed = _linear_cosine(global_step, decay_steps, num_periods, alpha, beta, cast, None)
        return m.multiply(lr, decayed, name=scope)
    return _schedule("linear_cosine_decay", "LinearCosineDecay", learning_rate, global_step, name, body)


def noisy_linear_cosine_decay(learning_rate: Any, global_step: Any, decay_steps: Any, initial_variance: Any = 1.0,
                              variance_decay: Any = 0.55, num_periods: Any = 0.5, alpha: Any = 0.0,
                              beta: Any = 0.001, name: str | None = None) -> Tensor:
    """``linear_cosine_decay`` with normal noise of variance ``initial_variance / (1 + step) ** variance_decay``
    added to the linear part (a new draw each run)."""
    def body(lr: Tensor, cast: Callable[[Any], Tensor], scope: str) -> Tensor:
        def noise(step: Tensor) -> Tensor:
            std = m.sqrt(cast(initial_variance) / m.pow(1.0 + step, cast(variance_decay)))
            return random_ops.random_normal([], stddev=std, dtype=lr.dtype)
        decayed = _linear_cosine(global_step, decay_steps, num_periods, alpha, beta, cast, noise)
        return m.multiply(lr, decayed, name=scope)
    return _schedule("noisy_linear_cosine_decay", "NoisyLinearCosineDecay", learning_rate, global_step, name, body)


def piecewise_constant(x: Any, boundaries: Any, values: Any, name: str | None = None) -> Tensor:
    """``values[0]`` while ``x <= boundaries[0]``, ``values[i]`` while ``boundaries[i-1] < x <= boundaries[i]``,
    ``values[-1]`` after the last boundary.

    >>> # lr = tf.train.piecewise_constant(step, [1000, 5000], [0.1, 0.01, 0.001])
    """
    for what, given in (("boundaries", boundaries), ("values", values)):
        if not isinstance(given, (list, tuple)):
            raise TypeError(f"piecewise_constant: {what} must be a list of numbers or scalar tensors, got {given!r}")
    boundaries, values = list(boundaries), list(values)
    if len(boundaries) != len(values) - 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")
    graph = graph_of([x, *boundaries, *values])
    with graph.as_default(), graph.name_scope(name or "PiecewiseConstant"):
        x = convert_to_tensor(x)
        bounds = [_boundary(convert_to_tensor(b), x.dtype) for b in boundaries]
        levels = [convert_to_tensor(v) for v in values]
        for level in levels[1:]:
            if level.dtype is not levels[0].dtype:
                raise ValueError(f"Values must have elements all with the same dtype ({levels[0].dtype.name} vs "
                                 f"{level.dtype.name}).")
        result = levels[-1]
        for bound, level in zip(reversed(bounds), reversed(levels[:-1]), strict=True):
            result = a.where_v2(m.less_equal(x, bound), level, result)
        return a.identity(result, name="value")


piecewise_constant_decay = piecewise_constant


def _boundary(bound: Tensor, dtype: Any) -> Tensor:
    if bound.dtype is dtype:
        return bound
    if bound.dtype is _dt.int32 and dtype is _dt.int64:
        return m.cast(bound, dtype)
    raise ValueError(f"Boundaries ({bound.dtype.name}) must have the same dtype as x ({dtype.name}).")
