"""TF's switches between TF-1.x and TF-2 behaviour: s2sgrad always runs TF-1.x graphs.

Turning eager execution or TF-2 behaviour off is accepted and does nothing; turning it on is
refused, since s2sgrad builds graphs and runs them with ``Session.run`` only.
"""
from __future__ import annotations

from typing import Any

__all__ = ["disable_eager_execution", "disable_tensor_equality", "disable_v2_behavior", "enable_eager_execution",
           "enable_tensor_equality", "enable_v2_behavior", "executing_eagerly", "executing_eagerly_outside_functions"]

_GRAPH_MODE_ONLY = ("s2sgrad runs TensorFlow 1.x graph programs only: there is no eager execution. "
                    "Remove the call to tf.{}() and evaluate tensors with tf.Session().run(...)")


def executing_eagerly() -> bool:
    """Always False: ops build a graph, ``Session.run`` computes it."""
    return False


def executing_eagerly_outside_functions() -> bool:
    """Always False, as ``executing_eagerly``."""
    return False


def disable_eager_execution() -> None:
    """Accepted for TF-2 installs' sake; s2sgrad has no eager mode to disable."""


def disable_v2_behavior() -> None:
    """Accepted for TF-2 installs' sake; s2sgrad always behaves as TF-1.x."""


def enable_eager_execution(config: Any = None, device_policy: Any = None, execution_mode: Any = None) -> None:
    """Refused with NotImplementedError: s2sgrad is graph mode only."""
    raise NotImplementedError(_GRAPH_MODE_ONLY.format("enable_eager_execution"))


def enable_v2_behavior() -> None:
    """Refused with NotImplementedError: s2sgrad is graph mode only."""
    raise NotImplementedError(_GRAPH_MODE_ONLY.format("enable_v2_behavior"))


def disable_tensor_equality() -> None:
    """Accepted: ``==`` on tensors already compares identity, as in TF-1.x (``tf.equal`` compares values)."""


def enable_tensor_equality() -> None:
    """Refused with NotImplementedError: ``==`` on tensors compares identity, as in TF-1.x."""
    raise NotImplementedError("s2sgrad keeps TensorFlow 1.x's tensor equality: `a == b` is True only for the same "
                              "tensor. Remove the call to tf.enable_tensor_equality() and compare values with "
                              "tf.equal(a, b)")
