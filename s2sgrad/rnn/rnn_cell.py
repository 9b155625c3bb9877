"""``tf.nn.rnn_cell``: the recurrent cells and the wrappers around them."""
from ..tf1_api import missing_names as _missing_names
from .cell_base import LSTMStateTuple, RNNCell
from .cells import BasicLSTMCell, BasicRNNCell, GRUCell, LSTMCell
from .wrappers import DeviceWrapper, DropoutWrapper, MultiRNNCell, ResidualWrapper

__all__ = ["RNNCell", "LSTMStateTuple", "BasicRNNCell", "BasicLSTMCell", "LSTMCell", "GRUCell", "MultiRNNCell",
           "DropoutWrapper", "ResidualWrapper", "DeviceWrapper"]


__getattr__ = _missing_names("nn.rnn_cell", __name__)
