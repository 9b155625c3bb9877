"""``tf.nn.dynamic_rnn`` and ``tf.nn.bidirectional_dynamic_rnn``: a cell over the time axis of one tensor.

Same numbers, gradients and variable names as TF-1.x (``rnn/<cell>/kernel``...). The steps are
recorded one after another over the static time dimension (``tf.while_loop`` is not on main yet),
so the number of steps must be known when the graph is built; a ValueError says so otherwise.
"""
from __future__ import annotations

from typing import Any

from ..ops import array_ops as a
from ..ops.convert import convert_to_tensor
from ..ops.layout_ops import reverse
from ..ops.variables import variable_scope
from ..ssa.graph import Tensor
from . import nest
from .recurrence import check_cell, reverse_sequence, sequence_lengths, start_state
from .static import unroll

__all__ = ["dynamic_rnn", "bidirectional_dynamic_rnn"]


def _swap_batch_time(x: Tensor) -> Tensor:
    rank = x.shape.rank
    if rank is not None and rank < 2:
        raise ValueError(f"Expected input tensor {x.name} to have rank at least 2, but saw shape: {x.shape}")
    if rank is None:
        raise ValueError(f"dynamic_rnn needs the rank of its input {x.name}")
    return a.transpose(x, [1, 0, *range(2, rank)])


def _time_steps(flat: list[Tensor]) -> int:
    dims = flat[0].shape.as_list()
    for x in flat:
        if len(x.shape.as_list()) < 3 or None in x.shape.as_list()[2:]:
            raise ValueError(f"Input size (depth of inputs) must be accessible via shape inference, but saw value "
                             f"None (input {x.name}, time-major shape {x.shape}).")
    if dims[0] is None:
        raise ValueError(f"dynamic_rnn records one step per time step, so the number of steps of {flat[0].name} "
                         f"(time-major shape {flat[0].shape}) must be known when the graph is built")
    return dims[0]


def dynamic_rnn(cell: Any, inputs: Any, sequence_length: Any = None, initial_state: Any = None, dtype: Any = None,
                parallel_iterations: Any = None, swap_memory: bool = False, time_major: bool = False,
                scope: Any = None) -> tuple[Any, Any]:
    """``(outputs, state)``: ``cell`` run over ``inputs``' time axis (``[batch, time, depth]``, or
    ``[time, batch, depth]`` with ``time_major=True``); past a row's ``sequence_length`` the outputs are
    zero and the state is carried through.

    >>> # outputs, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(64), x, sequence_length=n, dtype=tf.float32)
    """
    check_cell(cell)
    flat = [convert_to_tensor(x) for x in nest.flatten(inputs)]
    with variable_scope(scope or "rnn"):
        if not time_major:
            flat = [_swap_batch_time(x) for x in flat]
        steps = _time_steps(flat)
        columns = [a.unstack(x, num=steps) for x in flat]
        step_inputs = [nest.pack_sequence_as(inputs, [column[t] for column in columns]) for t in range(steps)]
        if initial_state is None and not dtype:
            raise ValueError("If there is no initial_state, you must give a dtype.")
        state = start_state(cell, initial_state, dtype, columns[0][0])
        outputs, state = unroll(cell, step_inputs, state, sequence_lengths(sequence_length), dtype)
        flat_outputs = [a.stack(list(leaves)) for leaves in zip(*[nest.flatten(o) for o in outputs], strict=True)]
        if not time_major:
            flat_outputs = [_swap_batch_time(o) for o in flat_outputs]
        return nest.pack_sequence_as(outputs[0], flat_outputs), state


def bidirectional_dynamic_rnn(cell_fw: Any, cell_bw: Any, inputs: Any, sequence_length: Any = None,
                              initial_state_fw: Any = None, initial_state_bw: Any = None, dtype: Any = None,
                              parallel_iterations: Any = None, swap_memory: bool = False, time_major: bool = False,
                              scope: Any = None) -> tuple[tuple, tuple]:
    """``((output_fw, output_bw), (state_fw, state_bw))``: ``cell_fw`` over ``inputs``, ``cell_bw`` over them
    reversed in time (each row within its ``sequence_length``), ``output_bw`` put back in forward order."""
    check_cell(cell_fw, "cell_fw")
    check_cell(cell_bw, "cell_bw")
    time_axis, batch_axis = (0, 1) if time_major else (1, 0)
    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            output_fw, state_fw = dynamic_rnn(cell_fw, inputs, sequence_length, initial_state_fw, dtype,
                                              time_major=time_major, scope=fw_scope)
        with variable_scope("bw") as bw_scope:
            lengths = sequence_lengths(sequence_length)

            def backwards(x: Tensor) -> Tensor:
                if lengths is None:
                    return reverse(x, [time_axis])
                return reverse_sequence(x, lengths, time_axis, batch_axis)
            reversed_inputs = nest.map_structure(lambda x: backwards(convert_to_tensor(x)), inputs)
            reversed_bw, state_bw = dynamic_rnn(cell_bw, reversed_inputs, sequence_length, initial_state_bw, dtype,
                                                time_major=time_major, scope=bw_scope)
    output_bw = nest.map_structure(backwards, reversed_bw)
    return (output_fw, output_bw), (state_fw, state_bw)
