"""``tf.io``: so far its file API, ``tf.io.gfile``."""
from .platform import io_gfile as gfile

__all__ = ["gfile"]
