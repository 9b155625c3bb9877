"""``tf.contrib.rnn``: the cells of ``tf.nn.rnn_cell`` and ``static_rnn`` under their contrib spellings."""
from ..rnn import (
                   BasicLSTMCell,
                   BasicRNNCell,
                   DeviceWrapper,
                   DropoutWrapper,
                   GRUCell,
                   LSTMCell,
                   LSTMStateTuple,
                   MultiRNNCell,
                   ResidualWrapper,
                   RNNCell,
                   static_bidirectional_rnn,
                   static_rnn,
)
from ..tf1_api import missing_names as _missing_names

__all__ = ["RNNCell", "LSTMStateTuple", "BasicRNNCell", "BasicLSTMCell", "LSTMCell", "GRUCell", "MultiRNNCell",
           "DropoutWrapper", "ResidualWrapper", "DeviceWrapper", "static_rnn", "static_bidirectional_rnn"]


__getattr__ = _missing_names("contrib.rnn", __name__)
