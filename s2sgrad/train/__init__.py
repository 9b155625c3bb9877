"""``tf.train``: optimizers and the global step."""
from ..tf1_api import missing_names as _missing_names
from .adadelta import AdadeltaOptimizer
from .adagrad import AdagradOptimizer
from .adagrad_da import AdagradDAOptimizer
from .adam import AdamOptimizer
from .ftrl import FtrlOptimizer
from .gradient_descent import GradientDescentOptimizer
from .momentum import MomentumOptimizer
from .optimizer import Optimizer, get_global_step, get_or_create_global_step, global_step
from .proximal import ProximalAdagradOptimizer, ProximalGradientDescentOptimizer
from .rmsprop import RMSPropOptimizer

__all__ = ["Optimizer", "GradientDescentOptimizer", "MomentumOptimizer", "AdamOptimizer", "AdagradOptimizer",
           "RMSPropOptimizer", "get_global_step", "get_or_create_global_step", "global_step",
           "AdadeltaOptimizer", "AdagradDAOptimizer", "FtrlOptimizer", "ProximalAdagradOptimizer",
           "ProximalGradientDescentOptimizer"]


__getattr__ = _missing_names("train", __name__)
