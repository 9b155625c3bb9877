"""``tf.train``: optimizers and the global step."""
from ..checkpoint import (CheckpointReader, CheckpointState, NewCheckpointReader, Saver, SaverDef, checkpoint_exists,
                          generate_checkpoint_state_proto, get_checkpoint_mtimes, get_checkpoint_state,
                          init_from_checkpoint, latest_checkpoint, list_variables, load_checkpoint, remove_checkpoint,
                          update_checkpoint_state)
from ..tf1_api import missing_names as _missing_names
from .adagrad import AdagradOptimizer
from .adam import AdamOptimizer
from .gradient_descent import GradientDescentOptimizer
from .momentum import MomentumOptimizer
from .optimizer import Optimizer, get_global_step, get_or_create_global_step, global_step
from .rmsprop import RMSPropOptimizer

__all__ = ["Optimizer", "GradientDescentOptimizer", "MomentumOptimizer", "AdamOptimizer", "AdagradOptimizer",
           "RMSPropOptimizer", "get_global_step", "get_or_create_global_step", "global_step"]
__all__ += ["Saver", "SaverDef", "CheckpointReader", "CheckpointState", "NewCheckpointReader", "checkpoint_exists",
            "generate_checkpoint_state_proto", "get_checkpoint_mtimes", "get_checkpoint_state", "init_from_checkpoint",
            "latest_checkpoint", "list_variables", "load_checkpoint", "remove_checkpoint", "update_checkpoint_state"]


__getattr__ = _missing_names("train", __name__)
