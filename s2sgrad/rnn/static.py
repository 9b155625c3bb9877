"""``tf.nn.static_rnn`` and ``tf.nn.static_bidirectional_rnn``: a cell unrolled over a Python list of steps.

Variables live under ``rnn/`` (``bidirectional_rnn/fw/`` and ``.../bw/``) unless ``scope`` says
otherwise; every step shares them.
"""
from __future__ import annotations

from typing import Any

from ..ops import array_ops as a
from ..ops import nest
from ..ops.convert import convert_to_tensor
from ..ops.variables import get_variable_scope, variable_scope
from ..shapes import TensorShape
from ..ssa.graph import Tensor
from .cell_base import RNNCell, batch_dimension
from .recurrence import (
    check_cell,
    dtype_or_none,
    masked_step,
    reverse_sequence,
    sequence_lengths,
    start_state,
    zero_output,
)

__all__ = ["static_rnn", "static_bidirectional_rnn", "unroll"]


def _check_inputs(inputs: Any) -> list:
    """``inputs`` as a list of steps whose leaves are tensors with static depths."""
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"inputs must be a sequence, got {inputs!r}")
    if not inputs:
        raise ValueError("inputs must not be empty")
    inputs = [nest.map_structure(convert_to_tensor, step) for step in inputs]
    for x in nest.flatten(inputs[0]):
        dims = TensorShape(x.shape).with_rank_at_least(2).as_list()
        if None in dims[1:]:
            raise ValueError(f"Input size (dimension {dims.index(None, 1)} of inputs) must be accessible via "
                             f"shape inference, but saw value None (input {x.name}, shape {x.shape}).")
    return inputs


def unroll(cell: RNNCell, inputs: list, state: Any, lengths: Tensor | None, dtype: Any) -> tuple[list, Any]:
    """``cell`` applied to each step of ``inputs`` in turn from ``state``, in the current variable scope."""
    batch = batch_dimension(nest.flatten(inputs[0])[0])
    zeros = zero_output(cell, batch, dtype or nest.flatten(state)[0].dtype) if lengths is not None else None
    outputs = []
    for time, step_input in enumerate(inputs):
        if time > 0:
            get_variable_scope().reuse_variables()
        output, state = masked_step(cell, time, step_input, state, lengths, zeros)
        outputs.append(output)
    return outputs, state


def static_rnn(cell: Any, inputs: Any, initial_state: Any = None, dtype: Any = None, sequence_length: Any = None,
               scope: Any = None) -> tuple[list, Any]:
    """``(outputs, state)``: ``cell`` run over the list ``inputs`` (each ``[batch, depth]``).

    >>> # outputs, state = tf.nn.static_rnn(tf.nn.rnn_cell.BasicLSTMCell(64), tf.unstack(x, axis=1), dtype=tf.float32)
    """
    check_cell(cell)
    inputs, dtype = _check_inputs(inputs), dtype_or_none(dtype)
    with variable_scope(scope or "rnn"):
        state = start_state(cell, initial_state, dtype, batch_dimension(nest.flatten(inputs[0])[0]))
        return unroll(cell, inputs, state, sequence_lengths(sequence_length), dtype)


def _reverse_steps(steps: list, lengths: Tensor | None) -> list:
    """The list of steps reversed, each batch row within its own length when ``lengths`` is given."""
    if lengths is None:
        return list(reversed(steps))
    columns = []
    for leaves in zip(*[nest.flatten(s) for s in steps], strict=True):
        columns.append(a.unstack(reverse_sequence(a.stack(list(leaves)), lengths, 0, 1)))
    return [nest.pack_sequence_as(steps[0], [column[t] for column in columns]) for t in range(len(steps))]


def static_bidirectional_rnn(cell_fw: Any, cell_bw: Any, inputs: Any, initial_state_fw: Any = None,
                             initial_state_bw: Any = None, dtype: Any = None, sequence_length: Any = None,
                             scope: Any = None) -> tuple[list, Any, Any]:
    """``(outputs, state_fw, state_bw)``: ``cell_fw`` over ``inputs``, ``cell_bw`` over them reversed (each
    row within its ``sequence_length``); each output is the two directions' outputs joined on axis 1."""
    check_cell(cell_fw, "cell_fw")
    check_cell(cell_bw, "cell_bw")
    inputs = _check_inputs(inputs)
    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            output_fw, state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype, sequence_length, fw_scope)
        with variable_scope("bw") as bw_scope:
            lengths = sequence_lengths(sequence_length)
            reversed_bw, state_bw = static_rnn(cell_bw, _reverse_steps(inputs, lengths), initial_state_bw,
                                               dtype, sequence_length, bw_scope)
            output_bw = _reverse_steps(reversed_bw, lengths)
    outputs = [nest.map_structure(lambda f, b: a.concat([f, b], 1), fw, bw)
               for fw, bw in zip(output_fw, output_bw, strict=True)]
    return outputs, state_fw, state_bw
