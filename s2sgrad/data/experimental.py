"""``tf.data.experimental``: so far only ``AUTOTUNE``."""
from ..tf1_api import missing_names as _missing_names
from .dataset import AUTOTUNE

__all__ = ["AUTOTUNE"]

__getattr__ = _missing_names("data.experimental", __name__)
