"""``tf.contrib.framework``: the global-step helpers, which TF 1.x later moved to ``tf.train``."""
from ..tf1_api import missing_names as _missing_names
from ..train.global_step import get_global_step, get_or_create_global_step

__all__ = ["get_global_step", "get_or_create_global_step"]


__getattr__ = _missing_names("contrib.framework", __name__)
