"""Gradients users register: ``tf.RegisterGradient``, ``tf.NotDifferentiable`` (and ``custom_gradient``,
which registers through them), by TF op type; ``walk.gradient_function`` looks them up first."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..primitives import BY_NAME
from ..ssa.graph import Operation
from .rules import Needed, Rule

__all__ = ["RegisterGradient", "NotDifferentiable", "NoGradient", "USER_RULES"]

USER_RULES: dict[str, Rule | None] = {}  # by TF op type: user gradients (RegisterGradient, custom_gradient)


class RegisterGradient:
    """Decorator: ``@tf.RegisterGradient("MySquare") def _grad(op, grad): ...``."""

    def __init__(self, op_type: str) -> None:
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, f: Callable) -> Callable:
        _register(self._op_type, f)
        return f


def NotDifferentiable(op_type: str) -> None:  # TF's public name
    """Declare that ops of ``op_type`` have no gradient (their inputs get None)."""
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    _register(op_type, None)


NoGradient = NotDifferentiable


def _register(op_type: str, f: Callable | None) -> None:
    if op_type in USER_RULES or op_type in BY_NAME:
        raise KeyError(f"Registering two gradient with name '{op_type}'! (Previous registration was in "
                       f"{'s2sgrad' if op_type in BY_NAME else 'user code'})")
    USER_RULES[op_type] = None if f is None else _user_rule(f)


def _user_rule(f: Callable) -> Rule:
    """A user's ``f(op, *out_grads)`` as a rule (users are not told which inputs are needed)."""
    def rule(op: Operation, needed: Needed, *out_grads: Any) -> Any:
        return f(op, *out_grads)
    return rule
