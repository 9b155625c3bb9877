"""Recurrent networks as TF-1.x builds them: the ``tf.nn.rnn_cell`` cells and wrappers, ``static_rnn``,
``dynamic_rnn`` and their bidirectional forms, with TF's variable names."""
from .cell_base import LSTMStateTuple, RNNCell
from .cells import BasicLSTMCell, BasicRNNCell, GRUCell, LSTMCell
from .dynamic import bidirectional_dynamic_rnn, dynamic_rnn
from .static import static_bidirectional_rnn, static_rnn
from .wrappers import DeviceWrapper, DropoutWrapper, MultiRNNCell, ResidualWrapper

__all__ = ["RNNCell", "LSTMStateTuple", "BasicRNNCell", "BasicLSTMCell", "LSTMCell", "GRUCell", "MultiRNNCell",
           "DropoutWrapper", "ResidualWrapper", "DeviceWrapper", "static_rnn", "static_bidirectional_rnn",
           "dynamic_rnn", "bidirectional_dynamic_rnn"]
