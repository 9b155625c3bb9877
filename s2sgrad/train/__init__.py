"""``tf.train``: optimizers, learning-rate schedules, the global step, moving averages, checkpoints
(Saver, readers, the state file), monitored sessions and their hooks, and the ``tf.train.Example``
messages of tf.data."""
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
from .adadelta import AdadeltaOptimizer
from .adagrad import AdagradOptimizer
from .adagrad_da import AdagradDAOptimizer
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
from .ftrl import FtrlOptimizer
from .global_step import assert_global_step, create_global_step, get_global_step, get_or_create_global_step, global_step
from .gradient_descent import GradientDescentOptimizer
from .learning_rate_decay import (
    cosine_decay,
    cosine_decay_restarts,
    exponential_decay,
    inverse_time_decay,
    linear_cosine_decay,
    natural_exp_decay,
    noisy_linear_cosine_decay,
    piecewise_constant,
    piecewise_constant_decay,
    polynomial_decay,
)
from .momentum import MomentumOptimizer
from .monitored_session import MonitoredSession, MonitoredTrainingSession, SingularMonitoredSession
from .moving_averages import ExponentialMovingAverage
from .optimizer import Optimizer
from .proximal import ProximalAdagradOptimizer, ProximalGradientDescentOptimizer
from .rmsprop import RMSPropOptimizer
from .saving_hooks import CheckpointSaverHook, CheckpointSaverListener, SummarySaverHook
from .scaffold import ChiefSessionCreator, Scaffold, SessionCreator, WorkerSessionCreator
from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues

__all__ = ["Optimizer", "GradientDescentOptimizer", "MomentumOptimizer", "AdamOptimizer", "AdagradOptimizer",
           "RMSPropOptimizer", "get_global_step", "get_or_create_global_step", "global_step",
           "AdadeltaOptimizer", "AdagradDAOptimizer", "FtrlOptimizer", "ProximalAdagradOptimizer",
           "ProximalGradientDescentOptimizer", "assert_global_step", "create_global_step",
           "exponential_decay", "piecewise_constant", "piecewise_constant_decay", "polynomial_decay",
           "natural_exp_decay", "inverse_time_decay", "cosine_decay", "cosine_decay_restarts",
           "linear_cosine_decay", "noisy_linear_cosine_decay", "ExponentialMovingAverage"]
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
