"""``tf.nn.dynamic_rnn`` and ``tf.nn.bidirectional_dynamic_rnn``: a cell over the time axis of one tensor.

As in TF-1.x, the steps are a ``tf.while_loop`` reading each step's input from a ``TensorArray`` and
writing each step's output to another, so the number of steps may be known only at run time and
the generated code is one loop (and one reversed loop for the gradient) whatever the length.
Variables are named as TensorFlow names them (``rnn/<cell>/kernel``...).
"""
from __future__ import annotations

from typing import Any

from ..ops import array_ops as a
from ..ops import nest
from ..ops.convert import convert_to_tensor
from ..ops.layout_ops import reverse
from ..ops.loop_ops import while_loop
from ..ops.tensor_array_ops import TensorArray
from ..ops.variables import variable_scope
from ..shapes import TensorShape
from ..ssa.graph import Tensor, name_scope
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

__all__ = ["dynamic_rnn", "bidirectional_dynamic_rnn"]


def _swap_batch_time(x: Tensor) -> Tensor:
    rank = x.shape.rank
    if rank is not None and rank < 2:
        raise ValueError(f"Expected input tensor {x.name} to have rank at least 2, but saw shape: {x.shape}")
    if rank is None:
        raise ValueError(f"dynamic_rnn needs the rank of its input {x.name}")
    return a.transpose(x, [1, 0, *range(2, rank)])


def _check_depth(flat: list[Tensor]) -> None:
    for x in flat:
        dims = x.shape.as_list() if x.shape.rank is not None else [None]
        if len(dims) < 3 or None in dims[2:]:
            raise ValueError(f"Input size (depth of inputs) must be accessible via shape inference, but saw value "
                             f"None (input {x.name}, time-major shape {x.shape}).")


def _loop(cell: RNNCell, inputs: Any, flat: list[Tensor], state: Any, lengths: Tensor | None, dtype: Any,
          parallel_iterations: Any, swap_memory: bool) -> tuple[list[Tensor], Any]:
    """The while loop over the time-major ``flat`` inputs: (time-major outputs, final state)."""
    static_steps = flat[0].shape.as_list()[0]
    steps = static_steps if static_steps is not None else a.shape(flat[0])[0]
    with name_scope("dynamic_rnn"):
        input_tas = [TensorArray(x.dtype, size=steps, element_shape=x.shape[1:], name=f"input_{i}").unstack(x)
                     for i, x in enumerate(flat)]
        out_dtype = dtype or nest.flatten(state)[0].dtype
        zeros = zero_output(cell, batch_dimension(flat[0], 1), out_dtype) if lengths is not None else None
        output_sizes = nest.flatten(cell.output_size)
        output_tas = [TensorArray(out_dtype, size=steps, name=f"output_{i}") for i in range(len(output_sizes))]
    step_shapes = [x.shape[1:] for x in flat]

    def step(time: Tensor, tas: list, state: Any) -> tuple:
        reads = [ta.read(time) for ta in input_tas]
        for read, shape in zip(reads, step_shapes, strict=True):
            read.set_shape(shape)
        output, new_state = masked_step(cell, time, nest.pack_sequence_as(inputs, reads), state, lengths, zeros)
        return time + 1, [ta.write(time, o) for ta, o in zip(tas, nest.flatten(output), strict=True)], new_state
    _, output_tas, state = while_loop(lambda time, *_: time < steps, step, (0, output_tas, state),
                                      parallel_iterations=parallel_iterations or 32, swap_memory=swap_memory)
    batch = flat[0].shape.as_list()[1]
    outputs = []
    for ta, size in zip(output_tas, output_sizes, strict=True):
        out = ta.stack()
        out.set_shape(TensorShape([static_steps, batch]).concatenate(size))
        outputs.append(out)
    return outputs, state


def dynamic_rnn(cell: Any, inputs: Any, sequence_length: Any = None, initial_state: Any = None, dtype: Any = None,
                parallel_iterations: Any = None, swap_memory: bool = False, time_major: bool = False,
                scope: Any = None) -> tuple[Any, Any]:
    """``(outputs, state)``: ``cell`` run over ``inputs``' time axis (``[batch, time, depth]``, or
    ``[time, batch, depth]`` with ``time_major=True``); past a row's ``sequence_length`` the outputs are
    zero and the state is carried through.

    >>> # outputs, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(64), x, sequence_length=n, dtype=tf.float32)
    """
    check_cell(cell)
    flat, dtype = [convert_to_tensor(x) for x in nest.flatten(inputs)], dtype_or_none(dtype)
    with variable_scope(scope or "rnn"):
        if not time_major:
            flat = [_swap_batch_time(x) for x in flat]
        _check_depth(flat)
        if initial_state is None and dtype is None:
            raise ValueError("If there is no initial_state, you must give a dtype.")
        state = start_state(cell, initial_state, dtype, batch_dimension(flat[0], 1))
        outputs, state = _loop(cell, inputs, flat, state, sequence_lengths(sequence_length), dtype,
                               parallel_iterations, swap_memory)
        if not time_major:
            outputs = [_swap_batch_time(o) for o in outputs]
        return nest.pack_sequence_as(cell.output_size, outputs), state


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
