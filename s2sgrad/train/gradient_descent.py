"""``tf.train.GradientDescentOptimizer``: ``var -= learning_rate * grad``."""
from __future__ import annotations

from typing import Any

from ..ops import variables as v
from ..ssa.graph import Operation, Tensor
from .optimizer import Optimizer


class GradientDescentOptimizer(Optimizer):
    """Plain gradient descent.

    >>> # train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    """

    def __init__(self, learning_rate: Any, use_locking: bool = False, name: str = "GradientDescent") -> None:
        super().__init__(use_locking, name)
        self._set_hyper("learning_rate", learning_rate)

    def _apply_dense(self, grad: Tensor, var: v.Variable) -> Operation:
        return v.assign_sub(var, grad * self._hyper("learning_rate", var)).op
