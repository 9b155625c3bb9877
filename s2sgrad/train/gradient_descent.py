"""``tf.train.GradientDescentOptimizer``: ``var -= learning_rate * grad``."""
from __future__ import annotations

from typing import Any

from ..ops import variables as v
from ..ops.convert import convert_to_tensor
from .optimizer import Optimizer


class GradientDescentOptimizer(Optimizer):
    """Plain gradient descent."""

    def __init__(self, learning_rate: Any, use_locking: bool = False, name: str = "GradientDescent") -> None:
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate

    def _apply_dense(self, grad: Any, var: v.Variable) -> Any:
        lr = convert_to_tensor(self._learning_rate, var.dtype) if not hasattr(self._learning_rate, "dtype") \
            else self._learning_rate
        return v.assign_sub(var, lr * grad).op
