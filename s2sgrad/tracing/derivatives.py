"""Derivative programs on a traced graph: gradients, Jacobians and Hessians.

They are the gradient layer's (``autodiff/derivatives.py``), the same that ``tf.hessians`` uses.
"""
from __future__ import annotations

from ..autodiff.derivatives import gradient, hessian, jacobian

__all__ = ["gradient", "jacobian", "hessian"]
