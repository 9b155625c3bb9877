"""``tf.train``: optimizers and the global step."""
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
__all__ += ["BytesList", "Example", "Feature", "FeatureList", "FeatureLists", "Features", "FloatList",  # tf.data's
            "Int64List", "SequenceExample"]


__getattr__ = _missing_names("train", __name__)
