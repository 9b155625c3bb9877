"""``tf.train``: optimizers, the global step, checkpoints (Saver, readers, the state file), monitored sessions
and their hooks, and the ``tf.train.Example`` messages of tf.data."""
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
from ..summary.writer import FileWriterCache as SummaryWriterCache
from ..tf1_api import missing_names as _missing_names
from .adagrad import AdagradOptimizer
from .adam import AdamOptimizer
from .basic_hooks import (
                          FeedFnHook,
                          FinalOpsHook,
                          LoggingTensorHook,
                          NanLossDuringTrainingError,
                          NanTensorHook,
                          SecondOrStepTimer,
                          StepCounterHook,
                          StopAtStepHook,
)
from .coordinator import Coordinator
from .gradient_descent import GradientDescentOptimizer
from .momentum import MomentumOptimizer
from .monitored_session import MonitoredSession, MonitoredTrainingSession, SingularMonitoredSession
from .optimizer import Optimizer, get_global_step, get_or_create_global_step, global_step
from .rmsprop import RMSPropOptimizer
from .saving_hooks import CheckpointSaverHook, CheckpointSaverListener, SummarySaverHook
from .scaffold import ChiefSessionCreator, Scaffold, SessionCreator, WorkerSessionCreator
from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues

__all__ = ["Optimizer", "GradientDescentOptimizer", "MomentumOptimizer", "AdamOptimizer", "AdagradOptimizer",
           "RMSPropOptimizer", "get_global_step", "get_or_create_global_step", "global_step"]
__all__ += ["Saver", "SaverDef", "CheckpointReader", "CheckpointState", "NewCheckpointReader", "checkpoint_exists",
            "generate_checkpoint_state_proto", "get_checkpoint_mtimes", "get_checkpoint_state", "init_from_checkpoint",
            "latest_checkpoint", "list_variables", "load_checkpoint", "remove_checkpoint", "update_checkpoint_state"]
__all__ += ["MonitoredSession", "MonitoredTrainingSession", "SingularMonitoredSession", "Scaffold", "SessionCreator",
            "ChiefSessionCreator", "WorkerSessionCreator", "SessionRunHook", "SessionRunArgs", "SessionRunContext",
            "SessionRunValues", "StopAtStepHook", "StepCounterHook", "LoggingTensorHook", "NanTensorHook",
            "NanLossDuringTrainingError", "FinalOpsHook", "FeedFnHook", "SecondOrStepTimer", "CheckpointSaverHook",
            "CheckpointSaverListener", "SummarySaverHook", "Coordinator", "SummaryWriterCache"]
__all__ += ["BytesList", "Example", "Feature", "FeatureList", "FeatureLists", "Features", "FloatList",  # tf.data's
            "Int64List", "SequenceExample"]


__getattr__ = _missing_names("train", __name__)
