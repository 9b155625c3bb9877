"""``tf.train``: optimizers and the global step."""
from .gradient_descent import GradientDescentOptimizer
from .optimizer import Optimizer, get_global_step, get_or_create_global_step

__all__ = ["Optimizer", "GradientDescentOptimizer", "get_global_step", "get_or_create_global_step"]
