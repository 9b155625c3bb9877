"""``tf.debugging``: the finiteness tests under their ``tf.debugging.*`` names."""
from .ops.math_ops import is_finite, is_inf, is_nan
from .tf1_api import missing_names as _missing_names

__all__ = ["is_finite", "is_inf", "is_nan"]


__getattr__ = _missing_names("debugging", __name__)
