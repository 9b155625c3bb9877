"""``tf.manip``: TF 1.x's short-lived home of a few array ops (``tf.manip.tile`` is ``tf.tile``)."""
from .ops.array_ops import reshape
from .ops.indexing_ops import gather_nd, scatter_nd
from .ops.layout_ops import reverse, tile
from .tf1_api import missing_names as _missing_names

__all__ = ["gather_nd", "reshape", "reverse", "scatter_nd", "tile"]


__getattr__ = _missing_names("manip", __name__)
