"""``tf.io``: so far its file API, ``tf.io.gfile``."""
from .platform import io_gfile as gfile
from .tf1_api import missing_names as _missing_names

__all__ = ["gfile"]

__getattr__ = _missing_names("io", __name__)  # TF names s2sgrad lacks say so
