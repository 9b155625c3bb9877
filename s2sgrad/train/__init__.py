"""``tf.train``: optimizers, the global step, checkpoints (Saver, readers, the state file) and
the ``tf.train.Example`` messages of tf.data."""
from ..checkpoint.init_from import init_from_checkpoint
from ..checkpoint.reader import CheckpointReader, NewCheckpointReader, list_variables, load_checkpoint
from ..checkpoint.saver import Saver, SaverDef
from ..checkpoint.state import (
    CheckpointState,
    checkpoint_exists,
    generate_checkpoint_state_proto,
    get_checkpoint_mtimes,
    get_checkpoint_state,
    latest_checkpoint,
    remove_checkpoint,
    update_checkpoint_state,
)
from ..data.example import (
    BytesList,
    Example,
    Feature,
    FeatureList,
    FeatureLists,
    Features,
    FloatList,
    Int64List,
    SequenceExample,
)
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
__all__ += ["BytesList", "Example", "Feature", "FeatureList", "FeatureLists", "Features", "FloatList",  # tf.data's
            "Int64List", "SequenceExample"]


__getattr__ = _missing_names("train", __name__)
